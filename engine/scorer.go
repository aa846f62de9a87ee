package engine

import (
	"context"

	"github.com/callgrade/callgrade/internal/rulecore"
	"github.com/callgrade/callgrade/results"

	"github.com/callgrade/callgrade/internal/assign"
	"github.com/callgrade/callgrade/internal/response"
	"github.com/callgrade/callgrade/internal/schema"
	"github.com/callgrade/callgrade/internal/words"
	"github.com/callgrade/callgrade/value"
)

// A Scorer scores responses against an Engine's cases, with one entry per
// kind of input: a line of a responses stream (ScoreLine) and a response
// already parsed (Score); a case no line names is Run's to write. It
// scores on one goroutine, reusing its memory from one response to the
// next: the parsed arguments, the result, the buffers that pairing calls
// needs and the words of what differs (package words), so that a Scorer
// in a loop allocates little; Run gives each of its workers one.
//
// The results.Result a Scorer returns, and the values it holds (the
// diffs' messages among them), are valid until the Scorer's next call:
// encode the result line or copy what is needed before scoring the next
// response (a Scorer made for one response keeps its results.Result for
// good). A Scorer must not be used by two goroutines at once; make one per
// goroutine with Engine.NewScorer.
type Scorer struct {
	e   *Engine
	res results.Result
	w   work
}

// NewScorer returns a Scorer for e's cases that scores under ctx: once
// ctx is done, a comparison that waits (a plugin's) stops waiting and
// fails, and the pairs a matching mode would weigh are no longer
// compared, so that the response is done with at once. Its result is then
// not the response's verdict: a caller whose context is done drops it. A
// nil ctx is none.
func (e *Engine) NewScorer(ctx context.Context) *Scorer {
	s := e.newScorer()
	s.setContext(ctx)
	return s
}

// newScorer returns a Scorer for e's cases with no context, as Run's
// workers score.
func (e *Engine) newScorer() *Scorer { return &Scorer{e: e} }

// setContext makes s score under ctx from its next response on (see
// NewScorer); nil is no context, as a new Scorer has.
func (s *Scorer) setContext(ctx context.Context) {
	s.w.ctx, s.w.done = ctx, nil
	if ctx != nil {
		s.w.done = ctx.Done()
	}
}

// ScoreLine scores one line of a responses stream (spec section 2),
// `{"id": ..., "response": R}`, exactly as Run does, and returns the result,
// the index of the case the line names, or -1 when its id names no case
// (the result is then the unknown_case one), and its sample. line is the
// line's number, for messages. Whatever service reads responses line by
// line scores them through here, so that it reads them as `callgrade
// score` does:
//
//   - the id is a string, or a number read as its text;
//   - a line whose id can be read yields a result even when the rest is
//     broken: a response the model's output broke (a duplicated key, NaN,
//     invalid UTF-8) is an invalid_arguments failure of its case, and a
//     line with no "response" (a harness that got no answer) a
//     missing_response;
//   - a line that is not a JSON object with an id is a *results.InputError naming
//     the line (its File is left for the caller to set).
//
// samples is the number of samples per case of the stream (see
// RunOptions.Samples), 0 for none: with samples, the line must carry
// "sample", an integer from 0 to samples-1, which the result carries too
// (results.Result.Sample) and which is returned; a line without it, or with one
// out of range, is a *results.InputError. Without samples the sample returned
// is 0.
//
// Which lines are blank, and what a second line for the same case means,
// is the caller's to decide.
func (s *Scorer) ScoreLine(text string, line, samples int) (*results.Result, int, int, error) {
	s.w.parser.Reset()
	i, k, err := s.e.scoreSampleLine(&s.res, text, line, -1, samples, nil, &s.w, nil)
	if err != nil {
		return nil, i, k, err
	}
	return &s.res, i, k, nil
}

// Score scores one response (a document in any supported format) against
// case i. Its strings are taken to be UTF-8, as value.Parse makes them; a
// document read with value.Parser.ParseKeepInvalidUTF8 goes through
// ScoreLine instead, which fails the calls that hold broken text.
func (s *Scorer) Score(i int, resp value.Value) *results.Result {
	s.w.parser.Reset()
	s.w.words.Reset()
	s.e.scoreResponse(&s.res, i, resp, false, &s.w)
	return &s.res
}

// scoreRun scores a run already read (response.Options.Read) against case
// i. A case that is not a run case is scored on the run's calls. It is the
// engine's tests' own: a run read by the internal response package is no
// input a program outside the module can build, and Score reads a run
// case's response as a run by itself.
func (s *Scorer) scoreRun(i int, run *response.Run) *results.Result {
	s.w.words.Reset()
	s.e.scoreRunOrCalls(&s.res, i, run, &s.w)
	return &s.res
}

// scoreMissing returns the result of case i when no response was given
// for it, as Run writes it for a case no line names.
func (s *Scorer) scoreMissing(i int) *results.Result {
	s.e.missingResponse(&s.res, i)
	return &s.res
}

// work is the memory that scoring one response reuses for the next: a
// Scorer's. A nil *work allocates what it hands out.
type work struct {
	parser value.Parser
	solver assign.Solver
	verd   []verdict
	used   []bool
	rest   []int
	alt    results.Result
	diffs  []results.Diff      // the pairings' diffs, until they are written into a results.Result
	eq     rulecore.Equalities // what weighing a pair found equal, for its validation
	passes rulecore.Passes     // what the schema proves of a pair, for weighing it
	sc     *scratch            // compare's (see work.scratch)

	validation schema.Scratch   // the validations' memory
	norm       rulecore.Scratch // the comparisons' memory
	rv         runView          // the view of the run being scored (newRunView)
	calls      []response.Call  // the last response's calls (response.Options.Calls)
	steps      []response.Step  // the last run's steps (response.Options.Steps)
	run        response.Run     // the last run read (see runOrNew)
	read       response.Run     // the last run as its case reads it, when that is a copy (readRun)
	// words holds the messages of the response's diffs: a Scorer's result
	// is valid until its next response, and so are they.
	words words.Arena

	ctx  context.Context // Scorer.setContext's, or nil
	done <-chan struct{} // ctx.Done()
}

// context is the context of w's scoring; nil for none.
func (w *work) context() context.Context {
	if w == nil {
		return nil
	}
	return w.ctx
}

// readRun is where run, read as its case reads it, is copied when the
// reading changes it (response.Run.ReadAsInto): w's, or nil (a new Run)
// when w is nil or run is that very Run.
func (w *work) readRun(run *response.Run) *response.Run {
	if w == nil || run == &w.read {
		return nil
	}
	return &w.read
}

// arena is where the diffs' messages are written: w's words, or nil
// (each message a string of its own) when w is nil.
func (w *work) arena() *words.Arena {
	if w == nil {
		return nil
	}
	return &w.words
}

// normScratch returns the comparisons' memory; nil (each takes its own) when
// w is nil.
func (w *work) normScratch() *rulecore.Scratch {
	if w == nil {
		return nil
	}
	return &w.norm
}

// stopped reports whether w's context is done.
func (w *work) stopped() bool {
	if w == nil || w.done == nil {
		return false
	}
	select {
	case <-w.done:
		return true
	default:
		return false
	}
}

// callsOrNil returns the calls buffer to read a response into.
func (w *work) callsOrNil() []response.Call {
	if w == nil {
		return nil
	}
	return w.calls
}

// keepCalls keeps the memory of calls for the next response, when it is
// more than w has.
func (w *work) keepCalls(calls []response.Call) {
	if w != nil && cap(calls) > cap(w.calls) {
		w.calls = calls[:0]
	}
}

// stepsOrNil returns the steps buffer to read a run into.
func (w *work) stepsOrNil() []response.Step {
	if w == nil {
		return nil
	}
	return w.steps
}

// runOrNew returns where a response's run is read: w's, which the next
// run is read into, or a new one when w is nil. A run is scored through a
// pointer that a pooled runView holds, so one of the stack's would move
// to the heap at each run.
func (w *work) runOrNew() *response.Run {
	if w == nil {
		return new(response.Run)
	}
	return &w.run
}

// keepSteps keeps the memory of a run's steps for the next run, when it
// is more than w has: the largest run's buffer, not the last's. Reading
// each run into the last run's Steps instead was tried and cost 300 more
// allocations a pass of the agentic benchmark. Past the last run's length
// the buffer holds the largest run's stale steps until they are
// overwritten, so what it keeps alive is bounded by one run.
func (w *work) keepSteps(steps []response.Step) {
	if w != nil && cap(steps) > cap(w.steps) {
		w.steps = steps[:0]
	}
}

func (w *work) parserOrNil() *value.Parser {
	if w == nil {
		return nil
	}
	return &w.parser
}

// verdicts returns n zero verdicts to fill.
func (w *work) verdicts(n int) []verdict {
	if w == nil {
		return make([]verdict, n)
	}
	if cap(w.verd) < n {
		w.verd = make([]verdict, n)
	}
	clear(w.verd[:n])
	return w.verd[:n]
}

// assign pairs as assign.Max does; the pairs are valid until the next
// assign.
func (w *work) assign(n, m int, weight func(i, j int) float64) ([]int, float64) {
	if w == nil {
		return assign.Max(n, m, weight)
	}
	return w.solver.Max(n, m, weight)
}

// greedyBufs returns m cleared flags and room for k indexes.
func (w *work) greedyBufs(m, k int) ([]bool, []int) {
	if w == nil {
		return make([]bool, m), make([]int, 0, k)
	}
	if cap(w.used) < m {
		w.used = make([]bool, m)
	}
	if cap(w.rest) < k {
		w.rest = make([]int, 0, k)
	}
	used := w.used[:m]
	clear(used)
	return used, w.rest[:0]
}

// altResult returns a results.Result for scoring an alternative in.
func (w *work) altResult() *results.Result {
	if w == nil {
		return new(results.Result)
	}
	return &w.alt
}
