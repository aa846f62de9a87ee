package engine

import (
	"fmt"
	"strconv"

	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/suite"
	"github.com/callgrade/callgrade/value"
)

// lintRefs warns of the `from` references of case sc that can never
// resolve in a run that passes (docs/trajectories.md, "References that
// cannot resolve"): one naming a tool that neither the case's expected
// calls nor its tools have, or, where the mode fixes what may come before
// a call, a step or a call to a tool that no run that passes has before
// it. References in defaults and rulesets, shared by every case, and
// expressions, which can guard an index, are not looked at.
func (k *caseCompiler) lintRefs(sc *suite.Case, mode suite.CallMatch) {
	rl := refLint{k: k, sc: sc, mode: mode, tolerant: mode == suite.CallsInOrder || mode == suite.CallsSuperset}
	var lists [][]*suite.Call
	if sc.Steps != nil {
		lists = append(lists, make([]*suite.Call, len(sc.Steps)))
		for i := range sc.Steps {
			lists[0][i] = &sc.Steps[i].Call
		}
	} else {
		lists = append(lists, make([]*suite.Call, len(sc.Expected)))
		for i := range sc.Expected {
			lists[0][i] = &sc.Expected[i]
		}
	}
	for _, alt := range sc.Alternatives {
		l := make([]*suite.Call, len(alt))
		for i := range alt {
			l[i] = &alt[i]
		}
		lists = append(lists, l)
	}
	rl.names = map[string]bool{}
	for _, l := range lists {
		for _, c := range l {
			rl.names[c.Name] = true
		}
	}
	for _, l := range lists {
		for i, c := range l {
			rs := c.Rules
			if sc.Steps != nil {
				rs = append(rs[:len(rs):len(rs)], sc.Steps[i].Result...)
			}
			for _, pr := range rs {
				if ref := k.c.ref(pr.Rule); ref != nil {
					rl.check(ref, pr.Loc, rl.before(l, i), false)
				}
			}
		}
	}
	for i := range sc.Never {
		for _, pr := range sc.Never[i].Rules {
			if ref := k.c.ref(pr.Rule); ref != nil {
				rl.check(ref, pr.Loc, nil, false)
			}
		}
	}
	if ref := k.c.ref(sc.Final); ref != nil {
		// The final text sees every step: a warning only when no list of
		// expected calls leaves the reference a step to name.
		var msg string
		for _, l := range lists {
			var before []string
			if !rl.tolerant {
				before = make([]string, 0, len(l))
				for _, c := range l {
					before = append(before, c.Name)
				}
			}
			m := rl.reason(ref, before, !rl.tolerant, true)
			if m == "" {
				return
			}
			if msg == "" {
				msg = m
			}
		}
		rl.warn(ref, sc.FinalLoc, msg)
	}
}

// refLint checks the references of one case.
type refLint struct {
	k        *caseCompiler
	sc       *suite.Case
	mode     suite.CallMatch
	tolerant bool            // the mode allows calls besides the expected ones
	names    map[string]bool // the tools the case's expected calls name
}

// before returns the names of the expected calls of list l that a run
// that passes can have before the call paired with l[i], and whether the
// mode bounds them: in `ordered` the calls before it, in the other modes
// without calls besides the expected ones the others; in `in_order` and
// `superset` any call may come before, and nothing is bounded.
func (rl *refLint) before(l []*suite.Call, i int) []string {
	if rl.tolerant {
		return nil
	}
	out := make([]string, 0, len(l))
	for j, c := range l {
		if j < i || j > i && rl.mode != suite.CallsOrdered {
			out = append(out, c.Name)
		}
	}
	return out
}

// check warns of ref, written at loc, when it cannot resolve.
func (rl *refLint) check(ref *rules.Ref, loc suite.Loc, before []string, final bool) {
	if msg := rl.reason(ref, before, before != nil, final); msg != "" {
		rl.warn(ref, loc, msg)
	}
}

func (rl *refLint) warn(ref *rules.Ref, loc suite.Loc, msg string) {
	rl.k.c.warn(loc, rl.sc.ID, "from: reference "+strconv.Quote(ref.String())+" can never resolve in a run that passes: "+msg)
}

// reason says why ref cannot resolve, "" when it can: bounded says that
// a run that passes has at most the steps before, by name, before the
// call (every step, for final).
func (rl *refLint) reason(ref *rules.Ref, before []string, bounded, final bool) string {
	tool := ref.Tool()
	if tool != "" && !rl.names[tool] {
		if len(rl.k.tools) > 0 && rl.k.tools[tool] == nil {
			return fmt.Sprintf("the case's tools do not define %s, and no expected call names it", tool)
		}
		if !rl.tolerant {
			return fmt.Sprintf("no expected call names %s, and calls: %s allows no other call", tool, rl.mode)
		}
	}
	if !bounded {
		return ""
	}
	where := " before this one"
	if final {
		where = ""
	}
	idx, indexed := ref.Index()
	if tool == "" {
		if n := len(before); idx >= n || idx < -n {
			return fmt.Sprintf("it has at most %s%s (calls: %s)", plural(n, "step"), where, rl.mode)
		}
		return ""
	}
	need := 1
	switch {
	case indexed && idx >= 0:
		need = idx + 1
	case indexed:
		need = -idx
	}
	have := 0
	for _, name := range before {
		if name == tool {
			have++
		}
	}
	if have < need {
		return fmt.Sprintf("it has at most %s to %s%s (calls: %s)", plural(have, "call"), tool, where, rl.mode)
	}
	return ""
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// ref returns the reference of a rule as written, nil when it has none
// (or one that does not parse, which compiling it reports). References
// are parsed once per compiler.
func (c *compiler) ref(rule value.Value) *rules.Ref {
	if rule.Kind() != value.Object {
		return nil
	}
	v, ok := rule.Get("from")
	if !ok || v.Kind() != value.String {
		return nil
	}
	if r, ok := c.refs[v.Str()]; ok {
		return r
	}
	r, err := rules.ParseRef(v.Str())
	if err != nil {
		r = nil
	}
	if c.refs == nil {
		c.refs = map[string]*rules.Ref{}
	}
	c.refs[v.Str()] = r
	return r
}
