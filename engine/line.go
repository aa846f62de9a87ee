package engine

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/callgrade/callgrade/response"
	"github.com/callgrade/callgrade/value"
)

// scoreLine scores one line of a responses stream into r (see
// Scorer.ScoreLine); guess is the case the line most likely is. With w, the
// line is parsed into w's memory, and r is valid until w is reused.
func (e *Engine) scoreLine(r *Result, text string, line, guess int, w *work) (int, *InputError) {
	i, _, err := e.scoreSampleLine(r, text, line, guess, 0, nil, w)
	return i, err
}

// errCut stands for the parse error of a line too long to be read.
var errCut = errors.New("line too long")

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

// cutLine is a response line longer than RunOptions.MaxLineBytes, which
// Run did not keep: only its first bytes (cutHead), where its id is.
type cutLine struct {
	n, limit int // the line's length and the limit, in bytes
}

// scoreSampleLine is scoreLine in a run with samples samples per case (0
// for none): the line must then carry "sample", from 0 to samples-1, which
// it returns and sets in r, also for a line whose id names no case. With
// cut, text is the head of a line too long to read (see cutLine): its
// case, named by the id found there, fails.
func (e *Engine) scoreSampleLine(r *Result, text string, line, guess, samples int, cut *cutLine, w *work) (int, int, *InputError) {
	// The line as a whole may be as long as RunOptions.MaxLineBytes lets
	// it; the limits that guard against hostile output apply to each
	// arguments string.
	depth := e.opts.Limits.MaxDepth
	if depth <= 0 {
		depth = value.DefaultLimits.MaxDepth
	}
	lim := value.Limits{MaxBytes: len(text) + 1, MaxDepth: depth + response.EnvelopeDepth, MaxValues: e.opts.Limits.MaxValues}
	var doc value.Value
	var perr error
	if cut != nil {
		perr = errCut
	} else {
		doc, perr = w.parserOrNil().Parse(text, lim)
	}
	// Text that is not UTF-8 fails the calls that hold it, not the line:
	// a model's broken answer text or one broken call must not take the
	// case's other calls down with it.
	invalidUTF8 := false
	if errors.Is(perr, value.ErrInvalidUTF8) {
		if d, err := w.parserOrNil().ParseKeepInvalidUTF8(text, lim); err == nil {
			doc, perr, invalidUTF8 = d, nil, true
		}
	}
	var id string
	var resp value.Value
	noResponse := false
	if perr == nil {
		if doc.Kind() != value.Object {
			return 0, 0, &InputError{Line: line, Msg: "a response line must be a JSON object with an id, not " + doc.Kind().String() + lineHint(text, line)}
		}
		idv, ok := doc.Get("id")
		if !ok || idv.Kind() != value.String && idv.Kind() != value.Number {
			return 0, 0, &InputError{Line: line, Msg: `a response line needs "id", a string (or a number, read as written)`}
		}
		id = idv.Str()
		resp, ok = doc.Get("response")
		// A harness that could not get an answer (a timeout, an API
		// error) may still write the line: the case fails, the run goes on.
		noResponse = !ok
	} else {
		// The model's output broke the line: fail that case, but only if
		// the line still names it.
		idr := gjson.Get(text, "id")
		if idr.Type == gjson.Number {
			idr = gjson.Result{Type: gjson.String, Str: idr.Raw}
		}
		if idr.Type != gjson.String && cut != nil {
			return 0, 0, &InputError{Line: line, Msg: fmt.Sprintf(`the line is %d bytes, longer than the limit of %d, and its first %d bytes hold no "id" to fail its case with`, cut.n, cut.limit, len(text))}
		}
		if idr.Type != gjson.String {
			return 0, 0, &InputError{Line: line, Msg: "not a JSON response line" + lineHint(text, line), Err: perr}
		}
		id = idr.String()
	}
	k := 0
	if samples > 0 {
		var err *InputError
		if perr == nil {
			k, err = sampleOf(doc, samples)
		} else {
			k, err = rawSampleOf(text, samples)
		}
		if err != nil {
			err.Line = line
			return 0, 0, err
		}
	}
	i, ok := e.lookup(id, guess)
	if !ok {
		*r = *UnknownCaseResult(id)
		r.Sample, r.Sampled = k, samples > 0
		return -1, k, nil
	}
	switch {
	case cut != nil:
		e.unreadable(r, i, fmt.Sprintf("response line %d is %d bytes, longer than the limit of %d bytes for a line (--max-line-bytes): it was not read", line, cut.n, cut.limit))
	case errors.Is(perr, value.ErrTooLarge):
		// Only the count of values can be over: the line's bytes were
		// allowed whole.
		e.unreadable(r, i, fmt.Sprintf("response line %d holds more than %d JSON values, the limit for a line (engine.Options.Limits.MaxValues): it was not scored", line, e.opts.Limits.MaxValues))
	case perr != nil:
		e.unreadable(r, i, fmt.Sprintf("response line %d is not valid JSON: %v", line, perr))
	case noResponse:
		e.missingResponse(r, i)
		r.Diffs[0].Message = fmt.Sprintf(`response line %d has no "response"`, line)
	default:
		e.scoreResponse(r, i, resp, invalidUTF8, w)
	}
	if samples > 0 {
		r.Sample, r.Sampled = k, true
	}
	return i, k, nil
}
