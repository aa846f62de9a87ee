package response

import (
	"errors"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/internal/pycall"
	"github.com/callgrade/callgrade/value"
)

// conformanceLines are the lines of shared/conformance/formats/responses.jsonl,
// copied exactly, so that the contract's own examples are read here.
var conformanceLines = []string{
	`{"id": "openai-chat-completion", "response": {"id": "chatcmpl-9", "object": "chat.completion", "choices": [{"index": 0, "message": {"role": "assistant", "content": null, "tool_calls": [{"id": "call_9", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Berlin\",\"days\":3}"}}]}, "finish_reason": "tool_calls"}]}}`,
	`{"id": "openai-tool-calls-list", "response": [{"id": "call_9", "type": "function", "function": {"name": "get_weather", "arguments": "{\"days\":3,\"city\":\"Berlin\"}"}}]}`,
	`{"id": "responses-api", "response": {"object": "response", "output": [{"type": "function_call", "call_id": "c1", "name": "get_weather", "arguments": "{\"city\":\"Berlin\",\"days\":3}"}]}}`,
	`{"id": "anthropic-message", "response": {"type": "message", "role": "assistant", "content": [{"type": "tool_use", "id": "toolu_9", "name": "get_weather", "input": {"city": "Berlin", "days": 3}}], "stop_reason": "tool_use"}}`,
	`{"id": "gemini-response", "response": {"candidates": [{"content": {"role": "model", "parts": [{"functionCall": {"name": "get_weather", "args": {"days": 3, "city": "Berlin"}}}]}}]}}`,
	`{"id": "text-only-answer", "response": {"choices": [{"index": 0, "message": {"role": "assistant", "content": "It is sunny."}, "finish_reason": "stop"}]}}`,
}

func TestConformanceLines(t *testing.T) {
	want := map[string]struct {
		f     format.Format
		calls int
	}{
		"openai-chat-completion": {format.OpenAI, 1},
		"openai-tool-calls-list": {format.OpenAI, 1},
		"responses-api":          {format.Responses, 1},
		"anthropic-message":      {format.Anthropic, 1},
		"gemini-response":        {format.Gemini, 1},
		"text-only-answer":       {format.OpenAI, 0},
	}
	for _, line := range conformanceLines {
		doc, err := value.Parse(line)
		if err != nil {
			t.Fatal(err)
		}
		id, _ := doc.Get("id")
		r, _ := doc.Get("response")
		w := want[id.Str()]
		t.Run(id.Str(), func(t *testing.T) {
			for _, f := range []format.Format{format.Auto, w.f} {
				calls, got, err := readCalls(r, f, value.Limits{})
				if err != nil {
					t.Fatalf("Extract(%q): %v", f, err)
				}
				if got != w.f {
					t.Errorf("Extract(%q) format = %q, want %q", f, got, w.f)
				}
				if len(calls) != w.calls {
					t.Fatalf("Extract(%q) = %d calls, want %d", f, len(calls), w.calls)
				}
				for _, c := range calls {
					if c.Err != nil || c.Name != "get_weather" || c.Args.String() != `{"city":"Berlin","days":3}` {
						t.Errorf("Extract(%q) call = %q %s %v", f, c.Name, c.Args, c.Err)
					}
				}
			}
		})
	}
}

// everyFormat is Auto and then every format of the table.
func everyFormat() []format.Format {
	all := []format.Format{format.Auto}
	for _, f := range formats {
		all = append(all, f.name)
	}
	return all
}

// wantCall is one expected Call: a good one has args, a failed one has a
// reason (a substring of its message) and maybe a sentinel it wraps.
type wantCall struct {
	name   string
	args   string
	reason string
	is     error
}

func ok(name, args string) wantCall    { return wantCall{name: name, args: args} }
func bad(name, reason string) wantCall { return wantCall{name: name, reason: reason} }
func badIs(name string, is error) wantCall {
	return wantCall{name: name, reason: "is not a usable JSON object", is: is}
}
func oai(name, args string) string {
	return `{"type":"function","function":{"name":"` + name + `","arguments":` + args + `}}`
}
func completion(toolCalls ...string) string {
	return `{"object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[` +
		strings.Join(toolCalls, ",") + `]},"finish_reason":"tool_calls"}]}`
}

const berlin = `{"city":"Berlin"}`

// extractTest is a response, the format to read it as and the calls it
// must give.
type extractTest struct {
	name  string
	in    string
	f     format.Format
	lim   value.Limits
	wantF format.Format
	calls []wantCall
}

var extractTests = []extractTest{
	// openai: chat completion
	{name: "openai completion two calls in order", in: completion(oai("b", `"{\"x\":1}"`), oai("a", `"{\"y\":2}"`)),
		wantF: format.OpenAI, calls: []wantCall{ok("b", `{"x":1}`), ok("a", `{"y":2}`)}},
	{name: "openai completion tool_calls null", in: `{"choices":[{"message":{"role":"assistant","content":"hi","tool_calls":null}}]}`, wantF: format.OpenAI},
	{name: "openai completion tool_calls empty", in: `{"choices":[{"message":{"role":"assistant","tool_calls":[]}}]}`, wantF: format.OpenAI},
	{name: "openai completion no choices", in: `{"object":"chat.completion","choices":[]}`, wantF: format.OpenAI},
	{name: "openai completion reads choices[0] only", in: `{"choices":[{"message":{"content":"no"}},{"message":{"tool_calls":[` + oai("x", `"{}"`) + `]}}]}`, wantF: format.OpenAI},
	{name: "openai choices not an array", in: `{"choices":"x"}`, wantF: format.OpenAI, calls: []wantCall{bad("", "choices is a string, not an array")}},
	{name: "openai choice not an object", in: `{"choices":[1]}`, wantF: format.OpenAI, calls: []wantCall{bad("", "choices[0] has no message object")}},
	{name: "openai choice without message", in: `{"choices":[{"finish_reason":"length"}]}`, wantF: format.OpenAI, calls: []wantCall{bad("", "choices[0] has no message object")}},
	{name: "openai tool_calls not an array", in: `{"choices":[{"message":{"tool_calls":{"a":1}}}]}`, wantF: format.OpenAI,
		calls: []wantCall{bad("", "choices[0].message.tool_calls is an object, not an array")}},
	{name: "openai entry without function", in: completion(`{"id":"c1","type":"function"}`, oai("b", `"{}"`)), wantF: format.OpenAI,
		calls: []wantCall{bad("", "choices[0].message.tool_calls[0] has no function object"), ok("b", `{}`)}},
	{name: "openai entry function not an object", in: completion(`{"function":"get_weather"}`), wantF: format.OpenAI,
		calls: []wantCall{bad("", "tool_calls[0] has no function object")}},
	{name: "openai entry not an object", in: `[` + oai("a", `"{}"`) + `,5]`, wantF: format.OpenAI,
		calls: []wantCall{ok("a", `{}`), bad("", "[1] is a number, not an object")}},

	// openai: message
	{name: "openai message", in: `{"role":"assistant","content":null,"tool_calls":[` + oai("get_weather", `"{\"city\":\"Berlin\"}"`) + `]}`,
		wantF: format.OpenAI, calls: []wantCall{ok("get_weather", berlin)}},
	{name: "openai message text only", in: `{"role":"assistant","content":"It is sunny."}`, wantF: format.OpenAI},
	{name: "openai message content only", in: `{"content":"It is sunny."}`, wantF: format.OpenAI},
	{name: "openai message legacy function_call", in: `{"role":"assistant","content":null,"function_call":{"name":"f","arguments":"{\"a\":[1,2]}"}}`,
		wantF: format.OpenAI, calls: []wantCall{ok("f", `{"a":[1,2]}`)}},
	{name: "openai message tool_calls then function_call", in: `{"role":"assistant","function_call":{"name":"legacy","arguments":"{}"},"tool_calls":[` + oai("new", `"{}"`) + `]}`,
		wantF: format.OpenAI, calls: []wantCall{ok("new", `{}`), ok("legacy", `{}`)}},
	{name: "openai message function_call null", in: `{"role":"assistant","content":"x","function_call":null}`, wantF: format.OpenAI},
	{name: "openai message function_call not an object", in: `{"function_call":"f"}`, wantF: format.OpenAI,
		calls: []wantCall{bad("", "function_call is a string, not an object")}},
	{name: "openai message function_call without arguments", in: `{"choices":[{"message":{"function_call":{"name":"f"}}}]}`, wantF: format.OpenAI,
		calls: []wantCall{bad("f", "choices[0].message.function_call.arguments is missing")}},

	// openai: bare tool_calls list
	{name: "openai tool_calls list", in: `[` + oai("a", `"{\"n\":1}"`) + `,` + oai("b", `"{\"n\":2}"`) + `]`,
		wantF: format.OpenAI, calls: []wantCall{ok("a", `{"n":1}`), ok("b", `{"n":2}`)}},
	{name: "openai list without type", in: `[{"function":{"name":"a","arguments":"{}"}}]`, wantF: format.OpenAI, calls: []wantCall{ok("a", `{}`)}},
	{name: "openai flattened entry is a failed openai call", in: `[{"type":"function","name":"a","arguments":"{}"}]`,
		wantF: format.OpenAI, calls: []wantCall{bad("", "[0] has no function object")}},
	{name: "openai flattened entry forced calls", in: `[{"type":"function","name":"a","arguments":"{}"}]`, f: format.Calls,
		wantF: format.Calls, calls: []wantCall{ok("a", `{}`)}},

	// openai: arguments
	{name: "openai arguments as object", in: completion(oai("a", berlin)), wantF: format.OpenAI, calls: []wantCall{ok("a", berlin)}},
	{name: "openai arguments missing", in: completion(`{"function":{"name":"a"}}`), wantF: format.OpenAI,
		calls: []wantCall{bad("a", "tool_calls[0].function.arguments is missing")}},
	{name: "openai arguments number", in: completion(oai("a", `5`)), wantF: format.OpenAI,
		calls: []wantCall{bad("a", "function.arguments is a number, not a JSON string or object")}},
	{name: "openai arguments array", in: completion(oai("a", `[1]`)), wantF: format.OpenAI, calls: []wantCall{bad("a", "is an array, not a JSON string or object")}},
	{name: "openai arguments bool", in: completion(oai("a", `true`)), wantF: format.OpenAI, calls: []wantCall{bad("a", "is a boolean, not a JSON string or object")}},
	{name: "openai arguments null", in: completion(oai("a", `null`)), wantF: format.OpenAI, calls: []wantCall{bad("a", "is null, not a JSON string or object")}},
	{name: "openai arguments invalid JSON", in: completion(oai("a", `"{city: Berlin}"`)), wantF: format.OpenAI, calls: []wantCall{badIs("a", value.ErrSyntax)}},
	{name: "openai arguments empty string", in: completion(oai("a", `""`)), wantF: format.OpenAI, calls: []wantCall{badIs("a", value.ErrSyntax)}},
	{name: "openai arguments two documents", in: completion(oai("a", `"{} {}"`)), wantF: format.OpenAI, calls: []wantCall{badIs("a", value.ErrSyntax)}},
	{name: "openai arguments duplicate key", in: completion(oai("a", `"{\"city\":\"Paris\",\"city\":\"Berlin\"}"`)), wantF: format.OpenAI,
		calls: []wantCall{badIs("a", value.ErrDuplicateKey)}},
	{name: "openai arguments NaN", in: completion(oai("a", `"{\"x\":NaN}"`)), wantF: format.OpenAI, calls: []wantCall{badIs("a", value.ErrNonFinite)}},
	{name: "openai arguments Infinity", in: completion(oai("a", `"{\"x\":-Infinity}"`)), wantF: format.OpenAI, calls: []wantCall{badIs("a", value.ErrNonFinite)}},
	{name: "openai arguments lone surrogate", in: completion(oai("a", `"{\"x\":\"\\ud800\"}"`)), wantF: format.OpenAI, calls: []wantCall{badIs("a", value.ErrInvalidUTF8)}},
	{name: "openai arguments too deep", in: completion(oai("a", `"{\"a\":{\"b\":{\"c\":{}}}}"`)), lim: value.Limits{MaxDepth: 3}, wantF: format.OpenAI,
		calls: []wantCall{badIs("a", value.ErrTooDeep)}},
	{name: "openai arguments deep enough", in: completion(oai("a", `"{\"a\":{\"b\":{}}}"`)), lim: value.Limits{MaxDepth: 3}, wantF: format.OpenAI,
		calls: []wantCall{ok("a", `{"a":{"b":{}}}`)}},
	{name: "openai arguments too large", in: completion(oai("a", `"{\"city\":\"Berlin\"}"`)), lim: value.Limits{MaxBytes: 10}, wantF: format.OpenAI,
		calls: []wantCall{badIs("a", value.ErrTooLarge)}},
	{name: "openai arguments hold an array", in: completion(oai("a", `"[1,2]"`)), wantF: format.OpenAI, calls: []wantCall{bad("a", "holds an array, not a JSON object")}},
	{name: "openai arguments hold a string", in: completion(oai("a", `"\"Berlin\""`)), wantF: format.OpenAI, calls: []wantCall{bad("a", "holds a string, not a JSON object")}},
	{name: "openai arguments hold null", in: completion(oai("a", `"null"`)), wantF: format.OpenAI, calls: []wantCall{bad("a", "holds null, not a JSON object")}},
	{name: "openai name missing", in: completion(`{"function":{"arguments":"{}"}}`), wantF: format.OpenAI, calls: []wantCall{bad("", "tool_calls[0].function.name is missing")}},
	{name: "openai name not a string", in: completion(`{"function":{"name":7,"arguments":"{}"}}`), wantF: format.OpenAI,
		calls: []wantCall{bad("", "function.name is a number, not a string")}},
	{name: "openai failures keep their place", in: completion(oai("a", `"{}"`), oai("b", `"{"`), oai("c", `"{\"k\":1}"`)), wantF: format.OpenAI,
		calls: []wantCall{ok("a", `{}`), badIs("b", value.ErrSyntax), ok("c", `{"k":1}`)}},

	// responses
	{name: "responses object with other items", in: `{"object":"response","status":"completed","output":[` +
		`{"type":"reasoning","id":"rs_1","summary":[]},` +
		`{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Checking."}]},` +
		`{"type":"function_call","call_id":"c1","name":"a","arguments":"{\"n\":1}"},` +
		`{"type":"function_call","call_id":"c2","name":"b","arguments":"{\"n\":2}"}]}`,
		wantF: format.Responses, calls: []wantCall{ok("a", `{"n":1}`), ok("b", `{"n":2}`)}},
	{name: "responses output without object", in: `{"output":[{"type":"function_call","name":"a","arguments":"{}"}]}`, wantF: format.Responses, calls: []wantCall{ok("a", `{}`)}},
	{name: "responses output list", in: `[{"type":"message","role":"assistant","content":[]},{"type":"function_call","name":"a","arguments":"{\"x\":true}"}]`,
		wantF: format.Responses, calls: []wantCall{ok("a", `{"x":true}`)}},
	{name: "responses text only", in: `{"object":"response","output":[{"type":"message","role":"assistant","content":[{"type":"output_text","text":"hi"}]}]}`, wantF: format.Responses},
	{name: "responses output missing", in: `{"object":"response","status":"completed"}`, wantF: format.Responses},
	// A response the model gave no answer in is no answer with zero calls.
	{name: "responses failed", in: `{"object":"response","status":"failed"}`, wantF: format.Responses, calls: []wantCall{bad("", "status is failed: the response holds no answer")}},
	{name: "responses failed with its error", in: `{"id":"resp_1","object":"response","status":"failed","error":{"code":"server_error","message":"The model failed to generate a response."},"output":[]}`,
		wantF: format.Responses, calls: []wantCall{bad("", `status is failed: the response holds no answer; its error: "The model failed to generate a response."`)}},
	{name: "responses queued", in: `{"id":"resp_1","object":"response","status":"queued"}`, wantF: format.Responses, calls: []wantCall{bad("", "status is queued")}},
	{name: "responses incomplete keeps its calls", in: `{"object":"response","status":"incomplete","output":[{"type":"function_call","name":"f","arguments":"{}"}]}`,
		wantF: format.Responses, calls: []wantCall{ok("f", `{}`)}},
	{name: "responses output null", in: `{"object":"response","output":null}`, wantF: format.Responses},
	{name: "responses output not an array", in: `{"object":"response","output":"x"}`, wantF: format.Responses, calls: []wantCall{bad("", "output is a string, not an array")}},
	{name: "responses arguments object", in: `{"output":[{"type":"function_call","name":"a","arguments":{"k":"v"}}]}`, wantF: format.Responses, calls: []wantCall{ok("a", `{"k":"v"}`)}},
	{name: "responses arguments number", in: `{"output":[{"type":"function_call","name":"a","arguments":1}]}`, wantF: format.Responses,
		calls: []wantCall{bad("a", "output[0].arguments is a number, not a JSON string or object")}},
	{name: "responses arguments missing", in: `{"output":[{"type":"function_call","name":"a"}]}`, wantF: format.Responses, calls: []wantCall{bad("a", "output[0].arguments is missing")}},
	{name: "responses arguments duplicate key", in: `{"output":[{"type":"function_call","name":"a","arguments":"{\"k\":1,\"k\":2}"}]}`, wantF: format.Responses,
		calls: []wantCall{badIs("a", value.ErrDuplicateKey)}},
	{name: "responses item without type", in: `{"output":[{"name":"a","arguments":"{}"}]}`, wantF: format.Responses, calls: []wantCall{bad("", "output[0] has no type")}},
	{name: "responses item of another call type", in: `{"output":[{"type":"tool_use","name":"a","input":{}}]}`, wantF: format.Responses,
		calls: []wantCall{bad("a", `output[0] is of type "tool_use", not "function_call"`)}},
	{name: "anthropic message in a list is not skipped", in: `[{"type":"message","role":"assistant","content":[{"type":"tool_use","name":"a","input":{}}]}]`,
		wantF: format.Responses, calls: []wantCall{bad("", `[0] is of type "message", not "function_call"`)}},
	{name: "anthropic message in a forced anthropic list", in: `[{"type":"message","content":[{"type":"text","text":"x"},{"type":"tool_use","name":"a","input":{}}]}]`, f: format.Anthropic,
		wantF: format.Anthropic, calls: []wantCall{bad("", `[0] is of type "message", not "tool_use"`)}},
	{name: "responses item not an object", in: `{"output":[null]}`, wantF: format.Responses, calls: []wantCall{bad("", "output[0] is null, not an object")}},
	{name: "responses custom tool call fails", in: `{"object":"response","output":[{"type":"custom_tool_call","call_id":"c1","name":"f","input":"x"},` +
		`{"type":"function_call","name":"a","arguments":"{}"}]}`, wantF: format.Responses,
		calls: []wantCall{bad("f", `output[0] is of type "custom_tool_call", not "function_call"`), ok("a", `{}`)}},
	{name: "responses custom tool call list", in: `[{"type":"custom_tool_call","name":"f","input":"x"}]`, wantF: format.Responses,
		calls: []wantCall{bad("f", `[0] is of type "custom_tool_call", not "function_call"`)}},
	// A call of a type no format reads (a tool the API added later) is a
	// failed call that names its type and keeps its name; the built-in
	// tools' items stay passed over.
	{name: "responses unknown _call item fails", in: `{"object":"response","output":[{"type":"shell_call","call_id":"c1","name":"shell","action":{"commands":["rm -rf /"]}},` +
		`{"type":"apply_patch_call","call_id":"c2","operation":{"type":"delete_file","path":"a"}},{"type":"function_call","name":"a","arguments":"{}"}]}`, wantF: format.Responses,
		calls: []wantCall{bad("shell", `output[0] is of type "shell_call", not "function_call"`), bad("", `output[1] is of type "apply_patch_call", not "function_call"`), ok("a", `{}`)}},
	{name: "responses langchain tool_call item fails", in: `{"output":[{"type":"tool_call","name":"a","args":{}}]}`, wantF: format.Responses,
		calls: []wantCall{bad("a", `output[0] is of type "tool_call", not "function_call"`)}},
	{name: "responses unknown item with a name and an input fails", in: `{"output":[{"type":"future_tool_use","name":"a","input":{}}]}`, wantF: format.Responses,
		calls: []wantCall{bad("a", `output[0] is of type "future_tool_use", not "function_call"`)}},
	{name: "responses unknown item without a call passed over", in: `{"output":[{"type":"compaction","summary":"x"},{"type":"function_call","name":"a","arguments":"{}"}]}`, wantF: format.Responses,
		calls: []wantCall{ok("a", `{}`)}},
	{name: "responses built-in tool call passed over", in: `{"output":[{"type":"web_search_call","id":"ws","status":"completed"},{"type":"function_call","name":"a","arguments":"{}"}]}`,
		wantF: format.Responses, calls: []wantCall{ok("a", `{}`)}},
	{name: "openai message with a name and no call", in: `{"role":"assistant","name":"helper","content":"It is sunny."}`, wantF: format.OpenAI},
	{name: "a call object with a role is still a call", in: `{"role":"assistant","name":"f","arguments":"{\"x\":1}"}`, wantF: format.Calls, calls: []wantCall{ok("f", `{"x":1}`)}},
	{name: "gemini function_call as the python sdk dumps it", in: `{"candidates":[{"content":{"role":"model","parts":[{"text":"a"},{"function_call":{"name":"f","args":{"x":1}}}]}}]}`,
		wantF: format.Gemini, calls: []wantCall{ok("f", `{"x":1}`)}},
	{name: "gemini parts list in snake case", in: `[{"text":"a"},{"function_call":{"name":"f"}}]`, wantF: format.Gemini, calls: []wantCall{ok("f", `{}`)}},
	{name: "gemini part with openai's function_call", in: `{"parts":[{"function_call":{"name":"f","arguments":"{}"}}]}`, wantF: format.Gemini,
		calls: []wantCall{bad("", "parts[0] is not a gemini part: it has no functionCall but a key of another API's call")}},

	// anthropic
	{name: "anthropic content list", in: `[{"type":"text","text":"Let me check."},{"type":"tool_use","id":"t1","name":"a","input":{"n":1}},{"type":"tool_use","id":"t2","name":"b","input":{}}]`,
		wantF: format.Anthropic, calls: []wantCall{ok("a", `{"n":1}`), ok("b", `{}`)}},
	{name: "anthropic input too deep", in: `[{"type":"tool_use","name":"a","input":{"a":{"b":{"c":{}}}}}]`, lim: value.Limits{MaxDepth: 3}, wantF: format.Anthropic,
		calls: []wantCall{badIs("a", value.ErrTooDeep)}},
	{name: "anthropic input deep enough", in: `[{"type":"tool_use","name":"a","input":{"a":[{"b":1}]}}]`, lim: value.Limits{MaxDepth: 3}, wantF: format.Anthropic,
		calls: []wantCall{ok("a", `{"a":[{"b":1}]}`)}},
	{name: "gemini args too deep", in: `{"parts":[{"functionCall":{"name":"a","args":{"a":[[{}]]}}}]}`, lim: value.Limits{MaxDepth: 3}, wantF: format.Gemini,
		calls: []wantCall{badIs("a", value.ErrTooDeep)}},
	{name: "calls arguments object too deep", in: `{"name":"a","arguments":{"a":{"b":{"c":1}}}}`, lim: value.Limits{MaxDepth: 2}, wantF: format.Calls,
		calls: []wantCall{badIs("a", value.ErrTooDeep)}},
	{name: "anthropic message text only", in: `{"type":"message","role":"assistant","content":[{"type":"text","text":"Hi."}],"stop_reason":"end_turn"}`, wantF: format.Anthropic},
	{name: "anthropic text only list", in: `[{"type":"text","text":"Hi."}]`, wantF: format.Anthropic},
	{name: "anthropic message without type", in: `{"role":"assistant","content":[{"type":"tool_use","name":"a","input":{}}]}`, wantF: format.Anthropic, calls: []wantCall{ok("a", `{}`)}},
	{name: "anthropic thinking first", in: `[{"type":"thinking","thinking":"hm","signature":"s"},{"type":"tool_use","name":"a","input":{}}]`, wantF: format.Anthropic, calls: []wantCall{ok("a", `{}`)}},
	{name: "anthropic server tool first", in: `[{"type":"server_tool_use","id":"s","name":"web_search","input":{"q":"x"}},{"type":"web_search_tool_result","content":[]},{"type":"tool_use","name":"a","input":{}}]`,
		wantF: format.Anthropic, calls: []wantCall{ok("a", `{}`)}},
	{name: "anthropic input string", in: `[{"type":"tool_use","name":"a","input":"{\"n\":1}"}]`, wantF: format.Anthropic, calls: []wantCall{bad("a", "[0].input is a string, not an object")}},
	{name: "anthropic input missing", in: `{"type":"message","content":[{"type":"tool_use","name":"a"}]}`, wantF: format.Anthropic, calls: []wantCall{bad("a", "content[0].input is missing")}},
	{name: "anthropic input null", in: `[{"type":"tool_use","name":"a","input":null}]`, wantF: format.Anthropic, calls: []wantCall{bad("a", "input is null, not an object")}},
	{name: "anthropic input array", in: `[{"type":"tool_use","name":"a","input":[]}]`, wantF: format.Anthropic, calls: []wantCall{bad("a", "input is an array, not an object")}},
	{name: "anthropic name missing", in: `[{"type":"tool_use","input":{}}]`, wantF: format.Anthropic, calls: []wantCall{bad("", "[0].name is missing")}},
	{name: "anthropic block without type", in: `[{"type":"tool_use","name":"a","input":{}},{"name":"b","input":{}}]`, wantF: format.Anthropic,
		calls: []wantCall{ok("a", `{}`), bad("", "[1] has no type")}},
	{name: "anthropic unknown block with a name and an input fails", in: `{"role":"assistant","content":[{"type":"text","text":"ok"},{"type":"bash_tool_use","id":"t","name":"bash","input":{"command":"ls"}}]}`,
		wantF: format.Anthropic, calls: []wantCall{bad("bash", `content[1] is of type "bash_tool_use", not "tool_use"`)}},
	{name: "anthropic unknown _call block fails", in: `{"role":"assistant","content":[{"type":"shell_call","name":"shell"}]}`,
		wantF: format.Anthropic, calls: []wantCall{bad("shell", `content[0] is of type "shell_call", not "tool_use"`)}},
	{name: "anthropic unknown block without a name passed over", in: `{"role":"assistant","content":[{"type":"citation","input":{}},{"type":"tool_use","name":"a","input":{}}]}`,
		wantF: format.Anthropic, calls: []wantCall{ok("a", `{}`)}},
	{name: "anthropic server tool block passed over", in: `{"role":"assistant","content":[{"type":"server_tool_use","id":"s","name":"web_search","input":{"query":"x"}},{"type":"tool_use","name":"a","input":{}}]}`,
		wantF: format.Anthropic, calls: []wantCall{ok("a", `{}`)}},
	{name: "anthropic block of another call type", in: `[{"type":"tool_use","name":"a","input":{}},{"type":"function_call","name":"b","arguments":"{}"}]`, wantF: format.Anthropic,
		calls: []wantCall{ok("a", `{}`), bad("b", `[1] is of type "function_call", not "tool_use"`)}},

	// gemini
	{name: "gemini response two calls", in: `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"a","args":{"n":1}}},{"functionCall":{"name":"b","args":{"n":2}}}]},"finishReason":"STOP"}]}`,
		wantF: format.Gemini, calls: []wantCall{ok("a", `{"n":1}`), ok("b", `{"n":2}`)}},
	{name: "gemini content", in: `{"role":"model","parts":[{"text":"Sure."},{"functionCall":{"name":"a","args":{}}}]}`, wantF: format.Gemini, calls: []wantCall{ok("a", `{}`)}},
	{name: "gemini parts list", in: `[{"text":"Sure."},{"functionCall":{"name":"a","args":{"k":[1]}},"thoughtSignature":"x"}]`, wantF: format.Gemini, calls: []wantCall{ok("a", `{"k":[1]}`)}},
	{name: "gemini parts list text only", in: `[{"text":"Sure."}]`, wantF: format.Gemini},
	{name: "gemini args omitted", in: `[{"functionCall":{"name":"now"}}]`, wantF: format.Gemini, calls: []wantCall{ok("now", `{}`)}},
	// The Python SDK's model_dump() writes what a call or part lacks as null.
	{name: "gemini args null", in: `[{"functionCall":{"name":"a","args":null}}]`, wantF: format.Gemini, calls: []wantCall{ok("a", `{}`)}},
	{name: "gemini SDK dump text only", in: `{"candidates":[{"content":{"parts":[{"function_call":null,"function_response":null,"text":"Hello","thought":null}],"role":"model"},"finish_reason":"STOP"}]}`, wantF: format.Gemini},
	{name: "gemini SDK dump text then call", in: `{"candidates":[{"content":{"parts":[{"function_call":null,"text":"Sure.","thought":null},{"function_call":{"id":null,"args":{"city":"Berlin"},"name":"get_weather"},"text":null,"thought":null}],"role":"model"}}]}`,
		wantF: format.Gemini, calls: []wantCall{ok("get_weather", berlin)}},
	{name: "gemini SDK dump camelCase", in: `[{"functionCall":null,"text":"Hi"},{"functionCall":{"name":"now","args":null}}]`, wantF: format.Gemini, calls: []wantCall{ok("now", `{}`)}},
	// A call the model wrote but Gemini could not read is a failed call.
	{name: "gemini malformed function call", in: `{"candidates":[{"content":{},"finishReason":"MALFORMED_FUNCTION_CALL","finishMessage":"Malformed function call: print(x"}]}`,
		wantF: format.Gemini, calls: []wantCall{bad("", "candidates[0].finishReason is MALFORMED_FUNCTION_CALL: the model's call could not be read (Malformed function call: print(x)")}},
	{name: "gemini unexpected tool call, SDK dump", in: `{"candidates":[{"finish_reason":"UNEXPECTED_TOOL_CALL","content":null}]}`,
		wantF: format.Gemini, calls: []wantCall{bad("", "candidates[0].finish_reason is UNEXPECTED_TOOL_CALL")}},
	// A list of nothing but built-in tools' items is a list of its
	// format, with no call in it.
	{name: "anthropic content of server tool blocks only", in: `[{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"x"}},{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[]}]`, wantF: format.Anthropic},
	{name: "responses output of built-in items only", in: `[{"type":"image_generation_call","id":"ig_1","status":"completed","result":"aGVsbG8="}]`, wantF: format.Responses},
	{name: "responses output of an MCP approval turn", in: `[{"type":"mcp_list_tools","id":"l","server_label":"s","tools":[]},{"type":"mcp_approval_request","id":"a","server_label":"s","name":"f","arguments":"{}"}]`, wantF: format.Responses},
	{name: "gemini code execution parts only", in: `[{"executableCode":{"language":"PYTHON","code":"print(1)"}},{"codeExecutionResult":{"outcome":"OUTCOME_OK","output":"1"}}]`, wantF: format.Gemini},
	{name: "gemini code execution parts and a call", in: `[{"executableCode":{"language":"PYTHON","code":"print(1)"}},{"functionCall":{"name":"f","args":{"x":1}}}]`, wantF: format.Gemini, calls: []wantCall{ok("f", `{"x":1}`)}},
	// A conversation forced to gemini or bedrock: a message holding a
	// call is no part or block of theirs, and fails, rather than being
	// passed over with its call.
	{name: "gemini forced on a gemini conversation", in: `[{"role":"user","parts":[{"text":"hi"}]},{"role":"model","parts":[{"functionCall":{"name":"delete","args":{}}}]}]`, f: format.Gemini,
		wantF: format.Gemini, calls: []wantCall{bad("", "[1] is not a gemini part: it has no functionCall but a key of another API's call")}},
	{name: "bedrock forced on an openai conversation", in: `[{"role":"user","content":"hi"},{"role":"assistant","tool_calls":[{"id":"a","type":"function","function":{"name":"delete","arguments":"{}"}}]}]`, f: format.Bedrock,
		wantF: format.Bedrock, calls: []wantCall{bad("", "[1] is not a bedrock content block")}},
	{name: "anthropic forced on a langchain list", in: `[{"type":"human","content":"hi"},{"type":"ai","content":"","tool_calls":[{"name":"delete","args":{},"id":"c1","type":"tool_call"}]}]`, f: format.Anthropic,
		wantF: format.Anthropic, calls: []wantCall{bad("", `[1] is of type "ai"`)}},
	{name: "responses forced on a wrapped langchain list", in: `[{"type":"ai","data":{"content":"","tool_calls":[{"name":"delete","args":{},"id":"c1"}]}}]`, f: format.Responses,
		wantF: format.Responses, calls: []wantCall{bad("", `[0] is of type "ai"`)}},
	{name: "responses forced on a langchain list without calls", in: `[{"type":"human","content":"hi"},{"type":"ai","content":"no"}]`, f: format.Responses, wantF: format.Responses},
	{name: "gemini forced on a conversation without calls", in: `[{"role":"user","parts":[{"text":"hi"}]},{"role":"model","parts":[{"text":"no"}]}]`, f: format.Gemini, wantF: format.Gemini},
	// A candidate on its own.
	{name: "gemini candidate alone", in: `{"content":{"role":"model","parts":[{"functionCall":{"name":"get_weather","args":{"city":"Berlin"}}}]},"finishReason":"STOP","index":0}`,
		wantF: format.Gemini, calls: []wantCall{ok("get_weather", berlin)}},
	{name: "gemini blocked prompt", in: `{"promptFeedback":{"blockReason":"SAFETY","safetyRatings":[]},"usageMetadata":{"promptTokenCount":8}}`, wantF: format.Gemini},
	{name: "gemini conversation with feedback keeps its calls", in: `{"contents":[{"role":"user","parts":[{"text":"hi"}]},{"role":"model","parts":[{"functionCall":{"name":"lookup","args":{"q":"x"}}}]}],"promptFeedback":{"blockReason":"SAFETY"}}`,
		wantF: format.GeminiContents, calls: []wantCall{{name: "lookup", args: `{"q":"x"}`}}},
	{name: "messages with feedback keep their calls", in: `{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"lookup","arguments":"{}"}}]}],"promptFeedback":{}}`,
		wantF: format.OpenAIMessages, calls: []wantCall{{name: "lookup", args: `{}`}}},
	{name: "gemini blocked prompt, SDK dump", in: `{"prompt_feedback":{"block_reason":"PROHIBITED_CONTENT"},"usage_metadata":{}}`, wantF: format.Gemini},
	{name: "gemini candidate alone, malformed", in: `{"content":{"parts":[]},"finishReason":"MALFORMED_FUNCTION_CALL"}`,
		wantF: format.Gemini, calls: []wantCall{bad("", "finishReason is MALFORMED_FUNCTION_CALL")}},
	{name: "gemini args string", in: `[{"functionCall":{"name":"a","args":"{}"}}]`, wantF: format.Gemini, calls: []wantCall{bad("a", "args is a string, not an object")}},
	{name: "gemini args array", in: `[{"functionCall":{"name":"a","args":[]}}]`, wantF: format.Gemini, calls: []wantCall{bad("a", "args is an array, not an object")}},
	{name: "gemini args number", in: `[{"functionCall":{"name":"a","args":0}}]`, wantF: format.Gemini, calls: []wantCall{bad("a", "args is a number, not an object")}},
	{name: "gemini functionCall not an object", in: `[{"functionCall":"a"}]`, wantF: format.Gemini, calls: []wantCall{bad("", "[0].functionCall is a string, not an object")}},
	{name: "gemini name missing", in: `{"parts":[{"functionCall":{"args":{}}}]}`, wantF: format.Gemini, calls: []wantCall{bad("", "parts[0].functionCall.name is missing")}},
	{name: "gemini no candidates", in: `{"candidates":[],"promptFeedback":{"blockReason":"SAFETY"}}`, wantF: format.Gemini},
	{name: "gemini candidate without content", in: `{"candidates":[{"finishReason":"SAFETY"}]}`, wantF: format.Gemini},
	{name: "gemini content null", in: `{"candidates":[{"content":null}]}`, wantF: format.Gemini},
	{name: "gemini content without parts", in: `{"candidates":[{"content":{"role":"model"},"finishReason":"MAX_TOKENS"}]}`, wantF: format.Gemini},
	{name: "gemini parts null", in: `{"parts":null}`, wantF: format.Gemini},
	{name: "gemini candidates not an array", in: `{"candidates":{}}`, wantF: format.Gemini, calls: []wantCall{bad("", "candidates is an object, not an array")}},
	{name: "gemini candidate not an object", in: `{"candidates":[[]]}`, wantF: format.Gemini, calls: []wantCall{bad("", "candidates[0] is an array, not an object")}},
	{name: "gemini content not an object", in: `{"candidates":[{"content":"x"}]}`, wantF: format.Gemini, calls: []wantCall{bad("", "candidates[0].content is a string, not an object")}},
	{name: "gemini parts not an array", in: `{"candidates":[{"content":{"parts":{}}}]}`, wantF: format.Gemini, calls: []wantCall{bad("", "candidates[0].content.parts is an object, not an array")}},
	{name: "gemini part of another format", in: `[{"functionCall":{"name":"a"}},{"name":"b","args":{}}]`, wantF: format.Gemini,
		calls: []wantCall{ok("a", `{}`), bad("", "[1] is not a gemini part")}},

	// calls
	{name: "calls object", in: `{"name":"get_weather","arguments":"{\"unit\": \"celsius\", \"city\": \"Berlin\"}"}`, wantF: format.Calls,
		calls: []wantCall{ok("get_weather", `{"city":"Berlin","unit":"celsius"}`)}},
	{name: "calls object with object arguments", in: `{"name":"a","arguments":{"n":1.50}}`, wantF: format.Calls, calls: []wantCall{ok("a", `{"n":1.50}`)}},
	{name: "calls object beats role", in: `{"role":"assistant","name":"a","arguments":"{}"}`, wantF: format.Calls, calls: []wantCall{ok("a", `{}`)}},
	{name: "calls list", in: `[{"name":"a","arguments":"{\"n\":1}"},{"name":"b","arguments":{"n":2}}]`, wantF: format.Calls,
		calls: []wantCall{ok("a", `{"n":1}`), ok("b", `{"n":2}`)}},
	{name: "calls invalid JSON (seed line)", in: `{"name": "get_weather", "arguments": "{not valid json"}`, wantF: format.Calls, calls: []wantCall{badIs("get_weather", value.ErrSyntax)}},
	{name: "calls arguments missing", in: `{"name":"a"}`, wantF: format.Calls, calls: []wantCall{bad("a", "arguments is missing")}},
	{name: "calls name missing", in: `{"arguments":"{}"}`, wantF: format.Calls, calls: []wantCall{bad("", "name is missing")}},
	{name: "calls name null", in: `[{"name":null,"arguments":"{}"}]`, wantF: format.Calls, calls: []wantCall{bad("", "[0].name is null, not a string")}},
	{name: "calls arguments array", in: `[{"name":"a","arguments":[]}]`, wantF: format.Calls, calls: []wantCall{bad("a", "[0].arguments is an array, not a JSON string or object")}},
	{name: "calls list with a stray element", in: `[{"name":"a","arguments":"{}"},"b",{"name":"c","arguments":"{}"}]`, wantF: format.Calls,
		calls: []wantCall{ok("a", `{}`), bad("", "[1] is a string, not an object"), ok("c", `{}`)}},
	{name: "calls first recognisable element decides", in: `[1,{"name":"a","arguments":"{}"},{"type":"tool_use","name":"b","input":{}}]`, wantF: format.Calls,
		calls: []wantCall{bad("", "[0] is a number, not an object"), ok("a", `{}`), bad("b", "[2].arguments is missing")}},

	// openai legacy function_call, in a whole completion
	{name: "openai completion legacy function_call", in: `{"object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":null,"function_call":{"name":"f","arguments":"{\"a\":1}"}},"finish_reason":"function_call"}]}`,
		wantF: format.OpenAI, calls: []wantCall{ok("f", `{"a":1}`)}},
	{name: "openai completion legacy function_call not JSON", in: `{"choices":[{"message":{"function_call":{"name":"f","arguments":"{\"a\":"}},"finish_reason":"function_call"}]}`,
		wantF: format.OpenAI, calls: []wantCall{{name: "f", reason: "choices[0].message.function_call.arguments is not a usable JSON object", is: value.ErrSyntax}}},
	{name: "openai completion legacy function_call without name", in: `{"choices":[{"message":{"function_call":{"arguments":"{}"}}}]}`,
		wantF: format.OpenAI, calls: []wantCall{bad("", "choices[0].message.function_call.name is missing")}},

	// bedrock
	{name: "bedrock converse two calls", in: `{"output":{"message":{"role":"assistant","content":[{"text":"Checking."},{"toolUse":{"toolUseId":"t1","name":"a","input":{"n":1}}},{"toolUse":{"toolUseId":"t2","name":"b","input":{}}}]}},"stopReason":"tool_use"}`,
		wantF: format.Bedrock, calls: []wantCall{ok("a", `{"n":1}`), ok("b", `{}`)}},
	{name: "bedrock converse text only", in: `{"output":{"message":{"role":"assistant","content":[{"text":"Hi."}]}},"stopReason":"end_turn"}`, wantF: format.Bedrock},
	{name: "bedrock message text only", in: `{"role":"assistant","content":[{"text":"Hi."}]}`, wantF: format.Bedrock},
	{name: "bedrock output without message", in: `{"output":{},"stopReason":"guardrail_intervened"}`, wantF: format.Bedrock},
	{name: "bedrock message not an object", in: `{"output":{"message":"x"}}`, wantF: format.Bedrock, calls: []wantCall{bad("", "output.message is a string, not an object")}},
	{name: "bedrock content not an array", in: `{"output":{"message":{"content":{}}}}`, wantF: format.Bedrock, calls: []wantCall{bad("", "output.message.content is an object, not an array")}},
	{name: "bedrock input a string", in: `{"output":{"message":{"content":[{"toolUse":{"name":"a","input":"{}"}}]}}}`, wantF: format.Bedrock,
		calls: []wantCall{bad("a", "output.message.content[0].toolUse.input is a string, not an object")}},
	{name: "bedrock input missing", in: `[{"toolUse":{"toolUseId":"t","name":"a"}}]`, wantF: format.Bedrock, calls: []wantCall{bad("a", "[0].toolUse.input is missing")}},
	{name: "bedrock toolUse not an object", in: `[{"toolUse":"a"}]`, wantF: format.Bedrock, calls: []wantCall{bad("", "[0].toolUse is a string, not an object")}},
	{name: "bedrock content list, text first", in: `[{"text":"Sure."},{"toolUse":{"name":"a","input":{"k":[1]}}}]`, wantF: format.Bedrock, calls: []wantCall{ok("a", `{"k":[1]}`)}},
	{name: "bedrock block of another API", in: `[{"toolUse":{"name":"a","input":{}}},{"type":"tool_use","name":"b","input":{}}]`, wantF: format.Bedrock,
		calls: []wantCall{ok("a", `{}`), bad("", "[1] is not a bedrock content block")}},
	{name: "gemini parts with a bedrock block", in: `{"parts":[{"functionCall":{"name":"a"}},{"toolUse":{"name":"b","input":{}}}]}`, wantF: format.Gemini,
		calls: []wantCall{ok("a", `{}`), bad("", "parts[1] is not a gemini part: it has no functionCall")}},
	{name: "a text element decides last", in: `[{"text":"Sure."},{"name":"a","arguments":"{}"}]`, wantF: format.Calls,
		calls: []wantCall{bad("", "[0].name is missing"), ok("a", `{}`)}},

	// cohere
	{name: "cohere response two calls", in: `{"id":"r","finish_reason":"TOOL_CALL","message":{"role":"assistant","tool_plan":"p","tool_calls":[` +
		oai("a", `"{\"n\":1}"`) + `,` + oai("b", `"{}"`) + `]}}`, wantF: format.Cohere, calls: []wantCall{ok("a", `{"n":1}`), ok("b", `{}`)}},
	{name: "cohere text only", in: `{"id":"r","finish_reason":"COMPLETE","message":{"role":"assistant","content":[{"type":"text","text":"Hi."}]}}`, wantF: format.Cohere},
	{name: "cohere arguments not JSON", in: `{"finish_reason":"TOOL_CALL","message":{"tool_calls":[` + oai("a", `"{\"n\""`) + `]}}`, wantF: format.Cohere,
		calls: []wantCall{{name: "a", reason: "message.tool_calls[0].function.arguments is not a usable JSON object", is: value.ErrSyntax}}},
	{name: "cohere tool_calls not an array", in: `{"finish_reason":"TOOL_CALL","message":{"tool_calls":"a"}}`, wantF: format.Cohere,
		calls: []wantCall{bad("", "message.tool_calls is a string, not an array")}},
	// A finish_reason of TOOL_CALL says the model called: with no call
	// to read, the response is a failed call, never zero calls.
	{name: "cohere TOOL_CALL without tool_calls", in: `{"id":"r","finish_reason":"TOOL_CALL","message":{"role":"assistant","tool_plan":"I will call f."}}`, wantF: format.Cohere,
		calls: []wantCall{bad("", "finish_reason is TOOL_CALL, but message.tool_calls holds no call")}},
	{name: "cohere TOOL_CALL with empty tool_calls", in: `{"finish_reason":"TOOL_CALL","message":{"role":"assistant","tool_calls":[]}}`, wantF: format.Cohere,
		calls: []wantCall{bad("", "finish_reason is TOOL_CALL, but message.tool_calls holds no call")}},
	{name: "cohere TOOL_CALL with null tool_calls", in: `{"finish_reason":"TOOL_CALL","message":{"role":"assistant","tool_calls":null}}`, wantF: format.Cohere,
		calls: []wantCall{bad("", "finish_reason is TOOL_CALL, but message.tool_calls holds no call")}},
	{name: "cohere TOOL_CALL forced", in: `{"finish_reason":"TOOL_CALL","message":{"role":"assistant"}}`, f: format.Cohere, wantF: format.Cohere,
		calls: []wantCall{bad("", "finish_reason is TOOL_CALL")}},
	{name: "cohere ERROR", in: `{"finish_reason":"ERROR","message":{"role":"assistant","content":[]}}`, wantF: format.Cohere,
		calls: []wantCall{bad("", "finish_reason is ERROR: the generation failed, and the response holds no answer")}},
	{name: "cohere TIMEOUT with a call", in: `{"finish_reason":"TIMEOUT","message":{"tool_calls":[` + oai("a", `"{}"`) + `]}}`, wantF: format.Cohere,
		calls: []wantCall{bad("", "finish_reason is TIMEOUT")}},
	{name: "cohere MAX_TOKENS without calls", in: `{"finish_reason":"MAX_TOKENS","message":{"role":"assistant","content":[{"type":"text","text":"Hi"}]}}`, wantF: format.Cohere},
	{name: "openai custom tool call keeps its name", in: completion(`{"id":"c","type":"custom","custom":{"name":"code_exec","input":"print(1)"}}`, oai("b", `"{}"`)), wantF: format.OpenAI,
		calls: []wantCall{bad("code_exec", "choices[0].message.tool_calls[0] is a custom tool's call, not a function's"), ok("b", `{}`)}},
	// A stop reason that says the model called a tool, with no call to
	// read: a failed call, never zero calls.
	{name: "openai finish_reason tool_calls without a call", in: `{"choices":[{"message":{"role":"assistant","content":"Hi.","tool_calls":[]},"finish_reason":"tool_calls"}]}`, wantF: format.OpenAI,
		calls: []wantCall{bad("", "choices[0].finish_reason is tool_calls, but the message holds no call")}},
	{name: "openai finish_reason function_call without a call", in: `{"choices":[{"message":{"role":"assistant","content":null},"finish_reason":"function_call"}]}`, wantF: format.OpenAI,
		calls: []wantCall{bad("", "choices[0].finish_reason is function_call, but the message holds no call")}},
	{name: "openai finish_reason stop without a call", in: `{"choices":[{"message":{"role":"assistant","content":"Hi."},"finish_reason":"stop"}]}`, wantF: format.OpenAI},
	{name: "anthropic stop_reason tool_use without a tool_use block", in: `{"type":"message","role":"assistant","content":[{"type":"text","text":"I will call f."}],"stop_reason":"tool_use"}`,
		wantF: format.Anthropic, calls: []wantCall{bad("", "stop_reason is tool_use, but content holds no call")}},
	{name: "anthropic stop_reason tool_use with a server tool block only", in: `{"type":"message","role":"assistant","content":[{"type":"server_tool_use","id":"s","name":"web_search","input":{}}],"stop_reason":"tool_use"}`,
		wantF: format.Anthropic, calls: []wantCall{bad("", "stop_reason is tool_use, but content holds no call")}},
	{name: "bedrock stopReason tool_use without a toolUse block", in: `{"output":{"message":{"role":"assistant","content":[{"text":"I will call f."}]}},"stopReason":"tool_use"}`,
		wantF: format.Bedrock, calls: []wantCall{bad("", "stopReason is tool_use, but output.message.content holds no call")}},
	{name: "bedrock stopReason end_turn without a toolUse block", in: `{"output":{"message":{"role":"assistant","content":[{"text":"Hi."}]}},"stopReason":"end_turn"}`, wantF: format.Bedrock},
	{name: "cohere forced on an openai message", in: `{"role":"assistant","tool_calls":[` + oai("a", `"{}"`) + `]}`, f: format.Cohere, wantF: format.Cohere, calls: []wantCall{ok("a", `{}`)}},

	// ollama
	{name: "ollama response", in: `{"model":"m","created_at":"t","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"a","arguments":{"n":1}}},{"function":{"index":1,"name":"b","arguments":{}}}]},"done":true}`,
		wantF: format.Ollama, calls: []wantCall{ok("a", `{"n":1}`), ok("b", `{}`)}},
	{name: "ollama text only", in: `{"model":"m","created_at":"t","message":{"role":"assistant","content":"Hi."},"done_reason":"stop","done":true}`, wantF: format.Ollama},
	{name: "ollama arguments a string", in: `{"message":{"tool_calls":[{"function":{"name":"a","arguments":"{}"}}]},"done":true}`, wantF: format.Ollama,
		calls: []wantCall{bad("a", "message.tool_calls[0].function.arguments is a string, not an object")}},
	// The Azure OpenAI JavaScript SDK's camel case, and a call in
	// another API's shape among an openai message's content parts.
	{name: "openai forced on its message of text and refusal parts", in: `{"role":"assistant","content":[{"type":"text","text":"No."},{"type":"refusal","refusal":"I can't."}]}`,
		f: format.OpenAI, wantF: format.OpenAI},
	{name: "openai completion in camel case", in: `{"choices":[{"index":0,"message":{"role":"assistant","content":null,"toolCalls":[{"id":"1","type":"function","function":{"name":"a","arguments":"{}"}}]},"finishReason":"tool_calls"}]}`,
		wantF: format.OpenAI, calls: []wantCall{ok("a", `{}`)}},
	{name: "openai message in camel case", in: `{"role":"assistant","content":null,"functionCall":{"name":"a","arguments":"{\"n\":1}"}}`,
		wantF: format.OpenAI, calls: []wantCall{ok("a", `{"n":1}`)}},
	{name: "openai camel case finishReason without a call", in: `{"choices":[{"index":0,"message":{"role":"assistant","content":null},"finishReason":"tool_calls"}]}`,
		wantF: format.OpenAI, calls: []wantCall{bad("", "choices[0].finish_reason is tool_calls, but the message holds no call")}},
	{name: "openai content part that is anthropic's call", in: `{"choices":[{"index":0,"message":{"role":"assistant","content":[{"type":"text","text":"Done."},{"type":"tool_use","id":"t","name":"a","input":{}}]},"finish_reason":"stop"}]}`,
		wantF: format.OpenAI, calls: []wantCall{bad("", "choices[0].message.content[1] is a call in another API's shape, in an openai message")}},
	{name: "ollama entry without function", in: `{"message":{"tool_calls":[{"name":"a"}]},"done":true}`, wantF: format.Ollama,
		calls: []wantCall{bad("", "message.tool_calls[0] has no function object")}},
	{name: "ollama forced on a message", in: `{"role":"assistant","tool_calls":[{"function":{"name":"a","arguments":{}}}]}`, f: format.Ollama, wantF: format.Ollama, calls: []wantCall{ok("a", `{}`)}},

	// langchain
	{name: "langchain invalid tool call is a failed call", in: `{"type":"ai","content":"","name":null,"tool_calls":[{"name":"a","args":{"n":1},"id":"1","type":"tool_call"}],` +
		`"invalid_tool_calls":[{"name":"b","args":"{\"n\": ","id":"2","error":"Function b arguments are not valid JSON.","type":"invalid_tool_call"}]}`,
		wantF: format.LangChain, calls: []wantCall{ok("a", `{"n":1}`), {name: "b",
			reason: `invalid_tool_calls[0] is a call langchain could not read: "Function b arguments are not valid JSON."; its args are "{\"n\": "`, is: value.ErrSyntax}}},
	{name: "langchain invalid tool call without args", in: `{"type":"ai","tool_calls":[],"invalid_tool_calls":[{"name":null,"args":null,"id":"2","error":null}]}`,
		wantF: format.LangChain, calls: []wantCall{bad("", "invalid_tool_calls[0] is a call langchain could not read; its args are null")}},
	{name: "langchain invalid tool call not an object", in: `{"type":"ai","invalid_tool_calls":[1]}`, wantF: format.LangChain,
		calls: []wantCall{bad("", "invalid_tool_calls[0] is a number, not an object")}},
	{name: "langchain args a string", in: `{"type":"ai","tool_calls":[{"name":"a","args":"{}","id":"1"}]}`, wantF: format.LangChain, calls: []wantCall{bad("a", "tool_calls[0].args is a string, not an object")}},
	{name: "langchain tool call of another type", in: `{"type":"ai","tool_calls":[{"name":"a","args":{},"type":"function"}]}`, wantF: format.LangChain,
		calls: []wantCall{bad("", `tool_calls[0].type is "function", not "tool_call"`)}},
	// The provider's calls that additional_kwargs keeps alone count.
	{name: "langchain function_call in additional_kwargs", in: `{"type":"ai","content":"","additional_kwargs":{"function_call":{"name":"a","arguments":"{\"n\":1}"}},"tool_calls":[],"invalid_tool_calls":[]}`,
		wantF: format.LangChain, calls: []wantCall{ok("a", `{"n":1}`)}},
	{name: "langchain tool_calls in additional_kwargs of an old dump", in: `{"type":"ai","data":{"content":"","additional_kwargs":{"tool_calls":[{"id":"1","type":"function","function":{"name":"a","arguments":"{}"}},{"id":"2","type":"function","function":{"name":"b","arguments":"{"}}]},"type":"ai"}}`,
		wantF: format.LangChain, calls: []wantCall{ok("a", `{}`), {name: "b", reason: "data.additional_kwargs.tool_calls[1].function.arguments is not a usable JSON object", is: value.ErrSyntax}}},
	{name: "langchain additional_kwargs beside parsed tool_calls is not read twice", in: `{"type":"ai","additional_kwargs":{"tool_calls":[{"id":"1","type":"function","function":{"name":"a","arguments":"{}"}}]},"tool_calls":[{"name":"a","args":{},"id":"1","type":"tool_call"}]}`,
		wantF: format.LangChain, calls: []wantCall{ok("a", `{}`)}},
	{name: "langchain content blocks are not read twice", in: `{"type":"ai","content":[{"type":"text","text":"x"},{"type":"tool_use","id":"1","name":"a","input":{}}],"tool_calls":[{"name":"a","args":{},"id":"1","type":"tool_call"}]}`,
		wantF: format.LangChain, calls: []wantCall{ok("a", `{}`)}},
	{name: "langchain JS constructor of a chunk", in: `{"lc":1,"type":"constructor","id":["langchain_core","messages","AIMessageChunk"],"kwargs":{"content":[],"tool_call_chunks":[],"tool_calls":[{"name":"a","args":{"n":1},"id":"1","type":"tool_call"}],"invalid_tool_calls":[]}}`,
		wantF: format.LangChain, calls: []wantCall{ok("a", `{"n":1}`)}},
	{name: "langchain messages_to_dict data not an object", in: `{"type":"ai","data":[]}`, wantF: format.LangChain, calls: []wantCall{bad("", "data is an array, not an object")}},
	{name: "langchain invalid_tool_calls not an array", in: `{"type":"ai","tool_calls":[],"invalid_tool_calls":{}}`, wantF: format.LangChain,
		calls: []wantCall{bad("", "invalid_tool_calls is an object, not an array")}},
	{name: "langchain text only", in: `{"type":"ai","content":"Hi.","tool_calls":[],"invalid_tool_calls":[]}`, wantF: format.LangChain},
	{name: "langchain tool_calls list with an invalid one", in: `[{"name":"a","args":{},"type":"tool_call"},{"name":"b","args":"{","error":null,"type":"invalid_tool_call"}]`,
		wantF: format.LangChain, calls: []wantCall{ok("a", `{}`), {name: "b", reason: `[1] is a call langchain could not read; its args are "{"`, is: value.ErrSyntax}}},

	// mcp
	{name: "mcp request", in: `{"jsonrpc":"2.0","id":"r1","method":"tools/call","params":{"name":"a","arguments":{"n":1},"_meta":{"progressToken":1}}}`, wantF: format.MCP, calls: []wantCall{ok("a", `{"n":1}`)}},
	{name: "mcp request without arguments", in: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}`, wantF: format.MCP, calls: []wantCall{ok("a", `{}`)}},
	{name: "mcp arguments a string", in: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","arguments":"{}"}}`, wantF: format.MCP,
		calls: []wantCall{bad("a", "params.arguments is a string, not an object")}},
	{name: "mcp params missing", in: `{"jsonrpc":"2.0","id":1,"method":"tools/call"}`, wantF: format.MCP, calls: []wantCall{bad("", "params is missing")}},
	{name: "mcp params not an object", in: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":[]}`, wantF: format.MCP, calls: []wantCall{bad("", "params is an array, not an object")}},
	{name: "mcp another method", in: `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, wantF: format.MCP},
	{name: "mcp a response", in: `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"ok"}]}}`, wantF: format.MCP},
	{name: "mcp batch", in: `[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","arguments":{}}},{"jsonrpc":"2.0","method":"notifications/progress"},` +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"b","arguments":{"n":2}}}]`, wantF: format.MCP, calls: []wantCall{ok("a", `{}`), ok("b", `{"n":2}`)}},
	{name: "mcp batch with something else", in: `[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}},{"name":"b","arguments":{}}]`, wantF: format.MCP,
		calls: []wantCall{ok("a", `{}`), bad("", "[1] is not a tools/call request")}},
	{name: "mcp batch params missing", in: `[{"jsonrpc":"2.0","id":1,"method":"tools/call"}]`, wantF: format.MCP, calls: []wantCall{bad("", "[0].params is missing")}},

	// zero calls in any format
	{name: "null", in: `null`, wantF: format.Auto},
	{name: "plain text", in: `"It is sunny."`, wantF: format.Auto},
	{name: "empty array", in: `[]`, wantF: format.Auto},
	{name: "null forced", in: `null`, f: format.Gemini, wantF: format.Gemini},
	{name: "plain text forced", in: `"It is sunny."`, f: format.Anthropic, wantF: format.Anthropic},
	{name: "empty array forced", in: `[]`, f: format.Calls, wantF: format.Calls},

	// forcing
	{name: "forced openai on a completion", in: completion(oai("a", `"{}"`)), f: format.OpenAI, wantF: format.OpenAI, calls: []wantCall{ok("a", `{}`)}},
	{name: "forced openai on a message", in: `{"role":"assistant","content":"hi"}`, f: format.OpenAI, wantF: format.OpenAI},
	{name: "forced responses on a list", in: `[{"type":"function_call","name":"a","arguments":"{}"}]`, f: format.Responses, wantF: format.Responses, calls: []wantCall{ok("a", `{}`)}},
	{name: "forced responses on an openai list", in: `[` + oai("a", `"{}"`) + `]`, f: format.Responses, wantF: format.Responses,
		calls: []wantCall{bad("", `[0] is of type "function", not "function_call"`)}},
	{name: "forced anthropic on a message", in: `{"type":"message","content":[{"type":"tool_use","name":"a","input":{}}]}`, f: format.Anthropic, wantF: format.Anthropic, calls: []wantCall{ok("a", `{}`)}},
	{name: "forced gemini on an openai list", in: `[` + oai("a", `"{}"`) + `]`, f: format.Gemini, wantF: format.Gemini, calls: []wantCall{bad("", "[0] is not a gemini part")}},
	{name: "forced gemini on a content", in: `{"parts":[{"functionCall":{"name":"a","args":{}}}]}`, f: format.Gemini, wantF: format.Gemini, calls: []wantCall{ok("a", `{}`)}},
	{name: "forced openai on a calls list", in: `[{"name":"a","arguments":"{}"}]`, f: format.OpenAI, wantF: format.OpenAI, calls: []wantCall{bad("", "[0] has no function object")}},
	{name: "forced calls on a calls object", in: `{"name":"a","arguments":"{}"}`, f: format.Calls, wantF: format.Calls, calls: []wantCall{ok("a", `{}`)}},
	{name: "forced calls on a tool_use list", in: `[{"type":"tool_use","name":"a","input":{}}]`, f: format.Calls, wantF: format.Calls, calls: []wantCall{bad("a", "[0].arguments is missing")}},
}

func TestExtract(t *testing.T) { runExtractTests(t, extractTests) }

func runExtractTests(t *testing.T, tests []extractTest) {
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := value.Parse(tt.in)
			if err != nil {
				t.Fatalf("bad test input: %v", err)
			}
			calls, f, err := readCalls(r, tt.f, tt.lim)
			if err != nil {
				t.Fatalf("Extract: %v", err)
			}
			if f != tt.wantF {
				t.Errorf("format = %q, want %q", f, tt.wantF)
			}
			if len(calls) != len(tt.calls) {
				t.Fatalf("got %d calls %v, want %d", len(calls), calls, len(tt.calls))
			}
			if len(calls) == 0 && calls != nil {
				t.Errorf("zero calls should be nil")
			}
			for i, w := range tt.calls {
				checkCall(t, i, calls[i], w)
			}
		})
	}
}

func checkCall(t *testing.T, i int, c Call, w wantCall) {
	t.Helper()
	if c.Name != w.name {
		t.Errorf("call %d name = %q, want %q", i, c.Name, w.name)
	}
	if w.reason == "" {
		if c.Err != nil {
			t.Errorf("call %d error: %v", i, c.Err)
		} else if got := c.Args.String(); got != w.args {
			t.Errorf("call %d args = %s, want %s", i, got, w.args)
		}
		return
	}
	var ae *ArgumentsError
	if !errors.As(c.Err, &ae) {
		t.Fatalf("call %d error = %v (%T), want *ArgumentsError", i, c.Err, c.Err)
	}
	if ae.Index != i {
		t.Errorf("call %d error index = %d", i, ae.Index)
	}
	if !strings.Contains(c.Err.Error(), w.reason) {
		t.Errorf("call %d error = %q, want it to contain %q", i, c.Err, w.reason)
	}
	if w.is != nil {
		if !errors.Is(c.Err, w.is) {
			t.Errorf("call %d error = %v, want errors.Is %v", i, c.Err, w.is)
		}
		var ve *value.Error
		if !errors.As(c.Err, &ve) {
			t.Errorf("call %d error does not wrap *value.Error", i)
		}
	} else if ae.Err != nil {
		t.Errorf("call %d wraps %v, want nothing", i, ae.Err)
	}
	if c.Args.Kind() != value.Null {
		t.Errorf("call %d failed but has args %s", i, c.Args)
	}
}

func TestExtractInvalidUTF8Arguments(t *testing.T) {
	// value.Parse never lets raw invalid UTF-8 through, so build the tree by
	// hand, as a caller holding its own decoded response might.
	fn, _ := value.ObjectOf(value.Member{Key: "name", Value: value.StringOf("a")},
		value.Member{Key: "arguments", Value: value.StringOf("{\"city\":\"\xff\"}")})
	entry, _ := value.ObjectOf(value.Member{Key: "function", Value: fn})
	r := value.ArrayOf(entry)
	calls, f, err := readCalls(r, format.Auto, value.Limits{})
	if err != nil || f != format.OpenAI || len(calls) != 1 {
		t.Fatalf("Extract = %v, %q, %v", calls, f, err)
	}
	checkCall(t, 0, calls[0], badIs("a", value.ErrInvalidUTF8))
}

func TestShapeErrors(t *testing.T) {
	tests := []struct {
		in   string
		f    format.Format
		want string
	}{
		{`5`, format.Auto, "response is a number, not a known format"},
		{`true`, format.Auto, "response is a boolean, not a known format"},
		{`{}`, format.Auto, "response is an empty object, not a known format"},
		{`{"foo":1,"bar":2}`, format.Auto, "response is an object with keys [bar foo], not a known format"},
		{`[1,2]`, format.Auto, "response is an array of 2 elements, none of them a call or an item of a known format, not a known format"},
		{`[[],{"type":"zz_unknown_item"},{"type":7}]`, format.Auto, "response is an array of 3 elements"},
		{`{"id":"x","choices":[]}`, format.Anthropic, "response is an object with keys [choices id], not an anthropic message or content list"},
		{`{"type":"message","content":[]}`, format.OpenAI, "response is an object with keys [content type], not an openai chat completion, message or tool_calls list"},
		{`{"role":"model","parts":[]}`, format.OpenAI, "not an openai chat completion"},
		{`{"name":"a","arguments":"{}"}`, format.Gemini, "response is an object with keys [arguments name], not a gemini response, content or parts list"},
		{`{"choices":[]}`, format.Calls, "not a call object or list of calls"},
		{`{"role":"assistant","content":"x"}`, format.Responses, "not an openai responses object or output list"},
		{`{"object":"response","output":"x"}`, format.Gemini, "not a gemini response"},
		{`1.5`, format.Calls, "response is a number, not a call object or list of calls"},
		{`false`, format.OpenAI, "response is a boolean, not an openai"},
		{`{"lc":1,"type":"constructor","id":["langchain","schema","messages","HumanMessage"],"kwargs":{"content":"hi"}}`, format.LangChain,
			"response is an object with keys [id kwargs lc type], not a langchain AIMessage or its tool_calls list"},
		{`{"lc":1,"type":"constructor","id":["langchain","schema","messages","HumanMessage"],"kwargs":{"content":"hi"}}`, format.Auto, "not a known format"},
		{`{"choices":[]}`, format.OpenAIStream, "not an openai chat completion stream, as chunks or SSE"},
		{`{"role":"assistant","content":"x"}`, format.Bedrock, "not a bedrock converse response, message or content list"},
		{`{"role":"assistant","content":"x"}`, format.MCP, "not an mcp tools/call request or batch of them"},
		// No openai message has an object content: not a text answer.
		{`{"role":"assistant","content":{"x":1}}`, format.Auto, "response is an object with keys [content role], not a known format"},
		{`{"content":{"role":"model"},"finishReason":"STOP"}`, format.Auto, "not a known format"},
		// A format forced on another API's message does not read it as
		// a message without calls.
		{`{"type":"message","role":"assistant","content":[{"type":"tool_use","id":"t","name":"f","input":{}}]}`, format.Cohere, "not a cohere"},
		{`{"type":"message","role":"assistant","content":[{"type":"tool_use","id":"t","name":"f","input":{}}]}`, format.Ollama, "not an ollama"},
		{`{"role":"model","parts":[{"functionCall":{"name":"f","args":{}}}]}`, format.Ollama, "not an ollama"},
		{`{"role":"model","parts":[{"functionCall":{"name":"f","args":{}}}]}`, format.Cohere, "not a cohere"},
	}
	for _, tt := range tests {
		r, err := value.Parse(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		calls, f, err := readCalls(r, tt.f, value.Limits{})
		var se *ShapeError
		if !errors.As(err, &se) {
			t.Errorf("Extract(%s, %q) error = %v, want *ShapeError", tt.in, tt.f, err)
			continue
		}
		if se.Want != tt.f || f != tt.f || calls != nil {
			t.Errorf("Extract(%s, %q) = %v, %q, Want %q", tt.in, tt.f, calls, f, se.Want)
		}
		if !strings.HasPrefix(err.Error(), tt.want) && !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Extract(%s, %q) error = %q, want %q", tt.in, tt.f, err, tt.want)
		}
	}
}

func TestShapeErrorBoundsKeys(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{`)
	for i := range 12 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"k` + string(rune('a'+i)) + `":1`)
	}
	b.WriteString(`,"` + strings.Repeat("é", 100) + `":1}`)
	r, err := value.Parse(b.String())
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = readCalls(r, format.Auto, value.Limits{})
	want := "response is an object with keys [ka kb kc kd ke kf kg kh ki kj …], not a known format"
	if err == nil || err.Error() != want {
		t.Errorf("error = %q, want %q", err, want)
	}
	if got := clip(strings.Repeat("é", 100)); got != strings.Repeat("é", 20)+"…" {
		t.Errorf("clip = %q", got)
	}
	if got := clip("a" + strings.Repeat("é", 100)); got != "a"+strings.Repeat("é", 19)+"…" {
		t.Errorf("clip = %q", got)
	}
	if got := clip("city"); got != "city" {
		t.Errorf("clip = %q", got)
	}
}

func TestErrorStrings(t *testing.T) {
	r, _ := value.Parse(completion(oai("a", `"{\"city\":\"Paris\",\"city\":\"Berlin\"}"`), oai("b", `5`)))
	calls, _, _ := readCalls(r, format.Auto, value.Limits{})
	want := []string{
		`call 0: choices[0].message.tool_calls[0].function.arguments is not a usable JSON object: duplicate key at byte 16: key "city" appears twice`,
		`call 1: choices[0].message.tool_calls[1].function.arguments is a number, not a JSON string or object`,
	}
	for i, w := range want {
		if got := calls[i].Err.Error(); got != w {
			t.Errorf("call %d error = %q, want %q", i, got, w)
		}
	}
	if _, _, err := readCalls(r, format.Format("xml"), value.Limits{}); err == nil ||
		err.Error() != `unknown response format "xml": want one of auto, openai, openai-stream, responses, responses-stream, anthropic, anthropic-stream, gemini, bedrock, bedrock-stream, cohere, ollama, langchain, mcp, calls, hermes, qwen-coder, llama-json, mistral, deepseek, harmony, pythonic, openai-messages, anthropic-messages, gemini-contents, langchain-messages, otlp` {
		t.Errorf("unknown format error = %v", err)
	}
}

// TestZeroCallsEveryFormat checks the rule that holds whatever the format.
func TestZeroCallsEveryFormat(t *testing.T) {
	for _, in := range []value.Value{value.Value{}, value.StringOf("It is sunny."), value.ArrayOf()} {
		for _, f := range everyFormat() {
			calls, got, err := readCalls(in, f, value.Limits{})
			if err != nil || calls != nil || got != f {
				t.Errorf("Extract(%s, %q) = %v, %q, %v", in, f, calls, got, err)
			}
		}
	}
}

func TestExtractAllocatesOnlyTheResult(t *testing.T) {
	r, _ := value.Parse(completion(oai("a", berlin), oai("b", `{}`)))
	allocs := testing.AllocsPerRun(100, func() {
		if _, _, err := readCalls(r, format.Auto, value.Limits{}); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 1 {
		t.Errorf("Extract allocates %v times, want 1", allocs)
	}
}

// With a Parser that has grown, arguments strings cost nothing either;
// the calls read the same as ReadCalls's, until the Reset.
func TestExtractWithAllocatesOnlyTheResult(t *testing.T) {
	r, _ := value.Parse(completion(oai("a", `"{\"city\":\"Berl\\u00efn\"}"`), oai("b", `"{\"n\":[1,2]}"`)))
	want, _, _ := readCalls(r, format.Auto, value.Limits{})
	var p value.Parser
	allocs := testing.AllocsPerRun(100, func() {
		calls, _, err := Options{Parser: &p}.ReadCalls(r, format.Auto)
		if err != nil || len(calls) != 2 || !value.Equal(calls[0].Args, want[0].Args) || !value.Equal(calls[1].Args, want[1].Args) {
			t.Fatal(calls, err)
		}
		p.Reset()
	})
	if allocs != 1 {
		t.Errorf("ExtractWith allocates %v times, want 1", allocs)
	}
}

// With Options.Calls holding the last response's calls, reading the next
// allocates nothing at all, and nothing of the last response is left in
// what it returns: a call that failed before, or one more call, does not
// stay behind.
func TestOptionsCallsReused(t *testing.T) {
	three, _ := value.Parse(completion(oai("a", berlin), oai("b", `"not json"`), oai("c", `{}`)))
	two, _ := value.Parse(completion(oai("d", `"{\"n\":[1,2]}"`), oai("e", berlin)))
	var p value.Parser
	o := Options{Parser: &p}
	for range 3 {
		for _, r := range []value.Value{three, two} {
			want, _, _ := readCalls(r, format.Auto, value.Limits{})
			p.Reset()
			calls, _, err := o.ReadCalls(r, format.Auto)
			if err != nil || len(calls) != len(want) {
				t.Fatalf("%d calls, %v; want %d", len(calls), err, len(want))
			}
			for i := range want {
				if calls[i].Name != want[i].Name || (calls[i].Err == nil) != (want[i].Err == nil) || !value.Equal(calls[i].Args, want[i].Args) {
					t.Errorf("call %d: %+v, want %+v", i, calls[i], want[i])
				}
			}
			if cap(calls) > cap(o.Calls) {
				o.Calls = calls
			}
		}
	}
	allocs := testing.AllocsPerRun(100, func() {
		p.Reset()
		if _, _, err := o.ReadCalls(two, format.Auto); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("Extract into Options.Calls allocates %v times, want 0", allocs)
	}
}

// A text of several Python calls (ACEBench's form) read into
// Options.Calls, after texts of other lengths, reads as ReadCalls reads
// it alone, and allocates nothing: the reader keeps its calls' memory for
// the next text.
func TestPythonCallsReused(t *testing.T) {
	texts := []value.Value{
		value.StringOf(`[get_weather(city='Berlin', days=3), book(hotel="Adlon", nights=2), cancel(id=7)]`),
		value.StringOf(`[a(x=1), b(y=[1, 2])]`),
		value.StringOf(`only(one={'k': None})`),
	}
	var p value.Parser
	o := Options{Parser: &p}
	for range 3 {
		for _, r := range texts {
			want, _, _ := readCalls(r, format.Pythonic, value.Limits{})
			p.Reset()
			calls, _, err := o.ReadCalls(r, format.Pythonic)
			if err != nil || len(calls) != len(want) || len(want) == 0 {
				t.Fatalf("%d calls, %v; want %d", len(calls), err, len(want))
			}
			for i := range want {
				if calls[i].Name != want[i].Name || calls[i].Err != nil || !value.Equal(calls[i].Args, want[i].Args) {
					t.Errorf("call %d: %+v, want %+v", i, calls[i], want[i])
				}
			}
			if cap(calls) > cap(o.Calls) {
				o.Calls = calls
			}
		}
	}
	if raceEnabled {
		return // the text readers' pool drops what it holds
	}
	if allocs := testing.AllocsPerRun(100, func() {
		p.Reset()
		if _, _, err := o.ReadCalls(texts[0], format.Pythonic); err != nil {
			t.Fatal(err)
		}
	}); allocs != 0 {
		t.Errorf("three Python calls into Options.Calls allocate %v times, want 0", allocs)
	}
}

// readCalls is ReadCalls with the limits lim and no other option, as
// most tests read.
func readCalls(r value.Value, f format.Format, lim value.Limits) ([]Call, format.Format, error) {
	return Options{Limits: lim}.ReadCalls(r, f)
}

// readRun is Read with the zero Options.
func readRun(r value.Value, f format.Format) (Run, format.Format, error) {
	return Options{}.Read(r, f)
}

// A kept reader keeps the room of its last text's Python calls, cleared
// of their values, up to keptPyCalls; a text of more leaves none behind.
func TestKeptCalls(t *testing.T) {
	few := make([]pycall.Call, 3, 8)
	few[0].Name = "get_weather"
	if kept := keptCalls(few); len(kept) != 0 || cap(kept) != 8 || few[0].Name != "" {
		t.Errorf("kept %d of room %d, first call %q", len(kept), cap(kept), few[0].Name)
	}
	if kept := keptCalls(make([]pycall.Call, keptPyCalls+1)); kept != nil {
		t.Errorf("kept room %d past %d", cap(kept), keptPyCalls)
	}
}
