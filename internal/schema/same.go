package schema

import (
	"strings"

	"github.com/callgrade/callgrade/value"
)

// Same reports whether x is the known value up to what the schema implies
// for a comparison with it (Implications): equal (value.Equal), but for
//   - a number the known value has where x has a string that is that number
//     (white space trimmed), at a field of type number or integer;
//   - a member the known value has and x leaves out, whose property is not
//     required and whose default the known value holds;
//   - a member x has and the known value leaves out, whose property has a
//     default that x holds, valid against the property's schema.
//
// When it reports true, a comparison of the known value with x under the
// implied rules alone (numeric, default, optional; no rule of the suite's)
// passes every argument, and x is valid: the caller may skip both. It
// reports false whenever it cannot tell, which says nothing: a schema the
// library validates, a keyword beside $ref, allOf, anyOf or oneOf other
// than the forms Implications reads through, a recursive schema where it
// would repeat itself, minProperties, maxProperties or uniqueItems where x
// differs, and every other difference. Nulls are values here: it is not
// for comparisons that count a null member as an omission.
func (k *Known) Same(x value.Value) bool {
	if k.root == nil {
		return false
	}
	if value.Equal(k.v, x) {
		return true
	}
	var s sameWalk
	return s.differ(k.root, &k.v, &x)
}

// maxSameDepth bounds the objects sameWalk keeps on its path; a deeper
// difference is left to the comparison.
const maxSameDepth = 16

// sameWalk is one Same in progress: the schemas of the objects it is in,
// since Implications stops where a schema would repeat itself.
type sameWalk struct {
	onPath [maxSameDepth]*node
	depth  int
}

// same reports Same of e and a at n: equal values pass under rules that
// only add what they let pass, and are as valid as each other.
func (s *sameWalk) same(n *node, e, a *value.Value) bool {
	return value.Equal(*e, *a) || s.differ(n, e, a)
}

// differ is same for two values not equal.
func (s *sameWalk) differ(n *node, e, a *value.Value) bool {
	if n = standIn(n); n == nil {
		return false
	}
	switch e.Kind() {
	case value.Number:
		// The comparison reads a numeric string as its number (numeric),
		// and the validation coerces it to that number first: equal
		// numbers are as valid as each other.
		if a.Kind() != value.String || n.types&(tNumber|tInteger) == 0 {
			return false
		}
		t := strings.TrimSpace(a.Str())
		return value.IsNumber(t) && value.SameNumber(e.Str(), t)
	case value.Array:
		if a.Kind() != value.Array || a.Len() != e.Len() || n.items == nil || n.uniqueItems {
			return false
		}
		ee, ae := e.Elems(), a.Elems()
		for i := range ee {
			if !s.same(n.items, &ee[i], &ae[i]) {
				return false
			}
		}
		return true
	case value.Object:
		if a.Kind() != value.Object || n.minProps >= 0 || n.maxProps >= 0 {
			return false
		}
		for i := range s.depth {
			if s.onPath[i] == n {
				return false // Implications implies nothing below here
			}
		}
		if s.depth == maxSameDepth {
			return false
		}
		s.onPath[s.depth] = n
		s.depth++
		ok := s.members(n, e.Members(), a.Members())
		s.depth--
		return ok
	}
	return false
}

// members compares two objects' members, both in key order, under n.
func (s *sameWalk) members(n *node, em, am []value.Member) bool {
	i, j := 0, 0
	for i < len(em) || j < len(am) {
		switch {
		case j == len(am) || i < len(em) && em[i].Key < am[j].Key:
			// Left out by x: the comparison gives it the default, and an
			// object need not hold a property it does not require.
			p := n.prop(em[i].Key)
			if p == nil || p.defOf == nil || slicesContains(n.required, em[i].Key) || !value.Equal(em[i].Value, *p.defOf) {
				return false
			}
			i++
		case i == len(em) || em[i].Key > am[j].Key:
			// Given by x alone: the comparison gives the known value the
			// default, and the default is valid.
			p := n.prop(am[j].Key)
			if p == nil || p.defOf == nil || !p.defValid || !value.Equal(am[j].Value, *p.defOf) {
				return false
			}
			j++
		default:
			// Most members are equal: the schema is looked up only for
			// one that is not (additionalProperties implies nothing,
			// so there nil says that it is not the same).
			if !value.Equal(em[i].Value, am[j].Value) && !s.differ(n.prop(em[i].Key), &em[i].Value, &am[j].Value) {
				return false
			}
			i++
			j++
		}
	}
	return true
}

// standIn returns the schema that says what n's instance is when n says
// nothing else: n itself, or through n's only $ref, the only member of
// its allOf, or the non-null member of its nullable anyOf or oneOf, as
// Implications reads them; nil for any other node, and for nil.
func standIn(n *node) *node {
	for range 8 { // a chain of aliases; a longer one is left to the comparison
		switch {
		case n == nil || n.never:
			return nil
		case n.ref == nil && len(n.allOf) == 0 && len(n.anyOf) == 0 && len(n.oneOf) == 0:
			return n
		case !n.onlyCombinator():
			return nil
		case n.ref != nil:
			n = n.ref
		case len(n.allOf) == 1:
			n = n.allOf[0]
		case len(n.anyOf) > 0 && len(n.oneOf) == 0:
			n = nonNull(n.anyOf)
		case len(n.oneOf) > 0 && len(n.anyOf) == 0:
			n = nonNull(n.oneOf)
		default:
			return nil
		}
	}
	return nil
}

// onlyCombinator reports whether n has exactly one of $ref, allOf, anyOf
// and oneOf, and no keyword that would constrain its instance beside it.
func (n *node) onlyCombinator() bool {
	k := 0
	for _, has := range [...]bool{n.ref != nil, len(n.allOf) > 0, len(n.anyOf) > 0, len(n.oneOf) > 0} {
		if has {
			k++
		}
	}
	return k == 1 && n.types == 0 && !n.hasEnum && !n.hasConst &&
		n.minimum == "" && n.maximum == "" && n.exclMin == "" && n.exclMax == "" && n.multipleOf == "" &&
		n.minLength < 0 && n.maxLength < 0 && n.pattern == nil &&
		n.minItems < 0 && n.maxItems < 0 && !n.uniqueItems && n.items == nil &&
		len(n.props) == 0 && len(n.required) == 0 && n.additional == nil && !n.noExtra && n.minProps < 0 && n.maxProps < 0
}

func slicesContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
