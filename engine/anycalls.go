package engine

import (
	"fmt"

	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/suite"
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

// countCalls adds to r, the verdict on the n calls of a response or run,
// a missing_call diff when the case wants more (min_calls). Like
// too_many_calls it counts as one more miss in the score, is about no
// call (its call is null), and a run case's checks add theirs after it.
func (c *compiledCase) countCalls(r *Result, n int) {
	if c.minCalls == 0 || n >= int(c.minCalls) {
		return
	}
	want := int(c.minCalls)
	r.Diffs = append(r.Diffs, Diff{Diff: rules.Diff{Kind: MissingCall, Path: "min_calls",
		Expected: value.Int(int64(want)), Actual: value.Int(int64(n)), HasExpected: true, HasActual: true, Rule: "min_calls",
		Message: fmt.Sprintf("expected at least %s, got %d", plural(want, "call"), n)}, Call: -1})
	r.den++
	r.Score = r.sum / float64(r.den)
	r.Pass = false
}

// anyScore gives a case in mode any, which expects no particular call and
// so has no share of calls to count, its score: 1 when it passes, 0 when
// it does not.
func (c *compiledCase) anyScore(r *Result) {
	if c.mode != suite.CallsAny {
		return
	}
	r.Score = 0
	if r.Pass {
		r.Score = 1
	}
}
