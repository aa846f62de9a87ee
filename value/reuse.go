package value

import (
	"unsafe"

	"github.com/callgrade/callgrade/internal/reuse"
)

func init() {
	reuse.Parse = parseScratch
	reuse.Reset = func(a *reuse.Arena) {
		if ar, ok := a.Impl.(*arena); ok {
			ar.reset()
		}
	}
}

// parseScratch is ParseLimits taking its containers and unescaped strings
// from a, for the engine's streaming run (see package internal/reuse):
// the Value is valid until a is reset.
func parseScratch(s string, lim Limits, a *reuse.Arena) (Value, error) {
	ar, _ := a.Impl.(*arena)
	if ar == nil {
		ar = new(arena)
		a.Impl = ar
	}
	return parse(s, lim, ar)
}

// arena hands out parts of a few chunks, then, after reset, the same
// memory again. A request that does not fit the rest of a chunk starts a
// new one; the old one is left to the collector once nothing points into
// it.
type arena struct {
	vals []Value  // the current chunk, used up to len
	mems []Member //
	text []byte   //
}

const (
	arenaChunk = 1024    // Values or Members per chunk
	arenaText  = 8 << 10 // bytes per text chunk
)

func (a *arena) reset() {
	a.vals, a.mems, a.text = a.vals[:0], a.mems[:0], a.text[:0]
}

func (a *arena) newVals(n int) []Value {
	if cap(a.vals)-len(a.vals) < n {
		if n > arenaChunk/4 {
			return make([]Value, n)
		}
		a.vals = make([]Value, 0, arenaChunk)
	}
	k := len(a.vals)
	a.vals = a.vals[:k+n]
	return a.vals[k : k+n : k+n]
}

func (a *arena) newMems(n int) []Member {
	if cap(a.mems)-len(a.mems) < n {
		if n > arenaChunk/4 {
			return make([]Member, n)
		}
		a.mems = make([]Member, 0, arenaChunk)
	}
	k := len(a.mems)
	a.mems = a.mems[:k+n]
	return a.mems[k : k+n : k+n]
}

func (a *arena) newString(b []byte) string {
	n := len(b)
	if cap(a.text)-len(a.text) < n {
		if n > arenaText/4 {
			return string(b)
		}
		a.text = make([]byte, 0, arenaText)
	}
	k := len(a.text)
	a.text = append(a.text, b...)
	return unsafe.String(&a.text[k], n)
}
