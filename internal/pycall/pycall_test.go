package pycall

import (
	"errors"
	"testing"
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
