package schema

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/callgrade/callgrade/internal/jsonv"
	"github.com/callgrade/callgrade/internal/number"
	"github.com/callgrade/callgrade/internal/rulecore"
	"github.com/callgrade/callgrade/internal/words"
	"github.com/callgrade/callgrade/value"
)

// Violation is one way the arguments break the schema.
type Violation struct {
	// Path is where in the arguments: object keys, and array indices in
	// decimal; empty for the arguments object itself.
	Path []string
	// Message is the library's wording: "got string, want number",
	// "missing property 'city'", "maximum: got 120, want 100".
	Message string
	// Missing, for a violation of required, names the properties the
	// object at Path lacks, as the message lists them.
	Missing []string
}

// printer formats messages as the library's ErrorKinds do.
var printer = message.NewPrinter(language.English)

// Check is how one validation is made.
type Check struct {
	// NullIsMissing makes an object member set to null count as absent,
	// at any depth, so that a null optional argument is no violation and a
	// null required one is a missing one.
	NullIsMissing bool
	// Valid, when not nil, is a value known to be valid (an expected
	// call's arguments, validated when the suite compiled): where the
	// arguments hold a value equal to Valid's at the same place (a scalar,
	// or a whole object or array), it is not checked again, since validity
	// depends on the value alone. Inside anyOf and oneOf everything is
	// checked: there, a member that a valid value need not match is tried
	// too.
	Valid *value.Value
	// Equal, when not nil, holds what a comparison of the arguments
	// with Valid found equal or not (rulecore.Set.CompareCheckedRecording),
	// so that the values it compared are not compared again.
	Equal *rulecore.Equalities
	// Known, when not nil, is Valid made ready (Schema.Known), and
	// takes its place.
	Known *Known
	// Scratch, when not nil, is the memory the validation works in, kept
	// by a caller that validates one set of arguments after another;
	// nil takes it from a pool. With a Scratch, the violations Validate
	// returns (when dst is nil) and their paths are in its memory too, and
	// valid only until its next validation.
	Scratch *Scratch
	// Words, when not nil, holds the violations' messages, valid until
	// its Reset (see package words); nil gives each a string of its own.
	Words *words.Arena
}

// Scratch is the memory of a validation (see Check.Scratch). The zero
// Scratch is ready to use; it must not serve two validations at once.
type Scratch struct {
	v   validator
	out []Violation // Validate's result when dst is nil
}

// validator returns the validator c's validation works in, set up for it.
func (c *Check) validator(out []Violation, quiet int) *validator {
	var v *validator
	if c.Scratch != nil {
		v = &c.Scratch.v
	} else {
		v = validators.Get().(*validator)
	}
	*v = validator{nullIsMissing: c.NullIsMissing, out: out, path: v.path[:0], quiet: quiet, eq: c.Equal, paths: v.paths[:0], words: c.Words}
	return v
}

// done gives back the validator that validator returned.
func (c *Check) done(v *validator) {
	v.out, v.eq, v.words = nil, nil, nil // not to keep the caller's violations, equalities and words
	if c.Scratch == nil {
		validators.Put(v)
	}
}

// Validate appends to dst each violation of args and returns the result;
// nothing is appended when args are valid, and then nothing is allocated.
//
// The schema sees the arguments after the coercions it implies (spec 1.2):
// a string that is a JSON number literal (white space trimmed) is that
// number where the schema's type is number or integer; an integer is a
// number whose value is whole, whatever its spelling (5.0, 5e0).
func (s *Schema) Validate(dst []Violation, args value.Value, c Check) []Violation {
	if !s.fast {
		return s.validateLib(dst, args, c.NullIsMissing)
	}
	if s.flat.ok && s.flat.valid(args, c.NullIsMissing) {
		return dst
	}
	scratchOut := dst == nil && c.Scratch != nil
	if scratchOut {
		dst = c.Scratch.out[:0]
	}
	v := c.validator(dst, 0)
	// Violations in the Scratch's memory are read before its next
	// validation: their paths can be carved from one buffer of it too.
	// A caller's dst keeps them longer, so they get paths of their own.
	v.carve = scratchOut
	if !s.flat.ok || !s.flat.words(v, args) {
		v.differs = s.flat.ok
		known, pl := c.known()
		v.validate(s.root, args, nil, known, pl)
	}
	out := v.out
	c.done(v)
	if scratchOut {
		if len(out) == 0 {
			return nil // as without a Scratch
		}
		c.Scratch.out = out[:0]
	}
	return out
}

// Valid reports whether args are valid, as Validate would find them,
// without wording any violation: for comparing many candidate pairings,
// of which only the chosen ones are reported.
func (s *Schema) Valid(args value.Value, c Check) bool {
	if !s.fast {
		return len(s.validateLib(nil, args, c.NullIsMissing)) == 0
	}
	if s.flat.ok && s.flat.valid(args, c.NullIsMissing) {
		return true
	}
	v := c.validator(nil, 1)
	if !s.flat.ok || !s.flat.words(v, args) {
		v.differs = s.flat.ok
		known, pl := c.known()
		v.validate(s.root, args, nil, known, pl)
	}
	ok := v.failures == 0
	c.done(v)
	return ok
}

// known returns the known valid value and its plan.
func (c *Check) known() (*value.Value, *plan) {
	if c.Known != nil {
		return &c.Known.v, c.Known.plan
	}
	return c.Valid, nil
}

// validators keeps validators, with their path stacks, between calls.
var validators = sync.Pool{New: func() any { return new(validator) }}

// step is one step of the path being validated; its text is built only
// for a violation.
type step struct {
	key string
	idx int // >= 0: an array index
}

type validator struct {
	nullIsMissing bool
	out           []Violation
	path          []step

	// failures counts the violations found, reported or not; while quiet
	// is above zero they are only counted: a branch of anyOf or oneOf is
	// first tried quietly, and worded only when the whole keyword fails,
	// so that a valid instance costs no message it would throw away.
	failures int
	quiet    int
	// trial is above zero inside anyOf and oneOf, where a known valid
	// value proves nothing (see Check.Valid).
	trial int
	// differs says that the value the next validate checks is not to be
	// compared with the known one first: arguments the flat walk did
	// not find valid are not a valid value's equal, but where a numeric
	// string stands for a number, and then the walk finds them valid all
	// the same.
	differs bool
	eq      *rulecore.Equalities // see Check.Equal
	// carve says the violations' paths are carved from paths, the
	// Scratch's, rather than allocated one by one.
	carve bool
	paths []string
	words *words.Arena // see Check.Words
}

// failing counts a violation and reports whether to word it.
func (v *validator) failing() bool {
	v.failures++
	return v.quiet == 0
}

func (v *validator) fail(msg string) {
	var p []string
	if v.carve {
		start := len(v.paths)
		v.paths = append(v.paths, make([]string, len(v.path))...)
		p = v.paths[start:len(v.paths):len(v.paths)]
	} else {
		p = make([]string, len(v.path))
	}
	for i, s := range v.path {
		if s.idx >= 0 {
			p[i] = strconv.Itoa(s.idx)
		} else {
			p[i] = s.key
		}
	}
	v.out = append(v.out, Violation{Path: p, Message: msg})
}

// jsonType is the library's name of an instance's type; a number is a
// "number" whatever its value.
func jsonType(x value.Value) (types, string) {
	switch x.Kind() {
	case value.Null:
		return tNull, "null"
	case value.Bool:
		return tBoolean, "boolean"
	case value.Number:
		return tNumber, "number"
	case value.String:
		return tString, "string"
	case value.Array:
		return tArray, "array"
	}
	return tObject, "object"
}

// coerces reports whether n reads a numeric string as its number: its
// type is number or integer, and not also string, which the string is
// valid as, to be held to maxLength, pattern and enum as written.
func (n *node) coerces() bool { return coerces(n.types) }

// coerces is node.coerces of a node of the types ts.
func coerces(ts types) bool { return ts&(tNumber|tInteger) != 0 && ts&tString == 0 }

// coerce returns the number a numeric string stands for where n coerces.
func coerce(n *node, x value.Value) value.Value {
	if x.Kind() != value.String || !n.coerces() {
		return x
	}
	if num, err := value.NumberOf(strings.TrimSpace(x.Str())); err == nil {
		return num
	}
	return x
}

// validate checks x against n, in the library's order of keywords:
// type, const and enum (each ending the check at this node when it fails),
// $ref, the keywords of x's type, then allOf, anyOf and oneOf. It reports
// whether x is valid. known, when not nil, is the known valid value at
// the same place (see Check.Valid). xp, when not nil, is where x is in
// the arguments, for looking up what the comparison found (Check.Equal);
// pl, when not nil, is known's plan for n (see Known).
func (v *validator) validate(n *node, x value.Value, xp *value.Value, known *value.Value, pl *plan) bool {
	differs := v.differs
	v.differs = false
	if known != nil && v.trial == 0 && !differs && v.equal(x, xp, known) {
		return true // a whole subtree the same as a valid one is as valid
	}
	if n.never {
		if v.failing() {
			v.fail(falseMessage)
		}
		return false
	}
	if y := coerce(n, x); y.Kind() != x.Kind() {
		x, xp = y, nil // no longer the value at xp
	}
	if n.types != 0 {
		t, name := jsonType(x)
		ok := n.types&t != 0 || (n.types&tInteger != 0 && t == tNumber && jsonv.IsInteger(x))
		if !ok {
			if v.failing() {
				v.fail(typeMessage(name, n.types))
			}
			return false
		}
	}
	if n.hasConst && !value.Equal(x, n.constV) {
		if v.failing() {
			v.fail(constMessage(v.words, n.constV))
		}
		return false
	}
	if n.hasEnum && !inEnum(n.enum, x) {
		if v.failing() {
			v.fail(enumMessage(v.words, n.enum))
		}
		return false
	}
	mark := v.failures
	if n.ref != nil {
		v.validate(n.ref, x, xp, known, nil)
	}
	switch x.Kind() {
	case value.Object:
		v.object(n, x, known, pl)
	case value.Array:
		v.array(n, x, known, pl)
	case value.String:
		v.str(n, x.Str())
	case value.Number:
		v.number(n, x.Str())
	}
	for _, b := range n.allOf {
		v.validate(b, x, xp, known, nil)
	}
	if len(n.anyOf) > 0 || len(n.oneOf) > 0 {
		v.trial++
		if len(n.anyOf) > 0 && !v.anyMatch(n.anyOf, x) {
			v.explain(n.anyOf, x)
		}
		if len(n.oneOf) > 0 {
			v.oneOf(n, x)
		}
		v.trial--
	}
	return v.failures == mark
}

// equal reports value.Equal(x, *known), as the comparison found it when
// it compared the two.
func (v *validator) equal(x value.Value, xp, known *value.Value) bool {
	switch known.Kind() {
	case value.String:
		return x.Kind() == value.String && x.Str() == known.Str()
	case value.Array, value.Object, value.Number:
		if xp != nil && v.eq != nil {
			return v.eq.Equal(xp, known)
		}
	}
	return value.Equal(x, *known)
}

func inEnum(enum []value.Value, x value.Value) bool {
	for _, e := range enum {
		if value.Equal(x, e) {
			return true
		}
	}
	return false
}

// valid reports quietly whether x is valid against n.
func (v *validator) valid(n *node, x value.Value) bool {
	v.quiet++
	before := v.failures
	v.validate(n, x, nil, nil, nil)
	v.quiet--
	ok := v.failures == before
	v.failures = before
	return ok
}

func (v *validator) anyMatch(list []*node, x value.Value) bool {
	for _, b := range list {
		if v.valid(b, x) {
			return true
		}
	}
	return false
}

func (v *validator) oneOf(n *node, x value.Value) {
	matched := -1
	for i, b := range n.oneOf {
		if !v.valid(b, x) {
			continue
		}
		if matched < 0 {
			matched = i
			continue
		}
		if v.failing() {
			v.fail(oneOfMessage(matched, i))
		}
		return
	}
	if matched < 0 {
		v.explain(n.oneOf, x)
	}
}

// explain reports why x matches none of list: each member's violations,
// as the library lists them, but for a member that only allows null
// (Pydantic's and zod's way of saying "or null"), which would only say
// that a value that is not null is not null.
func (v *validator) explain(list []*node, x value.Value) {
	for _, b := range list {
		if b.types == tNull && x.Kind() != value.Null && len(list) > 1 {
			continue
		}
		v.validate(b, x, nil, nil, nil)
	}
}

func (v *validator) object(n *node, x value.Value, known *value.Value, pl *plan) {
	ms := x.Members()
	if pl != nil && pl.subs != nil && len(ms) <= maxPlanned && known != nil && known.Kind() == value.Object {
		v.planned(n, x, known.Members(), pl)
		return
	}
	count := len(ms)
	if v.nullIsMissing {
		for _, m := range ms {
			if m.Value.IsNull() {
				count--
			}
		}
	}
	v.count(count, n.minProps, n.maxProps, "Properties")
	if len(n.required) > 0 && !v.allRequired(n, ms) {
		v.missing(n, x)
	}
	// The members, the properties and the known value's members are all
	// in key order: one walk finds each member's schema and known value.
	var kms []value.Member
	if known != nil && known.Kind() == value.Object {
		kms = known.Members()
	}
	var extra []string
	p, k := 0, 0
	for i := range ms {
		m := &ms[i]
		// == first: it looks at the lengths before the bytes, and the
		// keys usually agree.
		if p < len(n.props) && n.props[p].key != m.Key {
			for p < len(n.props) && n.props[p].key < m.Key {
				p++
			}
		}
		if k < len(kms) && kms[k].Key != m.Key {
			for k < len(kms) && kms[k].Key < m.Key {
				k++
			}
		}
		if v.nullIsMissing && m.Value.IsNull() {
			continue
		}
		var sub *node
		if p < len(n.props) && n.props[p].key == m.Key {
			sub = n.props[p].n
		} else if n.noExtra {
			extra = append(extra, m.Key)
			continue
		} else {
			sub = n.additional
		}
		if sub == nil {
			continue
		}
		var kv *value.Value
		if k < len(kms) && kms[k].Key == m.Key {
			kv = &kms[k].Value
		}
		v.path = append(v.path, step{key: m.Key, idx: -1})
		v.validate(sub, m.Value, &m.Value, kv, nil)
		v.path = v.path[:len(v.path)-1]
	}
	if extra != nil {
		if v.failing() {
			v.fail(additionalMessage(v.words, extra))
		}
	}
}

// planned is object with the known value's plan: one walk of the
// members and the known value's members, both in key order, finds each
// member's schema and known value, and which required properties are
// there; object merges the properties and the required ones too. What it
// reports, and in which order, is object's.
func (v *validator) planned(n *node, x value.Value, kms []value.Member, pl *plan) {
	ms := x.Members()
	count := len(ms)
	var at [maxPlanned]int8 // the known member of each member, or -1
	var present uint64
	k := 0
	for i := range ms {
		m := &ms[i]
		// Both lists are in key order: the member's known member, if it
		// has one, is at k or after it. == compares the lengths first,
		// where < called a byte comparison at every step.
		j := k
		for j < len(kms) && kms[j].Key != m.Key {
			j++
		}
		at[i] = -1
		if j < len(kms) {
			at[i], k = int8(j), j+1
		}
		if v.nullIsMissing && m.Value.IsNull() {
			count--
			continue
		}
		if at[i] >= 0 {
			present |= 1 << j
		}
	}
	v.count(count, n.minProps, n.maxProps, "Properties")
	if present&pl.req != pl.req {
		// Every required property is a known member: the ones missing
		// are among those.
		v.missing(n, x)
	}
	var extra []string
	for i := range ms {
		m := &ms[i]
		if v.nullIsMissing && m.Value.IsNull() {
			continue
		}
		var sub *node
		var kv *value.Value
		var kp *plan
		rejected := false
		if k := at[i]; k >= 0 {
			rejected = pl.extra[k]
			sub, kv, kp = pl.subs[k], &kms[k].Value, pl.kids[k]
		} else if sub = n.prop(m.Key); sub == nil {
			rejected = n.noExtra
			sub = n.additional
		}
		if rejected {
			// One append: the compiler keeps the first few keys of a
			// single append site on the stack.
			extra = append(extra, m.Key)
			continue
		}
		if sub == nil || kv != nil && v.trial == 0 && v.equal(m.Value, &m.Value, kv) {
			continue // the last: validate's first test, without the call
		}
		v.path = append(v.path, step{key: m.Key, idx: -1})
		v.validate(sub, m.Value, &m.Value, kv, kp)
		v.path = v.path[:len(v.path)-1]
	}
	if extra != nil {
		if v.failing() {
			v.fail(additionalMessage(v.words, extra))
		}
	}
}

// missing reports the properties n requires that x, an object, lacks.
func (v *validator) missing(n *node, x value.Value) {
	if !v.failing() {
		return // quiet: only counted, so not listed either
	}
	l := v.missingList()
	for _, r := range n.required {
		if m, ok := x.Get(r); !ok || v.nullIsMissing && m.IsNull() {
			l.add(v, r)
		}
	}
	l.fail(v)
}

// missingList gathers the properties a violation of required names.
type missingList struct {
	start   int
	missing []string
}

func (v *validator) missingList() missingList { return missingList{start: len(v.paths)} }

func (l *missingList) add(v *validator, key string) {
	if v.carve {
		// Read no longer than the violation's path: from the same
		// buffer.
		v.paths = append(v.paths, key)
	} else {
		l.missing = append(l.missing, key)
	}
}

// fail reports the violation, which the caller has counted (failing).
func (l *missingList) fail(v *validator) {
	missing := l.missing
	if v.carve {
		missing = v.paths[l.start:len(v.paths):len(v.paths)]
	}
	v.fail(requiredMessage(v.words, missing))
	v.out[len(v.out)-1].Missing = missing
}

// allRequired reports whether the members (in key order) hold every
// property n requires: in one walk of both sorted lists, where a lookup per
// required key would search the members each time.
func (v *validator) allRequired(n *node, ms []value.Member) bool {
	j := 0
	for _, r := range n.sortedRequired {
		if j < len(ms) && ms[j].Key != r {
			for j < len(ms) && ms[j].Key < r {
				j++
			}
		}
		if j == len(ms) || ms[j].Key != r || v.nullIsMissing && ms[j].Value.IsNull() {
			return false
		}
	}
	return true
}

func (v *validator) array(n *node, x value.Value, known *value.Value, pl *plan) {
	es := x.Elems()
	v.count(len(es), n.minItems, n.maxItems, "Items")
	if n.uniqueItems && len(es) > 1 {
		if i, j := duplicates(es); i >= 0 {
			if v.failing() {
				v.fail(uniqueMessage(i, j))
			}
		}
	}
	if n.items == nil {
		return
	}
	var kes []value.Value
	if known != nil && known.Kind() == value.Array {
		kes = known.Elems()
	}
	for i := range es {
		var kv *value.Value
		var kp *plan
		if i < len(kes) {
			kv, kp = &kes[i], pl.kid(i)
			if v.trial == 0 && v.equal(es[i], &es[i], kv) {
				continue // validate's first test, without the call
			}
		}
		v.path = append(v.path, step{idx: i})
		v.validate(n.items, es[i], &es[i], kv, kp)
		v.path = v.path[:len(v.path)-1]
	}
}

// duplicates returns the first pair of equal elements, as the library
// finds it: the smallest j with an equal element before it, and the first
// such element i; or -1, -1.
func duplicates(es []value.Value) (int, int) {
	if len(es) <= 64 {
		for j := 1; j < len(es); j++ {
			for i := range j {
				if value.Equal(es[i], es[j]) {
					return i, j
				}
			}
		}
		return -1, -1
	}
	first := make(map[string]int, len(es))
	var buf []byte
	for j, e := range es {
		buf = jsonv.AppendCanonical(buf[:0], e)
		if i, ok := first[string(buf)]; ok {
			return i, j
		}
		first[string(buf)] = j
	}
	return -1, -1
}

// count checks a count (of members, elements or characters) against a
// lower and an upper bound, each -1 when absent; what names the keywords'
// common stem ("Properties", "Items", "Length").
func (v *validator) count(got, lo, hi int, what string) {
	if lo >= 0 && got < lo && v.failing() {
		v.fail(countMessage("min"+what, got, lo))
	}
	if hi >= 0 && got > hi && v.failing() {
		v.fail(countMessage("max"+what, got, hi))
	}
}

func (v *validator) str(n *node, s string) {
	if n.minLength >= 0 || n.maxLength >= 0 {
		v.count(utf8.RuneCountInString(s), n.minLength, n.maxLength, "Length")
	}
	if n.pattern != nil && !n.pattern.MatchString(s) {
		if v.failing() {
			v.fail(patternMessage(v.words, s, n.pattern.String()))
		}
	}
}

// number checks the bounds exactly, on the decimal values.
func (v *validator) number(n *node, x string) {
	if n.minimum != "" && number.Compare(x, n.minimum) < 0 {
		if v.failing() {
			v.fail(boundMessage("minimum", x, n.minimum))
		}
	}
	if n.maximum != "" && number.Compare(x, n.maximum) > 0 {
		if v.failing() {
			v.fail(boundMessage("maximum", x, n.maximum))
		}
	}
	if n.exclMin != "" && number.Compare(x, n.exclMin) <= 0 {
		if v.failing() {
			v.fail(boundMessage("exclusiveMinimum", x, n.exclMin))
		}
	}
	if n.exclMax != "" && number.Compare(x, n.exclMax) >= 0 {
		if v.failing() {
			v.fail(boundMessage("exclusiveMaximum", x, n.exclMax))
		}
	}
	if n.multipleOf != "" && !number.IsMultipleOf(x, n.multipleOf) {
		if v.failing() {
			v.fail(boundMessage("multipleOf", x, n.multipleOf))
		}
	}
}

// validateLib validates with the library the arguments after the
// coercions, for a schema with keywords this package does not handle. A
// panic inside the library (it has some on extreme numbers) is a
// violation, never a crash of the run.
func (s *Schema) validateLib(dst []Violation, args value.Value, nullIsMissing bool) (out []Violation) {
	x, _ := coerceTree(s.root, args, nullIsMissing)
	defer func() {
		if r := recover(); r != nil {
			out = append(dst, Violation{Message: fmt.Sprintf("cannot be validated: the JSON Schema library failed: %v", r)})
		}
	}()
	err := s.lib.Validate(jsonAny(x))
	if err == nil {
		return dst
	}
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return append(dst, Violation{Message: err.Error()})
	}
	start := len(dst)
	dst = appendLeaves(dst, ve)
	// The library walks objects in a map's order: sort, so that results
	// are the same from run to run.
	slices.SortStableFunc(dst[start:], func(a, b Violation) int {
		if c := slices.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		return strings.Compare(a.Message, b.Message)
	})
	return dst
}

// appendLeaves appends the leaves of a validation error: the causes a
// person acts on, not the chain of keywords that led to them.
func appendLeaves(dst []Violation, ve *jsonschema.ValidationError) []Violation {
	if len(ve.Causes) > 0 {
		for _, c := range ve.Causes {
			dst = appendLeaves(dst, c)
		}
		return dst
	}
	vi := Violation{Path: slices.Clone(ve.InstanceLocation), Message: ve.ErrorKind.LocalizedString(printer)}
	if r, ok := ve.ErrorKind.(*kind.Required); ok {
		vi.Missing = slices.Clone(r.Missing)
	}
	return append(dst, vi)
}

// coerceTree makes the coercions the schema implies for the library, and
// with nullIsMissing drops null members; changed says whether it did
// anything. A node and every node that validates the same instance ($ref,
// allOf, anyOf, oneOf) count.
func coerceTree(n *node, x value.Value, nullIsMissing bool) (_ value.Value, changed bool) {
	nodes := sameInstance(n, nil, map[*node]bool{})
	switch x.Kind() {
	case value.String:
		for _, m := range nodes {
			if y := coerce(m, x); y.Kind() == value.Number {
				return y, true
			}
		}
	case value.Object:
		out := x
		for _, mem := range x.Members() {
			if nullIsMissing && mem.Value.IsNull() {
				out, changed = jsonv.Without(out, mem.Key), true
				continue
			}
			y, ch := mem.Value, false
			for _, m := range nodes {
				sub := m.prop(mem.Key)
				if sub == nil {
					sub = m.additional
				}
				if sub != nil {
					var c bool
					y, c = coerceTree(sub, y, nullIsMissing)
					ch = ch || c
				}
			}
			if ch {
				out, changed = jsonv.With(out, mem.Key, y), true
			}
		}
		return out, changed
	case value.Array:
		es := x.Elems()
		var out []value.Value
		for i, e := range es {
			y, ch := e, false
			for _, m := range nodes {
				if m.items != nil {
					var c bool
					y, c = coerceTree(m.items, y, nullIsMissing)
					ch = ch || c
				}
			}
			if ch && out == nil {
				out = slices.Clone(es)
			}
			if out != nil {
				out[i] = y
			}
		}
		if out != nil {
			return value.ArrayOf(out...), true
		}
	}
	return x, false
}

func sameInstance(n *node, out []*node, seen map[*node]bool) []*node {
	if n == nil || seen[n] {
		return out
	}
	seen[n] = true
	out = append(out, n)
	for _, s := range n.successors() {
		out = sameInstance(s, out, seen)
	}
	return out
}
