package jsontext

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// quoteByBytes is AppendQuote read a byte at a time, as it was before it
// skipped plain text a word at a time: the reference FuzzAppendQuote
// holds it to.
func quoteByBytes(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
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
		dst = appendEscape(dst, c)
		start = i + 1
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// Each byte that is not plain is found at every place in and around a
// word, whatever is beside it.
func TestAppendQuotePlaces(t *testing.T) {
	specials := []string{"\"", "\\", "\x00", "\x1f", "\n", "\x7f", "é", "\u2028", "\u2029", "\xff", "\xe2\x80", "中"}
	for _, sp := range specials {
		for pre := range 18 {
			for _, fill := range []string{"a", "~", " ", "中"} {
				s := strings.Repeat(fill, pre) + sp + strings.Repeat(fill, 9)
				for n := range len(s) + 1 {
					in := s[:n]
					got, want := string(AppendQuote([]byte("x"), in)), string(quoteByBytes([]byte("x"), in))
					if got != want {
						t.Fatalf("AppendQuote(%q) = %s, want %s", in, got, want)
					}
				}
			}
		}
	}
}

func TestAppendQuote(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"", `""`},
		{"plain text, longer than a word", `"plain text, longer than a word"`},
		{`say "hi"\now`, `"say \"hi\"\\now"`},
		{"tab\there and a newline\n", `"tab\there and a newline\n"`},
		{"\x01\x1f\b\f\r", `"\u0001\u001f\b\f\r"`},
		{"中文的字符串，不是ASCII", `"中文的字符串，不是ASCII"`},
		{"line\u2028para\u2029", `"line\u2028para\u2029"`},
		{"bad \xff byte in a long string", `"bad \ufffd byte in a long string"`},
	} {
		got := string(AppendQuote(nil, tt.in))
		if got != tt.want {
			t.Errorf("AppendQuote(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// FuzzAppendQuote holds AppendQuote to the byte-at-a-time reference, and
// its output to JSON that decodes, to s where s is UTF-8.
func FuzzAppendQuote(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		got := AppendQuote([]byte("pre"), s)
		if want := quoteByBytes([]byte("pre"), s); string(got) != string(want) {
			t.Fatalf("AppendQuote(%q) = %s, want %s", s, got, want)
		}
		var back string
		if err := json.Unmarshal(got[3:], &back); err != nil {
			t.Fatalf("AppendQuote(%q) = %s: %v", s, got, err)
		}
		if utf8.ValidString(s) && back != s {
			t.Fatalf("AppendQuote(%q) decodes to %q", s, back)
		}
	})
}
