package dsl

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"
)

// evalWithin evaluates src against actual on its own goroutine and fails
// the test if that takes more than limit: a generous bound, which shows
// that an evaluation ends, where the limits make it take milliseconds.
func evalWithin(t *testing.T, c *Compiler, src, actual string, limit time.Duration) (bool, error) {
	t.Helper()
	e, err := c.Compile(src)
	if err != nil {
		t.Fatal(err)
	}
	in := input(t, actual, `1`)
	type result struct {
		ok  bool
		err error
	}
	done := make(chan result, 1)
	go func() {
		ok, err := e.eval(in)
		done <- result{ok, err}
	}()
	select {
	case r := <-done:
		return r.ok, r.err
	case <-time.After(limit):
		t.Fatalf("%s ran for more than %v", src, limit)
		return false, nil
	}
}

// Expressions within every limit of their parts that used to run for a
// minute, or build lists no budget counted, are stopped by a budget: a
// rule_error, quickly.
func TestHostileExpressionsAreBounded(t *testing.T) {
	big := `"` + strings.Repeat("a", 2<<20) + `"` // 2 MiB, 2M characters
	for _, tc := range []struct {
		name, src, actual, msg, limit string
	}{
		// Each step copies the string built so far: quadratic, ~58 s.
		{"string built by +", `len(reduce(1..999999, #acc + "x", "")) > 0`, `1`, "the limit is MaxWork", "MaxWork"},
		{"string built by + on a known string", `len(reduce(1..999999, #acc + upper("x"), "")) > 0`, `1`, "the limit is MaxWork", "MaxWork"},
		// A list of 2M strings, which MemoryBudget did not count.
		{"split into characters", `len(split(actual, "")) > 0`, big, "memory budget exceeded", "MemoryBudget"},
		{"split on a separator", `len(split(actual, "a")) > 0`, big, "memory budget exceeded", "MemoryBudget"},
		{"splitAfter", `len(splitAfter(actual, "a")) > 0`, big, "memory budget exceeded", "MemoryBudget"},
		// Each split is small; together they pass the budget.
		{"splits kept by map", `len(map(1..1000, split(actual, ""))) > 0`, `"` + strings.Repeat("a", 2000) + `"`, "memory budget exceeded", "MemoryBudget"},
		{"keys kept by map", `len(map(1..1000, keys(args))) > 0`, `1`, "memory budget exceeded", "MemoryBudget"},
		// uniq compares each element with those kept: quadratic.
		{"memory budget of the VM", `len(1..2000000) > 0`, `1`, "memory budget exceeded", "MemoryBudget"},
		{"closure steps", `all(actual, all(actual, all(actual, # == 1)))`, "[" + strings.TrimSuffix(strings.Repeat("1,", 200), ",") + "]", "the limit is MaxSteps", "MaxSteps"},
		{"uniq of a range", `len(uniq(1..999999)) > 0`, `1`, "the limit is MaxWork", "MaxWork"},
		// A linear operator in a loop: each `in` is charged the list it
		// reads.
		{"in over a list in a loop", `let l = 1..99999; all(l, # in l)`, `1`, "the limit is MaxWork", "MaxWork"},
		// A list that holds itself twice is as large as its tree, 2^40
		// values built in forty steps, which ==, in and the helpers
		// that flatten a list would read whole.
		{"median of a list that holds itself", `median(reduce(1..40, [#acc, #acc], [1])) > 0`, `1`, "the limit is MaxWork", "MaxWork"},
		// Within MaxWork, but median would gather its 2^25 numbers.
		{"median of a smaller list that holds itself", `median(reduce(1..25, [#acc, #acc], [1])) > 0`, `1`, "memory budget exceeded", "MemoryBudget"},
		{"max of a list that holds itself", `max(reduce(1..40, [#acc, #acc], [1])) > 0`, `1`, "the limit is MaxWork", "MaxWork"},
		{"== of lists that hold themselves", `reduce(1..40, [#acc, #acc], [1]) == reduce(1..40, [#acc, #acc], [1])`, `1`, "the limit is MaxWork", "MaxWork"},
		{"!= of lists that hold themselves", `reduce(1..40, [#acc, #acc], [1]) != reduce(1..40, [#acc, #acc], [2])`, `1`, "the limit is MaxWork", "MaxWork"},
		{"in a list that holds itself", `[2] in reduce(1..40, [#acc, #acc], [[1]])`, `1`, "the limit is MaxWork", "MaxWork"},
		{"a map that holds itself", `reduce(1..40, ({"a": #acc, "b": #acc}), {}) == {}`, `1`, "the limit is MaxWork", "MaxWork"},
		{"== against actual", `reduce(1..40, [#acc, #acc], [1]) == actual`, `[1]`, "the limit is MaxWork", "MaxWork"},
		{"toBase64 of its own result", `len(reduce(1..55, toBase64(#acc), actual)) > 0`, `"abc"`, "the limit is 1048576", "MaxStringLen"},
		{"toJSON of a list that holds itself", `len(toJSON(reduce(1..40, [#acc, #acc], [1]))) > 0`, `1`, "the limit is MaxWork", "MaxWork"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var opts Options
			if tc.limit == "Timeout" {
				opts.Timeout = 200 * time.Millisecond
			}
			c := NewCompiler(opts)
			e, _ := c.Compile(tc.src)
			in := input(t, tc.actual, `1`)
			if tc.name == "keys kept by map" {
				in.Args = mustParse(t, `{`+strings.Repeat(`"k`, 1)+`0":1`+keysJSON(2000)+`}`)
			}
			var ms0, ms1 runtime.MemStats
			runtime.ReadMemStats(&ms0)
			start := time.Now()
			out := e.Compare(in)
			took := time.Since(start)
			runtime.ReadMemStats(&ms1)
			if out.Err == nil || !strings.Contains(out.Err.Error(), tc.msg) {
				t.Fatalf("got %+v, want a rule_error with %q", out, tc.msg)
			}
			var le *limitError
			if !errors.As(out.Err, &le) || le.limit != tc.limit {
				t.Errorf("%v: want a *limitError of %s", out.Err, tc.limit)
			}
			if took > 10*time.Second {
				t.Errorf("took %v", took)
			}
			if mb := (ms1.TotalAlloc - ms0.TotalAlloc) >> 20; mb > 300 {
				t.Errorf("allocated %d MB", mb)
			}
			t.Logf("%v, %d MB allocated: %v", took, (ms1.TotalAlloc-ms0.TotalAlloc)>>20, out.Err)
		})
	}
}

func keysJSON(n int) string {
	var b strings.Builder
	for i := 1; i < n; i++ {
		b.WriteString(`,"k`)
		b.WriteString(strings.Repeat("x", 0))
		b.WriteString(itoa(i))
		b.WriteString(`":1`)
	}
	return b.String()
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}

// The two expressions of issue 28 end within a generous bound under the
// default limits, as rule errors.
func TestIssue28ExpressionsEnd(t *testing.T) {
	c := NewCompiler(Options{})
	for _, tc := range []struct{ src, actual string }{
		{`len(reduce(1..999999, #acc + "x", "")) > 0`, `1`},
		{`len(split(actual, "")) > 0`, `"` + strings.Repeat("é", 2<<20) + `"`},
	} {
		if _, err := evalWithin(t, c, tc.src, tc.actual, 10*time.Second); err == nil {
			t.Errorf("%s: no error", tc.src)
		}
	}
}

// What stays within the limits gives what it gave.
func TestOrdinaryExpressionsUnaffected(t *testing.T) {
	c := NewCompiler(Options{})
	list := "[" + strings.TrimSuffix(strings.Repeat("3,", 1000), ",") + "]"
	runCases(t, c, []evalCase{
		{src: `abs(actual - expected) <= 0.5`, actual: `1.2`, expected: `1`, want: true},
		{src: `all(actual, # > 0)`, actual: list, expected: `1`, want: true},
		{src: `len(reduce(1..1000, #acc + "x", "")) == 1000`, actual: `1`, expected: `1`, want: true},
		{src: `reduce(actual, #acc + string(#), "") == "` + strings.Repeat("3", 1000) + `"`, actual: list, expected: `1`, want: true},
		{src: `split(actual, ",") == ["a", "b", "c"]`, actual: `"a,b,c"`, expected: `1`, want: true},
		{src: `split(actual, ",", 2) == ["a", "b,c"]`, actual: `"a,b,c"`, expected: `1`, want: true},
		{src: `splitAfter(actual, ",") == ["a,", "b"]`, actual: `"a,b"`, expected: `1`, want: true},
		{src: `len(split(actual, "")) == 3`, actual: `"héé"`, expected: `1`, want: true},
		{src: `uniq([1, 2, 2, 1.0, "a"]) == [1, 2, "a"]`, actual: `1`, expected: `1`, want: true},
		{src: `len(keys(args)) == 0`, actual: `1`, expected: `1`, want: true},
		{src: `actual + "!" == "hi!"`, actual: `"hi"`, expected: `1`, want: true},
		{src: `actual in [1, 2, 3]`, actual: `2`, expected: `1`, want: true},
	})
}

// builds counts what split would build exactly.
func TestBuildsCountsSplit(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []any
	}{
		{"split", []any{"a,b,,c", ","}},
		{"split", []any{"héllo", ""}},
		{"split", []any{"", ""}},
		{"split", []any{"", ","}},
		{"split", []any{"a,b,c", ",", 2}},
		{"split", []any{"a,b,c", ",", 0}},
		{"split", []any{"a,b,c", ",", -1}},
		{"splitAfter", []any{"a,b,c,", ","}},
		{"splitAfter", []any{"héllo", ""}},
	} {
		var got int
		s, sep := tc.args[0].(string), tc.args[1].(string)
		n := -1
		if len(tc.args) == 3 {
			n = tc.args[2].(int)
		}
		if tc.name == "split" {
			got = len(strings.SplitN(s, sep, n))
		} else {
			got = len(strings.SplitAfterN(s, sep, n))
		}
		if b := builds(tc.name, tc.args, 1<<30); b != got {
			t.Errorf("builds(%s, %q) = %d, want %d", tc.name, tc.args, b, got)
		}
	}
	if n := jsonValues(`{"a,b":[1,2,{"c":"x\",y"}]}`); n < 6 {
		t.Errorf("jsonValues counts %d values and keys, fewer than the 6 there are", n)
	}
}
