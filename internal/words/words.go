// Package words keeps the text of the messages written while scoring one
// response in memory that the next response reuses.
//
// A failing call has a message for each thing wrong with it, and BFCL's
// mutated candidates are mostly failing calls: a string allocated for
// each message was most of what scoring allocated, and so set how often
// the collector ran (a fifth of the live family's time). A Scorer's
// result is valid until its next response (engine.Scorer), and so are its
// messages: they are written one after another into an Arena, which the
// Scorer empties before each response.
package words

import "unsafe"

// Arena holds the bytes of the strings it returns until Reset. The zero
// value is ready to use; a nil *Arena returns strings of their own, for
// the callers that keep what they are given.
type Arena struct {
	buf []byte
}

// keepAtMost is the room an Arena keeps across Reset: a response whose
// messages took more (hundreds of wrong arguments, each with its values
// shown) does not make the Scorer hold that much for good.
const keepAtMost = 1 << 20

// firstRoom is the room of an Arena's first block: the messages of a
// few dozen diffs.
const firstRoom = 4 << 10

// Reset makes the room of the strings returned so far free for the next
// ones. Those strings must no longer be read: their bytes will be
// written over.
func (a *Arena) Reset() {
	if a == nil {
		return
	}
	if cap(a.buf) > keepAtMost {
		a.buf = nil
	}
	a.buf = a.buf[:0]
}

// String returns a string with the bytes of b.
func (a *Arena) String(b []byte) string {
	if a == nil {
		return string(b)
	}
	if len(b) == 0 {
		return ""
	}
	start := a.room(len(b))
	a.buf = append(a.buf, b...)
	return unsafe.String(&a.buf[start], len(b))
}

// Open returns where a string of about n bytes is to be written: an
// empty slice of the arena's room, for the writer to append the string's
// bytes to and then hand to Close. A writer that knows no more than a
// bound on its string's length writes it once, in place, where Join
// would copy pieces written elsewhere first.
func (a *Arena) Open(n int) []byte {
	if a == nil {
		return make([]byte, 0, n)
	}
	start := a.room(n)
	return a.buf[start:start:cap(a.buf)]
}

// Close returns the string of b, which Open returned and bytes were
// appended to, its bytes kept in the arena until Reset. Nothing else may
// be written to the arena between the two: b then lies in the arena's
// room unless it grew past it, into memory of its own, which is copied
// in.
func (a *Arena) Close(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if a == nil {
		return unsafe.String(unsafe.SliceData(b), len(b))
	}
	if n := len(a.buf); n+len(b) <= cap(a.buf) {
		a.buf = a.buf[:n+len(b)]
		return unsafe.String(unsafe.SliceData(b), len(b))
	}
	return a.String(b)
}

// Join returns the parts written one after another.
func (a *Arena) Join(parts ...string) string {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	if n == 0 {
		return ""
	}
	if a == nil {
		// Not strings.Join, which returns a lone part itself: a part
		// may be bytes on its caller's stack (rulecore's regex
		// messages), which must not outlive the call.
		b := make([]byte, 0, n)
		for _, p := range parts {
			b = append(b, p...)
		}
		return unsafe.String(unsafe.SliceData(b), n)
	}
	start := a.room(n)
	for _, p := range parts {
		a.buf = append(a.buf, p...)
	}
	return unsafe.String(&a.buf[start], n)
}

// room makes room for n more bytes and returns where they start. When the
// block is full, a new one takes its place: the strings in the old one
// keep it alive, and no string moves.
func (a *Arena) room(n int) int {
	if len(a.buf)+n > cap(a.buf) {
		a.buf = make([]byte, 0, max(2*cap(a.buf), n, firstRoom))
	}
	return len(a.buf)
}
