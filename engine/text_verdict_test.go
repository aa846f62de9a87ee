package engine

import (
	"slices"
	"testing"

	"github.com/callgrade/callgrade/results"
)

// A call in a second block of a model's raw text is a call like the
// first: a never entry fires on it, and max_calls and unexpected_call
// count it, whether the suite names the format or Auto tells it.
func TestTextSecondBlockIsScored(t *testing.T) {
	for _, tt := range []struct {
		name, format, text string
	}{
		{"pythonic", "pythonic", `"<|python_start|>[find(q=1)]<|python_end|><|python_start|>[drop_all()]<|python_end|>"`},
		{"pythonic auto", "", `"<|python_start|>[find(q=1)]<|python_end|><|python_start|>[drop_all()]<|python_end|>"`},
		{"llama-json", "llama-json", `"<|python_tag|>{\"name\": \"find\", \"parameters\": {\"q\": 1}}<|eom_id|><|python_tag|>{\"name\": \"drop_all\", \"parameters\": {}}"`},
		{"qwen-coder", "qwen-coder", `"<tool_call>\n<function=find>\n<parameter=q>\n1\n</parameter>\n</function>\n</tool_call>\n<function=drop_all>\n</function>"`},
		{"hermes auto", "", `"<tool_call>{\"name\": \"find\", \"arguments\": {\"q\": 1}}</tool_call><tool_call>{\"name\": \"drop_all\", \"arguments\": {}}</tool_call>"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			format := ""
			if tt.format != "" {
				format = "defaults: {format: " + tt.format + "}\n"
			}
			e := load(t, "version: 1\n"+format+`tools:
  - name: find
    parameters: {type: object, properties: {q: {type: integer}}}
cases:
  - id: never
    steps: [{name: find, arguments: {q: 1}}]
    calls: superset
    never: [drop_all]
  - id: one
    expected: {name: find, arguments: {q: 1}}
  - id: max
    steps: [{name: find, arguments: {q: 1}}]
    calls: superset
    max_calls: 1
`)
			text := mustParse(t, tt.text)
			r := e.newScorer().Score(0, text)
			if r.Pass || !slices.Contains(kinds(r), results.ForbiddenCall) {
				t.Errorf("never: kinds %v\n%s", kinds(r), r.AppendJSON(nil))
			}
			r = e.newScorer().Score(1, text)
			if r.Pass || !slices.Contains(kinds(r), results.UnexpectedCall) {
				t.Errorf("one expected call: kinds %v\n%s", kinds(r), r.AppendJSON(nil))
			}
			if r = e.newScorer().Score(2, text); r.Pass {
				t.Errorf("max_calls 1 passed two calls\n%s", r.AppendJSON(nil))
			}
		})
	}
}

// The final answer a case's final rule reads is what the model answered:
// harmony's final channel, not its analysis; the text after a <think>
// block, not the thinking; none when the model was cut off thinking.
func TestTextFinalAnswerIsScored(t *testing.T) {
	e := load(t, `version: 1
cases:
  - id: four
    steps: []
    final: {regex: "^It is 4\\.$"}
  - id: not-thinking
    steps: []
    final: {regex: "(?i)delete"}
`)
	for _, tt := range []struct {
		name, text string
		four, del  bool // whether each case passes
	}{
		{"harmony final", `"<|channel|>analysis<|message|>I could delete it.<|end|><|start|>assistant<|channel|>final<|message|>It is 4.<|return|>"`, true, false},
		{"harmony analysis only", `"<|channel|>analysis<|message|>It is 4.<|end|>"`, false, false},
		{"think then answer", `"<think>delete everything?</think>\n\nIt is 4."`, true, false},
		{"cut off thinking", `"<think>It is 4."`, false, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			text := mustParse(t, tt.text)
			if r := e.newScorer().Score(0, text); r.Pass != tt.four {
				t.Errorf("final It is 4.: pass %v\n%s", r.Pass, r.AppendJSON(nil))
			}
			if r := e.newScorer().Score(1, text); r.Pass != tt.del {
				t.Errorf("final delete: pass %v\n%s", r.Pass, r.AppendJSON(nil))
			}
		})
	}
}
