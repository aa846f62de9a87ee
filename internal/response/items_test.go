package response

import (
	"strings"
	"testing"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

// A call of a type no format reads is a failed step of a conversation
// too, as in a single response: a shell_call among a Responses run's
// items, a block with a name and an input in an Anthropic assistant
// message. The built-in tools' items stay passed over.
func TestUnknownCallItemsInRuns(t *testing.T) {
	type step struct{ name, reason string }
	tests := []struct {
		name, in string
		want     []step
	}{
		{name: "responses run with a shell_call", in: `{"input":[{"role":"user","content":"clean up"},` +
			`{"type":"shell_call","call_id":"c1","name":"shell","action":{"commands":["rm -rf /"]}},` +
			`{"type":"function_call_output","call_id":"c0","output":"ok"}]}`,
			want: []step{{"shell", `input[1] is of type "shell_call", not "function_call"`}}},
		{name: "responses run with an unknown item with a name and an input", in: `[{"role":"user","content":"x"},` +
			`{"type":"future_tool_use","name":"a","input":{}},{"type":"function_call","name":"b","arguments":"{}"}]`,
			want: []step{{"a", `[1] is of type "future_tool_use", not "function_call"`}, {"b", ""}}},
		{name: "responses output list with a custom_tool_call", in: `[{"type":"custom_tool_call","call_id":"c1","name":"f","input":"x"}]`,
			want: []step{{"f", `[0] is of type "custom_tool_call", not "function_call"`}}},
		{name: "responses run with a built-in tool call", in: `[{"role":"user","content":"x"},{"type":"web_search_call","id":"ws","status":"completed"}]`},
		// Without a block or key of Anthropic's, the list is openai's,
		// whose content parts in another API's call shape fail.
		{name: "messages with an unknown block, read as openai's", in: `{"messages":[{"role":"user","content":"x"},` +
			`{"role":"assistant","content":[{"type":"bash_tool_use","id":"t","name":"bash","input":{"command":"ls"}}]}]}`,
			want: []step{{"", `content[0] is a call in another API's shape`}}},
		{name: "anthropic request with an unknown block", in: `{"system":"s","messages":[{"role":"user","content":"x"},` +
			`{"role":"assistant","content":[{"type":"bash_tool_use","id":"t","name":"bash","input":{"command":"ls"}}]}]}`,
			want: []step{{"bash", `content[0] is of type "bash_tool_use", not "tool_use"`}}},
		{name: "openai conversation with an unknown call part", in: `{"messages":[{"role":"user","content":"x"},` +
			`{"role":"assistant","content":[{"type":"shell_call","name":"shell"}]}]}`,
			want: []step{{"", `content[0] is a call in another API's shape`}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := value.Parse(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			run, _, err := readRun(r, format.Auto)
			if err != nil {
				t.Fatal(err)
			}
			if len(run.Steps) != len(tt.want) {
				t.Fatalf("got %d steps %v, want %d", len(run.Steps), run.Steps, len(tt.want))
			}
			for i, w := range tt.want {
				s := run.Steps[i]
				if s.Name != w.name || (s.Err == nil) != (w.reason == "") || s.Err != nil && !strings.Contains(s.Err.Error(), w.reason) {
					t.Errorf("step %d = %q, %v; want %q, %q", i, s.Name, s.Err, w.name, w.reason)
				}
			}
		})
	}
}
