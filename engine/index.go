package engine

import (
	"hash/maphash"

	"github.com/callgrade/callgrade/internal/idtable"
	"github.com/callgrade/callgrade/internal/suite"
)

// idIndex finds a case by its id (see internal/idtable, which suite.Load
// uses to find duplicate ids too). Like a map filled in case order, it
// names the last case of an id that several share.
type idIndex struct{ t idtable.Table }

// newIndex indexes the cases' ids and reports whether they are unique.
func newIndex(cases []suite.Case) (idIndex, bool) {
	x := idIndex{t: idtable.New(len(cases), maphash.MakeSeed())}
	unique := true
	// From the last case back: the table keeps the first index it is
	// given, which is then the last case of an id.
	for i := len(cases) - 1; i >= 0; i-- {
		id := cases[i].ID
		if x.t.Add(x.t.Hash(id), i, func(k int) bool { return cases[k].ID == id }) >= 0 {
			unique = false
		}
	}
	return x, unique
}

// get returns the index of the case with the given id; cases are the
// compiled cases, in the order of the suite's.
func (x *idIndex) get(id string, cases []compiledCase) (int, bool) {
	return x.t.Find(x.t.Hash(id), func(k int) bool { return cases[k].id == id })
}
