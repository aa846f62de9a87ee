package rulecore

import (
	"cmp"
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/callgrade/callgrade/internal/number"
	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/value"
)

// Lists compared in any order (`unordered`) are multisets: they match when
// their elements can be paired so that each pair is equal under the
// elements' own rules. Pairing is a matching, never greedy, and it has to
// stay fast on long lists:
//
//   - up to smallList elements, every pair is compared and paired by Kuhn's
//     augmenting paths (see matching), on the stack;
//   - when the elements compare under settings alone (case folding,
//     normalisers, numeric strings: an equivalence), each element gets a
//     canonical key and the keys are matched as multisets, in O(n log n);
//   - numbers under a tolerance are sorted and paired in order, which finds
//     a perfect matching whenever one exists (each expected number accepts
//     an interval of actual ones, and the intervals keep their order);
//   - anything else (a comparator, one_of, per-index rules) compares every
//     pair, up to maxPairs of them, and pairs them as short lists are.

// maxPairs bounds the element comparisons of one unordered list that no
// faster way decides: 4096 × 4096 of them. Hostile output must not be
// able to make a comparison endless; beyond it the field is a rule_error.
const maxPairs = 1 << 24

// multiset reports whether the lists hold the same elements in some order.
// Rules for one index (path.0) refer to the expected list's positions.
func (w *walker) multiset(st *state, f *eff, ee, ae []value.Value) bool {
	n := len(ee)
	if n != len(ae) {
		return false
	}
	// The common case costs n comparisons: the lists are in the same order.
	same := true
	for i := range ee {
		w.push("", i)
		good := w.value(st.index(i), f, &ee[i], &ae[i], true)
		w.pop()
		if !good {
			same = false
			break
		}
	}
	if same {
		return true
	}
	if n <= smallList {
		var buf matchBuf
		k := newMatching(n, n, &buf)
		return w.match(st, f, ee, ae, &k, true)
	}
	rowOf, ok := w.pairing(st, f, ee, ae, false)
	return ok && paired(rowOf) == n
}

// pairing pairs as many equal elements as possible and returns for each
// actual element the expected one paired with it, or -1; explain asks for
// the pairing that best explains a failure. ok is false when
// the lists are too long to pair under their rules (a rule error is then
// recorded).
func (w *walker) pairing(st *state, f *eff, ee, ae []value.Value, explain bool) (rowOf []int, ok bool) {
	if est, ef, uniform := st.elements(f); uniform {
		switch {
		case (est == nil || est.plain) && ef.num != numTolerance && (!w.ctx.AllowExtra || !hasContainers(ee, ae)):
			return w.keyPairing(est, ef, ee, ae), true
		case (est == nil || est.rule == nil || est.rule.settingsOnly(true)) && ef.num == numTolerance &&
			(ef.rel == "" || number.Compare(ef.rel, "1") < 0) && numericScalars(ef, ee, ae):
			return sortedPairing(ef, ee, ae, explain), true
		}
	}
	if len(ee)*len(ae) > maxPairs {
		w.fail(fmt.Errorf("an unordered list of %d elements compared with one of %d: more than the %d pairs of elements that are compared under rules with no faster way to pair them (a comparator, one_of, a rule for one index)",
			len(ee), len(ae), maxPairs), results.RuleError)
		return nil, false
	}
	k := newMatching(len(ee), len(ae), nil)
	w.match(st, f, ee, ae, &k, false)
	return k.rowOf, true
}

// elements returns the state every element of the list at st is compared
// under, with its settings: nil (and f) when there are no rules below.
// uniform is false when some index has rules of its own (path.0).
func (st *state) elements(f *eff) (est *state, ef *eff, uniform bool) {
	switch {
	case st == nil || st.anyIdx == nil && len(st.idx) == 0:
		return nil, f, true
	case len(st.idx) > 0:
		return nil, f, false
	}
	return st.anyIdx, st.anyIdx.eff, true
}

func hasContainers(lists ...[]value.Value) bool {
	for _, l := range lists {
		for _, v := range l {
			if k := v.Kind(); k == value.Object || k == value.Array {
				return true
			}
		}
	}
	return false
}

// keyPairing pairs elements with equal canonical keys, for an element
// comparison that is an equivalence.
func (w *walker) keyPairing(est *state, f *eff, ee, ae []value.Value) []int {
	byKey := make(map[string][]int, len(ee))
	var b []byte
	for i := range ee {
		b = w.canonical(b[:0], est, f, ee[i])
		byKey[string(b)] = append(byKey[string(b)], i)
	}
	rowOf := make([]int, len(ae))
	for j := range ae {
		b = w.canonical(b[:0], est, f, ae[j])
		rowOf[j] = -1
		if list := byKey[string(b)]; len(list) > 0 {
			rowOf[j], byKey[string(b)] = list[0], list[1:]
		}
	}
	return rowOf
}

// canonical appends a key for v under st and f such that two values get
// the same key exactly when they compare equal there: a number (or, under
// numeric comparison, a numeric string) by its canonical spelling, a string
// after the normalisers and case folding, containers member by member.
// Strings and keys are length-prefixed, so no two different values meet.
func (w *walker) canonical(b []byte, st *state, f *eff, v value.Value) []byte {
	if st != nil {
		f = st.eff
	}
	switch v.Kind() {
	case value.Null:
		return append(b, 'n')
	case value.Bool:
		if v.Bool() {
			return append(b, 't')
		}
		return append(b, 'f')
	case value.Number:
		return append(append(b, '#'), number.Canonical(v.Str())...)
	case value.String:
		if f.num != numExact {
			if s, ok := numberText(f, &v); ok {
				return append(append(b, '#'), number.Canonical(s)...)
			}
		}
		s := applyNorm(f.norm, v.Str())
		if f.fold {
			s = foldString(s)
		}
		return appendString(append(b, 's'), s)
	case value.Array:
		b = append(b, '[')
		for i, e := range v.Elems() {
			b = w.canonical(b, st.index(i), f, e)
			b = append(b, ',')
		}
		return append(b, ']')
	}
	b = append(b, '{')
	for _, m := range v.Members() {
		if w.ctx.NullIsMissing && m.Value.IsNull() {
			continue
		}
		b = appendString(b, m.Key)
		b = w.canonical(b, st.key(m.Key), f, m.Value)
	}
	return append(b, '}')
}

func appendString(b []byte, s string) []byte {
	b = strconv.AppendInt(b, int64(len(s)), 10)
	return append(append(b, ':'), s...)
}

// numericScalars reports whether every element of the lists is a number,
// or a string that stands for one under f.
func numericScalars(f *eff, lists ...[]value.Value) bool {
	for _, l := range lists {
		for i := range l {
			if _, ok := numberText(f, &l[i]); !ok {
				return false
			}
		}
	}
	return true
}

// sortedPairing pairs numbers under a tolerance. Expected number e accepts
// the actual numbers within max(tolerance, relative·|e|) of it: an interval
// whose ends grow with e (for a relative tolerance below 1). With the
// intervals in order, sorting both lists and walking them together finds
// a largest pairing, a perfect one whenever one exists.
func sortedPairing(f *eff, ee, ae []value.Value, explain bool) []int {
	sorted := func(l []value.Value) []num {
		out := make([]num, len(l))
		for i := range l {
			t, _ := numberText(f, &l[i])
			out[i] = num{t, i}
		}
		slices.SortStableFunc(out, func(a, b num) int {
			return cmp.Or(number.Compare(a.text, b.text), a.i-b.i)
		})
		return out
	}
	es, as := sorted(ee), sorted(ae)
	rowOf := make([]int, len(ae))
	for j := range rowOf {
		rowOf[j] = -1
	}
	walkSorted(f, es, as, rowOf)
	if !explain {
		return rowOf
	}
	// For a message, pairing equal numbers first says what a person
	// expects ("missing 77, extra 77.6" rather than "extra 78" after 78
	// took 77.6), when it pairs as many.
	alt := make([]int, len(ae))
	for j := range alt {
		alt[j] = -1
	}
	var restE, restA []num
	i, j := 0, 0
	for i < len(es) && j < len(as) {
		switch c := number.Compare(es[i].text, as[j].text); {
		case c == 0:
			alt[as[j].i] = es[i].i
			i, j = i+1, j+1
		case c < 0:
			restE = append(restE, es[i])
			i++
		default:
			restA = append(restA, as[j])
			j++
		}
	}
	restE, restA = append(restE, es[i:]...), append(restA, as[j:]...)
	walkSorted(f, restE, restA, alt)
	if paired(alt) == paired(rowOf) {
		return alt
	}
	return rowOf
}

func paired(rowOf []int) int {
	k := 0
	for _, i := range rowOf {
		if i >= 0 {
			k++
		}
	}
	return k
}

func walkSorted(f *eff, es, as []num, rowOf []int) {
	for i, j := 0, 0; i < len(es) && j < len(as); {
		switch {
		case numbersEqual(f, es[i].text, as[j].text):
			rowOf[as[j].i] = es[i].i
			i, j = i+1, j+1
		case number.Compare(as[j].text, es[i].text) < 0:
			j++ // below every interval still open: no expected number takes it
		default:
			i++ // every actual number left is above this interval
		}
	}
}

// num is a number literal and its index in its list.
type num struct {
	text string
	i    int
}

// smallList is the longest list that is paired by comparing every pair
// without trying a faster way first; its matching fits in a matchBuf.
const smallList = 32

// matching is Kuhn's augmenting-path matching of the expected elements
// (rows) to the actual ones (columns).
type matching struct {
	words int      // uint64 words per row of adj
	adj   []uint64 // row i, bit j: expected i equals actual j
	rowOf []int    // for each actual element, the expected one paired with it, or -1
	seen  []uint64 // the actual elements the current search has visited
}

// matchBuf backs the matching of lists of up to smallList elements, so
// that pairing a short list out of order allocates nothing.
type matchBuf struct {
	adj   [smallList]uint64
	rowOf [smallList]int
	seen  [1]uint64
}

// newMatching returns the matching of n expected to m actual elements,
// held in buf if they fit (buf may be nil).
func newMatching(n, m int, buf *matchBuf) matching {
	k := matching{words: (m + 63) / 64}
	if buf != nil && n <= smallList && m <= smallList {
		k.adj, k.rowOf, k.seen = buf.adj[:n*k.words], buf.rowOf[:m], buf.seen[:k.words]
	} else {
		mem := make([]uint64, (n+1)*k.words) // adj, then seen: one allocation
		k.adj, k.rowOf, k.seen = mem[:n*k.words], make([]int, m), mem[n*k.words:]
	}
	return k
}

// match compares every pair of elements and pairs as many equal ones as
// possible, expected elements in order, actual ones lowest first, so that
// the pairing (k.rowOf) depends on the lists alone. With perfect, it gives
// up at the first expected element that cannot be paired. It reports
// whether every expected element is paired.
func (w *walker) match(st *state, f *eff, ee, ae []value.Value, k *matching, perfect bool) bool {
	for i := range ee {
		row := k.adj[i*k.words : (i+1)*k.words]
		est := st.index(i)
		w.push("", i)
		for j := range ae {
			if w.value(est, f, &ee[i], &ae[j], true) {
				row[j/64] |= 1 << (j % 64)
			}
		}
		w.pop()
		if perfect && !slices.ContainsFunc(row, func(word uint64) bool { return word != 0 }) {
			return false
		}
	}
	for j := range k.rowOf {
		k.rowOf[j] = -1
	}
	all := true
	for i := range ee {
		// Not clear(k.seen), which calls memclr: too dear for the one
		// word of a short list.
		for x := 0; x < len(k.seen); x++ {
			k.seen[x] = 0
		}
		if !k.augment(i) {
			if perfect {
				return false
			}
			all = false
		}
	}
	return all
}

// augment looks for an augmenting path from expected element i.
func (k *matching) augment(i int) bool {
	for w, word := range k.adj[i*k.words : (i+1)*k.words] {
		for x := word &^ k.seen[w]; x != 0; x &= x - 1 {
			b := bits.TrailingZeros64(x)
			if k.seen[w]&(1<<b) != 0 { // seen deeper down since x was taken
				continue
			}
			k.seen[w] |= 1 << b
			j := w*64 + b
			if k.rowOf[j] < 0 || k.augment(k.rowOf[j]) {
				k.rowOf[j] = i
				return true
			}
		}
	}
	return false
}

// unorderedText says which expected elements have no equal in the actual
// list and which actual elements are left over, by a largest pairing.
func (w *walker) unorderedText(st *state, f *eff, ee, ae []value.Value) string {
	var rowOf []int
	if len(ee) <= smallList && len(ae) <= smallList {
		var buf matchBuf
		k := newMatching(len(ee), len(ae), &buf)
		w.match(st, f, ee, ae, &k, false)
		rowOf = k.rowOf
	} else {
		var ok bool
		saved := w.err
		if rowOf, ok = w.pairing(st, f, ee, ae, true); !ok {
			w.err = saved
			return w.note(fmt.Sprintf("expected the same elements in any order (%s, got %s)", elements(len(ee)), elements(len(ae))))
		}
	}
	paired := make([]bool, len(ee))
	var missing, extra []value.Value
	for j, i := range rowOf {
		if i >= 0 {
			paired[i] = true
		} else {
			extra = append(extra, ae[j])
		}
	}
	for i, p := range paired {
		if !p {
			missing = append(missing, ee[i])
		}
	}
	var b strings.Builder
	b.WriteString("expected the same elements in any order")
	if len(ee) != len(ae) {
		fmt.Fprintf(&b, " (%s, got %s)", elements(len(ee)), elements(len(ae)))
	}
	if len(missing) > 0 {
		b.WriteString("; missing " + showList(missing))
	}
	if len(extra) > 0 {
		b.WriteString("; extra " + showList(extra))
	}
	return w.note(b.String())
}
