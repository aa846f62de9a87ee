package results

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/callgrade/callgrade/value"
)

// ResponseLine is one line of a responses stream (spec section 2),
// `{"id": ..., "response": R}`, as read before its response is scored:
// whom it is for, and what it holds.
type ResponseLine struct {
	// ID is the case the line names: a string, or a number read as
	// written. Sample is its sample, from 0, in a stream with samples.
	ID     string
	Sample int
	// Doc is the whole line, Response its "response", HasResponse whether
	// it has one: a harness that could not get an answer (a timeout, an
	// API error) may still write the line. Zero for a Broken line.
	Doc         value.Value
	Response    value.Value
	HasResponse bool
	// InvalidUTF8 says that the line holds text that is not UTF-8, kept
	// as it is: it fails only the calls that hold it.
	InvalidUTF8 bool
	// Broken, when not nil, is why the line is not valid JSON: the model's
	// output broke it, and the id (and sample) were read from its text.
	Broken error
	// Text is the line as read, without its newline; the values above
	// may share its memory.
	Text string
}

// ReadResponseLine reads text, line number line of a responses stream
// with samples samples per case (0 for none), parsed with p (nil for a
// parser of its own) within lim. What a model's output may break is not
// an error: a line that is not valid JSON but whose id can still be read
// is Broken, and text that is not UTF-8 is kept (InvalidUTF8). A line
// that is not a JSON object with an id, or with samples one without a
// "sample" from 0 to samples-1, is an *InputError naming the line, its
// File left for the caller to set. Which lines are blank is the caller's
// to decide.
func ReadResponseLine(p *value.Parser, text string, line int, lim value.Limits, samples int) (ResponseLine, *InputError) {
	rl := ResponseLine{Text: text}
	doc, perr := p.Parse(text, lim)
	if errors.Is(perr, value.ErrInvalidUTF8) {
		// Text that is not UTF-8 fails the calls that hold it, not the
		// line: a model's broken answer text or one broken call must not
		// take the case's other calls down with it.
		if d, err := p.ParseKeepInvalidUTF8(text, lim); err == nil {
			doc, perr, rl.InvalidUTF8 = d, nil, true
		}
	}
	if perr != nil {
		// The model's output broke the line: its case fails, but only if
		// the line still names it.
		id, k, found, err := ReadResponseHead(text, samples)
		if !found {
			return ResponseLine{}, &InputError{Line: line, Msg: "not a JSON response line" + lineHint(text, line), Err: perr}
		}
		if err != nil {
			err.Line = line
			return ResponseLine{}, err
		}
		return ResponseLine{ID: id, Sample: k, Broken: perr, Text: text}, nil
	}
	if doc.Kind() != value.Object {
		return ResponseLine{}, &InputError{Line: line, Msg: "a response line must be a JSON object with an id, not " + doc.Kind().String() + lineHint(text, line)}
	}
	idv, ok := doc.Get("id")
	if !ok || idv.Kind() != value.String && idv.Kind() != value.Number {
		return ResponseLine{}, &InputError{Line: line, Msg: `a response line needs "id", a string (or a number, read as written)`}
	}
	rl.ID, rl.Doc = idv.Str(), doc
	rl.Response, rl.HasResponse = doc.Get("response")
	if samples > 0 {
		var err *InputError
		if rl.Sample, err = sampleOf(doc, samples); err != nil {
			err.Line = line
			return ResponseLine{}, err
		}
	}
	return rl, nil
}

// ReadResponseHead reads the id and, with samples, the sample of a line
// that is not parsed (not valid JSON, or too long to be held, of which
// text is the head) from its text as written. found says whether an id
// was found; an error is a sample that does not fit, its Line left for
// the caller to set.
func ReadResponseHead(text string, samples int) (id string, sample int, found bool, err *InputError) {
	idr := gjson.Get(text, "id")
	switch idr.Type {
	case gjson.Number:
		id = idr.Raw
	case gjson.String:
		id = idr.String()
	default:
		return "", 0, false, nil
	}
	if samples > 0 {
		sample, err = rawSampleOf(text, samples)
	}
	return id, sample, true, err
}

// lineHint says what a line that is no response line looks like it is
// instead: a whole JSON array (as the first line), or the first line of
// an object written over several lines.
func lineHint(text string, line int) string {
	t := strings.TrimSpace(text)
	switch {
	case line == 1 && strings.HasPrefix(t, "["):
		return ` (a responses file is JSON Lines: one {"id": …, "response": …} object on each line, not one array)`
	case strings.HasPrefix(t, "{") && !strings.HasSuffix(t, "}"):
		return ` (a responses file is JSON Lines: each response object on a line of its own, not pretty-printed over several)`
	}
	return ""
}

// sampleOf reads the "sample" of a response line in a stream with samples
// samples per case: an integer from 0 to samples-1, written as an integer.
// The error's Line is left for the caller to set.
func sampleOf(doc value.Value, samples int) (int, *InputError) {
	v, ok := doc.Get("sample")
	if !ok {
		return 0, noSample(samples)
	}
	raw := ""
	if v.Kind() == value.Number {
		raw = v.Str()
	}
	return checkSample(raw, string(v.AppendJSON(nil)), samples)
}

// rawSampleOf is sampleOf for a line that is not valid JSON but whose id
// could still be read: its "sample" is read as its id was.
func rawSampleOf(text string, samples int) (int, *InputError) {
	v := gjson.Get(text, "sample")
	if !v.Exists() {
		return 0, noSample(samples)
	}
	raw := ""
	if v.Type == gjson.Number {
		raw = v.Raw
	}
	return checkSample(raw, v.Raw, samples)
}

func noSample(samples int) *InputError {
	return &InputError{Msg: fmt.Sprintf(`the line has no "sample"; with %d samples per case, each line needs one, from 0 to %d`, samples, samples-1)}
}

// checkSample reads raw, a number's text ("" for a value that is not a
// number), as a sample of samples; shown is the value as written, for the
// message.
func checkSample(raw, shown string, samples int) (int, *InputError) {
	k, err := strconv.Atoi(raw)
	if err != nil || k < 0 || k >= samples || raw != strconv.Itoa(k) {
		if len(shown) > 40 {
			shown = shown[:37] + "..."
		}
		return 0, &InputError{Msg: fmt.Sprintf(`"sample" must be an integer from 0 to %d (%d samples per case), not %s`, samples-1, samples, shown)}
	}
	return k, nil
}
