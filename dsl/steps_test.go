package dsl

import (
	"testing"

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
		kind   rules.Kind // of the error, "" for none
	}{
		{`actual == steps[0].result.id`, `"O-1"`, 1, true, ""},
		{`actual == steps[0].result.id`, `"O-2"`, 1, false, ""},
		{`len(steps) == 0`, `1`, 0, true, ""},
		{`actual == steps[0].result.id`, `"O-1"`, 0, false, rules.Mismatch},
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
		out := e.Compare(&rules.Input{Path: "x", Actual: a, Steps: rules.Steps{Src: run, N: tt.n}})
		if out.Equal != tt.equal || (out.Err != nil) != (tt.kind != "") || out.Err != nil && out.ErrKind != tt.kind {
			t.Errorf("%s with %s (n=%d) = %+v", tt.src, tt.actual, tt.n, out)
		}
	}
	if e, _ := c.Compile(`actual == expected`); e.UsesSteps() {
		t.Error("actual == expected uses steps")
	}
}
