package bfcl

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Call is one function call read from Python call syntax.
type Call struct {
	Name      string
	Arguments string // a JSON object: the keyword arguments in the order written, numbers as written
}

// pyCall is a Call with its arguments as a tree, as the conversion of a
// results file needs them.
type pyCall struct {
	Name string
	Args *node // an object
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

// maxDepth bounds the nesting of lists, tuples and dicts.
const maxDepth = 256

// ParsePythonCalls reads the Python call syntax BFCL's models answer in:
// a list of calls `[f(a=1, b="x"), g.h(c=[1, 2])]` or one call. Arguments
// are keyword arguments whose values are literals: strings (with their
// prefixes, escapes and implicit concatenation), numbers, True, False,
// None, lists, tuples (as lists) and dicts with string keys. Anything else
// (a positional argument, a variable, a call inside the arguments, an
// operator) and any syntax error is a *SyntaxError with its position.
func ParsePythonCalls(src string) ([]Call, error) {
	calls, err := parsePython(src)
	if err != nil {
		return nil, err
	}
	out := make([]Call, len(calls))
	for i, c := range calls {
		out[i] = Call{Name: c.Name, Arguments: c.Args.String()}
	}
	return out, nil
}

// parsePython is ParsePythonCalls with the arguments as trees.
func parsePython(src string) ([]pyCall, error) {
	p := &pyParser{src: src}
	p.space()
	var calls []pyCall
	if p.peek() == '[' {
		p.pos++
		p.space()
		for p.peek() != ']' {
			c, err := p.call()
			if err != nil {
				return nil, err
			}
			calls = append(calls, c)
			p.space()
			if p.peek() == ',' {
				p.pos++
				p.space()
				continue
			}
			if p.peek() != ']' {
				return nil, p.errf("expected ',' or ']' after a call, found %s", p.found())
			}
		}
		p.pos++
	} else {
		c, err := p.call()
		if err != nil {
			return nil, err
		}
		calls = append(calls, c)
	}
	p.space()
	if p.pos < len(p.src) {
		return nil, p.errf("unexpected %s after the calls", p.found())
	}
	if calls == nil {
		calls = []pyCall{}
	}
	return calls, nil
}

type pyParser struct {
	src   string
	pos   int
	depth int
}

func (p *pyParser) peek() byte {
	if p.pos < len(p.src) {
		return p.src[p.pos]
	}
	return 0
}

// errf makes a SyntaxError at the current position.
func (p *pyParser) errf(format string, a ...any) *SyntaxError {
	return p.errAt(p.pos, format, a...)
}

func (p *pyParser) errAt(off int, format string, a ...any) *SyntaxError {
	line := 1 + strings.Count(p.src[:off], "\n")
	start := strings.LastIndexByte(p.src[:off], '\n') + 1
	return &SyntaxError{Offset: off, Line: line, Column: 1 + utf8.RuneCountInString(p.src[start:off]), Msg: fmt.Sprintf(format, a...)}
}

func (p *pyParser) found() string {
	if p.pos >= len(p.src) {
		return "the end of the text"
	}
	r, _ := utf8.DecodeRuneInString(p.src[p.pos:])
	return strconv.QuoteRune(r)
}

// space skips white space, line continuations and comments.
func (p *pyParser) space() {
	for p.pos < len(p.src) {
		switch c := p.src[p.pos]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			p.pos++
		case c == '\\' && p.pos+1 < len(p.src) && p.src[p.pos+1] == '\n':
			p.pos += 2
		case c == '#':
			for p.pos < len(p.src) && p.src[p.pos] != '\n' {
				p.pos++
			}
		default:
			return
		}
	}
}

func isIdentStart(r rune) bool { return r == '_' || unicode.IsLetter(r) }
func isIdentPart(r rune) bool  { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// ident reads a Python identifier, or returns "".
func (p *pyParser) ident() string {
	start := p.pos
	for p.pos < len(p.src) {
		r, n := utf8.DecodeRuneInString(p.src[p.pos:])
		if p.pos == start && !isIdentStart(r) || p.pos > start && !isIdentPart(r) {
			break
		}
		p.pos += n
	}
	return p.src[start:p.pos]
}

// call reads name(kw=value, ...), the name possibly dotted.
func (p *pyParser) call() (pyCall, error) {
	start := p.pos
	name := p.ident()
	if name == "" {
		return pyCall{}, p.errf("expected a function name, found %s", p.found())
	}
	for p.peek() == '.' {
		p.pos++
		part := p.ident()
		if part == "" {
			return pyCall{}, p.errf("expected a name after '.', found %s", p.found())
		}
		name += "." + part
	}
	p.space()
	if p.peek() != '(' {
		return pyCall{}, p.errAt(start, "expected a call name(...), found %q without arguments", name)
	}
	p.pos++
	args := obj()
	p.space()
	for p.peek() != ')' {
		kwStart := p.pos
		kw := p.ident()
		p.space()
		if kw == "" || p.peek() != '=' || strings.HasPrefix(p.src[p.pos:], "==") {
			return pyCall{}, p.errAt(kwStart, "call of %s: expected a keyword argument name=value (positional arguments are not supported)", name)
		}
		if _, dup := args.Get(kw); dup {
			return pyCall{}, p.errAt(kwStart, "call of %s: keyword argument %q repeated", name, kw)
		}
		p.pos++
		p.space()
		v, err := p.value()
		if err != nil {
			return pyCall{}, err
		}
		args.Set(kw, v)
		p.space()
		if p.peek() == ',' {
			p.pos++
			p.space()
			continue
		}
		if p.peek() != ')' {
			return pyCall{}, p.errf("call of %s: expected ',' or ')' after an argument, found %s", name, p.found())
		}
	}
	p.pos++
	return pyCall{Name: name, Args: args}, nil
}

// value reads a literal.
func (p *pyParser) value() (*node, error) {
	if p.depth >= maxDepth {
		return nil, p.errf("nested deeper than %d levels", maxDepth)
	}
	c := p.peek()
	switch {
	case c == '[':
		return p.sequence('[', ']')
	case c == '(':
		return p.sequence('(', ')')
	case c == '{':
		return p.dict()
	case c == '"' || c == '\'':
		return p.stringValue()
	case c == '-' || c == '+' || c == '.' || c >= '0' && c <= '9':
		return p.number()
	case c == 0:
		return nil, p.errf("expected a value, found the end of the text")
	}
	start := p.pos
	word := p.ident()
	if word == "" {
		return nil, p.errf("expected a value, found %s", p.found())
	}
	if prefixOK(word) && (p.peek() == '"' || p.peek() == '\'') {
		p.pos = start
		return p.stringValue()
	}
	switch word {
	case "True":
		return boolNode(true), nil
	case "False":
		return boolNode(false), nil
	case "None":
		return nullNode(), nil
	}
	p.space()
	if p.peek() == '(' || p.peek() == '.' {
		return nil, p.errAt(start, "a call or an attribute (%s...) is not a literal value", word)
	}
	return nil, p.errAt(start, "the name %s is not a literal value", word)
}

// sequence reads a list, or a tuple (as a list); (x) is x.
func (p *pyParser) sequence(open, close byte) (*node, error) {
	start := p.pos
	p.pos++
	p.depth++
	defer func() { p.depth-- }()
	out := arr()
	comma := false
	p.space()
	for p.peek() != close {
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		out.Vals = append(out.Vals, v)
		p.space()
		if p.peek() == ',' {
			comma = true
			p.pos++
			p.space()
			continue
		}
		if p.peek() != close {
			if p.pos >= len(p.src) {
				return nil, p.errAt(start, "%q never closed", open)
			}
			return nil, p.errf("expected ',' or %q, found %s", close, p.found())
		}
	}
	p.pos++
	if open == '(' && len(out.Vals) == 1 && !comma {
		return out.Vals[0], nil
	}
	return out, nil
}

func (p *pyParser) dict() (*node, error) {
	start := p.pos
	p.pos++
	p.depth++
	defer func() { p.depth-- }()
	out := obj()
	p.space()
	for p.peek() != '}' {
		kpos := p.pos
		k, err := p.value()
		if err != nil {
			return nil, err
		}
		if k.Kind != kindString {
			return nil, p.errAt(kpos, "a dict key must be a string, got %s", kindName(k))
		}
		if _, dup := out.Get(k.Text); dup {
			return nil, p.errAt(kpos, "dict key %q repeated", k.Text)
		}
		p.space()
		if p.peek() != ':' {
			return nil, p.errf("expected ':' after a dict key, found %s", p.found())
		}
		p.pos++
		p.space()
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		out.Set(k.Text, v)
		p.space()
		if p.peek() == ',' {
			p.pos++
			p.space()
			continue
		}
		if p.peek() != '}' {
			if p.pos >= len(p.src) {
				return nil, p.errAt(start, "'{' never closed")
			}
			return nil, p.errf("expected ',' or '}', found %s", p.found())
		}
	}
	p.pos++
	return out, nil
}

// prefixOK reports whether a word is a string prefix this parser reads:
// r, u (and their cases); bytes and f-strings are refused.
func prefixOK(w string) bool {
	switch strings.ToLower(w) {
	case "r", "u":
		return true
	case "b", "br", "rb", "f", "fr", "rf":
		return true // recognised, and refused by strings()
	}
	return false
}

// stringValue reads one or more adjacent string literals and concatenates them.
func (p *pyParser) stringValue() (*node, error) {
	var b strings.Builder
	for {
		s, err := p.stringLit()
		if err != nil {
			return nil, err
		}
		b.WriteString(s)
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
		return str(b.String()), nil
	}
}

// stringLit reads one string literal with its prefix.
func (p *pyParser) stringLit() (string, error) {
	start := p.pos
	prefix := strings.ToLower(p.ident())
	raw := strings.Contains(prefix, "r")
	if strings.ContainsAny(prefix, "bf") {
		return "", p.errAt(start, "%s-strings are not literal text values", prefix)
	}
	q := p.peek()
	if q != '"' && q != '\'' {
		return "", p.errf("expected a string, found %s", p.found())
	}
	delim := string(q)
	if strings.HasPrefix(p.src[p.pos:], strings.Repeat(delim, 3)) {
		delim = strings.Repeat(delim, 3)
	}
	p.pos += len(delim)
	var b strings.Builder
	for {
		if p.pos >= len(p.src) {
			return "", p.errAt(start, "string never closed")
		}
		if strings.HasPrefix(p.src[p.pos:], delim) {
			p.pos += len(delim)
			return b.String(), nil
		}
		c := p.src[p.pos]
		if c == '\n' && len(delim) == 1 {
			return "", p.errAt(start, "string not closed on its line")
		}
		if c != '\\' {
			r, n := utf8.DecodeRuneInString(p.src[p.pos:])
			if r == utf8.RuneError && n == 1 {
				return "", p.errf("invalid UTF-8")
			}
			b.WriteString(p.src[p.pos : p.pos+n])
			p.pos += n
			continue
		}
		if p.pos+1 >= len(p.src) {
			return "", p.errAt(start, "string never closed")
		}
		e := p.src[p.pos+1]
		if raw {
			// A raw string keeps the backslash; \" does not end it.
			b.WriteByte('\\')
			r, n := utf8.DecodeRuneInString(p.src[p.pos+1:])
			b.WriteString(p.src[p.pos+1 : p.pos+1+n])
			_ = r
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
				return "", p.errAt(escPos, "truncated \\%c escape", e)
			}
			v, err := strconv.ParseUint(p.src[p.pos:p.pos+n], 16, 32)
			if err != nil || v > unicode.MaxRune || v >= 0xD800 && v < 0xE000 {
				return "", p.errAt(escPos, "invalid \\%c escape", e)
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
			return "", p.errAt(escPos, "\\N{...} escapes are not supported")
		default:
			b.WriteByte('\\') // Python keeps an unknown escape as written
			p.pos--
		}
	}
}

// number reads an int or a float, with an optional sign, and returns it as
// a JSON number literal: an int stays an int, a float stays a float.
func (p *pyParser) number() (*node, error) {
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
		return nil, p.errAt(start, "expected a number after the sign, found %s", p.found())
	}
	lit, err := pyNumber(text)
	if err != nil {
		return nil, p.errAt(numStart, "%s", err)
	}
	if neg && lit != "0" {
		lit = "-" + lit
	}
	return num(lit), nil
}

func isHex(s string) bool { return len(s) > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') }

// pyNumber converts a Python number literal to a JSON one.
func pyNumber(s string) (string, error) {
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
