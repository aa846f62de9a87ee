package engine

import (
	"strings"
	"testing"

	"github.com/callgrade/callgrade/response"
)

// A never entry with rules and no arguments forbids only the calls its
// rules match, not every call to the tool; a from rule in it names the
// run's steps like a step's.
func TestNeverWithRulesOnly(t *testing.T) {
	e := load(t, `version: 1
cases:
  - id: regex
    expected: {name: send, arguments: {}, rules: {to: ignore}}
    never: [{name: send, rules: {to: {regex: "@evil"}}}]
  - id: from
    steps: [{name: find, arguments: {}}, {name: refund, arguments: {}, rules: {order_id: {from: find.result.id}}}]
    never: [{name: refund, rules: {order_id: {from: find.result.other}}}]
`)
	for _, tt := range []struct {
		i    int
		resp string
		kind Kind // "" when the case passes
	}{
		{0, `[{"name":"send","arguments":{"to":"a@b.c"}}]`, ""},
		{0, `[{"name":"send","arguments":{"to":"x@evil.example"}}]`, ForbiddenCall},
		{1, `{"messages":[{"role":"assistant","tool_calls":[{"id":"1","type":"function","function":{"name":"find","arguments":"{}"}}]},
			{"role":"tool","tool_call_id":"1","content":"{\"id\":\"A\",\"other\":\"B\"}"},
			{"role":"assistant","tool_calls":[{"id":"2","type":"function","function":{"name":"refund","arguments":"{\"order_id\":\"A\"}"}}]}]}`, ""},
		{1, `{"messages":[{"role":"assistant","tool_calls":[{"id":"1","type":"function","function":{"name":"find","arguments":"{}"}}]},
			{"role":"tool","tool_call_id":"1","content":"{\"id\":\"A\",\"other\":\"B\"}"},
			{"role":"assistant","tool_calls":[{"id":"2","type":"function","function":{"name":"refund","arguments":"{\"order_id\":\"B\"}"}}]}]}`, ForbiddenCall},
	} {
		r := e.Score(tt.i, mustParse(t, tt.resp))
		has := false
		for _, d := range r.Diffs {
			has = has || d.Kind == tt.kind
		}
		if tt.kind == "" && !r.Pass || tt.kind != "" && !has {
			t.Errorf("case %d, %.60s: %s", tt.i, tt.resp, r.AppendJSON(nil))
		}
	}
}

// A run read without the evidence to score it never passes, through the
// library's ScoreRun as through a response.
func TestScoreRunNotEvaluable(t *testing.T) {
	e := load(t, `version: 1
cases:
  - {id: calls, expected: {name: f, arguments: {}}}
  - {id: steps, steps: [{name: f, arguments: {}}]}
`)
	run := &response.Run{Steps: []response.Step{{Call: response.Call{Name: "f", Args: mustParse(t, `{}`)}}}, NotEvaluable: "no content recorded"}
	for i := range 2 {
		for _, r := range []*Result{e.ScoreRun(i, run), e.NewScorer().ScoreRun(i, run)} {
			if r.Pass || len(r.Diffs) != 1 || r.Diffs[0].Kind != NotEvaluable || !strings.Contains(r.Diffs[0].Message, "no content") {
				t.Errorf("case %d: %s", i, r.AppendJSON(nil))
			}
		}
	}
}
