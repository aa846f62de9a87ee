package pycall

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// The fast readers of strings, names, numbers and space agree with the
// general ones: plain with stringLit, plainRun with a byte a step, ident
// with the rune a step it replaced, pyNumber with convertNumber,
// spaceAfter with skipSpace.
func TestScanAgrees(t *testing.T) {
	for _, src := range scanSeeds {
		checkScan(t, src)
	}
}

var scanSeeds = []string{
	`"abc", x`,
	`'startDate': '2023-01-01'`,
	`"0123456789abcdef\"x"`,
	`"0123456\\789"`,
	`"0123456789` + "\n" + `abc"`,
	`"北京市朝阳区", 'x'`,
	"\"abcdefg\xff\"",
	`'''abc'''`,
	`''`,
	`"`,
	`'aaaaaaaa"bbbbbbbb'`,
	`NightSkyAnalysis_performEclipseAnalysis(a=1)`,
	`_x9 = 1`,
	`9abc`,
	`名字_1(a=1)`,
	"a\u00e9b\u0301c d",
	"\xffabc",
	" x", "  x", " ", " #c\n x", " \\\n x", "\tx", " \x00",
	`37.9838`, `0.5`, `00.5`, `5.`, `.5`, `1_0.5`, `10`, `010`, `1e5`, `0x1F`,
}

// FuzzScan checks the fast readers against the general ones on any text.
func FuzzScan(f *testing.F) {
	for _, s := range scanSeeds {
		f.Add(s)
	}
	f.Fuzz(checkScan)
}

func checkScan(t *testing.T, src string) {
	t.Helper()
	p := &parser{src: src}
	s, ok := p.plain()
	if !ok && p.pos != 0 {
		t.Fatalf("%q: plain failed but moved to %d", src, p.pos)
	}
	if ok {
		g := &parser{src: src}
		var b strings.Builder
		if err := g.stringLit(&b); err != nil || b.String() != s || g.pos != p.pos {
			t.Fatalf("%q: plain read %q to %d; stringLit %q to %d, %v", src, s, p.pos, b.String(), g.pos, err)
		}
	}
	for _, q := range []byte{'"', '\''} {
		n, high := plainRun(src, q)
		want := len(src)
		if i := strings.IndexAny(src, string(q)+"\\\n"); i >= 0 {
			want = i
		}
		if n != want || !high && !isASCII(src[:n]) {
			t.Fatalf("%q: plainRun(%c) = %d, %v; want %d", src, q, n, high, want)
		}
	}
	if lit, err := pyNumber(src); err == nil {
		if want, err := convertNumber(src); err != nil || lit != want {
			t.Fatalf("%q: pyNumber %s; convertNumber %s, %v", src, lit, want, err)
		}
	}
	for start := range min(len(src), 4) {
		p := &parser{src: src, pos: start}
		if got, want := p.ident(), identByRune(src, start); got != want {
			t.Fatalf("%q at %d: ident %q, want %q", src, start, got, want)
		}
		a, b := &parser{src: src, pos: start}, &parser{src: src, pos: start}
		a.spaceAfter()
		b.skipSpace()
		if a.pos != b.pos {
			t.Fatalf("%q at %d: spaceAfter to %d, skipSpace to %d", src, start, a.pos, b.pos)
		}
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// identByRune is ident as it was, a rune a step.
func identByRune(src string, start int) string {
	i := start
	for i < len(src) {
		r, n := utf8.DecodeRuneInString(src[i:])
		if i == start && !isIdentStart(r) || i > start && !isIdentPart(r) {
			break
		}
		i += n
	}
	return src[start:i]
}
