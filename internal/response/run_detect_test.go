package response

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

// conversationExamples are conversations of each shape, every one holding
// the one call f({"x":1}), for formatExamples.
var conversationExamples = map[format.Format][]string{
	format.OpenAIMessages: {
		`[{"role":"user","content":"hi"},{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{\"x\":1}"}}]},{"role":"tool","tool_call_id":"c","content":"1"}]`,
		`{"model":"m","messages":[{"role":"system","content":"s"},{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{\"x\":1}"}}]}]}`,
		`[{"role":"user","name":"bob","content":"hi"},{"role":"assistant","content":null,"function_call":{"name":"f","arguments":"{\"x\":1}"}},{"role":"function","name":"f","content":"1"}]`,
	},
	format.AnthropicMessages: {
		`[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"f","input":{"x":1}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"1"}]}]`,
		`{"system":"s","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"text","text":"ok"},{"type":"tool_use","id":"t","name":"f","input":{"x":1}}]}]}`,
	},
	format.GeminiContents: {
		`[{"role":"user","parts":[{"text":"hi"}]},{"role":"model","parts":[{"functionCall":{"name":"f","args":{"x":1}}}]},{"role":"user","parts":[{"functionResponse":{"name":"f","response":{"output":1}}}]}]`,
		`{"contents":[{"parts":[{"text":"hi"}]},{"role":"model","parts":[{"functionCall":{"id":"c","name":"f","args":{"x":1}}}]}]}`,
	},
	format.LangChainMessages: {
		`[{"type":"human","data":{"content":"hi","type":"human"}},{"type":"ai","data":{"content":"","type":"ai","tool_calls":[{"name":"f","args":{"x":1},"id":"c","type":"tool_call"}],"invalid_tool_calls":[]}},{"type":"tool","data":{"content":"1","type":"tool","tool_call_id":"c","status":"success"}}]`,
		`{"messages":[{"content":"hi","type":"human"},{"content":"","type":"ai","tool_calls":[{"name":"f","args":{"x":1},"id":"c","type":"tool_call"}]}]}`,
		`[{"lc":1,"type":"constructor","id":["langchain","schema","messages","AIMessage"],"kwargs":{"content":"","tool_calls":[{"name":"f","args":{"x":1},"id":"c","type":"tool_call"}]}}]`,
	},
	format.Responses: {
		`{"input":[{"role":"user","content":"hi"},{"type":"function_call","call_id":"c","name":"f","arguments":"{\"x\":1}"},{"type":"function_call_output","call_id":"c","output":"1"}]}`,
		`[{"type":"function_call","call_id":"c","name":"f","arguments":"{\"x\":1}"},{"type":"function_call_output","call_id":"c","output":"1"}]`,
	},
}

// formatExamples lives in formats_test.go, where TestDetectionExamples
// asks every format of the table for examples and checks that Auto reads
// each as its own format and no other format reads a usable call out of
// it; the conversation formats' examples join it from here.
func init() {
	for f, ex := range conversationExamples {
		formatExamples[f] = append(formatExamples[f], ex...)
	}
}

// runFiles are the examples in testdata/runs, by the format Auto reads
// them as.
var runFiles = map[string]format.Format{
	"openai-request.json":             format.OpenAIMessages,
	"openai-parallel.json":            format.OpenAIMessages,
	"ollama-positional.json":          format.OpenAIMessages,
	"responses-run.json":              format.Responses,
	"responses-items.json":            format.Responses,
	"anthropic-request.json":          format.AnthropicMessages,
	"gemini-request.json":             format.GeminiContents,
	"gemini-contents.json":            format.GeminiContents,
	"gemini-model-dump.json":          format.GeminiContents,
	"gemini-afc-model-dump.json":      format.GeminiContents,
	"langchain-messages-to-dict.json": format.LangChainMessages,
	"langchain-state.json":            format.LangChainMessages,
	"langchain-model-dump.json":       format.LangChainMessages,
}

func readRunFile(t testing.TB, name string) value.Value {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "runs", name))
	if err != nil {
		t.Fatal(err)
	}
	r, err := value.Parse(string(b))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return r
}

// Every example file is read by its own format under Auto, and by no
// other: forced to another format it is a ShapeError or its calls fail
// (calls, which reads any list of names and arguments, aside).
func TestRunDetection(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "runs", "*.json"))
	if len(files) != len(runFiles) {
		t.Errorf("testdata/runs has %d files, runFiles names %d", len(files), len(runFiles))
	}
	for name, want := range runFiles {
		r := readRunFile(t, name)
		calls, got, err := readCalls(r, format.Auto, value.Limits{})
		if err != nil || got != want || len(calls) == 0 {
			t.Errorf("%s read as %q: %d calls, %v", name, got, len(calls), err)
		}
		for _, other := range formats {
			if other.name == want || other.name == format.Calls {
				continue
			}
			calls, _, _ := readCalls(r, other.name, value.Limits{})
			for _, c := range calls {
				if c.Err == nil {
					t.Errorf("%s forced to %s reads a usable call %q", name, other.name, c.Name)
				}
			}
		}
	}
}

// Shapes read before conversations were are read as before: a single
// message stays one response of its format, and a list that a role does
// not make a conversation keeps its format.
func TestRunDetectionKeepsSingles(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want format.Format
	}{
		{`{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]}`, format.OpenAI},
		{`{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"f","input":{}}]}`, format.Anthropic},
		{`{"type":"message","role":"assistant","content":[{"type":"tool_use","id":"t","name":"f","input":{}}]}`, format.Anthropic},
		{`{"role":"model","parts":[{"functionCall":{"name":"f","args":{}}}]}`, format.Gemini},
		{`{"type":"ai","content":"","tool_calls":[{"name":"f","args":{},"id":"c","type":"tool_call"}]}`, format.LangChain},
		{`{"object":"response","output":[{"type":"function_call","call_id":"c","name":"f","arguments":"{}"}]}`, format.Responses},
		// A call that also has a role is still a call.
		{`[{"role":"assistant","name":"f","arguments":{}}]`, format.Calls},
		// Bedrock's Converse messages are no conversation format's.
		{`{"role":"assistant","content":[{"toolUse":{"toolUseId":"t","name":"f","input":{}}}]}`, format.Bedrock},
	} {
		r, _ := value.Parse(tt.in)
		calls, got, err := readCalls(r, format.Auto, value.Limits{})
		if err != nil || got != tt.want || len(calls) != 1 || calls[0].Err != nil {
			t.Errorf("%s read as %q: %v, %v", tt.in, got, calls, err)
		}
	}
	// A list of Converse messages stays in no known shape.
	r, _ := value.Parse(`[{"role":"user","content":[{"text":"hi"}]},{"role":"assistant","content":[{"toolUse":{"toolUseId":"t","name":"f","input":{}}}]}]`)
	if _, _, err := readCalls(r, format.Auto, value.Limits{}); err == nil {
		t.Errorf("a Converse message list was read")
	}
}
