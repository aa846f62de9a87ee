package schema

import "github.com/callgrade/callgrade/value"

// Step is one step of a path into the arguments: an object key, or every
// element of an array.
type Step struct {
	Key   string
	Items bool // every element of an array (a rule path's `#`); Key is ""
}

// Implied is what the schema implies for the comparison at one path (spec
// 1.2): numeric for a number or integer field, a default where the schema
// gives one, and optional for a property its object does not require.
type Implied struct {
	Path       []Step
	Numeric    bool
	Default    value.Value
	HasDefault bool
	Optional   bool
}

// Implications lists what the schema implies at every depth: for each
// property of the parameters object, of the objects below it and of the
// items of arrays. A property defined through $ref or $defs, and one
// written in the nullable idiom that Pydantic and zod emit (anyOf or oneOf
// of a schema and {"type": "null"}), counts as the schema it stands for. A
// recursive schema is followed until it would repeat itself.
func (s *Schema) Implications() []Implied {
	w := implier{onPath: map[*node]bool{}}
	w.object(s.root, nil)
	return w.out
}

type implier struct {
	out    []Implied
	onPath map[*node]bool
}

func (w *implier) object(n *node, path []Step) {
	nodes := standsFor(n, nil)
	for _, m := range nodes {
		if w.onPath[m] {
			return
		}
	}
	for _, m := range nodes {
		w.onPath[m] = true
	}
	defer func() {
		for _, m := range nodes {
			delete(w.onPath, m)
		}
	}()
	required := map[string]bool{}
	for _, m := range nodes {
		for _, r := range m.required {
			required[r] = true
		}
	}
	done := map[string]bool{}
	for _, m := range nodes {
		for _, p := range m.props {
			if done[p.key] {
				continue // the first definition counts, the others constrain
			}
			done[p.key] = true
			sub := append(path[:len(path):len(path)], Step{Key: p.key})
			w.field(p.n, sub, !required[p.key])
		}
	}
	for _, m := range nodes {
		if m.items != nil {
			w.field(m.items, append(path[:len(path):len(path)], Step{Items: true}), false)
			break
		}
	}
}

// field records what n implies at path and goes below it.
func (w *implier) field(n *node, path []Step, optional bool) {
	im := Implied{Path: path, Optional: optional}
	for _, m := range standsFor(n, nil) {
		if m.types&(tNumber|tInteger) != 0 {
			im.Numeric = true
		}
		if m.hasDef && !im.HasDefault {
			im.Default, im.HasDefault = m.def, true
		}
	}
	if im.Numeric || im.HasDefault || im.Optional {
		w.out = append(w.out, im)
	}
	w.object(n, path)
}

// standsFor returns n and the schemas that say what n's instance is: the
// target of its $ref, the only member of an allOf, and the non-null member
// of a nullable anyOf or oneOf; transitively, n first.
func standsFor(n *node, out []*node) []*node {
	for _, m := range out {
		if m == n {
			return out
		}
	}
	out = append(out, n)
	if n.ref != nil {
		out = standsFor(n.ref, out)
	}
	if len(n.allOf) == 1 {
		out = standsFor(n.allOf[0], out)
	}
	for _, list := range [][]*node{n.anyOf, n.oneOf} {
		if m := nonNull(list); m != nil {
			out = standsFor(m, out)
		}
	}
	return out
}

// nonNull returns the one member of list that is not {"type": "null"},
// when all the others are.
func nonNull(list []*node) *node {
	var found *node
	for _, m := range list {
		if m.types == tNull && !m.hasEnum && !m.hasConst && m.ref == nil && len(m.props) == 0 {
			continue
		}
		if found != nil {
			return nil
		}
		found = m
	}
	return found
}
