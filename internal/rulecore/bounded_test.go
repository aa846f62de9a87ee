package rulecore

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// boundedWord is a word character as BFCL's patterns write it.
const boundedWord = `\p{L}\p{N}_`

// boundedGroup writes lit between boundaries as bfcl's pyBounded does,
// each edge chosen by shape: a class of word characters, or the start
// (end) or a class of the others.
func boundedGroup(lit string, shape uint8) string {
	pre, post := "(?:^|[^"+boundedWord+"])", "(?:$|[^"+boundedWord+"])"
	if shape&1 != 0 {
		pre = "[" + boundedWord + "]"
	}
	if shape&2 != 0 {
		post = "[" + boundedWord + "]"
	}
	return "(?:" + pre + regexp.QuoteMeta(lit) + post + ")"
}

func TestCompileBounded(t *testing.T) {
	for _, tt := range []struct {
		src  string
		alts int // 0: not of the shape
	}{
		{boundedGroup("zhang yiming", 0), 1},
		{boundedGroup("zhang yiming", 0) + "|" + boundedGroup("zhang yimin", 0), 2},
		{boundedGroup("$222 million", 1) + "|" + boundedGroup("é", 3), 2},
		{`(?:[\]a]x(?:$|[^b]))`, 1},
		{`(?:[[:alpha:]]x[)|(])`, 1},
		{"[" + boundedWord + "]", 0},           // no literal
		{`(?i)` + boundedGroup("abc", 0), 0},   // folded
		{`(?:(?:^|[^a])a.c(?:$|[^a]))`, 0},     // not a literal
		{`(?:(?:^|[^a])abc(?:$|[^a]))x`, 0},    // more after the group
		{`(?:(?:^|[^a])abc(?:$|[^a]))|`, 0},    // an empty alternative
		{`(?:(?m:^)|[^a])abc(?:$|[^a]))`, 0},   // unbalanced
		{`(?:(?m)(?:^|[^a])abc(?:$|[^a]))`, 0}, // ^ of a line
		{`(?:\Q(?:\E(?:^|[^a])abc(?:$|[^a]))`, 0},
		{`(?:(?:^|[^a])a\x{FFFD}c(?:$|[^a]))`, 0},
		{`(?:(?:^|[^a])abc(?:$|[^a]))|(?:(?:^|[^a])abc+(?:$|[^a]))`, 0},
	} {
		b := compileBounded(tt.src)
		if len(b) != tt.alts {
			t.Errorf("compileBounded(%q) = %d alternatives, want %d", tt.src, len(b), tt.alts)
		}
	}
}

// FuzzBounded checks that boundedAlts matches what RE2 matches, on
// patterns of the shape and any UTF-8 text.
func FuzzBounded(f *testing.F) {
	for _, c := range []struct {
		lit, s string
		shape  uint8
	}{
		{"zhang yiming", "Zhang Yiming", 0},
		{"zhang yiming", "the founder is zhang yiming.", 0},
		{"zhang yiming", "zhang yimingx", 0},
		{"$222 million", "about$222 million", 1},
		{"$222 million", "$222 million", 1},
		{"čssr", "čssr je", 0},
		{"abc", "xabc abc", 0},
		{"a", "ba a", 2},
		{"北京", "在北京。", 0},
		{"aa", "aaa", 3},
	} {
		f.Add(c.lit, c.s, c.shape, "")
	}
	f.Add("yes", "no, yes", uint8(0), "no")
	f.Fuzz(func(t *testing.T, lit, s string, shape uint8, other string) {
		if lit == "" || !utf8.ValidString(lit) || !utf8.ValidString(s) || !utf8.ValidString(other) || strings.ContainsRune(lit+other, utf8.RuneError) {
			return
		}
		src := boundedGroup(lit, shape)
		if other != "" {
			src += "|" + boundedGroup(other, shape>>2)
		}
		b := compileBounded(src)
		if b == nil && strings.Contains(src, `\Q`) {
			return // refused whole, as it may quote text
		}
		if b == nil {
			t.Fatalf("compileBounded(%q) = nil", src)
		}
		if got, want := b.match(s), regexp.MustCompile(src).MatchString(s); got != want {
			t.Fatalf("%q on %q: bounded %v, regexp %v", src, s, got, want)
		}
	})
}
