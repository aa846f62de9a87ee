package response

import (
	"testing"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

// TestRunGeminiSpellings reads Gemini conversations whose parts are
// written in camel case (the REST API's JSON), in snake case (the Python
// SDK's model_dump), or both: a function_response answers its call as a
// functionResponse does, by its id or else by its name.
func TestRunGeminiSpellings(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		steps []wantStep
		final string
	}{
		{"snake case ids pair out of order",
			`[{"role":"model","parts":[{"function_call":{"id":"a","name":"f","args":{"n":1}},"function_response":null,"text":null},{"function_call":{"id":"b","name":"f","args":{"n":2}},"function_response":null}]},
			{"role":"user","parts":[{"function_call":null,"function_response":{"id":"b","name":"f","response":{"r":2}}},{"function_response":{"id":"a","name":"f","response":{"r":1}}}]}]`,
			[]wantStep{{name: "f", args: `{"n":1}`, id: "a", result: `{"r":1}`}, {name: "f", args: `{"n":2}`, id: "b", result: `{"r":2}`}}, ""},
		{"a snake case id that no call has does not take a call that has one",
			`[{"role":"model","parts":[{"function_call":{"id":"a","name":"f","args":{}}}]},{"role":"user","parts":[{"function_response":{"id":"zzz","name":"f","response":{"r":1}}}]}]`,
			[]wantStep{{name: "f", args: `{}`, id: "a"}}, ""},
		{"camel and snake case in one conversation",
			`[{"role":"model","parts":[{"functionCall":{"id":"a","name":"f","args":{}}},{"function_call":{"id":"b","name":"g","args":{}}}]},
			{"role":"user","parts":[{"function_response":{"id":"a","name":"f","response":{"r":1}}},{"functionResponse":{"id":"b","name":"g","response":{"r":2}}}]},
			{"role":"model","parts":[{"function_call":{"name":"h","args":{}}}]},
			{"role":"user","parts":[{"functionResponse":{"name":"h","response":{"error":"down"}}}]},
			{"role":"model","parts":[{"text":"h is down.","thought_signature":"c2ln"}]}]`,
			[]wantStep{{name: "f", args: `{}`, id: "a", result: `{"r":1}`}, {name: "g", args: `{}`, id: "b", result: `{"r":2}`},
				{name: "h", args: `{}`, turn: 1, result: `{"error":"down"}`, toolErr: true}}, "h is down."},
		{"a null functionResponse gives way to function_response",
			`[{"role":"model","parts":[{"functionCall":null,"function_call":{"name":"f","args":{}}}]},{"role":"user","parts":[{"functionResponse":null,"function_response":{"name":"f","response":{"r":1}}}]}]`,
			[]wantStep{{name: "f", args: `{}`, result: `{"r":1}`}}, ""},
		{"functionResponse wins over function_response beside it",
			`[{"role":"model","parts":[{"functionCall":{"name":"f","args":{}}}]},{"role":"user","parts":[{"functionResponse":{"name":"f","response":{"r":1}},"function_response":{"name":"f","response":{"r":2}}}]}]`,
			[]wantStep{{name: "f", args: `{}`, result: `{"r":1}`}}, ""},
		{"an error that is null or false is none",
			`[{"role":"model","parts":[{"function_call":{"name":"f","args":{}}},{"functionCall":{"name":"g","args":{}}},{"functionCall":{"name":"h","args":{}}}]},
			{"role":"user","parts":[{"function_response":{"name":"f","response":{"output":1,"error":null}}},{"functionResponse":{"name":"g","response":{"output":2,"error":false}}},
			{"functionResponse":{"name":"h","response":{"error":{"code":404}}}}]}]`,
			[]wantStep{{name: "f", args: `{}`, result: `{"error":null,"output":1}`}, {name: "g", args: `{}`, result: `{"error":false,"output":2}`},
				{name: "h", args: `{}`, result: `{"error":{"code":404}}`, toolErr: true}}, ""},
		{"a call beside a result in a user's part is a failed step",
			`[{"role":"model","parts":[{"function_call":{"name":"f","args":{}}}]},{"role":"user","parts":[{"function_response":{"name":"f","response":{"r":1}},"functionCall":{"name":"delete_account","args":{}}}]}]`,
			[]wantStep{{name: "f", args: `{}`, result: `{"r":1}`}, {reason: `[1].parts[0] is a call, in a content of role "user"`, turn: 1}}, ""},
		{"a null response is a null result",
			`[{"role":"model","parts":[{"function_call":{"name":"f","args":null}}]},{"role":"user","parts":[{"function_response":{"name":"f","response":null}}]}]`,
			[]wantStep{{name: "f", args: `{}`, result: `null`}}, ""},
		// Older Gemini examples answer a call in a content of role
		// function; it carries results as a user content does.
		{"role function carries results",
			`[{"role":"model","parts":[{"functionCall":{"name":"f","args":{}}},{"function_call":{"name":"g","args":{}}}]},
			{"role":"function","parts":[{"functionResponse":{"name":"f","response":{"r":1}}}]},
			{"role":"function","parts":[{"function_response":{"name":"g","response":{"error":"no"}}}]}]`,
			[]wantStep{{name: "f", args: `{}`, result: `{"r":1}`}, {name: "g", args: `{}`, result: `{"error":"no"}`, toolErr: true}}, ""},
	}
	for _, tt := range tests {
		r, err := value.Parse(tt.in)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		run, f, err := readRun(r, format.Auto)
		if err != nil || f != format.GeminiContents {
			t.Fatalf("%s: %q, %v", tt.name, f, err)
		}
		checkRun(t, tt.name, run, tt.steps, tt.final)
	}
}

// TestRunGeminiAFC reads a Gemini response whose SDK ran the model's
// calls itself (automatic function calling): the calls are in its
// history, the candidate holds the last turn. A history or candidate
// that does not read fails the response; without a history, or with an
// empty one, the response is the candidate alone.
func TestRunGeminiAFC(t *testing.T) {
	const hist = `[{"role":"user","parts":[{"text":"hi"}]},{"role":"model","parts":[{"function_call":{"name":"f","args":{"x":1}}}]},{"role":"user","parts":[{"function_response":{"name":"f","response":{"r":1}}}]}]`
	tests := []struct {
		name  string
		in    string
		f     format.Format
		steps []wantStep
		final string
	}{
		{"snake case", `{"candidates":[{"content":{"role":"model","parts":[{"text":"It is 1."}]},"finish_reason":"STOP"}],"automatic_function_calling_history":` + hist + `}`,
			format.GeminiContents, []wantStep{{name: "f", args: `{"x":1}`, result: `{"r":1}`}}, "It is 1."},
		{"camel case", `{"candidates":[{"content":{"role":"model","parts":[{"text":"It is 1."}]},"finishReason":"STOP"}],"automaticFunctionCallingHistory":` + hist + `}`,
			format.GeminiContents, []wantStep{{name: "f", args: `{"x":1}`, result: `{"r":1}`}}, "It is 1."},
		// The SDK stops after its maximum of calls: the last turn's calls
		// were not run.
		{"a candidate that calls", `{"candidates":[{"content":{"role":"model","parts":[{"function_call":{"name":"g","args":{}}}]}}],"automatic_function_calling_history":` + hist + `}`,
			format.GeminiContents, []wantStep{{name: "f", args: `{"x":1}`, result: `{"r":1}`}, {name: "g", args: `{}`, turn: 1}}, ""},
		{"no candidate", `{"candidates":[],"automatic_function_calling_history":` + hist + `}`,
			format.GeminiContents, []wantStep{{name: "f", args: `{"x":1}`, result: `{"r":1}`}}, ""},
		{"a candidate without content", `{"candidates":[{"finish_reason":"SAFETY"}],"automatic_function_calling_history":` + hist + `}`,
			format.GeminiContents, []wantStep{{name: "f", args: `{"x":1}`, result: `{"r":1}`}}, ""},
		{"a malformed call in the candidate", `{"candidates":[{"finish_reason":"MALFORMED_FUNCTION_CALL"}],"automatic_function_calling_history":` + hist + `}`,
			format.GeminiContents, []wantStep{{reason: "candidates[0].finish_reason is MALFORMED_FUNCTION_CALL"}}, ""},
		{"failed calls name their place", `{"candidates":[{"content":{"role":"model","parts":[{"function_call":{"name":"g","args":"{}"}}]}}],` +
			`"automatic_function_calling_history":[{"role":"model","parts":[{"function_call":{"name":"f","args":7}}]}]}`,
			format.GeminiContents, []wantStep{{name: "f", reason: "automatic_function_calling_history[0].parts[0].function_call.args"},
				{name: "g", reason: "candidates[0].content.parts[0].function_call.args", turn: 1}}, ""},
		{"a history that is no list", `{"candidates":[{"content":{"role":"model","parts":[{"text":"ok"}]}}],"automatic_function_calling_history":"x"}`,
			format.GeminiContents, []wantStep{{reason: "automatic_function_calling_history is a string, not an array"}}, ""},
		{"an empty history", `{"candidates":[{"content":{"role":"model","parts":[{"text":"ok"}]}}],"automatic_function_calling_history":[]}`,
			format.Gemini, nil, "ok"},
		{"a null history", `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"f","args":{}}}]}}],"automatic_function_calling_history":null}`,
			format.Gemini, []wantStep{{name: "f", args: `{}`}}, ""},
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
		checkRun(t, tt.name, run, tt.steps, tt.final)
		calls, _, _ := readCalls(r, format.Auto, value.Limits{})
		if !sameCalls(calls, run.Calls()) {
			t.Errorf("%s: Extract = %v, the run's calls %v", tt.name, calls, run.Calls())
		}
	}
}
