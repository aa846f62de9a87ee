package value

// The scanner as it was before its objects were put in order as they
// were read and their commonest values and separators read without a
// call: FuzzParseAsBefore holds the scanner to it, byte for byte in its
// values and its errors. Generated from value/parse.go at 8d89450 by
// renaming its unexported names; not to be edited by hand.

import (
	"encoding/binary"
	"math/bits"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
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
	p.maxValues, p.values = lim.MaxValues, 0
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
type refParser struct {
	s        string
	maxDepth int
	// values counts the values read, against maxValues when it is over 0.
	maxValues, values int
	err               *Error
	vals              []Value
	mems              []Member
	buf               []byte
	a                 *arena // nil: allocate each container
	// keepInvalid keeps bytes that are not UTF-8 in strings, and writes
	// a lone surrogate escape as WTF-8, instead of failing
	// (Parser.ParseKeepInvalidUTF8).
	keepInvalid bool
}

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
	if p.values++; p.values > p.maxValues && p.maxValues > 0 {
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
		// the order of unequal keys can matter: equal refOnes are an error.
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
		sub := refParser{s: p.s, maxDepth: p.maxDepth}
		_, j = sub.value(sub.skip(sub.skip(j)+1), 0)
		j = p.skip(j)
		if j < len(p.s) && p.s[j] == ',' {
			j++
		}
		i = p.skip(j)
	}
	return start
}

// refPlainByte marks the bytes a string literal holds as they are: ASCII
// other than '"', '\\' and the control characters. Testing them with one
// load keeps the loops over the common strings (keys, short values) tight.
var refPlainByte = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// refPlainRun is the length of the run of plain bytes that s starts with.
// It is a function of its own so that its loop keeps to registers.
func refPlainRun(s string) int {
	for i := 0; i < len(s); i++ {
		if !refPlainByte[s[i]] {
			return i
		}
	}
	return len(s)
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
			return p.strRest(i+1, j)
		}
	}
	j += refPlainRun(s[j:])
	if j < len(s) && s[j] == '"' {
		return s[i+1 : j], j + 1
	}
	return p.strRest(i+1, j)
}

// refWord is the eight bytes of s from i, the first in the low byte.
func refWord(s string, i int) uint64 {
	return binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s[i:]), 8))
}

// refNotPlain marks with its high bit each byte of the refWord x that is not
// plain, or at least the first such byte: the high bit is set in x-refSpaces
// when a byte is below ' ', in x when it is not ASCII (the other terms
// happen to mark those too; this one says so), and in x^refQuotes-refOnes
// and x^refBackslashes-refOnes when it is '"' or '\\'. A byte that is not plain
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

// strRest reads on a string literal that starts at start, from j, the
// first byte of it that is not plain.
func (p *refParser) strRest(start, j int) (string, int) {
	s := p.s
	for j < len(s) {
		j += refPlainRun(s[j:])
		if j >= len(s) {
			break
		}
		switch c := s[j]; {
		case c == '"':
			return s[start:j], j + 1
		case c == '\\':
			return p.strEscaped(start, j)
		case c < 0x20:
			p.fail(ErrSyntax, j, "control character in string")
			return "", j
		default:
			r, size := utf8.DecodeRuneInString(s[j:])
			if r == utf8.RuneError && size <= 1 {
				if p.keepInvalid {
					j++
					continue
				}
				p.fail(ErrInvalidUTF8, j, "byte 0x"+strconv.FormatUint(uint64(c), 16)+" in string")
				return "", j
			}
			j += size
		}
	}
	p.fail(ErrSyntax, start-1, "unterminated string")
	return "", j
}

// refBigEscaped is the length past which strEscaped decodes into a buffer
// of the literal's length, handed out as the string (see reserve).
const refBigEscaped = 32 << 10

// reserve returns b, which has less than need bytes of room, with room
// for need bytes more (the callers check first: most literals never get
// here, or only while b is small). Once b would grow past
// refBigEscaped, it makes room for the whole rest of the literal, from j to
// its closing quote, at once: the decoded text is never longer than the
// escaped, so b grows no more, where append's steps would copy a long
// string over and over, leaving several times its length to the
// collector.
func (p *refParser) reserve(b []byte, j, need int) []byte {
	if len(b)+need <= refBigEscaped {
		return b // append's growth, while b is small
	}
	// Four bytes more: an escape reserves the four its rune may take
	// before the rest of the literal is known to hold it.
	nb := make([]byte, len(b), len(b)+max(refLiteralEnd(p.s, j)-j, need)+4)
	copy(nb, b)
	return nb
}

// refLiteralEnd is the index of the quote that closes the string literal s[j]
// is inside of, not escaped (s[j] itself not escaped either), or len(s).
func refLiteralEnd(s string, j int) int {
	from := j
	for {
		q := strings.IndexByte(s[j:], '"')
		if q < 0 {
			return len(s)
		}
		q += j
		n := 0
		for k := q - 1; k >= from && s[k] == '\\'; k-- {
			n++
		}
		if n%2 == 0 {
			return q
		}
		j = q + 1
	}
}

// strEscaped decodes a string with escapes, from the first backslash at j.
func (p *refParser) strEscaped(start, j int) (string, int) {
	s := p.s
	b := append(p.buf[:0], s[start:j]...)
	for j < len(s) {
		c := s[j]
		switch {
		case refPlainByte[c]:
			// Copy the whole run up to the next byte that needs a look,
			// not byte by byte: an arguments string inside a response
			// line is mostly such runs between its escaped refQuotes.
			k := j + 1 + refPlainRun(s[j+1:])
			if cap(b)-len(b) < k-j {
				b = p.reserve(b, j, k-j)
			}
			b = append(b, s[j:k]...)
			j = k
		case c == '"':
			if cap(b) > refBigEscaped {
				// A buffer of the string's own (see reserve), never
				// written again: the string, without a copy. p.buf keeps
				// its small buffer, which the next literal writes over.
				return unsafe.String(unsafe.SliceData(b), len(b)), j + 1
			}
			p.buf = b
			if p.a != nil {
				return p.a.newString(b), j + 1
			}
			return string(b), j + 1
		case c == '\\':
			if j+1 >= len(s) {
				p.fail(ErrSyntax, j, "unterminated string")
				return "", j
			}
			if cap(b)-len(b) < 4 {
				b = p.reserve(b, j, 4)
			}
			switch e := s[j+1]; e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r, n := p.unicodeEscape(j)
				if p.err != nil {
					return "", j
				}
				if refIsSurrogate(r) {
					// Only with keepInvalid: WTF-8, which is not UTF-8,
					// where AppendRune would write a valid U+FFFD.
					b = append(b, 0xE0|byte(r>>12), 0x80|byte(r>>6)&0x3F, 0x80|byte(r)&0x3F)
				} else {
					b = utf8.AppendRune(b, r)
				}
				j += n
				continue
			default:
				p.fail(ErrSyntax, j, "invalid escape \\"+string(rune(e)))
				return "", j
			}
			j += 2
		case c < 0x20:
			p.fail(ErrSyntax, j, "control character in string")
			return "", j
		default:
			r, size := utf8.DecodeRuneInString(s[j:])
			if r == utf8.RuneError && size <= 1 && !p.keepInvalid {
				p.fail(ErrInvalidUTF8, j, "byte 0x"+strconv.FormatUint(uint64(c), 16)+" in string")
				return "", j
			}
			if cap(b)-len(b) < size {
				b = p.reserve(b, j, size)
			}
			b = append(b, s[j:j+size]...)
			j += size
		}
	}
	p.fail(ErrSyntax, start-1, "unterminated string")
	return "", j
}

// unicodeEscape reads \uXXXX at s[j], and its low surrogate if it is a high
// one. A lone surrogate has no UTF-8 spelling, so it is invalid UTF-8,
// or, with keepInvalid, the surrogate itself.
func (p *refParser) unicodeEscape(j int) (rune, int) {
	r1, ok := jsontext.Hex4(p.s, j+2)
	if !ok {
		p.fail(ErrSyntax, j, "invalid \\u escape")
		return 0, 0
	}
	if r1 < 0xD800 || r1 > 0xDFFF {
		return r1, 6
	}
	if r1 <= 0xDBFF && refHasWord(p.s, j+6, "\\u") {
		if r2, ok := jsontext.Hex4(p.s, j+8); ok && r2 >= 0xDC00 && r2 <= 0xDFFF {
			return 0x10000 + (r1-0xD800)<<10 + (r2 - 0xDC00), 12
		}
	}
	if p.keepInvalid {
		return r1, 6
	}
	p.fail(ErrInvalidUTF8, j, "lone surrogate \\u"+p.s[j+2:j+6])
	return 0, 0
}

func refIsSurrogate(r rune) bool { return r >= 0xD800 && r <= 0xDFFF }
