package rulecore

import (
	"encoding/binary"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/callgrade/callgrade/value"
)

// Set is the compiled PATH -> RULE entries of one expected call, from every
// level. Add every entry first; then Compare may be called from many
// goroutines at once. The zero Set is empty and ready to use; a Set must
// not be copied.
type Set struct {
	root node

	mu    sync.Mutex            // serialises building built
	built atomic.Pointer[state] // compiled from root; nil after an Add
}

// node is one pattern in the trie of paths as they were written.
type node struct {
	lit      map[string]*node
	star     *node
	hash     *node
	rule     *Rule
	level    Level
	declared bool // see Declare
}

// Add sets the rule for path p at level. The zero Path addresses the
// arguments object itself: its settings are inherited by every argument,
// its extra_fields applies to the top level, and an ignore or leaf matcher
// there decides for the whole call (optional and default mean nothing
// there). A rule at the same path from a
// higher level wins whatever the order of the calls; at the same level the
// later Add wins. Add must not run concurrently with Compare. r must not be
// nil.
func (s *Set) Add(level Level, p Path, r *Rule) {
	n := s.node(p)
	if n.rule == nil || level >= n.level {
		n.rule, n.level = r, level
	}
	s.built.Store(nil)
}

// Declare marks path p as a field the tool's schema declares without
// requiring it: where the expected call leaves such a field out, the actual
// call may give it (spec 1.2: a parameter not in required that the expected
// call omits is optional). Unlike a rule, a declaration does not take the
// place of the rules of less specific paths (a `*` rule still applies
// there), and nor does a rule added at LevelSchema; a rule written for the
// same path at a level above LevelSchema overrides it, as an explicit rule
// overrides what the schema implies.
func (s *Set) Declare(p Path) {
	s.node(p).declared = true
	s.built.Store(nil)
}

// node returns the trie node of p, making it if need be.
func (s *Set) node(p Path) *node {
	n := &s.root
	for _, seg := range p.segs {
		var next **node
		switch seg.kind {
		case segStar:
			next = &n.star
		case segHash:
			next = &n.hash
		default:
			if n.lit == nil {
				n.lit = make(map[string]*node)
			}
			c := n.lit[seg.key]
			if c == nil {
				c = &node{}
				n.lit[seg.key] = c
			}
			n = c
			continue
		}
		if *next == nil {
			*next = &node{}
		}
		n = *next
	}
	return n
}

// state is one node of the structure Compare walks: the trie of patterns
// determinised, so that a concrete path reaches exactly one state, which
// knows the winning rule there and the settings inherited down to it.
// Nothing is looked up by string but object keys, and nothing is decided
// about precedence while comparing.
type state struct {
	rule     *Rule // the most specific rule at this path, or nil
	declared bool  // the schema declares the field (see Set.Declare)
	// plain says that at this path and below, rules only set how values
	// compare (see Rule.settingsOnly): equality here is an equivalence,
	// which canonical keys decide.
	plain bool
	// reflexive says that at this path and below, no rule can refuse two
	// equal values (see Rule.reflexive): there, value.Equal passing is the
	// walk passing, with no diff and nothing else to record.
	reflexive bool
	// typed, on the root state only, says that a rule of the set has a
	// `type` property (see CompareChecked).
	typed bool
	// direct says that field, given both sides, goes straight on to
	// value: the rule neither ignores the field nor puts another value
	// in the place of the expected one (from). A default fills in only
	// a side that is absent.
	direct bool
	// written says that the rule here was written in the suite, not
	// implied by the tool's schema; guarded, that a written rule other
	// than ignore holds at a path below this one. An ignored field that
	// is guarded is compared where those rules say (walker.ignored):
	// the most specific path wins.
	written, guarded bool
	eff              *eff // the settings in force here
	// oneOfNorm holds the rule's one_of values that are strings under
	// the normalisers in force, when some are: each comparison would
	// otherwise normalise them again.
	oneOfNorm []string
	// product factors the rule's one_of, a list of objects that is every
	// combination of its keys' values (product.go), where no rule at or
	// below here has effects beyond its verdict (state.pure); else nil.
	product *product
	// pure says that no rule here or below runs a comparator, reads a
	// step (from) or pairs a list (unordered): comparing is a function
	// of the two values that records no error, whichever comparisons a
	// walk makes and in whichever order.
	pure   bool
	name   string // what a diff here shows as its rule
	keys   []keyState
	keyMap map[string]*state // keys, when there are many
	idx    []idxState
	anyKey *state // object keys not in keys
	// defaulted are the keys whose rule has a written default that the
	// rules there may refuse (one_of, regex, a comparator): a key that
	// neither side gives is its default on both, and must be compared
	// too. A default the schema lends a wildcard rule (Rule.under) is
	// not judged so: neither the author nor the model gave the field.
	defaulted []keyState
	anyIdx    *state // array indices not in idx
}

type keyState struct {
	key string
	st  *state
}

type idxState struct {
	i  int
	st *state
}

// eff is what a comparison inherits: case folding, normalisers and the
// numeric mode, with the name of the rule they come from.
type eff struct {
	fold bool
	norm []normalizer
	num  numMode
	tol  string
	rel  string
	name string
}

// key returns the state of an object's member named k: its own, or that
// of the keys no literal names.
func (s *state) key(k string) *state {
	if s == nil {
		return nil
	}
	if s.keyMap != nil {
		if st, ok := s.keyMap[k]; ok {
			return st
		}
		return s.anyKey
	}
	for i := range s.keys {
		if s.keys[i].key == k {
			return s.keys[i].st
		}
	}
	return s.anyKey
}

// keyNext is key for keys looked up in strictly ascending order, as a walk
// of an object's members meets them: *next is where the last lookup
// ended. s.keys is sorted too, so a key sought is at *next or after it:
// every key before *next is at most the last one found, and so less than
// k. The search goes on from there, and a key not among them is not
// compared with those before (key compares each from the first, most
// often the same keys again: a tool's parameters that the expected call
// leaves out lie between those it gives).
func (s *state) keyNext(k string, next *int) *state {
	if s == nil {
		return nil
	}
	i := *next
	if s.keyMap != nil {
		if i < len(s.keys) && s.keys[i].key == k {
			*next = i + 1
			return s.keys[i].st
		}
		return s.key(k)
	}
	for ; i < len(s.keys); i++ {
		if s.keys[i].key == k {
			*next = i + 1
			return s.keys[i].st
		}
	}
	return s.anyKey
}

func (s *state) index(i int) *state {
	if s == nil {
		return nil
	}
	for j := range s.idx {
		if s.idx[j].i == i {
			return s.idx[j].st
		}
	}
	return s.anyIdx
}

// compiled returns the walk structure, building it after the last Add.
func (s *Set) compiled() *state {
	if st := s.built.Load(); st != nil {
		return st
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if st := s.built.Load(); st != nil {
		return st
	}
	b := builder{built: map[string]*state{}}
	st := b.build([]*node{&s.root}, &eff{name: "exact"})
	st.typed = s.root.typed()
	s.built.Store(st)
	return st
}

// builder builds a Set's walk structure, each state once: the same
// patterns under the same settings make the same state, which the walk
// may reach by several ways (a `*` matches keys and indices alike), and
// building it once per way took 2^n states for a path of n wildcards.
type builder struct {
	built map[string]*state // by buildKey
	key   []byte
	// underRules are the rules builder.under made, by explicit rule and
	// implied rule.
	underRules map[[2]*Rule]*Rule
}

// under is r with what the schema implies at the path, im, taken in where
// r says nothing of it (Rule.under), made once for each pair.
func (b *builder) under(r, im *Rule) *Rule {
	k := [2]*Rule{r, im}
	if m, ok := b.underRules[k]; ok {
		return m
	}
	if b.underRules == nil {
		b.underRules = map[[2]*Rule]*Rule{}
	}
	m := r.under(im)
	b.underRules[k] = m
	return m
}

// buildKey names what a state is made of: its patterns and the settings
// it inherits, by address (a state shares both, never copies them).
func (b *builder) buildKey(nodes []*node, parent *eff) string {
	b.key = binary.LittleEndian.AppendUint64(b.key[:0], uint64(uintptr(unsafe.Pointer(parent))))
	for _, n := range nodes {
		b.key = binary.LittleEndian.AppendUint64(b.key, uint64(uintptr(unsafe.Pointer(n))))
	}
	return string(b.key)
}

// build makes the state for a set of patterns that all match the same
// concrete paths, listed most specific first. The children of a state keep
// that order: for each pattern, its literal child before its `#` child
// before its `*` child, which is "compare segment by segment from the left;
// a literal beats a wildcard".
func (b *builder) build(nodes []*node, parent *eff) *state {
	if len(nodes) == 0 {
		return nil
	}
	key := b.buildKey(nodes, parent)
	if st, ok := b.built[key]; ok {
		return st
	}
	st := &state{eff: parent, name: parent.name}
	b.pickRule(st, nodes)
	st.applyRule(parent)
	b.buildLiterals(st, nodes)
	b.buildWildcards(st, nodes)
	st.summarise()
	b.built[key] = st
	return st
}

// pickRule sets the rule in force at st, the first of nodes that has one,
// and whether the field is declared.
func (b *builder) pickRule(st *state, nodes []*node) {
	for i, n := range nodes {
		// A declaration holds unless a rule of a more specific path, or
		// a rule written for its own path, comes first.
		if n.declared && (n.rule == nil || n.level == LevelSchema) {
			st.declared = true
		}
		if n.rule == nil {
			continue
		}
		st.rule = n.rule
		st.written = n.level > LevelSchema
		if n.level == LevelSchema {
			// What the schema implies at this very path gives way to an
			// explicit rule of a less specific one (spec 1.2: an
			// explicit rule overrides what the schema implies there),
			// which takes the implied numeric and default where it says
			// nothing of them: a `*` rule is not lost on the fields a
			// tool's schema types.
			for _, m := range nodes[i+1:] {
				if m.rule != nil && m.level > LevelSchema {
					st.rule = b.under(m.rule, n.rule)
					st.written = true
					break
				}
			}
		}
		return
	}
}

// applyRule takes in what st's rule sets: the settings in force from
// here down, the name a diff here shows, and its one_of values
// normalised as the settings say.
func (st *state) applyRule(parent *eff) {
	r := st.rule
	if r == nil {
		return
	}
	if r.inherit {
		st.eff = overlay(parent, r)
	}
	if r.compare {
		st.name = r.String()
	} else {
		st.name = st.eff.name
	}
	if r.oneOf != nil && len(st.eff.norm) > 0 {
		st.oneOfNorm = make([]string, len(r.oneOf))
		for k, v := range r.oneOf {
			if v.Kind() == value.String {
				st.oneOfNorm[k] = applyNorm(st.eff.norm, v.Str())
			}
		}
	}
}

// buildLiterals makes st's children for the keys that nodes name, in
// sorted order, and for those that are array indices too.
func (b *builder) buildLiterals(st *state, nodes []*node) {
	for _, k := range literalKeys(nodes) {
		var kids []*node
		for _, n := range nodes {
			if c := n.lit[k]; c != nil {
				kids = append(kids, c)
			}
			if n.star != nil {
				kids = append(kids, n.star)
			}
		}
		st.keys = append(st.keys, keyState{k, b.build(kids, st.eff)})
		if i := arrayIndex(k); i >= 0 {
			kids = kids[:0:0]
			for _, n := range nodes {
				if c := n.lit[k]; c != nil {
					kids = append(kids, c)
				}
				if n.hash != nil {
					kids = append(kids, n.hash)
				}
				if n.star != nil {
					kids = append(kids, n.star)
				}
			}
			st.idx = append(st.idx, idxState{i, b.build(kids, st.eff)})
		}
	}
	if len(st.keys) > 8 {
		st.keyMap = make(map[string]*state, len(st.keys))
		for _, k := range st.keys {
			st.keyMap[k.key] = k.st
		}
	}
}

// literalKeys returns the keys any of nodes names, sorted.
func literalKeys(nodes []*node) []string {
	var keys []string
	for _, n := range nodes {
		for k := range n.lit {
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	slices.Sort(keys)
	return keys
}

// buildWildcards makes st's children for the keys and indices no literal
// names.
func (b *builder) buildWildcards(st *state, nodes []*node) {
	var anyKey, anyIdx []*node
	for _, n := range nodes {
		if n.hash != nil {
			anyIdx = append(anyIdx, n.hash)
		}
		if n.star != nil {
			anyKey = append(anyKey, n.star)
			anyIdx = append(anyIdx, n.star)
		}
	}
	st.anyKey = b.build(anyKey, st.eff)
	st.anyIdx = b.build(anyIdx, st.eff)
}

// summarise sets what st says of itself and all below it, once its
// children are built: plain, reflexive, and the keys compared when absent.
func (st *state) summarise() {
	st.direct = st.rule == nil || !st.rule.ignore && st.rule.from == nil
	st.guarded = st.anyKey.guards() || st.anyIdx.guards()
	for _, k := range st.keys {
		st.guarded = st.guarded || k.st.guards()
	}
	for _, i := range st.idx {
		st.guarded = st.guarded || i.st.guards()
	}
	st.plain = (st.rule == nil || st.rule.settingsOnly(false)) && !st.declared &&
		st.anyKey.isPlain() && st.anyIdx.isPlain()
	st.reflexive = (st.rule == nil || st.rule.reflexive()) &&
		st.anyKey.isReflexive() && st.anyIdx.isReflexive()
	for _, k := range st.keys {
		st.plain = st.plain && k.st.isPlain()
		st.reflexive = st.reflexive && k.st.isReflexive()
		if r := k.st.rule; r != nil && r.judgesAbsent() && !k.st.isReflexive() {
			st.defaulted = append(st.defaulted, k)
		}
	}
	for _, i := range st.idx {
		st.plain = st.plain && i.st.isPlain()
		st.reflexive = st.reflexive && i.st.isReflexive()
	}
	st.pure = (st.rule == nil || st.rule.pure()) && st.anyKey.isPure() && st.anyIdx.isPure()
	for _, k := range st.keys {
		st.pure = st.pure && k.st.isPure()
	}
	for _, i := range st.idx {
		st.pure = st.pure && i.st.isPure()
	}
	if st.pure && st.rule != nil && st.rule.oneOf != nil {
		st.product = factor(st.rule.oneOf)
	}
}

func (st *state) isPure() bool { return st == nil || st.pure }

// guards reports whether st, a state below an ignored field, is one that
// field's comparison must visit: a written rule other than ignore holds
// here, or below.
func (st *state) guards() bool {
	return st != nil && (st.written && !st.rule.ignore || st.guarded)
}

// pure reports whether comparing under the rule alone records nothing but
// its verdict (see state.pure).
func (r *Rule) pure() bool { return r.cmp == nil && r.from == nil && !r.unordered }

func (st *state) isPlain() bool { return st == nil || st.plain }

func (st *state) isReflexive() bool { return st == nil || st.reflexive }

// reflexive reports whether the rule passes any value compared with an
// equal one (value.Equal), given that the rules below it do: settings
// (case folding, normalisers, numeric, tolerance, exact) are equivalences,
// unordered tries the same order first, ignore, optional, default and
// extra_fields only loosen or fill in an absent side, and type is checked
// apart from the comparison. A matcher that decides by itself (a
// comparator, regex, one_of) need not accept equal values, nor one whose
// expected value is another (from). A property
// added to Rule that can refuse equal values must be added here.
func (r *Rule) reflexive() bool {
	return r.cmp == nil && r.re == nil && r.oneOf == nil && r.from == nil
}

// overlay returns the settings below a rule: the inherited ones with what
// the rule sets replacing them; exact: true starts again from the defaults.
func overlay(parent *eff, r *Rule) *eff {
	e := *parent
	if r.reset {
		e = eff{}
	}
	if r.setFold {
		e.fold = r.fold
	}
	if r.setNorm {
		e.norm = r.norm
	}
	if r.setNum {
		e.num, e.tol, e.rel = r.num, r.tol, r.rel
	}
	e.name = r.String()
	return &e
}
