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

func (a *arena) newVals(n int) []Value { return carve(&a.vals, n) }

func (a *arena) newMems(n int) []Member { return carve(&a.mems, n) }

// carve takes n elements from the chunk in *buf, starting a new chunk when
// it is full; a request for more than a quarter of a chunk gets its own.
func carve[T any](buf *[]T, n int) []T {
	if cap(*buf)-len(*buf) < n {
		if n > arenaChunk/4 {
			return make([]T, n)
		}
		*buf = make([]T, 0, arenaChunk)
	}
	k := len(*buf)
	*buf = (*buf)[:k+n]
	return (*buf)[k : k+n : k+n]
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
