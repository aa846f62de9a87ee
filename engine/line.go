package engine

import (
	"errors"
	"fmt"

	"github.com/callgrade/callgrade/internal/jsontext"
	"github.com/callgrade/callgrade/internal/response"
	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/value"
)

// cutLine is a response line longer than RunOptions.MaxLineBytes, which
// Run did not keep: only its first bytes (cutHead), where its id is.
type cutLine struct {
	n, limit int // the line's length and the limit, in bytes
}

// scoreSampleLine scores one line of a responses stream into r (see
// Scorer.ScoreLine) and returns the index of its case, -1 when its id
// names none; guess is the case the line most likely is. With w, the line
// is parsed into w's memory, and r is valid until w is reused. In a run
// with samples samples per case (0 for none) the line must carry "sample",
// from 0 to samples-1, which it returns and sets in r, also for a line
// whose id names no case. With cut, text is the head of a line too long to read (see cutLine): its
// case, named by the id found there, fails. on, when not nil, is handed
// the line and r once it is scored, if it is read whole and names a case
// (see RunOptions.OnResponse).
func (e *Engine) scoreSampleLine(r *results.Result, text string, line, guess, samples int, cut *cutLine, w *work, on func(*results.ResponseLine, *results.Result)) (int, int, *results.InputError) {
	w.words.Reset() // the last line's messages are done with, as its result is
	// The line as a whole may be as long as RunOptions.MaxLineBytes lets
	// it; the limits that guard against hostile output apply to each
	// arguments string.
	depth := e.opts.Limits.MaxDepth
	if depth <= 0 {
		depth = jsontext.DefaultMaxDepth
	}
	lim := value.Limits{MaxBytes: len(text) + 1, MaxDepth: depth + response.EnvelopeDepth, MaxValues: e.opts.Limits.MaxValues}
	var rl results.ResponseLine
	if cut != nil {
		id, k, found, err := results.ReadResponseHead(text, samples)
		if !found {
			return 0, 0, &results.InputError{Line: line, Msg: fmt.Sprintf(`the line is %d bytes, longer than the limit of %d, and its first %d bytes hold no "id" to fail its case with`, cut.n, cut.limit, len(text))}
		}
		if err != nil {
			err.Line = line
			return 0, 0, err
		}
		rl = results.ResponseLine{ID: id, Sample: k}
	} else {
		var err *results.InputError
		if rl, err = results.ReadResponseLine(w.parserOrNil(), text, line, lim, samples); err != nil {
			return 0, 0, err
		}
	}
	id, k := rl.ID, rl.Sample
	i, ok := e.lookup(id, guess)
	if !ok {
		setUnknownCase(r, id)
		r.Sample, r.Sampled = k, samples > 0
		return -1, k, nil
	}
	switch {
	case cut != nil:
		e.unreadable(r, i, fmt.Sprintf("response line %d is %d bytes, longer than the limit of %d bytes for a line (--max-line-bytes): it was not read", line, cut.n, cut.limit))
	case errors.Is(rl.Broken, value.ErrTooLarge):
		// Only the count of values can be over: the line's bytes were
		// allowed whole.
		e.unreadable(r, i, fmt.Sprintf("response line %d holds more than %d JSON values, the limit for a line (engine.Options.Limits.MaxValues): it was not scored", line, e.opts.Limits.MaxValues))
	case rl.Broken != nil:
		e.unreadable(r, i, fmt.Sprintf("response line %d is not valid JSON: %v", line, rl.Broken))
	case !rl.HasResponse:
		// A harness that could not get an answer (a timeout, an API
		// error) may still write the line: the case fails, the run goes on.
		e.missingResponse(r, i)
		r.Diffs[0].Message = fmt.Sprintf(`response line %d has no "response"`, line)
	default:
		e.scoreResponse(r, i, rl.Response, rl.InvalidUTF8, w)
	}
	if samples > 0 {
		r.Sample, r.Sampled = k, true
	}
	if on != nil && cut == nil {
		handed := rl // escapes to on: rl itself would be allocated for every line
		on(&handed, r)
	}
	return i, k, nil
}
