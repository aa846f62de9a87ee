// Package jsontext writes and checks JSON text without building values:
// string literals as package value writes them, and a scan of a document's
// syntax that goes on past what is broken in content. Package value and
// the module's writers of JSON lines share it, so that every string in a
// results file, a report and a service answer is escaped one way.
package jsontext

import (
	"math/bits"
	"unicode/utf8"
)

// The bounds of a JSON document whose value.Limits give none: they are
// here, below package value, for the readers that add their own depth to
// a document's (an envelope around it, the nesting it sits in).
const (
	DefaultMaxDepth = 256     // levels of arrays and objects
	DefaultMaxBytes = 8 << 20 // bytes of text
)

const hexDigits = "0123456789abcdef"

// AppendQuote appends s as a JSON string literal to dst.
func AppendQuote(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		// Most of a message's or a results line's text needs no escape:
		// eight bytes at a time, it is skipped to the first that may.
		if i+8 <= len(s) {
			m := NotPlain(Word(s, i))
			if m == 0 {
				i += 8
				continue
			}
			i += bits.TrailingZeros64(m) >> 3
		}
		c := s[i]
		if c >= utf8.RuneSelf {
			dst, start, i = appendRunes(dst, s, start, i)
			continue
		}
		i++
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		dst = append(dst, s[start:i-1]...)
		dst = appendEscape(dst, c)
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// appendRunes reads on the run of text that is not ASCII at s[i:], of
// the literal whose text from start is not yet appended to dst, and
// returns dst, start and i after it. Invalid UTF-8 (only a Value built by
// hand can hold it) is written as U+FFFD, as encoding/json does, so the
// output stays JSON. U+2028 and U+2029 are escaped, as encoding/json
// always does. Such a run (Chinese, say) is read a rune at a time, not
// first a word at a time, which would find every rune not plain.
func appendRunes(dst []byte, s string, start, i int) ([]byte, int, int) {
	for i < len(s) && s[i] >= utf8.RuneSelf {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			start = i + 1
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			start = i + size
		}
		i += size
	}
	return dst, start, i
}

// appendEscape appends the escape of c, an ASCII byte that a JSON string
// literal cannot hold as it is.
func appendEscape(dst []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(dst, '\\', c)
	case '\b':
		return append(dst, '\\', 'b')
	case '\f':
		return append(dst, '\\', 'f')
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	}
	return append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
}
