package rulecore

import (
	"unsafe"

	"github.com/callgrade/callgrade/value"
)

// Equalities records what a comparison learnt by value.Equal about the
// pairs of actual and expected values it met (see
// Set.CompareCheckedRecording), by their addresses, so that a later walk
// of the same two trees, such as the validation of the actual arguments
// against the tool's schema with the expected ones known valid, need not
// compare them again. Only arrays, objects and numbers are recorded, at
// most a few hundred of them: the rest costs less to compare again than
// to look up.
//
// An Equalities is for one comparison at a time; Reset it before each
// (a comparison that records does). The values must not change between
// the recording and the lookups, which holds for value.Value.
type Equalities struct {
	pairs []equality
	at    int // where the last lookup found its pair
}

// equality is one pair and what value.Equal said of it. The addresses are
// kept as numbers, only ever compared: a pointer kept here would make
// every value the comparison takes the address of escape to the heap. A
// recorded address cannot be another value's when looked up, since the
// arguments' values live throughout both walks.
type equality struct {
	a, e  uintptr
	equal bool
}

// maxEqualities bounds what one comparison records: an unordered list's
// matching compares many pairs, of which a walk in order looks up few.
const maxEqualities = 256

// lookupWindow is how far past the last pair found a lookup searches: the
// walks go in the same order, so the pair sought is nearly always the next
// one recorded, and a search that gives up early keeps a miss cheap.
const lookupWindow = 8

// Reset forgets every pair.
func (q *Equalities) Reset() {
	q.pairs, q.at = q.pairs[:0], 0
}

// record records a pair and returns its index, or -1 when it is not
// recorded.
func (q *Equalities) record(a, e *value.Value, equal bool) int {
	if len(q.pairs) < maxEqualities {
		switch e.Kind() {
		case value.Array, value.Object, value.Number:
			q.pairs = append(q.pairs, equality{addr(a), addr(e), equal})
			return len(q.pairs) - 1
		}
	}
	return -1
}

// Equal reports value.Equal(*a, *e), from the record when the comparison
// met the pair, by computing it otherwise; a nil q computes.
func (q *Equalities) Equal(a, e *value.Value) bool {
	if q != nil {
		pa, pe := addr(a), addr(e)
		end := min(q.at+lookupWindow, len(q.pairs))
		for i := q.at; i < end; i++ {
			if p := &q.pairs[i]; p.a == pa && p.e == pe {
				q.at = i
				return p.equal
			}
		}
	}
	return value.Equal(*a, *e)
}

func addr(v *value.Value) uintptr { return uintptr(unsafe.Pointer(v)) }

// Passes records pairs of actual and expected values that a caller knows,
// before a comparison, to pass under the set's rules (Context.Passes):
// schema.Known.Prove finds them where the rules are only those a tool's
// schema implies, such as a list of objects whose members are the
// expected ones but for a default given. The comparison then walks only
// the parts of the arguments that differ. It takes each pair on trust: a
// pair that the rules would refuse passes all the same.
//
// Pairs are kept by address, as in Equalities: members and elements of
// the arguments, not the argument objects themselves, which a comparison
// receives by value. A caller keeps only the outermost of nested pairs
// (Mark, Cut), since the comparison does not look inside a pair it takes
// as passing.
type Passes struct {
	pairs [maxPasses]struct{ a, e uintptr }
	n     int
}

// maxPasses bounds the pairs a Passes holds: each value the comparison
// meets is looked up among them.
const maxPasses = 16

// Reset forgets every pair.
func (p *Passes) Reset() { p.n = 0 }

// Mark returns what Add has added so far, for Cut.
func (p *Passes) Mark() int { return p.n }

// Cut forgets the pairs added since Mark returned m: the pairs inside a
// pair that is added next.
func (p *Passes) Cut(m int) { p.n = min(p.n, m) }

// Add records that the pair passes; past the bound it is not recorded,
// and the comparison walks it.
func (p *Passes) Add(a, e *value.Value) {
	if p.n < maxPasses {
		p.pairs[p.n].a, p.pairs[p.n].e = addr(a), addr(e)
		p.n++
	}
}

// has reports whether the pair was added.
func (p *Passes) has(a, e *value.Value) bool {
	pa, pe := addr(a), addr(e)
	for i := range p.n {
		if q := &p.pairs[i]; q.a == pa && q.e == pe {
			return true
		}
	}
	return false
}
