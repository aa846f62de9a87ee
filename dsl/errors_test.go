package dsl

import (
	"errors"
	"github.com/callgrade/callgrade/internal/rulecore"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/value"
)

func TestCompileErrorPositions(t *testing.T) {
	c := NewCompiler(Options{})
	for _, tc := range []struct {
		src          string
		line, column int
		msg          string
		snippet      string
	}{
		{"abs(acutal - expected) <= 0.5", 1, 5, "unknown name acutal", "\n | abs(acutal - expected) <= 0.5\n | ....^"},
		{"actual > 1 &&\n  nope(actual)", 2, 3, "unknown name nope", "\n |   nope(actual)\n | ..^"},
		{"actual == (1", 1, 12, "unexpected token EOF", ""},
		{`get(args, "a..b") == 1`, 1, 11, `get: path "a..b" at offset 2: empty segment`, ""},
		{`actual && has(args, "x.")`, 1, 21, `has: path "x." at offset 2: empty segment`, ""},
		{`contains(actual, "a")`, 1, 1, `unexpected token Operator("contains") (contains is an operator, written between its operands: actual contains "x")`, ""},
		{`actual > 0 && in(actual, [1])`, 1, 15, `(in is an operator, written between its operands: actual in ["x", "y"])`, ""},
		{"acutal + 1", 1, 1, "unknown name acutal", ""}, // before what the result yields
		{"äöü == actual +", 1, 15, "unexpected token EOF", ""},
		{"now() > date(actual)", 1, 1, "now() is not available", "\n | now() > date(actual)\n | ^"},
		{"repeat(actual, 3) == \"x\"", 1, 1, "repeat() is not available", ""},
		{"timezone(\"UTC\") == nil", 1, 1, "timezone() is not available", ""},
		{"date(actual).Local().Day() == 5", 1, 14, "Local() is not available", ""},
		{"date(actual).UTC().Local().Format(\"MST\") == \"UTC\"", 1, 20, "Local() is not available", ""},
		{"__budget == nil", 1, 1, "names starting with __ are reserved", ""},
		{"actual == 1 && $env.__in == nil", 1, 21, "reserved", ""},
		{"len(actual) == \"x\"", 1, 13, "invalid operation: == (mismatched types int and string)", ""},
		{"upper(1) == \"1\"", 1, 7, "cannot use int as argument", ""},
		{`duration("5x") > duration("1m")`, 1, 10, `duration: unknown unit "x" in duration "5x"`, ""},
		{`same_instant_within(actual, expected, "five minutes")`, 1, 39, `same_instant_within: invalid duration "five minutes"`, ""},
		{`same_instant_within(actual, expected, "-5m")`, 1, 39, "same_instant_within: the duration must be >= 0, got -5m0s", ""},
		{`same_instant_within(actual, expected, duration("-5m"))`, 1, 39, "same_instant_within: the duration must be >= 0, got -5m0s", ""},
		{`same_instant_within(actual, expected, 5)`, 1, 39, "cannot use int as argument", ""},
		{`-(date(actual) - date(expected)) < duration("1m")`, 1, 1, "invalid operation: - (mismatched type time.Duration)", ""},
		{`date(actual) - date(expected) < 60`, 1, 31, "mismatched types time.Duration and int", ""},
	} {
		_, err := c.Compile(tc.src)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%q: got %v, want an *Error", tc.src, err)
			continue
		}
		if e.Line != tc.line || e.Column != tc.column || !strings.Contains(e.Msg, tc.msg) {
			t.Errorf("%q: got line %d, column %d, %q; want %d, %d, %q", tc.src, e.Line, e.Column, e.Msg, tc.line, tc.column, tc.msg)
		}
		if tc.snippet != "" && e.snippet != tc.snippet {
			t.Errorf("%q: snippet %q, want %q", tc.src, e.snippet, tc.snippet)
		}
		if want := "line "; !strings.HasPrefix(e.Error(), want) {
			t.Errorf("%q: Error() = %q", tc.src, e.Error())
		}
	}
}

func TestCompileErrorsWithoutPosition(t *testing.T) {
	c := NewCompiler(Options{MaxLength: 60, MaxNodes: 10})
	for src, msg := range map[string]string{
		``:    "empty expression",
		`   `: "empty expression",
		`actual == "` + strings.Repeat("x", 60) + `"`:   "the limit is 60",
		`actual == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]`: "exceeds maximum allowed nodes",
		"actual == \"\xff\"":                            "not valid UTF-8",
	} {
		_, err := c.Compile(src)
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(e.Error(), msg) {
			t.Errorf("%q: got %v, want an *Error with %q", src, err, msg)
		}
	}
}

// TestNeverBool: an expression that can yield no bool is a load error at
// the place that decides its result, whether expr's checker knows its type
// (len(actual)) or only knows it is `any` (actual + 1).
func TestNeverBool(t *testing.T) {
	c := NewCompiler(Options{})
	for _, tc := range []struct {
		src    string
		column int
		msg    string
	}{
		{`actual + 1`, 8, "expected bool, but got the result of +"},
		{`actual * 2`, 8, "expected bool, but got the result of *"},
		{`"a" + actual`, 5, "expected bool, but got the result of +"},
		{`actual - expected`, 8, "the result of -"},
		{`actual / 2`, 8, "expected bool, but got float64"},
		{`actual % 2`, 8, "expected bool, but got int"},
		{`actual ** 2`, 8, "expected bool, but got float64"},
		{`-actual`, 1, "the result of unary -"},
		{`len(actual)`, 1, "expected bool, but got int"},
		{`len(actual) + 1`, 13, "expected bool, but got int"},
		{`upper(actual)`, 1, "expected bool, but got string"},
		{`"x"`, 1, "expected bool, but got string"},
		{`[actual]`, 1, "expected bool, but got []interface {}"},
		{`{"a": actual}`, 1, "expected bool, but got map[string]interface {}"},
		{`nil`, 1, "expected bool, but got nil"},
		{`abs(actual)`, 1, "the result of abs()"},
		{`max(actual, expected)`, 1, "the result of max()"},
		{`min(actual, 1, 2)`, 1, "the result of min()"},
		{`sum(actual)`, 1, "the result of sum()"},
		{`mean(actual)`, 1, "the result of mean()"},
		{`median(actual)`, 1, "the result of median()"},
		{`sortBy(actual, #)`, 1, "the result of sortBy()"},
		{`take(actual, 2)`, 1, "the result of take()"},
		{`actual[1:]`, 7, "the result of [:]"},
		{`date(actual) - date(expected)`, 14, "expected bool, but got time.Duration"},
		{`actual ? actual + 1 : "no"`, 17, "neither branch of ?: yields one"},
		{`(actual + 1) ?? (actual - 1)`, 14, "neither side of ?? yields one"},
		{`let x = actual; x * 2`, 19, "the result of *"},
		{`actual == 1; actual + 1`, 21, "the result of +"},
		{`if actual { 1 } else { actual * 2 }`, 13, "neither branch of if/else yields one"},
		{"actual > 0 &&\n  actual", 0, ""}, // fine: one more bool
	} {
		_, err := c.Compile(tc.src)
		if tc.msg == "" {
			if err != nil {
				t.Errorf("%q: %v", tc.src, err)
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%q: got %v, want an *Error", tc.src, err)
			continue
		}
		if e.Line != 1 || e.Column != tc.column || !strings.Contains(e.Msg, tc.msg) || !strings.HasSuffix(e.Msg, "(an expression must yield true or false)") || e.snippet == "" {
			t.Errorf("%q: got %d:%d %q %q; want 1:%d %q", tc.src, e.Line, e.Column, e.Msg, e.snippet, tc.column, tc.msg)
		}
	}
}

// TestMayYieldBool: an expression whose result is only known when it runs
// compiles when it could be a bool; the run decides.
func TestMayYieldBool(t *testing.T) {
	c := NewCompiler(Options{})
	for _, src := range []string{
		`actual`,
		`args.flag`,
		`actual.a.b`,
		`actual[0]`,
		`actual?.x`,
		`get(args, "x")`,
		`actual ?? false`,
		`(actual + 1) ?? actual`, // never used, but not decided here
		`actual ? true : 2`,
		`let x = actual; x`,
		`max(actual)`, // max of a single non-number is that value
		`first(actual)`,
		`last(actual)`,
		`find(actual, # > 1)`,
		`reduce(actual, #acc && #, true)`,
		`fromJSON(actual)`,
		`$env.actual`,
	} {
		if _, err := c.Compile(src); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	}
}

// The errors the engine sees name the property and keep the *Error.
func TestComparatorAndAssertErrors(t *testing.T) {
	ext := NewCompiler(Options{}).Extensions()
	_, err := ext.Expr("abs(acutal) < 1")
	var ce *rules.CompileError
	var e *Error
	if !errors.As(err, &ce) || ce.Property != "expr" || !errors.As(err, &e) || e.Column != 5 {
		t.Fatalf("Expr: %#v", err)
	}
	if got := err.Error(); !strings.HasPrefix(got, "expr: line 1, column 5: unknown name acutal\n | abs(acutal) < 1\n | ....^") {
		t.Errorf("Expr error reads %q", got)
	}
	// Through rulecore.Compile, as the engine calls it.
	_, err = rulecore.Compile(mustParse(t, `{"expr": "abs(acutal) < 1"}`), rules.Extensions{Expr: ext.Expr})
	if err == nil || !strings.HasPrefix(err.Error(), "expr: line 1, column 5: unknown name acutal") {
		t.Errorf("rulecore.Compile error reads %v", err)
	}
	_, err = ext.Assert("actual.a >")
	if !errors.As(err, &ce) || ce.Property != "assert" || !strings.HasPrefix(err.Error(), "assert: line 1, column 10: unexpected token EOF") {
		t.Errorf("Assert: %v", err)
	}
}

func TestRuntimeErrors(t *testing.T) {
	c := NewCompiler(Options{})
	for _, tc := range []struct{ src, actual, msg string }{
		{`get(actual, "a.b") == 1`, `{"a": {}}`, `get: no value at path "a.b"`},
		{`actual + 1 > 2`, `"x"`, "invalid operation: string + int"},
		{`actual.x > 1`, `"x"`, "invalid operation"},
		{`actual[5] == 1`, `[1]`, "index out of range"},
		{`num(actual) == 1`, `[1]`, "num: a list is not a number"},
		{`date(actual) == date("2024-01-01")`, `"2024-13-45"`, "cannot read"},
		{`1 / actual > 0`, `0`, "a comparison (>) of +Inf"}, // 1/0 is no number to compare
		// A loop runs over a list alone: expr's runs over a string's bytes
		// (none held on "x") and over a map as over nothing.
		{`none(actual, # == "x")`, `"x"`, "none takes a list, got a string"},
		{`all(actual, # > 0)`, `"-1"`, "all takes a list, got a string"},
		{`any(actual, # == "x")`, `{}`, "any takes a list, got an object"},
		{`count(actual, # == "x") == 0`, `null`, "count takes a list, got null"},
		{`sum(actual) > 0`, `"ab"`, "sum takes a list, got a string"},
		{`len(filter(actual, # > 0)) == 0`, `5`, "filter takes a list, got a number"},
		{`reduce(actual.items, #acc + #, 0) == 0`, `{"items": "ab"}`, "reduce takes a list, got a string"},
		// A string indexed by a number is refused when it runs, as expr's
		// checker refuses "abc"[0], where it was the byte 0x78.
		{`actual[0] == "x"`, `"x"`, "a string cannot be indexed"},
		{`actual.to[-1] == "y"`, `{"to": "xy"}`, "a string cannot be indexed"},
		{`any(actual, #[0] == "x")`, `["xy"]`, "a string cannot be indexed"},
		// fromJSON reads JSON as arguments are read, not keeping the last
		// of a key written twice.
		{`fromJSON(actual).amount == 10`, `"{\"amount\": 99999, \"amount\": 10}"`, `fromJSON: `},
		{`fromJSON(actual) == 1`, `"1e400"`, "beyond float64's range"},
		{`fromJSON(actual) == 1`, `"1 2"`, "fromJSON: "},
		{`fromJSON(actual) == 1`, `"NaN"`, "fromJSON: "},
	} {
		e, err := c.Compile(tc.src)
		if err != nil {
			t.Fatalf("%s: %v", tc.src, err)
		}
		out := e.Compare(input(t, tc.actual, `1`))
		if tc.msg == "" {
			if out.Err != nil {
				t.Errorf("%s: %v", tc.src, out.Err)
			}
			continue
		}
		var re *RuntimeError
		if out.Equal || !errors.As(out.Err, &re) || !strings.Contains(out.Err.Error(), tc.msg) {
			t.Errorf("%s with %s: got %+v, want a *RuntimeError with %q", tc.src, tc.actual, out, tc.msg)
			continue
		}
		if !strings.HasPrefix(re.Error(), "expression "+`"`) || re.Line != 1 || re.Column < 1 {
			t.Errorf("%s: RuntimeError %q at %d:%d", tc.src, re.Error(), re.Line, re.Column)
		}
	}
}

func TestFalseMessage(t *testing.T) {
	c := NewCompiler(Options{})
	e, _ := c.Compile(`abs(actual - expected) <= 0.5`)
	out := e.Compare(input(t, `22`, `21`))
	if out.Equal || out.Err != nil || out.Message != `expected 21, got 22: "abs(actual - expected) <= 0.5" is false` {
		t.Errorf("got %+v", out)
	}
	// An assert (no path) leaves the message to the engine.
	out = e.Compare(&rules.Input{Actual: mustParse(t, `22`), Expected: mustParse(t, `21`)})
	if out.Equal || out.Message != "" {
		t.Errorf("assert: got %+v", out)
	}
}

func TestLimits(t *testing.T) {
	list := "[" + strings.TrimSuffix(strings.Repeat("1,", 200), ",") + "]"
	for _, tc := range []struct {
		name   string
		opts   Options
		src    string
		actual string
		msg    string
	}{
		{"memory budget: range", Options{}, `len(1..2000000) > 0`, `1`, "memory budget exceeded"},
		// flatten of lists sharing a part counts as it builds.
		{"memory budget: flatten", Options{}, `let r = 1..99999; len(flatten(map(1..2000, r))) > 0`, `1`, "flatten: memory budget exceeded"},
		{"memory budget: small", Options{MemoryBudget: 100}, `len(map(1..50, [#, #])) > 0`, `1`, "memory budget exceeded"},
		{"steps: nested loops", Options{}, `all(actual, all(actual, all(actual, # == 1)))`, list, "more than 1000000 closure steps"},
		{"steps: option", Options{MaxSteps: 10}, `all(actual, # == 1)`, list, "more than 10 closure steps"},
		{"string: doubling with +", Options{}, `let a = actual + actual; let b = a + a; let c = b + b; let d = c + c; let e = d + d; let f = e + e; let g = f + f; let h = g + g; let i = h + h; let j = i + i; let k = j + j; len(k) > 0`, `"` + strings.Repeat("x", 1000) + `"`, "the limit is 1048576"},
		{"string: typed +", Options{MaxStringLen: 10}, `upper(actual) + upper(actual) == ""`, `"abcdef"`, "+ would build a string of 12 bytes; the limit is 10"},
		{"string: join", Options{MaxStringLen: 100}, `join(map(1..60, actual), ",") == ""`, `"ab"`, "join would build"},
		{"string: replace", Options{MaxStringLen: 100}, `replace(actual, "", "xxxxxxxxxx") == ""`, `"abcdefghij"`, "replace would build"},
		{"string: toJSON of shared parts", Options{}, `let a = [actual, actual]; let b = [a, a]; let c = [b, b]; let d = [c, c]; let e = [d, d]; let f = [e, e]; let g = [f, f]; let h = [g, g]; let i = [h, h]; let j = [i, i]; let k = [j, j]; let l = [k, k]; let m = [l, l]; let n = [m, m]; len(toJSON(n)) > 0`, `"` + strings.Repeat("x", 100) + `"`, "toJSON would build"},
		// A range is an []int, a groupBy a map: weighed element by element.
		{"string: string of a range", Options{}, `len(string(1..999999)) > 1048576`, `1`, "string would build a string of"},
		{"string: toJSON of a range", Options{}, `len(toJSON(1..999999)) > 0`, `1`, "toJSON would build"},
		{"string: string of shared ranges", Options{}, `let r = 1..99999; let a = [r,r,r,r,r,r,r,r,r,r]; let b = [a,a,a,a,a,a,a,a,a,a]; len(string(b)) > 0`, `1`, "string would build"},
		{"string: string of a groupBy", Options{MaxStringLen: 1000}, `len(string(groupBy(1..500, # % 7))) > 0`, `1`, "string would build"},
		{"string: canon of shared parts", Options{MaxStringLen: 1000}, `let a = [actual, actual]; let b = [a, a]; let c = [b, b]; let d = [c, c]; canon(d) != ""`, `"` + strings.Repeat("x", 100) + `"`, "too large"},
		// The helpers' work, which steps alone do not bound.
		{"work: levenshtein in a loop", Options{}, `all(1..1000, levenshtein(actual, actual) >= 0)`, `"` + strings.Repeat("a", 4096) + `"`, "the limit is MaxWork"},
		{"work: upper in a loop", Options{MaxWork: 100000}, `all(1..1000, len(upper(actual)) > 0)`, `"` + strings.Repeat("a", 1000) + `"`, "more than 100000 bytes and elements"},
		{"work: contains in a loop", Options{MaxWork: 100000}, `none(1..1000, actual contains "z")`, `"` + strings.Repeat("a", 1000) + `"`, "the limit is MaxWork"},
		{"work: similarity over the model's list", Options{MaxWork: 1000000}, `any(actual, similarity(#, "` + strings.Repeat("b", 100) + `") > 0.9)`, `[` + strings.Repeat(`"`+strings.Repeat("a", 100)+`",`, 200) + `"a"]`, "the limit is MaxWork"},
		{"edit length", Options{MaxEditLen: 5}, `levenshtein(actual, "abc") < 2`, `"abcdef"`, "longer than 5 characters"},
		{"contains_all: searches", Options{MaxStringLen: 1000}, `contains_all(actual, map(1..40, "ab"))`, `"` + strings.Repeat("x", 2000) + `"`,
			"contains_all would search a string of 2000 bytes for 40 substrings; the limit is 64000 bytes searched"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The rows hold the budgets, which give the same error on
			// every machine; on a slow one (-race) the time limit, which
			// does not, would come first.
			opts := tc.opts
			opts.Timeout = time.Hour
			c := NewCompiler(opts)
			e, err := c.Compile(tc.src)
			if err != nil {
				t.Fatal(err)
			}
			out := e.Compare(input(t, tc.actual, `1`))
			if out.Err == nil || !strings.Contains(out.Err.Error(), tc.msg) {
				t.Errorf("got %+v, want an error with %q", out, tc.msg)
			}
		})
	}
}

func TestDefaults(t *testing.T) {
	got := NewCompiler(Options{}).opts
	if got != defaultOptions() {
		t.Errorf("zero Options gave %+v, want %+v", got, defaultOptions())
	}
	if got.MaxLength != 4096 || got.MaxNodes != 1000 || got.MemoryBudget != 1_000_000 || got.MaxSteps != 1_000_000 || got.MaxStringLen != 1<<20 || got.MaxEditLen != 4096 || got.Timeout != 10*time.Second {
		t.Errorf("defaults changed: %+v; update docs/dsl.md", got)
	}
}

func TestCacheSharesPrograms(t *testing.T) {
	c := NewCompiler(Options{})
	a, _ := c.Compile(`actual == 1`)
	b, _ := c.Compile(`actual == 1`)
	if a != b {
		t.Error("the same text compiled twice")
	}
	_, err1 := c.Compile(`nope`)
	_, err2 := c.Compile(`nope`)
	if err1 == nil || err1 != err2 {
		t.Errorf("errors not cached: %v, %v", err1, err2)
	}
}

// TestConcurrentEval shares programs between goroutines: each takes its own
// VM. Run with -race.
func TestConcurrentEval(t *testing.T) {
	c := NewCompiler(Options{})
	srcs := []string{
		`abs(actual - expected) <= 0.5`,
		`same_day(actual, expected)`,
		`all(args.items, # > 0) && decimal(actual) == decimal(actual)`,
		`norm(tool) == "t"`,
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 300; i++ {
				e, err := c.Compile(srcs[(g+i)%len(srcs)])
				if err != nil {
					t.Error(err)
					return
				}
				f := float64(g*1000 + i)
				in := &rules.Input{Path: "p", Tool: "T",
					Actual:   numberValue(f),
					Expected: numberValue(f + 0.25),
					Args:     mustParse(t, `{"items": [1, 2, 3]}`)}
				ok, err := e.eval(in)
				switch e.src {
				case srcs[0], srcs[2], srcs[3]:
					if !ok || err != nil {
						t.Errorf("%s with %v: %v %v", e.src, f, ok, err)
					}
				}
			}
		}()
	}
	wg.Wait()
}

func numberValue(f float64) value.Value {
	v, _ := value.FromAny(f)
	return v
}

// A panic inside a helper (here: an Input whose value the walk cannot
// handle is impossible, so a nil Input) is an error, never a crash.
func TestEvalNeverPanics(t *testing.T) {
	c := NewCompiler(Options{})
	e, _ := c.Compile(`actual == nil`)
	var out rules.Outcome
	func() {
		defer func() {
			if x := recover(); x != nil {
				t.Fatalf("panicked: %v", x)
			}
		}()
		out = e.Compare(nil)
	}()
	if out.Err == nil {
		t.Errorf("got %+v, want an error", out)
	}
}
