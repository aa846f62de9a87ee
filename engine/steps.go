package engine

import (
	"context"
	"fmt"
	"strconv"
	"sync"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/internal/response"
	"github.com/callgrade/callgrade/internal/rulecore"
	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/internal/words"
	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/value"
)

// compiledRun is what makes a case an agent's run: scored from the whole
// run, not only its calls.
type compiledRun struct {
	steps    bool // written with steps: `ordered` aligns in order
	never    []compiledNever
	maxCalls int // -1: no limit
	final    *rulecore.Set
	rule     *rulecore.Rule      // final's
	reading  format.FinalReading // which text final judges (final_text)
	// stepTools are the tools of a run written with steps, one per step:
	// its results carry them (results.Result.StepTools), made once here
	// rather than per result.
	stepTools []string
	// skipResults says that nothing in the case reads a tool's result
	// (compiledCase.readsResults): the run is read without them
	// (response.Options.SkipResults).
	skipResults bool
}

type compiledNever struct {
	name     string
	args     value.Value
	rules    *rulecore.Set
	hasRules bool // the entry has rules: a name alone forbids every call to it
	ctx      rulecore.Context
}

// compiledResult holds a step's rules on its tool's result.
type compiledResult struct {
	checks    []resultCheck
	hasError  bool
	wantError bool
}

type resultCheck struct {
	text string // the path as written
	segs []rulecore.Segment
	rule *rulecore.Rule
	set  *rulecore.Set // the rule at the root, to compare one value under
}

func (cr *compiledResult) items() int {
	n := len(cr.checks)
	if cr.hasError {
		n++
	}
	return n
}

// compileRun compiles what makes sc a run. refs says that the case's rules
// read the run's steps, which alone makes an `expected` case a run.
func (k *caseCompiler) compileRun(sc *suite.Case, cc *compiledCase, refs bool) {
	if !sc.IsRun() && !refs {
		return
	}
	c := k.c
	run := &compiledRun{steps: sc.HasSteps(), maxCalls: -1}
	sr := sc.Run
	if sr == nil {
		sr = &suite.Run{} // a case whose rules read the steps, and no more
	}
	if sr.MaxCalls != nil {
		run.maxCalls = *sr.MaxCalls
	}
	for i := range sr.Never {
		n := &sr.Never[i]
		cn := compiledNever{name: n.Name, args: n.Arguments, rules: &rulecore.Set{},
			ctx: rulecore.Context{AllowExtra: true, Tool: n.Name}}
		if cn.args.Kind() != value.Object {
			cn.args, _ = value.ObjectOf()
		}
		// A field the entry's rules name must be there to be compared:
		// an entry that gives rules and no arguments forbids the calls
		// the rules match. Its placeholders are no user's nulls, so the
		// comparison (ctx above) does not read nulls as omissions.
		cn.args = placeholders(cn.args, n.Rules, false)
		if t := k.tools[n.Name]; t != nil {
			// What the tool's schema implies, as for an expected call:
			// "1000" for a number parameter is the forbidden 1000, so
			// that a wrong type never gets a call past the guard.
			t.implyRules(cn.rules)
		}
		for _, pr := range c.compileRuleSet(n.Rules, sc.ID) {
			cn.rules.Add(rulecore.LevelCall, pr.path, pr.rule)
			cn.hasRules = true
		}
		if len(k.tools) > 0 && k.tools[n.Name] == nil {
			c.warn(n.Loc, sc.ID, fmt.Sprintf("never names tool %q, which the case's tools do not define", n.Name))
		}
		run.never = append(run.never, cn)
	}
	if sr.Final.Kind() != value.Null {
		r, err := c.compileRule(sr.Final)
		if err != nil {
			c.ruleProblem(sr.FinalLoc, sc.ID, err)
		} else {
			run.final, run.rule, run.reading = &rulecore.Set{}, r, sr.FinalText
			run.final.Add(rulecore.LevelCall, rulecore.Path{}, r)
		}
	}
	k.lintRefs(sc, cc.mode) // steps_lint.go
	cc.run = run
	run.skipResults = !cc.readsResults()
	if run.steps {
		run.stepTools = make([]string, len(cc.expected))
		for j := range cc.expected {
			run.stepTools[j] = cc.expected[j].name
		}
	}
}

// readsResults reports whether scoring a response to run case cc may read
// a tool's result: a step's result rules do, and so may every rule that a
// comparator or a reference decides and every assert, which are handed
// the run's steps (rules.Steps) with their results. Rules that the values
// alone decide (rulecore.Set.DecidesByValues) read none.
func (cc *compiledCase) readsResults() bool {
	calls := func(ecs []compiledCall) bool {
		for i := range ecs {
			ec := &ecs[i]
			if ec.result() != nil || len(ec.asserts()) > 0 || ec.rules != nil && !ec.rules.DecidesByValues() {
				return true
			}
		}
		return false
	}
	if calls(cc.expected) {
		return true
	}
	for _, alt := range cc.alternatives {
		if calls(alt) {
			return true
		}
	}
	for i := range cc.run.never {
		if !cc.run.never[i].rules.DecidesByValues() {
			return true
		}
	}
	return cc.run.final != nil && !cc.run.final.DecidesByValues()
}

// stepCalls compiles a case's expected steps: their calls as expected
// calls, with their result rules.
func (k *caseCompiler) stepCalls(steps []suite.Step) []compiledCall {
	list := make([]suite.Call, len(steps))
	for i := range steps {
		list[i] = steps[i].Call
	}
	out := k.calls(list)
	for i := range steps {
		st := &steps[i]
		if len(st.Result) == 0 && !st.HasError {
			continue
		}
		cr := &compiledResult{hasError: st.HasError, wantError: st.Error}
		for _, pr := range k.c.compileRuleSet(st.Result, k.sc.ID) {
			set := &rulecore.Set{}
			set.Add(rulecore.LevelCall, rulecore.Path{}, pr.rule)
			cr.checks = append(cr.checks, resultCheck{text: pr.path.String(), segs: pr.path.Segments(), rule: pr.rule, set: set})
		}
		out[i].checks().result = cr
	}
	return out
}

// refPlaceholders makes sure that the expected arguments have a member at
// each literal path of a `from` rule, so that the comparison visits it
// (and a missing argument is one) even when the expected call leaves it
// out: the reference gives its expected value.
func refPlaceholders(args value.Value, rs suite.RuleSet) value.Value {
	return placeholders(args, rs, true)
}

// placeholders is refPlaceholders for the paths of from rules, or with
// fromOnly false for the literal path of every rule.
func placeholders(args value.Value, rs suite.RuleSet, fromOnly bool) value.Value {
	for _, pr := range rs {
		if fromOnly && (pr.Rule.Kind() != value.Object || !pr.Rule.Has("from")) {
			continue
		}
		p, err := rulecore.ParsePath(pr.Path)
		if err != nil {
			continue
		}
		var keys []string
		literal := true
		for _, s := range p.Segments() {
			literal = literal && !s.Star && !s.Hash
			keys = append(keys, s.Key)
		}
		if literal {
			args = withPlaceholder(args, keys)
		}
	}
	return args
}

// withPlaceholder returns obj with a null at keys, unless something is
// there already or a list is in the way.
func withPlaceholder(obj value.Value, keys []string) value.Value {
	if obj.Kind() != value.Object {
		return obj
	}
	v, ok := obj.Get(keys[0])
	switch {
	case ok && len(keys) == 1:
		return obj
	case ok && v.Kind() != value.Object:
		return obj
	case len(keys) == 1:
		v = value.Value{}
	default:
		if !ok {
			v, _ = value.ObjectOf()
		}
		v = withPlaceholder(v, keys[1:])
	}
	members := make([]value.Member, 0, obj.Len()+1)
	for _, m := range obj.Members() {
		if m.Key != keys[0] {
			members = append(members, m)
		}
	}
	members = append(members, value.Member{Key: keys[0], Value: v})
	out, _ := value.ObjectOf(members...)
	return out
}

// runView is a run being scored: its steps for references
// (rules.NewSteps), built into values only when a reference reads them.
type runView struct {
	ctx     context.Context   // the scoring's (Scorer.setContext), for the run's comparisons
	words   *words.Arena      // where the run's own diffs are worded (work.arena)
	scratch *rulecore.Scratch // the run's comparisons' memory (work.normScratch)
	pooled  bool              // from runViewPool, not a Scorer's work
	// final is what reportFinal writes the final text's diffs into, and
	// whether its rule has an expected value; report is reportFinal,
	// bound once for the pooled view rather than a closure a run.
	final struct {
		r    *results.Result
		none bool
	}
	report  func(rulecore.Diff)
	run     *response.Run
	isSteps bool // the case is written with steps
	calls   []response.Call
	vals    []value.Value
	built   []bool
	// sum and den are the summed call scores of the list of calls that
	// counted and the count they are divided by, which checkRun adds to;
	// evaluate sets them.
	sum float64
	den int
}

var runViewPool = sync.Pool{New: func() any { return new(runView) }}

// newRunView returns the view of run, in w's memory (the pool's when w
// is nil), to give back with release once the run is scored.
func newRunView(run *response.Run, steps bool, w *work) *runView {
	var rv *runView
	if w != nil {
		rv = &w.rv
	} else {
		rv = runViewPool.Get().(*runView)
		rv.pooled = true
	}
	rv.run, rv.isSteps = run, steps
	rv.calls = rv.calls[:0]
	for i := range run.Steps {
		rv.calls = append(rv.calls, run.Steps[i].Call)
	}
	rv.vals = grow(rv.vals, len(run.Steps))
	rv.built = grow(rv.built, len(run.Steps))
	clear(rv.built)
	return rv
}

func (rv *runView) release() {
	clear(rv.calls)
	clear(rv.vals)
	rv.run, rv.ctx, rv.words, rv.scratch, rv.final.r = nil, nil, nil, nil, nil
	if rv.pooled {
		rv.pooled = false
		runViewPool.Put(rv)
	}
}

// StepCount serves rules.NewSteps.
func (rv *runView) StepCount() int { return len(rv.run.Steps) }

// StepName serves rules.NewSteps.
func (rv *runView) StepName(i int) string { return rv.run.Steps[i].Name }

// StepValue serves rules.NewSteps: {name, arguments, result, error,
// id, turn}, result only when the run has the tool's result, id only when
// the run gives one.
func (rv *runView) StepValue(i int) value.Value {
	if rv.built[i] {
		return rv.vals[i]
	}
	st := &rv.run.Steps[i]
	args := st.Args
	if st.Err != nil {
		args = value.Value{}
	}
	m := make([]value.Member, 0, 6)
	m = append(m, value.Member{Key: "name", Value: value.StringOf(st.Name)}, value.Member{Key: "arguments", Value: args})
	if st.HasResult {
		m = append(m, value.Member{Key: "result", Value: st.Result})
	}
	m = append(m, value.Member{Key: "error", Value: value.BoolOf(st.Error)})
	if st.ID != "" {
		m = append(m, value.Member{Key: "id", Value: value.StringOf(st.ID)})
	}
	m = append(m, value.Member{Key: "turn", Value: value.Int(int64(st.Turn))})
	rv.vals[i], _ = value.ObjectOf(m...)
	rv.built[i] = true
	return rv.vals[i]
}

// steps reports whether the case is written with steps.
func (rv *runView) steps() bool { return rv.isSteps }

// at is the view of the steps before step b.
func (rv *runView) at(b int) rules.Steps {
	if rv == nil {
		return rules.Steps{}
	}
	return rules.NewSteps(rv, b)
}

// mark says that d belongs to actual step b.
func (rv *runView) mark(d *results.Diff, b int) {
	if rv != nil && b >= 0 && b < len(rv.run.Steps) {
		d.Step, d.Turn, d.HasStep = b, rv.run.Steps[b].Turn, true
	}
}

// checkResult holds actual step b's result to ec's result rules, reporting
// each failure when report is not nil; it returns how many of the rules
// passed and how many there are.
func (rv *runView) checkResult(ec *compiledCall, b int, report func(rulecore.Diff)) (ok, n int) {
	cr := ec.result()
	n = cr.items()
	if rv == nil || !rv.run.Steps[b].HasResult {
		if report != nil {
			report(rulecore.Diff{Kind: results.MissingResult, Path: "result", Rule: "result",
				Message: "the run has no result of this call to " + ec.name + ", which the step's result rules need"})
		}
		return 0, n
	}
	st := &rv.run.Steps[b]
	if cr.hasError {
		if st.Error == cr.wantError {
			ok++
		} else if report != nil {
			msg := "expected the tool to succeed, but it reported an error"
			if cr.wantError {
				msg = "expected the tool to report an error, but it succeeded"
			}
			report(rulecore.Diff{Kind: results.Mismatch, Path: "result.error", Expected: value.BoolOf(cr.wantError), Actual: value.BoolOf(st.Error),
				HasExpected: true, HasActual: true, Rule: "error", Message: msg})
		}
	}
	ctx := rulecore.Context{AllowExtra: true, NullIsMissing: ec.nullIsMissing, Tool: ec.name, Steps: rv.at(b), Ctx: rv.ctx, Words: rv.words, Scratch: rv.scratch}
	for i := range cr.checks {
		chk := &cr.checks[i]
		if chk.rule.Ignore() {
			ok++
			continue
		}
		good, found := true, false
		eachAt(st.Result, chk.segs, "result", func(path string, v value.Value) {
			found = true
			exp := v // no expected value: presence and type alone
			if ref := chk.rule.From(); ref != nil {
				var why string
				if exp, why = ref.Resolve(ctx.Steps); why != "" {
					good = false
					if report != nil {
						report(rulecore.Diff{Kind: results.Mismatch, Path: path, Actual: v, HasActual: true, Rule: chk.rule.String(),
							Message: "expected the value of " + ref.String() + ", but " + why})
					}
					return
				}
			}
			none := chk.rule.From() == nil && chk.rule.Standalone()
			if none {
				exp = value.Value{}
			}
			var sub func(rulecore.Diff)
			if report != nil {
				sub = func(d rulecore.Diff) {
					if none && d.Path == "" {
						// The rule has no expected value: that side is absent, not null.
						d.Expected, d.HasExpected = value.Value{}, false
					}
					if d.Path == "" {
						d.Path = path
					} else {
						d.Path = path + "." + d.Path
					}
					report(d)
				}
			}
			res := chk.set.CompareChecked(exp, v, &ctx, sub)
			good = good && res.Matched == res.Total
		})
		switch {
		case !found && chk.rule.Optional():
			ok++
		case !found:
			if report != nil {
				report(rulecore.Diff{Kind: results.MissingArgument, Path: "result." + chk.text, Rule: chk.rule.String(),
					Message: "the result of " + ec.name + " has nothing at " + chk.text})
			}
		case good:
			ok++
		}
	}
	return ok, n
}

// eachAt calls f with each value at segs inside v, and its path.
func eachAt(v value.Value, segs []rulecore.Segment, path string, f func(string, value.Value)) {
	if len(segs) == 0 {
		f(path, v)
		return
	}
	s := segs[0]
	switch v.Kind() {
	case value.Object:
		if s.Hash {
			return
		}
		for _, m := range v.Members() {
			if s.Star || m.Key == s.Key {
				eachAt(m.Value, segs[1:], path+"."+m.Key, f)
			}
		}
	case value.Array:
		for i, e := range v.Elems() {
			if s.Star || s.Hash || s.Index == i {
				eachAt(e, segs[1:], path+"."+strconv.Itoa(i), f)
			}
		}
	}
}

// matches reports whether actual call ac is one the never entry forbids.
// When a rule of the entry cannot decide (an expression or a plugin
// fails), it returns that failure instead: the call may be the forbidden
// one, and a guard that a wrong type gets past must not pass the run.
func (n *compiledNever) matches(ac *response.Call, steps rules.Steps, cx context.Context) (bool, *rulecore.Diff) {
	if ac.Name != n.name {
		return false, nil
	}
	if n.args.Len() == 0 && !n.hasRules {
		return true, nil
	}
	if ac.Err != nil {
		return false, nil // its own invalid_arguments diff fails the case
	}
	ctx := n.ctx
	ctx.Steps, ctx.Ctx = steps, cx
	var failed *rulecore.Diff
	res := n.rules.CompareChecked(n.args, ac.Args, &ctx, func(d rulecore.Diff) {
		if failed == nil && (d.Kind == results.RuleError || d.Kind == results.PluginError) {
			failed = &d
		}
	})
	if failed != nil {
		return false, failed
	}
	return res.Matched == res.Total, nil
}

// scoreRun scores a run against case i, which is a run case.
func (e *Engine) scoreRun(r *results.Result, i int, run *response.Run, w *work) {
	// The text final judges, as final_text reads it; under bfcl a last
	// message of unusable calls is that text, and no calls.
	run = run.ReadAsInto(e.cases[i].run.reading, w.readRun(run))
	rv := newRunView(run, e.cases[i].run.steps, w)
	defer rv.release()
	rv.ctx, rv.words, rv.scratch = w.context(), w.arena(), w.normScratch()
	e.scoreCallsIn(r, i, rv.calls, w, rv)
	e.cases[i].countCalls(r, rv.calls, rv) // anycalls.go
	e.checkRun(r, &e.cases[i], rv)
	e.cases[i].anyScore(r)
}

// checkRun adds what a run case says of the whole run to r, which holds
// the verdict on its calls: calls that must not happen (never), too many
// calls (max_calls) and the final text (final). The score counts the
// final text as one more expected item, and each forbidden call (unless
// already counted as an unexpected one) and too many calls as one more
// miss.
func (e *Engine) checkRun(r *results.Result, c *compiledCase, rv *runView) {
	run := c.run
	sum, den := rv.sum, rv.den
	if len(run.never) > 0 {
		for b := range rv.calls {
			for k := range run.never {
				forbidden, failed := run.never[k].matches(&rv.calls[b], rv.at(b), rv.ctx)
				if !forbidden && failed == nil {
					continue
				}
				call, counted := -1, false
				for j, cr := range r.Calls {
					if cr.Actual == b {
						call, counted = j, cr.Expected < 0
					}
				}
				if !counted {
					den++
				}
				d := results.Diff{Kind: results.ForbiddenCall, Actual: value.StringOf(rv.calls[b].Name), HasActual: true,
					Rule: "never", Message: fmt.Sprintf("%s must not be called (never[%d])", rv.calls[b].Name, k), Call: call}
				if failed != nil {
					d.Kind, d.Path = failed.Kind, failed.Path
					d.Message = fmt.Sprintf("never[%d] cannot tell whether this call to %s is forbidden: %s", k, rv.calls[b].Name, failed.Message)
				}
				rv.mark(&d, b)
				r.Diffs = append(r.Diffs, d)
				break
			}
		}
	}
	if run.maxCalls >= 0 && len(rv.calls) > run.maxCalls {
		den++
		d := results.Diff{Kind: results.TooManyCalls, Expected: value.Int(int64(run.maxCalls)), Actual: value.Int(int64(len(rv.calls))),
			HasExpected: true, HasActual: true, Rule: "max_calls",
			Message: fmt.Sprintf("the run made %s; at most %d allowed", plural(len(rv.calls), "call"), run.maxCalls), Call: -1}
		rv.mark(&d, run.maxCalls)
		r.Diffs = append(r.Diffs, d)
	}
	if run.final != nil {
		den++
		text := rv.run.Final
		switch {
		case !rv.run.HasFinal:
			r.Diffs = append(r.Diffs, results.Diff{Kind: results.MissingFinal, Path: "final", Rule: run.rule.String(),
				Message: "the run ends without a final answer", Call: -1})
		default:
			actual := value.StringOf(text)
			exp := actual
			steps := rv.at(len(rv.calls))
			ok := true
			if ref := run.rule.From(); ref != nil {
				var why string
				if exp, why = ref.Resolve(steps); why != "" {
					ok = false
					r.Diffs = append(r.Diffs, results.Diff{Kind: results.Mismatch, Path: "final", Actual: actual, HasActual: true,
						Rule: run.rule.String(), Message: "expected the value of " + ref.String() + ", but " + why, Call: -1})
				}
			}
			none := run.rule.From() == nil && run.rule.Standalone()
			if none {
				exp = value.Value{}
			}
			if ok {
				ctx := rulecore.Context{Steps: steps, Ctx: rv.ctx, Words: rv.words, Scratch: rv.scratch}
				rv.final.r, rv.final.none = r, none
				if rv.report == nil {
					rv.report = rv.reportFinal
				}
				res := run.final.CompareChecked(exp, actual, &ctx, rv.report)
				ok = res.Matched == res.Total
			}
			if ok {
				sum++
			}
		}
	}
	if den == 0 {
		r.Score = 1
	} else {
		r.Score = sum / float64(den)
	}
	r.Pass = len(r.Diffs) == 0
}

// reportFinal writes a diff of the final text into rv.final's result.
func (rv *runView) reportFinal(d rulecore.Diff) {
	d.Path = "final"
	if rv.final.none {
		// The rule has no expected value: that side is absent, not null.
		d.Expected, d.HasExpected = value.Value{}, false
	}
	rv.final.r.Diffs = append(rv.final.r.Diffs, argDiff(d, -1))
}

// scoreRunOrCalls scores run against case i: a run case on the run, any
// other on its calls, gathered in w's memory for the calls of a response.
func (e *Engine) scoreRunOrCalls(r *results.Result, i int, run *response.Run, w *work) {
	if run.NotEvaluable != "" {
		e.notEvaluable(r, i, run.NotEvaluable)
		return
	}
	if e.cases[i].run != nil {
		e.scoreRun(r, i, run, w)
		return
	}
	if len(run.Steps) == 0 {
		e.scoreCalls(r, i, nil, w)
		return
	}
	calls := w.callsOrNil()[:0]
	for k := range run.Steps {
		calls = append(calls, run.Steps[k].Call)
	}
	w.keepCalls(calls)
	e.scoreCalls(r, i, calls, w)
}
