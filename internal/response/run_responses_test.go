package response

import (
	"testing"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

// TestRunResponsesAnswer: a Responses run's answer is an assistant
// message in a turn of the model that makes no call; a message beside a
// function_call in one turn, before it or after it, is none, as text
// beside a call is none in the other conversations.
func TestRunResponsesAnswer(t *testing.T) {
	const call = `{"type":"function_call","call_id":"c1","name":"f","arguments":"{}"}`
	const out = `{"type":"function_call_output","call_id":"c1","output":"1"}`
	msg := func(s string) string {
		return `{"type":"message","role":"assistant","content":[{"type":"output_text","text":"` + s + `"}]}`
	}
	tests := []struct {
		name  string
		in    string
		f     format.Format
		final string
	}{
		{"a message after the call's output", `{"input":[{"role":"user","content":"hi"},` + call + `,` + out + `],"output":[` + msg("It is 1.") + `]}`, format.Responses, "It is 1."},
		{"a message after the call in its turn", `{"input":[{"role":"user","content":"hi"}],"output":[` + call + `,` + msg("Refunded.") + `]}`, format.Responses, ""},
		{"a short-form message after the call in its turn", `{"input":[{"role":"user","content":"hi"},` + call + `,{"role":"assistant","content":"Refunded."}]}`, format.Responses, ""},
		{"a response's output, a message after its call", `{"object":"response","output":[` + call + `,` + msg("Refunded.") + `]}`, format.Responses, ""},
		{"a message after a built-in tool's call", `{"object":"response","output":[{"type":"web_search_call","id":"ws","status":"completed"},` + msg("Found it.") + `]}`, format.Responses, "Found it."},
	}
	for _, tt := range tests {
		r, err := value.Parse(tt.in)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		run, f, err := readRun(r, format.Auto)
		if err != nil || f != tt.f {
			t.Fatalf("%s: %q, %v", tt.name, f, err)
		}
		if run.Final != tt.final || run.HasFinal != (tt.final != "") {
			t.Errorf("%s: final %q (%v), want %q", tt.name, run.Final, run.HasFinal, tt.final)
		}
	}
}
