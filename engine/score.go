package engine

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/callgrade/callgrade/internal/rulecore"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/internal/response"
	"github.com/callgrade/callgrade/internal/schema"
	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/internal/words"
	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/value"
)

// scoreResponse scores a whole response document into r, with w's memory
// when w is not nil: r is then valid only until w is reused.
func (e *Engine) scoreResponse(r *results.Result, i int, resp value.Value, invalidUTF8 bool, w *work) {
	c := &e.cases[i]
	want := e.opts.Format
	if want == format.Auto && !e.opts.ForceFormat {
		want = c.format
	}
	o := response.Options{Limits: e.opts.Limits, Parser: w.parserOrNil(), Params: c.params, Calls: w.callsOrNil(), InvalidUTF8: invalidUTF8}
	if c.run != nil {
		o.Steps, o.SkipResults = w.stepsOrNil(), c.run.skipResults
		run := w.runOrNew()
		var err error
		*run, _, err = o.Read(resp, want)
		w.keepSteps(run.Steps)
		if err != nil {
			e.unreadable(r, i, err.Error())
			return
		}
		e.scoreRunOrCalls(r, i, run, w) // steps.go
		return
	}
	calls, _, err := o.ReadCalls(resp, want)
	if err != nil {
		e.unreadable(r, i, err.Error())
		return
	}
	w.keepCalls(calls)
	if why := notEvaluableReason(calls); why != "" {
		e.notEvaluable(r, i, why)
		return
	}
	e.scoreCalls(r, i, calls, w)
}

// notEvaluableReason says why calls, a response's, hold nothing to score (a
// trace recorded without the content of its calls, read as one failed
// call that says so), or "" when they can be scored.
func notEvaluableReason(calls []response.Call) string {
	if len(calls) != 1 || calls[0].Err == nil {
		return ""
	}
	var ae *response.ArgumentsError
	if errors.As(calls[0].Err, &ae) {
		return ae.NotEvaluable
	}
	return ""
}

// notEvaluable fails case i because its response, a trace, does not hold
// what scoring needs: a failure of the case with a kind of its own, never
// a silent pass.
func (e *Engine) notEvaluable(r *results.Result, i int, msg string) {
	e.failCase(r, i, results.NotEvaluable, msg)
}

// unreadable fails case i because its response could not be read at all: a
// hard failure of the case, never a silent pass.
func (e *Engine) unreadable(r *results.Result, i int, msg string) {
	e.failCase(r, i, results.InvalidArguments, msg)
}

func (e *Engine) missingResponse(r *results.Result, i int) {
	e.failCase(r, i, results.MissingResponse, "the responses have no line for this case")
}

// failCase fails case i as a whole with one diff of kind k: every expected
// call is left without a call.
func (e *Engine) failCase(r *results.Result, i int, k results.Kind, msg string) {
	c := &e.cases[i]
	c.reset(r)
	r.Diffs = append(r.Diffs, results.Diff{Kind: k, Message: msg, Call: -1})
	for j := range c.expected {
		r.Calls = append(r.Calls, results.CallResult{Expected: j, Actual: -1})
	}
}

// reset makes r a result of c with no verdict yet, keeping its memory.
func (c *compiledCase) reset(r *results.Result) {
	*r = results.Result{ID: c.id, Tool: c.tool(), StepTools: c.stepTools(), Calls: r.Calls[:0], Diffs: r.Diffs[:0], HasAlternatives: len(c.alternatives) > 0}
}

// scoreEps is how much higher a list's score must be to beat an earlier
// list's: sums of shares that are equal can differ in their last bits
// ((0.3+0)/2 against (0.1+0.2)/2), and a real difference is far larger.
const scoreEps = 1e-9

// scoreCalls scores against the expected calls and each alternative, and
// keeps the best: a pass first, then the higher score, then the earlier list.
func (e *Engine) scoreCalls(r *results.Result, i int, calls []response.Call, w *work) {
	e.scoreCallsIn(r, i, calls, w, nil)
	e.cases[i].countCalls(r, calls, nil) // anycalls.go
	e.cases[i].anyScore(r)
}

// scoreCallsIn is scoreCalls, with the run the calls are of when the case
// is a run case (rv not nil).
func (e *Engine) scoreCallsIn(r *results.Result, i int, calls []response.Call, w *work, rv *runView) {
	c := &e.cases[i]
	c.reset(r)
	e.evaluate(r, c, c.expected, calls, w, rv)
	if len(c.alternatives) == 0 {
		return
	}
	alt := w.altResult()
	var sum float64 // rv's sum and den of the list that counts
	var den int
	if rv != nil {
		sum, den = rv.sum, rv.den
	}
	for k, exp := range c.alternatives {
		c.reset(alt)
		e.evaluate(alt, c, exp, calls, w, rv)
		if alt.Pass && !r.Pass || alt.Pass == r.Pass && alt.Score > r.Score+scoreEps {
			alt.Alternative = k + 1
			*r, *alt = *alt, *r
			if rv != nil {
				sum, den = rv.sum, rv.den
			}
		}
	}
	if rv != nil {
		rv.sum, rv.den = sum, den
	}
}

// pairing is the outcome of comparing one expected call with one actual call.
type pairing struct {
	pass  bool
	score float64
	diffs []results.Diff // Call left at -1; set once the pair has its place
}

// evaluate scores one list of expected calls of case c against the actual
// calls, of run rv when the case is a run case: it pairs them as the
// case's calls mode says, then writes the pairing into r (match.go).
func (e *Engine) evaluate(r *results.Result, c *compiledCase, exp []compiledCall, calls []response.Call, w *work, rv *runView) {
	if w != nil {
		w.diffs = w.diffs[:0] // the pairings of the last evaluate are written out
	}
	if len(exp) == 1 && len(calls) == 1 && !e.exhaustive && pairsOneToOne(c.mode, rv) {
		e.evaluateOne(r, &exp[0], &calls[0], w, rv)
		return
	}
	if len(exp) == 0 && !e.exhaustive {
		e.evaluateNone(r, c, calls, w, rv)
		return
	}
	// Small cases, nearly all of them, keep their bookkeeping on the stack.
	var pairsBuf [8]int
	var prBuf [8]pairing
	var matchedBuf [8]bool
	n, m := len(exp), len(calls)
	pairs, pr, matched := pairsBuf[:0], prBuf[:0], matchedBuf[:0]
	if n > len(pairsBuf) || m > len(matchedBuf) {
		pairs, pr, matched = make([]int, 0, n), make([]pairing, 0, n), make([]bool, 0, m)
	}
	lt := lent{mode: c.mode, exp: exp, w: w, rv: rv}
	mt := matcher{e: e, c: c, calls: calls, lent: &lt, pairs: pairs[:n], pr: pr[:n], matched: matched[:m]}
	mt.pair()
	mt.assemble(r)
}

// pairsOneToOne reports whether a list of one expected call, against one
// actual call, pairs the two in mode (with the run rv, nil outside one), as
// matcher.pair does: every mode but in_order (and ordered over a run's
// steps), which aligns them, and superset and subset, which split a pair
// whose tool names differ.
func pairsOneToOne(mode suite.CallMatch, rv *runView) bool {
	switch mode {
	case suite.CallsInOrder, suite.CallsSuperset, suite.CallsSubset:
		return false
	case suite.CallsOrdered:
		return rv == nil || !rv.steps()
	}
	return true
}

// evaluateOne is evaluate for one expected call and one actual call that
// pair (pairsOneToOne), most cases' lists and responses: the pair is
// compared once, its diffs written straight into r, without the matcher's
// bookkeeping, and r ends as matcher.assemble would leave it (the tests
// compare the two, Engine.exhaustive).
func (e *Engine) evaluateOne(r *results.Result, ec *compiledCall, ac *response.Call, w *work, rv *runView) {
	start := len(r.Diffs)
	p := e.compareInto(ec, ac, w, rv, 0, &r.Diffs)
	idx := len(r.Calls)
	r.Calls = append(r.Calls, results.CallResult{Expected: 0, Actual: 0, Pass: p.pass, Score: p.score})
	for k := start; k < len(r.Diffs); k++ {
		r.Diffs[k].Call = idx
		rv.mark(&r.Diffs[k], 0)
	}
	// One call counted on each side: the score is the pair's.
	r.Score = p.score
	if rv != nil {
		rv.sum, rv.den = p.score, 1
	}
	r.Pass = len(r.Diffs) == 0
}

// evaluateNone is evaluate for a list of no expected calls (a case that
// expects none, or one of calls: any, which judges a run's final answer
// and its calls' validity alone): each actual call is an extra one, as
// the matcher would write it, without its pairing's bookkeeping.
func (e *Engine) evaluateNone(r *results.Result, c *compiledCase, calls []response.Call, w *work, rv *runView) {
	lt := lent{mode: c.mode, w: w, rv: rv}
	mt := matcher{e: e, c: c, calls: calls, lent: &lt}
	extra := 0
	for b := range calls {
		if mt.writeExtra(r, b) {
			extra++
		}
	}
	// assemble's score with nothing paired: 0 of the calls that count
	// against the case, 1 when none does.
	r.Score = 1
	if extra > 0 {
		r.Score = 0
	}
	if rv != nil {
		rv.sum, rv.den = 0, extra
	}
	r.Pass = len(r.Diffs) == 0
}

// unpaired appends to dst what is wrong with ac, an actual call that pairs
// with no expected call, besides being there: its arguments unusable, or
// rejected by the schema of t, the case's tool of its name (nil: none).
func (c *compiledCase) unpaired(ac *response.Call, t *tool, w *work, dst []results.Diff) []results.Diff {
	if ac.Err != nil {
		return append(dst, invalidArguments(ac))
	}
	if t == nil || t.schema == nil {
		return dst
	}
	ck := schema.Check{NullIsMissing: c.nullIsMissing}
	if w != nil {
		ck.Scratch, ck.Words = &w.validation, &w.words
	}
	return t.validate(ac.Args, ck, -1, dst, w)
}

// invalidArguments is the diff of a call whose arguments cannot be used.
func invalidArguments(ac *response.Call) results.Diff {
	msg := ac.Err.Error()
	if ac.Name != "" {
		msg = "arguments of " + ac.Name + ": " + msg
	}
	return results.Diff{Kind: results.InvalidArguments, Rule: "json", Message: msg, Call: -1}
}

// unexpectedCallMessage words the unexpected_call diff of c, to the tool t
// of its name (nil when the case has none), in a list of expected calls
// that holds expected, in ws (see work.arena).
func unexpectedCallMessage(c *response.Call, t *tool, expected int, ws *words.Arena) string {
	if t != nil && c.Name != "" {
		if expected == 0 {
			return t.noCall
		}
		return t.unexpected
	}
	if c.Name == "" {
		// One whose shape was broken, as a rule.
		if expected == 0 {
			return "expected no call, got a call without a name"
		}
		return "unexpected call without a name"
	}
	if expected == 0 {
		return ws.Join("expected no call, got a call to ", c.Name)
	}
	return ws.Join("unexpected call to ", c.Name)
}

// scratch collects the diffs of one comparison. Its report func is bound
// once, so that comparing does not allocate a closure per call. It keeps
// at most max+1 diffs (see leftOut) and counts the others in left.
type scratch struct {
	diffs  []rulecore.Diff
	report func(rulecore.Diff)
	max    int
	left   leftOut
	eq     rulecore.Equalities // what the comparison found equal, for validation
	passes rulecore.Passes     // what the schema proves passes, for the comparison
}

func newScratch() *scratch {
	sc := new(scratch)
	sc.report = func(d rulecore.Diff) {
		if len(sc.diffs) > sc.max {
			sc.left.add(d.Kind, 1)
			return
		}
		sc.diffs = append(sc.diffs, d)
	}
	return sc
}

// maxDiffs is the most diffs listed for one call (Options.maxDiffs).
func (e *Engine) maxDiffs() int {
	if e.opts.maxDiffs > 0 {
		return e.opts.maxDiffs
	}
	return defaultMaxDiffs
}

// leftOut counts the diffs of one call beyond the most listed, by kind.
// A call lists at most max diffs and, past them, one that says how many
// more there are: so a call with 450,000 extra arguments costs a results
// line and memory of a few hundred diffs, not of 450,000. Up to max+1
// diffs are kept as they come, since a summary in place of one diff would
// say less than the diff.
type leftOut struct {
	n     int
	kinds []kindCount // by first occurrence
}

type kindCount struct {
	kind results.Kind
	n    int
}

func (l *leftOut) add(k results.Kind, n int) {
	l.n += n
	for i := range l.kinds {
		if l.kinds[i].kind == k {
			l.kinds[i].n += n
			return
		}
	}
	l.kinds = append(l.kinds, kindCount{k, n})
}

// trim counts the diffs of ds from start on beyond max+1, with those
// counted already, and returns ds without them (their places cleared, so
// that the buffer keeps no values alive).
func (l *leftOut) trim(ds []results.Diff, start, max int) []results.Diff {
	end := start + max + 1
	if l.n == 0 && len(ds) <= end {
		return ds
	}
	end--
	for i := end; i < len(ds); i++ {
		l.add(ds[i].Kind, 1)
	}
	if end < len(ds) {
		clear(ds[end:])
		ds = ds[:end]
	}
	return ds
}

// summary appends, when diffs were left out, the diff that says how many
// and of which kinds. Its kind is the kind most of them have, or, when
// any of them is of a kind that makes a case errored (IsError), the most
// frequent of those: a case errored by a diff left out stays errored. It
// adds nothing to the score, which counts every miss already, and its
// call fails with it as without it.
func (l *leftOut) summary(ds []results.Diff, max int) []results.Diff {
	if l.n == 0 {
		return ds
	}
	kinds := slices.Clone(l.kinds)
	slices.SortStableFunc(kinds, func(a, b kindCount) int { return b.n - a.n })
	kind := kinds[0].kind
	for _, kc := range kinds {
		if results.IsError(kc.kind) {
			kind = kc.kind
			break
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d more diffs of this call are not listed: ", l.n)
	for i, kc := range kinds {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%d %s", kc.n, kc.kind)
	}
	fmt.Fprintf(&b, " (a call lists at most %d; its score counts them all)", max)
	*l = leftOut{}
	return append(ds, results.Diff{Kind: kind, Rule: "max_diffs", Message: b.String(), Call: -1})
}

var scratchPool = sync.Pool{New: func() any { return newScratch() }}

// scratch returns w's scratch, or one from the pool when w is nil; give it
// back with putScratch.
func (w *work) scratch() *scratch {
	if w == nil {
		return scratchPool.Get().(*scratch)
	}
	if w.sc == nil {
		w.sc = newScratch()
	}
	return w.sc
}

func (w *work) putScratch(sc *scratch) {
	if w == nil {
		scratchPool.Put(sc)
	}
}

// check is how an actual call's arguments are validated against the
// expected call's tool: with the case's null_is_missing, and knowing the
// expected arguments valid when they are, with eq (when not nil) holding
// what comparing them with the actual ones found equal, in w's memory
// (w may be nil).
func (ec *compiledCall) check(eq *rulecore.Equalities, w *work) schema.Check {
	c := schema.Check{NullIsMissing: ec.nullIsMissing}
	if w != nil {
		c.Scratch, c.Words = &w.validation, &w.words
	}
	if ec.known != nil {
		c.Valid, c.Known, c.Equal = &ec.args, ec.known, eq
	}
	return c
}

// validates says whether the actual arguments are validated knowing the
// expected ones valid, so that the comparison records what it finds equal.
func (ec *compiledCall) validates() bool {
	return ec.known != nil && ec.tool != nil && ec.tool.schema != nil
}

// verdict is what weighing a pair gives: whether it passes, and its score.
type verdict struct {
	pass    bool
	weighed bool // set by weigh, so that a matrix of verdicts knows the pairs weighed
	score   float64
}

// judgement is what comparing the arguments of a pair finds, before the
// validation and the asserts, which weigh and compare read alike.
type judgement struct {
	proof schema.Proof    // Unproven: the validation is still to be done
	res   rulecore.Result // the arguments' rules and the step's result rules
	// eq holds what the comparison found equal, for the validation; nil
	// when it recorded nothing.
	eq    *rulecore.Equalities
	steps rules.Steps // the run's steps before the call, for the asserts
}

// score is the share of the counted arguments that matched; 1 when none
// are counted.
func (j *judgement) score() float64 {
	if j.res.Total == 0 {
		return 1
	}
	return float64(j.res.Matched) / float64(j.res.Total)
}

// judge compares ac's arguments with ec's into j: first what the tool's schema
// proves (prove, into passes when not nil), then, unless it proves them
// the same, the rules, recording in eq (when not nil, and a validation
// follows) what they find equal, and a step's result rules. report, when
// not nil, hears of each failure, worded in full up to the first worded
// of them when worded > 0 (rulecore.Context.MaxWorded). quick judges only whether the
// arguments pass, from their first failure on (rulecore.Set.Accepts): j.res
// then counts them as one argument, so that its score is 1 or 0. w,
// which may be nil, gives the comparators its context; worded is how many
// diffs get a message (the rest are counted, not listed).
func (ec *compiledCall) judge(j *judgement, ac *response.Call, rv *runView, b int, passes *rulecore.Passes, eq *rulecore.Equalities, report func(rulecore.Diff), quick bool, worded int, w *work) {
	*j = judgement{steps: rv.at(b)} // a run: references see the steps before b
	j.proof, passes = ec.prove(ac, passes)
	if j.proof == schema.Same {
		return
	}
	ctx := ec.ctx(j.steps)
	ctx.Words, ctx.Scratch = w.arena(), w.normScratch()
	ctx.Passes = passes
	ctx.MaxWorded = worded
	ctx.Ctx = w.context()
	if eq == nil || !ec.validates() || j.proof != schema.Unproven {
		eq = nil
	}
	j.eq = eq
	switch {
	case quick:
		j.res.Total = 1
		if ec.rules.Accepts(ec.args, ac.Args, &ctx, eq) {
			j.res.Matched = 1
		}
	case eq != nil:
		j.res = ec.rules.CompareCheckedRecording(ec.args, ac.Args, &ctx, report, eq)
	default:
		j.res = ec.rules.CompareChecked(ec.args, ac.Args, &ctx, report)
	}
	if ec.result() != nil {
		ok, n := rv.checkResult(ec, b, report)
		j.res.Matched, j.res.Total = j.res.Matched+ok, j.res.Total+n
	}
}

// weigh compares one expected call with one actual call as compare does,
// without saying what differs: for the pairs a matching mode considers and
// may not choose. w may be nil. quick weighs only whether the pair passes,
// which a failing pair shows at its first failing argument: the verdict
// then has no score but 1 for a pass, and is not marked weighed.
func (e *Engine) weigh(ec *compiledCall, ac *response.Call, rv *runView, b int, w *work, quick bool) verdict {
	if ac.Name != ec.name || ac.Err != nil || w.stopped() {
		return verdict{weighed: true} // stopped: a failing pair, which no one reads
	}
	var passes *rulecore.Passes
	var eq *rulecore.Equalities
	if w != nil {
		passes, eq = &w.passes, &w.eq
	}
	var j judgement
	ec.judge(&j, ac, rv, b, passes, eq, nil, quick, 0, w)
	if j.proof == schema.Same {
		return verdict{pass: true, weighed: true, score: 1}
	}
	v := verdict{pass: j.res.Matched == j.res.Total, weighed: !quick, score: j.score()}
	if v.pass && ec.tool != nil && ec.tool.schema != nil && j.proof == schema.Unproven {
		v.pass = ec.tool.schema.Valid(ac.Args, ec.check(j.eq, w))
	}
	for i, as := 0, ec.asserts(); v.pass && i < len(as); i++ {
		out := as[i].cmp.Compare(&rules.Input{Expected: ec.args, Actual: ac.Args, Tool: ac.Name, Args: ac.Args, ExpectedArgs: ec.args, Steps: j.steps, Ctx: w.context()})
		v.pass = out.Err == nil && out.Equal
	}
	return v
}

// compare compares one expected call with one actual call. The pairing's
// diffs are carved from w's buffer, valid until w's next evaluate.
func (e *Engine) compare(ec *compiledCall, ac *response.Call, w *work, rv *runView, b int) pairing {
	var local []results.Diff
	buf := &local
	if w != nil {
		buf = &w.diffs
	}
	return e.compareInto(ec, ac, w, rv, b, buf)
}

// compareInto is compare, appending the pairing's diffs to *buf, from
// which they are carved.
func (e *Engine) compareInto(ec *compiledCall, ac *response.Call, w *work, rv *runView, b int, buf *[]results.Diff) pairing {
	start := len(*buf)
	carve := func() []results.Diff { return (*buf)[start:len(*buf):len(*buf)] }
	// A call that could not be read far enough to have a name is what
	// its invalid_arguments diff says, not a call to another tool.
	if ac.Name != ec.name && (ac.Name != "" || ac.Err == nil) {
		*buf = append(*buf, results.Diff{Kind: results.WrongTool,
			Expected: value.StringOf(ec.name), Actual: value.StringOf(ac.Name), HasExpected: true, HasActual: true,
			Rule: "exact", Message: w.arena().Join("expected a call to ", ec.name, ", got ", ac.Name), Call: -1})
	}
	if ac.Err != nil {
		*buf = append(*buf, invalidArguments(ac))
	}
	if len(*buf) > start {
		return pairing{diffs: carve()}
	}
	sc := w.scratch()
	max := e.maxDiffs()
	sc.max = max
	var j judgement
	ec.judge(&j, ac, rv, b, &sc.passes, &sc.eq, sc.report, false, max+1, w)
	left := sc.left
	sc.left = leftOut{}
	if j.proof == schema.Same {
		w.putScratch(sc)
		return pairing{pass: true, score: 1, diffs: carve()}
	}
	for _, d := range sc.diffs {
		*buf = append(*buf, argDiff(d, -1))
	}
	clear(sc.diffs)
	sc.diffs = sc.diffs[:0]
	p := pairing{score: j.score()}
	if j.proof == schema.Unproven {
		*buf = ec.tool.validate(ac.Args, ec.check(j.eq, w), -1, *buf, w)
		*buf = left.trim(*buf, start, max)
	}
	w.putScratch(sc)
	for _, a := range ec.asserts() {
		out := a.cmp.Compare(&rules.Input{Expected: ec.args, Actual: ac.Args, Tool: ac.Name, Args: ac.Args, ExpectedArgs: ec.args, Steps: j.steps, Ctx: w.context()})
		switch {
		case out.Err != nil:
			kind := out.ErrKind
			if kind == "" {
				kind = results.RuleError
			}
			*buf = append(*buf, results.Diff{Kind: kind, Rule: "assert", Message: fmt.Sprintf("assert %q: %v", a.src, out.Err), Call: -1})
		case !out.Equal:
			msg := fmt.Sprintf("assert %q is false", a.src)
			if out.Message != "" {
				msg += ": " + out.Message
			}
			*buf = append(*buf, results.Diff{Kind: results.AssertFailed, Rule: "assert", Message: msg, Call: -1})
		}
	}
	*buf = left.trim(*buf, start, max)
	*buf = left.summary(*buf, max)
	p.diffs = carve()
	p.pass = len(p.diffs) == 0
	return p
}
