package engine

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/callgrade/callgrade/dsl"
	"github.com/callgrade/callgrade/suite"
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
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := suite.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(s, Options{Extensions: dsl.NewCompiler(dsl.Options{}).Extensions()})
	if err != nil {
		t.Fatal(err)
	}
	if e.cases[0].run == nil {
		t.Fatal("a case whose rules read steps is not a run case")
	}
	r := e.ScoreRun(0, runOf(t, steps(findO1, refundO1)))
	if !r.Pass {
		t.Errorf("%s", r.AppendJSON(nil))
	}
	r = e.ScoreRun(0, runOf(t, steps(refundO1)))
	if got := kinds(r); !slices.Equal(got, []Kind{WrongTool, MissingCall}) {
		t.Errorf("kinds = %v\n%s", got, r.AppendJSON(nil))
	}
	r = e.ScoreRun(0, runOf(t, `{"steps":[{"name":"find_order","arguments":{"email":"a@b.c"}},`+refundO1+`]}`))
	if got := kinds(r); !slices.Equal(got, []Kind{RuleError}) {
		// steps[0].result is absent: comparing nil is false, not an error
		if !slices.Equal(got, []Kind{Mismatch}) {
			t.Errorf("kinds = %v\n%s", got, r.AppendJSON(nil))
		}
	}
}
