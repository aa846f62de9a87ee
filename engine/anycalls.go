package engine

import (
	"fmt"

	"github.com/callgrade/callgrade/internal/response"
	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/value"
)

// What `calls: any` and `min_calls` add to a case's verdict
// (docs/scoring.md). The pairing tolerates every call in mode any, as
// superset tolerates the calls beyond the expected ones (score.go); this
// file counts the calls and gives such a case its score.

// minCallsOf returns the least number of calls case sc wants, 0 when it
// says none.
func minCallsOf(sc *suite.Case) int32 {
	if sc.Run == nil || sc.Run.MinCalls <= 0 {
		return 0
	}
	return int32(min(sc.Run.MinCalls, 1<<31-1))
}

// countCalls adds to r, the verdict on calls, those of a response or a
// run, a missing_call diff when the case wants more (min_calls). Like
// too_many_calls it counts as one more miss in the score, is about no
// call (its call is null), and a run case's checks add theirs after it.
// A call without a name calls no tool: it does not count towards the
// least number (as BFCL's relevance checker takes [{}] for no call),
// while max_calls counts it. Each limit counts what could make it fail,
// never what could pass it silently.
//
// rv is the run of a run case, which keeps the summed score and its
// denominator for the run's own checks; nil for a single response, whose
// share is read back from r's calls, each listed once: an expected call
// counts towards the denominator, an actual call too, and a pair is both,
// as the pairing counts them (score.go).
func (c *compiledCase) countCalls(r *results.Result, calls []response.Call, rv *runView) {
	if c.minCalls == 0 {
		return
	}
	want, n := int(c.minCalls), 0
	for k := range calls {
		if calls[k].Name != "" {
			n++
		}
	}
	if n >= want {
		return
	}
	msg := fmt.Sprintf("expected at least %s, got %d", plural(want, "call"), n)
	switch nameless := len(calls) - n; {
	case nameless == 1:
		msg += " (1 call without a name, which does not count)"
	case nameless > 1:
		msg += fmt.Sprintf(" (%d calls without a name, which do not count)", nameless)
	}
	r.Diffs = append(r.Diffs, results.Diff{Kind: results.MissingCall, Path: "min_calls",
		Expected: value.Int(int64(want)), Actual: value.Int(int64(n)), HasExpected: true, HasActual: true, Rule: "min_calls",
		Message: msg, Call: -1})
	sum, den := shareOf(r, rv)
	den++
	if rv != nil {
		rv.sum, rv.den = sum, den
	}
	r.Score = sum / float64(den)
	r.Pass = false
}

// shareOf returns the summed call scores of r and their denominator: rv's
// for a run, else counted from r's calls.
func shareOf(r *results.Result, rv *runView) (sum float64, den int) {
	if rv != nil {
		return rv.sum, rv.den
	}
	expected, actual := 0, 0
	for _, c := range r.Calls {
		sum += c.Score
		if c.Expected >= 0 {
			expected++
		}
		if c.Actual >= 0 {
			actual++
		}
	}
	return sum, max(expected, actual)
}

// anyScore gives a case in mode any, which expects no particular call and
// so has no share of calls to count, its score: 1 when it passes, 0 when
// it does not.
func (c *compiledCase) anyScore(r *results.Result) {
	if c.mode != suite.CallsAny {
		return
	}
	r.Score = 0
	if r.Pass {
		r.Score = 1
	}
}
