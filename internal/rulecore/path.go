package rulecore

import (
	"strconv"
	"strings"

	"github.com/callgrade/callgrade/internal/errcode"
)

// Path is a compiled PATH: a sequence of segments, each a literal key (or
// array index), `*` or `#`.
type Path struct {
	segs []pathSeg
}

type segKind uint8

const (
	segLit  segKind = iota // a key; also an array index when decimal
	segStar                // any one object key or array element
	segHash                // any array element
)

type pathSeg struct {
	kind segKind
	key  string // segLit: the key, unescaped
}

// Segment is one step of a Path, for programs that walk values of their own
// along a PATH (the expression language's get does).
type Segment struct {
	Key   string // a literal key, unescaped; "" for a wildcard
	Star  bool   // `*`: any one object key or array element
	Hash  bool   // `#`: any array element
	Index int    // the array index a decimal literal also names, or -1
}

// Segments returns the steps of p, in order.
func (p Path) Segments() []Segment {
	out := make([]Segment, len(p.segs))
	for i, s := range p.segs {
		out[i] = Segment{Key: s.key, Star: s.kind == segStar, Hash: s.kind == segHash, Index: -1}
		if s.kind == segLit {
			out[i].Index = arrayIndex(s.key)
		} else {
			out[i].Key = ""
		}
	}
	return out
}

// ParsePath parses a PATH, gjson style: segments separated by '.'; `\.` is
// a literal dot, `\\` a backslash, `\*` and `\#` a key named "*" or "#"; a
// segment that is exactly `*` matches any one object key or array element,
// exactly `#` any array element; a decimal segment such as `0` matches that
// array index and the object key "0". '*' and '#' inside a longer segment
// are ordinary characters ("c#" is a key). Empty segments are an error.
func ParsePath(s string) (Path, error) {
	if s == "" {
		return Path{}, &PathError{Path: s, Offset: 0, Msg: "empty path"}
	}
	var segs []pathSeg
	var b strings.Builder
	start := 0       // offset of the current segment
	escaped := false // the current segment has an escape: never a wildcard
	end := func(i int) error {
		key := b.String()
		b.Reset()
		if key == "" && !escaped {
			return &PathError{Path: s, Offset: i, Msg: "empty segment (a key with a dot in it is written with \\.)"}
		}
		seg := pathSeg{kind: segLit, key: key}
		if !escaped {
			switch key {
			case "*":
				seg = pathSeg{kind: segStar}
			case "#":
				seg = pathSeg{kind: segHash}
			}
		}
		segs = append(segs, seg)
		escaped = false
		return nil
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\':
			if i+1 == len(s) {
				return Path{}, &PathError{Path: s, Offset: i, Msg: "trailing backslash (write \\\\ for a backslash)"}
			}
			switch n := s[i+1]; n {
			case '.', '\\', '*', '#':
				b.WriteByte(n)
				escaped = true
				i++
			default:
				return Path{}, &PathError{Path: s, Offset: i, Msg: "unknown escape \\" + string(rune(n)) + " (the escapes are \\. \\\\ \\* \\#)"}
			}
		case '.':
			if err := end(start); err != nil {
				return Path{}, err
			}
			start = i + 1
		default:
			b.WriteByte(c)
		}
	}
	if err := end(start); err != nil {
		return Path{}, err
	}
	return Path{segs: segs}, nil
}

// String returns the path in PATH syntax, escaped so that ParsePath reads
// it back as the same path.
func (p Path) String() string {
	var b []byte
	for i, s := range p.segs {
		if i > 0 {
			b = append(b, '.')
		}
		switch s.kind {
		case segStar:
			b = append(b, '*')
		case segHash:
			b = append(b, '#')
		default:
			b = appendKey(b, s.key)
		}
	}
	return string(b)
}

// EscapeKey writes an object key as one literal segment of a PATH, as
// Path.String writes it: '.' and '\' escaped, and a key that is exactly
// "*" or "#", which would otherwise be a wildcard. A diff's path and a
// schema violation's are spelled alike through it.
func EscapeKey(key string) string {
	if !needsEscape(key) {
		return key
	}
	return string(appendKey(nil, key))
}

// needsEscape reports whether appendKey would change key.
func needsEscape(key string) bool {
	if key == "*" || key == "#" {
		return true
	}
	for i := 0; i < len(key); i++ {
		if c := key[i]; c == '.' || c == '\\' {
			return true
		}
	}
	return false
}

// AppendKey appends key to b as EscapeKey writes it.
func AppendKey(b []byte, key string) []byte { return appendKey(b, key) }

// appendKey appends a literal key escaped for PATH syntax: '.' and '\' are
// escaped, and a key that is exactly "*" or "#" too.
func appendKey(b []byte, key string) []byte {
	if key == "*" || key == "#" {
		return append(b, '\\', key[0])
	}
	for i := 0; i < len(key); i++ {
		if c := key[i]; c == '.' || c == '\\' {
			b = append(b, '\\')
		}
		b = append(b, key[i])
	}
	return b
}

// arrayIndex returns the array index a literal segment names: a decimal
// number without leading zeros, or -1.
func arrayIndex(key string) int {
	if key == "" || len(key) > 9 || (key[0] == '0' && len(key) > 1) {
		return -1
	}
	n := 0
	for i := 0; i < len(key); i++ {
		c := key[i]
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// PathError is a PATH that cannot be parsed. Its code is invalid_path
// (callgrade.Code).
type PathError struct {
	Path   string
	Offset int // byte offset in Path where the problem is
	Msg    string
}

// Error returns the path, the offset and what is wrong.
func (e *PathError) Error() string {
	return "path " + strconv.Quote(e.Path) + " at offset " + strconv.Itoa(e.Offset) + ": " + e.Msg
}

// Is reports whether target is invalid_path, for errors.Is.
func (e *PathError) Is(target error) bool { return target == errcode.InvalidPath }
