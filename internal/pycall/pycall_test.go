package pycall

import (
	"errors"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/value"
)

// The BFCL importer's tests (bfcl/pycall_test.go) cover the syntax; these
// cover what the response package needs besides: where each call is, the
// calls before an error, and a lone literal.
func TestParseSpans(t *testing.T) {
	src := ` [f(a=1), g.h(b="x") ]`
	calls, err := Parse(src)
	if err != nil || len(calls) != 2 {
		t.Fatalf("Parse(%q) = %v, %v", src, calls, err)
	}
	for i, want := range []string{`f(a=1)`, `g.h(b="x")`} {
		if got := src[calls[i].Start:calls[i].End]; got != want {
			t.Errorf("call %d spans %q, want %q", i, got, want)
		}
	}
	if calls[1].Name != "g.h" || calls[1].Args != `{"b":"x"}` {
		t.Errorf("call 1 = %+v", calls[1])
	}
}

func TestParseKeepsCallsBeforeAnError(t *testing.T) {
	for _, tt := range []struct {
		src  string
		n    int
		from int
	}{
		{`[f(a=1), g(b=)]`, 1, 13},
		{`[f(a=1), g(b=2)`, 2, 15},
		{`[f(a=1)] x`, 1, 9},
		{`f(a=`, 0, 4},
	} {
		calls, err := Parse(tt.src)
		var se *SyntaxError
		if !errors.As(err, &se) || len(calls) != tt.n || se.Offset != tt.from {
			t.Errorf("Parse(%q) = %d calls, %v; want %d calls and an error at %d", tt.src, len(calls), err, tt.n, tt.from)
		}
	}
}

func TestLiteral(t *testing.T) {
	for src, want := range map[string]string{
		` {'a': [1, (2,)], "b": None} `: `{"a":[1,[2]],"b":null}`,
		`True`:                          `true`,
		`(5)`:                           `5`,
		`((1, 2))`:                      `[1,2]`,
		`'x' "y"`:                       `"xy"`,
	} {
		if got, err := Literal(src); err != nil || got != want {
			t.Errorf("Literal(%q) = %s, %v; want %s", src, got, err, want)
		}
	}
	for _, src := range []string{``, `x`, `1 2`, `{'a': 1, 'a': 2}`, `[1,`} {
		if got, err := Literal(src); err == nil {
			t.Errorf("Literal(%q) = %s, want an error", src, got)
		}
	}
}

// ParseValues reads what Parse reads: the same calls, their arguments the
// same values, and the same errors.
func TestParseValuesAgrees(t *testing.T) {
	for _, src := range parseSeeds {
		checkAgree(t, src)
	}
}

var parseSeeds = []string{
	`[f(a=1, b="x"), g.h(c=[1, (2, 3)], d={'k': None, "n": (5)}, e=())]`,
	`f(a=-1.5e3, b=True, c='\x41' "b", d=[[], {}, [()]], e=(((1,),),))`,
	`[f(a={'x': {'y': [1, {'z': 'w'}]}}, b=-0, c=0x1F, d=1_000)]`,
	`[f(a=1), g(b=)]`,
	`[f(a={1: 2})]`,
	`[f(a=1, a=2)]`,
	`[]`,
}

func checkAgree(t *testing.T, src string) {
	t.Helper()
	want, wantErr := Parse(src)
	got, gotErr := ParseValues(src)
	if (wantErr == nil) != (gotErr == nil) || wantErr != nil && wantErr.Error() != gotErr.Error() || len(got) != len(want) {
		t.Fatalf("%q: Parse = %v, %v; ParseValues = %v, %v", src, want, wantErr, got, gotErr)
	}
	for i := range want {
		w, err := value.Parse(want[i].Args)
		if err != nil {
			t.Fatalf("%q: Parse wrote arguments that do not parse: %s: %v", src, want[i].Args, err)
		}
		g := got[i]
		if g.Name != want[i].Name || g.Start != want[i].Start || g.End != want[i].End || !value.Equal(g.Value, w) || g.Value.String() != w.String() {
			t.Fatalf("%q: call %d: Parse %s %s, ParseValues %s %s", src, i, want[i].Name, w, g.Name, g.Value)
		}
	}
}

// FuzzParseValues checks that the two readings agree on any text, and
// that Parse writes JSON.
func FuzzParseValues(f *testing.F) {
	for _, s := range parseSeeds {
		f.Add(s)
	}
	f.Fuzz(checkAgree)
}

// AppendValuesN reads the first n calls of a list, and says where the
// next one starts; a list of n calls, or fewer, is read as AppendValues
// reads it, error and all.
func TestAppendValuesN(t *testing.T) {
	for _, tt := range []struct {
		src     string
		n       int
		calls   int
		more    int
		failing bool
	}{
		{`[f(a=1), g(b=2), h()]`, 2, 2, 17, false},
		{`[f(a=1), g(b=2), h(`, 2, 2, 17, false},
		{`[f(a=1), g(b=2)]`, 2, 2, -1, false},
		{`[f(a=1), g(b=2) x`, 2, 2, -1, true},
		{`[f(a=1)]`, 0, 0, 1, false},
		{`f(a=1)`, 0, 1, -1, false},
		{`f(a=1), g(b=2), h()`, 2, 2, 16, false},
		{`f(a=1), g(b=2)`, -1, 2, -1, false},
		{`f(a=1),`, -1, 1, -1, false},
		{`f(a=1), 5`, -1, 1, -1, true},
		{`f(a=1) g()`, -1, 1, -1, true},
		{`[f(a=1), g(b=2)]`, -1, 2, -1, false},
	} {
		calls, more, err := AppendValuesN(nil, tt.src, nil, tt.n)
		if len(calls) != tt.calls || more != tt.more || (err != nil) != tt.failing {
			t.Errorf("AppendValuesN(%q, %d) = %d calls, %d, %v", tt.src, tt.n, len(calls), more, err)
		}
	}
}

// Names are read as Python reads identifiers, in NFKC: a full-width or
// ligature spelling is the ASCII name, and a keyword so spelled twice is
// repeated. True, False and None are values, read as written.
func TestNamesInNFKC(t *testing.T) {
	for _, tt := range []struct{ src, name, args, err string }{
		{`ｇｅｔ_ｗｅａｔｈｅｒ(ｃｉｔｙ="Berlin")`, "get_weather", `{"city":"Berlin"}`, ""},
		{`api.ｓｅａｒｃｈ(ﬁlter=1)`, "api.search", `{"filter":1}`, ""},
		{`f(ｘ=1, x=2)`, "", "", `keyword argument "x" repeated`},
		{`f(x=Ｔｒｕｅ)`, "", "", "Ｔｒｕｅ"},
		{`f(city="ｃｉｔｙ")`, "f", `{"city":"ｃｉｔｙ"}`, ""},
	} {
		calls, err := Parse(tt.src)
		switch {
		case tt.err != "":
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("Parse(%q) = %v, %v; want an error with %q", tt.src, calls, err, tt.err)
			}
		case err != nil || len(calls) != 1 || calls[0].Name != tt.name || calls[0].Args != tt.args:
			t.Errorf("Parse(%q) = %+v, %v; want %s %s", tt.src, calls, err, tt.name, tt.args)
		}
	}
}
