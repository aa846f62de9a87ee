package engine

import (
	"maps"
	"slices"

	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/suite"
	"github.com/callgrade/callgrade/value"
)

// compiledCase is a case ready to score: every rule compiled, every path
// parsed, every schema compiled.
type compiledCase struct {
	id           string
	tool         string // first expected call's name, for summaries
	mode         suite.CallMatch
	expected     []*compiledCall
	alternatives [][]*compiledCall
}

// compiledCall is one expected call.
type compiledCall struct {
	name    string
	args    value.Value
	rules   *rules.Set
	ctx     rules.Context
	tool    *tool // the schema of the tool named name, nil when the case has none
	asserts []compiledAssert
}

type compiledAssert struct {
	src string
	cmp rules.Comparator
}

// pathRule is a compiled PATH -> RULE entry.
type pathRule struct {
	path rules.Path
	rule *rules.Rule
}

// compiler holds what is shared between the cases of one suite, so that
// defaults, rulesets and tools compile once, not once per case.
type compiler struct {
	s        *suite.Suite
	opts     Options
	problems []suite.Problem
	defaults []pathRule
	rulesets map[string][]pathRule
	tools    map[string]*tool // the suite's tools by name
}

func newCompiler(s *suite.Suite, opts Options) *compiler {
	c := &compiler{s: s, opts: opts, rulesets: make(map[string][]pathRule, len(s.Rulesets))}
	c.defaults = c.compileRuleSet(s.Defaults.Rules, "")
	for _, name := range slices.Sorted(maps.Keys(s.Rulesets)) {
		c.rulesets[name] = c.compileRuleSet(s.Rulesets[name], "")
	}
	c.tools = c.compileTools(s.Tools, "")
	return c
}

func (c *compiler) problem(loc suite.Loc, caseID, msg string) {
	if loc.Case == "" {
		loc.Case = caseID
	}
	c.problems = append(c.problems, suite.Problem{Loc: loc, Msg: msg})
}

func (c *compiler) compileRuleSet(rs suite.RuleSet, caseID string) []pathRule {
	out := make([]pathRule, 0, len(rs))
	for _, pr := range rs {
		p, err := rules.ParsePath(pr.Path)
		if err != nil {
			c.problem(pr.Loc, caseID, err.Error())
			continue
		}
		r, err := rules.Compile(pr.Rule, c.opts.Extensions)
		if err != nil {
			c.problem(pr.Loc, caseID, err.Error())
			continue
		}
		out = append(out, pathRule{path: p, rule: r})
	}
	return out
}

func (c *compiler) compileCase(sc *suite.Case) *compiledCase {
	cc := &compiledCase{id: sc.ID, mode: sc.Calls}
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
	tools := c.tools
	if sc.Tools != nil {
		tools = c.compileTools(sc.Tools, sc.ID)
	}
	var used []pathRule
	for _, name := range sc.Use {
		used = append(used, c.rulesets[name]...)
	}
	call := func(ec *suite.Call) *compiledCall {
		t := tools[ec.Name]
		out := &compiledCall{
			name: ec.Name,
			args: ec.Arguments,
			tool: t,
			ctx:  rules.Context{AllowExtra: extra == suite.ExtraAllow, NullIsMissing: nullIsMissing, Tool: ec.Name},
		}
		if out.args.Kind() != value.Object {
			out.args, _ = value.ObjectOf()
		}
		set := &rules.Set{}
		if t != nil {
			t.implyRules(set, out.args)
		}
		for _, pr := range c.defaults {
			set.Add(rules.LevelDefaults, pr.path, pr.rule)
		}
		for _, pr := range used {
			set.Add(rules.LevelRuleset, pr.path, pr.rule)
		}
		for _, pr := range c.compileRuleSet(ec.Rules, sc.ID) {
			set.Add(rules.LevelCall, pr.path, pr.rule)
		}
		out.rules = set
		for _, a := range ec.Assert {
			if c.opts.Assert == nil {
				c.problem(a.Loc, sc.ID, "assert needs the expression language, which this build does not enable")
				continue
			}
			cmp, err := c.opts.Assert(a.Expr)
			if err != nil {
				c.problem(a.Loc, sc.ID, err.Error())
				continue
			}
			out.asserts = append(out.asserts, compiledAssert{src: a.Expr, cmp: cmp})
		}
		return out
	}
	cc.expected = make([]*compiledCall, len(sc.Expected))
	for i := range sc.Expected {
		cc.expected[i] = call(&sc.Expected[i])
	}
	if len(sc.Expected) > 0 {
		cc.tool = sc.Expected[0].Name
	}
	cc.alternatives = make([][]*compiledCall, len(sc.Alternatives))
	for k, alt := range sc.Alternatives {
		cc.alternatives[k] = make([]*compiledCall, len(alt))
		for i := range alt {
			cc.alternatives[k][i] = call(&alt[i])
		}
	}
	return cc
}
