package engine

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/dsl"
	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/results"
)

// TestStepsInExpressions scores runs whose rules and asserts read `steps`:
// an expected case that uses them is a run case too, and a step that did
// not happen is a mismatch, not a rule error.
func TestStepsInExpressions(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.yaml")
	src := `
cases:
  - id: t
    expected:
      - name: find_order
        arguments: {email: a@b.c}
      - name: refund
        rules: {order_id: {expr: "actual == steps[0].result.id"}}
        arguments: {order_id: null}
        assert: ["len(steps) >= 1"]
`
	e := loadDSL(t, path, src)
	if e.cases[0].run == nil {
		t.Fatal("a case whose rules read steps is not a run case")
	}
	r := e.newScorer().scoreRun(0, runOf(t, steps(findO1, refundO1)))
	if !r.Pass {
		t.Errorf("%s", r.AppendJSON(nil))
	}
	r = e.newScorer().scoreRun(0, runOf(t, steps(refundO1)))
	if got := kinds(r); !slices.Equal(got, []results.Kind{results.WrongTool, results.MissingCall}) {
		t.Errorf("kinds = %v\n%s", got, r.AppendJSON(nil))
	}
	r = e.newScorer().scoreRun(0, runOf(t, `{"steps":[{"name":"find_order","arguments":{"email":"a@b.c"}},`+refundO1+`]}`))
	if got := kinds(r); !slices.Equal(got, []results.Kind{results.RuleError}) {
		// steps[0].result is absent: comparing nil is false, not an error
		if !slices.Equal(got, []results.Kind{results.Mismatch}) {
			t.Errorf("kinds = %v\n%s", got, r.AppendJSON(nil))
		}
	}
}

// A never entry whose expression cannot decide (a string where it
// compares numbers) fails the run with that rule_error: a wrong type must
// not get a forbidden call past the guard.
func TestNeverWithExpressions(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.yaml")
	src := `
cases:
  - id: t
    calls: in_order
    steps: [{name: a}]
    never: [{name: b, rules: {n: {expr: "actual > 1000"}}}]
`
	e := loadDSL(t, path, src)
	for _, tt := range []struct {
		n     string
		pass  bool
		kinds []results.Kind
		json  string
	}{
		{"5000", false, []results.Kind{results.ForbiddenCall}, `"kind":"forbidden_call","call":null,"step":1`},
		{"5", true, nil, `"diffs":[]`},
		{`"5000"`, false, []results.Kind{results.RuleError},
			`{"kind":"rule_error","call":null,"step":1,"turn":1,"path":"n","actual":"b","rule":"never","message":"never[0] cannot tell whether this call to b is forbidden: `},
	} {
		r := e.newScorer().scoreRun(0, runOf(t, steps(`{"name":"a"}`, `{"name":"b","arguments":{"n":`+tt.n+`},"turn":1}`)))
		line := string(r.AppendJSON(nil))
		if r.Pass != tt.pass || !slices.Equal(kinds(r), tt.kinds) || !strings.Contains(line, tt.json) {
			t.Errorf("n = %s: pass=%v kinds=%v, want pass=%v kinds=%v ...%s...\n%s", tt.n, r.Pass, kinds(r), tt.pass, tt.kinds, tt.json, line)
		}
	}
}

// loadDSL writes src to path and compiles it with the expression language.
func loadDSL(t *testing.T, path, src string) *Engine {
	t.Helper()
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := suite.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	e, err := newEngine(s, Options{Extensions: dsl.NewCompiler(dsl.Options{}).Extensions()})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestNeverExpressionOverAList: a never entry's list is compared element
// by element, and an expression forbids any list that holds an element,
// as docs/trajectories.md advises.
func TestNeverExpressionOverAList(t *testing.T) {
	e := loadDSL(t, filepath.Join(t.TempDir(), "s.yaml"), `
cases:
  - id: t
    steps: [{name: a}]
    calls: in_order
    never: [{name: ship, rules: {items: {expr: "any(actual, .sku == 'S1')"}}}]
`)
	for _, tc := range []struct {
		items string
		pass  bool
	}{
		{`[{"sku":"S2"},{"sku":"S1"}]`, false},
		{`[{"sku":"S2"}]`, true},
	} {
		r := e.newScorer().scoreRun(0, runOf(t, steps(`{"name":"a"}`, `{"name":"ship","arguments":{"items":`+tc.items+`}}`)))
		if r.Pass != tc.pass || !tc.pass && !slices.Equal(kinds(r), []results.Kind{results.ForbiddenCall}) {
			t.Errorf("%s: %s", tc.items, r.AppendJSON(nil))
		}
	}
}

// TestFinalRelaysAFailedToolsError: a from reference to a failed tool's
// result does not resolve, but an expression reads the result as the tool
// returned it, so a final answer can be held to relay the error.
func TestFinalRelaysAFailedToolsError(t *testing.T) {
	e := loadDSL(t, filepath.Join(t.TempDir(), "s.yaml"), `
cases:
  - id: t
    steps: [{name: refund, result: {error: true}}]
    final: {expr: "steps[0].error && actual contains steps[0].result.error"}
`)
	for _, tc := range []struct {
		final string
		pass  bool
	}{
		{"Sorry: refund window closed.", true},
		{"Done, refunded.", false},
	} {
		run := runOf(t, `{"steps":[{"name":"refund","result":{"error":"refund window closed"},"error":true}],"final":`+strconv.Quote(tc.final)+`}`)
		if r := e.newScorer().scoreRun(0, run); r.Pass != tc.pass {
			t.Errorf("%q: %s", tc.final, r.AppendJSON(nil))
		}
	}
}
