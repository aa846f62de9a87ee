package engine

import (
	"hash/maphash"

	"github.com/callgrade/callgrade/internal/prefault"
	"github.com/callgrade/callgrade/suite"
)

// idIndex finds a case by its id: open addressing over case indexes with
// each id's hash, which for a suite of hundreds of thousands of cases is
// several times smaller and faster to build than a map of the id strings.
// Like a map filled in case order, it names the last case of an id that
// several share.
type idIndex struct {
	seed  maphash.Seed
	slots []idSlot // a power of two, at most half full
}

type idSlot struct {
	hash uint32 // the id's hash, high bits
	i    int32  // case index + 1; 0 is an empty slot
}

// newIndex indexes the cases' ids and reports whether they are unique.
func newIndex(cases []suite.Case) (idIndex, bool) {
	size := 8
	for size < 2*len(cases) {
		size <<= 1
	}
	x := idIndex{seed: maphash.MakeSeed(), slots: prefault.Make[idSlot](size)}
	unique := true
	for i := range cases {
		id := cases[i].ID
		h := maphash.String(x.seed, id)
		for j := int(h) & (size - 1); ; j = (j + 1) & (size - 1) {
			s := &x.slots[j]
			if s.i == 0 {
				*s = idSlot{hash: uint32(h >> 32), i: int32(i + 1)}
				break
			}
			if s.hash == uint32(h>>32) && cases[s.i-1].ID == id {
				s.i = int32(i + 1)
				unique = false
				break
			}
		}
	}
	return x, unique
}

// get returns the index of the case with the given id; cases are the
// compiled cases, in the order of the suite's.
func (x *idIndex) get(id string, cases []compiledCase) (int, bool) {
	if len(x.slots) == 0 {
		return 0, false
	}
	h := maphash.String(x.seed, id)
	mask := len(x.slots) - 1
	for j := int(h) & mask; ; j = (j + 1) & mask {
		s := x.slots[j]
		if s.i == 0 {
			return 0, false
		}
		if s.hash == uint32(h>>32) && cases[s.i-1].id == id {
			return int(s.i - 1), true
		}
	}
}
