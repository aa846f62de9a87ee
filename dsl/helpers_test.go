package dsl

import (
	"strings"
	"testing"
	"time"

	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/value"
)

func mustParse(t testing.TB, s string) value.Value {
	t.Helper()
	v, err := value.Parse(s)
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

// input builds an Input from JSON texts; "" leaves a side null.
func input(t testing.TB, actual, expected string) *rules.Input {
	t.Helper()
	in := &rules.Input{Path: "field", Tool: "tool_x"}
	if actual != "" {
		in.Actual = mustParse(t, actual)
	}
	if expected != "" {
		in.Expected = mustParse(t, expected)
	}
	return in
}

// evalCase is one row: src evaluated with actual and expected (JSON); want
// the result, or wantErr a substring of the run-time error.
type evalCase struct {
	src              string
	actual, expected string
	want             bool
	wantErr          string
}

func runCases(t *testing.T, c *Compiler, cases []evalCase) {
	t.Helper()
	for _, tc := range cases {
		e, err := c.Compile(tc.src)
		if err != nil {
			t.Errorf("%s: compile: %v", tc.src, err)
			continue
		}
		got, err := e.eval(input(t, tc.actual, tc.expected))
		switch {
		case tc.wantErr != "":
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s (actual %s, expected %s): got %v, %v; want an error with %q", tc.src, tc.actual, tc.expected, got, err, tc.wantErr)
			}
		case err != nil:
			t.Errorf("%s (actual %s, expected %s): %v", tc.src, tc.actual, tc.expected, err)
		case got != tc.want:
			t.Errorf("%s (actual %s, expected %s) = %v, want %v", tc.src, tc.actual, tc.expected, got, tc.want)
		}
	}
}

func TestEnvironment(t *testing.T) {
	c := NewCompiler(Options{})
	in := &rules.Input{
		Path:         "items.0.price",
		Actual:       mustParse(t, `21.5`),
		Expected:     mustParse(t, `"21.5"`),
		Params:       mustParse(t, `{"min": 2, "unit": "c"}`),
		Tool:         "get_weather",
		Args:         mustParse(t, `{"city": "Berlin", "days": 3, "tags": ["a", "b"], "opt": null}`),
		ExpectedArgs: mustParse(t, `{"city": "Paris"}`),
	}
	for _, src := range []string{
		`actual == 21.5`,
		`type(actual) == "float"`, // JSON numbers are float64
		`expected == "21.5"`,
		`path == "items.0.price"`,
		`params.min == 2 && params.unit == "c"`,
		`args.city == "Berlin" && args.days == 3 && args.tags[1] == "b" && args.opt == nil`,
		`"opt" in args && !("nope" in args)`,
		`expected_args.city == "Paris"`,
		`tool == "get_weather"`,
		`$env.tool == "get_weather"`,
		`len(args) == 4 && len(expected_args) == 1`,
	} {
		e, err := c.Compile(src)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		if ok, err := e.eval(in); !ok || err != nil {
			t.Errorf("%s = %v, %v; want true", src, ok, err)
		}
	}
	// Every JSON type.
	runCases(t, c, []evalCase{
		{src: `actual == nil`, actual: `null`, want: true},
		{src: `actual == true`, actual: `true`, want: true},
		{src: `actual == "x"`, actual: `"x"`, want: true},
		{src: `actual[1] == 2 && len(actual) == 2`, actual: `[1, 2]`, want: true},
		{src: `actual.a.b == "c"`, actual: `{"a": {"b": "c"}}`, want: true},
		{src: `actual == expected`, actual: `5`, expected: `5.0`, want: true},
		{src: `actual == expected`, actual: `9007199254740993`, expected: `9007199254740992`, want: true}, // float64: see decimal
		{src: `expected == nil`, actual: `1`, want: true},
	})
}

// TestHelpersNumbers evaluates approx, rel_approx, num and decimal, and
// the arithmetic and comparisons around them.
func TestHelpersNumbers(t *testing.T) {
	runCases(t, NewCompiler(Options{}), []evalCase{
		// approx(a, b, tol): |a-b| <= tol, numbers or numeric strings.
		{src: `approx(actual, expected, 0.5)`, actual: `21.4`, expected: `21`, want: true},
		{src: `approx(actual, expected, 0.5)`, actual: `21.6`, expected: `21`, want: false},
		{src: `approx(actual, expected, 0.1)`, actual: `1.1`, expected: `1.0`, want: true}, // rounding at the bound
		{src: `approx(actual, expected, 1)`, actual: `"22"`, expected: `21`, want: true},
		{src: `approx(actual, expected, 1)`, actual: `"abc"`, expected: `21`, want: false},
		{src: `approx(actual, expected, -1)`, actual: `1`, expected: `1`, wantErr: "tolerance must be a number >= 0"},
		// rel_approx(a, b, frac): |a-b| <= frac*|b|.
		{src: `rel_approx(actual, expected, 0.05)`, actual: `104`, expected: `100`, want: true},
		{src: `rel_approx(actual, expected, 0.05)`, actual: `106`, expected: `100`, want: false},
		{src: `rel_approx(actual, expected, 0.05)`, actual: `0`, expected: `0`, want: true},
		{src: `rel_approx(actual, expected, "x")`, actual: `1`, expected: `1`, wantErr: "fraction must be a number"},
		// num(x): numbers and numeric strings to float64.
		{src: `num(actual) == 5`, actual: `" 5.0 "`, want: true},
		{src: `num(actual) == num(expected)`, actual: `"1e3"`, expected: `1000`, want: true},
		{src: `num(actual) == 5`, actual: `5`, want: true},
		{src: `num(actual) > 0`, actual: `"five"`, wantErr: `num: "five" is not a number`},
		// A constant path with a negative index is read exactly too.
		{src: `decimal(actual[-1]) == decimal(expected[-1])`, actual: `[1, 9007199254740992]`, expected: `[9007199254740993]`, want: false},
		{src: `approx(actual[-1], expected[-1], 0)`, actual: `[9007199254740992]`, expected: `[9007199254740993]`, want: false},
		{src: `approx(actual[-2], expected[0], 0)`, actual: `[1e400, 2]`, expected: `[1e400]`, want: true},
		{src: `decimal(actual[-1]) == decimal(expected[0])`, actual: `[9007199254740993]`, expected: `[9007199254740993]`, want: true},
		// Arithmetic past float64's range, or by zero, is no value a
		// comparison may take: ±Inf equals any other as far, NaN fails
		// every comparison (so that !(x > 0.1) held).
		{src: `actual * actual == expected * expected`, actual: `1e200`, expected: `2e200`, wantErr: `beyond float64's range, or divided by zero`},
		{src: `actual / expected >= 0.9`, actual: `5`, expected: `0`, wantErr: `a comparison (>=) of +Inf`},
		{src: `!(abs(actual / expected - 1) > 0.1)`, actual: `0`, expected: `0`, wantErr: `of NaN`},
		{src: `let r = [actual / expected]; r[0] < 1`, actual: `-1`, expected: `0`, wantErr: `of -Inf`},
		{src: `actual / expected >= 0.9`, actual: `5`, expected: `5`, want: true},
		{src: `int(actual) <= 100`, actual: `1e300`, wantErr: `int: 1e+300 is beyond an int's range`},
		{src: `int(actual) == 5`, actual: `5.7`, want: true},
		{src: `"a" < "b" && actual == "x"`, actual: `"x"`, want: true},
		// Beyond float64, num would give ±Inf, equal to any other as far.
		{src: `num(actual) == num(expected)`, actual: `"1e401"`, expected: `"1e400"`, wantErr: `beyond float64's range`},
		{src: `num(decimal(actual)) == num(decimal(expected))`, actual: `1e401`, expected: `1e400`, wantErr: `beyond float64's range`},
		{src: `num(actual) < 0`, actual: `"-1e999"`, wantErr: `beyond float64's range`},
		{src: `num(actual) > 0`, actual: `"0x10"`, wantErr: "not a number"},
		// decimal(x): exact decimal values.
		{src: `decimal(actual) == decimal(expected)`, actual: `9007199254740993`, expected: `9007199254740992`, want: false},
		{src: `decimal(actual) == decimal(expected)`, actual: `12345678901234567.50`, expected: `12345678901234567.5`, want: true},
		{src: `decimal(actual) == decimal(expected)`, actual: `"5.00"`, expected: `5`, want: true},
		{src: `decimal(actual) == decimal("0.1")`, actual: `1e-1`, want: true},
		{src: `decimal(actual) < decimal(expected)`, actual: `9007199254740992`, expected: `9007199254740993`, want: true},
		{src: `decimal(actual) >= decimal("100.00") && decimal(actual) <= decimal(expected)`, actual: `100`, expected: `1e2`, want: true},
		{src: `decimal(actual) > decimal(expected)`, actual: `-0`, expected: `0`, want: false},
		{src: `decimal(actual.price) == decimal(expected.price)`, actual: `{"price": 0.30000000000000004}`, expected: `{"price": 0.3}`, want: false},
		{src: `decimal(actual.items[1]) == decimal("2.50")`, actual: `{"items": [1, 2.5]}`, want: true},
		{src: `decimal(actual) == decimal(expected)`, actual: `"abc"`, expected: `1`, wantErr: "decimal: \"abc\" is not a numeric string"},
		{src: `decimal(actual) == decimal(expected)`, actual: `true`, expected: `1`, wantErr: "not a number"},
		{src: `decimal(actual * 2) == decimal("3")`, actual: `1.5`, want: true}, // a computed float64, by its shortest spelling
		{src: `string(decimal(actual)) == "1.5"`, actual: `1.50`, want: true},
	})
}

// TestHelpersStrings evaluates norm, strip_punct, levenshtein and
// similarity, and helpers called on what other functions return.
func TestHelpersStrings(t *testing.T) {
	runCases(t, NewCompiler(Options{}), []evalCase{
		// A helper's argument that is not a name is computed once, its
		// work charged, and the result is the helper's as ever.
		{src: `levenshtein(upper(actual), "ABD") == 1 && lower(upper(actual)) == actual`, actual: `"abc"`, want: true},
		{src: `actual matches "^a.c$" && upper(actual) startsWith "A" && split(actual, "b")[1] == "c"`, actual: `"abc"`, want: true},
		{src: `all(map(actual, upper(#)), # contains "B")`, actual: `["ab", "bc"]`, want: true},
		// norm(s): case folding, NFC, collapsed and trimmed space.
		{src: `norm(actual) == norm(expected)`, actual: `"  STRASSE   am  See "`, expected: `"Straße am See"`, want: true},
		{src: `norm(actual) == norm(expected)`, actual: `"Cafe\u0301"`, expected: `"café"`, want: true},
		{src: `norm(actual) == "a b"`, actual: "\"a\\t\\n b\"", want: true},
		{src: `norm(actual) == ""`, actual: `5`, wantErr: "norm: 5 is not a string"},
		// strip_punct(s): Unicode punctuation removed.
		{src: `strip_punct(actual) == "New York"`, actual: `"New-York!"`, want: false},
		{src: `strip_punct(actual) == "NewYork"`, actual: `"New-York!"`, want: true},
		{src: `strip_punct(actual) == "¿Que tal"`, actual: `"¿Que tal?"`, want: false}, // ¿ is punctuation too
		{src: `strip_punct(actual) == "Que tal"`, actual: `"¿Que tal?"`, want: true},
		// levenshtein(a, b), similarity(a, b).
		{src: `levenshtein(actual, expected) == 3`, actual: `"kitten"`, expected: `"sitting"`, want: true},
		{src: `levenshtein(actual, expected) == 1`, actual: `"Straße"`, expected: `"Strase"`, want: true}, // runes, not bytes
		{src: `levenshtein(actual, expected) == 0`, actual: `""`, expected: `""`, want: true},
		{src: `similarity(actual, expected) == 1`, actual: `""`, expected: `""`, want: true},
		{src: `similarity(actual, expected) > 0.57 && similarity(actual, expected) < 0.58`, actual: `"kitten"`, expected: `"sitting"`, want: true},
		{src: `similarity(actual, expected) == 0`, actual: `"abc"`, expected: `"xyz"`, want: true},
		{src: `levenshtein(actual, expected) > 0`, actual: `1`, expected: `"x"`, wantErr: "levenshtein takes two strings"},
	})
}

// TestHelpersCollections evaluates flatten, set_eq and contains_all.
func TestHelpersCollections(t *testing.T) {
	runCases(t, NewCompiler(Options{}), []evalCase{
		// flatten, bounded, flattens as expr's does.
		{src: `flatten([1, [2, [3, [actual]]], [], [nil]]) == [1, 2, 3, actual, nil]`, actual: `"x"`, want: true},
		{src: `len(flatten(map(1..3, 1..4))) == 12`, actual: `1`, want: true},
		// set_eq(a, b): multiset equality, canonical comparison.
		{src: `set_eq(actual, expected)`, actual: `["b", "a"]`, expected: `["a", "b"]`, want: true},
		{src: `set_eq(actual, expected)`, actual: `[1, 1, 2]`, expected: `[1, 2, 2]`, want: false},
		{src: `set_eq(actual, expected)`, actual: `[{"y": 2, "x": 1.0}, 3]`, expected: `[3, {"x": 1, "y": 2}]`, want: true},
		{src: `set_eq(actual, expected)`, actual: `["1"]`, expected: `[1]`, want: false},
		{src: `set_eq(actual, expected)`, actual: `[9007199254740993]`, expected: `[9007199254740992]`, want: false},
		{src: `set_eq(actual, expected)`, actual: `"ab"`, expected: `["a", "b"]`, want: false},
		{src: `set_eq(map(actual, upper(#)), ["A", "B"])`, actual: `["b", "a"]`, want: true},
		// contains_all(a, b): every element of b in a (multiset); strings: substrings.
		{src: `contains_all(actual, expected)`, actual: `["x", "a", "b"]`, expected: `["a", "b"]`, want: true},
		{src: `contains_all(actual, expected)`, actual: `["a"]`, expected: `["a", "a"]`, want: false},
		{src: `contains_all(actual, expected)`, actual: `"rooms in Lisbon under 100"`, expected: `["Lisbon", "100"]`, want: true},
		{src: `contains_all(actual, "Porto")`, actual: `"rooms in Lisbon"`, want: false},
		{src: `contains_all(actual, expected)`, actual: `5`, expected: `[5]`, want: false},
		// Loops over a list, however it was computed (seqPatch).
		{src: `none(actual, # == "x")`, actual: `["y"]`, want: true},
		{src: `none(actual, # == "x")`, actual: `["y", "x"]`, want: false},
		{src: `all(actual, # > 0) && one(actual, # == 2)`, actual: `[1, 2]`, want: true},
		{src: `count(actual.l, # == "x") == 1 && any(keys(actual), # == "l")`, actual: `{"l": ["x", "y"]}`, want: true},
		{src: `sum(map(actual, # * 2)) == 6 && find(1..5, # > 3) == 4`, actual: `[1, 2]`, want: true},
		{src: `reduce(actual, #acc + #, 0) == 3`, actual: `[1, 2]`, want: true},
		{src: `all(fromJSON(actual).to, # != "ceo")`, actual: `"{\"to\": [\"ops\"]}"`, want: true},
		{src: `fromJSON(actual).amount == 10`, actual: `"{\"amount\": 10}"`, want: true},
		// Indexing lists and maps as expr does; a string is sliced.
		{src: `actual.items[1].sku == "B" && actual.items[-1].sku == "B"`, actual: `{"items": [{"sku": "A"}, {"sku": "B"}]}`, want: true},
		{src: `actual[expected] == 1 && actual["a"] == 1`, actual: `{"a": 1}`, expected: `"a"`, want: true},
		{src: `actual[0:1] == "x" && actual[1:] == "y"`, actual: `"xy"`, want: true},
		{src: `actual?.[0] == nil`, actual: `null`, want: true},
		{src: `fromJSON(actual) == [1, "a", nil, true]`, actual: `"[1, \"a\", null, true]"`, want: true},
	})
}

// TestHelpersDates evaluates date, same_day, same_instant,
// same_instant_within and durations.
func TestHelpersDates(t *testing.T) {
	runCases(t, NewCompiler(Options{}), []evalCase{
		// date(s), same_day(a, b), same_instant(a, b).
		{src: `date(actual) == date(expected)`, actual: `"Jan 5 2024"`, expected: `"2024-01-05"`, want: true},
		{src: `date(actual) == date(expected)`, actual: "\" Jan\u00a0 5\\t2024 \"", expected: `"2024-01-05"`, want: true},
		{src: `date(actual) == date(expected)`, actual: "\" 2024-01-05\\n\"", expected: `"2024-01-05"`, want: true},
		{src: `date(actual) < date(expected)`, actual: `"2024-01-05"`, expected: `"2024-01-06T00:00:00Z"`, want: true},
		{src: `date(actual).Year() == 2024`, actual: `"5 January 2024"`, want: true},
		{src: `date(actual) - date(expected) == duration("36h")`, actual: `"2024-01-06T12:00:00Z"`, expected: `"2024-01-05"`, want: true},
		{src: `date(actual) > date(expected)`, actual: `"tomorrow"`, expected: `"2024-01-05"`, wantErr: `date: cannot read "tomorrow" as a date`},
		{src: `same_day(actual, expected)`, actual: `"Friday, January 5th, 2024"`, expected: `"2024-01-05"`, want: true},
		{src: `same_day(actual, expected)`, actual: `"2024/01/05"`, expected: `"5 Jan 2024"`, want: true},
		{src: `same_day(actual, expected)`, actual: `"2024-01-05T23:30:00-05:00"`, expected: `"2024-01-05"`, want: true}, // the day as written
		{src: `same_day(actual, expected)`, actual: `"2024-01-06"`, expected: `"2024-01-05"`, want: false},
		{src: `same_day(actual, expected)`, actual: `"next friday"`, expected: `"2024-01-05"`, want: false},
		{src: `same_day(actual, expected)`, actual: `20240105`, expected: `"2024-01-05"`, want: false},
		{src: `same_instant(actual, expected)`, actual: `"2024-01-05T10:00:00+01:00"`, expected: `"2024-01-05T09:00:00Z"`, want: true},
		{src: `same_instant(actual, expected)`, actual: `"2024-01-05T10:00:00Z"`, expected: `"2024-01-05T09:00:00Z"`, want: false},
		{src: `same_instant(actual, expected)`, actual: `"2024-01-05"`, expected: `"2024-01-05T00:00:00Z"`, want: true},
		{src: `same_instant(actual, expected)`, actual: `"Jan 5 2024 3:30 PM"`, expected: `"2024-01-05T15:30:00Z"`, want: true},
		// Durations: date subtraction, abs, min, max, comparisons.
		{src: `abs(date(actual) - date(expected)) <= duration('5m')`, actual: `"2024-01-05T10:00:00Z"`, expected: `"2024-01-05T10:03:00Z"`, want: true},
		{src: `abs(date(actual) - date(expected)) <= duration('5m')`, actual: `"2024-01-05T10:03:00Z"`, expected: `"2024-01-05T10:00:00Z"`, want: true},
		{src: `abs(date(actual) - date(expected)) <= duration('5m')`, actual: `"2024-01-05T10:00:00Z"`, expected: `"2024-01-05T10:10:00Z"`, want: false},
		{src: `abs(date(actual) - date(expected)) == duration("1h")`, actual: `"2024-01-05T10:00:00+01:00"`, expected: `"2024-01-05T10:00:00Z"`, want: true},
		{src: `let d = date(actual) - date(expected); abs(d) < duration("1h")`, actual: `"2024-01-05T10:00:00Z"`, expected: `"2024-01-05T10:30:00Z"`, want: true},
		{src: `abs(date(actual) - date(expected)) > duration("1h")`, actual: `"0001-01-01"`, expected: `"9999-12-31"`, want: true}, // the difference saturates; abs too
		{src: `max(date(actual) - date(expected), date(expected) - date(actual)) <= duration("5m")`, actual: `"2024-01-05T10:00:00Z"`, expected: `"2024-01-05T10:10:00Z"`, want: false},
		{src: `min(date(actual) - date(expected), date(expected) - date(actual)) == duration("-10m")`, actual: `"2024-01-05T10:00:00Z"`, expected: `"2024-01-05T10:10:00Z"`, want: true},
		{src: `abs(date(actual) - date(expected)) <= duration('5m')`, actual: `"soon"`, expected: `"2024-01-05T10:10:00Z"`, wantErr: "cannot read"},
		// same_instant_within(a, b, d): |a - b| <= d.
		{src: `same_instant_within(actual, expected, "5m")`, actual: `"2024-01-05T10:04:59Z"`, expected: `"2024-01-05T10:00:00Z"`, want: true},
		{src: `same_instant_within(actual, expected, "5m")`, actual: `"2024-01-05T09:55:00Z"`, expected: `"2024-01-05T10:00:00Z"`, want: true}, // the bound is in
		{src: `same_instant_within(actual, expected, "5m")`, actual: `"2024-01-05T10:05:00.001Z"`, expected: `"2024-01-05T10:00:00Z"`, want: false},
		{src: `same_instant_within(actual, expected, "5m")`, actual: `"2024-01-05T11:02:00+01:00"`, expected: `"2024-01-05T10:00:00Z"`, want: true},
		{src: `same_instant_within(actual, expected, "0s")`, actual: `"2024-01-05"`, expected: `"Jan 5 2024"`, want: true},
		{src: `same_instant_within(actual, expected, duration("1h30m"))`, actual: `"2024-01-05T11:30:00Z"`, expected: `"2024-01-05T10:00:00Z"`, want: true},
		{src: `same_instant_within(actual, expected, "1h")`, actual: `"0001-01-01"`, expected: `"9999-12-31"`, want: false},
		{src: `same_instant_within(actual, expected, "5m")`, actual: `"in five minutes"`, expected: `"2024-01-05T10:00:00Z"`, want: false},
		{src: `same_instant_within(actual, expected, "5m")`, actual: `1704448800`, expected: `"2024-01-05T10:00:00Z"`, want: false},
		{src: `same_instant_within(actual, expected, "5m")`, actual: `null`, expected: `"2024-01-05T10:00:00Z"`, want: false},
		{src: `same_instant_within("2024-01-05T10:00:00Z", actual, expected)`, actual: `"2024-01-05T10:01:00Z"`, expected: `"2m"`, want: true},
		{src: `same_instant_within("2024-01-05T10:00:00Z", actual, expected)`, actual: `"2024-01-05T10:01:00Z"`, expected: `"2 minutes"`, wantErr: `same_instant_within: unknown unit " minutes" in duration "2 minutes"`},
		{src: `same_instant_within("2024-01-05T10:00:00Z", actual, expected)`, actual: `"2024-01-05T10:01:00Z"`, expected: `"-2m"`, wantErr: "same_instant_within: the duration must be >= 0, got -2m0s"},
		{src: `same_instant_within("2024-01-05T10:00:00Z", actual, expected)`, actual: `"2024-01-05T10:01:00Z"`, expected: `120`, wantErr: `same_instant_within: the duration must be a string such as "5m" or a duration(), got 120`},
	})
}

// TestHelpersPaths evaluates get, has and canon.
func TestHelpersPaths(t *testing.T) {
	runCases(t, NewCompiler(Options{}), []evalCase{
		// get(v, path), has(v, path): rules' PATH syntax.
		{src: `get(actual, "filters.price.max") == 100`, actual: `{"filters": {"price": {"max": 100}}}`, want: true},
		{src: `get(actual, "items.1.sku") == "B"`, actual: `{"items": [{"sku": "A"}, {"sku": "B"}]}`, want: true},
		{src: `get(actual, "items.#.sku") == ["A", "B"]`, actual: `{"items": [{"sku": "A"}, {"sku": "B"}, {"x": 1}]}`, want: true},
		{src: `get(actual, "m.*") == [1, 2]`, actual: `{"m": {"b": 2, "a": 1}}`, want: true},
		{src: `get(actual, "a\\.b") == 1`, actual: `{"a.b": 1}`, want: true},
		{src: `get(actual, "0") == 7`, actual: `{"0": 7}`, want: true},
		{src: `get(actual, "missing") == 1`, actual: `{}`, wantErr: `get: no value at path "missing"`},
		{src: `get(actual, "a." + ".b") == 1`, actual: `{}`, wantErr: "empty segment"}, // a constant one fails to compile (errors_test.go)
		{src: `get(actual, "#") == []`, actual: `{}`, want: true},
		{src: `has(actual, "a.b") && !has(actual, "a.c")`, actual: `{"a": {"b": null}}`, want: true},
		{src: `has(actual, "a." + ".b")`, actual: `{}`, wantErr: "empty segment"},
		// canon(v): canonical JSON text.
		{src: `canon(actual) == "{\"a\":[1,\"x\",null,true],\"b\":5}"`, actual: `{"b": 5.0, "a": [1e0, "x", null, true]}`, want: true},
		{src: `canon(actual) == canon(expected)`, actual: `{"x": 1.50}`, expected: `{"x": 1.5}`, want: true},
		{src: `canon(actual) == "12345678901234567.5"`, actual: `12345678901234567.50`, want: true},
		{src: `canon(map(actual, # * 2)) == "[2,4]"`, actual: `[1, 2]`, want: true},
	})
}

// TestBeyondFloat64: a number that float64 cannot hold would be ±Inf,
// equal to any other as large; an expression that reads it as a float64
// fails, and decimal() reads it exactly.
func TestBeyondFloat64(t *testing.T) {
	c := NewCompiler(Options{})
	runCases(t, c, []evalCase{
		{src: `actual == expected`, actual: `1e400`, expected: `1e401`, wantErr: "actual holds the number 1e400"},
		{src: `!(abs(actual - expected) > 0.5)`, actual: `1e400`, expected: `1e401`, wantErr: "beyond float64's range"},
		{src: `actual > 1000`, actual: `-1e999`, wantErr: "actual holds the number -1e999"},
		{src: `expected < actual`, actual: `1`, expected: `1e400`, wantErr: "expected holds the number 1e400"},
		{src: `decimal(actual) == decimal(expected)`, actual: `1e400`, expected: `1e401`, want: false},
		{src: `decimal(actual) == decimal(expected)`, actual: `1e400`, expected: `10e399`, want: true},
		{src: `actual == 1e308`, actual: `1e308`, want: true},
	})
	e, err := c.Compile(`args.x == 1`)
	if err != nil {
		t.Fatal(err)
	}
	in := input(t, `1`, ``)
	in.Args = mustParse(t, `{"x": 1, "y": [1e400]}`)
	if _, err := e.eval(in); err == nil || !strings.Contains(err.Error(), "args holds the number 1e400") {
		t.Errorf("args with 1e400: %v", err)
	}
}

// TestDatesReadNoMachineZone: a date's zone is its offset alone, named
// nothing, whatever zone the machine is in; time.Parse would give a time
// whose offset the machine's zone uses that zone, name and location, and
// the verdict would depend on the machine. The machine's zone here is one
// whose offset is the dates' (no time zone database needed).
func TestDatesReadNoMachineZone(t *testing.T) {
	old := time.Local
	time.Local = time.FixedZone("CET", 3600)
	defer func() { time.Local = old }()
	c := NewCompiler(Options{})
	runCases(t, c, []evalCase{
		{src: `date(actual).Location().String() == ""`, actual: `"2024-01-05T10:00:00+01:00"`, want: true},
		{src: `date(actual).Format("MST") == "+0100"`, actual: `"2024-01-05T10:00:00+01:00"`, want: true},
		{src: `date(actual).Location().String() == "UTC"`, actual: `"2024-01-05T10:00:00Z"`, want: true},
		{src: `same_day(actual, expected)`, actual: `"2024-01-05T23:30:00+01:00"`, expected: `"2024-01-05"`, want: true},
	})
}

func TestNonBoolResult(t *testing.T) {
	c := NewCompiler(Options{})
	runCases(t, c, []evalCase{
		{src: `actual`, actual: `true`, want: true},
		{src: `actual`, actual: `"yes"`, wantErr: "bool(string)"},
		{src: `args.flag`, actual: `1`, want: false}, // a missing member is nil, which is false
	})
}

// TestApproxExact: approx and rel_approx decide as the tolerance and
// relative rules do (number.WithinAbs, number.WithinRel), exactly on the
// JSON literal when the argument is read from the input, and on the
// shortest spelling of a float64 when it is computed.
func TestApproxExact(t *testing.T) {
	c := NewCompiler(Options{})
	runCases(t, c, []evalCase{
		// Beyond float64: within nothing but an equal literal.
		{src: `approx(actual, 1, 0.5)`, actual: `1e400`, want: false},
		{src: `approx(actual, 1, 0.5)`, actual: `-1e400`, want: false},
		{src: `approx(actual, 1, 0.5)`, actual: `"1e999"`, want: false},
		{src: `approx(actual, expected, 0.5)`, actual: `1e400`, expected: `1e400`, want: true},
		{src: `approx(actual, expected, 0.5)`, actual: `1e400`, expected: `1e401`, want: false},
		{src: `approx(actual, expected, actual)`, actual: `1e400`, expected: `1`, want: true}, // exactly: |1e400 - 1| <= 1e400
		// Read as a float64, a number beyond its range is an error.
		{src: `approx(actual * 1, expected, 0.5)`, actual: `1e400`, expected: `1e400`, wantErr: "actual holds the number 1e400, beyond float64's range"},
		{src: `approx(actual - actual, 0, 1)`, actual: `1e400`, wantErr: "beyond float64's range; read it with decimal()"},
		{src: `approx(actual, expected, 0.5)`, actual: `1e-400`, expected: `0`, want: true},
		// Exact at the bound, and just past it.
		{src: `approx(actual, expected, 0.5)`, actual: `21.5`, expected: `21`, want: true},
		{src: `approx(actual, expected, 0.5)`, actual: `20.5`, expected: `21`, want: true},
		{src: `approx(actual, expected, 0.5)`, actual: `21.50000000000000001`, expected: `21`, want: false},
		{src: `approx(actual, expected, 0.5)`, actual: `"21.50000000000000001"`, expected: `21`, want: false},
		{src: `approx(actual, expected, 0.5)`, actual: `1704067200002`, expected: `1704067200000`, want: false},
		{src: `approx(actual.a, actual.b, actual.tol)`, actual: `{"a": 1.1, "b": 1.0, "tol": 0.1}`, want: true},
		{src: `approx(actual.a, actual.b, actual.tol)`, actual: `{"a": 1.1, "b": 1.0, "tol": 0.09999999999999999999}`, want: false},
		{src: `approx(actual, expected, 0)`, actual: `5.0`, expected: `5`, want: true},
		{src: `approx(actual, expected, 0)`, actual: `-0`, expected: `0`, want: true},
		// Computed values: their shortest spelling.
		{src: `approx(actual * 2, expected, 0)`, actual: `1.5`, expected: `3`, want: true},
		{src: `approx(actual + 0.2, expected, 0)`, actual: `0.1`, expected: `0.3`, want: false}, // 0.30000000000000004
		{src: `approx(decimal(actual), expected, 0)`, actual: `12345678901234567.5`, expected: `12345678901234567.50`, want: true},
		// What is not a number is within nothing; a bad tolerance is an error.
		{src: `approx(actual, expected, 1)`, actual: `" 21.4 "`, expected: `21`, want: true},
		{src: `approx(actual, expected, 1)`, actual: `"0x10"`, expected: `16`, want: false},
		{src: `approx(actual, expected, 1)`, actual: `""`, expected: `0`, want: false},
		{src: `approx(actual, expected, 1)`, actual: `null`, expected: `0`, want: false},
		{src: `approx(actual, expected, 1)`, actual: `true`, expected: `1`, want: false},
		{src: `approx(actual, expected, 1)`, actual: `[1]`, expected: `1`, want: false},
		{src: `approx(actual, expected, 1)`, actual: `1`, expected: `null`, want: false},
		{src: `approx(actual, 21, "0.5")`, actual: `21.5`, want: true},
		{src: `approx(actual, expected, -0.5)`, actual: `1`, expected: `1`, wantErr: "approx: the tolerance must be a number >= 0, got -0.5"},
		{src: `approx(actual.a, actual.b, actual.tol)`, actual: `{"a": 1, "b": 1, "tol": -1e-400}`, wantErr: "approx: the tolerance must be a number >= 0"},
		{src: `approx(actual, expected, actual.tol)`, actual: `{}`, expected: `1`, wantErr: "approx: the tolerance must be a number >= 0, got null"},
		{src: `approx(actual, expected, 1 / 0)`, actual: `1`, expected: `1`, wantErr: "approx: the tolerance must be a number >= 0, got +Inf"},
		{src: `approx(actual, expected, "x")`, actual: `1`, expected: `1`, wantErr: `approx: the tolerance must be a number >= 0, got "x"`},
		// rel_approx: |a - b| <= frac*|b|, the same way.
		{src: `rel_approx(actual, expected, 0.5)`, actual: `1e400`, expected: `1`, want: false},
		{src: `rel_approx(actual, expected, 0.5)`, actual: `1`, expected: `1e400`, want: false},
		{src: `rel_approx(actual, expected, 0.5)`, actual: `1e400`, expected: `1e400`, want: true},
		{src: `rel_approx(actual, expected, 0.5)`, actual: `1`, expected: `"-1e999"`, want: false},
		{src: `rel_approx(actual, expected, 0.05)`, actual: `105`, expected: `100`, want: true},
		{src: `rel_approx(actual, expected, 0.05)`, actual: `-95`, expected: `-100`, want: true},
		{src: `rel_approx(actual, expected, 0.05)`, actual: `105.00000000000000001`, expected: `100`, want: false},
		{src: `rel_approx(actual, expected, 1)`, actual: `1e-400`, expected: `0`, want: false},
		{src: `rel_approx(actual, expected, 0.1)`, actual: `"abc"`, expected: `1`, want: false},
		{src: `rel_approx(actual, expected, -0.1)`, actual: `1`, expected: `1`, wantErr: "rel_approx: the fraction must be a number >= 0, got -0.1"},
	})
}
