package suite

import (
	"errors"
	"math"
	"unicode/utf8"
	"unsafe"

	"github.com/callgrade/callgrade/internal/errcode"
	"github.com/callgrade/callgrade/internal/jsontext"
	"github.com/callgrade/callgrade/value"
)

// jsonParser reads JSON suite files. It reads the top
// level itself and hands each member but `cases` to value.Parse; the
// elements of `cases` are only delimited here, and parsed one by one when
// the cases are decoded, so that a large suite never exists twice in memory.
type jsonParser struct {
	f    *file
	kind string // what the document is when it is valid but not an object
}

// parse reads a JSON suite file's top level but its cases, which go to
// the file, out of band.
func (p *jsonParser) parse(b []byte) ([]value.Member, error) {
	// The loader hands over a buffer it read the file into, which nothing
	// writes to again: the document can share its memory.
	if uint64(len(b)) >= math.MaxUint32 {
		return nil, &Error{Problems: []Problem{{Loc: Loc{File: p.f.name}, Msg: "a JSON suite file must be smaller than 4 GiB", Code: errcode.LimitExceeded}}}
	}
	src := unsafe.String(unsafe.SliceData(b), len(b))
	p.f.src = src
	rest, ok := p.scan(src)
	if !ok {
		return nil, &Error{Problems: []Problem{jsonSyntaxProblem(p.f.name, src)}}
	}
	if rest == nil {
		return nil, &Error{Problems: []Problem{{Loc: Loc{File: p.f.name}, Msg: "a suite must be an object, not " + p.kind, Code: errcode.WrongType}}}
	}
	return rest, nil
}

// scan reads the top-level object. It returns ok false on a syntax error
// (the caller reparses the whole document for the exact message), and a nil
// list when the document is valid JSON but not an object.
func (p *jsonParser) scan(s string) ([]value.Member, bool) {
	i := skipSpace(s, 0)
	if i >= len(s) || s[i] != '{' {
		v, err := parseJSON(s, 0)
		p.kind = kindName(v)
		return nil, err == nil
	}
	rest := []value.Member{}
	seenKeys := map[string]bool{}
	i = skipSpace(s, i+1)
	if i < len(s) && s[i] == '}' {
		return rest, skipSpace(s, i+1) == len(s)
	}
	seen := false
	for {
		if i >= len(s) || s[i] != '"' {
			return nil, false
		}
		j := skipString(s, i)
		kv, err := parseJSON(s[i:j], 1)
		if err != nil {
			return nil, false
		}
		key := kv.Str()
		i = skipSpace(s, j)
		if i >= len(s) || s[i] != ':' {
			return nil, false
		}
		i = skipSpace(s, i+1)
		if key == "cases" {
			if seen {
				return nil, false
			}
			seen = true
			if i, err = p.scanCases(s, i); err != nil {
				return nil, false
			}
		} else {
			j = skipValue(s, i)
			v, err := parseJSON(s[i:j], 1)
			if err != nil {
				return nil, false
			}
			if seenKeys[key] {
				return nil, false
			}
			seenKeys[key] = true
			rest = append(rest, value.Member{Key: key, Value: v})
			i = j
		}
		i = skipSpace(s, i)
		if i < len(s) && s[i] == ',' {
			i = skipSpace(s, i+1)
			continue
		}
		if i < len(s) && s[i] == '}' {
			return rest, skipSpace(s, i+1) == len(s)
		}
		return nil, false
	}
}

var errSkeleton = errors.New("invalid JSON")

// scanCases delimits the elements of the `cases` value at s[i].
func (p *jsonParser) scanCases(s string, i int) (int, error) {
	f := p.f
	if i >= len(s) || s[i] != '[' {
		j := skipValue(s, i)
		v, err := parseJSON(s[i:j], 1)
		if err != nil {
			return i, err
		}
		f.setCases(v)
		return j, nil
	}
	i = skipSpace(s, i+1)
	if i < len(s) && s[i] == ']' {
		return i + 1, nil
	}
	for {
		j := skipValue(s, i)
		if j == i {
			return i, errSkeleton
		}
		f.raw = append(f.raw, span{uint32(i), uint32(j)})
		i = skipSpace(s, j)
		if i < len(s) && s[i] == ',' {
			i = skipSpace(s, i+1)
			continue
		}
		if i < len(s) && s[i] == ']' {
			return i + 1, nil
		}
		return i, errSkeleton
	}
}

// parseJSON parses a value found at nesting depth in a larger document, so
// that the depth limit counts as it would for the whole document.
func parseJSON(s string, depth int) (value.Value, error) {
	return (*value.Parser)(nil).Parse(s, value.Limits{MaxDepth: jsontext.DefaultMaxDepth - depth, MaxBytes: len(s) + 1})
}

// jsonSyntaxProblem parses the whole document again to report its first
// error, with the line and column of the byte offset value.Parse gives.
func jsonSyntaxProblem(name, src string) Problem {
	_, err := parseJSON(src, 0)
	if err == nil { // the scanner and value.Parse disagree; should not happen
		err = errSkeleton
	}
	return jsonProblem(Loc{File: name}, &locator{s: src}, 0, err)
}

// jsonProblem is the problem err, an error of parsing the part of the
// JSON document at that starts at byte base, at loc with the line and
// column of the error's offset.
func jsonProblem(loc Loc, at *locator, base int, err error) Problem {
	msg := err.Error()
	var ve *value.Error
	if errors.As(err, &ve) {
		msg = ve.Err.Error()
		if ve.Detail != "" {
			msg += ": " + ve.Detail
		}
		if ve.Offset >= 0 {
			loc.Line, loc.Column = at.lineCol(base + ve.Offset)
		}
	}
	// A value.Error knows its code (a syntax error, a limit, a key
	// written twice); errSkeleton, the scanner's, is a syntax error.
	code := errcode.Of(err)
	if code == "" {
		code = errcode.SyntaxError
	}
	return Problem{Loc: loc, Msg: msg, Code: code, Err: err}
}

// locator places byte offsets of one document, given in increasing
// order, reading each byte once: counting from the start for each was
// quadratic in a document of many broken cases, and counting a column
// from its line's start, in a document of one line.
type locator struct {
	s         string
	off       int // the last offset placed, and its line and column
	line, col int
}

// lineCol is lineCol(l.s, off), counted from the last offset placed when
// off is not before it.
func (l *locator) lineCol(off int) (line, col int) {
	off = min(max(off, 0), len(l.s))
	if off < l.off || l.line == 0 {
		l.off, l.line, l.col = 0, 1, 1
	}
	for l.off < off {
		if l.s[l.off] == '\n' {
			l.off, l.line, l.col = l.off+1, l.line+1, 1
			continue
		}
		_, n := utf8.DecodeRuneInString(l.s[l.off:])
		if l.off+n > off {
			// off is inside a character: what lies before it counts a
			// character a byte, as lineCol counts a cut encoding; the
			// next offset is counted from the character's start.
			return l.line, l.col + off - l.off
		}
		l.off, l.col = l.off+n, l.col+1
	}
	return l.line, l.col
}

// lineCol converts a byte offset to a 1-based line and column, the column
// counted in characters.
func lineCol(s string, off int) (line, col int) {
	off = min(max(off, 0), len(s))
	line, start := 1, 0
	for i := 0; i < off; i++ {
		if s[i] == '\n' {
			line++
			start = i + 1
		}
	}
	return line, utf8.RuneCountInString(s[start:off]) + 1
}

func skipSpace(s string, i int) int {
	for i < len(s) {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skipString returns the end of the string literal at s[i] == '"'.
func skipString(s string, i int) int {
	for i++; i < len(s); i++ {
		switch s[i] {
		case '"':
			return i + 1
		case '\\':
			i++
		}
	}
	return len(s)
}

// jsonClass classifies the bytes skipValue stops at inside brackets.
var jsonClass = [256]uint8{'"': 1, '{': 2, '[': 2, '}': 3, ']': 3}

// skipValue returns the end of the JSON value at s[i], found by balancing
// brackets outside strings. It does not validate: value.Parse does that on
// the span it returns. It returns i when there is no value at i.
func skipValue(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '"':
		return skipString(s, i)
	case '{', '[':
	case '}', ']', ',', ':', ' ', '\t', '\n', '\r':
		return i
	default: // a number or a literal
		for i < len(s) {
			switch s[i] {
			case '}', ']', ',', ':', ' ', '\t', '\n', '\r', '"', '{', '[':
				return i
			}
			i++
		}
		return i
	}
	depth := 0
	for i < len(s) {
		for i < len(s) && jsonClass[s[i]] == 0 {
			i++
		}
		if i >= len(s) {
			break
		}
		switch jsonClass[s[i]] {
		case 1:
			i = skipString(s, i)
			continue
		case 2:
			depth++
		case 3:
			if depth--; depth == 0 {
				return i + 1
			}
		}
		i++
	}
	return i
}
