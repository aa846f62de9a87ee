package engine

import (
	"path/filepath"
	"testing"
)

// refundConversation is an OpenAI conversation: find_order, whose tool
// returns the order (its id and status), then refund of that order, then
// the answer.
func refundConversation(id, status string) string {
	return `[{"role":"user","content":"refund my late order"},` +
		`{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"find_order","arguments":"{\"email\":\"a@b.c\"}"}}]},` +
		`{"role":"tool","tool_call_id":"c1","content":"{\"id\":\"` + id + `\",\"status\":\"` + status + `\"}"},` +
		`{"role":"assistant","tool_calls":[{"id":"c2","type":"function","function":{"name":"refund","arguments":"{\"order_id\":\"O1\"}"}}]},` +
		`{"role":"tool","tool_call_id":"c2","content":"{\"ok\":true}"},` +
		`{"role":"assistant","content":"Refunded order O1."}]`
}

// TestSkipResults scores conversations through the Scorer, the way a
// responses file is read: a run case that nothing in it reads a tool's
// result by is read without its tools' results
// (response.Options.SkipResults), and every case that reads one, by a
// step's result rules, a reference, an expression in a rule, an assert, a
// never entry or the final answer, still reads them: its verdict follows
// the result the tool gave.
func TestSkipResults(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cases string
		skip  bool
	}{
		{"final answer alone", `calls: any
    final: {regex: "O1"}`, true},
		{"calls by values alone", `steps: [{name: find_order, arguments: {email: a@b.c}}, {name: refund, arguments: {order_id: O1}}]`, true},
		{"a step's result rules", `steps: [{name: find_order, arguments: {email: a@b.c}, result: {status: {one_of: [late]}}}, {name: refund, arguments: {order_id: O1}}]`, false},
		{"a reference", `steps: [{name: find_order, arguments: {email: a@b.c}}, {name: refund, arguments: {order_id: null}, rules: {order_id: {from: find_order.result.id}}}]`, false},
		{"an expression in a rule", `steps: [{name: find_order, arguments: {email: a@b.c}}, {name: refund, arguments: {order_id: null}, rules: {order_id: {expr: "actual == steps[0].result.id"}}}]`, false},
		{"an assert", `steps: [{name: find_order, arguments: {email: a@b.c}}, {name: refund, arguments: {order_id: O1}, assert: ["steps[0].result.status == 'late'"]}]`, false},
		{"a never entry", `calls: any
    never: [{name: refund, rules: {order_id: {expr: "steps[0].result.status != 'late'"}}}]`, false},
		{"the final answer", `calls: any
    final: {expr: "actual contains steps[0].result.id"}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := loadDSL(t, filepath.Join(t.TempDir(), "s.yaml"), "cases:\n  - id: t\n    "+tc.cases+"\n")
			if got := e.cases[0].run.skipResults; got != tc.skip {
				t.Fatalf("skipResults = %v, want %v", got, tc.skip)
			}
			sc := e.newScorer()
			score := func(resp string) bool {
				t.Helper()
				r, _, _, err := sc.ScoreLine(`{"id":"t","response":`+resp+`}`, 1, 0)
				if err != nil {
					t.Fatal(err)
				}
				return r.Pass
			}
			if !score(refundConversation("O1", "late")) {
				t.Fatal("the right conversation fails")
			}
			// The same calls and answer, the tool's result another: the
			// cases that read results fail it, the others pass it.
			if got := score(refundConversation("O2", "shipped")); got != tc.skip {
				t.Errorf("with another result: pass = %v, want %v", got, tc.skip)
			}
		})
	}
}
