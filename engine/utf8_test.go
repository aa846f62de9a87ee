package engine

import (
	"strings"
	"testing"

	"github.com/callgrade/callgrade/results"
)

// Text that is not UTF-8 fails the call that holds it, and only that
// call (the contract: an arguments string with invalid UTF-8 is "an
// invalid_arguments diff on that call"); text outside the calls does not
// fail the response. Raw bytes and escaped lone surrogates alike.
func TestInvalidUTF8FailsItsCall(t *testing.T) {
	e := load(t, `
version: 1
cases:
  - id: two
    expected:
      - {name: f, arguments: {x: 1}}
      - {name: g, arguments: {y: "b"}}
  - id: run
    steps:
      - {name: f, arguments: {x: 1}}
      - {name: g, arguments: {y: "b"}}
`)
	call := func(name, args string) string {
		return `{"type":"function","function":{"name":"` + name + `","arguments":"` + args + `"}}`
	}
	good := call("f", `{\"x\":1}`)
	tests := []struct {
		name, line string
		pass       bool
		score      float64
		msg        string // of the one diff, when it fails
	}{
		{"raw byte in an arguments string", `{"id":"two","response":{"tool_calls":[` + good + `,` + call("g", "{\\\"y\\\":\\\"\xff\\\"}") + `]}}`,
			false, 0.5, "tool_calls[1].function.arguments is not a usable JSON object: invalid UTF-8 at byte 6: byte 0xff in string"},
		{"lone surrogate in an arguments string", `{"id":"two","response":{"tool_calls":[` + good + `,` + call("g", `{\"y\":\"\udc00\"}`) + `]}}`,
			false, 0.5, "invalid UTF-8 at byte 6: byte 0xed in string"},
		{"lone surrogate in the answer's text", `{"id":"two","response":{"role":"assistant","content":"cut \ud83d","tool_calls":[` + good + `,` + call("g", `{\"y\":\"b\"}`) + `]}}`,
			true, 1, ""},
		{"raw byte in a key of an object", `{"id":"two","response":{"role":"assistant","content":[{"type":"tool_use","id":"1","name":"f","input":{"x":1}},{"type":"tool_use","id":"2","name":"g","input":{"y":"b","z":{"k` + "\xc3" + `":1}}}]}}`,
			false, 0.5, "call 1: the argument \"z.k\uFFFD\" holds text that is not UTF-8: invalid UTF-8"},
		{"lone surrogate in a call's name", `{"id":"two","response":[{"name":"f","arguments":{"x":1}},{"name":"g\udfff","arguments":{"y":"b"}}]}`,
			false, 0.5, "call 1: the call's name holds text that is not UTF-8: invalid UTF-8"},
		{"a step of a run", `{"id":"run","response":[{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"f","input":{"x":1}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":"ok \udc00"}]},{"role":"assistant","content":[{"type":"tool_use","id":"b","name":"g","input":{"y":"\ud800"}}]}]}`,
			false, -1, "call 1: the argument \"y\" holds text that is not UTF-8"},
		{"a line that is broken besides", "{\"id\":\"two\",\"response\":{\"content\":\"\xff\",\"tool_calls\":[" + good + "]}, }",
			false, 0, "response line 1 is not valid JSON: invalid UTF-8 at byte 35: byte 0xff in string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, i, _, err := e.newScorer().ScoreLine(tt.line, 1, 0)
			if err != nil || i < 0 {
				t.Fatalf("ScoreLine: %d, %v", i, err)
			}
			if r.Pass != tt.pass || tt.score >= 0 && r.Score != tt.score {
				t.Fatalf("pass %v, score %v, want %v, %v: %+v", r.Pass, r.Score, tt.pass, tt.score, r.Diffs)
			}
			if tt.pass {
				return
			}
			// The last diff: a broken name is also the wrong tool.
			d := r.Diffs[len(r.Diffs)-1]
			if d.Kind != results.InvalidArguments || !strings.Contains(d.Message, tt.msg) {
				t.Fatalf("diffs %+v, want an invalid_arguments saying %q", r.Diffs, tt.msg)
			}
			if tt.score > 0 && d.Call != 1 {
				t.Fatalf("the diff is on call %d, want 1", d.Call)
			}
		})
	}
}
