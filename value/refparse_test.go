package value

// The scanner as it was before its objects were put in order as they
// were read and their commonest values and separators read without a
// call: FuzzParseAsBefore holds the scanner to it, byte for byte in its
// values and its errors. Generated from value/parse.go at 8d89450 by
// renaming its unexported names, with one fix since (keyOffset's
// throwaway parse keeps invalid UTF-8 as its parser does).
//
// A string literal is read up to its first byte that is not plain as it
// was then (refParser.str); from there on, the escapes and the text that
// is not ASCII, by parse.go's own readers (parser.strRest and what it
// calls), which that change left as they were. Copy them back in here
// before changing them.

import (
	"encoding/binary"
	"math/bits"
	"strconv"
	"sync"
	"unsafe"

	"github.com/callgrade/callgrade/internal/jsontext"
	"github.com/callgrade/callgrade/internal/number"
)

// refParse parses s within lim, taking memory from a when it is not nil.
func refParse(s string, lim Limits, a *arena) (Value, error) {
	p := refParserPool.Get().(*refParser)
	v, err := p.parse(s, lim, a)
	refParserPool.Put(p)
	return v, err
}

var refParserPool = sync.Pool{New: func() any { return new(refParser) }}

// refParse parses s with p's scratch stacks, taking memory from a when it is
// not nil.
func (p *refParser) parse(s string, lim Limits, a *arena) (Value, error) {
	lim = lim.withDefaults()
	if len(s) > lim.MaxBytes {
		return Value{}, &Error{Err: ErrTooLarge, Offset: lim.MaxBytes,
			Detail: strconv.Itoa(len(s)) + " bytes, the limit is " + strconv.Itoa(lim.MaxBytes)}
	}
	if n := lim.MaxValues; n > 0 && len(s) > 2*n {
		// Text this long can hold more values than the limit: count
		// them before building any. A tree built up to the limit would
		// cost many times the text it has read (a member is ten bytes
		// written and forty held, and its scratch grows in steps), and
		// all that to be thrown away.
		if off, over := jsontext.CountValues(s, n); over {
			return Value{}, refTooMany(off, n)
		}
	}
	p.s, p.maxDepth, p.err, p.a = s, lim.MaxDepth, nil, a
	p.maxValues, p.left = lim.MaxValues, 0 // left counts up here
	i := p.skip(0)
	v, i := p.value(i, 0)
	if p.err == nil {
		if i = p.skip(i); i < len(s) {
			p.fail(ErrSyntax, i, "unexpected "+jsontext.Describe(s, i)+" after the value")
		}
	}
	err := p.err
	p.s, p.err, p.a = "", nil, nil
	// Stacks that grew for a huge document are left to the collector
	// rather than kept for the next.
	if cap(p.vals) <= 4096 && cap(p.mems) <= 4096 && cap(p.buf) <= 64<<10 {
		clear(p.vals)
		clear(p.mems)
		p.vals, p.mems, p.buf = p.vals[:0], p.mems[:0], p.buf[:0]
	} else {
		p.vals, p.mems, p.buf = nil, nil, nil
	}
	if err != nil {
		return Value{}, err
	}
	return v, nil
}

// refParser is a recursive-descent scanner. Containers gather their first
// elements on the goroutine's stack and any more on two scratch stacks,
// and are copied out once complete, so each array or object costs one
// allocation of exactly its size.
type refParser parser // left counts the values read, up

// refTooMany is the error of a document past Limits.MaxValues, at the first
// value over.
func refTooMany(off, max int) *Error {
	return &Error{Err: ErrTooLarge, Offset: off, Detail: "more than " + strconv.Itoa(max) + " values"}
}

func (p *refParser) fail(why error, off int, detail string) {
	if p.err == nil {
		p.err = &Error{Err: why, Offset: off, Detail: detail}
	}
}

func (p *refParser) skip(i int) int {
	s := p.s
	for i < len(s) {
		// Most bytes that end a run of whitespace are above the space,
		// which one comparison tells.
		if c := s[i]; c > ' ' || c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return i
		}
		i++
	}
	return i
}

func (p *refParser) value(i, depth int) (Value, int) {
	s := p.s
	if i >= len(s) {
		p.fail(ErrSyntax, i, "unexpected end of input")
		return Value{}, i
	}
	if p.left++; p.left > p.maxValues && p.maxValues > 0 {
		if p.err == nil {
			p.err = refTooMany(i, p.maxValues)
		}
		return Value{}, i
	}
	switch c := s[i]; {
	case c == '{':
		return p.object(i, depth+1)
	case c == '[':
		return p.array(i, depth+1)
	case c == '"':
		str, j := p.str(i)
		return textValue(String, str), j
	case c == '-' || (c >= '0' && c <= '9'):
		n := number.Scan(s, i)
		if n <= 0 {
			if refHasWord(s, i+1, "Infinity") {
				p.fail(ErrNonFinite, i, "-Infinity is not a JSON number")
			} else {
				p.fail(ErrSyntax, i-n, "invalid number")
			}
			return Value{}, i
		}
		return textValue(Number, s[i:i+n]), i + n
	case c == 't' && refHasWord(s, i, "true"):
		return Value{kind: Bool, b: true}, i + 4
	case c == 'f' && refHasWord(s, i, "false"):
		return Value{kind: Bool}, i + 5
	case c == 'n' && refHasWord(s, i, "null"):
		return Value{}, i + 4
	case refHasWord(s, i, "NaN"), refHasWord(s, i, "Infinity"), refHasWord(s, i, "+Infinity"):
		p.fail(ErrNonFinite, i, "NaN and Infinity are not JSON numbers")
	default:
		p.fail(ErrSyntax, i, "unexpected "+jsontext.Describe(s, i))
	}
	return Value{}, i
}

func refHasWord(s string, i int, w string) bool {
	return len(s)-i >= len(w) && s[i:i+len(w)] == w
}

func (p *refParser) array(i, depth int) (Value, int) {
	if depth > p.maxDepth {
		p.fail(ErrTooDeep, i, "more than "+strconv.Itoa(p.maxDepth)+" levels")
		return Value{}, i
	}
	base := len(p.vals)
	i = p.skip(i + 1)
	if i < len(p.s) && p.s[i] == ']' {
		return arrayValue([]Value{}), i + 1
	}
	// As object gathers its first members, for the same reason.
	var small [refSmallGather]Value
	n := 0
	for {
		var v Value
		v, i = p.value(i, depth)
		if p.err != nil {
			return Value{}, i
		}
		switch {
		case n < len(small):
			small[n] = v
		case n == len(small):
			p.vals = append(p.vals, small[:]...)
			fallthrough
		default:
			p.vals = refPush(p.vals, v)
		}
		n++
		var more bool
		if i, more = p.next(i, ']', "array"); !more {
			break
		}
	}
	if p.err != nil {
		return Value{}, i
	}
	var carve func(int) []Value
	if p.a != nil {
		carve = p.a.newVals
	}
	if n <= len(small) {
		return arrayValue(refKeep(small[:n], carve)), i
	}
	return arrayValue(refPop(&p.vals, base, carve)), i
}

// next reads what follows an element of an array or a member of an
// object: a ',' before another, or the closing bracket. more is false at
// the bracket, and on a syntax error, which it records.
func (p *refParser) next(i int, closing byte, what string) (_ int, more bool) {
	i = p.skip(i)
	if i < len(p.s) && p.s[i] == ',' {
		return p.skip(i + 1), true
	}
	if i < len(p.s) && p.s[i] == closing {
		return i + 1, false
	}
	p.fail(ErrSyntax, i, "expected ',' or '"+string(closing)+"' in "+what+", found "+jsontext.Describe(p.s, i))
	return i, false
}

// refPush appends v to a scratch stack, doubling it when full: append grows
// a large slice by a quarter at a time, which for an object of a million
// members leaves four times its size behind as garbage, all of it standing
// until the collector runs; doubling leaves its size once.
func refPush[T any](stack []T, v T) []T {
	if len(stack) == cap(stack) && cap(stack) >= 1024 {
		grown := make([]T, len(stack), 2*cap(stack))
		copy(grown, stack)
		stack = grown
	}
	return append(stack, v)
}

// refPop moves what a container pushed onto stack since base into a slice of
// its own, carved from the arena when carve is not nil.
func refPop[T any](stack *[]T, base int, carve func(int) []T) []T {
	out := refKeep((*stack)[base:], carve)
	clear((*stack)[base:])
	*stack = (*stack)[:base]
	return out
}

// refKeep copies elems into a slice of their own, carved from the arena
// when carve is not nil.
func refKeep[T any](elems []T, carve func(int) []T) []T {
	var out []T
	if carve != nil {
		out = carve(len(elems))
	} else {
		out = make([]T, len(elems))
	}
	copy(out, elems)
	return out
}

func (p *refParser) object(start, depth int) (Value, int) {
	if depth > p.maxDepth {
		p.fail(ErrTooDeep, start, "more than "+strconv.Itoa(p.maxDepth)+" levels")
		return Value{}, start
	}
	base := len(p.mems)
	i := p.skip(start + 1)
	if i < len(p.s) && p.s[i] == '}' {
		return objectValue([]Member{}), i + 1
	}
	// The first members are gathered in an array on the goroutine's
	// stack, and only a larger object's go on to p.mems: writing them
	// there, and clearing them after, each took a write barrier while
	// the collector ran, and an arguments object is mostly small.
	var small [refSmallGather]Member
	n := 0
	for {
		if i >= len(p.s) || p.s[i] != '"' {
			p.fail(ErrSyntax, i, "expected a string key, found "+jsontext.Describe(p.s, i))
			return Value{}, i
		}
		var key string
		key, i = p.str(i)
		if p.err != nil {
			return Value{}, i
		}
		i = p.skip(i)
		if i >= len(p.s) || p.s[i] != ':' {
			p.fail(ErrSyntax, i, "expected ':' after object key, found "+jsontext.Describe(p.s, i))
			return Value{}, i
		}
		var v Value
		v, i = p.value(p.skip(i+1), depth)
		if p.err != nil {
			return Value{}, i
		}
		switch {
		case n < len(small):
			small[n] = Member{Key: key, Value: v}
		case n == len(small):
			p.mems = append(p.mems, small[:]...)
			fallthrough
		default:
			p.mems = refPush(p.mems, Member{Key: key, Value: v})
		}
		n++
		var more bool
		if i, more = p.next(i, '}', "object"); !more {
			break
		}
	}
	if p.err != nil {
		return Value{}, i
	}
	var obj []Member
	if n <= len(small) {
		obj = p.sortedMembers(small[:n])
	} else {
		obj = p.sortedMembers(p.mems[base:])
		clear(p.mems[base:])
		p.mems = p.mems[:base]
	}
	for k := 1; k < len(obj); k++ {
		if obj[k].Key == obj[k-1].Key {
			p.fail(ErrDuplicateKey, p.keyOffset(start, obj[k].Key), "key "+strconv.Quote(obj[k].Key)+" appears twice")
			return Value{}, i
		}
	}
	return objectValue(obj), i
}

// refSmallGather is how many members object gathers on the goroutine's
// stack; tool arguments nearly always fit.
const refSmallGather = 8

// refSmallObject is the most members an object may have for sortedMembers
// to sort it through an array of indices.
const refSmallObject = 16

// sortedMembers copies the members of an object into a slice of their
// own, sorted by key, as refPop and sortMembers would. A small object's
// members are sorted as indices and then each written once, to its
// place: moving the wide members about in the result would cost a copy
// each, and a write barrier each while the collector runs.
func (p *refParser) sortedMembers(stack []Member) []Member {
	n := len(stack)
	var out []Member
	if p.a != nil {
		out = p.a.newMems(n)
	} else {
		out = make([]Member, n)
	}
	if n > refSmallObject {
		copy(out, stack)
		sortMembers(out)
	} else {
		// An insertion sort, stable as sortMembers' is, though only
		// the order of unequal keys can matter: equal ones are an error.
		var idx [refSmallObject]uint8
		for k := range n {
			key := stack[k].Key
			j := k
			for ; j > 0 && keyLess(key, stack[idx[j-1]].Key); j-- {
				idx[j] = idx[j-1]
			}
			idx[j] = uint8(k)
		}
		for k, x := range idx[:n] {
			out[k] = stack[x]
		}
	}
	return out
}

// keyOffset finds where key appears the second time among the members of
// the object at start. It runs only to report an error, so it simply scans
// the object again.
func (p *refParser) keyOffset(start int, key string) int {
	seen := false
	i := p.skip(start + 1)
	for i < len(p.s) && p.s[i] == '"' {
		k, j := p.str(i)
		if k == key {
			if seen {
				return i
			}
			seen = true
		}
		// Skip the value with a throwaway refParse; it parsed before.
		sub := refParser{s: p.s, maxDepth: p.maxDepth, keepInvalid: p.keepInvalid}
		_, j = sub.value(sub.skip(sub.skip(j)+1), 0)
		j = p.skip(j)
		if j < len(p.s) && p.s[j] == ',' {
			j++
		}
		i = p.skip(j)
	}
	return start
}

// str reads the string literal at s[i] == '"': the keys and short values
// that are one run of plain bytes at once, the others with strRest. It
// reads eight bytes at once while eight are left in the document, which
// they nearly always are, the literal's closing quote and what follows
// it included (see refNotPlain); the runs that strRest reads on, between
// escapes, are too short for that to pay.
func (p *refParser) str(i int) (string, int) {
	s := p.s
	j := i + 1
	for ; len(s)-j >= 8; j += 8 {
		if m := refNotPlain(refWord(s, j)); m != 0 {
			j += bits.TrailingZeros64(m) / 8
			if s[j] == '"' {
				return s[i+1 : j], j + 1
			}
			return (*parser)(p).strRest(i+1, j)
		}
	}
	j += plainRun(s[j:])
	if j < len(s) && s[j] == '"' {
		return s[i+1 : j], j + 1
	}
	return (*parser)(p).strRest(i+1, j)
}

// refWord is the eight bytes of s from i, the first in the low byte.
func refWord(s string, i int) uint64 {
	return binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s[i:]), 8))
}

// refNotPlain marks with its high bit each byte of the refWord x that is not
// plain, or at least the first such byte: the high bit is set in x-spaces
// when a byte is below ' ', in x when it is not ASCII (the other terms
// happen to mark those too; this one says so), and in x^quotes-ones
// and x^backslashes-ones when it is '"' or '\\'. A byte that is not plain
// may borrow from the byte after it and so mark it, but a plain byte
// borrows from none, so the first mark is exact and the result is zero
// only when all eight bytes are plain.
func refNotPlain(x uint64) uint64 {
	return ((x - refSpaces) | x | ((x ^ refQuotes) - refOnes) | ((x ^ refBackslashes) - refOnes)) & refHighs
}

// Bytes repeated in each byte of a refWord, for refNotPlain.
const (
	refOnes        = 0x0101010101010101
	refHighs       = 0x80 * refOnes
	refSpaces      = ' ' * refOnes
	refQuotes      = '"' * refOnes
	refBackslashes = '\\' * refOnes
)
