package rulecore

import (
	"github.com/callgrade/callgrade/rules"
	"strings"
	"testing"
)

func TestTypeProperty(t *testing.T) {
	tests := []struct {
		rule, expected, actual string
		pass                   bool
	}{
		{`{"type":"integer"}`, `5`, `5`, true},
		{`{"type":"integer"}`, `5`, `5.0`, false},
		{`{"type":"integer"}`, `5`, `5e0`, false},
		{`{"type":"integer"}`, `5`, `true`, false},
		{`{"type":"integer"}`, `5`, `"5"`, false},
		{`{"type":"float"}`, `5.0`, `5.0`, true},
		{`{"type":"float"}`, `5.0`, `5`, false},
		{`{"type":"float"}`, `5.0`, `5E0`, true},
		{`{"type":"number"}`, `5.0`, `5`, true},
		{`{"type":["integer","float"]}`, `5.0`, `5`, true},
		{`{"type":"string"}`, `"a"`, `"a"`, true},
		{`{"type":["string","boolean"]}`, `"a"`, `true`, false}, // the type passes, the value does not
		{`{"type":["string","boolean"],"one_of":["a",true]}`, `"a"`, `true`, true},
		{`{"type":"boolean"}`, `true`, `true`, true},
		{`{"type":"array"}`, `[1]`, `[1]`, true},
		{`{"type":"object"}`, `{}`, `{}`, true},
		{`{"type":"null"}`, `null`, `null`, true},
		{`{"type":"object"}`, `null`, `null`, false},
		// one_of still decides the value; the type is checked besides.
		{`{"type":"integer","one_of":[5,""]}`, `5`, `""`, false},
		{`{"type":"string","one_of":[5,""]}`, `5`, `""`, true},
	}
	for _, tt := range tests {
		s := newSet(t, rules.Extensions{}, call("x", tt.rule))
		var diffs []Diff
		res := s.CompareChecked(mustParse(t, `{"x":`+tt.expected+`}`), mustParse(t, `{"x":`+tt.actual+`}`), nil, func(d Diff) { diffs = append(diffs, d) })
		if got := len(diffs) == 0; got != tt.pass {
			t.Errorf("rule %s, expected %s, actual %s: pass %v, want %v%s", tt.rule, tt.expected, tt.actual, got, tt.pass, describeDiffs(diffs))
		}
		if tt.pass != (res.Matched == res.Total) {
			t.Errorf("rule %s, actual %s: result %+v with pass %v", tt.rule, tt.actual, res, tt.pass)
		}
	}
}

func TestTypeBelowLeaf(t *testing.T) {
	// The item type is checked whatever the list's one_of decides, and
	// the normalisers of the list still reach its items.
	s := newSet(t, rules.Extensions{},
		call("xs", `{"one_of":[[1.0,2.0],[3.0]]}`),
		call("xs.#", `{"type":"float"}`),
		call("n", `"exact"`),
	)
	res, diffs := checkedText(t, s, `{"xs":[1.0,2.0],"n":1}`, `{"xs":[1,2.0],"n":1}`)
	if got := brief(diffs); len(got) != 1 || got[0] != "mismatch xs.0" {
		t.Fatalf("diffs %v%s", got, describeDiffs(diffs))
	}
	if !strings.Contains(diffs[0].Message, "expected a value of type float, got 1 (integer)") || diffs[0].Rule != "type=float" {
		t.Errorf("message %q, rule %q", diffs[0].Message, diffs[0].Rule)
	}
	if res.Matched != 1 || res.Total != 2 {
		t.Errorf("result %+v, want 1 of 2", res)
	}
	// A wrong type on an argument the expected call lacks counts as a miss.
	s = newSet(t, rules.Extensions{}, call("opt", `{"optional":true,"type":"string"}`))
	res, diffs = checkedText(t, s, `{}`, `{"opt":5}`)
	if len(diffs) != 1 || res.Matched != 0 || res.Total != 1 {
		t.Errorf("result %+v, diffs %v", res, brief(diffs))
	}
	// So does one with a type and nothing else, which is no extra field:
	// the type decides, under extra_fields reject as under allow.
	s2 := newSet(t, rules.Extensions{}, call("n", `{"type":"integer"}`))
	for _, ctx := range []Context{{}, {AllowExtra: true}} {
		var got []Diff
		res = s2.CompareChecked(mustParse(t, `{}`), mustParse(t, `{"n":5}`), &ctx, func(d Diff) { got = append(got, d) })
		if len(got) != 0 || res.Matched != res.Total || !s2.Accepts(mustParse(t, `{}`), mustParse(t, `{"n":5}`), &ctx, nil) {
			t.Errorf("type alone, allow %t, of the right type: %+v %v", ctx.AllowExtra, res, describeDiffs(got))
		}
		got = nil
		res = s2.CompareChecked(mustParse(t, `{}`), mustParse(t, `{"n":"5"}`), &ctx, func(d Diff) { got = append(got, d) })
		if b := brief(got); len(b) != 1 || b[0] != "mismatch n" || res.Matched != 0 || res.Total != 1 || s2.Accepts(mustParse(t, `{}`), mustParse(t, `{"n":"5"}`), &ctx, nil) {
			t.Errorf("type alone, allow %t, of the wrong type: %+v %v", ctx.AllowExtra, res, describeDiffs(got))
		}
	}
	// Absent, ignored and (with null_is_missing) null values are not checked.
	res, diffs = checkedText(t, s, `{}`, `{}`)
	if len(diffs) != 0 || res.Matched != res.Total {
		t.Errorf("absent: %+v %v", res, brief(diffs))
	}
	var got []Diff
	s.CompareChecked(mustParse(t, `{}`), mustParse(t, `{"opt":null}`), &Context{NullIsMissing: true}, func(d Diff) { got = append(got, d) })
	if len(got) != 0 {
		t.Errorf("null with null_is_missing: %v", brief(got))
	}
	// Keys that need escaping are named in PATH syntax.
	s = newSet(t, rules.Extensions{}, call(`a\.b.*`, `{"type":"string"}`))
	_, diffs = checkedText(t, s, `{"a.b":{"c":"x"}}`, `{"a.b":{"c":1}}`)
	if b := brief(diffs); len(b) != 2 || b[1] != `mismatch a\.b.c` {
		t.Errorf("diffs %v", b)
	}
}

func TestTypeCompileErrors(t *testing.T) {
	for _, spec := range []string{`{"type":"int"}`, `{"type":[]}`, `{"type":5}`, `{"type":["string",1]}`, `{"type":"string","ignore":true}`} {
		if _, err := Compile(mustParse(t, spec), rules.Extensions{}); err == nil {
			t.Errorf("Compile(%s): no error", spec)
		}
	}
	r, err := Compile(mustParse(t, `{"type":["integer","null"]}`), rules.Extensions{})
	if err != nil || r.String() != "type=[integer,null]" {
		t.Errorf("String() = %q, %v", r, err)
	}
}

func TestParamNormalizers(t *testing.T) {
	tests := []struct {
		rule, expected, actual string
		pass                   bool
	}{
		{`{"normalize":[{"delete":" ,./-_*^"},"lower"]}`, `"New York"`, `"new-york"`, true},
		{`{"normalize":[{"delete":" ,./-_*^"},"lower"]}`, `"x**2"`, `"x^2"`, true},
		{`{"normalize":[{"delete":" ,./-_*^"},"lower"]}`, `"New York"`, `"New\tYork"`, false},
		{`{"normalize":[{"delete":" ,./-_*^"}]}`, `""`, `"..."`, true},
		{`{"normalize":[{"delete":"é"}]}`, `"caf"`, `"caféé"`, true},
		{`{"normalize":[{"replace":{"'":"\""}}]}`, `"it's"`, `"it\"s"`, true},
		{`{"normalize":[{"replace":{"ab":"x","a":"y"}}]}`, `"xy"`, `"aba"`, true},
		{`{"normalize":[{"replace":{"'":"\""}}]}`, `"it's"`, `"its"`, false},
	}
	for _, tt := range tests {
		s := newSet(t, rules.Extensions{}, call("x", tt.rule))
		_, diffs := compareText(t, s, nil, `{"x":`+tt.expected+`}`, `{"x":`+tt.actual+`}`)
		if got := len(diffs) == 0; got != tt.pass {
			t.Errorf("rule %s, %s vs %s: pass %v, want %v%s", tt.rule, tt.expected, tt.actual, got, tt.pass, describeDiffs(diffs))
		}
	}
	for _, spec := range []string{
		`{"normalize":[{"delete":""}]}`, `{"normalize":[{"delete":5}]}`, `{"normalize":[{"replace":{}}]}`,
		`{"normalize":[{"replace":{"a":1}}]}`, `{"normalize":[{"squash":"a"}]}`, `{"normalize":[{"delete":"a","replace":{"a":"b"}}]}`,
		`{"normalize":[5]}`,
	} {
		if _, err := Compile(mustParse(t, spec), rules.Extensions{}); err == nil {
			t.Errorf("Compile(%s): no error", spec)
		}
	}
	r, err := Compile(mustParse(t, `{"normalize":[{"delete":"-"},"lower"]}`), rules.Extensions{})
	if err != nil || r.String() != `normalize=[{"delete":"-"},lower]` {
		t.Errorf("String() = %q, %v", r, err)
	}
}

func checkedText(tb testing.TB, s *Set, expected, actual string) (Result, []Diff) {
	tb.Helper()
	var diffs []Diff
	res := s.CompareChecked(mustParse(tb, expected), mustParse(tb, actual), nil, func(d Diff) { diffs = append(diffs, d) })
	return res, diffs
}

// TestTypePaths gives the path of a type diff in PATH syntax: keys
// escaped, list indices in place, deeper than the walk keeps in its
// array, and the arguments object itself as "".
func TestTypePaths(t *testing.T) {
	deep := `{"d":{"d":{"d":{"d":{"d":{"d":{"d":{"d":{"d":{"d":{"d":{"d":{"d":{"d":1}}}}}}}}}}}}}}`
	for _, tc := range []struct {
		rule, at, actual, want string
	}{
		{`a\.b`, `{"type":"integer"}`, `{"a.b":"x"}`, `a\.b`},
		{`\*`, `{"type":"integer"}`, `{"*":"x"}`, `\*`},
		{"o.l.#.k", `{"type":"string"}`, `{"o":{"l":[{"k":"s"},{"k":1}]}}`, "o.l.1.k"},
		{"d.d.d.d.d.d.d.d.d.d.d.d.d.d", `{"type":"string"}`, deep, "d.d.d.d.d.d.d.d.d.d.d.d.d.d"},
		{"", `{"type":"array"}`, `{"x":1}`, ""},
	} {
		var p Path
		if tc.rule != "" {
			p = mustPathT(tc.rule)
		}
		s := &Set{}
		s.Add(LevelCall, p, mustRule(t, rules.Extensions{}, tc.at))
		// Expected as actual: the type diff is the only one.
		_, diffs := checkedText(t, s, tc.actual, tc.actual)
		if len(diffs) != 1 || diffs[0].Path != tc.want || !strings.HasPrefix(diffs[0].Message, "expected a value of type") {
			t.Errorf("%s %s on %s: diffs %v, want one at %q%s", tc.rule, tc.at, tc.actual, brief(diffs), tc.want, describeDiffs(diffs))
		}
	}
}

// TestTypeSetString checks the names of sets of types, and that the
// shortcut for a set of one name names every set as the whole list does.
func TestTypeSetString(t *testing.T) {
	for s := typeSet(1); s < typeNull<<1; s++ {
		if got, want := s.String(), s.list(); got != want {
			t.Errorf("typeSet(%#x).String() = %q, want %q", uint16(s), got, want)
		}
	}
	for s, want := range map[typeSet]string{
		typeInteger:              "integer",
		typeNumber:               "number",
		typeString | typeNull:    "string or null",
		typeNumber | typeBoolean: "number or boolean",
		typeFloat | typeArray:    "float or array",
		typeInteger | typeNull:   "integer or null",
	} {
		if got := s.String(); got != want {
			t.Errorf("typeSet(%#x).String() = %q, want %q", uint16(s), got, want)
		}
	}
}
