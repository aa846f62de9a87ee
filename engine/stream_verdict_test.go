package engine

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/results"
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
		want := kinds(e.newScorer().Score(i, mustParse(t, output)))
		for name, resp := range responses {
			for _, r := range []*results.Result{scoreNoWork(e, i, mustParse(t, resp)), e.newScorer().Score(i, mustParse(t, resp))} {
				got := kinds(r)
				if r.Pass || !slices.Contains(got, results.InvalidArguments) || !slices.Equal(got, want) {
					t.Errorf("case %s, %s: pass=%v kinds=%v, want a failure with %v\n%s", id, name, r.Pass, got, want, r.AppendJSON(nil))
				}
				if strings.HasPrefix(id, "never") && !slices.Contains(got, results.ForbiddenCall) {
					t.Errorf("case %s, %s: kinds=%v, want a forbidden_call\n%s", id, name, got, r.AppendJSON(nil))
				}
			}
		}
	}
}

// anthropicStream is a Messages API stream of f({"x":1}), ending with its
// message_stop.
var anthropicStream = []string{
	`{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[]}}`,
	`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
	`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"ok"}}`,
	`{"type":"content_block_stop","index":0}`,
	`{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"f","input":{}}}`,
	`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"x\":1}"}}`,
	`{"type":"content_block_stop","index":1}`,
	`{"type":"message_delta","delta":{"stop_reason":"tool_use"}}`,
	`{"type":"message_stop"}`,
}

// A response that broke off, or that says a call was made and holds
// none, or a recorded stream with text before it, fails its case: the
// calls it shows, or the none it shows, are not the whole answer.
func TestBrokenResponsesFail(t *testing.T) {
	const suite = `version: 1
cases:
  - id: f
    expected: [{name: f, arguments: {x: 1}}]
  - id: none
    expected: []
  - id: superset
    calls: superset
    expected: [{name: f, arguments: {x: 1}}]
  - id: in_order
    calls: in_order
    steps: [{name: f, arguments: {x: 1}}]
`
	e := load(t, suite)
	events := func(evs []string) string { return "[" + strings.Join(evs, ",") + "]" }
	sse := sseOf(anthropicStream)
	head := `"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n` + sse[1:]
	tests := []struct {
		name, id, resp string
		pass           bool
	}{
		{"whole stream", "f", events(anthropicStream), true},
		{"whole stream after an http head", "f", head, true},
		{"whole stream after a byte order mark", "f", `"\ufeff` + sse[1:], true},
		{"stream cut between two calls", "f", events(anthropicStream[:7]), false},
		{"whole stream, superset", "superset", events(anthropicStream), true},
		{"stream cut between two calls, superset", "superset", events(anthropicStream[:7]), false},
		{"whole stream, in_order", "in_order", events(anthropicStream), true},
		{"stream cut between two calls, in_order", "in_order", events(anthropicStream[:7]), false},
		{"transcript cut between two calls", "f", sseOf(anthropicStream[:8]), false},
		{"stream cut before any call", "none", events(anthropicStream[:4]), false},
		{"stream with a call after its end", "f", events(append(anthropicStream[:9:9],
			`{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_2","name":"g","input":{}}}`,
			`{"type":"content_block_stop","index":2}`)), false},
		{"transcript after a log line", "none", `"stream opened\n` + sse[1:], false},
		{"cohere TOOL_CALL without calls", "none", `{"finish_reason":"TOOL_CALL","message":{"role":"assistant","tool_plan":"I will call f."}}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			i, _ := e.Lookup(tt.id)
			for _, r := range []*results.Result{scoreNoWork(e, i, mustParse(t, tt.resp)), e.newScorer().Score(i, mustParse(t, tt.resp))} {
				if r.Pass != tt.pass || !tt.pass && !slices.Contains(kinds(r), results.InvalidArguments) {
					t.Errorf("pass=%v kinds=%v, want pass=%v (else an invalid_arguments diff)\n%s", r.Pass, kinds(r), tt.pass, r.AppendJSON(nil))
				}
			}
		})
	}
}
