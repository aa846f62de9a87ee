// Package idtable finds cases by their ids: open addressing over case
// indexes, four bytes a slot, placed by each id's hash. For a suite of
// hundreds of thousands of cases it is smaller and faster to build than a
// map of the id strings (BenchmarkBuild); the ids themselves stay where
// they are, in the cases, and the caller says how to compare one.
package idtable

import (
	"hash/maphash"

	"github.com/callgrade/callgrade/internal/prefault"
)

// Table maps ids to indexes. The zero Table is empty.
type Table struct {
	seed  maphash.Seed
	slots []int32 // index + 1, 0 for an empty slot; a power of two, at most half full
}

// New returns a table for n ids, hashed with seed (see Hash).
func New(n int, seed maphash.Seed) Table {
	size := 8
	for size < 2*n {
		size <<= 1
	}
	// Probing reads a slot before writing it: see internal/prefault.
	return Table{seed: seed, slots: prefault.Make[int32](size)}
}

// Hash returns the hash of id under the table's seed, which callers may
// compute ahead, on several goroutines, for Add and Find.
func (t *Table) Hash(id string) uint64 { return maphash.String(t.seed, id) }

// Add records index i under hash h and returns -1, unless an index with
// the same id is there already (same reports whether index k's id is
// i's): then the table keeps that one and Add returns it. Indexes must be
// below 2^31.
func (t *Table) Add(h uint64, i int, same func(k int) bool) int {
	mask := len(t.slots) - 1
	for j := int(h) & mask; ; j = (j + 1) & mask {
		k := t.slots[j]
		if k == 0 {
			t.slots[j] = int32(i + 1)
			return -1
		}
		if same(int(k - 1)) {
			return int(k - 1)
		}
	}
}

// Find returns the index whose id has hash h and is the one same accepts.
func (t *Table) Find(h uint64, same func(k int) bool) (int, bool) {
	if len(t.slots) == 0 {
		return 0, false
	}
	mask := len(t.slots) - 1
	for j := int(h) & mask; ; j = (j + 1) & mask {
		k := t.slots[j]
		if k == 0 {
			return 0, false
		}
		if same(int(k - 1)) {
			return int(k - 1), true
		}
	}
}
