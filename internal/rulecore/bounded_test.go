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
	// Text that is not UTF-8: RE2 reads each byte of a broken sequence
	// as U+FFFD, which the bounded reader must see on either side.
	f.Add("abc", "\xffabc\xe4\xb8", uint8(0), "")
	f.Add("中", "\xf0\xe4\xb8\xad\xad", uint8(0), "")
	f.Add("x", "\xe4\xb8\xb8\xadx\x80", uint8(0), "")
	f.Fuzz(func(t *testing.T, lit, s string, shape uint8, other string) {
		if lit == "" || !utf8.ValidString(lit) || !utf8.ValidString(other) || strings.ContainsRune(lit+other, utf8.RuneError) {
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

// stdLike writes s as bfcl's stdPattern does: each character quoted, the
// characters of del allowed any number of times around each, in any
// case when fold.
func stdLike(s, del string, fold bool) string {
	// In a class, - (a range), ] and ^ are escaped too, as bfcl/source.go
	// escapes them; QuoteMeta leaves -.
	cls := "[" + strings.ReplaceAll(regexp.QuoteMeta(del), "-", `\-`) + "]*"
	if del == "" {
		cls = ""
	}
	var b strings.Builder
	b.WriteString(cls)
	for _, r := range s {
		b.WriteString(regexp.QuoteMeta(string(r)))
		b.WriteString(cls)
	}
	if fold {
		return "(?i:" + b.String() + ")"
	}
	return b.String()
}

func TestCompileAnchored(t *testing.T) {
	for _, tt := range []struct {
		src     string
		alts    int // 0: not of the shape
		deleted int // how many of them have the deleted form
	}{
		{"^" + stdLike("mapcontroller", " ,./-_*^", true) + "$", 1, 1},
		{`^20\.5$`, 1, 0},
		{`^(?:"` + stdLike("hello", " .", true) + `"|'` + stdLike("hello", " .", true) + `'|` + stdLike("hello", " .", true) + `)$`, 3, 1},
		{`^\s*\{[\t\v\f\r ]*['"]*key['"]*[\t\v\f\r ]*:\s*['"]*x['"]*[\t\v\f\r ]*\}(?s:.*)$`, 1, 0},
		{`^[-_]*a[-_]*b[_-]*$`, 1, 1}, // the same class, written two ways
		{`^[-_]*a[-_]*b[-]*$`, 1, 0},  // another class at the end
		{`^[-_]*a[-_]?b[-_]*$`, 1, 0}, // X?
		{`^[-_]*a[-_]*$`, 1, 1},
		{`^[-_]*$`, 1, 1},    // no character but deleted ones
		{`^a*a$`, 0, 0},      // a repeated class shares a with what follows
		{`^[ab]*b$`, 0, 0},   // the same, with a class
		{`^[ab]*c*b$`, 0, 0}, // past a repeated item
		{`^(?i:k*)\x{212A}$`, 0, 0},
		{`^a.*b$`, 0, 0},
		{`^abc`, 0, 0},
		{`abc$`, 0, 0},
		{`^(a)$`, 0, 0},
		{`^a+$`, 1, 0},
		{`^0*3\n?$`, 1, 0},
		{`^a?a$`, 0, 0}, // a? may leave the a to what follows
		{`^(?:ab)?$`, 0, 0},
		{`^(?:ab|ac)$`, 1, 0}, // RE2 reads it a[bc]
	} {
		a := compileAnchored(tt.src)
		if len(a) != tt.alts {
			t.Errorf("compileAnchored(%q) = %d alternatives, want %d", tt.src, len(a), tt.alts)
		}
		deleted := 0
		for _, q := range a {
			if q.lits != nil {
				deleted++
			}
		}
		if deleted != tt.deleted {
			t.Errorf("compileAnchored(%q): %d alternatives in the deleted form, want %d", tt.src, deleted, tt.deleted)
		}
	}
}

// FuzzAnchored checks that anchoredAlts matches what RE2 matches, on
// patterns of the shape and any text, UTF-8 or not.
func FuzzAnchored(f *testing.F) {
	for _, c := range []struct {
		lit, del, s string
		fold        bool
	}{
		{"mapcontroller", " ,./-_*^", "Map_Controller", true},
		{"mapcontroller", " ,./-_*^", "mapcontrollers", true},
		{"mapcontroller", " ,./-_*^", "-Map_Controlle.", true}, // one short
		{"ab", "-", "--", true},
		{"a-b", "_", "_a-_b_", false},           // a literal between the deleted
		{"kelvin", " ", "KEL VIN \u212A", true}, // not ASCII after a wrong character
		{"kelvin", " ", "\u212Aelvin", true},
		{"s", "", "\u017F", true},
		{"20.5", "", "20.5", false},
		{"é", ".", ".É.", true},
		{"a", "", "a\xff", false},
		{"\uFFFD", "", "\xff", false},
	} {
		f.Add(c.lit, c.del, c.s, c.fold, false)
	}
	f.Fuzz(func(t *testing.T, lit, del, s string, fold, quoted bool) {
		if !utf8.ValidString(lit) || !utf8.ValidString(del) {
			return
		}
		body := stdLike(lit, del, fold)
		if !quoted && !fold {
			body = `0*` + body + `\n?` // a number's form (bfcl/source.go)
		}
		if quoted {
			body = `(?:"` + body + `"|'` + body + `'|` + body + `)`
		}
		src := "^" + body + "$"
		re, err := regexp.Compile(src)
		if err != nil {
			return
		}
		a := compileAnchored(src)
		if a == nil {
			return // a shape it does not decide, such as a repeated class that may end early
		}
		if got, want := a.match(s), re.MatchString(s); got != want {
			t.Fatalf("%q on %q: anchored %v, regexp %v", src, s, got, want)
		}
	})
}
