package value

import (
	"errors"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/callgrade/callgrade/internal/errcode"
	"github.com/callgrade/callgrade/internal/jsontext"
	"github.com/callgrade/callgrade/internal/number"
)

// Limits bound what Parse accepts, so that hostile model output cannot make
// the scorer slow or crash it.
type Limits struct {
	// MaxDepth is the deepest nesting of arrays and objects; 0 means 256.
	MaxDepth int
	// MaxBytes is the longest input; 0 means 8 MiB.
	MaxBytes int
	// MaxValues is the most values (strings, numbers, booleans, nulls,
	// arrays and objects, each counted once) in one document; 0 means no
	// limit. A parsed value costs several times its text (a member of
	// {"k1":1,"k2":1,…} is ten bytes written and over fifty held), so a
	// long document of small values is bounded by its count, not its
	// length. A document longer than twice MaxValues bytes is counted
	// before it is parsed, so that being over is the error it gets even
	// where the parse would have refused it sooner for another reason.
	MaxValues int
}

func (l Limits) withDefaults() Limits {
	if l.MaxDepth <= 0 {
		l.MaxDepth = jsontext.DefaultMaxDepth
	}
	if l.MaxBytes <= 0 {
		l.MaxBytes = jsontext.DefaultMaxBytes
	}
	return l
}

// The errors Parse rejects input with, in Error.Err, for errors.Is.
var (
	ErrSyntax       = errors.New("invalid JSON")      // not JSON
	ErrDuplicateKey = errors.New("duplicate key")     // an object names a key twice
	ErrNonFinite    = errors.New("non-finite number") // NaN or Infinity, which JSON has no spelling for
	ErrInvalidUTF8  = errors.New("invalid UTF-8")     // a string is not valid UTF-8
	ErrTooDeep      = errors.New("nesting too deep")  // nesting deeper than Limits.MaxDepth
	ErrTooLarge     = errors.New("input too large")   // input longer than Limits.MaxBytes, or more values than Limits.MaxValues
)

// codes are the error codes (callgrade.Code) of the errors: what is not
// JSON is a syntax error wherever it is read, and the bounds of Limits are
// limits like any other.
var codes = map[error]errcode.Code{
	ErrSyntax: errcode.SyntaxError, ErrDuplicateKey: errcode.DuplicateKey, ErrNonFinite: errcode.InvalidValue,
	ErrInvalidUTF8: errcode.SyntaxError, ErrTooDeep: errcode.LimitExceeded, ErrTooLarge: errcode.LimitExceeded,
}

// Error is the error Parse returns: why the input was rejected and the byte
// offset where it was seen.
type Error struct {
	Err    error // why: ErrSyntax, ErrDuplicateKey, ErrNonFinite, ErrInvalidUTF8, ErrTooDeep or ErrTooLarge
	Offset int   // byte offset into the input; -1 when there is no input
	Detail string
}

// Error returns the reason, the offset and the detail.
func (e *Error) Error() string {
	var msg string
	if e.Err != nil {
		msg = e.Err.Error()
	}
	if e.Offset >= 0 {
		msg += " at byte " + strconv.Itoa(e.Offset)
	}
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	return msg
}

// Is makes errors.Is(err, ErrDuplicateKey) and its siblings work, and
// errors.Is(err, code) for the error's code (callgrade.Code).
func (e *Error) Is(target error) bool {
	return e.Err == target || codes[e.Err] == target
}

// Parse parses one JSON document (RFC 8259, whitespace around it
// allowed) under the default limits (the zero Limits); Parser.Parse takes
// others, a nil *Parser allocating as Parse does. Strings without escapes
// share memory with s.
func Parse(s string) (Value, error) { return parse(s, Limits{}, nil) }

// parse parses s within lim, taking memory from a when it is not nil.
func parse(s string, lim Limits, a *arena) (Value, error) {
	p := parserPool.Get().(*parser)
	v, err := p.parse(s, lim, a)
	parserPool.Put(p)
	return v, err
}

var parserPool = sync.Pool{New: func() any { return new(parser) }}

// parse parses s with p's scratch stacks, taking memory from a when it is
// not nil.
func (p *parser) parse(s string, lim Limits, a *arena) (Value, error) {
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
			return Value{}, tooMany(off, n)
		}
	}
	p.s, p.maxDepth, p.err, p.a = s, lim.MaxDepth, nil, a
	p.maxValues, p.left = lim.MaxValues, lim.MaxValues
	if p.left <= 0 {
		p.left = math.MaxInt
	}
	var v Value
	i := p.skip(0)
	if i < len(s) && s[i] == '{' {
		// An arguments object, as value would read it, without its call.
		p.left--
		v, i = p.object(i, 1)
	} else {
		v, i = p.value(i, 0)
	}
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
		// Only a failed parse leaves anything on them.
		if len(p.vals)|len(p.mems) != 0 {
			clear(p.vals)
			clear(p.mems)
		}
		p.vals, p.mems, p.buf = p.vals[:0], p.mems[:0], p.buf[:0]
	} else {
		p.vals, p.mems, p.buf = nil, nil, nil
	}
	if err != nil {
		return Value{}, err
	}
	return v, nil
}

// parser is a recursive-descent scanner. Containers gather their first
// elements on the goroutine's stack and any more on two scratch stacks,
// and are copied out once complete, so each array or object costs one
// allocation of exactly its size.
type parser struct {
	s        string
	maxDepth int
	// left is how many more values may be read: maxValues less those
	// read, or no limit (MaxInt) when maxValues is 0. One decrement and
	// one test a value, where counting up took two loads and two tests.
	maxValues, left int
	err             *Error
	vals            []Value
	mems            []Member
	buf             []byte
	a               *arena // nil: allocate each container
	// keepInvalid keeps bytes that are not UTF-8 in strings, and writes
	// a lone surrogate escape as WTF-8, instead of failing
	// (Parser.ParseKeepInvalidUTF8).
	keepInvalid bool
}

// tooMany is the error of a document past Limits.MaxValues, at the first
// value over.
func tooMany(off, max int) *Error {
	return &Error{Err: ErrTooLarge, Offset: off, Detail: "more than " + strconv.Itoa(max) + " values"}
}

func (p *parser) fail(why error, off int, detail string) {
	if p.err == nil {
		p.err = &Error{Err: why, Offset: off, Detail: detail}
	}
}

func (p *parser) skip(i int) int {
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

// skipSep is skip after a '[', '{', ':' or ',', which one space mostly
// follows in a model's output: that space is passed at once, where skip
// would test it against each kind of white space.
func (p *parser) skipSep(i int) int {
	if i < len(p.s) && p.s[i] == ' ' {
		i++
	}
	return p.skip(i)
}

func (p *parser) value(i, depth int) (Value, int) {
	s := p.s
	if i >= len(s) {
		p.fail(ErrSyntax, i, "unexpected end of input")
		return Value{}, i
	}
	if p.left--; p.left < 0 {
		if p.err == nil {
			p.err = tooMany(i, p.maxValues)
		}
		return Value{}, i
	}
	// Numbers first: object and array read their strings themselves.
	switch c := s[i]; {
	case c-'0' <= 9 || c == '-':
		n := number.Scan(s, i)
		if n <= 0 {
			if hasWord(s, i+1, "Infinity") {
				p.fail(ErrNonFinite, i, "-Infinity is not a JSON number")
			} else {
				p.fail(ErrSyntax, i-n, "invalid number")
			}
			return Value{}, i
		}
		return textValue(Number, s[i:i+n]), i + n
	case c == '"':
		str, j := p.str(i)
		return textValue(String, str), j
	case c == '{':
		return p.object(i, depth+1)
	case c == '[':
		return p.array(i, depth+1)
	case c == 't' && hasWord(s, i, "true"):
		return Value{kind: Bool, b: true}, i + 4
	case c == 'f' && hasWord(s, i, "false"):
		return Value{kind: Bool}, i + 5
	case c == 'n' && hasWord(s, i, "null"):
		return Value{}, i + 4
	case hasWord(s, i, "NaN"), hasWord(s, i, "Infinity"), hasWord(s, i, "+Infinity"):
		p.fail(ErrNonFinite, i, "NaN and Infinity are not JSON numbers")
	default:
		p.fail(ErrSyntax, i, "unexpected "+jsontext.Describe(s, i))
	}
	return Value{}, i
}

func hasWord(s string, i int, w string) bool {
	return len(s)-i >= len(w) && s[i:i+len(w)] == w
}

func (p *parser) array(i, depth int) (Value, int) {
	if depth > p.maxDepth {
		p.fail(ErrTooDeep, i, "more than "+strconv.Itoa(p.maxDepth)+" levels")
		return Value{}, i
	}
	s := p.s
	base := len(p.vals)
	i = p.skipSep(i + 1)
	if i < len(s) && s[i] == ']' {
		return arrayValue([]Value{}), i + 1
	}
	// As object gathers its first members, for the same reason.
	var small [smallGather]Value
	n := 0
	for {
		var v Value
		if i < len(s) && s[i] == '"' && p.left > 0 {
			// As object reads a string value.
			p.left--
			var text string
			text, i = p.str(i)
			v = textValue(String, text)
		} else {
			v, i = p.value(i, depth)
		}
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
			p.vals = push(p.vals, v)
		}
		n++
		// As object reads what follows a member.
		if i >= len(s) || s[i] != ',' {
			if i = p.skip(i); i >= len(s) || s[i] != ',' {
				break
			}
		}
		i = p.skipSep(i + 1)
	}
	if i >= len(s) || s[i] != ']' {
		p.fail(ErrSyntax, i, "expected ',' or ']' in array, found "+jsontext.Describe(s, i))
		return Value{}, i
	}
	out := p.newVals(n)
	if n <= len(small) {
		copy(out, small[:n])
	} else {
		copy(out, p.vals[base:])
		clear(p.vals[base:])
		p.vals = p.vals[:base]
	}
	return arrayValue(out), i + 1
}

// push appends v to a scratch stack, doubling it when full: append grows
// a large slice by a quarter at a time, which for an object of a million
// members leaves four times its size behind as garbage, all of it standing
// until the collector runs; doubling leaves its size once.
func push[T any](stack []T, v T) []T {
	if len(stack) == cap(stack) && cap(stack) >= 1024 {
		grown := make([]T, len(stack), 2*cap(stack))
		copy(grown, stack)
		stack = grown
	}
	return append(stack, v)
}

func (p *parser) object(start, depth int) (Value, int) {
	if depth > p.maxDepth {
		p.fail(ErrTooDeep, start, "more than "+strconv.Itoa(p.maxDepth)+" levels")
		return Value{}, start
	}
	s := p.s
	base := len(p.mems)
	i := p.skip(start + 1)
	if i < len(s) && s[i] == '}' {
		return objectValue([]Member{}), i + 1
	}
	// The first members are gathered in an array on the goroutine's
	// stack, and only a larger object's go on to p.mems: writing them
	// there, and clearing them after, each took a write barrier while
	// the collector ran, and an arguments object is mostly small.
	var small [smallGather]Member
	// order lists small's members by key, each put in its place as it
	// comes (the insertion sort sortedMembers does, one step at a time),
	// so that keys that come in order, as they mostly do, cost one
	// comparison each and no pass of their own; dup tells whether one
	// came that order already held, the only way two can be equal.
	var order [smallGather]uint8
	n, dup, last := 0, false, "" // last: the greatest key in order
	for {
		if i >= len(s) || s[i] != '"' {
			p.fail(ErrSyntax, i, "expected a string key, found "+jsontext.Describe(s, i))
			return Value{}, i
		}
		var key string
		key, i = p.str(i)
		if p.err != nil {
			return Value{}, i
		}
		if i >= len(s) || s[i] != ':' {
			if i = p.skip(i); i >= len(s) || s[i] != ':' {
				p.fail(ErrSyntax, i, "expected ':' after object key, found "+jsontext.Describe(s, i))
				return Value{}, i
			}
		}
		var v Value
		if i = p.skipSep(i + 1); i < len(s) && s[i] == '"' && p.left > 0 {
			// A string, the commonest value, read as value would
			// read it, without its call.
			p.left--
			var text string
			text, i = p.str(i)
			v = textValue(String, text)
		} else {
			v, i = p.value(i, depth)
		}
		if p.err != nil {
			return Value{}, i
		}
		switch {
		case n < len(small):
			// Field by field: a composite literal is built aside,
			// cleared, and copied in.
			small[n].Key, small[n].Value = key, v
			if n == 0 || keyLess(last, key) {
				order[n], last = uint8(n), key
			} else {
				dup = place(&order, &small, n, last) || dup
			}
		case n == len(small):
			p.mems = append(p.mems, small[:]...)
			fallthrough
		default:
			p.mems = push(p.mems, Member{Key: key, Value: v})
		}
		n++
		// What follows: a ',' and another member, mostly at once, or the end.
		if i >= len(s) || s[i] != ',' {
			i = p.skip(i)
		}
		if i < len(s) && s[i] == ',' {
			i = p.skipSep(i + 1)
			continue
		}
		if i < len(s) && s[i] == '}' {
			i++
			break
		}
		p.fail(ErrSyntax, i, "expected ',' or '}' in object, found "+jsontext.Describe(s, i))
		return Value{}, i
	}
	if n <= len(small) {
		obj := p.newMems(n)
		for k, x := range order[:n] {
			obj[k] = small[x]
		}
		if !dup {
			return objectValue(obj), i
		}
		return p.noDuplicates(start, obj), i
	}
	obj := p.sortedMembers(p.mems[base:])
	clear(p.mems[base:])
	p.mems = p.mems[:base]
	return p.noDuplicates(start, obj), i
}

// noDuplicates returns the object of the sorted members obj, of the
// object at start, or fails on the first key in order that is there
// twice.
func (p *parser) noDuplicates(start int, obj []Member) Value {
	for k := 1; k < len(obj); k++ {
		if obj[k].Key == obj[k-1].Key {
			p.fail(ErrDuplicateKey, p.keyOffset(start, obj[k].Key), "key "+strconv.Quote(obj[k].Key)+" appears twice")
			return Value{}
		}
	}
	return objectValue(obj)
}

// place puts small[n] into order, which lists small[:n] by key, after
// the keys less than or equal to its own, and reports whether one of
// them was equal. Its key is not greater than last, the greatest there,
// which object has compared it with.
func place(order *[smallGather]uint8, small *[smallGather]Member, n int, last string) (dup bool) {
	key := small[n].Key
	if key == last {
		order[n] = uint8(n)
		return true
	}
	order[n] = order[n-1]
	j := n - 1
	for ; j > 0; j-- {
		prev := small[order[j-1]].Key
		if !keyLess(key, prev) {
			dup = key == prev
			break
		}
		order[j] = order[j-1]
	}
	order[j] = uint8(n)
	return dup
}

// smallGather is how many members object gathers on the goroutine's
// stack; tool arguments nearly always fit.
const smallGather = 8

// smallObject is the most members an object may have for sortedMembers
// to sort it through an array of indices. A binary insertion sort makes
// as few comparisons as slices.SortFunc (about n log n), and its moves
// are of bytes: an object of twenty members, as some tools' arguments
// are, took 5,200 instructions to sort through SortFunc's closure.
const smallObject = 64

// sortedMembers copies the members of an object into a slice of their
// own, sorted by key, as a copy and sortMembers would. A small object's
// members are sorted as indices and then each written once, to its
// place: moving the wide members about in the result would cost a copy
// each, and a write barrier each while the collector runs.
func (p *parser) sortedMembers(stack []Member) []Member {
	n := len(stack)
	out := p.newMems(n)
	if n > smallObject {
		copy(out, stack)
		sortMembers(out)
	} else {
		// A binary insertion sort, stable as sortMembers' is, though
		// only the order of unequal keys can matter: equal ones are an
		// error. A key after the greatest so far, the common case, takes
		// one comparison.
		var idx [smallObject]uint8
		for k := range n {
			key, lo := stack[k].Key, k
			if k > 0 && keyLess(key, stack[idx[k-1]].Key) {
				// The first place whose key is greater than key.
				hi := k - 1
				for lo = 0; lo < hi; {
					if mid := int(uint(lo+hi) >> 1); keyLess(key, stack[idx[mid]].Key) {
						hi = mid
					} else {
						lo = mid + 1
					}
				}
				copy(idx[lo+1:k+1], idx[lo:k])
			}
			idx[lo] = uint8(k)
		}
		for k, x := range idx[:n] {
			out[k] = stack[x]
		}
	}
	return out
}

// newVals and newMems return a slice for an array's n elements or an
// object's n members, from the arena when there is one.
func (p *parser) newVals(n int) []Value {
	if p.a != nil {
		return p.a.newVals(n)
	}
	return make([]Value, n)
}

func (p *parser) newMems(n int) []Member {
	if p.a != nil {
		return p.a.newMems(n)
	}
	return make([]Member, n)
}

// keyOffset finds where key appears the second time among the members of
// the object at start. It runs only to report an error, so it simply scans
// the object again.
func (p *parser) keyOffset(start int, key string) int {
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
		// Skip the value with a throwaway parse; it parsed before.
		sub := parser{s: p.s, maxDepth: p.maxDepth, left: math.MaxInt, keepInvalid: p.keepInvalid}
		_, j = sub.value(sub.skip(sub.skip(j)+1), 0)
		j = p.skip(j)
		if j < len(p.s) && p.s[j] == ',' {
			j++
		}
		i = p.skip(j)
	}
	return start
}

// plainByte marks the bytes a string literal holds as they are: ASCII
// other than '"', '\\' and the control characters. Testing them with one
// load keeps the loops over the common strings (keys, short values) tight.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// plainRun is the length of the run of plain bytes that s starts with.
// It is a function of its own so that its loop keeps to registers.
func plainRun(s string) int {
	for i := 0; i < len(s); i++ {
		if !plainByte[s[i]] {
			return i
		}
	}
	return len(s)
}

// str reads the string literal at s[i] == '"': the keys and short values
// that are one run of plain bytes at once, the others with strRest. It
// reads eight bytes at once while eight are left in the document, which
// they nearly always are, the literal's closing quote and what follows it
// included (see jsontext.NotPlain); the runs that strRest reads on,
// between escapes, are too short for that to pay.
func (p *parser) str(i int) (string, int) {
	s := p.s
	j := i + 1
	for ; len(s)-j >= 8; j += 8 {
		if m := jsontext.NotPlain(jsontext.Word(s, j)); m != 0 {
			j += bits.TrailingZeros64(m) / 8
			if s[j] == '"' {
				return s[i+1 : j], j + 1
			}
			return p.strRest(i+1, j)
		}
	}
	j += plainRun(s[j:])
	if j < len(s) && s[j] == '"' {
		return s[i+1 : j], j + 1
	}
	return p.strRest(i+1, j)
}

// strRest reads on a string literal that starts at start, from j, the
// first byte of it that is not plain.
func (p *parser) strRest(start, j int) (string, int) {
	s := p.s
	for j < len(s) {
		j += plainRun(s[j:])
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

// bigEscaped is the length past which strEscaped decodes into a buffer
// of the literal's length, handed out as the string (see reserve).
const bigEscaped = 32 << 10

// reserve returns b, which has less than need bytes of room, with room
// for need bytes more (the callers check first: most literals never get
// here, or only while b is small). Once b would grow past
// bigEscaped, it makes room for the whole rest of the literal, from j to
// its closing quote, at once: the decoded text is never longer than the
// escaped, so b grows no more, where append's steps would copy a long
// string over and over, leaving several times its length to the
// collector.
func (p *parser) reserve(b []byte, j, need int) []byte {
	if len(b)+need <= bigEscaped {
		return b // append's growth, while b is small
	}
	// Four bytes more: an escape reserves the four its rune may take
	// before the rest of the literal is known to hold it.
	nb := make([]byte, len(b), len(b)+max(literalEnd(p.s, j)-j, need)+4)
	copy(nb, b)
	return nb
}

// literalEnd is the index of the quote that closes the string literal s[j]
// is inside of, not escaped (s[j] itself not escaped either), or len(s).
func literalEnd(s string, j int) int {
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
func (p *parser) strEscaped(start, j int) (string, int) {
	s := p.s
	b := append(p.buf[:0], s[start:j]...)
	for j < len(s) {
		c := s[j]
		switch {
		case plainByte[c]:
			// Copy the whole run up to the next byte that needs a look,
			// not byte by byte: an arguments string inside a response
			// line is mostly such runs between its escaped quotes.
			k := j + 1 + plainRun(s[j+1:])
			if cap(b)-len(b) < k-j {
				b = p.reserve(b, j, k-j)
			}
			b = append(b, s[j:k]...)
			j = k
		case c == '"':
			if cap(b) > bigEscaped {
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
				if isSurrogate(r) {
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
func (p *parser) unicodeEscape(j int) (rune, int) {
	r1, ok := jsontext.Hex4(p.s, j+2)
	if !ok {
		p.fail(ErrSyntax, j, "invalid \\u escape")
		return 0, 0
	}
	if r1 < 0xD800 || r1 > 0xDFFF {
		return r1, 6
	}
	if r1 <= 0xDBFF && hasWord(p.s, j+6, "\\u") {
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

func isSurrogate(r rune) bool { return r >= 0xD800 && r <= 0xDFFF }
