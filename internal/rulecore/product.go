package rulecore

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"strings"

	"github.com/callgrade/callgrade/value"
)

// product is a one_of whose values are every object that a few values
// for each of some keys make, each key taking any of its values or being
// left out where some object leaves it out. Importers write a dict
// answer that way (BFCL's `{key: [acceptable values]}`): eight keys of
// two values that may each be left out are 6,561 objects, which the
// comparison would try one by one for every actual object that matches
// none. An object matches one of them exactly when each key's side
// matches one of that key's values (or its absence), because an object
// compares key by key (walker.members) and each object of the list takes
// its keys' values independently; so the comparison decides key by key,
// in time linear in the values listed rather than in their product.
type product struct {
	keys   []string        // sorted as an object's members are
	opts   [][]value.Value // opts[i]: the values keys[i] takes, each once
	absent []bool          // absent[i]: an object leaves keys[i] out
}

// minProduct is the fewest one_of values worth factoring: below it the
// objects are tried in turn.
const minProduct = 4

// factor returns the product the one_of values alts are, or nil when they
// are not all objects or not every combination of their keys' values.
// Values are told apart by their JSON text, numbers as written, so that
// a key's values are never merged where a rule could tell them apart.
func factor(alts []value.Value) *product {
	if len(alts) < minProduct {
		return nil
	}
	p := &product{}
	in := map[string]int{} // how many objects give the key
	for _, a := range alts {
		if a.Kind() != value.Object {
			return nil
		}
		for _, m := range a.Members() {
			if in[m.Key] == 0 {
				p.keys = append(p.keys, m.Key)
			}
			in[m.Key]++
		}
	}
	// A key some objects leave out doubles the combinations at least: a
	// product of len(alts) objects has at most log2 of it such keys. The
	// walk below visits every key for every object, which for more of
	// them (objects of a key or two each, all different) would be
	// quadratic in the list.
	sometimes := 0
	for _, k := range p.keys {
		if in[k] < len(alts) {
			sometimes++
		}
	}
	if sometimes > bits.Len(uint(len(alts))) {
		return nil
	}
	slices.Sort(p.keys)
	p.opts = make([][]value.Value, len(p.keys))
	p.absent = make([]bool, len(p.keys))
	for i, k := range p.keys {
		p.absent[i] = in[k] < len(alts)
	}
	seen := make([]map[string]int, len(p.keys))
	for i := range seen {
		seen[i] = map[string]int{}
	}
	combos := map[string]bool{}
	var combo, text []byte
	for _, a := range alts {
		combo = combo[:0]
		ms := a.Members()
		j := 0
		for i, k := range p.keys {
			o := 0 // the key left out; else its value's index + 1
			if j < len(ms) && ms[j].Key == k {
				text = ms[j].Value.AppendJSON(text[:0])
				n, ok := seen[i][string(text)]
				if !ok {
					n = len(p.opts[i])
					seen[i][string(text)] = n
					p.opts[i] = append(p.opts[i], ms[j].Value)
				}
				o = n + 1
				j++
			}
			combo = binary.AppendUvarint(combo, uint64(o))
		}
		if !combos[string(combo)] {
			combos[string(combo)] = true
		}
	}
	// Every object is one combination of its keys' values; the list is
	// all of them when it holds as many different ones as there are.
	size := 1
	for i := range p.keys {
		n := len(p.opts[i])
		if p.absent[i] {
			n++
		}
		if size > len(combos)/n {
			return nil // more combinations than objects
		}
		size *= n
	}
	if size != len(combos) {
		return nil
	}
	return p
}

// inProduct reports whether the object a matches one of the objects of
// st's one_of, which st.product factors: whether each key, those of the
// product's and a's alike, matches one of the values the key takes, or
// its absence. A key is compared as walker.members compares it in each
// object, quietly, and the keys of a rule's default that neither side
// gives are judged as there (state.defaulted).
func (w *walker) inProduct(st *state, f *eff, a *value.Value) bool {
	p := st.product
	allow := w.allowExtra(st)
	am := a.Members()
	i, j, next := 0, 0, 0
	for i < len(p.keys) || j < len(am) {
		var key string
		var opts []value.Value
		absent := true
		var av *value.Value
		var c int
		switch {
		case i == len(p.keys):
			c = 1
		case j == len(am):
			c = -1
		default:
			c = strings.Compare(p.keys[i], am[j].Key)
		}
		switch {
		case c < 0:
			key, opts, absent = p.keys[i], p.opts[i], p.absent[i]
			i++
		case c > 0:
			key, av = am[j].Key, &am[j].Value
			j++
		default:
			key, opts, absent, av = p.keys[i], p.opts[i], p.absent[i], &am[j].Value
			i++
			j++
		}
		ks := st.keyNext(key, &next)
		good := false
		if absent {
			if av == nil {
				good = w.neitherGives(st, f, key, allow)
			} else {
				_, av := w.nullsMissing(ks, nil, av)
				good = w.member(ks, f, key, nil, av, allow, true)
			}
		}
		for k := 0; !good && k < len(opts); k++ {
			ev, av := w.nullsMissing(ks, &opts[k], av)
			good = w.member(ks, f, key, ev, av, allow, true)
		}
		if !good {
			return false
		}
	}
	for _, d := range st.defaulted {
		if _, found := slices.BinarySearch(p.keys, d.key); found || hasKey(am, d.key) {
			continue // decided above
		}
		if !w.neitherGives(st, f, d.key, allow) {
			return false
		}
	}
	return true
}

// neitherGives decides a key of an object at st that neither side gives,
// as walker.members does: by the rule's default where the rule judges it
// (state.defaulted), else it passes.
func (w *walker) neitherGives(st *state, f *eff, key string, allow bool) bool {
	for _, d := range st.defaulted {
		if d.key == key {
			w.push(key, -1)
			good := w.field(d.st, f, nil, nil, allow, true)
			w.pop()
			return good
		}
	}
	return true
}
