package engine

import (
	"fmt"

	"github.com/tidwall/gjson"

	"github.com/callgrade/callgrade/value"
)

// ScoreLine scores one line of a responses stream (spec section 2),
// `{"id": ..., "response": R}`, into r, exactly as Run does, and returns
// the index of the case the line names, or -1 when its id names no case
// (r is then the unknown_case result). line is the line's number, for
// messages. Whatever service reads responses line by line scores them
// through here, so that it reads them as `callgrade score` does:
//
//   - the id is a string, or a number read as its text;
//   - a line whose id can be read yields a result even when the rest is
//     broken: a response the model's output broke (a duplicated key, NaN,
//     invalid UTF-8) is an invalid_arguments failure of its case, and a
//     line with no "response" (a harness that got no answer) a
//     missing_response;
//   - a line that is not a JSON object with an id is an *InputError naming
//     the line (its File is left for the caller to set).
//
// Which lines are blank, and what a second line for the same case means,
// is the caller's to decide. With a Parser p, the line is parsed into p's
// memory and r is valid until p's next Reset; with p nil nothing is
// reused.
func (e *Engine) ScoreLine(r *Result, text string, line int, p *value.Parser) (int, error) {
	i, err := e.scoreLine(r, text, line, -1, p)
	if err != nil {
		return i, err
	}
	return i, nil
}

// scoreLine is ScoreLine; guess is the case the line most likely is.
func (e *Engine) scoreLine(r *Result, text string, line, guess int, p *value.Parser) (int, *InputError) {
	// The line as a whole may be as long as it needs; the limits that guard
	// against hostile output apply to each arguments string.
	depth := e.opts.Limits.MaxDepth
	if depth <= 0 {
		depth = value.DefaultLimits.MaxDepth
	}
	lim := value.Limits{MaxBytes: len(text) + 1, MaxDepth: depth + 8}
	var doc value.Value
	var perr error
	if p != nil {
		doc, perr = p.Parse(text, lim)
	} else {
		doc, perr = value.ParseLimits(text, lim)
	}
	var id string
	var resp value.Value
	noResponse := false
	if perr == nil {
		if doc.Kind() != value.Object {
			return 0, &InputError{Line: line, Msg: "a response line must be a JSON object with an id, not " + doc.Kind().String()}
		}
		idv, ok := doc.Get("id")
		if !ok || idv.Kind() != value.String && idv.Kind() != value.Number {
			return 0, &InputError{Line: line, Msg: `a response line needs "id", a string (or a number, read as written)`}
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
			return 0, &InputError{Line: line, Msg: "not a JSON response line", Err: perr}
		}
		id = idr.String()
	}
	i, ok := e.lookup(id, guess)
	if !ok {
		*r = *UnknownCaseResult(id)
		return -1, nil
	}
	switch {
	case perr != nil:
		e.unreadable(r, i, fmt.Sprintf("response line %d is not valid JSON: %v", line, perr))
	case noResponse:
		e.missingResponse(r, i)
		r.Diffs[0].Message = fmt.Sprintf(`response line %d has no "response"`, line)
	default:
		e.scoreResponseIn(r, i, resp, p)
	}
	return i, nil
}
