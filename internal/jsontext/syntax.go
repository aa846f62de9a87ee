package jsontext

import (
	"strconv"
	"unicode/utf8"

	"github.com/callgrade/callgrade/internal/number"
)

// Check returns the first place where s is not one JSON text, as the byte
// offset and what is wrong there, worded as package value's parser words
// it at the same byte; ok is true when s is one value with nothing but
// white space around it. Unlike the parser it reads
// on past what is JSON in form but broken in content, as a model's output
// may be: a duplicated key, NaN and ±Infinity, text that is not UTF-8 or a
// lone surrogate, nesting of any depth.
func Check(s string) (off int, detail string, ok bool) {
	sc := scanner{s: s}
	i := sc.skip(0)
	i = sc.value(i)
	if !sc.failed {
		if i = sc.skip(i); i < len(s) {
			sc.fail(i, "unexpected "+Describe(s, i)+" after the value")
		}
	}
	if sc.failed {
		return sc.off, sc.detail, false
	}
	return 0, "", true
}

// CountValues reports whether s holds more than max values (strings,
// numbers, booleans, nulls, arrays and objects) before its first error of
// form, and if so the offset of the first value past max, without building
// any: the parser counts a long document so before spending memory on it.
// As the parser does, it counts a value where one starts, before reading
// it, so that a broken one past max is over too.
func CountValues(s string, max int) (off int, over bool) {
	sc := scanner{s: s, maxValues: max}
	sc.value(sc.skip(0))
	if sc.over {
		return sc.off, true
	}
	return 0, false
}

// scanner walks a JSON text without building it; its stack holds the
// open containers, '{' or '[', so that no depth of nesting recurses.
type scanner struct {
	s     string
	stack []byte
	// failed is set at the first error, at off, with detail saying what
	// is wrong.
	failed bool
	off    int
	detail string
	// maxValues, when over 0, stops the scan with ErrTooLarge at the
	// first value past it; values counts them.
	maxValues, values int
	over              bool
}

func (sc *scanner) fail(off int, detail string) {
	if !sc.failed {
		sc.failed, sc.off, sc.detail = true, off, detail
	}
}

func (sc *scanner) skip(i int) int {
	for i < len(sc.s) {
		switch sc.s[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// value scans the value at i and returns where it ends, or records the first error (fail).
func (sc *scanner) value(i int) int {
	s := sc.s
	for {
		// i is where a value starts.
		if i >= len(s) {
			sc.fail(i, "unexpected end of input")
			return i
		}
		if sc.values++; sc.values > sc.maxValues && sc.maxValues > 0 {
			sc.failed, sc.off, sc.over = true, i, true
			return i
		}
		switch c := s[i]; {
		case c == '{':
			i = sc.skip(i + 1)
			if i < len(s) && s[i] == '}' {
				i++
				break
			}
			sc.stack = append(sc.stack, '{')
			if i = sc.key(i); sc.failed {
				return i
			}
			continue
		case c == '[':
			i = sc.skip(i + 1)
			if i < len(s) && s[i] == ']' {
				i++
				break
			}
			sc.stack = append(sc.stack, '[')
			continue
		case c == '"':
			if i = sc.str(i); sc.failed {
				return i
			}
		case c == '-' || c >= '0' && c <= '9':
			n := number.Scan(s, i)
			if n <= 0 {
				if hasWord(s, i+1, "Infinity") {
					i += 1 + len("Infinity") // not JSON in content: read on
					break
				}
				sc.fail(i-n, "invalid number")
				return i
			}
			i += n
		case c == 't' && hasWord(s, i, "true"):
			i += 4
		case c == 'f' && hasWord(s, i, "false"):
			i += 5
		case c == 'n' && hasWord(s, i, "null"):
			i += 4
		case hasWord(s, i, "NaN"):
			i += 3
		case hasWord(s, i, "Infinity"):
			i += len("Infinity")
		case hasWord(s, i, "+Infinity"):
			i += len("+Infinity")
		default:
			sc.fail(i, "unexpected "+Describe(s, i))
			return i
		}
		// A value ended at i: close the containers it ends.
		for {
			if len(sc.stack) == 0 {
				return i
			}
			open := sc.stack[len(sc.stack)-1]
			closing, what := byte('}'), "object"
			if open == '[' {
				closing, what = ']', "array"
			}
			i = sc.skip(i)
			if i < len(s) && s[i] == ',' {
				i = sc.skip(i + 1)
				if open == '{' {
					if i = sc.key(i); sc.failed {
						return i
					}
				}
				break // the next value
			}
			if i < len(s) && s[i] == closing {
				i++
				sc.stack = sc.stack[:len(sc.stack)-1]
				continue
			}
			sc.fail(i, "expected ',' or '"+string(closing)+"' in "+what+", found "+Describe(s, i))
			return i
		}
	}
}

// key scans an object's key and its ':' at i and returns where its value
// starts.
func (sc *scanner) key(i int) int {
	s := sc.s
	if i >= len(s) || s[i] != '"' {
		sc.fail(i, "expected a string key, found "+Describe(s, i))
		return i
	}
	if i = sc.str(i); sc.failed {
		return i
	}
	i = sc.skip(i)
	if i >= len(s) || s[i] != ':' {
		sc.fail(i, "expected ':' after object key, found "+Describe(s, i))
		return i
	}
	return sc.skip(i + 1)
}

// str scans the string literal at s[i] == '"' and returns where it ends.
// Bytes that are not UTF-8 and lone surrogates are read on.
func (sc *scanner) str(i int) int {
	s := sc.s
	for j := i + 1; j < len(s); {
		switch c := s[j]; {
		case c == '"':
			return j + 1
		case c == '\\':
			if j+1 >= len(s) {
				sc.fail(j, "unterminated string")
				return j
			}
			switch e := s[j+1]; e {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				j += 2
			case 'u':
				if !isHex4(s, j+2) {
					sc.fail(j, "invalid \\u escape")
					return j
				}
				j += 6
			default:
				sc.fail(j, "invalid escape \\"+string(rune(e)))
				return j
			}
		case c < 0x20:
			sc.fail(j, "control character in string")
			return j
		default:
			j++
		}
	}
	sc.fail(i, "unterminated string")
	return len(s)
}

func isHex4(s string, i int) bool {
	_, ok := Hex4(s, i)
	return ok
}

func hasWord(s string, i int, w string) bool {
	return len(s)-i >= len(w) && s[i:i+len(w)] == w
}

// Describe names the byte at s[i] for a message, as a quoted rune, or
// "end of input" past the end.
func Describe(s string, i int) string {
	if i >= len(s) {
		return "end of input"
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return strconv.QuoteRune(r)
}

// Hex4 reads the four hex digits at s[i], as in a \u escape.
func Hex4(s string, i int) (rune, bool) {
	if len(s)-i < 4 {
		return 0, false
	}
	var r rune
	for _, c := range []byte(s[i : i+4]) {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}
