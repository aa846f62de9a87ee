// Package jsontext writes and checks JSON text without building values:
// string literals as package value writes them, and a scan of a document's
// syntax that goes on past what is broken in content. Package value and
// the module's writers of JSON lines share it, so that every string in a
// results file, a report and a service answer is escaped one way.
package jsontext

import "unicode/utf8"

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
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			// Invalid UTF-8 (only a Value built by hand can hold it) is
			// written as U+FFFD, as encoding/json does, so the output stays JSON.
			// U+2028 and U+2029 are escaped, as encoding/json always does.
			r, size := utf8.DecodeRuneInString(s[i:])
			switch {
			case r == utf8.RuneError && size == 1:
				dst = append(dst, s[start:i]...)
				dst = append(dst, `\ufffd`...)
				start = i + 1
			case r == '\u2028' || r == '\u2029':
				dst = append(dst, s[start:i]...)
				dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
				i += size - 1
				start = i + 1
			default:
				i += size - 1
			}
			continue
		}
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		start = i + 1
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
