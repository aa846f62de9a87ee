package value

import (
	"errors"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/internal/number"
)

func TestParseRejects(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		want   error
		offset int
	}{
		{"duplicate key", `{"city":"Paris","city":"Berlin"}`, ErrDuplicateKey, 16},
		{"nested duplicate", `{"a":{"x":1,"y":2,"x":3}}`, ErrDuplicateKey, 18},
		{"NaN", `{"a":NaN}`, ErrNonFinite, 5},
		{"Infinity", `[Infinity]`, ErrNonFinite, 1},
		{"-Infinity", `[-Infinity]`, ErrNonFinite, 1},
		{"invalid UTF-8", "{\"a\":\"\xff\"}", ErrInvalidUTF8, 6},
		{"lone surrogate", `"\ud800"`, ErrInvalidUTF8, 1},
		{"too deep", strings.Repeat("[", 257) + strings.Repeat("]", 257), ErrTooDeep, 256},
		{"truncated", `{"a":1`, ErrSyntax, 6},
		{"trailing", `{} {}`, ErrSyntax, 3},
		{"single quotes", `{'a':1}`, ErrSyntax, 1},
		{"leading zero", `01`, ErrSyntax, 1},
		{"bare minus", `-`, ErrSyntax, 1},
		{"dot without digits", `1.`, ErrSyntax, 2},
		{"control char", "\"a\x01\"", ErrSyntax, 2},
		{"bad escape", `"\x"`, ErrSyntax, 1},
		{"empty", ``, ErrSyntax, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(tt.in)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Parse(%q) error = %v, want %v", tt.in, err, tt.want)
			}
			var pe *Error
			if !errors.As(err, &pe) || pe.Offset != tt.offset {
				t.Errorf("Parse(%q) offset = %+v, want %d", tt.in, pe, tt.offset)
			}
		})
	}
}

func TestParseLimitsTooLarge(t *testing.T) {
	_, err := parseLimits(`{"a":"`+strings.Repeat("x", 100)+`"}`, Limits{MaxBytes: 64})
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("error = %v, want ErrTooLarge", err)
	}
}

func TestParseRoundTrip(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"unit":"celsius","city":"Berlin"}`, `{"city":"Berlin","unit":"celsius"}`},
		{` [1, 2.50, -0, 1e400, true, false, null] `, `[1,2.50,-0,1e400,true,false,null]`},
		{`"a\"b\\c\/d\n\u00e9\ud83d\ude00"`, `"a\"b\\c/d\né😀"`},
		{`{}`, `{}`},
		{`[]`, `[]`},
		{`{"b":{"d":1,"c":[{}]},"a":""}`, `{"a":"","b":{"c":[{}],"d":1}}`},
	}
	for _, tt := range tests {
		v, err := Parse(tt.in)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.in, err)
		}
		if got := v.String(); got != tt.want {
			t.Errorf("Parse(%q).String() = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestDeepInputIsFastAndTyped(t *testing.T) {
	// A megabyte of '[' must fail at the depth limit, not recurse a million times.
	_, err := Parse(strings.Repeat("[", 1<<20))
	if !errors.Is(err, ErrTooDeep) {
		t.Fatalf("error = %v, want ErrTooDeep", err)
	}
}

func TestCompareNumbers(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"5", "5.0", 0}, {"5", "5e0", 0}, {"5", "0.5e1", 0}, {"500", "5E+2", 0},
		{"9007199254740993", "9007199254740992", 1},
		{"0.30000000000000004", "0.3", 1},
		{"0", "-0", 0}, {"0.0", "0e10", 0},
		{"-1", "1", -1}, {"-2", "-1", -1}, {"1.5", "1.25", 1},
		{"100", "1e2", 0}, {"0.001", "1e-3", 0}, {"1e400", "1e401", -1},
		{"12", "120e-1", 0}, {"1.10", "1.1", 0}, {"10", "9.99", 1},
	}
	for _, tt := range tests {
		if got := number.Compare(tt.a, tt.b); got != tt.want {
			t.Errorf("number.Compare(%s, %s) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := number.Compare(tt.b, tt.a); got != -tt.want {
			t.Errorf("number.Compare(%s, %s) = %d, want %d", tt.b, tt.a, got, -tt.want)
		}
	}
}

func TestCanonicalNumber(t *testing.T) {
	tests := []struct{ in, want string }{
		{"5.0", "5"}, {"5e0", "5"}, {"0.5e1", "5"}, {"1.50", "1.5"}, {"-0", "0"},
		{"1e400", "1e400"}, {"0.001", "0.001"}, {"1e-7", "1e-7"}, {"123.45e1", "1234.5"},
		{"-12e3", "-12000"}, {"1.23e30", "1.23e30"},
	}
	for _, tt := range tests {
		if got := number.Canonical(tt.in); got != tt.want {
			t.Errorf("number.Canonical(%s) = %s, want %s", tt.in, got, tt.want)
		}
		if number.Compare(tt.in, number.Canonical(tt.in)) != 0 {
			t.Errorf("number.Canonical(%s) changed the value", tt.in)
		}
	}
}

func TestEqual(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{`{"city":"Berlin","unit":"c"}`, `{"unit":"c","city":"Berlin"}`, true},
		{`5`, `5.0`, true},
		{`"5"`, `5`, false},
		{`true`, `1`, false},
		{`[1,2]`, `[2,1]`, false},
		{`{"a":1}`, `{"a":1,"b":null}`, false},
		{`null`, `null`, true},
	}
	for _, tt := range tests {
		a, _ := Parse(tt.a)
		b, _ := Parse(tt.b)
		if got := Equal(a, b); got != tt.want {
			t.Errorf("Equal(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// parseLimits parses s within lim into memory of its own, as a nil
// *Parser does.
func parseLimits(s string, lim Limits) (Value, error) { return parse(s, lim, nil) }

// TestGetSmall looks up every key of objects of each size up to where Get
// turns to bisection, keys that differ in length, first byte or only the
// last, and keys that are absent; a value that is no object has none.
func TestGetSmall(t *testing.T) {
	keys := []string{"", "a", "b", "ab", "role", "rolf", "type", "content", "tool_calls", "tool_call_id"}
	for n := 0; n <= len(keys); n++ {
		m := make([]Member, n)
		for i := range n {
			m[i] = Member{Key: keys[i], Value: Int(int64(i))}
		}
		v, err := ObjectOf(m...)
		if err != nil {
			t.Fatal(err)
		}
		for i, k := range keys {
			x, ok := v.Get(k)
			if want := i < n; ok != want || v.Has(k) != want || ok && x.Str() != Int(int64(i)).Str() || !ok && !x.IsNull() {
				t.Errorf("%d members: Get(%q) = %v, %v", n, k, x, ok)
			}
		}
		for _, k := range []string{"c", "rol", "roles", "tool_call", "z"} {
			if x, ok := v.Get(k); ok || !x.IsNull() {
				t.Errorf("%d members: Get(%q) = %v, %v; want missing", n, k, x, ok)
			}
		}
	}
	for _, v := range []Value{{}, BoolOf(true), StringOf("role"), Int(1), ArrayOf(StringOf("role"))} {
		if x, ok := v.Get("role"); ok || !x.IsNull() {
			t.Errorf("%v.Get(role) = %v, %v; want missing", v, x, ok)
		}
	}
}
