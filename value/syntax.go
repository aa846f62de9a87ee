package value

import (
	"github.com/callgrade/callgrade/internal/number"
)

// CheckSyntax returns the first place where s is not one JSON text, worded
// as Parse words it (an *Error of ErrSyntax, at the same byte), or nil
// when s is one value with nothing but white space around it. Unlike Parse
// it reads on past what is JSON in form but broken in content, as a
// model's output may be: a duplicated key, NaN and ±Infinity, text that is
// not UTF-8 or a lone surrogate, nesting of any depth. A service uses it
// to tell a request that is no JSON at all (cut short, or followed by more
// text) from one whose model output inside is broken, which is still
// scored, as a failed call.
func CheckSyntax(s string) *Error {
	sc := scanner{s: s}
	i := sc.skip(0)
	i = sc.value(i)
	if sc.err == nil {
		if i = sc.skip(i); i < len(s) {
			sc.fail(i, "unexpected "+describe(s, i)+" after the value")
		}
	}
	return sc.err
}

// scanner walks a JSON text without building it; its stack holds the
// open containers, '{' or '[', so that no depth of nesting recurses.
type scanner struct {
	s     string
	stack []byte
	err   *Error
	// maxValues, when over 0, stops the scan with ErrTooLarge at the
	// first value past it; values counts them.
	maxValues, values int
}

func (sc *scanner) fail(off int, detail string) {
	if sc.err == nil {
		sc.err = &Error{Err: ErrSyntax, Offset: off, Detail: detail}
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

// value scans the value at i and returns where it ends, or sets err.
func (sc *scanner) value(i int) int {
	s := sc.s
	for {
		// i is where a value starts.
		if i >= len(s) {
			sc.fail(i, "unexpected end of input")
			return i
		}
		if sc.values++; sc.values > sc.maxValues && sc.maxValues > 0 {
			sc.err = tooMany(i, sc.maxValues)
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
			if i = sc.key(i); sc.err != nil {
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
			if i = sc.str(i); sc.err != nil {
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
			sc.fail(i, "unexpected "+describe(s, i))
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
					if i = sc.key(i); sc.err != nil {
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
			sc.fail(i, "expected ',' or '"+string(closing)+"' in "+what+", found "+describe(s, i))
			return i
		}
	}
}

// key scans an object's key and its ':' at i and returns where its value
// starts.
func (sc *scanner) key(i int) int {
	s := sc.s
	if i >= len(s) || s[i] != '"' {
		sc.fail(i, "expected a string key, found "+describe(s, i))
		return i
	}
	if i = sc.str(i); sc.err != nil {
		return i
	}
	i = sc.skip(i)
	if i >= len(s) || s[i] != ':' {
		sc.fail(i, "expected ':' after object key, found "+describe(s, i))
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
	_, ok := hex4(s, i)
	return ok
}
