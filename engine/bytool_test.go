package engine

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
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

// TestSummaryByStepTool: a run's summary counts a case written with steps
// under each tool its steps call, with that tool's verdict; an expected
// case under its first tool with its own; a steps case of no steps under
// no tool (""), as an expected case of no calls.
func TestSummaryByStepTool(t *testing.T) {
	dir := t.TempDir()
	responses := filepath.Join(dir, "responses.jsonl")
	if err := os.WriteFile(responses, []byte(stepToolResponses), 0o644); err != nil {
		t.Fatal(err)
	}
	e := load(t, stepToolSuite)
	in, err := os.Open(responses)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	var out bytes.Buffer
	sum, err := e.Run(context.Background(), in, &out, RunOptions{Name: "responses.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tool := range []string{"find_order", "refund", ""} {
		if ta := sum.ByTool[tool]; ta != nil {
			got = append(got, fmt.Sprintf("%q: %d cases, %d passed, mean %.3f", tool, ta.Cases, ta.Passed, ta.ScoreSum/float64(ta.Cases)))
		}
	}
	want := []string{
		// two-refunds (its find_order passes) and missing (fails, 0)
		`"find_order": 2 cases, 1 passed, mean 0.500`,
		// two-refunds (one of its two refunds fails: 0.5) and plain (passes)
		`"refund": 2 cases, 1 passed, mean 0.750`,
		`"": 1 cases, 1 passed, mean 1.000`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") || len(sum.ByTool) != 3 {
		t.Errorf("by tool:\n%s\nwant\n%s\n(%d tools)", strings.Join(got, "\n"), strings.Join(want, "\n"), len(sum.ByTool))
	}
}

// stepToolSuite and stepToolResponses are a run of steps cases and an
// expected one, for the by-tool counts.
const stepToolSuite = `version: 1
tools:
  - {name: find_order, parameters: {type: object, properties: {email: {type: string}}, required: [email]}}
  - {name: refund, parameters: {type: object, properties: {amount: {type: number}}, required: [amount]}}
cases:
  - id: two-refunds
    steps:
      - {name: find_order, arguments: {email: a@example.com}}
      - {name: refund, arguments: {amount: 25}}
      - {name: refund, arguments: {amount: 5}}
  - id: no-steps
    steps: []
  - id: missing
    steps:
      - {name: find_order, arguments: {email: a@example.com}}
  - id: plain
    expected:
      - {name: refund, arguments: {amount: 1}}
      - {name: find_order, arguments: {email: b@example.com}}
`

const stepToolResponses = `{"id": "two-refunds", "response": [{"name": "find_order", "arguments": {"email": "a@example.com"}}, {"name": "refund", "arguments": {"amount": 25}}, {"name": "refund", "arguments": {"amount": 6}}]}
{"id": "no-steps", "response": []}
{"id": "plain", "response": [{"name": "refund", "arguments": {"amount": 1}}, {"name": "find_order", "arguments": {"email": "b@example.com"}}]}
`
