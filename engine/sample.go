package engine

import (
	"fmt"
	"sync/atomic"

	"github.com/callgrade/callgrade/internal/runlines"
	"github.com/callgrade/callgrade/results"
)

// runState is what the workers of a Run share about the lines seen so
// far. A run has a slot per case, or in a run with samples one per case
// and sample: slot case*per + sample.
type runState struct {
	name    string         // the responses file's, for errors
	samples int            // RunOptions.Samples; 0 without samples
	per     int            // slots per case: samples, or 1 without
	seen    []atomic.Int32 // per slot, the line number of its response; 0 for none yet
	passed  []atomic.Int32 // per case, its passing samples; nil without samples
	// onResponse is RunOptions.OnResponse.
	onResponse func(*results.ResponseLine, *results.Result)
}

func newRunState(cases, samples int, name string) *runState {
	st := &runState{name: name, samples: samples, per: max(1, samples)}
	st.seen = make([]atomic.Int32, cases*st.per)
	if samples > 0 {
		st.passed = make([]atomic.Int32, cases)
	}
	return st
}

// guess returns the case the line after the one for slot most likely
// names: the next case, or the same one while its samples last.
func (st *runState) guess(slot int) int {
	if st.per == 1 {
		return slot + 1
	}
	if slot%st.per < st.per-1 {
		return slot / st.per
	}
	return slot/st.per + 1
}

// see records line as one for slot and returns the earliest line seen
// for slot so far, line itself when it is the first: seen keeps the
// least, so that whichever order the workers score the lines in, once
// every line up to a slot's second has been scored, that second line has
// been paired with the slot's first (the error Run returns is then the
// same from run to run).
func (st *runState) see(slot, line int) int {
	for {
		other := int(st.seen[slot].Load())
		if other != 0 && other < line {
			return other
		}
		if st.seen[slot].CompareAndSwap(int32(other), int32(line)) {
			if other == 0 {
				return line
			}
			return other
		}
	}
}

// second is the error for two lines for one slot, first and line in
// either order, whose case has id and whose sample is k.
func (st *runState) second(id string, k, first, line int, text string) *results.InputError {
	hi, msg := runlines.SecondLine(id, k, st.samples, first, line, text)
	return &results.InputError{File: st.name, Line: hi, Msg: msg}
}

// missingResponse sets r to the result of slot when no line came for it.
func (st *runState) missingResponse(e *Engine, r *results.Result, slot int) {
	e.missingResponse(r, slot/st.per)
	if st.samples > 0 {
		k := slot % st.per
		r.Sample, r.Sampled = k, true
		r.Diffs[0].Message = fmt.Sprintf("the responses have no line for sample %d of this case", k)
	}
}

// summarize adds to sum what a run with samples reports per case: the
// tallies and the estimates for each of ks.
func (st *runState) summarize(e *Engine, sum *results.Summary, ks []int) {
	sum.Samples = st.samples
	sum.PerCase = make([]results.SampleTally, len(st.passed))
	for i := range st.passed {
		sum.PerCase[i] = results.SampleTally{ID: e.cases[i].id, N: st.samples, Passed: int(st.passed[i].Load())}
	}
	sum.PassK = results.Estimates(sum.PerCase, ks)
}
