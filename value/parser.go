package value

import (
	"slices"
	"unsafe"
)

// Parser parses JSON documents into memory that it hands out again after
// Reset, for a caller that parses document after document and is done with
// each batch before the next: the engine parses a response line and the
// arguments strings in it, scores them, writes the result and resets. Where
// Parse allocates every array, object and unescaped string, a Parser
// carves them out of a few large blocks.
//
// The Values a Parser returns, and everything reached from them, are valid
// only until its next Reset, which hands their memory out again: a Value
// kept past it changes under its holder. Parses between two Resets do not
// disturb each other, so a document and the documents parsed from its
// strings can be used together. A Parser that is never reset gives each
// Value memory of its own, which lives as long as the Value is reachable.
//
// The zero Parser is ready to use; a nil *Parser allocates, as Parse
// does, within the limits it is given. A Parser must not be used by two
// goroutines at once.
type Parser struct {
	a arena
	// sc is the scanner and its scratch stacks, kept here rather than
	// taken from the pool each parse: a Parser parses document after
	// document on one goroutine, and the pool's trip costs about as much
	// as scanning a small arguments object.
	sc parser
}

// Parse parses one JSON document (RFC 8259, whitespace around it allowed)
// within lim, taking the memory of the Value from p (a nil p allocates).
// Strings without escapes share memory with s.
func (p *Parser) Parse(s string, lim Limits) (Value, error) {
	if p == nil {
		return parse(s, lim, nil)
	}
	return p.sc.parse(s, lim, &p.a)
}

// ParseKeepInvalidUTF8 is Parse for a document whose strings may hold
// text that is not UTF-8, as a model's broken output can: such bytes are
// kept as they are, and an escaped lone surrogate (\ud800) becomes its
// three-byte WTF-8 form, which is not UTF-8 either, where Parse refuses
// the whole document. A reader then finds the broken strings
// (utf8.ValidString) and fails only what holds them. Everything else is
// checked as Parse checks it. A nil p allocates, as Parse does.
func (p *Parser) ParseKeepInvalidUTF8(s string, lim Limits) (Value, error) {
	var sc *parser
	var a *arena
	if p == nil {
		sc = parserPool.Get().(*parser)
		defer parserPool.Put(sc)
	} else {
		sc, a = &p.sc, &p.a
	}
	sc.keepInvalid = true
	defer func() { sc.keepInvalid = false }()
	return sc.parse(s, lim, a)
}

// Reset makes all the memory of p's Values reusable, which ends their
// validity.
func (p *Parser) Reset() {
	if p != nil {
		p.a.reset()
	}
}

// Array returns a JSON array of a copy of elems, taking its memory from p,
// for a reader of another syntax that builds its values as the JSON
// parser does: valid until p's next Reset, like the Values p parses.
func (p *Parser) Array(elems []Value) Value {
	if p == nil {
		return arrayValue(slices.Clone(elems))
	}
	a := p.a.newVals(len(elems))
	copy(a, elems)
	return arrayValue(a)
}

// Object is ObjectOf taking the memory of the object from p, as Array.
func (p *Parser) Object(members []Member) (Value, error) {
	if p == nil {
		return ObjectOf(members...)
	}
	m := p.a.newMems(len(members))
	copy(m, members)
	return objectOf(m)
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
