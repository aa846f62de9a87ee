package response

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

// formatExamples are responses of each format in each of its shapes, every
// one holding the call f({"x":1}).
var formatExamples = map[format.Format][]string{
	format.OpenAI: {
		`{"object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{\"x\":1}"}}]},"finish_reason":"tool_calls"}]}`,
		`{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{\"x\":1}"}}]}`,
		`{"role":"assistant","content":null,"function_call":{"name":"f","arguments":"{\"x\":1}"}}`,
		// The legacy function calling of the chat completion object, whose
		// message has function_call and no tool_calls:
		// https://platform.openai.com/docs/api-reference/chat/object
		`{"object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":null,"function_call":{"name":"f","arguments":"{\"x\":1}"}},"finish_reason":"function_call"}]}`,
		`[{"id":"c","type":"function","function":{"name":"f","arguments":"{\"x\":1}"}}]`,
		`[{"function":{"name":"f","arguments":"{\"x\":1}"}}]`,
	},
	format.Responses: {
		`{"object":"response","status":"completed","output":[{"type":"reasoning","summary":[]},{"type":"function_call","call_id":"c","name":"f","arguments":"{\"x\":1}"}]}`,
		`{"output":[{"type":"message","role":"assistant","content":[{"type":"output_text","text":"ok"}]},{"type":"function_call","name":"f","arguments":"{\"x\":1}"}]}`,
		`[{"type":"function_call","call_id":"c","name":"f","arguments":"{\"x\":1}"}]`,
		`[{"type":"reasoning","summary":[]},{"type":"function_call","name":"f","arguments":{"x":1}}]`,
	},
	format.Anthropic: {
		`{"type":"message","role":"assistant","content":[{"type":"text","text":"ok"},{"type":"tool_use","id":"t","name":"f","input":{"x":1}}],"stop_reason":"tool_use"}`,
		`{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"f","input":{"x":1}}]}`,
		`[{"type":"thinking","thinking":"hm","signature":"s"},{"type":"tool_use","id":"t","name":"f","input":{"x":1}}]`,
		`[{"type":"tool_use","name":"f","input":{"x":1}}]`,
	},
	format.Gemini: {
		`{"candidates":[{"content":{"role":"model","parts":[{"text":"ok"},{"functionCall":{"name":"f","args":{"x":1}}}]},"finishReason":"STOP"}]}`,
		`{"role":"model","parts":[{"functionCall":{"name":"f","args":{"x":1}}}]}`,
		`[{"text":"ok"},{"functionCall":{"name":"f","args":{"x":1}}}]`,
		`[{"functionCall":{"name":"f","args":{"x":1}},"thoughtSignature":"s"}]`,
	},
	// The streams are in stream_test.go, built after each API's
	// documented example, as JSON arrays and as SSE transcripts.
	format.OpenAIStream:    {array(openaiChunks), transcript(openaiChunks, true)},
	format.ResponsesStream: {array(responsesEvents), transcript(responsesEvents, false)},
	format.AnthropicStream: {array(anthropicEvents), transcript(anthropicEvents, false)},
	format.BedrockStream:   {array(bedrockEvents), transcript(bedrockEvents, false)},
	// Bedrock's tool use guide, step 2 (the Converse response to a tool
	// request): https://docs.aws.amazon.com/bedrock/latest/userguide/tool-use-inference-call.html
	format.Bedrock: {
		`{"output":{"message":{"role":"assistant","content":[{"text":"ok"},{"toolUse":{"toolUseId":"tooluse_1","name":"f","input":{"x":1}}}]}},"stopReason":"tool_use","usage":{"inputTokens":1,"outputTokens":1,"totalTokens":2}}`,
		`{"role":"assistant","content":[{"toolUse":{"toolUseId":"tooluse_1","name":"f","input":{"x":1}}}]}`,
		`[{"text":"ok"},{"toolUse":{"toolUseId":"tooluse_1","name":"f","input":{"x":1}}}]`,
		`[{"reasoningContent":{"reasoningText":{"text":"hm"}}},{"toolUse":{"name":"f","input":{"x":1}}}]`,
	},
	// Cohere's v2 tool use overview (response.message.tool_plan and
	// tool_calls, ToolCallV2 with arguments a JSON string) and the chat
	// reference (finish_reason TOOL_CALL):
	// https://docs.cohere.com/v2/docs/tool-use-overview, https://docs.cohere.com/reference/chat
	format.Cohere: {
		`{"id":"r1","finish_reason":"TOOL_CALL","message":{"role":"assistant","tool_plan":"I will call f.","tool_calls":[{"id":"f_1","type":"function","function":{"name":"f","arguments":"{\"x\":1}"}}]},"usage":{"billed_units":{"input_tokens":1,"output_tokens":1}}}`,
		`{"role":"assistant","tool_plan":"I will call f.","tool_calls":[{"id":"f_1","type":"function","function":{"name":"f","arguments":"{\"x\":1}"}}]}`,
	},
	// Ollama's API docs, "Chat request (with tools)":
	// https://github.com/ollama/ollama/blob/main/docs/api.md
	format.Ollama: {
		`{"model":"llama3.2","created_at":"2024-07-22T20:33:28.123648Z","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"f","arguments":{"x":1}}}]},"done_reason":"stop","done":true,"total_duration":885095291}`,
	},
	// langchain-core's AIMessage (messages/ai.py) as model_dump writes it,
	// as messages_to_dict and dumpd (load/dump.py) wrap it, and its
	// tool_calls list of ToolCall (messages/tool.py).
	format.LangChain: {
		`{"content":"","additional_kwargs":{},"response_metadata":{},"type":"ai","name":null,"id":"run-1","example":false,"tool_calls":[{"name":"f","args":{"x":1},"id":"call_1","type":"tool_call"}],"invalid_tool_calls":[],"usage_metadata":null}`,
		`{"type":"ai","data":{"content":"","type":"ai","tool_calls":[{"name":"f","args":{"x":1},"id":"call_1","type":"tool_call"}],"invalid_tool_calls":[]}}`,
		`{"lc":1,"type":"constructor","id":["langchain","schema","messages","AIMessage"],"kwargs":{"content":[{"type":"tool_use","id":"call_1","name":"f","input":{"x":1}}],"type":"ai","tool_calls":[{"name":"f","args":{"x":1},"id":"call_1","type":"tool_call"}],"invalid_tool_calls":[]}}`,
		`[{"name":"f","args":{"x":1},"id":"call_1","type":"tool_call"}]`,
	},
	// The MCP specification, server/tools, "Calling Tools", and a batch of
	// such requests (JSON-RPC 2.0 batches, in the 2025-03-26 revision):
	// https://modelcontextprotocol.io/specification/2025-06-18/server/tools
	format.MCP: {
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"f","arguments":{"x":1}}}`,
		`[{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"f","arguments":{"x":1}}}]`,
	},
	format.Calls: {
		`{"name":"f","arguments":"{\"x\":1}"}`,
		`{"name":"f","arguments":{"x":1}}`,
		`[{"name":"f","arguments":"{\"x\":1}"}]`,
		`[{"name":"f","arguments":{"x":1}}]`,
	},
}

// sameShape are the formats whose examples another format reads as well,
// on purpose: a Cohere message is an openai message with a tool plan, and
// a forced cohere reads openai's messages and lists as its own.
var sameShape = map[[2]format.Format]bool{{format.Cohere, format.OpenAI}: true, {format.OpenAI, format.Cohere}: true}

// Auto reads every example as its own format, and no other format reads
// a usable call out of it. Calls is the exception as the other: it reads
// any list of name and arguments, whatever the items' type says, on
// purpose.
func TestDetectionExamples(t *testing.T) {
	for _, f := range formats {
		if len(formatExamples[f.name]) == 0 {
			t.Errorf("format %s has no examples", f.name)
		}
	}
	for want, examples := range formatExamples {
		for _, ex := range examples {
			r, err := value.Parse(ex)
			if err != nil {
				t.Fatalf("bad example %s: %v", ex, err)
			}
			args := `{"x":1}`
			if want == format.QwenCoder {
				args = `{"x":"1"}` // text, without the tool's schema
			}
			calls, got, err := readCalls(r, format.Auto, value.Limits{})
			if err != nil || got != want || len(calls) != 1 ||
				calls[0].Err != nil || calls[0].Name != "f" || calls[0].Args.String() != args {
				t.Errorf("%s example read as %q: %v, %v\n%s", want, got, calls, err, ex)
			}
			for _, other := range formats {
				if other.name == want || other.name == format.Calls || sameShape[[2]format.Format{want, other.name}] {
					continue
				}
				calls, _, _ := readCalls(r, other.name, value.Limits{})
				for _, c := range calls {
					if c.Err == nil {
						t.Errorf("%s example forced to %s reads a usable call %q\n%s", want, other.name, c.Name, ex)
					}
				}
			}
		}
	}
}

// The table holds together: names and item types are unique, every format
// has a shape an object can have, and format.All and format.Parse list
// every format in the table's order, the text ones as text.
func TestFormatTable(t *testing.T) {
	infos := format.All()
	if len(infos) != 1+len(formats) || infos[0].Name != "auto" || infos[0].Description == "" {
		t.Fatalf("format.All() = %+v", infos)
	}
	types := map[string]format.Format{}
	for i, f := range formats {
		if infos[i+1] != (format.Info{Name: string(f.name), Description: format.Description(f.name), Text: f.isText()}) || format.Description(f.name) == "" {
			t.Errorf("format.All()[%d] = %+v, want %s described", i+1, infos[i+1], f.name)
		}
		if got, err := format.Parse(string(f.name)); got != f.name || err != nil || lookup(f.name) != f {
			t.Errorf("format.Parse(%q) = %q, %v", f.name, got, err)
		}
		for _, it := range f.itemTypes {
			if prev, ok := types[it]; ok {
				t.Errorf("item type %q is both %s and %s", it, prev, f.name)
			}
			types[it] = f.name
		}
		if f.typePrefix != "" {
			for _, g := range formats {
				for _, it := range g.itemTypes {
					if strings.HasPrefix(it, f.typePrefix) {
						t.Errorf("item type %q of %s has the prefix of %s", it, g.name, f.name)
					}
				}
			}
		}
		rows := 0
		for _, s := range append(objectShapes[:], forcedShapes[:]...) {
			if s.api == f {
				rows++
			}
		}
		if rows == 0 && !f.isStream() {
			t.Errorf("format %s has no row in objectShapes or forcedShapes", f.name)
		}
		if rows > 0 && f.isStream() {
			t.Errorf("stream format %s has a row in objectShapes or forcedShapes", f.name)
		}
		if (!f.isStream()) == (f.read == nil) {
			t.Errorf("format %s reads elements and streams, or neither", f.name)
		}
	}
	for _, s := range append(objectShapes[:], forcedShapes[:]...) {
		if lookup(s.api.name) != s.api {
			t.Errorf("objectShapes names %s, which formats does not list", s.api.name)
		}
	}
	for _, k := range itemKeys {
		if lookup(k.api.name) != k.api {
			t.Errorf("itemKeys names %s, which formats does not list", k.api.name)
		}
	}
	// An object no row claims is a ShapeError naming it, for every format.
	r, _ := value.Parse(`{"unknown":1}`)
	for _, f := range everyFormat() {
		var se *ShapeError
		if _, _, err := readCalls(r, f, value.Limits{}); !errors.As(err, &se) {
			t.Errorf("Extract(%s) of an unknown object: %v", f, err)
		}
	}
}

// TestEncodedResponse: a string that is the JSON of an API's response
// holding calls (a response encoded twice) is an error, detected or
// forced, never an answer in words whose calls vanish; JSON of no API's
// shape, of a bare call (llama-json's text, read only when forced) or of
// a response without calls stays an answer in words.
func TestEncodedResponse(t *testing.T) {
	completion := `{"id":"c","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":null,` +
		`"tool_calls":[{"id":"1","type":"function","function":{"name":"f","arguments":"{}"}}]}}]}`
	tests := []struct {
		name, text string
		f          format.Format
		wantErr    string // "" for a text answer
	}{
		{"openai completion", completion, format.Auto, "holds openai JSON with 1 call"},
		{"openai completion, forced", completion, format.OpenAI, "holds openai JSON with 1 call"},
		{"white space before", "\n  " + completion, format.Auto, "holds openai JSON with 1 call"},
		{"openai message", `{"role":"assistant","tool_calls":[{"type":"function","function":{"name":"f","arguments":"{}"}},{"type":"function","function":{"name":"g","arguments":"{}"}}]}`, format.Auto, "with 2 calls"},
		{"anthropic message", `{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"f","input":{}}]}`, format.Auto, "holds anthropic JSON with 1 call"},
		{"gemini", `{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{}}}]}}]}`, format.Auto, "holds gemini JSON with 1 call"},
		{"responses output", `[{"type":"function_call","call_id":"c","name":"f","arguments":"{}"}]`, format.Auto, "holds responses JSON with 1 call"},
		{"a call that fails is a call", `{"role":"assistant","tool_calls":[{"type":"function","function":{"name":"f","arguments":"{"}}]}`, format.Auto, "with 1 call"},
		{"completion without calls", `{"choices":[{"message":{"role":"assistant","content":"hi"}}]}`, format.Auto, ""},
		{"no API's shape", `{"answer": "Berlin", "context": "looked it up"}`, format.Auto, ""},
		{"a bare call", `{"name": "f", "arguments": {}}`, format.Auto, ""},
		{"a list of calls", `[{"name": "f", "arguments": "{}"}]`, format.Auto, ""},
		{"not JSON", `{"role": "assistant", tool_calls: }`, format.Auto, ""},
		{"JSON after words", "Here it is: " + completion, format.Auto, ""},
		// Encoded once more, after a byte order mark, on lines, or not
		// reading as JSON but holding a call's key: no text answer.
		{"a byte order mark before", "\ufeff" + completion, format.Auto, "holds openai JSON with 1 call"},
		{"encoded three times", strconv.Quote(completion), format.Auto, "holds openai JSON with 1 call"},
		{"JSON lines", completion + "\n" + completion, format.Auto, "on the first of several lines"},
		{"NaN elsewhere", strings.Replace(completion, `"id":"c"`, `"id":"c","logprob":NaN`, 1), format.Auto, `holds "tool_calls"`},
		{"a key written twice elsewhere", strings.Replace(completion, `"id":"c"`, `"id":"c","id":"d"`, 1), format.Auto, `holds "tool_calls"`},
		{"broken JSON without a call's key", `{"answer": NaN}`, format.Auto, ""},
		{"a quoted answer", `"Berlin"`, format.Auto, ""},
	}
	for _, tt := range tests {
		calls, _, err := readCalls(value.StringOf(tt.text), tt.f, value.Limits{})
		switch {
		case tt.wantErr == "" && (err != nil || len(calls) != 0):
			t.Errorf("%s: %v, %v; want a text answer", tt.name, calls, err)
		case tt.wantErr != "":
			var se *ShapeError
			if !errors.As(err, &se) || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: %v, %v; want a *ShapeError saying %q", tt.name, calls, err, tt.wantErr)
			}
		}
	}
}

// TestForcedListOfEvents: a recorded stream kept as a JSON list of its
// events, forced to a format that is not its stream's, is an error, not a
// list of items in which its calls vanish; so is a list of Gemini's
// streamed responses.
func TestForcedListOfEvents(t *testing.T) {
	events := map[string]string{
		"anthropic-stream": `[{"type":"message_start","message":{"role":"assistant","content":[]}},{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}},{"type":"content_block_stop","index":0},{"type":"message_stop"}]`,
		"responses-stream": `[{"type":"response.created","response":{}},{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","call_id":"c","name":"f","arguments":"{}"}},{"type":"response.completed","response":{}}]`,
		"bedrock-stream":   `[{"messageStart":{"role":"assistant"}},{"contentBlockStart":{"contentBlockIndex":0,"start":{"toolUse":{"toolUseId":"t","name":"f"}}}},{"contentBlockStop":{"contentBlockIndex":0}},{"messageStop":{"stopReason":"tool_use"}}]`,
		"openai-stream":    `[{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]}}]}]`,
		"gemini chunks":    `[{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"f","args":{}}}]}}]}]`,
	}
	for name, text := range events {
		r, err := value.Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range []format.Format{format.OpenAI, format.Anthropic, format.Responses, format.Gemini, format.Bedrock} {
			if string(f)+"-stream" == name {
				continue // its own format reads it as before
			}
			calls, _, err := readCalls(r, f, value.Limits{})
			var se *ShapeError
			if !errors.As(err, &se) || !strings.Contains(err.Error(), "a list of ") {
				t.Errorf("%s forced to %s: %v, %v; want a *ShapeError", name, f, calls, err)
			}
		}
	}
	// A list of parts stays one, text parts passed over.
	r, _ := value.Parse(`[{"text":"hi"},{"functionCall":{"name":"f","args":{}}}]`)
	if calls, _, err := readCalls(r, format.Gemini, value.Limits{}); err != nil || len(calls) != 1 {
		t.Errorf("gemini parts: %v, %v; want 1 call", calls, err)
	}
}

// A request logged with its answer beside it ({messages, response}) is
// no conversation whose calls are the request's alone: read so, the
// answer's calls would vanish. Detected or forced, each is a failure that
// says so, whatever the answer's key; a text beside the conversation is
// not an answer kept apart.
func TestRequestWithItsAnswer(t *testing.T) {
	completion := `{"object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":null,` +
		`"tool_calls":[{"id":"1","type":"function","function":{"name":"delete_account","arguments":"{}"}}]}}]}`
	for _, tt := range []struct {
		name, in string
		f        format.Format
		fails    bool
	}{
		{"openai", `{"model":"m","messages":[{"role":"user","content":"hi"}],"response":` + completion + `}`, format.Auto, true},
		{"openai, forced", `{"model":"m","messages":[{"role":"user","content":"hi"}],"response":` + completion + `}`, format.OpenAIMessages, true},
		{"anthropic", `{"system":"s","messages":[{"role":"user","content":"hi"}],"completion":{"type":"message","role":"assistant","content":[{"type":"tool_use","id":"t","name":"delete_account","input":{}}]}}`, format.Auto, true},
		{"gemini", `{"contents":[{"role":"user","parts":[{"text":"hi"}]}],"result":{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"delete_account","args":{}}}]}}]}}`, format.Auto, true},
		{"responses input", `{"input":[{"role":"user","content":"hi"}],"response":{"output":[]}}`, format.Auto, true},
		{"messages and output", `{"messages":[{"role":"user","content":"hi"}],"output":[{"type":"function_call","call_id":"c","name":"delete_account","arguments":"{}"}]}`, format.Auto, true},
		{"a text output", `{"messages":[{"role":"user","content":"hi"}],"output":"Done."}`, format.Auto, false},
		{"no answer beside", `{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"Done."}]}`, format.Auto, false},
	} {
		v, err := value.Parse(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		r, _, err := Options{}.Read(v, tt.f)
		failed := err != nil
		if err == nil {
			for _, st := range r.Steps {
				failed = failed || st.Err != nil && strings.Contains(st.Err.Error(), "a request's conversation")
			}
		}
		if failed != tt.fails {
			t.Errorf("%s: read %+v, %v; want failing %v", tt.name, r, err, tt.fails)
		}
	}
}

// An AIMessage of a conversation whose calls additional_kwargs keeps
// alone (ChatOpenAI bound with functions=) has them as its steps, as a
// single AIMessage does.
func TestLangChainKeptCalls(t *testing.T) {
	v, err := value.Parse(`[{"type": "human", "content": "Delete my account"},
	  {"type": "ai", "content": "", "additional_kwargs": {"function_call": {"name": "delete_account", "arguments": "{}"}}, "tool_calls": [], "invalid_tool_calls": []},
	  {"type": "ai", "content": "", "additional_kwargs": {"tool_calls": [{"id": "1", "type": "function", "function": {"name": "a", "arguments": "{}"}}]}, "tool_calls": [{"name": "a", "args": {}, "id": "1", "type": "tool_call"}]}]`)
	if err != nil {
		t.Fatal(err)
	}
	r, f, err := Options{}.Read(v, format.Auto)
	if err != nil || f != format.LangChainMessages || len(r.Steps) != 2 || r.Steps[0].Name != "delete_account" || r.Steps[0].Err != nil || r.Steps[1].Name != "a" {
		t.Errorf("read %+v as %s, %v; want the steps delete_account and a", r.Steps, f, err)
	}
}
