package rules

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
