package rulecore

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"
)

// progCases are regexes of the shapes BFCL writes for Java and JavaScript
// values, which neither bounded.go matcher takes, and of the program
// instructions the search reads (empty-width tests, folding, dot), each
// with texts that match and texts that do not.
var progCases = []struct {
	src   string
	texts []string
}{
	{`^(?:(?s:.*)new\s+HashMap<(?s:.*?)>\s*\(\)\s*\{\s*\{?\s*(?:[^p}]|p(?:[^u}]|u(?:[^t}]|t(?:[^\(}]|\((?:[^"}])))))*put\("limit",\s*(?:\+?(?:0*50(?:\.0+)?(?:[eE][+-]?0+)?|0*5(?:\.0+)?[eE]\+?0*1))\s*\);\s*\}?\s*\}(?s:.*))$`,
		[]string{`new HashMap<String, Integer>() {{ put("limit", 50); }}`, `x = new HashMap<>() {{ put("limit", 5e1); }};`, `new HashMap<String, Integer>() {{ put("limit", 51); }}`, `new HashMap<>()`, ``}},
	{`^\s*\{[\t\v\f\r ]*['"]*method['"]*[\t\v\f\r ]*:\s*['"]*(?i:[ ./\-_*\^]*g[ ./\-_*\^]*e[ ./\-_*\^]*t[ ./\-_*\^]*)['"]*[\t\v\f\r ]*\}(?s:.*)$`,
		[]string{`{method: 'GET'}`, `  {"method" : "g.e.t"} tail`, `{method: 'POST'}`, "{method:\n'get'}\n"}},
	{`^0*5(?:\.0+)?\n?$`, []string{"5", "005.00\n", "5.", "50", "5\n\n"}},
	{`^(?s:.*)new\s+\w+\[\]\s*\{[\t\v\f\r ,]*0*2[\t\v\f\r ]*,[\t\v\f\r ,]*0*7[\t\v\f\r ,]*\}(?s:.*)$`,
		[]string{`new int[] {2, 7}`, `a\nnew int[]{,02,7,}`, `new int[] {2, 8}`}},
	{`\bcat\b`, []string{"a cat.", "concat", "cat", "ÿcat", "\xffcat"}},
	{`(?m)^b$`, []string{"a\nb\nc", "ab", "b", "a\r\nb"}},
	{`(?i)k+elvin`, []string{"\u212Aelvin", "KKELVIN", "elvin"}},
	{`a.c`, []string{"abc", "a\nc", "a\xffc", "a\u00e9c"}},
	{`(?s)a.c`, []string{"a\nc"}},
	{`(a*)*b`, []string{"aaab", "aaa", ""}},
	{`\Ax|y\z`, []string{"xa", "ay", "ax", "ya"}},
	{`(?:\x{FFFD})`, []string{"\xff", "\ufffd", "a"}},
	{`^$`, []string{"", "a", "\n"}},
	// A leading (?s:.*), which makes a search from each position.
	{`^(?s:.*)abc`, []string{"abc", "x\nabc", "\xffabc", "ab"}},
	{`^(?:(?s:.*?)ab|(?s:.*)\bcd)$`, []string{"xab", "x cd", "xcd", "abx", "é\nab"}},
	{`^(?:(?s:.*)|x)y$`, []string{"y", "xy", "zzy", "yz"}},
	{`^(?:(?s:.*)é|(?s:.*))$`, []string{"", "é", "\xff"}},
	{`^(?s:.*)\Ax`, []string{"x", "yx"}},
	{`^(?s:.*)(?i:k)$`, []string{"\u212A", "ak", "K"}},
	{`^(?s:.*)[^a]$`, []string{"\xff", "a", "ab"}},
	// The prefilter: the least length and the literals needed.
	{`(?i)\x{212A}\x{017F}`, []string{"ks", "KS", "\u212A\u017F", "k"}},
	{`(?:abc|xabcy)(?:de|fde)+`, []string{"abcde", "xabcyfde", "abde", "abcd"}},
	{`(?:ab){2,}\x{FFFD}c`, []string{"abab\xffc", "ab\xffc", "ababab\ufffdc"}},
	{`put\("(?i:x)"`, []string{`put("X"`, `put("x`, `put(`}},
}

func TestProgMatch(t *testing.T) {
	var b backtrackBufs
	for _, c := range progCases {
		m := compileProg(c.src)
		if m == nil {
			t.Fatalf("compileProg(%q) = nil", c.src)
		}
		re := regexp.MustCompile(c.src)
		for _, s := range c.texts {
			got, ok := m.match(s, &b)
			if want := re.MatchString(s); !ok || got != want {
				t.Errorf("%q on %q: prog %v (decided %v), regexp %v", c.src, s, got, ok, want)
			}
		}
	}
}

func TestUnanchor(t *testing.T) {
	for _, tt := range []struct {
		src      string
		searched bool
	}{
		{`^(?s:.*)new\s+x`, true},
		{`^(?:(?s:.*)a|(?s:.*?)b|(?s:.*))$`, true},
		{`^(?:(?s:.*)a|b)$`, false},
		{`^.*a`, false}, // . is not \n
		{`(?s:.*)a`, false},
		{`(?m)^(?s:.*)a`, false},
	} {
		re, err := syntax.Parse(tt.src, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		if _, searched := unanchor(re); searched != tt.searched {
			t.Errorf("unanchor(%q) searched = %v, want %v", tt.src, searched, tt.searched)
		}
	}
}

func TestProgMatchLongText(t *testing.T) {
	m := compileProg(`^(?s:.*)a(?:b|c)$`)
	var b backtrackBufs
	if _, ok := m.match(strings.Repeat("x", maxProgVisited)+"ab", &b); ok {
		t.Error("a text past maxProgVisited was searched")
	}
	if len(b.visited) != 0 {
		t.Error("a text past maxProgVisited took memory")
	}
}

// FuzzProg checks that progMatcher matches what RE2 matches, on any
// regex and any text, UTF-8 or not.
func FuzzProg(f *testing.F) {
	for _, c := range progCases {
		for _, s := range c.texts {
			f.Add(c.src, s)
		}
	}
	f.Fuzz(func(t *testing.T, src, s string) {
		re, err := regexp.Compile(src)
		if err != nil {
			return
		}
		m := compileProg(src)
		if m == nil {
			return // too big a program; TestProgMatch checks the others compile
		}
		var b backtrackBufs
		got, ok := m.match(s, &b)
		if !ok {
			return
		}
		if want := re.MatchString(s); got != want {
			t.Fatalf("%q on %q: prog %v, regexp %v", src, s, got, want)
		}
	})
}
