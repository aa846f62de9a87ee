package engine

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/callgrade/callgrade/internal/rulecore"

	"github.com/callgrade/callgrade/internal/suite"
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
	sr := sc.Run
	if sr == nil {
		sr = &suite.Run{}
	}
	rl := refLint{k: k, sc: sc, mode: mode, tolerant: mode == suite.CallsInOrder || mode == suite.CallsSuperset || mode == suite.CallsAny}
	if sr.Steps != nil {
		l := make([]*suite.Call, len(sr.Steps))
		for i := range sr.Steps {
			l[i] = &sr.Steps[i].Call
		}
		rl.lists = append(rl.lists, l)
	} else {
		l := make([]*suite.Call, len(sc.Expected))
		for i := range sc.Expected {
			l[i] = &sc.Expected[i]
		}
		rl.lists = append(rl.lists, l)
	}
	for _, alt := range sc.Alternatives {
		l := make([]*suite.Call, len(alt))
		for i := range alt {
			l[i] = &alt[i]
		}
		rl.lists = append(rl.lists, l)
	}
	for li, l := range rl.lists {
		for i, c := range l {
			for _, pr := range c.Rules {
				if ref := k.c.ref(pr.Rule); ref != nil {
					rl.check(ref, pr.Loc, li, i)
					if at := listNotHeld(c.Arguments, pr.Path); at != "" {
						k.c.warn(pr.Loc, sc.ID, "from: the path "+strconv.Quote(pr.Path)+" indexes into "+strconv.Quote(at)+
							", which the expected arguments do not hold, so the comparison expects an object there, not a list: "+
							"write the list in the expected arguments")
					}
				}
			}
			if sr.Steps != nil {
				for _, pr := range sr.Steps[i].Result {
					if ref := k.c.ref(pr.Rule); ref != nil {
						rl.check(ref, pr.Loc, li, i)
					}
				}
			}
		}
	}
	for i := range sr.Never {
		for _, pr := range sr.Never[i].Rules {
			if ref := k.c.ref(pr.Rule); ref != nil {
				if msg := rl.reason(ref, -1, 0, false); msg != "" {
					rl.warn(ref, pr.Loc, msg)
				}
			}
		}
	}
	if ref := k.c.ref(sr.Final); ref != nil {
		// The final text sees every step: a warning only when no list of
		// expected calls leaves the reference a step to name.
		var msg string
		for li := range rl.lists {
			m := rl.reason(ref, li, -1, true)
			if m == "" && sr.Steps != nil {
				m = rl.failedResult(ref, -1, true)
			}
			if m == "" {
				return
			}
			if msg == "" {
				msg = m
			}
		}
		rl.warn(ref, sr.FinalLoc, msg)
	}
}

// listNotHeld returns the key of a list that path, a from rule's, indexes
// into and the expected arguments args do not hold (items in items.0.sku
// when args have no items), or "" when there is none. The reference
// gives the value at the path, and the comparison builds what leads to it
// as objects (refPlaceholders), so such a rule fails every actual call
// that writes items as a list.
func listNotHeld(args value.Value, path string) string {
	p, err := rulecore.ParsePath(path)
	if err != nil {
		return ""
	}
	segs := p.Segments()
	cur := args
	for i, sg := range segs {
		if sg.Star || sg.Hash || cur.Kind() != value.Object {
			return "" // a wildcard, or a list (or value) in the way: no placeholder
		}
		v, ok := cur.Get(sg.Key)
		if ok {
			cur = v
			continue
		}
		for j := i + 1; j < len(segs); j++ {
			if segs[j].Index >= 0 {
				return segs[j-1].Key
			}
		}
		return ""
	}
	return ""
}

// refLint checks the references of one case.
type refLint struct {
	k        *caseCompiler
	sc       *suite.Case
	mode     suite.CallMatch
	tolerant bool            // the mode allows calls besides the expected ones
	lists    [][]*suite.Call // the expected calls, then each alternative
}

// named reports whether an expected call of the case names tool.
func (rl *refLint) named(tool string) bool {
	for _, l := range rl.lists {
		for _, c := range l {
			if c.Name == tool {
				return true
			}
		}
	}
	return false
}

// before counts the expected calls of list li, and those to tool, that a
// run that passes can have before the call paired with its call i (every
// call, for i < 0: the final text): in `ordered` the calls before it, in
// the other modes without calls besides the expected ones the others.
func (rl *refLint) before(li, i int, tool string) (steps, calls int) {
	for j, c := range rl.lists[li] {
		if i < 0 || j < i || j > i && rl.mode != suite.CallsOrdered {
			steps++
			if c.Name == tool {
				calls++
			}
		}
	}
	return steps, calls
}

// check warns of ref, written at loc in the rules of call i of list li,
// when it cannot resolve.
func (rl *refLint) check(ref *rulecore.Ref, loc suite.Loc, li, i int) {
	msg := rl.reason(ref, li, i, false)
	if msg == "" {
		msg = rl.failedResult(ref, i, false)
	}
	if msg != "" {
		rl.warn(ref, loc, msg)
	}
}

// failedResult says why ref, a reference to a step's result in the rules
// of step i (or in final), cannot resolve in a run that passes because
// each step it can name expects its tool to report an error (`result:
// {error: true}`), whose result gives no value; "" otherwise. Only where
// the mode fixes the steps before a call: steps[I] in ordered, a tool's
// calls in every mode but in_order and superset.
func (rl *refLint) failedResult(ref *rulecore.Ref, i int, final bool) string {
	sr := rl.sc.Run
	if sr == nil || sr.Steps == nil || rl.tolerant || refField(ref) != "result" {
		return ""
	}
	fails := func(j int) bool { return sr.Steps[j].HasError && sr.Steps[j].Error }
	idx, indexed := ref.Index()
	tool := ref.Tool()
	if tool == "" {
		n := i
		if final {
			n = len(sr.Steps)
		}
		k := idx
		if k < 0 {
			k += n
		}
		if rl.mode != suite.CallsOrdered || k < 0 || k >= n || !fails(k) {
			return ""
		}
		return fmt.Sprintf("step %d expects its tool to report an error (result: {error: true}), and a failed tool's result gives no value", k)
	}
	seen := 0
	for j := range sr.Steps {
		if sr.Steps[j].Name != tool || !final && (j == i || j > i && rl.mode == suite.CallsOrdered) {
			continue
		}
		if !fails(j) {
			return ""
		}
		seen++
	}
	if seen == 0 {
		return ""
	}
	which := "the step"
	if seen > 1 || indexed {
		which = "each step"
	}
	return fmt.Sprintf("%s calling %s before it expects its tool to report an error (result: {error: true}), and a failed tool's result gives no value", which, tool)
}

// refField is the step field a reference names: result in
// find_order.result.id.
func refField(ref *rulecore.Ref) string {
	s := ref.String()
	_, rest, _ := strings.Cut(s, ".")
	field, _, _ := strings.Cut(rest, ".")
	return field
}

func (rl *refLint) warn(ref *rulecore.Ref, loc suite.Loc, msg string) {
	rl.k.c.warn(loc, rl.sc.ID, "from: reference "+strconv.Quote(ref.String())+" can never resolve in a run that passes: "+msg)
}

// reason says why ref cannot resolve in the rules of call i of list li
// (li < 0: a never entry, which matches any call; final: the final text),
// "" when it can.
func (rl *refLint) reason(ref *rulecore.Ref, li, i int, final bool) string {
	tool := ref.Tool()
	if tool != "" && !rl.named(tool) {
		if len(rl.k.tools) > 0 && rl.k.tools[tool] == nil {
			return fmt.Sprintf("the case's tools do not define %s, and no expected call names it", tool)
		}
		if !rl.tolerant {
			return fmt.Sprintf("no expected call names %s, and calls: %s allows no other call", tool, rl.mode)
		}
	}
	if rl.tolerant || li < 0 {
		return "" // any call may come before it
	}
	where := " before this one"
	if final {
		where, i = "", -1
	}
	steps, calls := rl.before(li, i, tool)
	idx, indexed := ref.Index()
	if tool == "" {
		if idx >= steps || idx < -steps {
			return fmt.Sprintf("it has at most %s%s (calls: %s)", plural(steps, "step"), where, rl.mode)
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
	if calls < need {
		return fmt.Sprintf("it has at most %s to %s%s (calls: %s)", plural(calls, "call"), tool, where, rl.mode)
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
func (c *compiler) ref(rule value.Value) *rulecore.Ref {
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
	r, err := rulecore.ParseRef(v.Str())
	if err != nil {
		r = nil
	}
	if c.refs == nil {
		c.refs = map[string]*rulecore.Ref{}
	}
	c.refs[v.Str()] = r
	return r
}
