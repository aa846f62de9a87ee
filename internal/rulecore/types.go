package rulecore

import (
	"strings"
	"sync/atomic"

	"github.com/callgrade/callgrade/internal/words"
	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/value"
)

// typeSet is the set of JSON types a `type` property allows, one bit each.
type typeSet uint16

const (
	typeString typeSet = 1 << iota
	typeInteger
	typeFloat
	typeBoolean
	typeArray
	typeObject
	typeNull

	typeNumber = typeInteger | typeFloat
)

// typeNames are the names of the `type` property, in the order errors list them.
var typeNames = []struct {
	name string
	set  typeSet
}{
	{"string", typeString}, {"number", typeNumber}, {"integer", typeInteger}, {"float", typeFloat},
	{"boolean", typeBoolean}, {"array", typeArray}, {"object", typeObject}, {"null", typeNull},
}

const typeNameList = "string, number, integer, float, boolean, array, object, null"

// typedRules says whether any rule with a `type` property was ever
// compiled: until then, CompareChecked costs nothing over Compare.
var typedRules atomic.Bool

// typeProp reads `type`: one type name or a non-empty list of them.
func typeProp(v value.Value) (typeSet, error) {
	var list []value.Value
	switch v.Kind() {
	case value.String:
		list = []value.Value{v}
	case value.Array:
		list = v.Elems()
	}
	if len(list) == 0 {
		return 0, errorf("type", "want a type name or a non-empty list of them ("+typeNameList+"), got "+describeKind(v))
	}
	var set typeSet
	for _, e := range list {
		t := typeSet(0)
		if e.Kind() == value.String {
			for _, n := range typeNames {
				if n.name == e.Str() {
					t = n.set
				}
			}
		}
		if t == 0 {
			return 0, errorf("type", "unknown type "+describeKind(e)+"; the types are "+typeNameList)
		}
		set |= t
	}
	typedRules.Store(true)
	return set, nil
}

// typeOf returns the type bit of a value: a number is an integer when its
// literal has neither a fraction nor an exponent (5, not 5.0 or 5e0), the
// way JSON decoders that tell integers from floats read it.
func typeOf(v value.Value) typeSet {
	switch v.Kind() {
	case value.String:
		return typeString
	case value.Number:
		// A loop rather than strings.ContainsAny, which builds a set of
		// the three bytes at every call: this runs for every typed
		// argument.
		for _, c := range []byte(v.Str()) {
			if c == '.' || c == 'e' || c == 'E' {
				return typeFloat
			}
		}
		return typeInteger
	case value.Bool:
		return typeBoolean
	case value.Array:
		return typeArray
	case value.Object:
		return typeObject
	}
	return typeNull
}

func (t typeSet) String() string {
	// One name, as an actual value's type always is: no list to build
	// for every value of the wrong type.
	for _, n := range typeNames {
		if t == n.set {
			return n.name
		}
	}
	return t.list()
}

// list names the types of t, "number" standing for integer and float
// together.
func (t typeSet) list() string {
	var parts []string
	for _, n := range typeNames {
		if t&n.set == n.set && (n.set != typeInteger && n.set != typeFloat || t&typeNumber != typeNumber) {
			parts = append(parts, n.name)
		}
	}
	return strings.Join(parts, " or ")
}

// CompareChecked is Compare followed by the checks that look at the actual
// value alone: every value of actual whose rule has a `type` property must
// be of one of those types, wherever the comparison went or stopped (inside
// one_of, unordered and the other leaf rules too). A value of another type
// is a Mismatch at its path, reported after the comparison's diffs, and its
// top-level argument counts as not matched in the Result.
func (s *Set) CompareChecked(expected, actual value.Value, c *Context, report func(Diff)) Result {
	return s.compareChecked(expected, actual, c, report, nil)
}

// CompareCheckedRecording is CompareChecked, and records in eq (after
// resetting it) what value.Equal found of the pairs of expected and actual
// values the comparison compared whole, for a later walk of the same
// arguments to look up (Equalities.Equal).
func (s *Set) CompareCheckedRecording(expected, actual value.Value, c *Context, report func(Diff), eq *Equalities) Result {
	return s.compareChecked(expected, actual, c, report, eq)
}

// Accepts reports whether CompareChecked would find every argument
// matched (Result.Matched == Result.Total), and stops at the first that is
// not: for a caller that needs the verdict of a pair, not its score. eq,
// when not nil, records as in CompareCheckedRecording; when Accepts
// returns false, it may hold less than that would.
func (s *Set) Accepts(expected, actual value.Value, c *Context, eq *Equalities) bool {
	root := s.compiled()
	if !s.accepts(root, expected, actual, c, eq) {
		return false
	}
	if !typedRules.Load() || !root.typed {
		return true
	}
	if !typeOK(root, actual) {
		// Where no argument is counted, compareChecked still passes the
		// pair: count as it does.
		res := s.compareChecked(expected, actual, c, nil, eq)
		return res.Matched == res.Total
	}
	if actual.Kind() != value.Object {
		return true
	}
	return membersOK(root, actual.Members(), c != nil && c.NullIsMissing)
}

func (s *Set) compareChecked(expected, actual value.Value, c *Context, report func(Diff), eq *Equalities) Result {
	return s.compareCheckedWalk(expected, actual, c, report, eq, false)
}

// compareCheckedWalk is compareChecked; separate turns off the types'
// verdicts found by the comparison (walker.typed), for the tests that
// hold them to the type walk of its own.
func (s *Set) compareCheckedWalk(expected, actual value.Value, c *Context, report func(Diff), eq *Equalities, separate bool) Result {
	root := s.compiled()
	if !typedRules.Load() || !root.typed {
		res, _ := s.compare(expected, actual, c, report, eq)
		return res
	}
	// The comparison checks the top-level arguments' types as it meets
	// them, where it has found their states; the arguments it found
	// wrong are walked again here to report them, after its diffs.
	res, failed, tv := s.walkTyped(expected, actual, c, report, eq, !separate, false)
	nullIsMissing := c != nil && c.NullIsMissing
	if !typeOK(root, actual) {
		// A rule on the arguments object itself: no argument matches.
		t := typeWalk{report: report, words: c.words()}
		t.check(root, actual)
		res.Matched = 0
		return res
	}
	if actual.Kind() == value.Object && root != nil {
		next := 0
		ms := actual.Members()
		for j := range ms {
			var good bool
			switch {
			case tv.checked:
				good = !tv.bad.has(j)
			case separate:
				// The type walk of its own, which the tests hold the
				// verdicts and typesOK to.
				good = (&typeWalk{nullIsMissing: nullIsMissing}).arg(root, &ms[j], &next)
			default:
				good = nullIsMissing && ms[j].Value.IsNull() || typesOK(root.keyNext(ms[j].Key, &next), ms[j].Value, nullIsMissing)
			}
			if good {
				continue
			}
			if report != nil {
				reportTypes(root, &ms[j], report, nullIsMissing, c.words())
			}
			if failed.has(j) {
				continue
			}
			if expected.Kind() == value.Object && expected.Has(ms[j].Key) {
				res.Matched--
			} else {
				res.Total++
			}
		}
	}
	return res
}

// typeVerdicts is what a comparison found of the types of the top-level
// actual arguments (walker.typed): checked says it looked at every one,
// and bad holds those of the wrong type.
type typeVerdicts struct {
	checked bool
	bad     failedSet
}

// reportTypes reports the values of the wrong type in m, an argument of
// the actual call: a walk with a path, which the verdicts do without. Its
// messages are written in ws (see Context.Words).
func reportTypes(root *state, m *value.Member, report func(Diff), nullIsMissing bool, ws *words.Arena) {
	var t typeWalk // field by field, as the walker is set up in walk
	t.report, t.nullIsMissing, t.words = report, nullIsMissing, ws
	next := 0
	t.arg(root, m, &next)
}

// typesOK is typeWalk.walk's verdict, without a report or a path, from
// the first value of the wrong type on.
func typesOK(st *state, v value.Value, nullIsMissing bool) bool {
	if st == nil {
		return true
	}
	if !typeOK(st, v) {
		return false
	}
	switch v.Kind() {
	case value.Object:
		return membersOK(st, v.Members(), nullIsMissing)
	case value.Array:
		for i, e := range v.Elems() {
			if !typesOK(st.index(i), e, nullIsMissing) {
				return false
			}
		}
	}
	return true
}

// membersOK is typesOK of the members ms of an object that st's rule
// allows.
func membersOK(st *state, ms []value.Member, nullIsMissing bool) bool {
	next := 0
	for j := range ms {
		if nullIsMissing && ms[j].Value.IsNull() {
			continue
		}
		if !typesOK(st.keyNext(ms[j].Key, &next), ms[j].Value, nullIsMissing) {
			return false
		}
	}
	return true
}

// typeOK reports whether v is of a type st's rule allows, if it says.
func typeOK(st *state, v value.Value) bool {
	if st == nil || st.rule == nil || st.rule.types == 0 || st.rule.ignore {
		return true
	}
	return st.rule.types&typeOf(v) != 0
}

// arg checks the types of m, a member of an object whose state is st (an
// argument, when st is the root), looking its key up from *next (see
// state.keyNext). A member that counts as absent (null, with
// null_is_missing) passes.
func (t *typeWalk) arg(st *state, m *value.Member, next *int) bool {
	if t.nullIsMissing && m.Value.IsNull() {
		return true
	}
	t.push(m.Key, -1)
	good := t.walk(st.keyNext(m.Key, next), m.Value)
	t.pop()
	return good
}

// typed reports whether a rule at or below n has a `type` property.
func (n *node) typed() bool { return n.anyRule(func(r *Rule) bool { return r.types != 0 }) }

// typeWalk checks the `type` properties along the actual arguments.
type typeWalk struct {
	report        func(Diff)
	words         *words.Arena // where its messages go (Context.Words)
	nullIsMissing bool
	pathStack     // unescaped keys and array indices
}

// walk checks v at the state st and below; it reports whether all is well.
func (t *typeWalk) walk(st *state, v value.Value) bool {
	if st == nil {
		return true
	}
	if !t.check(st, v) {
		return false // the value is of the wrong type: nothing below it is
	}
	ok := true
	switch v.Kind() {
	case value.Object:
		next := 0
		ms := v.Members()
		for j := range ms {
			ok = t.arg(st, &ms[j], &next) && ok
		}
	case value.Array:
		for i, e := range v.Elems() {
			t.push("", i)
			ok = t.walk(st.index(i), e) && ok
			t.pop()
		}
	}
	return ok
}

// check checks v against the type property of st's rule, if any.
func (t *typeWalk) check(st *state, v value.Value) bool {
	if typeOK(st, v) {
		return true
	}
	if t.report != nil {
		r, got := st.rule, typeOf(v)
		var rm room
		t.report(Diff{Kind: results.Mismatch, Path: t.pathString(t.words), Actual: v, HasActual: true, Rule: r.String(),
			Message: rm.message("expected a value of type ").s(r.types.String()).s(", got ").show(v).s(" (").s(got.String()).s(")").rule(r.String()).done(t.words)})
	}
	return false
}
