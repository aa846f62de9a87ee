package suite

import (
	"strconv"

	"github.com/callgrade/callgrade/internal/errcode"
	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

// The keys of an expected step and of a never entry, for the message
// about an unknown one.
const (
	stepKeys  = "name, arguments, rules, assert, result"
	neverKeys = "name, arguments, rules"
)

// runKey decodes the keys of a case that make it an agent's run: steps,
// never, max_calls and final, with final_text, which says which text of
// the run final judges (docs/trajectories.md), and min_calls, which
// says what max_calls says the other way round, of a run or of a single
// response alike.
func (d *dec) runKey(c *Case, key string, v value.Value, loc Loc) {
	if c.Run == nil {
		c.Run = &Run{}
	}
	r := c.Run
	switch key {
	case "steps":
		r.Steps = d.steps(v, loc)
	case "never":
		r.Never = d.never(v, loc)
	case "max_calls":
		kloc := sub(loc, key)
		if v.Kind() != value.Number {
			d.wrongKind(kloc, "a whole number >= 0", v)
			return
		}
		n, err := strconv.Atoi(v.Str())
		if err != nil || n < 0 {
			d.fail(kloc, errcode.InvalidValue, "must be a whole number >= 0, not "+v.Str())
			return
		}
		r.MaxCalls = &n
	case "min_calls":
		kloc := sub(loc, key)
		if v.Kind() != value.Number {
			d.wrongKind(kloc, "a whole number >= 1", v)
			return
		}
		n, err := strconv.Atoi(v.Str())
		if err != nil || n < 1 {
			d.fail(kloc, errcode.InvalidValue, "must be a whole number >= 1, not "+v.Str())
			return
		}
		r.MinCalls = n
	case "final":
		kloc := sub(loc, key)
		if k := v.Kind(); k != value.String && k != value.Object {
			d.wrongKind(kloc, "a rule (a string or an object)", v)
			return
		}
		r.Final, r.FinalLoc = v, kloc
	case "final_text":
		kloc := sub(loc, key)
		switch h := format.FinalReading(v.Str()); {
		case v.Kind() != value.String:
			d.wrongKind(kloc, "joined, answer or bfcl", v)
		case h == format.FinalJoined || h == format.FinalAnswer || h == format.FinalBFCL:
			r.FinalText = h
		default:
			d.fail(kloc, errcode.InvalidValue, "must be joined, answer or bfcl, not "+strconv.Quote(v.Str()))
		}
	}
}

// checkFinalText rejects final_text without final, which it would say
// how to read for nothing.
func (d *dec) checkFinalText(c *Case, x value.Value, loc Loc) {
	if v, ok := x.Get("final_text"); ok && !v.IsNull() && (c.Run == nil || c.Run.Final.Kind() == value.Null) {
		d.fail(sub(loc, "final_text"), errcode.MissingKey, "final_text says which text final judges; the case has no final")
	}
}

// checkBFCLReading rejects final_text: bfcl where a check must see every
// call: that reading, BFCL's, leaves out of the run the calls whose
// arguments do not parse, and so serves a case that judges the final
// answer alone (calls: any and final). Expected calls or steps, never,
// max_calls or min_calls would not see a broken call, and a forbidden or
// one too many would pass.
func (d *dec) checkBFCLReading(c *Case, loc Loc) {
	if c.Run == nil || c.Run.FinalText != format.FinalBFCL {
		return
	}
	floc := sub(loc, "final_text")
	why := "final_text: bfcl leaves out the calls whose arguments do not parse, as BFCL's agentic checker does, so "
	if mode, from := d.modeOf(c); mode != CallsAny {
		if mode == "" {
			mode = CallsOrdered
		}
		d.fail(floc, errcode.ConflictingKeys, why+"it judges the final answer alone and needs calls: any, not "+from+": "+string(mode))
	}
	switch {
	case c.Run.Never != nil:
		d.fail(floc, errcode.ConflictingKeys, why+"never would not see such a call; use final_text: joined or answer")
	case c.Run.MaxCalls != nil:
		d.fail(floc, errcode.ConflictingKeys, why+"max_calls would not count such a call; use final_text: joined or answer")
	case c.Run.MinCalls > 0:
		d.fail(floc, errcode.ConflictingKeys, why+"min_calls would count without such a call; use final_text: joined or answer")
	}
}

// checkRunCase rejects what a run case cannot combine: steps with expected
// or alternatives.
func (d *dec) checkRunCase(c *Case, x value.Value, hasExpected bool, loc Loc) {
	if _, ok := x.Get("steps"); !ok {
		return
	}
	if hasExpected {
		d.fail(sub(loc, "steps"), errcode.ConflictingKeys, "steps and expected are both set; a case gives one")
	}
	if alt, ok := x.Get("alternatives"); ok && !alt.IsNull() {
		d.fail(sub(loc, "alternatives"), errcode.ConflictingKeys, "alternatives cannot be combined with steps")
	}
	if c.Run == nil {
		c.Run = &Run{}
	}
	if c.Run.Steps == nil {
		c.Run.Steps = []Step{} // steps: null is no step expected
	}
}

// steps decodes `steps`: one step or a list of them, each a call with an
// optional `result`.
func (d *dec) steps(x value.Value, parent Loc) []Step {
	var elems []value.Value
	switch x.Kind() {
	case value.Object:
		elems = []value.Value{x}
	case value.Array:
		elems = x.Elems()
	default:
		d.wrongKind(sub(parent, "steps"), "a step or a list of steps", x)
		return []Step{}
	}
	out := make([]Step, len(elems))
	for j, e := range elems {
		loc := parent
		loc.Key = d.keys.index(parent.Key, "steps", j)
		st := &out[j]
		st.Loc = loc
		if e.Kind() != value.Object {
			d.wrongKind(loc, "a step object", e)
			continue
		}
		// The call's own keys go to call, which would call result unknown.
		rest := make([]value.Member, 0, e.Len())
		for _, m := range e.Members() {
			switch m.Key {
			case "result":
				d.result(st, m.Value, loc)
			case "name", "arguments", "rules", "assert":
				rest = append(rest, m)
			default:
				d.unknown(sub(loc, m.Key), stepKeys)
			}
		}
		call, _ := value.ObjectOf(rest...)
		d.call(call, loc, &st.Call)
	}
	return out
}

// result decodes a step's `result`: PATH -> RULE on the tool's result,
// where `error: true|false` is the tool's error flag (a rule is never a
// boolean, so a result field named error takes a rule object).
func (d *dec) result(st *Step, x value.Value, step Loc) {
	switch x.Kind() {
	case value.Null:
		return
	case value.Object:
	default:
		d.wrongKind(sub(step, "result"), "an object of PATH: RULE", x)
		return
	}
	for _, m := range x.Members() {
		loc := step
		loc.Key = d.keys.field2(step.Key, "result", m.Key)
		if m.Key == "error" && m.Value.Kind() == value.Bool {
			st.Error, st.HasError = m.Value.Bool(), true
			continue
		}
		if k := m.Value.Kind(); k != value.String && k != value.Object {
			d.wrongKind(loc, "a rule (a string or an object), or for error true or false", m.Value)
			continue
		}
		st.Result = append(st.Result, PathRule{Path: m.Key, Rule: m.Value, Loc: loc})
	}
}

// never decodes `never`: a list of calls that must not happen, each a tool
// name or {name, arguments, rules}.
func (d *dec) never(x value.Value, parent Loc) []Never {
	var elems []value.Value
	switch x.Kind() {
	case value.String, value.Object:
		elems = []value.Value{x}
	case value.Array:
		elems = x.Elems()
	default:
		d.wrongKind(sub(parent, "never"), "a list of calls (a tool name or {name, arguments, rules})", x)
		return nil
	}
	out := make([]Never, 0, len(elems))
	for j, e := range elems {
		loc := parent
		loc.Key = d.keys.index(parent.Key, "never", j)
		n := Never{Arguments: d.empty, Loc: loc}
		switch e.Kind() {
		case value.String:
			if e.Str() == "" {
				d.wrongKind(loc, "a tool name", e)
				continue
			}
			n.Name = e.Str()
		case value.Object:
			var c Call
			if !d.callObject(e, loc, &c, neverKeys) {
				continue
			}
			n.Name, n.Arguments, n.Rules = c.Name, c.Arguments, c.Rules
		default:
			d.wrongKind(loc, "a tool name or {name, arguments, rules}", e)
			continue
		}
		out = append(out, n)
	}
	return out
}
