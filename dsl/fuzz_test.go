package dsl

import (
	"testing"

	"github.com/callgrade/callgrade/internal/number"
	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/value"
)

// FuzzEval compiles arbitrary expression text and runs it against
// arbitrary JSON values: neither may panic or hang, whatever the text. The
// limits are small so that a slow expression shows quickly.
func FuzzEval(f *testing.F) {
	for _, s := range []struct{ src, actual, expected string }{
		{`abs(actual - expected) <= 0.5`, `21.4`, `21`},
		{`same_day(actual, expected)`, `"Jan 5 2024"`, `"2024-01-05"`},
		{`decimal(actual) == decimal(expected)`, `12345678901234567.50`, `"12345678901234567.5"`},
		{`set_eq(actual, expected) && all(actual, upper(#) == #)`, `["A","B"]`, `["B","A"]`},
		{`get(actual, "a.#.b") == [1] && has(actual, "a")`, `{"a":[{"b":1}]}`, `null`},
		{`similarity(norm(actual), norm(expected)) > 0.8`, `"Straße "`, `"STRASSE"`},
		{`canon(actual) == canon(expected)`, `{"b":1,"a":[1.0]}`, `{"a":[1],"b":1}`},
		{`let a = actual + actual; len(a) > 2`, `"xy"`, `0`},
		{`all(actual, all(actual, # == 1))`, `[1,1,1]`, `1`},
		{`contains_all(actual, expected)`, `"a b c"`, `["a","c"]`},
		{`date(actual) < date(expected)`, `"2024-01-05T10:00:00Z"`, `"5th January 2024"`},
		{`levenshtein(actual, expected) < 3 && strip_punct(actual) != ""`, `"kitten!"`, `"sitting"`},
		{`reduce(1..100, #acc + #, 0) > actual`, `5`, `null`},
		{`toJSON(actual) != string(expected)`, `[1,{"x":null}]`, `true`},
		// Lists that hold themselves: their trees are charged, not walked.
		{`reduce(1..30, [#acc, #acc], actual) == expected && median(reduce(1..20, [#acc], [1])) > 0`, `[1]`, `[[1]]`},
	} {
		f.Add(s.src, s.actual, s.expected)
	}
	c := NewCompiler(Options{MaxSteps: 10_000, MemoryBudget: 50_000, MaxStringLen: 1 << 16, MaxEditLen: 256})
	f.Fuzz(func(t *testing.T, src, actual, expected string) {
		a, err := value.Parse(actual)
		if err != nil {
			return
		}
		e, err := value.Parse(expected)
		if err != nil {
			return
		}
		x, err := c.Compile(src)
		if err != nil {
			if x != nil {
				t.Fatal("an error and an expression")
			}
			_ = err.Error()
			return
		}
		args, _ := value.ObjectOf(value.Member{Key: "a", Value: a})
		in := &rules.Input{Path: "a", Actual: a, Expected: e, Params: e, Tool: "t", Args: args, ExpectedArgs: args}
		out := x.Compare(in)
		if out.Err != nil {
			_ = out.Err.Error()
		}
		// An assert: no path, the whole arguments.
		in.Path, in.Actual, in.Expected = "", args, args
		x.Compare(in)
	})
}

// FuzzApprox checks approx and rel_approx against number.WithinAbs and
// number.WithinRel, which the tolerance and relative rules use, on the
// fuzzer's number literals, written as numbers and as numeric strings.
func FuzzApprox(f *testing.F) {
	for _, s := range [][3]string{
		{"21.5", "21", "0.5"},
		{"21.50000000000000001", "21", "0.5"},
		{"1e400", "1", "0.5"},
		{"-1e400", "1e400", "1e401"},
		{"1704067200002", "1704067200000", "0.5"},
		{"1.1", "1.0", "0.1"},
		{"-0", "0", "0"},
		{"105", "100", "0.05"},
		{"0.1", "0.3", "1e-400"},
	} {
		f.Add(s[0], s[1], s[2])
	}
	c := NewCompiler(Options{})
	abs, err := c.Compile(`approx(actual, expected, params.tol)`)
	if err != nil {
		f.Fatal(err)
	}
	rel, err := c.Compile(`rel_approx(actual, expected, params.tol)`)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, a, b, tol string) {
		x, err1 := value.NumberOf(a)
		y, err2 := value.NumberOf(b)
		z, err3 := value.NumberOf(tol)
		if err1 != nil || err2 != nil || err3 != nil || number.Compare(tol, "0") < 0 {
			return
		}
		// With the bound written in the expression, the native path
		// decides numbers: it must agree with the VM. (A Compiler of its
		// own: the shared one would keep every text it is given.)
		lc := NewCompiler(Options{})
		for _, f := range []string{"approx", "rel_approx"} {
			e, err := lc.Compile(f + "(actual, expected, " + tol + ")")
			if err != nil {
				continue // e.g. 1e400, which expr cannot read
			}
			in := &rules.Input{Path: "p", Actual: x, Expected: y}
			got, gerr := e.eval(in)
			want, werr := e.evalVM(in)
			if got != want || (gerr == nil) != (werr == nil) {
				t.Errorf("%s with %s, %s: fast path %v (%v), VM %v (%v)", e.src, a, b, got, gerr, want, werr)
			}
		}
		params, _ := value.ObjectOf(value.Member{Key: "tol", Value: z})
		for _, in := range []*rules.Input{
			{Path: "p", Actual: x, Expected: y, Params: params},
			{Path: "p", Actual: value.StringOf(" " + a), Expected: value.StringOf(b + "\n"), Params: params},
		} {
			if got, err := abs.eval(in); err != nil || got != number.WithinAbs(a, b, tol) {
				t.Errorf("approx(%s, %s, %s) = %v, %v; WithinAbs says %v", in.Actual, in.Expected, tol, got, err, number.WithinAbs(a, b, tol))
			}
			if got, err := rel.eval(in); err != nil || got != number.WithinRel(a, b, tol) {
				t.Errorf("rel_approx(%s, %s, %s) = %v, %v; WithinRel says %v", in.Actual, in.Expected, tol, got, err, number.WithinRel(a, b, tol))
			}
		}
	})
}
