package engine

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/results"
)

// TestScoreGeminiModelDump scores a Gemini chat history that the Python
// SDK dumped (model_dump, every key in snake case): its results are read
// as a functionResponse's are, so result rules, references to a result
// and the tool's error flag decide, and no step is missing_result.
func TestScoreGeminiModelDump(t *testing.T) {
	e := load(t, `version: 1
cases:
  - id: refund
    steps:
      - name: find_order
        arguments: {email: ana@example.com}
        result: {error: false, result.id: {type: string}, result.status: {one_of: [delivered]}}
      - name: refund
        rules: {order_id: {from: find_order.result.result.id}, amount: {from: find_order.result.result.total}}
        result: {error: {regex: window}}
    final: {regex: "(?i)refund"}
  - id: refund-succeeds
    steps:
      - name: find_order
        arguments: {email: ana@example.com}
        result: {result.id: {type: string}}
      - name: refund
        arguments: {order_id: A-1001, amount: 25}
        result: {error: false}
`)
	text, err := os.ReadFile("../internal/response/testdata/runs/gemini-model-dump.json")
	if err != nil {
		t.Fatal(err)
	}
	resp := mustParse(t, string(text))
	for _, tc := range []struct {
		id    string
		pass  bool
		kinds []results.Kind
		json  string
	}{
		{id: "refund", pass: true},
		{id: "refund-succeeds", kinds: []results.Kind{results.Mismatch},
			json: `"path":"result.error","expected":false,"actual":true,"rule":"error","message":"expected the tool to succeed, but it reported an error"`},
	} {
		i, ok := e.Lookup(tc.id)
		if !ok {
			t.Fatalf("no case %s", tc.id)
		}
		for _, r := range []*results.Result{scoreNoWork(e, i, resp), e.newScorer().Score(i, resp)} {
			line := string(r.AppendJSON(nil))
			if r.Pass != tc.pass || !slices.Equal(kinds(r), tc.kinds) || !strings.Contains(line, tc.json) {
				t.Errorf("%s: pass=%v kinds=%v, want pass=%v kinds=%v ...%s...\n%s", tc.id, r.Pass, kinds(r), tc.pass, tc.kinds, tc.json, line)
			}
		}
	}
}

// TestScoreGeminiAFC: the calls a Gemini SDK ran itself (automatic
// function calling) are in its response's history, not its candidate;
// they are the run's calls, so never and max_calls see them.
func TestScoreGeminiAFC(t *testing.T) {
	e := load(t, `version: 1
cases:
  - id: guarded
    steps: [{name: find_order}]
    never: [delete_account]
    max_calls: 1
    final: {regex: done}
`)
	resp := mustParse(t, `{"candidates":[{"content":{"role":"model","parts":[{"text":"All done."}]},"finish_reason":"STOP"}],
		"automatic_function_calling_history":[{"role":"user","parts":[{"text":"clean up"}]},
		{"role":"model","parts":[{"function_call":{"name":"find_order","args":{}}},{"function_call":{"name":"delete_account","args":{}}}]},
		{"role":"user","parts":[{"function_response":{"name":"find_order","response":{"id":"A-1"}}},{"function_response":{"name":"delete_account","response":{"ok":true}}}]}]}`)
	for _, r := range []*results.Result{scoreNoWork(e, 0, resp), e.newScorer().Score(0, resp)} {
		if got := kinds(r); r.Pass || !slices.Equal(got, []results.Kind{results.UnexpectedCall, results.ForbiddenCall, results.TooManyCalls}) {
			t.Errorf("kinds = %v\n%s", got, r.AppendJSON(nil))
		}
	}
}
