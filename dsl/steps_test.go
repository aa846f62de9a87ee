package dsl

import (
	"strings"
	"testing"

	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/value"
)

type stepList []value.Value

func (s stepList) StepCount() int { return len(s) }
func (s stepList) StepName(i int) string {
	n, _ := s[i].Get("name")
	return n.Str()
}
func (s stepList) StepValue(i int) value.Value { return s[i] }

func TestStepsInExpressions(t *testing.T) {
	step, _ := value.Parse(`{"name":"find_order","arguments":{"email":"a@b.c"},"result":{"id":"O-1"},"error":false,"turn":0}`)
	run := stepList{step}
	c := NewCompiler(Options{})
	tests := []struct {
		src    string
		actual string
		n      int
		equal  bool
		kind   results.Kind // of the error, "" for none
	}{
		{`actual == steps[0].result.id`, `"O-1"`, 1, true, ""},
		{`actual == steps[0].result.id`, `"O-2"`, 1, false, ""},
		{`len(steps) == 0`, `1`, 0, true, ""},
		{`actual == steps[0].result.id`, `"O-1"`, 0, false, results.Mismatch},
		{`any(steps, .name == "find_order" && .arguments.email == actual)`, `"a@b.c"`, 1, true, ""},
		{`actual == steps[-1].turn`, `0`, 1, true, ""},
	}
	for _, tt := range tests {
		e, err := c.Compile(tt.src)
		if err != nil {
			t.Fatalf("%s: %v", tt.src, err)
		}
		if !e.UsesSteps() {
			t.Errorf("%s: UsesSteps = false", tt.src)
		}
		a, _ := value.Parse(tt.actual)
		out := e.Compare(&rules.Input{Path: "x", Actual: a, Steps: rules.NewSteps(run, tt.n)})
		if out.Equal != tt.equal || (out.Err != nil) != (tt.kind != "") || out.Err != nil && out.ErrKind != tt.kind {
			t.Errorf("%s with %s (n=%d) = %+v", tt.src, tt.actual, tt.n, out)
		}
	}
	if e, _ := c.Compile(`actual == expected`); e.UsesSteps() {
		t.Error("actual == expected uses steps")
	}
}

// TestStepsBeyondFloat64: a step's number beyond float64's range, read as
// a float64, is an error as it is in actual, not ±Inf equal to any other
// as far.
func TestStepsBeyondFloat64(t *testing.T) {
	step, _ := value.Parse(`{"name":"quote","arguments":{},"result":{"total":1e400,"paid":1e401,"n":2},"error":false,"turn":0}`)
	run := stepList{step}
	two, _ := value.Parse(`2`)
	c := NewCompiler(Options{})
	for _, tt := range []struct {
		src   string
		n     int
		equal bool
		err   string
	}{
		{`steps[0].result.total == steps[0].result.paid`, 1, false, "steps[0] holds the number 1e40"},
		{`!(steps[0].result.total != steps[0].result.paid)`, 1, false, "beyond float64's range"},
		{`actual == steps[0].result.n`, 1, false, "beyond float64's range"}, // the step holds one, read or not
		{`len(steps) == 0`, 0, true, ""}, // the step is not in view
	} {
		e, err := c.Compile(tt.src)
		if err != nil {
			t.Fatalf("%s: %v", tt.src, err)
		}
		out := e.Compare(&rules.Input{Path: "x", Actual: two, Steps: rules.NewSteps(run, tt.n)})
		if tt.err == "" {
			if out.Err != nil || out.Equal != tt.equal {
				t.Errorf("%s (n=%d) = %+v, want equal %t", tt.src, tt.n, out, tt.equal)
			}
			continue
		}
		if out.Equal || out.Err == nil || !strings.Contains(out.Err.Error(), tt.err) || out.ErrKind != "" && out.ErrKind != results.RuleError {
			t.Errorf("%s (n=%d) = %+v, want a rule_error saying %q", tt.src, tt.n, out, tt.err)
		}
	}
}
