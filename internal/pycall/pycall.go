// Package pycall reads the Python call syntax that models write tool calls
// in, such as `[f(a=1, b="x"), g.h(c=[1, 2])]`: the answers of BFCL's
// prompting models, and the text that the pythonic tool parsers of vLLM
// and SGLang read. The BFCL importer and the response package both read
// it here, so that the two never disagree about a call.
package pycall

import (
	"fmt"
	"math/big"
	"math/bits"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/callgrade/callgrade/internal/jsontext"
	"github.com/callgrade/callgrade/value"
)

// Call is one function call read from Python call syntax.
type Call struct {
	Name string
	// Args is a JSON object (Parse's): the keyword arguments in the order
	// written, each number as the JSON spelling of its Python literal (an
	// int stays an int, a float keeps a fraction or an exponent).
	Args string
	// Value is the same object as a value.Value (ParseValues').
	Value value.Value
	Start int // byte offset of the call's name in the text
	End   int // byte offset just past its closing parenthesis
}

// SyntaxError is Python call syntax that cannot be read, with its place.
type SyntaxError struct {
	Offset int // byte offset in the text
	Line   int // 1-based
	Column int // 1-based, in characters
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

// MaxDepth bounds the nesting of lists, tuples and dicts.
const MaxDepth = 256

// Parse reads a list of calls `[f(a=1, b="x"), g.h(c=[1, 2])]`, or calls
// without the brackets (`f(a=1), g(b=2)`, one call alone). Arguments are keyword arguments whose values are literals: strings
// (with their prefixes, escapes and implicit concatenation), numbers,
// True, False, None, lists, tuples (as lists) and dicts with string keys.
// Anything else (a positional argument, a variable, a call inside the
// arguments, an operator) and any syntax error is a *SyntaxError with its
// position. With the error come the calls of the list that were complete
// before it, so that a caller can keep them.
func Parse(src string) ([]Call, error) {
	// The JSON of the arguments is about as long as their Python.
	calls, _, err := parse(nil, src, &jsonSink{out: make([]byte, 0, len(src))}, -1)
	return calls, err
}

// ParseValues is Parse with each call's arguments as Value, for a reader
// that compares them: it does without the JSON text, and the order of
// the keys.
func ParseValues(src string) ([]Call, error) { return AppendValues(nil, src, nil) }

// AppendValues is ParseValues appending the calls to dst, the memory of
// their arguments taken from vp (value.Parser's Array and Object): a
// reader that parses its JSON with vp, and resets it when done with the
// values, reads Python calls as cheaply. A nil vp allocates.
func AppendValues(dst []Call, src string, vp *value.Parser) ([]Call, error) {
	calls, _, err := AppendValuesN(dst, src, vp, -1)
	return calls, err
}

// AppendValuesN is AppendValues reading at most n calls of a list (all
// of them when n is negative): a reader that bounds the calls of a text
// reads no more of a list of a million. When the list goes on past the n
// calls read, more is the offset in src where the next one starts, and
// the rest of src is not read; more is -1 otherwise.
func AppendValuesN(dst []Call, src string, vp *value.Parser, n int) (calls []Call, more int, err error) {
	v := valueSinks.Get().(*valueSink)
	v.p = vp
	defer v.release()
	// The calls are read into v's, then appended to dst at once: a dst
	// without room for them grows once rather than at each doubling.
	read, more, err := parse(v.calls[:0], src, v, n)
	v.calls = read
	calls = append(dst, read...)
	if calls == nil && err == nil && more < 0 {
		calls = []Call{} // as parse says it
	}
	return calls, more, err
}

// parse appends the calls of src to calls, at most n of a list (all of
// them when n is negative); more is where the list goes on past them, or
// -1.
func parse(calls []Call, src string, out sink, n int) (_ []Call, more int, err error) {
	p := &parser{src: src, out: out}
	p.space()
	if p.peek() == '[' {
		p.pos++
		p.space()
		for read := 0; p.peek() != ']'; read++ {
			if read == n {
				return calls, p.pos, nil
			}
			c, err := p.call()
			if err != nil {
				return calls, -1, err
			}
			calls = append(calls, c)
			if !p.sep(']') {
				return calls, -1, p.errf("expected ',' or ']' after a call, found %s", p.found())
			}
		}
		p.pos++
	} else {
		// Calls without brackets, separated by commas: a Python tuple of
		// calls, which BFCL (it adds the brackets) and ACEBench read too.
		for read := 0; ; read++ {
			if read > 0 && n >= 0 && read >= n {
				return calls, p.pos, nil
			}
			c, err := p.call()
			if err != nil {
				return calls, -1, err
			}
			calls = append(calls, c)
			p.space()
			if p.peek() != ',' {
				break
			}
			p.pos++
			p.space()
			if p.pos == len(p.src) {
				break // a trailing comma, as a tuple may have
			}
		}
	}
	p.space()
	if p.pos < len(p.src) {
		return calls, -1, p.errf("unexpected %s after the calls", p.found())
	}
	if calls == nil {
		calls = []Call{}
	}
	return calls, -1, nil
}

// Literal reads one Python literal, white space around it allowed, and
// returns it as JSON text: what ast.literal_eval accepts of the values a
// call's arguments may hold.
func Literal(src string) (string, error) {
	j := &jsonSink{}
	p := &parser{src: src, out: j}
	p.space()
	if _, err := p.value(); err != nil {
		return "", err
	}
	p.space()
	if p.pos < len(p.src) {
		return "", p.errf("unexpected %s after the value", p.found())
	}
	return string(j.out), nil
}

type parser struct {
	src   string
	pos   int
	depth int
	out   sink // takes the values read
}

func (p *parser) peek() byte {
	if p.pos < len(p.src) {
		return p.src[p.pos]
	}
	return 0
}

// errf makes a SyntaxError at the current position.
func (p *parser) errf(format string, a ...any) *SyntaxError {
	return p.errAt(p.pos, format, a...)
}

func (p *parser) errAt(off int, format string, a ...any) *SyntaxError {
	line := 1 + strings.Count(p.src[:off], "\n")
	start := strings.LastIndexByte(p.src[:off], '\n') + 1
	return &SyntaxError{Offset: off, Line: line, Column: 1 + utf8.RuneCountInString(p.src[start:off]), Msg: fmt.Sprintf(format, a...)}
}

func (p *parser) found() string {
	if p.pos >= len(p.src) {
		return "the end of the text"
	}
	r, _ := utf8.DecodeRuneInString(p.src[p.pos:])
	return strconv.QuoteRune(r)
}

// space skips white space, line continuations and comments.
func (p *parser) space() {
	// Nothing to skip, as between most tokens, costs no call.
	if p.pos >= len(p.src) || spaceStart[p.src[p.pos]] {
		p.skipSpace()
	}
}

// spaceStart holds the bytes that may start white space, a line
// continuation or a comment: all those up to ' ', '#' and '\\'.
var spaceStart = func() (t [256]bool) {
	for c := 0; c <= ' '; c++ {
		t[c] = true
	}
	t['#'], t['\\'] = true, true
	return t
}()

func (p *parser) skipSpace() {
	src, i := p.src, p.pos
	for i < len(src) {
		switch c := src[i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			i++
		case c == '\\' && i+1 < len(src) && src[i+1] == '\n':
			i += 2
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		default:
			p.pos = i
			return
		}
	}
	p.pos = i
}

// sep steps over the white space and the comma after an item of a list
// that close ends, and reports false when neither follows.
func (p *parser) sep(close byte) bool {
	p.space()
	if p.peek() == ',' {
		p.pos++
		p.spaceAfter()
		return true
	}
	return p.peek() == close
}

// spaceAfter is space after a ',' or a ':', where the one space that
// most have costs no call.
func (p *parser) spaceAfter() {
	if i := p.pos; i+1 < len(p.src) && p.src[i] == ' ' && !spaceStart[p.src[i+1]] {
		p.pos++
		return
	}
	p.space()
}

func isIdentStart(r rune) bool { return r == '_' || unicode.IsLetter(r) }
func isIdentPart(r rune) bool  { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// identNFKC is the name Python gives the identifier s: it reads each in
// NFKC ("All identifiers are converted into the normal form NFKC while
// parsing"), so that ｒｅｇｉｏｎ=1 is region=1, as BFCL's and ACEBench's
// checkers read it. True, False and None are not identifiers here, and
// are read as written.
func identNFKC(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return norm.NFKC.String(s)
		}
	}
	return s
}

// ident reads a Python identifier, or returns "".
func (p *parser) ident() string {
	src, start, i := p.src, p.pos, p.pos
	// ASCII, most names, a byte a step without decoding.
	if i < len(src) && identByte[src[i]] == identLetter {
		i++
		for i < len(src) && identByte[src[i]] != 0 {
			i++
		}
	}
	if i < len(src) && src[i] >= utf8.RuneSelf {
		i = identRest(src, start, i)
	}
	p.pos = i
	return src[start:i]
}

// identRest reads on from i, decoding runes, the identifier that starts
// at start.
func identRest(src string, start, i int) int {
	for i < len(src) {
		if c := src[i]; c < utf8.RuneSelf {
			if identByte[c] == identLetter || i > start && identByte[c] == identDigit {
				i++
				continue
			}
			break
		}
		r, n := utf8.DecodeRuneInString(src[i:])
		if i == start && !isIdentStart(r) || i > start && !isIdentPart(r) {
			break
		}
		i += n
	}
	return i
}

// The ASCII bytes of identifiers, as identByte tells them.
const (
	identLetter = 1 // a letter or '_', which may start one
	identDigit  = 2
)

var identByte = func() (t [256]uint8) {
	for c := 0; c < utf8.RuneSelf; c++ {
		switch {
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			t[c] = identLetter
		case c >= '0' && c <= '9':
			t[c] = identDigit
		}
	}
	return t
}()

// keySet tells the keys of one object apart, to refuse a repeated one; a
// map only for the rare object that has many.
type keySet struct {
	list []string
	big  map[string]bool
}

// add adds k, and reports false when k was there already. It takes and
// returns the set by value, so that a set and the array it starts in
// stay on the stack.
func (s keySet) add(k string) (keySet, bool) {
	if s.big != nil {
		if s.big[k] {
			return s, false
		}
		s.big[k] = true
		return s, true
	}
	for _, x := range s.list {
		if x == k {
			return s, false
		}
	}
	s.list = append(s.list, k)
	if len(s.list) > 16 {
		s.big = make(map[string]bool, 2*len(s.list))
		for _, x := range s.list {
			s.big[x] = true
		}
	}
	return s, true
}

// call reads name(kw=value, ...), the name possibly dotted.
func (p *parser) call() (Call, error) {
	start := p.pos
	name := p.ident()
	if name == "" {
		return Call{}, p.errf("expected a function name, found %s", p.found())
	}
	for p.peek() == '.' {
		p.pos++
		part := p.ident()
		if part == "" {
			return Call{}, p.errf("expected a name after '.', found %s", p.found())
		}
		name = p.src[start:p.pos]
	}
	name = identNFKC(name)
	p.space()
	if p.peek() != '(' {
		return Call{}, p.errAt(start, "expected a call name(...), found %q without arguments", name)
	}
	p.pos++
	p.out.begin(true)
	var room [8]string // the first keys, where they cost no allocation
	keys := keySet{list: room[:0]}
	p.space()
	for p.peek() != ')' {
		kwStart := p.pos
		kw := p.ident()
		p.space()
		if kw == "" || p.peek() != '=' || p.pos+1 < len(p.src) && p.src[p.pos+1] == '=' {
			return Call{}, p.errAt(kwStart, "call of %s: expected a keyword argument name=value (positional arguments are not supported)", name)
		}
		kw = identNFKC(kw)
		var fresh bool
		if keys, fresh = keys.add(kw); !fresh {
			return Call{}, p.errAt(kwStart, "call of %s: keyword argument %q repeated", name, kw)
		}
		p.pos++
		p.space()
		p.out.key(kw)
		if _, err := p.value(); err != nil {
			return Call{}, err
		}
		if !p.sep(')') {
			return Call{}, p.errf("call of %s: expected ',' or ')' after an argument, found %s", name, p.found())
		}
	}
	p.pos++
	p.out.end()
	args, v := p.out.finish()
	return Call{Name: name, Args: args, Value: v, Start: start, End: p.pos}, nil
}

// The kinds of value, for messages.
const (
	kindNull = iota
	kindBool
	kindNumber
	kindString
	kindList
	kindDict
)

var kindNames = [...]string{"null", "a boolean", "a number", "a string", "a list", "an object"}

// value reads a literal into p.out and returns its kind.
func (p *parser) value() (int, error) {
	if p.depth >= MaxDepth {
		return 0, p.errf("nested deeper than %d levels", MaxDepth)
	}
	c := p.peek()
	switch {
	case c == '[':
		return kindList, p.sequence('[', ']')
	case c == '(':
		return p.tuple()
	case c == '{':
		return kindDict, p.dict()
	case c == '"' || c == '\'':
		return kindString, p.stringValue()
	case c == '-' || c == '+' || c == '.' || c >= '0' && c <= '9':
		return kindNumber, p.number()
	case c == 0:
		return 0, p.errf("expected a value, found the end of the text")
	}
	start := p.pos
	word := p.ident()
	if word == "" {
		return 0, p.errf("expected a value, found %s", p.found())
	}
	if (p.peek() == '"' || p.peek() == '\'') && prefixOK(word) {
		p.pos = start
		return kindString, p.stringValue()
	}
	switch word {
	case "True", "False":
		p.out.boolean(word == "True")
		return kindBool, nil
	case "None":
		p.out.null()
		return kindNull, nil
	}
	p.space()
	if p.peek() == '(' || p.peek() == '.' {
		return 0, p.errAt(start, "a call or an attribute (%s...) is not a literal value", word)
	}
	return 0, p.errAt(start, "the name %s is not a literal value", word)
}

// tuple reads a tuple as a list; (x) is x.
func (p *parser) tuple() (int, error) {
	n, comma, kind, err := p.elements('(', ')')
	if err != nil {
		return 0, err
	}
	if n == 1 && !comma {
		p.out.unwrap()
		return kind, nil
	}
	p.out.end()
	return kindList, nil
}

// sequence reads a list.
func (p *parser) sequence(open, close byte) error {
	if _, _, _, err := p.elements(open, close); err != nil {
		return err
	}
	p.out.end()
	return nil
}

// elements reads the elements of a list or tuple into an array, which it
// leaves open, and says how many there were, whether a comma followed the
// last, and the kind of the last.
func (p *parser) elements(open, close byte) (n int, comma bool, kind int, err error) {
	start := p.pos
	p.pos++
	p.depth++ // down again when it closes; an error ends the parse
	p.out.begin(false)
	p.space()
	for p.peek() != close {
		if kind, err = p.value(); err != nil {
			return 0, false, 0, err
		}
		n++
		p.space()
		comma = p.peek() == ','
		if !p.sep(close) {
			if p.pos >= len(p.src) {
				return 0, false, 0, p.errAt(start, "%q never closed", open)
			}
			return 0, false, 0, p.errf("expected ',' or %q, found %s", close, p.found())
		}
	}
	p.pos++
	p.depth--
	return n, comma, kind, nil
}

func (p *parser) dict() error {
	start := p.pos
	p.pos++
	p.depth++ // down again when it closes; an error ends the parse
	p.out.begin(true)
	var room [8]string // the first keys, where they cost no allocation
	keys := keySet{list: room[:0]}
	p.space()
	for p.peek() != '}' {
		kpos := p.pos
		if !p.atString() {
			// Read the key only to name its kind.
			p.out = discard{}
			kind, err := p.value()
			if err != nil {
				return err
			}
			return p.errAt(kpos, "a dict key must be a string, got %s", kindNames[kind])
		}
		k, err := p.text()
		if err != nil {
			return err
		}
		var fresh bool
		if keys, fresh = keys.add(k); !fresh {
			return p.errAt(kpos, "dict key %q repeated", k)
		}
		p.out.key(k)
		p.space()
		if p.peek() != ':' {
			return p.errf("expected ':' after a dict key, found %s", p.found())
		}
		p.pos++
		p.spaceAfter()
		if _, err := p.value(); err != nil {
			return err
		}
		if !p.sep('}') {
			if p.pos >= len(p.src) {
				return p.errAt(start, "'{' never closed")
			}
			return p.errf("expected ',' or '}', found %s", p.found())
		}
	}
	p.pos++
	p.depth--
	p.out.end()
	return nil
}

// atString reports whether a string literal, with or without a prefix,
// starts here.
func (p *parser) atString() bool {
	if c := p.peek(); c == '"' || c == '\'' {
		return true
	}
	save := p.pos
	w := p.ident()
	ok := w != "" && prefixOK(w) && (p.peek() == '"' || p.peek() == '\'')
	p.pos = save
	return ok
}

// prefixOK reports whether a word is a string prefix this parser reads:
// r, u (and their cases); bytes and f-strings are recognised so that
// stringLit can refuse them.
func prefixOK(w string) bool {
	// Lowered by hand: strings.ToLower allocates for each True, False
	// and None this is asked about.
	if len(w) > 2 {
		return false
	}
	var low [2]byte
	for i := range len(w) {
		low[i] = w[i]
		if 'A' <= w[i] && w[i] <= 'Z' {
			low[i] += 'a' - 'A'
		}
	}
	switch string(low[:len(w)]) {
	case "r", "u", "b", "br", "rb", "f", "fr", "rf":
		return true
	}
	return false
}

// stringValue reads one or more adjacent string literals and appends
// them, concatenated, as one JSON string.
func (p *parser) stringValue() error {
	s, err := p.text()
	if err != nil {
		return err
	}
	p.out.str(s)
	return nil
}

// text reads one or more adjacent string literals and concatenates them.
func (p *parser) text() (string, error) {
	start := p.pos
	if s, ok := p.plain(); ok {
		// What follows most strings: no other to join to them.
		if c := p.peek(); c == ',' || c == ')' || c == ':' || c == '}' || c == ']' || !p.adjacent() {
			return s, nil
		}
		p.pos = start // a concatenation: the general way
	}
	var b strings.Builder
	for {
		if err := p.stringLit(&b); err != nil {
			return "", err
		}
		save := p.pos
		p.space()
		c := p.peek()
		if c == '"' || c == '\'' {
			continue
		}
		w := p.ident()
		if w != "" && prefixOK(w) && (p.peek() == '"' || p.peek() == '\'') {
			p.pos -= len(w)
			continue
		}
		p.pos = save
		return b.String(), nil
	}
}

// plain reads the common string literal, without a prefix, an escape or
// a third quote, as the text it is; for any other, ok is false and
// nothing is read.
func (p *parser) plain() (s string, ok bool) {
	src, pos := p.src, p.pos
	if pos >= len(src) || src[pos] != '"' && src[pos] != '\'' {
		return "", false
	}
	q, rest := src[pos], src[pos+1:]
	n, high := plainRun(rest, q)
	// The end not found, a backslash, a newline, or a third quote.
	if n >= len(rest) || rest[n] != q || n == 0 && len(rest) > 1 && rest[1] == q {
		return "", false
	}
	s = rest[:n]
	if high && !utf8.ValidString(s) {
		return "", false
	}
	p.pos = pos + n + 2
	return s, true
}

// plainRun returns how many bytes start s before its first q, backslash
// or newline, and whether one of them may be beyond ASCII. It reads eight
// bytes a step: most strings are a few words long, which a byte a step
// took most of the parse to read.
func plainRun(s string, q byte) (n int, high bool) {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	quotes := ones * uint64(q)
	var seen uint64 // the bytes before n, or'ed
	for ; n+8 <= len(s); n += 8 {
		x := jsontext.Word(s, n)
		// A byte of a, b or c is 0 where x has q, '\\' or '\n'; the lowest
		// byte flagged in m is the first such (a flag above it may be
		// false).
		a, b, c := x^quotes, x^(ones*'\\'), x^(ones*'\n')
		if m := ((a-ones)&^a | (b-ones)&^b | (c-ones)&^c) & highs; m != 0 {
			k := bits.TrailingZeros64(m) &^ 7
			return n + k/8, (seen|x&(1<<k-1))&highs != 0
		}
		seen |= x
	}
	for ; n < len(s); n++ {
		c := s[n]
		if c == q || c == '\\' || c == '\n' {
			break
		}
		seen |= uint64(c)
	}
	return n, seen&highs != 0
}

// adjacent reports whether a string literal follows, to be joined to
// the one before.
func (p *parser) adjacent() bool {
	save := p.pos
	p.space()
	ok := false
	switch p.peek() {
	case '"', '\'':
		ok = true
	case 'r', 'R', 'u', 'U', 'b', 'B', 'f', 'F':
		// What may start a prefix; after most strings, a ',' or a ')'.
		ok = p.atString()
	}
	p.pos = save
	return ok
}

// stringLit reads one string literal with its prefix into b.
func (p *parser) stringLit(b *strings.Builder) error {
	start := p.pos
	prefix := strings.ToLower(p.ident())
	raw := strings.Contains(prefix, "r")
	if strings.ContainsAny(prefix, "bf") {
		return p.errAt(start, "%s-strings are not literal text values", prefix)
	}
	q := p.peek()
	if q != '"' && q != '\'' {
		return p.errf("expected a string, found %s", p.found())
	}
	delim := p.src[p.pos : p.pos+1]
	if len(p.src)-p.pos >= 3 && p.src[p.pos+1] == q && p.src[p.pos+2] == q {
		delim = p.src[p.pos : p.pos+3]
	}
	p.pos += len(delim)
	for {
		if p.pos >= len(p.src) {
			return p.errAt(start, "string never closed")
		}
		if strings.HasPrefix(p.src[p.pos:], delim) {
			p.pos += len(delim)
			return nil
		}
		c := p.src[p.pos]
		if c == '\n' && len(delim) == 1 {
			return p.errAt(start, "string not closed on its line")
		}
		if c != '\\' {
			r, n := utf8.DecodeRuneInString(p.src[p.pos:])
			if r == utf8.RuneError && n == 1 {
				return p.errf("invalid UTF-8")
			}
			b.WriteString(p.src[p.pos : p.pos+n])
			p.pos += n
			continue
		}
		if p.pos+1 >= len(p.src) {
			return p.errAt(start, "string never closed")
		}
		e := p.src[p.pos+1]
		if raw {
			// A raw string keeps the backslash; \" does not end it.
			b.WriteByte('\\')
			_, n := utf8.DecodeRuneInString(p.src[p.pos+1:])
			b.WriteString(p.src[p.pos+1 : p.pos+1+n])
			p.pos += 1 + n
			continue
		}
		escPos := p.pos
		p.pos += 2
		switch e {
		case '\n':
		case '\\', '\'', '"':
			b.WriteByte(e)
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if p.pos+n > len(p.src) {
				return p.errAt(escPos, "truncated \\%c escape", e)
			}
			v, err := strconv.ParseUint(p.src[p.pos:p.pos+n], 16, 32)
			if err != nil || v > unicode.MaxRune || v >= 0xD800 && v < 0xE000 {
				return p.errAt(escPos, "invalid \\%c escape", e)
			}
			b.WriteRune(rune(v))
			p.pos += n
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v := int(e - '0')
			for k := 0; k < 2 && p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '7'; k++ {
				v = v*8 + int(p.src[p.pos]-'0')
				p.pos++
			}
			b.WriteRune(rune(v))
		case 'N':
			return p.errAt(escPos, "\\N{...} escapes are not supported")
		default:
			b.WriteByte('\\') // Python keeps an unknown escape as written
			p.pos--
		}
	}
}

// number reads an int or a float, with an optional sign, and appends it
// as a JSON number literal: an int stays an int, a float stays a float.
func (p *parser) number() error {
	start := p.pos
	neg := false
	for p.peek() == '-' || p.peek() == '+' {
		if p.peek() == '-' {
			neg = !neg
		}
		p.pos++
		p.space()
	}
	numStart := p.pos
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		if c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '.' {
			p.pos++
			continue
		}
		if (c == '+' || c == '-') && p.pos > numStart && (p.src[p.pos-1] == 'e' || p.src[p.pos-1] == 'E') && !isHex(p.src[numStart:p.pos]) {
			p.pos++
			continue
		}
		break
	}
	text := p.src[numStart:p.pos]
	if text == "" {
		return p.errAt(start, "expected a number after the sign, found %s", p.found())
	}
	lit, err := pyNumber(text)
	if err != nil {
		return p.errAt(numStart, "%s", err)
	}
	if neg && lit != "0" && numStart == start+1 && lit == text {
		// -5 as written is its JSON literal: no "-" to join to it.
		neg, lit = false, p.src[start:p.pos]
	}
	p.out.num(neg && lit != "0", lit)
	return nil
}

func isHex(s string) bool { return len(s) > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') }

// pyNumber converts a Python number literal to a JSON one.
func pyNumber(s string) (string, error) {
	if digits(s, false) && (len(s) == 1 || s[0] != '0') {
		return s, nil // a decimal int, the common case, is JSON already
	}
	if i := strings.IndexByte(s, '.'); i > 0 && digits(s[:i], false) && digits(s[i+1:], false) && (i == 1 || s[0] != '0') {
		return s, nil // and so is a float of digits, a point and digits
	}
	return convertNumber(s)
}

// convertNumber is pyNumber for any literal.
func convertNumber(s string) (string, error) {
	if strings.HasSuffix(s, "j") || strings.HasSuffix(s, "J") {
		return "", fmt.Errorf("complex number %s is not a JSON value", s)
	}
	if strings.Contains(s, "__") || strings.HasSuffix(s, "_") || strings.Contains(s, "_.") || strings.Contains(s, "._") {
		return "", fmt.Errorf("invalid number %s", s)
	}
	clean := strings.ReplaceAll(s, "_", "")
	if len(clean) > 1 && clean[0] == '0' && strings.ContainsAny(clean[1:2], "xXoObB") {
		base := map[byte]int{'x': 16, 'o': 8, 'b': 2}[clean[1]|0x20]
		v, ok := new(big.Int).SetString(clean[2:], base)
		if !ok || clean[2:] == "" {
			return "", fmt.Errorf("invalid number %s", s)
		}
		return v.String(), nil
	}
	if !strings.ContainsAny(clean, ".eE") {
		if len(clean) > 1 && clean[0] == '0' && strings.Trim(clean, "0") != "" {
			return "", fmt.Errorf("invalid number %s (leading zeros)", s)
		}
		v, ok := new(big.Int).SetString(clean, 10)
		if !ok {
			return "", fmt.Errorf("invalid number %s", s)
		}
		return v.String(), nil
	}
	// A float: digits, an optional fraction, an optional exponent.
	mant, exp, hasExp := clean, "", false
	if i := strings.IndexAny(clean, "eE"); i >= 0 {
		mant, exp, hasExp = clean[:i], clean[i+1:], true
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	if !digits(intPart, true) || !digits(frac, true) || intPart == "" && frac == "" {
		return "", fmt.Errorf("invalid number %s", s)
	}
	e := strings.TrimLeft(exp, "+-")
	if hasExp && (!digits(e, false) || len(exp)-len(e) > 1) {
		return "", fmt.Errorf("invalid number %s", s)
	}
	intPart = strings.TrimLeft(intPart, "0")
	if intPart == "" {
		intPart = "0"
	}
	if frac == "" {
		frac = "0"
	}
	out := intPart + "." + frac
	if hasExp {
		out += "e" + exp
	}
	return out, nil
}

func digits(s string, emptyOK bool) bool {
	if s == "" {
		return emptyOK
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
