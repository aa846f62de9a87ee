package rulecore

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/callgrade/callgrade/internal/number"
	"github.com/callgrade/callgrade/internal/words"
	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/value"
)

// Compare compares the arguments of an expected call with an actual call's
// under the set's rules and c, calls report for each difference (report may
// be nil) and returns the counts the score is computed from. c may be nil
// for the zero Context.
//
// Total is the number of top-level keys of expected plus each top-level key
// of actual that produced a Diff without being expected; Matched is the
// number of top-level expected keys with no Diff at or under them. When
// expected or actual is not an object, the two are compared as whole
// values, with one Diff at path "" when they differ: Matched is 0, and
// Total the number of expected keys, or 1 when expected is not an object
// or is empty; when they match (neither is an object), Matched and Total
// are 1.
//
// Comparing two equal calls allocates nothing.
func (s *Set) Compare(expected, actual value.Value, c *Context, report func(Diff)) Result {
	res, _ := s.compare(expected, actual, c, report, nil)
	return res
}

// failedSet says which members of the actual arguments object failed
// their comparison: bit j for member j, and more past 64.
type failedSet struct {
	mask uint64
	more []int
}

func (f *failedSet) add(j int) {
	if j < 64 {
		f.mask |= 1 << j
	} else {
		f.more = append(f.more, j)
	}
}

func (f *failedSet) has(j int) bool {
	if j < 64 {
		return f.mask&(1<<j) != 0
	}
	return slices.Contains(f.more, j)
}

// compare is Compare, and says which of the actual arguments failed.
// Without report, no diff is put into words.
// eq, when not nil, records what the equality shortcut finds.
func (s *Set) compare(expected, actual value.Value, c *Context, report func(Diff), eq *Equalities) (Result, failedSet) {
	return s.walk(expected, actual, c, report, false, eq)
}

// walk is compare; slow turns off the equality shortcut (see
// walker.value), the one_of values normalised at load (see leaf) and the
// members that skip field (state.direct), for the tests that hold the
// shortcuts to the full walk.
func (s *Set) walk(expected, actual value.Value, c *Context, report func(Diff), slow bool, eq *Equalities) (Result, failedSet) {
	res, failed, _ := s.walkTyped(expected, actual, c, report, eq, false, slow)
	return res, failed
}

// walkTyped is walk, and with typed checks the types of the top-level
// actual arguments (see walker.typed). The verdicts come back by value:
// a pointer kept in the walker would escape with what the walker hands
// its comparators, and cost an allocation a comparison.
func (s *Set) walkTyped(expected, actual value.Value, c *Context, report func(Diff), eq *Equalities, typed, slow bool) (Result, failedSet, typeVerdicts) {
	var w walker
	w.start(expected, actual, c, report, eq)
	w.slow, w.typed = slow, typed
	// No defer: the buffers of a walk that panicked are the collector's.
	res := w.run(s.compiled(), &expected, &actual, report == nil)
	w.release()
	return res, w.failed, w.types
}

// run is walk's comparison of the arguments objects e and a from root.
func (w *walker) run(root *state, e, a *value.Value, quiet bool) Result {
	if r := root.rule; r != nil && (r.ignore || r.leaf) {
		// A rule for the arguments object itself (the empty Path) that
		// decides on its own: every argument stands or falls with it.
		n := 1
		if e.Kind() == value.Object && e.Len() > 0 {
			n = e.Len()
		}
		if w.value(root, root.eff, e, a, quiet) {
			return Result{Matched: n, Total: n}
		}
		return Result{Total: n}
	}
	if e.Kind() == value.Object && a.Kind() == value.Object {
		var res Result
		w.members(root, root.eff, e, a, quiet, &res)
		return res
	}
	if w.value(root, root.eff, e, a, quiet) {
		return Result{Matched: 1, Total: 1}
	}
	if e.Kind() == value.Object && e.Len() > 0 {
		return Result{Total: e.Len()} // no argument can match
	}
	return Result{Total: 1}
}

// accepts is walk's verdict, quietly, from the first failure on: the
// comparison of Accepts.
func (s *Set) accepts(root *state, expected, actual value.Value, c *Context, eq *Equalities) bool {
	var w walker
	w.start(expected, actual, c, nil, eq)
	var ok bool
	if r := root.rule; (r == nil || !r.ignore && !r.leaf) && expected.Kind() == value.Object && actual.Kind() == value.Object {
		ok = w.members(root, root.eff, &expected, &actual, true, nil)
	} else {
		ok = w.value(root, root.eff, &expected, &actual, true)
	}
	w.release() // no defer, as in walkTyped
	return ok
}

// start sets up a zero walker for a comparison of expected and actual,
// resetting eq when it records. The walker is set field by field, in
// place: a composite literal of its size is built aside and copied in
// whole.
func (w *walker) start(expected, actual value.Value, c *Context, report func(Diff), eq *Equalities) {
	if eq != nil {
		eq.Reset()
	}
	w.report, w.eArgs, w.aArgs, w.eq = report, expected, actual, eq
	if c != nil {
		w.ctx = *c
	}
}

// walker is one comparison in progress.
type walker struct {
	ctx          Context
	report       func(Diff)
	eArgs, aArgs value.Value

	// The first comparator error met since the current leaf began, and
	// the last comparator's message: a leaf that fails reports them.
	err     error
	errKind results.Kind
	msg     string

	failed  failedSet // the top-level members of actual that failed
	emitted int       // the diffs reported so far (see Context.MaxWorded)

	slow bool        // no shortcuts (see walk)
	eq   *Equalities // records the shortcut's findings when not nil
	// typed says to check the `type` properties of the top-level actual
	// arguments into types as members meets them, with the states found
	// for the comparison in hand (CompareChecked looked each key up again
	// in a walk of its own).
	typed bool
	types typeVerdicts

	nb    *normBufs // the normalisers' buffers, from the first string normalised to the end
	held  *Scratch  // the Context's Scratch when nb is its buffers, else nil (nb is the pool's)
	normA normMemo  // the last actual string normalised

	defaulted uint8 // which sides of the field being compared are a rule's default
	absent    bool  // the expected side of the field being reported is absent

	pathStack // the path being compared
}

const (
	expectedDefaulted uint8 = 1 << iota
	actualDefaulted
)

// step is one step of the path being compared. A walk keeps the path
// as a stack of steps; its text is built only for a Diff.
type step struct {
	key string
	idx int // >= 0: an array index; -1: key
}

// pathStack is the path a walk is at: its first steps in an array inside
// the walk's state, so that walking allocates nothing, deeper ones in more.
type pathStack struct {
	path  [12]step
	depth int
	more  []step
}

func (p *pathStack) push(key string, idx int) {
	if p.depth < len(p.path) {
		p.path[p.depth] = step{key, idx}
	} else {
		p.more = append(p.more[:p.depth-len(p.path)], step{key, idx})
	}
	p.depth++
}

func (p *pathStack) pop() { p.depth-- }

func (p *pathStack) step(i int) step {
	if i < len(p.path) {
		return p.path[i]
	}
	return p.more[i-len(p.path)]
}

// pathString returns the path in PATH syntax, written in ws (see
// msg.done).
func (p *pathStack) pathString(ws *words.Arena) string {
	// A top-level key that needs no escaping is its own path: no
	// allocation for the common case of a comparator on an argument.
	if p.depth == 1 {
		if s := p.step(0); s.idx < 0 && !needsEscape(s.key) {
			return s.key
		}
	}
	var room [64]byte
	b := room[:0]
	for i := 0; i < p.depth; i++ {
		if i > 0 {
			b = append(b, '.')
		}
		if s := p.step(i); s.idx >= 0 {
			b = strconv.AppendInt(b, int64(s.idx), 10)
		} else {
			b = appendKey(b, s.key)
		}
	}
	return ws.String(b)
}

// members compares two objects key by key. res is non-nil at the top
// level, where the keys are counted for the score.
func (w *walker) members(st *state, f *eff, e, a *value.Value, quiet bool, res *Result) bool {
	allow := w.allowExtra(st)
	em, am := e.Members(), a.Members()
	ok := true
	i, j, next := 0, 0, 0
	typed := w.typed && res != nil // the top level only
	if typed {
		w.types.checked = true
	}
	for i < len(em) || j < len(am) {
		aj := j                                         // av's index, when av is set
		key, ev, av, ni, nj := nextMember(em, am, i, j) // ev, av nil: absent
		i, j = ni, nj
		ks := st.keyNext(key, &next)
		ev, av = w.nullsMissing(ks, ev, av)
		good := w.member(ks, f, key, ev, av, allow, quiet)
		if res != nil {
			// The top level counts every key, quiet or not.
			switch {
			case ev != nil:
				res.Total++
				if good {
					res.Matched++
				}
			case !good:
				res.Total++
			}
			if !good && av != nil {
				w.failed.add(aj)
			}
			// av is nil for a null that counts as absent, which the
			// type walk passes too (typeWalk.arg).
			if typed && av != nil && !typesOK(ks, *av, w.ctx.NullIsMissing) {
				w.types.bad.add(aj)
			}
		}
		if !good {
			if quiet && res == nil {
				return false
			}
			ok = false
		}
	}
	if st == nil {
		return ok
	}
	for _, d := range st.defaulted {
		if hasKey(em, d.key) || hasKey(am, d.key) {
			continue
		}
		// Neither side gives it: both are the default, which the rule
		// may still refuse ({one_of: [c, f], default: k}).
		w.push(d.key, -1)
		good := w.field(d.st, f, nil, nil, allow, quiet)
		w.pop()
		if !good {
			if res != nil {
				res.Total++
			}
			if quiet && res == nil {
				return false
			}
			ok = false
		}
	}
	return ok
}

// nextMember is the next key of two objects' members, both sorted by key,
// read together from em[i] and am[j]: its value on each side (nil where
// that side lacks it), and where each side goes on.
func nextMember(em, am []value.Member, i, j int) (key string, ev, av *value.Value, ni, nj int) {
	var c int // which side's key comes first
	switch {
	case i == len(em):
		c = 1
	case j == len(am):
		c = -1
	case em[i].Key == am[j].Key:
		// The common case, and == looks at the lengths first: most
		// keys that differ differ in length, and need no ordering.
		c = 0
	default:
		c = strings.Compare(em[i].Key, am[j].Key)
	}
	switch {
	case c < 0:
		return em[i].Key, &em[i].Value, nil, i + 1, j
	case c > 0:
		return am[j].Key, nil, &am[j].Value, i, j + 1
	}
	return em[i].Key, &em[i].Value, &am[j].Value, i + 1, j + 1
}

// allowExtra says whether an object at st may have members the expected
// one lacks.
func (w *walker) allowExtra(st *state) bool {
	if st != nil && st.rule != nil && st.rule.extra != extraInherit {
		return st.rule.extra == extraAllow
	}
	return w.ctx.AllowExtra
}

// nullsMissing returns a member's two sides with a null taken for absent
// where null_is_missing says so.
func (w *walker) nullsMissing(ks *state, ev, av *value.Value) (*value.Value, *value.Value) {
	if !w.ctx.NullIsMissing {
		return ev, av
	}
	// A from rule's expected value is the step it names; the null the
	// expected call holds in its place is no omission.
	if ev != nil && ev.IsNull() && (ks == nil || ks.rule == nil || ks.rule.from == nil) {
		ev = nil
	}
	if av != nil && av.IsNull() {
		av = nil
	}
	return ev, av
}

// member compares the member key of two objects under its state ks; ev
// or av is nil where that side lacks it (or holds a null that counts as
// absent).
func (w *walker) member(ks *state, f *eff, key string, ev, av *value.Value, allow, quiet bool) bool {
	w.push(key, -1)
	var good bool
	if ev != nil && av != nil && (ks == nil || ks.direct) && !w.slow {
		good = w.value(ks, f, ev, av, quiet) // what field would do
	} else {
		good = w.field(ks, f, ev, av, allow, quiet)
	}
	w.pop()
	return good
}

// hasKey reports whether the sorted members ms have the key k.
func hasKey(ms []value.Member, k string) bool {
	_, ok := slices.BinarySearchFunc(ms, k, func(m value.Member, k string) int { return strings.Compare(m.Key, k) })
	return ok
}

// field compares one member of two objects, either of which may lack it.
// ev or av is nil when that side lacks the member; both are only where
// the rule judges its default (Rule.judgesAbsent, state.defaulted).
func (w *walker) field(st *state, f *eff, ev, av *value.Value, allow bool, quiet bool) bool {
	if ev == nil && av == nil && (st == nil || st.rule == nil || !st.rule.judgesAbsent()) {
		return true
	}
	var r *Rule
	if st != nil {
		r = st.rule
	}
	var defaulted uint8
	if r != nil {
		if r.ignore {
			return !st.guarded || w.ignored(st, ev, av, quiet)
		}
		if r.from != nil {
			// The expected value is the one the reference names, whether
			// or not the expected call gives one.
			ref, why := r.from.Resolve(w.ctx.Steps)
			if why != "" {
				return w.unresolved(st, f, r, av, why, quiet)
			}
			ev = &ref
			if w.ctx.NullIsMissing && ref.IsNull() {
				// A null the step gives counts as left out, as a null
				// the expected call held would: with the actual call
				// leaving the field out too, neither gives it.
				ev = nil
				if av == nil && !r.hasDef {
					return true
				}
			}
		}
		if r.hasDef {
			if ev == nil {
				ev, defaulted = &r.def, expectedDefaulted
			}
			if av == nil {
				av, defaulted = &r.def, defaulted|actualDefaulted
			}
		}
	}
	switch {
	case av == nil:
		if r != nil && r.optional {
			return true
		}
		if !quiet {
			// What the rule wants, where it ignores the expected value.
			var rm room
			var m msg
			switch {
			case r != nil && r.re != nil:
				w.emit(Diff{Kind: results.MissingArgument, Path: w.pathString(w.ctx.Words), Expected: *ev, HasExpected: true,
					Rule: nameAt(st, f), Message: r.reMissing(w.what(), w.ctx.Words)})
				return false
			case r != nil && r.oneOf != nil:
				m = rm.message("expected one of ").showList(r.oneOf)
			default:
				m = rm.message("expected ").show(*ev)
			}
			w.emit(Diff{Kind: results.MissingArgument, Path: w.pathString(w.ctx.Words), Expected: *ev, HasExpected: true,
				Rule: nameAt(st, f), Message: m.s(", but the ").s(w.what()).s(" is missing").done(w.ctx.Words)})
		}
		return false
	case ev == nil:
		if r != nil && r.standalone() {
			// A matcher that needs no expected value decides a field the
			// expected call leaves out, optional or not ("regex: the
			// actual string matches; the expected value is ignored"):
			// neither extra_fields: allow nor the schema's declaration
			// lets a value past the rule written for it.
			return w.unexpected(st, f, r, av, quiet)
		}
		if r != nil && r.types != 0 {
			// A `type` needs no expected value either: the comparison's
			// type check (walker.typed, CompareChecked) checks the value
			// and counts it; here it is no extra field.
			return true
		}
		if allow || (r != nil && r.optional) || (st != nil && st.declared) {
			return true
		}
		if !quiet {
			d := Diff{Kind: results.UnexpectedArgument, Actual: *av, HasActual: true, Rule: "extra_fields=reject"}
			if w.words() {
				var rm room
				d.Path, d.Message = w.pathString(w.ctx.Words), rm.message("got ").show(*av).s(", but the expected ").s(w.owner()).s(" has no such ").s(w.what()).done(w.ctx.Words)
			}
			w.emit(d)
		}
		return false
	}
	if defaulted == 0 {
		return w.value(st, f, ev, av, quiet)
	}
	old := w.defaulted
	w.defaulted = defaulted
	ok := w.value(st, f, ev, av, quiet)
	w.defaulted = old
	return ok
}

// ignored compares an ignored field at st, e or a nil where that side
// lacks it, where written rules below it say: the field may hold anything
// or be absent, but a field below it that a more specific rule names is
// compared under that rule (the most specific path wins), as a member of
// an object or an element of a list, which a side that is absent or of
// another shape lacks. What no such rule names stays ignored, at any
// depth.
func (w *walker) ignored(st *state, e, a *value.Value, quiet bool) bool {
	ok := true
	visit := func(ks *state, key string, idx int, ev, av *value.Value) bool {
		if !ks.guards() {
			return true
		}
		if idx < 0 {
			ev, av = w.nullsMissing(ks, ev, av)
		}
		w.push(key, idx)
		var good bool
		switch {
		case ks.rule == nil || !ks.written:
			// Not a field of its own rule: still ignored, but for what
			// is below it.
			good = ev == nil && av == nil || w.ignored(ks, ev, av, quiet)
		default:
			good = w.field(ks, ks.eff, ev, av, w.allowExtra(st), quiet)
		}
		w.pop()
		if !good {
			ok = false
		}
		return good || !quiet
	}
	var em, am []value.Member
	if e != nil {
		em = e.Members()
	}
	if a != nil {
		am = a.Members()
	}
	for i, j, next := 0, 0, 0; i < len(em) || j < len(am); {
		key, ev, av, ni, nj := nextMember(em, am, i, j)
		i, j = ni, nj
		if !visit(st.keyNext(key, &next), key, -1, ev, av) {
			return false
		}
	}
	var ee, ae []value.Value
	if e != nil {
		ee = e.Elems()
	}
	if a != nil {
		ae = a.Elems()
	}
	for k := 0; k < max(len(ee), len(ae)); k++ {
		var ev, av *value.Value
		if k < len(ee) {
			ev = &ee[k]
		}
		if k < len(ae) {
			av = &ae[k]
		}
		if !visit(st.index(k), "", k, ev, av) {
			return false
		}
	}
	return ok
}

// unexpected decides a field that the expected call leaves out and the
// actual call gives, under a rule whose matcher needs no expected value:
// one_of, regex, or a comparator, which sees a null expected value.
func (w *walker) unexpected(st *state, f *eff, r *Rule, av *value.Value, quiet bool) bool {
	f = st.eff // r is st's rule: its own settings are in force
	var none value.Value
	if quiet {
		return w.leaf(st, f, r, &none, av)
	}
	w.err, w.msg = nil, ""
	if w.leaf(st, f, r, &none, av) {
		return true
	}
	w.absent = true
	w.leafDiff(st, f, r, &none, av)
	w.absent = false
	return false
}

// value compares two present values at one path.
func (w *walker) value(st *state, f *eff, e, a *value.Value, quiet bool) bool {
	if p := w.ctx.Passes; p != nil && p.n > 0 && p.has(a, e) {
		return true // known to pass (Context.Passes)
	}
	from := 0 // the elements before it are equal
	if st.isReflexive() && !w.slow {
		// Equal values pass under rules that cannot refuse them: one
		// walk of value.Equal instead of the walk under the rules,
		// which is left for the values that differ. Two lists of one
		// length are compared element by element, so that the walk
		// under the rules starts at the first that differs, and the
		// ones before it are not compared again.
		if e.Kind() == value.Array && a.Kind() == value.Array && e.Len() == a.Len() {
			from = w.equalPrefix(e, a)
			if from == e.Len() {
				return true
			}
		} else {
			equal := value.Equal(*e, *a)
			if w.eq != nil {
				w.eq.record(a, e, equal)
			}
			if equal {
				return true
			}
		}
	}
	var r *Rule
	if st != nil {
		f, r = st.eff, st.rule
	}
	if r != nil {
		if r.ignore {
			return !st.guarded || w.ignored(st, e, a, quiet)
		}
		if r.leaf {
			if quiet {
				return w.leaf(st, f, r, e, a)
			}
			w.err, w.msg = nil, ""
			if w.leaf(st, f, r, e, a) {
				return true
			}
			w.leafDiff(st, f, r, e, a)
			return false
		}
	}
	return w.structureFrom(st, f, e, a, quiet, from)
}

// equalPrefix returns how many elements of two lists of one length are
// equal (value.Equal) before the first that differ, recording (when w
// does) the lists' and those elements' equality.
func (w *walker) equalPrefix(e, a *value.Value) int {
	ee, ae := e.Elems(), a.Elems()
	at := -1
	if w.eq != nil {
		at = w.eq.record(a, e, false) // until all elements are found equal
	}
	i := 0
	for i < len(ee) {
		equal := value.Equal(ee[i], ae[i])
		if w.eq != nil {
			w.eq.record(&ae[i], &ee[i], equal)
		}
		if !equal {
			break
		}
		i++
	}
	if i == len(ee) && at >= 0 {
		w.eq.pairs[at].equal = true
	}
	return i
}

// structure compares objects member by member, arrays element by element
// and scalars under the settings in force.
func (w *walker) structure(st *state, f *eff, e, a *value.Value, quiet bool) bool {
	return w.structureFrom(st, f, e, a, quiet, 0)
}

// structureFrom is structure, for two values whose elements before from,
// when they are lists, are equal under rules that cannot refuse them, so
// pass (see value).
func (w *walker) structureFrom(st *state, f *eff, e, a *value.Value, quiet bool, from int) bool {
	switch e.Kind() {
	case value.Object:
		if a.Kind() == value.Object {
			return w.members(st, f, e, a, quiet, nil)
		}
	case value.Array:
		if a.Kind() == value.Array && e.Len() == a.Len() {
			ee, ae := e.Elems(), a.Elems()
			ok := true
			for i := from; i < len(ee); i++ {
				w.push("", i)
				good := w.value(st.index(i), f, &ee[i], &ae[i], quiet)
				w.pop()
				if !good {
					if quiet {
						return false
					}
					ok = false
				}
			}
			return ok
		}
	default:
		if w.scalarEqual(f, e, a) {
			return true
		}
	}
	if !quiet {
		d := Diff{Kind: results.Mismatch, Expected: *e, Actual: *a, HasExpected: true, HasActual: true, Rule: nameAt(st, f)}
		if w.words() {
			var rm room
			d.Path, d.Message = w.pathString(w.ctx.Words), rm.message("").mismatch(*e, *a).note(w.defaulted).rule(nameAt(st, f)).done(w.ctx.Words)
		}
		w.emit(d)
	}
	return false
}

// leaf decides at a path whose rule is a leaf matcher, without reporting.
func (w *walker) leaf(st *state, f *eff, r *Rule, e, a *value.Value) bool {
	switch {
	case r.cmp != nil:
		return w.comparator(f, r, e, a)
	case r.re != nil:
		if a.Kind() != value.String {
			return false
		}
		if f.fold {
			return r.reFold.MatchString(applyNorm(f.norm, a.Str()))
		}
		// The normal form is read here and dropped: it goes into the
		// walker's buffers, not a string of its own.
		nb := w.bufs()
		s := nb.apply(f.norm, a.Str(), 0)
		switch {
		case w.slow:
		case r.bounded != nil:
			return r.bounded.match(s)
		case r.anchored != nil:
			return r.anchored.match(s)
		case r.prog != nil:
			if m, ok := r.prog.match(s, &nb.bt); ok {
				return m
			}
		}
		return r.re.MatchString(s)
	case r.oneOf != nil:
		if st != nil && st.product != nil && !w.slow {
			// Every object a key's values make (product.go): each key
			// is decided on its own, not each of the objects.
			return a.Kind() == value.Object && w.inProduct(st, f, a)
		}
		for k := range r.oneOf {
			alt := &r.oneOf[k]
			if st.oneOfNorm != nil && !w.slow && alt.Kind() == value.String && a.Kind() == value.String && f.num == numExact {
				// stringsEqual, with the possible value normalised at load
				if alt.Str() == a.Str() || w.normsEqual(f, st.oneOfNorm[k], a.Str()) {
					return true
				}
				continue
			}
			if w.core(st, f, r, alt, a) {
				return true
			}
		}
		return false
	}
	return w.core(st, f, r, e, a)
}

// core compares under a rule's list comparison and the settings in force.
func (w *walker) core(st *state, f *eff, r *Rule, e, a *value.Value) bool {
	if r.unordered && e.Kind() == value.Array && a.Kind() == value.Array {
		return w.multiset(st, f, e.Elems(), a.Elems())
	}
	return w.structure(st, f, e, a, true)
}

// comparator runs an expr or plugin comparator. A comparator that panics
// is a rule error, not a crash of the run.
func (w *walker) comparator(f *eff, r *Rule, e, a *value.Value) (equal bool) {
	// The Input goes through an interface, so it would escape; a pooled one
	// keeps a comparison free of allocations.
	in := inputPool.Get().(*rules.Input)
	defer func() {
		*in = rules.Input{} // the pool must not keep the call's values alive
		inputPool.Put(in)
	}()
	*in = rules.Input{
		Path:         w.pathString(nil), // the comparator's to keep, if it likes
		Expected:     normalizeValue(f, *e),
		Actual:       normalizeValue(f, *a),
		Params:       r.params,
		Tool:         w.ctx.Tool,
		Args:         w.aArgs,
		ExpectedArgs: w.eArgs,
		Steps:        w.ctx.Steps,
		Ctx:          w.ctx.Ctx,
	}
	defer func() {
		if x := recover(); x != nil {
			w.fail(fmt.Errorf("%s comparator panicked: %v", r.String(), x), results.RuleError)
			equal = false
		}
	}()
	out := r.cmp.Compare(in)
	if out.Err != nil {
		w.fail(out.Err, out.ErrKind)
		return false
	}
	if !out.Equal {
		w.msg = out.Message
	}
	return out.Equal
}

var inputPool = sync.Pool{New: func() any { return new(rules.Input) }}

func (w *walker) fail(err error, kind results.Kind) {
	if w.err != nil {
		return
	}
	if kind == "" {
		kind = results.RuleError
	}
	w.err, w.errKind = err, kind
}

// normalizeValue applies the normalisers and case folding in force to
// every string in v, for a comparator, which sees values "after
// normalisers". Object keys are left alone.
func normalizeValue(f *eff, v value.Value) value.Value {
	if f.norm == nil && !f.fold {
		return v
	}
	switch v.Kind() {
	case value.String:
		s := applyNorm(f.norm, v.Str())
		if f.fold {
			s = foldString(s)
		}
		return value.StringOf(s)
	case value.Array:
		out := make([]value.Value, v.Len())
		for i, x := range v.Elems() {
			out[i] = normalizeValue(f, x)
		}
		return value.ArrayOf(out...)
	case value.Object:
		out := make([]value.Member, v.Len())
		for i, m := range v.Members() {
			out[i] = value.Member{Key: m.Key, Value: normalizeValue(f, m.Value)}
		}
		o, _ := value.ObjectOf(out...) // the keys are v's: unique
		return o
	}
	return v
}

// leafDiff reports a leaf matcher's failure.
func (w *walker) leafDiff(st *state, f *eff, r *Rule, e, a *value.Value) {
	d := Diff{Kind: results.Mismatch, Path: w.pathString(w.ctx.Words), Expected: *e, Actual: *a, HasExpected: !w.absent, HasActual: true, Rule: r.String()}
	if w.absent {
		d.Expected = value.Value{}
	}
	var rm room
	switch {
	case w.err != nil:
		d.Kind = w.errKind
		d.Message = w.err.Error()
		w.err = nil
		w.emit(d)
		return
	case r.cmp != nil:
		switch {
		case w.msg != "":
			d.Message = w.msg
		case w.absent:
			d.Message = rm.message("got ").show(*a).s(", which the expected call leaves out").rule(r.String()).done(w.ctx.Words)
		default:
			d.Message = rm.message("").mismatch(*e, *a).note(w.defaulted).rule(r.String()).done(w.ctx.Words)
		}
	case r.re != nil:
		d.Message = r.reGot(*a, w.ctx.Words)
	case r.oneOf != nil:
		d.Message = rm.message("expected one of ").showList(r.oneOf).s(", got ").show(*a).rule(r.String()).done(w.ctx.Words)
	case r.unordered && e.Kind() == value.Array && a.Kind() == value.Array:
		d.Message = rm.message(w.unorderedText(st, f, e.Elems(), a.Elems())).rule(r.String()).done(w.ctx.Words)
	default:
		d.Message = rm.message("").mismatch(*e, *a).note(w.defaulted).rule(r.String()).done(w.ctx.Words)
	}
	w.emit(d)
}

func (w *walker) emit(d Diff) {
	if w.report != nil {
		w.emitted++
		w.report(d)
	}
}

// words reports whether the next diff is to be worded (Context.MaxWorded).
func (w *walker) words() bool { return w.ctx.MaxWorded <= 0 || w.emitted < w.ctx.MaxWorded }

// nameAt is the rule a diff at st shows.
func nameAt(st *state, f *eff) string {
	if st != nil {
		return st.name
	}
	return f.name
}

// scalarEqual compares two values of which e is a scalar, under the
// settings in force.
func (w *walker) scalarEqual(f *eff, e, a *value.Value) bool {
	if f.num != numExact {
		en, eok := numberText(f, e)
		an, aok := numberText(f, a)
		switch {
		case eok && aok:
			return numbersEqual(f, en, an)
		case eok || aok:
			return false
		}
		// Neither is a number: compare as usual.
	}
	if e.Kind() != a.Kind() {
		return false
	}
	switch e.Kind() {
	case value.String:
		return w.stringsEqual(f, e.Str(), a.Str())
	case value.Number:
		return number.Same(e.Str(), a.Str())
	case value.Bool:
		return e.Bool() == a.Bool()
	case value.Null:
		return true
	}
	return false
}

func (w *walker) stringsEqual(f *eff, x, y string) bool {
	if x == y {
		return true // the same text normalises the same way
	}
	if f.norm == nil {
		return f.fold && foldEqual(x, y)
	}
	return w.normsEqual(f, w.bufs().apply(f.norm, x, 0), y)
}

// normsEqual is stringsEqual for xn, an expected string already under
// f's normalisers, and y, an actual one not yet.
func (w *walker) normsEqual(f *eff, xn, y string) bool {
	y = w.normActual(f.norm, y)
	return xn == y || f.fold && foldEqual(xn, y)
}

// normActual returns y, an actual string, under fns: the last result
// again when y and fns are the last ones, as they are for each possible
// value of a one_of, where the actual value is normalised once.
func (w *walker) normActual(fns []normalizer, y string) string {
	m := &w.normA
	if m.fns != nil && unsafe.StringData(m.in) == unsafe.StringData(y) && len(m.in) == len(y) &&
		&m.fns[0] == &fns[0] && len(m.fns) == len(fns) {
		return m.out
	}
	out := w.bufs().apply(fns, y, 1)
	*m = normMemo{in: y, fns: fns, out: out}
	return out
}

// normMemo is the last actual string a walker normalised: the string, the
// normalisers, and the result, which lives in the walker's buffers until
// the next actual string is normalised.
type normMemo struct {
	in, out string
	fns     []normalizer
}

// bufs returns the walker's normalisation buffers, taken from the pool
// at the first string normalised.
func (w *walker) bufs() *normBufs {
	if w.nb == nil {
		if sc := w.ctx.Scratch; sc != nil && !sc.busy {
			sc.busy = true
			w.nb, w.held = &sc.nb, sc
		} else {
			w.nb = normPool.Get().(*normBufs)
		}
	}
	return w.nb
}

// release gives back the walker's normalisation buffers.
func (w *walker) release() {
	switch {
	case w.held != nil:
		w.held.busy = false
		w.held, w.nb = nil, nil
	case w.nb != nil:
		normPool.Put(w.nb)
		w.nb = nil
	}
}

// numberText returns the number literal a value stands for under numeric
// comparison: a number's, or a string's that is one after the normalisers
// and trimming white space.
func numberText(f *eff, v *value.Value) (string, bool) {
	switch v.Kind() {
	case value.Number:
		return v.Str(), true
	case value.String:
		s := strings.TrimSpace(applyNorm(f.norm, v.Str()))
		if number.Valid(s) {
			return s, true
		}
	}
	return "", false
}

// numbersEqual compares two number literals by exact decimal value, or,
// under a tolerance, by whether their exact difference is within it: no
// float64 rounding either way, so 1704067200002 is not within 0.5 of
// 1704067200000, and 1e400 is within no usual tolerance of anything finite.
func numbersEqual(f *eff, e, a string) bool {
	if number.Same(e, a) {
		return true
	}
	if f.num != numTolerance {
		return false
	}
	return (f.tol != "" && number.WithinAbs(a, e, f.tol)) || (f.rel != "" && number.WithinRel(a, e, f.rel))
}

// what names the thing being compared for a message: an argument at the
// top level, an element or a field below.
func (w *walker) what() string {
	switch {
	case w.depth <= 1:
		return "argument"
	case w.step(w.depth-1).idx >= 0:
		return "element"
	}
	return "field"
}

func (w *walker) owner() string {
	if w.depth <= 1 {
		return "call"
	}
	return "object"
}
