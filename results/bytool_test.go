package results

import (
	"fmt"
	"reflect"
	"testing"
)

func TestStepVerdicts(t *testing.T) {
	pair := func(e, a int, pass bool, score float64) CallResult {
		return CallResult{Expected: e, Actual: a, Pass: pass, Score: score}
	}
	many := make([]string, 20) // past the tools looked up in a list
	var manyCalls []CallResult
	var manyWant []ToolVerdict
	for j := range many {
		many[j] = fmt.Sprintf("t%02d", 19-j)
		manyCalls = append(manyCalls, pair(j, j, j%2 == 0, 1))
		manyWant = append(manyWant, ToolVerdict{Tool: many[j], Pass: j%2 == 0, Score: 1})
	}
	manyCalls = append(manyCalls, pair(-1, 20, false, 0))
	tests := []struct {
		name  string
		tools []string
		calls []CallResult
		want  []ToolVerdict
	}{
		{"no steps", nil, nil, nil},
		{"each step its own tool", []string{"find", "refund"}, []CallResult{pair(0, 0, true, 1), pair(1, 1, false, 0.5)},
			[]ToolVerdict{{"find", true, 1}, {"refund", false, 0.5}}},
		{"a tool of two steps, one failing", []string{"find", "refund", "refund"}, []CallResult{pair(0, 0, true, 1), pair(1, 1, true, 1), pair(2, 2, false, 0)},
			[]ToolVerdict{{"find", true, 1}, {"refund", false, 0.5}}},
		{"pairs in another order than the steps", []string{"a", "b", "a"}, []CallResult{pair(2, 0, true, 1), pair(1, 1, true, 1), pair(0, 2, false, 0.5)},
			[]ToolVerdict{{"a", false, 0.75}, {"b", true, 1}}},
		{"a step paired with no call", []string{"find", "refund"}, []CallResult{pair(0, 0, true, 1), pair(1, -1, false, 0)},
			[]ToolVerdict{{"find", true, 1}, {"refund", false, 0}}},
		{"a step with no pair at all", []string{"find", "refund"}, []CallResult{pair(0, 0, true, 1)},
			[]ToolVerdict{{"find", true, 1}, {"refund", false, 0}}},
		{"an unexpected call counts under no tool", []string{"find"}, []CallResult{pair(0, 0, true, 1), pair(-1, 1, false, 0)},
			[]ToolVerdict{{"find", true, 1}}},
		{"many tools", many, manyCalls, manyWant},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := StepVerdicts(tt.tools, tt.calls); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("StepVerdicts = %+v, want %+v", got, tt.want)
			}
		})
	}
}
