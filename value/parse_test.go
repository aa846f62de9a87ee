package value

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestStringBytes holds the string scanner, which reads eight bytes at
// once, to encoding/json: every byte value at every place of strings
// around the word's length, with the document going on for 0 to 8 bytes
// after the closing quote (the scanner reads past it while it can), and
// with a second byte after the first that stops a plain run.
func TestStringBytes(t *testing.T) {
	for n := 0; n <= 20; n++ {
		base := strings.Repeat("a", n)
		checkPadded(t, base)
		for at := range n {
			for c := range 256 {
				for _, second := range []int{-1, '"', '\\', 0x80} {
					body := []byte(base)
					body[at] = byte(c)
					if second >= 0 && at+1 < n {
						body[at+1] = byte(second)
					}
					checkPadded(t, string(body))
				}
			}
		}
	}
}

// checkPadded checks body as a string literal with 0 to 8 bytes of the
// document after its closing quote.
func checkPadded(t *testing.T, body string) {
	t.Helper()
	for _, pad := range []int{0, 1, 7, 8} {
		checkString(t, `"`+body+`"`+strings.Repeat(" ", pad))
	}
}

func checkString(t *testing.T, doc string) {
	t.Helper()
	v, err := Parse(doc)
	var want string
	jerr := json.Unmarshal([]byte(doc), &want)
	switch {
	case jerr != nil || !utf8.ValidString(doc):
		// encoding/json mends invalid UTF-8; the parser refuses it.
		if err == nil {
			t.Fatalf("Parse(%q) = %v, want an error", doc, v)
		}
	case err != nil:
		t.Fatalf("Parse(%q): %v, want %q", doc, err, want)
	case v.Kind() != String || v.Str() != want:
		t.Fatalf("Parse(%q) = %v, want %q", doc, v, want)
	}
}
