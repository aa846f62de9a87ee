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
	i, _, err := e.scoreSampleLine(r, text, line, guess, 0, w)
	return i, err
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

// scoreSampleLine is scoreLine in a run with samples samples per case (0
// for none): the line must then carry "sample", from 0 to samples-1, which
// it returns and sets in r, also for a line whose id names no case.
func (e *Engine) scoreSampleLine(r *Result, text string, line, guess, samples int, w *work) (int, int, *InputError) {
	// The line as a whole may be as long as it needs; the limits that guard
	// against hostile output apply to each arguments string.
	depth := e.opts.Limits.MaxDepth
	if depth <= 0 {
		depth = value.DefaultLimits.MaxDepth
	}
	lim := value.Limits{MaxBytes: len(text) + 1, MaxDepth: depth + response.EnvelopeDepth}
	doc, perr := w.parserOrNil().Parse(text, lim)
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
