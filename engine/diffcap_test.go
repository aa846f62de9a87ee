package engine

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/rules"
)

// extraArgs is a response of one call to f with a: 1 and n more
// arguments x0, x1, ..., each a string.
func extraArgs(n int) string {
	var b strings.Builder
	b.WriteString(`[{"name":"f","arguments":{"a":1`)
	for i := range n {
		b.WriteString(`,"x` + strconv.Itoa(i) + `":"v"`)
	}
	b.WriteString(`}}]`)
	return b.String()
}

const capTools = `
    tools:
      - type: function
        function:
          name: f
          parameters:
            type: object
            properties:
              a: {type: integer}
            additionalProperties: {type: integer}
`

// A call with far more things wrong than the cap lists the first
// Options.maxDiffs of them and one diff that says how many more; its pass
// and score are those of every miss counted.
func TestDiffsPerCallAreCapped(t *testing.T) {
	const n = 10_000
	tests := []struct {
		name, suite, response string
		calls                 int          // results in Calls
		score                 float64      // of every miss counted
		kind                  results.Kind // the kind of the diffs left out
	}{
		{"extra arguments", `cases: [{id: t, expected: {name: f, arguments: {a: 1}}}]`, extraArgs(n),
			1, 1.0 / (n + 1), results.UnexpectedArgument},
		// Each extra argument is unexpected, and a string where the
		// schema wants integers: two diffs each.
		{"extra arguments against a schema", "cases:\n  - id: t" + capTools + "    expected: {name: f, arguments: {a: 1}}\n", extraArgs(n),
			1, 1.0 / (n + 1), results.Schema},
		// An actual call that pairs with no expected call.
		{"unpaired call", "cases:\n  - id: t\n    calls: unordered" + capTools + "    expected: []\n", extraArgs(n),
			1, 0, results.Schema},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := load(t, "version: 1\n"+tt.suite)
			r := e.newScorer().Score(0, mustParse(t, tt.response))
			if r.Pass || len(r.Calls) != tt.calls {
				t.Fatalf("pass=%v calls=%d", r.Pass, len(r.Calls))
			}
			if r.Score != tt.score || r.Calls[0].Score != tt.score {
				t.Errorf("score %v (call %v), want %v", r.Score, r.Calls[0].Score, tt.score)
			}
			if len(r.Diffs) != defaultMaxDiffs+1 {
				t.Fatalf("%d diffs, want %d", len(r.Diffs), defaultMaxDiffs+1)
			}
			last := r.Diffs[len(r.Diffs)-1]
			if last.Kind != tt.kind || last.Call != 0 || last.Path != "" || !strings.Contains(last.Message, "more diffs") {
				t.Errorf("the last diff is %+v", last)
			}
		})
	}
}

// The cap is an option; below it nothing changes.
func TestMaxDiffsOption(t *testing.T) {
	e := loadWith(t, "version: 1\ncases: [{id: t, expected: {name: f, arguments: {a: 1}}}]", Options{maxDiffs: 3})
	for _, tc := range []struct{ extra, diffs int }{{2, 2}, {3, 3}, {4, 4}, {5, 4}, {50, 4}} {
		r := e.newScorer().Score(0, mustParse(t, extraArgs(tc.extra)))
		if len(r.Diffs) != tc.diffs || r.Score != 1/float64(tc.extra+1) || r.Pass {
			t.Errorf("%d extra arguments: %d diffs, score %v, want %d diffs", tc.extra, len(r.Diffs), r.Score, tc.diffs)
		}
		if tc.extra > 4 {
			want := strconv.Itoa(tc.extra-3) + " more diffs"
			if m := r.Diffs[3].Message; !strings.Contains(m, want) {
				t.Errorf("%d extra arguments: the summary says %q, want %q", tc.extra, m, want)
			}
		}
	}
}

// failing is a comparator that cannot compare anything.
type failing struct{}

func (failing) Compare(*rules.Input) rules.Outcome {
	return rules.Outcome{Err: errors.New("cannot compare")}
}

// When the diffs left out include one of a kind that makes a case
// errored, the summary has that kind, so that the case stays errored.
func TestDiffCapKeepsErrored(t *testing.T) {
	var exp, act strings.Builder
	for i := range 120 {
		fmt.Fprintf(&exp, "m%d: 1, ", i)
		fmt.Fprintf(&act, `"m%d":2,`, i)
	}
	yaml := "version: 1\ncases: [{id: t, expected: {name: f, arguments: {" + exp.String() + "z: 1}, rules: {z: {expr: x}}}}]"
	e := loadWith(t, yaml, Options{Extensions: rules.Extensions{Expr: func(string) (rules.Comparator, error) { return failing{}, nil }}})
	r := e.newScorer().Score(0, mustParse(t, `[{"name":"f","arguments":{`+act.String()+`"z":1}}]`))
	if len(r.Diffs) != defaultMaxDiffs+1 || r.Score != 0 {
		t.Fatalf("%d diffs, score %v", len(r.Diffs), r.Score)
	}
	last := r.Diffs[defaultMaxDiffs]
	if last.Kind != results.RuleError || !strings.Contains(last.Message, "20 mismatch, 1 rule_error") {
		t.Errorf("the summary is %+v", last)
	}
}

// BenchmarkManyExtraArguments scores a call with n extra arguments with a
// Scorer: its allocations do not grow with n, and its B/op grows by the
// rules' record of the failed arguments alone (8 bytes each), not by a
// diff and a message each.
func BenchmarkManyExtraArguments(b *testing.B) {
	e := load(b, "version: 1\ncases: [{id: t, expected: {name: f, arguments: {a: 1}}}]")
	for _, n := range []int{1_000, 10_000, 100_000} {
		b.Run("extra="+strconv.Itoa(n), func(b *testing.B) {
			resp := mustParse(b, extraArgs(n))
			sc := e.newScorer()
			b.ReportAllocs()
			for b.Loop() {
				if r := sc.Score(0, resp); r.Pass || len(r.Diffs) != defaultMaxDiffs+1 {
					b.Fatalf("pass %v, %d diffs", r.Pass, len(r.Diffs))
				}
			}
		})
	}
}
