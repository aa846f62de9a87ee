package engine

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// customToolStream is the Responses API stream of one call of a custom
// tool, code_exec: its events, one a string.
var customToolStream = []string{
	`{"type":"response.created","sequence_number":0,"response":{"id":"resp_1","object":"response","status":"in_progress","output":[]}}`,
	`{"type":"response.output_item.added","sequence_number":1,"output_index":0,"item":{"type":"custom_tool_call","id":"ctc_1","call_id":"call_1","name":"code_exec","input":"","status":"in_progress"}}`,
	`{"type":"response.custom_tool_call_input.delta","sequence_number":2,"output_index":0,"item_id":"ctc_1","delta":"print(1)"}`,
	`{"type":"response.custom_tool_call_input.done","sequence_number":3,"output_index":0,"item_id":"ctc_1","input":"print(1)"}`,
	`{"type":"response.output_item.done","sequence_number":4,"output_index":0,"item":{"type":"custom_tool_call","id":"ctc_1","call_id":"call_1","name":"code_exec","input":"print(1)","status":"completed"}}`,
	`{"type":"response.completed","sequence_number":5,"response":{"id":"resp_1","object":"response","status":"completed","output":[{"type":"custom_tool_call","id":"ctc_1","call_id":"call_1","name":"code_exec","input":"print(1)","status":"completed"}]}}`,
}

// sseOf is the SSE transcript of events, as a JSON string.
func sseOf(events []string) string {
	var b strings.Builder
	for _, e := range events {
		var ev struct{ Type string }
		_ = json.Unmarshal([]byte(e), &ev)
		b.WriteString("event: " + ev.Type + "\ndata: " + e + "\n\n")
	}
	q, _ := json.Marshal(b.String())
	return string(q)
}

// A streamed custom tool call fails a case as the same call in a
// response's output does: a case that expects no call fails on it, and a
// never entry of its name sees it. Before, the stream's call vanished,
// and both cases passed.
func TestStreamedCustomToolCallFails(t *testing.T) {
	const suite = `version: 1
cases:
  - id: none
    expected: []
  - id: never
    calls: in_order
    steps: []
    never: [code_exec]
  - id: never-expected
    expected: []
    never: [code_exec]
`
	e := load(t, suite)
	output := `{"object":"response","status":"completed","output":[{"type":"custom_tool_call","id":"ctc_1","call_id":"call_1","name":"code_exec","input":"print(1)","status":"completed"}]}`
	responses := map[string]string{
		"output":     output,
		"events":     "[" + strings.Join(customToolStream, ",") + "]",
		"transcript": sseOf(customToolStream),
	}
	for _, id := range []string{"none", "never", "never-expected"} {
		i, ok := e.Lookup(id)
		if !ok {
			t.Fatalf("no case %s", id)
		}
		want := kinds(e.Score(i, mustParse(t, output)))
		for name, resp := range responses {
			for _, r := range []*Result{e.Score(i, mustParse(t, resp)), e.NewScorer().Score(i, mustParse(t, resp))} {
				got := kinds(r)
				if r.Pass || !slices.Contains(got, InvalidArguments) || !slices.Equal(got, want) {
					t.Errorf("case %s, %s: pass=%v kinds=%v, want a failure with %v\n%s", id, name, r.Pass, got, want, r.AppendJSON(nil))
				}
				if strings.HasPrefix(id, "never") && !slices.Contains(got, ForbiddenCall) {
					t.Errorf("case %s, %s: kinds=%v, want a forbidden_call\n%s", id, name, got, r.AppendJSON(nil))
				}
			}
		}
	}
}
