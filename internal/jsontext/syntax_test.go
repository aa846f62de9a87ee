package jsontext

import (
	"strings"
	"testing"
)

// CountValues stops at the first value past max, and only there: a text
// with max values or fewer, or one that stops being JSON first, is not
// over. A place where a value should start counts as one, broken or not.
func TestCountValues(t *testing.T) {
	for _, tt := range []struct {
		in   string
		max  int
		off  int
		over bool
	}{
		{`[1,2,3]`, 4, 0, false},
		{`[1,2,3]`, 3, 5, true},
		{`{"a":{"b":[true,null]}}`, 4, 16, true},
		{` [ "x" , {} ] `, 3, 0, false},
		{`[1,2,}`, 3, 5, true},
		{`[1,2,}`, 4, 0, false},
		{`[1,2,}` + strings.Repeat(",1", 10), 4, 0, false},
		{`[NaN, Infinity, -Infinity]`, 3, 16, true},
	} {
		off, over := CountValues(tt.in, tt.max)
		if off != tt.off || over != tt.over {
			t.Errorf("CountValues(%q, %d) = %d, %v; want %d, %v", tt.in, tt.max, off, over, tt.off, tt.over)
		}
	}
}

func TestDescribeAndHex4(t *testing.T) {
	if got := Describe("ab", 1); got != "'b'" {
		t.Errorf("Describe = %s", got)
	}
	if got := Describe("ab", 2); got != "end of input" {
		t.Errorf("Describe past the end = %s", got)
	}
	for s, want := range map[string]rune{"00e9": 0xe9, "D83D": 0xd83d, "12g4": -1, "123": -1} {
		r, ok := Hex4(s, 0)
		if ok != (want >= 0) || ok && r != want {
			t.Errorf("Hex4(%q) = %x, %v; want %x", s, r, ok, want)
		}
	}
}
