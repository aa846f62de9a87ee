package suite

import (
	"strings"

	"github.com/callgrade/callgrade/value"
)

// The keys of an expected call, for the message about an unknown one.
const callKeys = "name, arguments, rules, assert"

// callList decodes `expected` or one alternative: a call object, or a list
// of them. parent is the Loc of what holds it, name its key ("" for an
// element of alternatives, whose index is already in parent). A call is
// addressed by its index even when written alone: cases[3].expected[0].
func (d *dec) callList(x value.Value, parent Loc, name string) []Call {
	switch x.Kind() {
	case value.Object: // one call, addressed as the first of a list
		calls := d.newCalls(1)
		loc := parent
		loc.Key = d.keys.index(parent.Key, name, 0)
		d.call(x, loc, &calls[0])
		return calls
	case value.Array:
		if x.Len() == 0 {
			return []Call{}
		}
		calls := d.newCalls(x.Len())
		for j, e := range x.Elems() {
			loc := parent
			loc.Key = d.keys.index(parent.Key, name, j)
			calls[j].Loc = loc
			if e.Kind() != value.Object {
				d.wrongKind(loc, "a call object", e)
				continue
			}
			d.call(e, loc, &calls[j])
		}
		return calls
	}
	d.wrongKind(sub(parent, name), "a call or a list of calls", x)
	return nil
}

func (d *dec) alternatives(x value.Value, parent Loc) [][]Call {
	if x.Kind() != value.Array {
		d.wrongKind(sub(parent, "alternatives"), "a list of alternatives, each a call or a list of calls", x)
		return nil
	}
	out := make([][]Call, x.Len())
	for j, e := range x.Elems() {
		loc := parent
		loc.Key = d.keys.index(parent.Key, "alternatives", j)
		out[j] = d.callList(e, loc, "")
	}
	return out
}

func (d *dec) call(x value.Value, loc Loc, c *Call) { d.callObject(x, loc, c, callKeys) }

// callObject decodes call object x into c, taking the keys that known
// lists (a never entry takes no assert); it reports whether x has a name.
func (d *dec) callObject(x value.Value, loc Loc, c *Call, known string) bool {
	c.Loc = loc
	c.Arguments = d.empty
	hasName := false
	for _, m := range x.Members() {
		v := m.Value
		switch m.Key {
		case "name":
			hasName = true
			if v.Kind() != value.String || v.Str() == "" {
				d.wrongKind(sub(loc, "name"), "a tool name", v)
				continue
			}
			c.Name = v.Str()
		case "arguments":
			switch v.Kind() {
			case value.Object:
				c.Arguments = v
			case value.Null: // no arguments
			default:
				d.wrongKind(sub(loc, "arguments"), "an object", v)
			}
		case "rules":
			c.Rules = d.callRules(v, loc)
		case "assert":
			if known != callKeys {
				d.unknown(sub(loc, m.Key), known)
				continue
			}
			c.Assert = d.asserts(v, loc)
		default:
			d.unknown(sub(loc, m.Key), known)
		}
	}
	if !hasName {
		d.missing(loc, "name")
	}
	return hasName
}

func (d *dec) asserts(x value.Value, call Loc) []Assert {
	var elems []value.Value
	switch x.Kind() {
	case value.Null:
		return nil
	case value.String:
		elems = []value.Value{x}
	case value.Array:
		elems = x.Elems()
	default:
		d.wrongKind(sub(call, "assert"), "a list of expressions", x)
		return nil
	}
	out := make([]Assert, 0, len(elems))
	for j, e := range elems {
		loc := call
		loc.Key = d.keys.index(call.Key, "assert", j)
		if e.Kind() != value.String || strings.TrimSpace(e.Str()) == "" {
			d.wrongKind(loc, "a non-empty expression string", e)
			continue
		}
		out = append(out, Assert{Expr: e.Str(), Loc: loc})
	}
	return out
}
