package rulecore

import (
	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/rules"
	"strings"
	"testing"
)

// TestCompareOptionalExpectedAbsent holds an optional field that the
// expected call leaves out to its rule when the actual call gives it: the
// contract says "if present it is compared", and a one_of, a regex or a
// comparator needs no expected value to decide.
func TestCompareOptionalExpectedAbsent(t *testing.T) {
	runCompareCases(t, []compareCase{
		{name: "one_of holds", rules: []rs{call("u", `{"optional":true,"one_of":["c","f"]}`)}, e: `{}`, a: `{"u":"k"}`,
			want: []string{"mismatch u"}, result: &Result{0, 1}},
		{name: "one_of passes", rules: []rs{call("u", `{"optional":true,"one_of":["c","f"]}`)}, e: `{}`, a: `{"u":"f"}`, result: &Result{0, 0}},
		{name: "one_of with case folding", rules: []rs{call("u", `{"optional":true,"one_of":["c","f"],"case_insensitive":true}`)}, e: `{}`, a: `{"u":"F"}`},
		{name: "one_of absent both", rules: []rs{call("u", `{"optional":true,"one_of":["c"]}`)}, e: `{}`, a: `{}`},
		{name: "one_of absent actual", rules: []rs{call("u", `{"optional":true,"one_of":["c"]}`)}, e: `{"u":"c"}`, a: `{}`, result: &Result{1, 1}},
		{name: "regex holds", rules: []rs{call("s", `{"optional":true,"regex":"^a"}`)}, e: `{}`, a: `{"s":"zzz"}`, want: []string{"mismatch s"}},
		{name: "regex passes", rules: []rs{call("s", `{"optional":true,"regex":"^a"}`)}, e: `{}`, a: `{"s":"abc"}`},
		{name: "regex on a number", rules: []rs{call("s", `{"optional":true,"regex":"^a"}`)}, e: `{}`, a: `{"s":5}`, want: []string{"mismatch s"}},
		{name: "nested", rules: []rs{call("f.u", `{"optional":true,"one_of":[1,2]}`)}, e: `{"f":{}}`, a: `{"f":{"u":3}}`, want: []string{"mismatch f.u"}},
		{name: "null is missing", rules: []rs{call("u", `{"optional":true,"one_of":["c"]}`)}, ctx: Context{NullIsMissing: true}, e: `{}`, a: `{"u":null}`},
		{name: "null is a value", rules: []rs{call("u", `{"optional":true,"one_of":["c"]}`)}, e: `{}`, a: `{"u":null}`, want: []string{"mismatch u"}},
		// Nothing to compare with: the plain comparisons accept the value.
		{name: "plain optional", rules: []rs{call("u", `"optional"`)}, e: `{}`, a: `{"u":"k"}`},
		{name: "tolerance", rules: []rs{call("u", `{"optional":true,"tolerance":1}`)}, e: `{}`, a: `{"u":100}`},
		{name: "unordered", rules: []rs{call("u", `{"optional":true,"unordered":true}`)}, e: `{}`, a: `{"u":[1]}`},
	})
}

// TestCompareMatcherExpectedAbsent: a one_of, a regex or a comparator
// decides a field the expected call leaves out without being optional
// too: extra_fields: allow, a schema's declaration and extra_fields:
// reject all gave way to the rule written for the field, which had let
// {regex: "^Berlin$"} pass "Paris" under allow.
func TestCompareMatcherExpectedAbsent(t *testing.T) {
	allow := Context{AllowExtra: true}
	runCompareCases(t, []compareCase{
		{name: "regex holds under allow", rules: []rs{call("city", `{"regex":"^Berlin$"}`)}, ctx: allow, e: `{}`, a: `{"city":"Paris"}`,
			want: []string{"mismatch city"}, result: &Result{0, 1}},
		{name: "regex passes under allow", rules: []rs{call("city", `{"regex":"^Berlin$"}`)}, ctx: allow, e: `{}`, a: `{"city":"Berlin"}`, result: &Result{0, 0}},
		{name: "regex holds under reject", rules: []rs{call("city", `{"regex":"^Berlin$"}`)}, e: `{}`, a: `{"city":"Paris"}`, want: []string{"mismatch city"}},
		{name: "regex passes under reject", rules: []rs{call("city", `{"regex":"^Berlin$"}`)}, e: `{}`, a: `{"city":"Berlin"}`},
		{name: "one_of holds", rules: []rs{call("u", `{"one_of":["c","f"]}`)}, ctx: allow, e: `{"a":1}`, a: `{"a":1,"u":"k"}`,
			want: []string{"mismatch u"}, result: &Result{1, 2}},
		{name: "one_of with case folding", rules: []rs{call("u", `{"one_of":["c","f"],"case_insensitive":true}`)}, ctx: allow, e: `{}`, a: `{"u":"F"}`},
		{name: "declared by the schema", rules: []rs{declare("u"), call("u", `{"one_of":["c"]}`)}, e: `{}`, a: `{"u":"k"}`, want: []string{"mismatch u"}},
		{name: "absent on both sides", rules: []rs{call("u", `{"one_of":["c"]}`)}, e: `{}`, a: `{}`, result: &Result{0, 0}},
		{name: "null is a value", rules: []rs{call("u", `{"one_of":["c"]}`)}, ctx: allow, e: `{}`, a: `{"u":null}`, want: []string{"mismatch u"}},
		{name: "null is missing", rules: []rs{call("u", `{"one_of":["c"]}`)}, ctx: Context{AllowExtra: true, NullIsMissing: true}, e: `{}`, a: `{"u":null}`},
		{name: "beyond float64", rules: []rs{call("u", `{"one_of":[1e400]}`)}, ctx: allow, e: `{}`, a: `{"u":1e401}`, want: []string{"mismatch u"}},
		{name: "Unicode key and value", rules: []rs{call("stadt", `{"one_of":["Straße"],"case_insensitive":true}`)}, ctx: allow, e: `{}`, a: `{"stadt":"STRASSE"}`},
		{name: "absent from the actual call, given by the expected one", rules: []rs{call("u", `{"one_of":["c"]}`)}, e: `{"u":"c"}`, a: `{}`,
			want: []string{"missing_argument u"}},
		{name: "nested under a wildcard", rules: []rs{call("l.#.q", `{"regex":"^a"}`)}, ctx: allow, e: `{"l":[{},{}]}`, a: `{"l":[{"q":"ab"},{"q":"zz"}]}`,
			want: []string{"mismatch l.1.q"}},
		{name: "defaults level", rules: []rs{{LevelDefaults, "u", `{"one_of":[1,2]}`}}, ctx: allow, e: `{}`, a: `{"u":3}`, want: []string{"mismatch u"}},
		// Settings alone have nothing to compare with: allow accepts.
		{name: "settings only", rules: []rs{call("u", `"case_insensitive"`)}, ctx: allow, e: `{}`, a: `{"u":"k"}`},
	})
}

// TestCompareMissingNamesTheMatcher: a missing argument whose rule
// ignores the expected value says what the rule wants, not that value.
func TestCompareMissingNamesTheMatcher(t *testing.T) {
	for _, tc := range []struct{ rule, want string }{
		{`{"one_of":["celsius","fahrenheit"]}`, `expected one of ["celsius","fahrenheit"], but the argument is missing`},
		{`{"regex":"^B"}`, `expected a string matching ^B, but the argument is missing`},
		{`"exact"`, `expected "x", but the argument is missing`},
	} {
		s := newSet(t, rules.Extensions{}, call("unit", tc.rule))
		_, diffs := compareText(t, s, nil, `{"unit":"x"}`, `{}`)
		if len(diffs) != 1 || diffs[0].Kind != results.MissingArgument || diffs[0].Message != tc.want || diffs[0].Expected.Str() != "x" {
			t.Errorf("%s: %s, want %q", tc.rule, describeDiffs(diffs), tc.want)
		}
	}
}

func TestCompareOptionalExpectedAbsentDiff(t *testing.T) {
	s := newSet(t, rules.Extensions{}, call("u", `{"optional":true,"one_of":["c","f"]}`))
	_, diffs := compareText(t, s, nil, `{}`, `{"u":"k"}`)
	if len(diffs) != 1 {
		t.Fatalf("diffs %s", describeDiffs(diffs))
	}
	d := diffs[0]
	if d.HasExpected || !d.HasActual || d.Actual.Str() != "k" || d.Rule != "one_of+optional" {
		t.Errorf("diff %+v", d)
	}
	if !strings.Contains(d.Message, `expected one of ["c","f"], got "k"`) {
		t.Errorf("message %q", d.Message)
	}
}

func TestCompareOptionalComparatorSeesNull(t *testing.T) {
	var got []string
	ext := rules.Extensions{Expr: func(src string) (rules.Comparator, error) {
		return comparatorFunc(func(in *rules.Input) rules.Outcome {
			got = append(got, in.Expected.String()+" "+in.Actual.String())
			return rules.Outcome{Equal: in.Actual.Str() == "ok"}
		}), nil
	}}
	s := newSet(t, ext, call("u", `{"optional":true,"expr":"x"}`))
	res, diffs := compareText(t, s, nil, `{}`, `{"u":"bad"}`)
	if len(diffs) != 1 || diffs[0].Kind != results.Mismatch || diffs[0].HasExpected || res != (Result{0, 1}) {
		t.Errorf("bad: %+v %s", res, describeDiffs(diffs))
	}
	if !strings.Contains(diffs[0].Message, "leaves out") {
		t.Errorf("message %q", diffs[0].Message)
	}
	if res, diffs := compareText(t, s, nil, `{}`, `{"u":"ok"}`); len(diffs) != 0 || res != (Result{0, 0}) {
		t.Errorf("ok: %+v %s", res, describeDiffs(diffs))
	}
	if len(got) != 2 || got[0] != `null "bad"` {
		t.Errorf("comparator saw %q", got)
	}
}

func TestDeclare(t *testing.T) {
	runCompareCases(t, []compareCase{
		{name: "declared, expected absent", rules: []rs{declare("u")}, e: `{"a":1}`, a: `{"a":1,"u":"x"}`, result: &Result{1, 1}},
		{name: "declared, expected present", rules: []rs{declare("u")}, e: `{"u":"c"}`, a: `{}`, want: []string{"missing_argument u"}},
		{name: "declared, compared when both", rules: []rs{declare("u")}, e: `{"u":"c"}`, a: `{"u":"d"}`, want: []string{"mismatch u"}},
		{name: "not declared", rules: []rs{declare("v")}, e: `{}`, a: `{"u":"x"}`, want: []string{"unexpected_argument u"}},
		{name: "nested", rules: []rs{declare("f.u")}, e: `{"f":{}}`, a: `{"f":{"u":1}}`},
		{name: "items", rules: []rs{declare("l.#.q")}, e: `{"l":[{"s":1},{"s":2,"q":1}]}`, a: `{"l":[{"s":1,"q":5},{"s":2,"q":1}]}`},
		{name: "items, expected present", rules: []rs{declare("l.#.q")}, e: `{"l":[{"s":1},{"s":2,"q":1}]}`, a: `{"l":[{"s":1},{"s":2}]}`, want: []string{"missing_argument l.1.q"}},
		{name: "a declaration does not hide a wildcard rule", rules: []rs{declare("city"), call("*", `"case_insensitive"`)},
			e: `{"city":"Berlin"}`, a: `{"city":"BERLIN"}`},
		{name: "an explicit rule overrides it", rules: []rs{declare("u"), call("u", `"exact"`)}, e: `{}`, a: `{"u":"x"}`, want: []string{"unexpected_argument u"}},
		{name: "a schema rule keeps it", rules: []rs{declare("u"), {LevelSchema, "u", `"numeric"`}}, e: `{}`, a: `{"u":"x"}`},
		{name: "a more specific rule overrides it", rules: []rs{declare("l.#.q"), call("l.0.q", `"exact"`)}, e: `{"l":[{}]}`, a: `{"l":[{"q":1}]}`, want: []string{"unexpected_argument l.0.q"}},
		{name: "null is missing", rules: []rs{declare("u")}, ctx: Context{NullIsMissing: true}, e: `{"u":null}`, a: `{"u":3}`},
	})
}
