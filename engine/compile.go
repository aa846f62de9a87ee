package engine

import (
	"encoding/binary"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/internal/rulecore"

	"github.com/callgrade/callgrade/internal/errcode"
	"github.com/callgrade/callgrade/internal/jsonv"
	"github.com/callgrade/callgrade/internal/prefault"
	"github.com/callgrade/callgrade/internal/response"
	"github.com/callgrade/callgrade/internal/schema"
	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/value"
)

// compiledCase is a case ready to score: every rule compiled, every path
// parsed, every schema compiled.
//
// What scoring a response reads of every case fits two cache lines (128
// bytes, of a slab): a case is mostly read once in a pass, so each line
// it spans, and each object apart from it, is a miss. The format and
// parameters its responses are read with are therefore copied from input,
// which only a call that pairs with no expected call reads.
type compiledCase struct {
	id       string
	mode     suite.CallMatch
	expected []compiledCall
	minCalls int32 // min_calls, 0 when not given (anycalls.go)
	// nullIsMissing is the case's null_is_missing, for validating the
	// actual calls that pair with no expected one.
	nullIsMissing bool
	format        format.Format          // input's
	params        map[string]value.Value // input's
	alternatives  [][]compiledCall
	run           *compiledRun // nil unless the case is an agent's run (steps.go)
	input         *caseInput   // shared by the cases that read their responses alike
}

// stepTools are the tools of a case written with steps, one per step,
// which its results carry (results.Result.StepTools); nil for any other.
func (c *compiledCase) stepTools() []string {
	if c.run == nil {
		return nil
	}
	return c.run.stepTools
}

// tool is the first expected call's name, for summaries.
func (c *compiledCase) tool() string {
	if len(c.expected) > 0 {
		return c.expected[0].name
	}
	return ""
}

// caseInput is how a case's responses are read.
type caseInput struct {
	format format.Format // the suite's or the case's; Options.Format, when set, wins
	// params are the parameters schemas of the case's tools by name, with
	// which a text format types what a model wrote as text (Qwen3-Coder's
	// parameters).
	params map[string]value.Value
	// tools are the case's tools by name, with which an actual call that
	// pairs with no expected call is still validated.
	tools map[string]*tool
	// few holds tools when they are few (see tool), else nil.
	few []namedTool
}

// namedTool is a tool beside its name, so that a scan for a name reads
// one array rather than each tool, apart in memory, in turn.
type namedTool struct {
	name string
	t    *tool
}

// maxFewTools is the most tools a case's input looks up by a scan rather
// than in its map.
const maxFewTools = 8

func newCaseInput(f format.Format, params map[string]value.Value, tools map[string]*tool) *caseInput {
	in := &caseInput{format: f, params: params, tools: tools}
	if len(tools) > 0 && len(tools) <= maxFewTools {
		in.few = make([]namedTool, 0, len(tools))
		for name, t := range tools {
			in.few = append(in.few, namedTool{name, t})
		}
	}
	return in
}

// tool returns the case's tool of that name, nil when there is none. A
// case's few tools are scanned: == compares the lengths first, and the
// names of one tool list mostly differ in length, where the map hashes
// the name.
func (in *caseInput) tool(name string) *tool {
	if in.few == nil {
		return in.tools[name]
	}
	for i := range in.few {
		if in.few[i].name == name {
			return in.few[i].t
		}
	}
	return nil
}

// compiledCall is one expected call. A suite holds one per expected call,
// so what few calls have sits behind more.
type compiledCall struct {
	name string
	args value.Value
	// known is args made ready for validations against the tool's schema,
	// set only when args are valid against it, so that an actual argument
	// equal to the expected one need not be checked again
	// (schema.Check.Known).
	known *schema.Known
	rules *rulecore.Set // shared between calls whose rules are the same
	tool  *tool         // the schema of the tool named name, nil when the case has none
	more  *callChecks
	// The case's extra_fields: allow and null_is_missing (rulecore.Context).
	allowExtra, nullIsMissing bool
	// impliedOnly says that the tool's schema is all that rules the
	// comparison, and args are valid against it (see prove).
	impliedOnly bool
	// itself caches whether args pass against themselves with nothing but
	// the two values deciding (see passesItself): selfUnknown until the
	// first actual call Identical to them asks.
	itself atomic.Uint32
}

// The states of compiledCall.itself.
const (
	selfUnknown uint32 = iota
	selfPasses
	selfNot // they fail, or something besides the values decides
)

// prove reads ac's arguments against the expected ones under the tool's
// schema (schema.Known.Prove). Same: the pair passes without a diff and
// with score 1, valid, and the comparison and the validation, which would
// find as much, are skipped; most right calls of a suite whose strictness
// is its tools' schemas take this way. Valid: the arguments differ, and
// are valid, so only the comparison is left; most wrong calls of such a
// suite take this way. Whatever it proves, it returns the parts of the
// arguments that the comparison need not walk, in passes (which may be
// nil), or nil when it reads nothing.
//
// Outside the schema's proofs, an actual call Identical to the expected
// one is judged as the expected one against itself: where that passes,
// and only the two values decide (passesItself), it is Same too.
func (ec *compiledCall) prove(ac *response.Call, passes *rulecore.Passes) (schema.Proof, *rulecore.Passes) {
	if !ec.impliedOnly || ec.more != nil {
		if ec.itself.Load() != selfNot && jsonv.Identical(ac.Args, ec.args) && ec.passesItself() {
			return schema.Same, nil
		}
		return schema.Unproven, nil
	}
	return ec.known.Prove(ac.Args, passes), passes
}

// passesItself reports whether ec's arguments pass against themselves,
// with nothing but the two values deciding: no assert or result rule, no
// rule calling a comparator or naming a step (rulecore.Set.DecidesByValues),
// and the arguments valid against the tool's schema. Then an actual call
// Identical to them passes as they do: every rule, and the validation,
// reads the two values alone, and cannot tell the actual ones from the
// expected ones. It compares them once, at the first such call, and keeps
// the answer; two goroutines that ask at once both find the same.
func (ec *compiledCall) passesItself() bool {
	switch ec.itself.Load() {
	case selfPasses:
		return true
	case selfNot:
		return false
	}
	ok := ec.more == nil && (ec.tool == nil || ec.tool.schema == nil || ec.known != nil) && ec.rules.DecidesByValues()
	if ok {
		ctx := ec.ctx(rules.Steps{})
		res := ec.rules.CompareChecked(ec.args, ec.args, &ctx, nil)
		ok = res.Matched == res.Total
	}
	state := selfNot
	if ok {
		state = selfPasses
	}
	ec.itself.Store(state)
	return ok
}

// callChecks are an expected call's checks beyond its arguments' rules.
type callChecks struct {
	asserts []compiledAssert
	result  *compiledResult // a step's rules on its tool's result (steps.go)
}

// ctx is the rules' context of a comparison with ec; steps are a run's
// steps before the one compared, none outside a run.
func (ec *compiledCall) ctx(steps rules.Steps) rulecore.Context {
	return rulecore.Context{AllowExtra: ec.allowExtra, NullIsMissing: ec.nullIsMissing, Tool: ec.name, Steps: steps}
}

// asserts returns the call's asserts.
func (ec *compiledCall) asserts() []compiledAssert {
	if ec.more == nil {
		return nil
	}
	return ec.more.asserts
}

// result returns the call's result rules, nil when it has none.
func (ec *compiledCall) result() *compiledResult {
	if ec.more == nil {
		return nil
	}
	return ec.more.result
}

// checks returns ec.more, made when ec has none.
func (ec *compiledCall) checks() *callChecks {
	if ec.more == nil {
		ec.more = new(callChecks)
	}
	return ec.more
}

type compiledAssert struct {
	src string
	cmp rules.Comparator
}

// pathRule is a compiled PATH -> RULE entry.
type pathRule struct {
	path rulecore.Path
	rule *rulecore.Rule
}

// compiler holds what is shared between the cases of one suite, so that
// defaults, rulesets and tools compile once, not once per case.
type compiler struct {
	s        *suite.Suite
	opts     Options
	problems []suite.Problem
	warnings []suite.Problem
	defaults []pathRule
	rulesets map[string][]pathRule
	tools    map[string]*tool       // the suite's tools by name
	params   map[string]value.Value // their parameters schemas by name

	// Large suites repeat the same few rules over and over: each distinct
	// rule and path compiles once, and calls whose rules are the same share
	// one rulecore.Set, whose walk structure is then built once for all of
	// them instead of once per call.
	ruleCache map[string]*rulecore.Rule // by the rule's JSON text; pure rules only
	pathCache map[string]rulecore.Path
	sets      map[string]*rulecore.Set     // by setKey
	key       []byte                       // setKey's buffer
	rkey      []byte                       // compileRule's buffer
	calls     []compiledCall               // slab the cases' calls are cut from
	inputs    map[format.Format]*caseInput // for the cases without tools of their own
	refs      map[string]*rulecore.Ref     // parsed `from` references, for lintRefs
	// toolCache holds the tools compiled so far by name and parameters
	// text: suites imported from benchmarks give each case its own copy
	// of the same few tools (BFCL live_multiple: 4,178 tools, 1,073
	// distinct), and each compiled schema costs kilobytes that scoring
	// reads from memory and the collector marks.
	toolCache map[string]*tool
}

func newCompiler(s *suite.Suite, opts Options) *compiler {
	c := &compiler{s: s, opts: opts, rulesets: make(map[string][]pathRule, len(s.Rulesets)),
		ruleCache: map[string]*rulecore.Rule{}, pathCache: map[string]rulecore.Path{}, sets: map[string]*rulecore.Set{},
		inputs: map[format.Format]*caseInput{}, toolCache: map[string]*tool{}}
	c.defaults = c.compileRuleSet(s.Defaults.Rules, "")
	for _, name := range slices.Sorted(maps.Keys(s.Rulesets)) {
		c.rulesets[name] = c.compileRuleSet(s.Rulesets[name], "")
	}
	c.tools = c.compileTools(s.Tools, "")
	c.params = suite.Params(s.Tools)
	return c
}

// compileAll compiles every case into cases and indexes them by id;
// unique says that no two share one. A large suite compiles on every core,
// in contiguous ranges of cases, each with its own caches, and the problems
// are collected in the order of the cases, as compiling them one by one
// finds them. Calls to the extensions are serialised, since nothing says
// they may run concurrently.
func (c *compiler) compileAll(sc []suite.Case, cases []compiledCase) (index idIndex, unique bool) {
	var wg sync.WaitGroup
	wg.Go(func() { index, unique = newIndex(sc) })
	workers := min(runtime.GOMAXPROCS(0), 1+len(sc)/4096, 16)
	if workers <= 1 {
		for i := range sc {
			c.compileCase(&sc[i], &cases[i])
		}
		wg.Wait()
		return index, unique
	}
	opts := c.opts
	var mu sync.Mutex
	if f := opts.Extensions.Expr; f != nil {
		opts.Extensions.Expr = func(src string) (rules.Comparator, error) {
			mu.Lock()
			defer mu.Unlock()
			return f(src)
		}
	}
	if f := opts.Extensions.Plugin; f != nil {
		opts.Extensions.Plugin = func(ref string, params value.Value) (rules.Comparator, error) {
			mu.Lock()
			defer mu.Unlock()
			return f(ref, params)
		}
	}
	if f := opts.Extensions.Assert; f != nil {
		opts.Extensions.Assert = func(src string) (rules.Comparator, error) {
			mu.Lock()
			defer mu.Unlock()
			return f(src)
		}
	}
	subs := make([]*compiler, workers)
	for w := range workers {
		sub := &compiler{s: c.s, opts: opts, defaults: c.defaults, rulesets: c.rulesets, tools: c.tools, params: c.params,
			ruleCache: map[string]*rulecore.Rule{}, pathCache: map[string]rulecore.Path{}, sets: map[string]*rulecore.Set{},
			inputs: map[format.Format]*caseInput{}, toolCache: map[string]*tool{}}
		subs[w] = sub
		lo, hi := len(sc)*w/workers, len(sc)*(w+1)/workers
		wg.Go(func() {
			prefault.Touch(cases[lo:hi])
			for i := lo; i < hi; i++ {
				sub.compileCase(&sc[i], &cases[i])
			}
		})
	}
	wg.Wait()
	for _, sub := range subs {
		c.problems = append(c.problems, sub.problems...)
		c.warnings = append(c.warnings, sub.warnings...)
	}
	return index, unique
}

func (c *compiler) problem(loc suite.Loc, caseID, msg string) {
	if loc.Case == "" {
		loc.Case = caseID
	}
	c.problems = append(c.problems, suite.Problem{Loc: loc, Msg: msg})
}

// problemErr reports err at loc, keeping it and its code (callgrade.Code)
// beside its message.
func (c *compiler) problemErr(loc suite.Loc, caseID string, err error) {
	c.problem(loc, caseID, err.Error())
	p := &c.problems[len(c.problems)-1]
	p.Code, p.Err = errcode.Of(err), err
}

// ruleProblem reports err, the error of compiling a rule at loc: one
// problem for each of the rule's mistakes (rulecore.Compile joins them).
func (c *compiler) ruleProblem(loc suite.Loc, caseID string, err error) {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			c.problemErr(loc, caseID, e)
		}
		return
	}
	c.problemErr(loc, caseID, err)
}

func (c *compiler) warn(loc suite.Loc, caseID, msg string) {
	if loc.Case == "" {
		loc.Case = caseID
	}
	c.warnings = append(c.warnings, suite.Problem{Loc: loc, Msg: msg})
}

func (c *compiler) compileRuleSet(rs suite.RuleSet, caseID string) []pathRule {
	out := make([]pathRule, 0, len(rs))
	for _, pr := range rs {
		p, ok := c.pathCache[pr.Path]
		if !ok {
			var err error
			if p, err = rulecore.ParsePath(pr.Path); err != nil {
				c.problemErr(pr.Loc, caseID, err)
				continue
			}
			c.pathCache[pr.Path] = p
		}
		r, err := c.compileRule(pr.Rule)
		if err != nil {
			c.ruleProblem(pr.Loc, caseID, err)
			continue
		}
		out = append(out, pathRule{path: p, rule: r})
	}
	return out
}

// compileRule compiles a RULE, once per distinct text when the rule is
// pure: a shorthand, or an object without expr or plugin, whose comparators
// come from extensions and are compiled each time they are written.
func (c *compiler) compileRule(spec value.Value) (*rulecore.Rule, error) {
	if !pureRule(spec) {
		return rulecore.Compile(spec, c.opts.Extensions)
	}
	// A shorthand is keyed as 's' and its text, an object by its JSON,
	// which starts with '{'.
	k := c.rkey[:0]
	if spec.Kind() == value.String {
		k = append(append(k, 's'), spec.Str()...)
	} else {
		k = spec.AppendJSON(k)
	}
	c.rkey = k
	if r, ok := c.ruleCache[string(k)]; ok {
		return r, nil
	}
	r, err := rulecore.Compile(spec, c.opts.Extensions)
	if err == nil {
		c.ruleCache[string(k)] = r
	}
	return r, err
}

// pureRule reports whether compiling spec depends on nothing but its text.
func pureRule(spec value.Value) bool {
	switch spec.Kind() {
	case value.String:
		return true
	case value.Object:
		return !spec.Has("expr") && !spec.Has("plugin")
	}
	return false
}

// setKey returns the key under which a call's rulecore.Set is shared, and
// false when it cannot be: the rules that go into a Set are those of the
// schema (which depend on the tool alone),
// the defaults (the same for every call), the rulesets named by `use`, and
// the call's own, which must all be pure.
func (c *compiler) setKey(t *tool, use []string, rs suite.RuleSet) ([]byte, bool) {
	k := c.key[:0]
	if t != nil {
		k = binary.LittleEndian.AppendUint64(k, uint64(uintptr(unsafe.Pointer(t))))
	}
	k = binary.AppendUvarint(k, uint64(len(use)))
	for _, u := range use {
		k = binary.AppendUvarint(k, uint64(len(u)))
		k = append(k, u...)
	}
	for _, pr := range rs {
		if !pureRule(pr.Rule) {
			c.key = k
			return nil, false
		}
		k = binary.AppendUvarint(k, uint64(len(pr.Path)))
		k = append(k, pr.Path...)
		n := len(k)
		k = append(k, 0, 0, 0, 0)
		k = pr.Rule.AppendJSON(k)
		binary.LittleEndian.PutUint32(k[n:], uint32(len(k)-n-4))
	}
	c.key = k
	return k, true
}

func (c *compiler) compileCase(sc *suite.Case, cc *compiledCase) {
	*cc = compiledCase{id: sc.ID, mode: sc.Calls, minCalls: minCallsOf(sc)}
	format := c.s.FormatOf(sc)
	if cc.mode == "" {
		cc.mode = c.s.Defaults.Calls
	}
	if cc.mode == "" {
		cc.mode = suite.CallsOrdered
	}
	extra := sc.ExtraFields
	if extra == "" {
		extra = c.s.Defaults.ExtraFields
	}
	nullIsMissing := c.s.Defaults.NullIsMissing
	if sc.NullIsMissing != nil {
		nullIsMissing = *sc.NullIsMissing
	}
	cc.nullIsMissing = nullIsMissing
	k := caseCompiler{c: c, sc: sc, tools: c.tools, ctx: rulecore.Context{AllowExtra: extra == suite.ExtraAllow, NullIsMissing: nullIsMissing}}
	if sc.Tools != nil {
		k.tools = c.compileTools(sc.Tools, sc.ID)
		cc.input = newCaseInput(format, suite.Params(sc.Tools), k.tools)
	} else if cc.input = c.inputs[format]; cc.input == nil {
		cc.input = newCaseInput(format, c.params, c.tools)
		c.inputs[format] = cc.input
	}
	cc.format, cc.params = cc.input.format, cc.input.params
	if sc.HasSteps() {
		cc.expected = k.stepCalls(sc.Run.Steps) // steps.go
	} else {
		cc.expected = k.calls(sc.Expected)
	}
	if len(sc.Alternatives) > 0 {
		cc.alternatives = make([][]compiledCall, len(sc.Alternatives))
		for i, alt := range sc.Alternatives {
			cc.alternatives[i] = k.calls(alt)
		}
	}
	if sc.IsRun() || k.refs {
		// compileRun keeps its receiver's address, which would put every
		// case's k on the heap (200,000 allocations for as many cases);
		// only a run's copy goes there.
		run := k
		run.compileRun(sc, cc, k.refs) // steps.go
	}
}

// caseCompiler compiles the calls of one case.
type caseCompiler struct {
	c      *compiler
	sc     *suite.Case
	tools  map[string]*tool
	ctx    rulecore.Context
	used   []pathRule
	useSet bool // used is computed
	refs   bool // a rule or assert reads the run's steps
}

// calls compiles a list of expected calls into a slice cut from the
// compiler's slab.
func (k *caseCompiler) calls(list []suite.Call) []compiledCall {
	c := k.c
	n := len(list)
	if n == 0 {
		return []compiledCall{}
	}
	if cap(c.calls)-len(c.calls) < n {
		c.calls = prefault.Make[compiledCall](max(n, 1024))[:0]
	}
	out := c.calls[len(c.calls) : len(c.calls)+n : len(c.calls)+n]
	c.calls = c.calls[:len(c.calls)+n]
	for i := range list {
		k.call(&list[i], &out[i])
	}
	return out
}

func (k *caseCompiler) call(ec *suite.Call, out *compiledCall) {
	c, sc := k.c, k.sc
	t := k.tools[ec.Name]
	*out = compiledCall{name: ec.Name, args: ec.Arguments, tool: t, allowExtra: k.ctx.AllowExtra, nullIsMissing: k.ctx.NullIsMissing}
	if out.args.Kind() != value.Object {
		out.args, _ = value.ObjectOf()
	}
	key, share := c.setKey(t, sc.Use, ec.Rules)
	if share {
		if set, ok := c.sets[string(key)]; ok {
			out.rules = set
		}
	}
	if out.rules == nil {
		if !k.useSet {
			for _, name := range sc.Use {
				k.used = append(k.used, c.rulesets[name]...)
			}
			k.useSet = true
		}
		set := &rulecore.Set{}
		if t != nil {
			t.implyRules(set)
		}
		for _, pr := range c.defaults {
			set.Add(rulecore.LevelDefaults, pr.path, pr.rule)
		}
		for _, pr := range k.used {
			set.Add(rulecore.LevelRuleset, pr.path, pr.rule)
		}
		n := len(c.problems)
		for _, pr := range c.compileRuleSet(ec.Rules, sc.ID) {
			set.Add(rulecore.LevelCall, pr.path, pr.rule)
		}
		if share && len(c.problems) == n {
			c.sets[string(key)] = set
		}
		out.rules = set
	}
	k.lint(ec, t, out)
	if out.rules.UsesSteps() {
		k.refs = true
		// The placeholders are not the author's: lint has not seen them,
		// and an actual null equal to one is no valid argument.
		out.args = refPlaceholders(out.args, ec.Rules) // steps.go
		out.known = nil
	}
	for _, a := range ec.Assert {
		if c.opts.Extensions.Assert == nil {
			c.problem(a.Loc, sc.ID, "assert needs the expression language, which this build does not enable")
			continue
		}
		cmp, err := c.opts.Extensions.Assert(a.Expr)
		if err != nil {
			c.problemErr(a.Loc, sc.ID, err)
			continue
		}
		m := out.checks()
		m.asserts = append(m.asserts, compiledAssert{src: a.Expr, cmp: cmp})
		if u, ok := cmp.(rulecore.StepsUser); ok && u.UsesSteps() {
			k.refs = true
		}
	}
	// Only the schema's implications rule the comparison: no rule of the
	// suite's, and nulls are values (schema.Known.Prove).
	out.impliedOnly = out.known != nil && !out.nullIsMissing && len(c.defaults) == 0 && len(sc.Use) == 0 && len(ec.Rules) == 0
}

// lint warns of an expected call that no actual call can pass: one naming
// a tool the case's tools do not define, or one whose own arguments
// violate its tool's schema (an actual call equal to them fails the
// schema check).
func (k *caseCompiler) lint(ec *suite.Call, t *tool, out *compiledCall) {
	if t == nil {
		if len(k.tools) > 0 {
			k.c.warn(ec.Loc, k.sc.ID, fmt.Sprintf("the expected call names tool %q, which the case's tools do not define", ec.Name))
		}
		return
	}
	if t.schema == nil {
		return
	}
	violations := t.schema.Validate(nil, out.args, schema.Check{NullIsMissing: out.nullIsMissing})
	if len(violations) == 0 {
		out.known = t.schema.Known(out.args)
	}
	for _, v := range violations {
		msg, real := realViolation(out.rules, out.args, v)
		if !real {
			continue
		}
		loc := ec.Loc
		loc.Key += ".arguments"
		if p := instancePath(v.Path, nil); p != "" {
			loc.Key += "." + p
		}
		k.c.warn(loc, k.sc.ID, "the expected arguments violate the schema of tool "+ec.Name+" ("+msg+"): an actual call equal to them cannot pass")
	}
}

// realViolation reports whether v, a violation of the schema by args, an
// expected call's arguments, is one that the call's rules do not set
// aside, and its message. A rule whose matcher needs no expected value
// (regex, one_of, an expr or a plugin, a from reference) or that ignores
// the field makes what the expected call writes there, or below, no
// literal that the actual call must equal: such a field is not ill-typed
// for the schema, nor missing where the call leaves it out. A field that
// the call leaves out under a type rule is not missing either: the type
// rule decides the actual call's value. Of a violation of required, the
// properties that remain are returned in its message.
func realViolation(set *rulecore.Set, args value.Value, v schema.Violation) (string, bool) {
	freeAt := func(rs []*rulecore.Rule) bool {
		for _, r := range rs {
			if r != nil && (r.Ignore() || r.Standalone()) {
				return true
			}
		}
		return false
	}
	if len(v.Missing) == 0 {
		return v.Message, !freeAt(set.RulesAlong(args, v.Path))
	}
	var still []string
	for _, name := range v.Missing {
		rs := set.RulesAlong(args, append(slices.Clip(v.Path), name))
		if last := rs[len(rs)-1]; !freeAt(rs) && (last == nil || !last.Typed()) {
			still = append(still, name)
		}
	}
	switch {
	case len(still) == 0:
		return "", false
	case len(still) < len(v.Missing):
		return schema.MissingMessage(still), true
	}
	return v.Message, true
}
