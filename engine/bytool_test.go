package engine

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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
