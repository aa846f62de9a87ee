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
		for at := -1; at < n; at++ {
			for c := 0; c < 256; c++ {
				for _, second := range []int{-1, '"', '\\', 0x80} {
					body := []byte(base)
					if at >= 0 {
						body[at] = byte(c)
						if second >= 0 && at+1 < n {
							body[at+1] = byte(second)
						}
					}
					for _, pad := range []int{0, 1, 7, 8} {
						doc := `"` + string(body) + `"` + strings.Repeat(" ", pad)
						checkString(t, doc)
					}
					if at < 0 {
						break
					}
				}
				if at < 0 {
					break
				}
			}
		}
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
