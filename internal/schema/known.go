package schema

import "github.com/callgrade/callgrade/value"

// Known is a value known to be valid against a schema (an expected call's
// arguments, validated when the suite compiled), made ready for the
// validations that know it (Check.Known): for each object in it that a
// validation meets alongside an object of the arguments, the schema of
// each of its members is found once, here, where each validation would
// look it up by key among the schema's properties.
type Known struct {
	v    value.Value
	plan *plan
	root *node // the schema's, when this package validates it (Prove)
}

// plan is what Known holds for one value of it, validated against one
// schema node: for an object, each member's schema and the members the
// node requires; for an array, each element's plan.
type plan struct {
	subs  []*node // the schema of each member; nil: none
	extra []bool  // the member is one additionalProperties: false rejects
	kids  []*plan // each member's or element's plan; nil: none
	// req has bit k for member k that the node requires. An object plan
	// exists only when every required property is a member, within the
	// first 64.
	req uint64
}

// maxPlanned is the most members an object can have for its plan to be
// used; a longer one is validated by merging keys.
const maxPlanned = 64

// Known returns v made ready to be the known valid value of validations
// (Check.Known). v must be valid against s; the validations that use the
// result are as if Check.Valid were &v.
func (s *Schema) Known(v value.Value) *Known {
	k := &Known{v: v}
	if s.fast {
		k.plan = makePlan(s.root, v)
		k.root = s.root
	}
	return k
}

// Value returns the known value.
func (k *Known) Value() *value.Value { return &k.v }

func makePlan(n *node, v value.Value) *plan {
	switch v.Kind() {
	case value.Object:
		ms := v.Members()
		if len(ms) > maxPlanned {
			return nil
		}
		p := &plan{subs: make([]*node, len(ms)), extra: make([]bool, len(ms)), kids: make([]*plan, len(ms))}
		for k := range ms {
			sub := n.prop(ms[k].Key)
			if sub == nil {
				if n.noExtra {
					p.extra[k] = true
					continue
				}
				sub = n.additional
			}
			p.subs[k] = sub
			if sub != nil {
				p.kids[k] = makePlan(sub, ms[k].Value)
			}
		}
		for _, r := range n.sortedRequired {
			k := memberIndex(ms, r)
			if k < 0 {
				return nil
			}
			p.req |= 1 << k
		}
		return p
	case value.Array:
		if n.items == nil {
			return nil
		}
		es := v.Elems()
		p := &plan{kids: make([]*plan, len(es))}
		some := false
		for i := range es {
			p.kids[i] = makePlan(n.items, es[i])
			some = some || p.kids[i] != nil
		}
		if !some {
			return nil
		}
		return p
	}
	return nil
}

func memberIndex(ms []value.Member, key string) int {
	for k := range ms {
		if ms[k].Key == key {
			return k
		}
	}
	return -1
}

// kid returns the plan of member or element i, nil when p is.
func (p *plan) kid(i int) *plan {
	if p == nil || i >= len(p.kids) {
		return nil
	}
	return p.kids[i]
}
