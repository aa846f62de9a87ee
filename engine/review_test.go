package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/internal/response"
	"github.com/callgrade/callgrade/results"
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
		kind results.Kind // "" when the case passes
	}{
		{0, `[{"name":"send","arguments":{"to":"a@b.c"}}]`, ""},
		{0, `[{"name":"send","arguments":{"to":"x@evil.example"}}]`, results.ForbiddenCall},
		{1, `{"messages":[{"role":"assistant","tool_calls":[{"id":"1","type":"function","function":{"name":"find","arguments":"{}"}}]},
			{"role":"tool","tool_call_id":"1","content":"{\"id\":\"A\",\"other\":\"B\"}"},
			{"role":"assistant","tool_calls":[{"id":"2","type":"function","function":{"name":"refund","arguments":"{\"order_id\":\"A\"}"}}]}]}`, ""},
		{1, `{"messages":[{"role":"assistant","tool_calls":[{"id":"1","type":"function","function":{"name":"find","arguments":"{}"}}]},
			{"role":"tool","tool_call_id":"1","content":"{\"id\":\"A\",\"other\":\"B\"}"},
			{"role":"assistant","tool_calls":[{"id":"2","type":"function","function":{"name":"refund","arguments":"{\"order_id\":\"B\"}"}}]}]}`, results.ForbiddenCall},
	} {
		r := e.newScorer().Score(tt.i, mustParse(t, tt.resp))
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
		for _, r := range []*results.Result{scoreRunNoWork(e, i, run), e.newScorer().scoreRun(i, run)} {
			if r.Pass || len(r.Diffs) != 1 || r.Diffs[0].Kind != results.NotEvaluable || !strings.Contains(r.Diffs[0].Message, "no content") {
				t.Errorf("case %d: %s", i, r.AppendJSON(nil))
			}
		}
	}
}

// A trace is read once when it holds its calls' content, and read again
// as a run only when it does not, to say why: the response fails with
// not_evaluable, and a malformed trace with invalid_arguments, through
// a Scorer as without one (scoreNoWork).
func TestScoreTraceResponse(t *testing.T) {
	e := load(t, `version: 1
cases:
  - {id: a, expected: {name: get_weather, arguments: {location: Paris}}}
`)
	for _, tc := range []struct {
		file string
		kind results.Kind // "": passes
	}{
		{"genai_weather.json", ""},
		{"openinference_boston.json", results.Mismatch},
		{"genai_no_content.json", results.NotEvaluable},
	} {
		text, err := os.ReadFile(filepath.Join("../internal/response/testdata/traces", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		resp := mustParse(t, string(text))
		for _, r := range []*results.Result{scoreNoWork(e, 0, resp), e.newScorer().Score(0, resp)} {
			switch {
			case tc.kind == "" && !r.Pass:
				t.Errorf("%s: %s", tc.file, r.AppendJSON(nil))
			case tc.kind != "" && (r.Pass || len(r.Diffs) == 0 || r.Diffs[0].Kind != tc.kind):
				t.Errorf("%s: want %s, got %s", tc.file, tc.kind, r.AppendJSON(nil))
			}
		}
	}
	bad := mustParse(t, `{"resourceSpans":[{"scopeSpans":[{"spans":[{"name":"chat","attributes":7}]}]}]}`)
	r := e.newScorer().Score(0, bad)
	has := false
	for _, d := range r.Diffs {
		has = has || d.Kind == results.InvalidArguments && strings.Contains(d.Message, "attributes is a number")
	}
	if r.Pass || !has {
		t.Errorf("a malformed trace: %s", r.AppendJSON(nil))
	}
}
