package schema

import (
	"strings"

	"github.com/callgrade/callgrade/internal/number"
	"github.com/callgrade/callgrade/internal/rulecore"
	"github.com/callgrade/callgrade/value"
)

// Proof is what Known.Prove proves of arguments.
type Proof uint8

const (
	// Unproven proves nothing: the arguments may differ from the known
	// value, and may be invalid.
	Unproven Proof = iota
	// Valid proves the arguments valid (Validate with Check.NullIsMissing
	// off finds no violation); they may differ from the known value.
	Valid
	// Same proves the arguments the known value up to what the schema
	// implies for a comparison with it, and valid.
	Same
)

// String names the proof, for messages.
func (p Proof) String() string {
	switch p {
	case Valid:
		return "valid"
	case Same:
		return "same"
	}
	return "unproven"
}

// Prove reads x against the known value, and reports Same when x is the
// known value up to what the schema implies for a comparison with it
// (Implications): equal (value.Equal), but for
//   - a number the known value has where x has a string that is that number
//     (white space trimmed), at a field of type number or integer;
//   - a member the known value has and x leaves out, whose property is not
//     required and whose default the known value holds;
//   - a member x has and the known value leaves out, whose property has a
//     default that x holds, valid against the property's schema.
//
// When it reports Same, a comparison of the known value with x under the
// implied rules alone (numeric, default, optional; no rule of the suite's)
// passes every argument, and x is valid: the caller may skip both.
//
// Otherwise it validates, quietly, the parts of x where the two differ
// (the rest is the valid known value, up to implications that keep it
// valid), and reports Valid when they are valid: the caller compares, but
// need not validate. It reports Unproven when a part is invalid, and
// whenever it cannot tell: a schema the library validates, a keyword
// beside $ref, allOf, anyOf or oneOf other than the forms Implications
// reads through at the root, and a required member left out. Below the
// root it validates a whole part where it cannot read through: a
// recursive schema where Implications would repeat itself, an object
// under minProperties or maxProperties, an array under uniqueItems, an
// object or array under enum or const. Nulls are values here: it is not
// for comparisons or validations that count a null member as an omission.
func (k *Known) Prove(x value.Value, passes *rulecore.Passes) Proof {
	if passes != nil {
		passes.Reset()
	}
	if k.root == nil || standIn(k.root) == nil {
		return Unproven
	}
	if value.Equal(k.v, x) {
		return Same
	}
	s := sameWalk{passes: passes}
	same := s.differ(k.root, &k.v, &x)
	if s.v != nil {
		s.c.done(s.v)
	}
	switch {
	case same:
		return Same
	case s.unproven:
		return Unproven
	}
	return Valid
}

// maxSameDepth bounds the objects sameWalk keeps on its path; a deeper
// difference is validated whole.
const maxSameDepth = 16

// sameWalk is one Prove in progress: the schemas of the objects it is in,
// since Implications stops where a schema would repeat itself, and the
// validation of the parts that differ.
type sameWalk struct {
	onPath [maxSameDepth]*node
	depth  int
	// unproven says that a part that differs is invalid, or that
	// the walk cannot tell; nothing is validated after it.
	unproven bool
	c        Check      // the parts' validation: nulls are values, nothing known
	v        *validator // quiet, c's, taken at the first part validated
	passes   *rulecore.Passes
}

// same reports whether a is e up to implications at n: equal values pass
// under rules that only add what they let pass, and are as valid as each
// other. Where they differ, a is validated. Two objects or two lists are
// walked at once, their equal members or elements found on the way, where
// value.Equal first would walk the equal ones twice.
func (s *sameWalk) same(n *node, e, a *value.Value) bool {
	if k := e.Kind(); k == a.Kind() && (k == value.Object || k == value.Array) {
		return s.differ(n, e, a)
	}
	return value.Equal(*e, *a) || s.differ(n, e, a)
}

// differ is same for two values not equal, or two objects or two lists.
func (s *sameWalk) differ(n *node, e, a *value.Value) bool {
	// Reading through n to what it stands for keeps its verdict: n says
	// nothing else, and a non-null instance is valid against a nullable
	// anyOf or oneOf exactly when it is valid against its non-null member.
	sn := standIn(n)
	if sn == nil {
		return s.whole(n, e, a)
	}
	switch e.Kind() {
	case value.Number:
		// The comparison reads a numeric string as its number (numeric),
		// and the validation coerces it to that number first: equal
		// numbers are as valid as each other.
		if a.Kind() == value.String && sn.coerces() {
			t := strings.TrimSpace(a.Str())
			if number.Valid(t) && number.Same(e.Str(), t) {
				s.pass(-1, e, a)
				return true
			}
		}
	case value.Array:
		// Two lists of one length meet the same length bounds: the list
		// is valid when its elements are.
		if a.Kind() == value.Array && a.Len() == e.Len() && sn.items != nil && !sn.uniqueItems && !sn.hasEnum && !sn.hasConst {
			ee, ae := e.Elems(), a.Elems()
			same, mark := true, s.mark()
			for i := range ee {
				if !s.same(sn.items, &ee[i], &ae[i]) {
					if same = false; s.unproven {
						return false
					}
				}
			}
			if same {
				s.pass(mark, e, a)
			}
			return same
		}
	case value.Object:
		if a.Kind() == value.Object && sn.minProps < 0 && sn.maxProps < 0 && !sn.hasEnum && !sn.hasConst && s.enter(sn) {
			mark := s.mark()
			same := s.members(sn, e.Members(), a.Members())
			s.depth--
			if same {
				s.pass(mark, e, a)
			}
			return same
		}
	}
	return s.whole(n, e, a)
}

// whole is differ where the walk does not read n: two objects or two
// lists that are equal are the same (same's caller did not ask), and
// anything else is validated whole.
func (s *sameWalk) whole(n *node, e, a *value.Value) bool {
	if k := e.Kind(); (k == value.Object || k == value.Array) && value.Equal(*e, *a) {
		s.pass(-1, e, a)
		return true
	}
	s.check(n, e, a)
	return false
}

// mark returns what the walk has passed so far, for pass.
func (s *sameWalk) mark() int {
	if s.passes == nil {
		return -1
	}
	return s.passes.Mark()
}

// pass records that a passes against e, for the comparison that follows
// (rulecore.Passes), in place of the pairs inside it passed since mark
// (-1: none).
func (s *sameWalk) pass(mark int, e, a *value.Value) {
	if s.passes == nil {
		return
	}
	if mark >= 0 {
		s.passes.Cut(mark)
	}
	s.passes.Add(a, e)
}

// enter puts n on the path of objects, unless it is there already
// (Implications implies nothing below there) or the path is full.
func (s *sameWalk) enter(n *node) bool {
	for i := range s.depth {
		if s.onPath[i] == n {
			return false
		}
	}
	if s.depth == maxSameDepth {
		return false
	}
	s.onPath[s.depth] = n
	s.depth++
	return true
}

// members compares two objects' members, both in key order, under n. An
// object is valid when its members are and it holds every property n
// requires: n bounds no count, and names no property whose presence
// requires another.
func (s *sameWalk) members(n *node, em, am []value.Member) bool {
	same := true
	i, j := 0, 0
	for (i < len(em) || j < len(am)) && (same || !s.unproven) {
		// == first: it looks at the lengths before the bytes, and the
		// keys usually agree.
		c := 0
		switch {
		case j == len(am):
			c = -1
		case i == len(em):
			c = 1
		case em[i].Key == am[j].Key:
		case em[i].Key < am[j].Key:
			c = -1
		default:
			c = 1
		}
		switch c {
		case -1:
			// Left out by x: the comparison gives it the default, and an
			// object need not hold a property it does not require.
			p := n.prop(em[i].Key)
			if required := slicesContains(n.required, em[i].Key); required || p == nil || p.defOf == nil || !value.Equal(em[i].Value, *p.defOf) {
				same = false
				s.unproven = s.unproven || required
			}
			i++
		case 1:
			// Given by x alone: the comparison gives the known value the
			// default, and the default is valid.
			p := n.prop(am[j].Key)
			if p == nil || p.defOf == nil || !p.defValid || !value.Equal(am[j].Value, *p.defOf) {
				same = false
				s.member(n, p, nil, &am[j].Value)
			}
			j++
		default:
			// The schema is looked up only for a member that is not
			// equal. additionalProperties implies nothing, so a member it
			// rules is not the same when it differs.
			if e, a := &em[i].Value, &am[j].Value; !equalScalars(e, a) {
				if p := n.prop(em[i].Key); p != nil {
					same = s.differ(p, e, a) && same
				} else if !value.Equal(*e, *a) {
					same = false
					s.member(n, nil, e, a)
				}
			}
			i++
			j++
		}
	}
	return same
}

// equalScalars reports whether e and a are equal and not two objects or
// two lists, which the walk compares member by member: the strings most
// arguments are without a call.
func equalScalars(e, a *value.Value) bool {
	switch k := e.Kind(); {
	case k != a.Kind():
		return false
	case k == value.String:
		return e.Str() == a.Str()
	case k == value.Object, k == value.Array:
		return false
	}
	return value.Equal(*e, *a)
}

// member validates a, the value of a member of an object under n whose
// property is p (nil: none), and e the known value's (nil: none).
func (s *sameWalk) member(n, p *node, e, a *value.Value) {
	switch {
	case p != nil:
		s.check(p, e, a)
	case n.noExtra:
		s.unproven = true
	case n.additional != nil:
		s.check(n.additional, e, a)
	}
}

// check validates a, a part of x that differs from e, the known value's at
// the same place (nil when it has none), against n.
func (s *sameWalk) check(n *node, e, a *value.Value) {
	if s.unproven {
		return
	}
	if s.v == nil {
		s.v = s.c.validator(nil, 1)
	}
	if !s.v.validate(n, *a, a, e, nil) {
		s.unproven = true
	}
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
