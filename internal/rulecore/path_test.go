package rulecore

import (
	"errors"
	"github.com/callgrade/callgrade/internal/errcode"
	"github.com/callgrade/callgrade/rules"
	"reflect"
	"testing"
)

func TestParsePath(t *testing.T) {
	lit := func(k string) pathSeg { return pathSeg{kind: segLit, key: k} }
	star, hash := pathSeg{kind: segStar}, pathSeg{kind: segHash}
	tests := []struct {
		in   string
		segs []pathSeg
		str  string // String(); "" means in
	}{
		{"city", []pathSeg{lit("city")}, ""},
		{"filters.price.max", []pathSeg{lit("filters"), lit("price"), lit("max")}, ""},
		{"items.0.sku", []pathSeg{lit("items"), lit("0"), lit("sku")}, ""},
		{"items.#.sku", []pathSeg{lit("items"), hash, lit("sku")}, ""},
		{"*", []pathSeg{star}, ""},
		{"*.x.#", []pathSeg{star, lit("x"), hash}, ""},
		{`a\.b`, []pathSeg{lit("a.b")}, ""},
		{`a\.b.c`, []pathSeg{lit("a.b"), lit("c")}, ""},
		{`a\\b`, []pathSeg{lit(`a\b`)}, ""},
		{`a\\.b`, []pathSeg{lit(`a\`), lit("b")}, ""},
		{`\*`, []pathSeg{lit("*")}, ""},
		{`\#.x`, []pathSeg{lit("#"), lit("x")}, ""},
		{`a\*b`, []pathSeg{lit("a*b")}, "a*b"},
		{"c#", []pathSeg{lit("c#")}, ""},
		{"**", []pathSeg{lit("**")}, ""},
		{"#(x)", []pathSeg{lit("#(x)")}, ""},
		{`\.`, []pathSeg{lit(".")}, ""},
		{" a ", []pathSeg{lit(" a ")}, ""},
		{"ü.日本", []pathSeg{lit("ü"), lit("日本")}, ""},
	}
	for _, tt := range tests {
		p, err := ParsePath(tt.in)
		if err != nil {
			t.Errorf("ParsePath(%q): %v", tt.in, err)
			continue
		}
		if !reflect.DeepEqual(p.segs, tt.segs) {
			t.Errorf("ParsePath(%q) = %+v, want %+v", tt.in, p.segs, tt.segs)
		}
		want := tt.str
		if want == "" {
			want = tt.in
		}
		if got := p.String(); got != want {
			t.Errorf("ParsePath(%q).String() = %q, want %q", tt.in, got, want)
		}
		// String reads back as the same path.
		q, err := ParsePath(p.String())
		if err != nil || !reflect.DeepEqual(q.segs, p.segs) {
			t.Errorf("round trip of %q: %+v, %v", tt.in, q.segs, err)
		}
	}
}

func TestParsePathErrors(t *testing.T) {
	tests := []struct {
		in     string
		offset int
		msg    string
	}{
		{"", 0, "empty path"},
		{".", 0, "empty segment"},
		{".a", 0, "empty segment"},
		{"a.", 2, "empty segment"},
		{"a..b", 2, "empty segment"},
		{"a.b..", 4, "empty segment"},
		{`a\`, 1, "trailing backslash"},
		{`a\x`, 1, `unknown escape \x`},
		{`ab.c\d`, 4, `unknown escape \d`},
	}
	for _, tt := range tests {
		_, err := ParsePath(tt.in)
		var pe *PathError
		if !errors.As(err, &pe) {
			t.Errorf("ParsePath(%q) = %v, want a *PathError", tt.in, err)
			continue
		}
		if pe.Path != tt.in || pe.Offset != tt.offset || pe.Msg[:len(tt.msg)] != tt.msg {
			t.Errorf("ParsePath(%q): %+v; want offset %d, message %q", tt.in, *pe, tt.offset, tt.msg)
		}
	}
	pe := &PathError{Path: "a..b", Offset: 2, Msg: "empty segment"}
	if got := pe.Error(); got != `path "a..b" at offset 2: empty segment` {
		t.Errorf("Error() = %q", got)
	}
	if !errors.Is(pe, errcode.InvalidPath) || errors.Is(pe, errcode.RuleCompileError) {
		t.Errorf("errors.Is: want invalid_path and not rule_compile_error")
	}
}

func TestArrayIndex(t *testing.T) {
	for k, want := range map[string]int{"0": 0, "7": 7, "12": 12, "00": -1, "01": -1, "-1": -1, "a": -1, "": -1, "1a": -1, "1234567890": -1, "123456789": 123456789} {
		if got := arrayIndex(k); got != want {
			t.Errorf("arrayIndex(%q) = %d, want %d", k, got, want)
		}
	}
}

func TestDiffPathsParseBack(t *testing.T) {
	// A diff's path, parsed as a PATH, addresses the same field.
	keys := []string{"a.b", `a\b`, "*", "#", "c#", "0", "x"}
	for _, k := range keys {
		s := newSet(t, rules.Extensions{})
		e := `{"o":{` + quote(k) + `:[1]}}`
		a := `{"o":{` + quote(k) + `:[2]}}`
		_, d := compareText(t, s, nil, e, a)
		if len(d) != 1 {
			t.Fatalf("%q: %v", k, describeDiffs(d))
		}
		p, err := ParsePath(d[0].Path)
		if err != nil {
			t.Fatalf("%q: diff path %q: %v", k, d[0].Path, err)
		}
		want := []pathSeg{{kind: segLit, key: "o"}, {kind: segLit, key: k}, {kind: segLit, key: "0"}}
		if !reflect.DeepEqual(p.segs, want) {
			t.Errorf("%q: diff path %q parses as %+v", k, d[0].Path, p.segs)
		}
	}
}

func quote(s string) string {
	out := `"`
	for _, c := range s {
		if c == '"' || c == '\\' {
			out += `\`
		}
		out += string(c)
	}
	return out + `"`
}

func TestSegments(t *testing.T) {
	p, err := ParsePath(`items.#.a\.b.*.0.\*`)
	if err != nil {
		t.Fatal(err)
	}
	want := []Segment{
		{Key: "items", Index: -1}, {Hash: true, Index: -1}, {Key: "a.b", Index: -1},
		{Star: true, Index: -1}, {Key: "0", Index: 0}, {Key: "*", Index: -1},
	}
	got := p.Segments()
	if len(got) != len(want) {
		t.Fatalf("Segments() = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("segment %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}
