package engine

import (
	"github.com/callgrade/callgrade/internal/response"
	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/value"
)

// scoreNoWork scores resp against case i without a Scorer's memory (the
// nil *work path, which allocates all it hands out), for the tests that
// hold the two paths to one verdict.
func scoreNoWork(e *Engine, i int, resp value.Value) *results.Result {
	r := new(results.Result)
	e.scoreResponse(r, i, resp, false, nil)
	return r
}

// scoreRunNoWork is scoreNoWork for a run already read.
func scoreRunNoWork(e *Engine, i int, run *response.Run) *results.Result {
	r := new(results.Result)
	e.scoreRunOrCalls(r, i, run, nil)
	return r
}

// scoreCalls scores calls already read from a response against case i in
// s's memory: the comparison alone, without reading the response, for the
// benchmarks that weigh it.
func (s *Scorer) scoreCalls(i int, calls []response.Call) *results.Result {
	s.e.scoreCalls(&s.res, i, calls, &s.w)
	return &s.res
}

// unknownCase is the result Run writes for a line whose id names no case.
func unknownCase(id string) *results.Result {
	r := new(results.Result)
	setUnknownCase(r, id)
	return r
}
