package response

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

// The streams of f({"x":1}), one event a string.

// openaiChunks follow the chat completion stream of the function calling
// guide, "Streaming": the first delta has the id and name, then the
// arguments come in fragments, and a last chunk has the finish_reason.
// https://platform.openai.com/docs/guides/function-calling#streaming
var openaiChunks = []string{
	chunk(`{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":""}}]}`, "null"),
	chunk(`{"tool_calls":[{"index":0,"id":null,"type":null,"function":{"name":null,"arguments":"{\"x\""}}]}`, "null"),
	chunk(`{"tool_calls":[{"index":0,"function":{"arguments":":1}"}}]}`, "null"),
	chunk(`{}`, `"tool_calls"`),
}

// responsesEvents follow the Responses API stream of the same guide.
var responsesEvents = []string{
	`{"type":"response.created","sequence_number":0,"response":{"id":"resp_1","object":"response","status":"in_progress","output":[]}}`,
	`{"type":"response.output_item.added","sequence_number":1,"output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"f","arguments":"","status":"in_progress"}}`,
	`{"type":"response.function_call_arguments.delta","sequence_number":2,"item_id":"fc_1","output_index":0,"delta":"{\"x\""}`,
	`{"type":"response.function_call_arguments.delta","sequence_number":3,"item_id":"fc_1","output_index":0,"delta":":1}"}`,
	`{"type":"response.function_call_arguments.done","sequence_number":4,"item_id":"fc_1","output_index":0,"arguments":"{\"x\":1}"}`,
	`{"type":"response.output_item.done","sequence_number":5,"output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"f","arguments":"{\"x\":1}","status":"completed"}}`,
	`{"type":"response.completed","sequence_number":6,"response":{"id":"resp_1","object":"response","status":"completed","output":[{"type":"function_call","id":"fc_1","call_id":"call_1","name":"f","arguments":"{\"x\":1}","status":"completed"}]}}`,
}

// anthropicEvents follow "Streaming request with tool use" of the
// streaming guide: a text block, a ping, then a tool_use block whose
// first input_json_delta is empty.
// https://docs.anthropic.com/en/docs/build-with-claude/streaming
var anthropicEvents = []string{
	`{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}}`,
	`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
	`{"type":"ping"}`,
	`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"ok"}}`,
	`{"type":"content_block_stop","index":0}`,
	`{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"f","input":{}}}`,
	`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":""}}`,
	`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"x\""}}`,
	`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":":1}"}}`,
	`{"type":"content_block_stop","index":1}`,
	`{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":1}}`,
	`{"type":"message_stop"}`,
}

// bedrockEvents follow the ConverseStream example of the tool use
// examples (boto3's events, one key each; a text block has no start) and
// the ConverseStreamOutput reference.
// https://docs.aws.amazon.com/bedrock/latest/userguide/tool-use-examples.html
// https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStreamOutput.html
var bedrockEvents = []string{
	`{"messageStart":{"role":"assistant"}}`,
	`{"contentBlockDelta":{"delta":{"text":"ok"},"contentBlockIndex":0}}`,
	`{"contentBlockStop":{"contentBlockIndex":0}}`,
	`{"contentBlockStart":{"start":{"toolUse":{"toolUseId":"tooluse_1","name":"f"}},"contentBlockIndex":1}}`,
	`{"contentBlockDelta":{"delta":{"toolUse":{"input":"{\"x\""}},"contentBlockIndex":1}}`,
	`{"contentBlockDelta":{"delta":{"toolUse":{"input":":1}"}},"contentBlockIndex":1}}`,
	`{"contentBlockStop":{"contentBlockIndex":1}}`,
	`{"messageStop":{"stopReason":"tool_use"}}`,
	`{"metadata":{"usage":{"inputTokens":1,"outputTokens":1,"totalTokens":2},"metrics":{"latencyMs":1}}}`,
}

// customEvents are the stream of a custom tool's call, after the custom
// tools section of the function calling guide and the streaming events
// reference (response.custom_tool_call_input.delta and .done): not a
// function call, so a failed call that keeps its name.
// https://platform.openai.com/docs/guides/function-calling#custom-tools
// https://platform.openai.com/docs/api-reference/responses-streaming
var customEvents = []string{
	`{"type":"response.created","sequence_number":0,"response":{"id":"resp_1","object":"response","status":"in_progress","output":[]}}`,
	`{"type":"response.output_item.added","sequence_number":1,"output_index":0,"item":{"type":"custom_tool_call","id":"ctc_1","call_id":"call_1","name":"code_exec","input":"","status":"in_progress"}}`,
	`{"type":"response.custom_tool_call_input.delta","sequence_number":2,"output_index":0,"item_id":"ctc_1","delta":"print("}`,
	`{"type":"response.custom_tool_call_input.delta","sequence_number":3,"output_index":0,"item_id":"ctc_1","delta":"1)"}`,
	`{"type":"response.custom_tool_call_input.done","sequence_number":4,"output_index":0,"item_id":"ctc_1","input":"print(1)"}`,
	`{"type":"response.output_item.done","sequence_number":5,"output_index":0,"item":{"type":"custom_tool_call","id":"ctc_1","call_id":"call_1","name":"code_exec","input":"print(1)","status":"completed"}}`,
	`{"type":"response.completed","sequence_number":6,"response":{"id":"resp_1","object":"response","status":"completed","output":[{"type":"custom_tool_call","id":"ctc_1","call_id":"call_1","name":"code_exec","input":"print(1)","status":"completed"}]}}`,
}

const customFails = `[1].item is of type "custom_tool_call", not "function_call"`

// The terminal events of the streams, for tests whose streams are
// whole.
const (
	responsesEnd = `{"type":"response.completed","sequence_number":99,"response":{"id":"resp_1","object":"response","status":"completed"}}`
	anthropicEnd = `{"type":"message_stop"}`
	bedrockEnd   = `{"messageStop":{"stopReason":"tool_use"}}`
)

// chunk is a chat.completion.chunk of choice 0.
func chunk(delta, finish string) string {
	return `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":` +
		delta + `,"finish_reason":` + finish + `}]}`
}

// tcChunk is a chunk with one tool_calls fragment, entry.
func tcChunk(entry string) string { return chunk(`{"tool_calls":[`+entry+`]}`, "null") }

var finishChunk = chunk(`{}`, `"tool_calls"`)

func array(events []string) string { return "[" + strings.Join(events, ",") + "]" }

// transcript is the SSE text of events as a JSON string.
func transcript(events []string, done bool) string { return sseString(sseText(events, done)) }

// sseText is the SSE text of events: each named by its type when it has
// one, as Anthropic and the Responses API name them, and the chat
// completions' closing [DONE] when done is set.
func sseText(events []string, done bool) string {
	var b strings.Builder
	for _, e := range events {
		v, err := value.Parse(e)
		if err != nil {
			panic(err)
		}
		if t, ok := v.Get("type"); ok {
			b.WriteString("event: " + t.Str() + "\n")
		}
		b.WriteString("data: " + e + "\n\n")
	}
	if done {
		b.WriteString("data: [DONE]\n\n")
	}
	return b.String()
}

// sseString is text as a JSON string.
func sseString(text string) string {
	q, _ := json.Marshal(text)
	return string(q)
}

// with is events with the event at i replaced by e, or left out when e is
// empty.
func with(events []string, i int, e string) []string {
	out := append([]string(nil), events[:i]...)
	if e != "" {
		out = append(out, e)
	}
	return append(out, events[i+1:]...)
}

var streamTests = []extractTest{
	// openai chat completion chunks
	{name: "openai chunks", in: array(openaiChunks), wantF: format.OpenAIStream, calls: []wantCall{ok("f", `{"x":1}`)}},
	{name: "openai SSE", in: transcript(openaiChunks, true), wantF: format.OpenAIStream, calls: []wantCall{ok("f", `{"x":1}`)}},
	{name: "openai SSE with CRLF and comments", in: sseString(": keep-alive\r\ndata: " + openaiChunks[0] + "\r\n\r\ndata: " + openaiChunks[1] + "\r\n\r\ndata: " +
		openaiChunks[2] + "\r\n\r\ndata: " + openaiChunks[3] + "\r\n\r\ndata: [DONE]"), wantF: format.OpenAIStream, calls: []wantCall{ok("f", `{"x":1}`)}},
	{name: "openai SSE data over two lines", in: sseString("data: " + openaiChunks[0] + "\n\ndata: " + openaiChunks[1] + "\n\ndata: " +
		strings.Replace(openaiChunks[2], `"delta":`, "\ndata: \"delta\":", 1) + "\n\ndata: " + openaiChunks[3] + "\n"), wantF: format.OpenAIStream, calls: []wantCall{ok("f", `{"x":1}`)}},
	{name: "openai parallel calls interleaved by index", in: array([]string{
		tcChunk(`{"index":0,"id":"a","type":"function","function":{"name":"a","arguments":""}}`),
		tcChunk(`{"index":1,"id":"b","type":"function","function":{"name":"b","arguments":"{\"n\":"}}`),
		tcChunk(`{"index":0,"function":{"arguments":"{\"n\":1}"}}`),
		tcChunk(`{"index":1,"function":{"arguments":"2}"}}`),
		finishChunk}), wantF: format.OpenAIStream, calls: []wantCall{ok("a", `{"n":1}`), ok("b", `{"n":2}`)}},
	// vLLM and SGLang streams quoted in ai-dynamo/dynamo#4723 and
	// sgl-project/sglang#7117: every call whole, at index 0, with an id
	// of its own.
	{name: "openai index 0 reused, new id", in: array([]string{
		tcChunk(`{"index":0,"id":"call-1","type":"function","function":{"name":"a","arguments":"{\"n\":1}"}}`),
		chunk(`{"content":"\n"}`, "null"),
		tcChunk(`{"index":0,"id":"call-2","type":"function","function":{"name":"b","arguments":"{\"n\":2}"}}`),
		finishChunk}), wantF: format.OpenAIStream, calls: []wantCall{ok("a", `{"n":1}`), ok("b", `{"n":2}`)}},
	{name: "openai index 0 reused, no id, a name after complete arguments", in: array([]string{
		tcChunk(`{"index":0,"function":{"name":"a","arguments":"{\"n\""}}`),
		tcChunk(`{"index":0,"function":{"arguments":":1}"}}`),
		tcChunk(`{"index":0,"function":{"name":"b","arguments":"{\"n\":2}"}}`),
		finishChunk}), wantF: format.OpenAIStream, calls: []wantCall{ok("a", `{"n":1}`), ok("b", `{"n":2}`)}},
	{name: "openai id and name repeated on every fragment", in: array([]string{
		tcChunk(`{"index":0,"id":"c","function":{"name":"a","arguments":"{\"n\""}}`),
		tcChunk(`{"index":0,"id":"c","function":{"name":"a","arguments":":1}"}}`),
		finishChunk}), wantF: format.OpenAIStream, calls: []wantCall{ok("a", `{"n":1}`)}},
	{name: "openai id and name repeated after complete arguments", in: array([]string{
		tcChunk(`{"index":0,"id":"c","function":{"name":"a","arguments":"{\"n\":1}"}}`),
		tcChunk(`{"index":0,"id":"c","function":{"name":"a","arguments":""}}`),
		finishChunk}), wantF: format.OpenAIStream, calls: []wantCall{ok("a", `{"n":1}`)}},
	{name: "openai name in fragments", in: array([]string{
		tcChunk(`{"index":0,"id":"c","function":{"name":"get_","arguments":""}}`),
		tcChunk(`{"index":0,"function":{"name":"weather","arguments":"{}"}}`),
		finishChunk}), wantF: format.OpenAIStream, calls: []wantCall{ok("get_weather", `{}`)}},
	{name: "openai legacy function_call deltas", in: array([]string{
		chunk(`{"role":"assistant","function_call":{"name":"f","arguments":""}}`, "null"),
		chunk(`{"function_call":{"arguments":"{\"x\":1}"}}`, "null"),
		chunk(`{}`, `"function_call"`)}), wantF: format.OpenAIStream, calls: []wantCall{ok("f", `{"x":1}`)}},
	{name: "openai text only", in: array([]string{chunk(`{"role":"assistant","content":"Hi."}`, "null"), chunk(`{}`, `"stop"`)}), wantF: format.OpenAIStream},
	{name: "openai usage chunk and choice 1 passed over", in: array([]string{
		`{"object":"chat.completion.chunk","choices":[{"index":1,"delta":{"tool_calls":[{"index":0,"function":{"name":"other","arguments":"{}"}}]},"finish_reason":null}]}`,
		openaiChunks[0], openaiChunks[1], openaiChunks[2], openaiChunks[3],
		`{"object":"chat.completion.chunk","choices":[],"usage":{"total_tokens":3}}`}), wantF: format.OpenAIStream, calls: []wantCall{ok("f", `{"x":1}`)}},
	{name: "openai no finish_reason", in: array(openaiChunks[:3]), wantF: format.OpenAIStream,
		calls: []wantCall{bad("f", `[0] (tool_calls index 0) ends with the stream, before its finish_reason; the arguments so far, from 2 fragments, end in "{\"x\":1}"`)}},
	{name: "openai SSE cut in the middle of a line", in: sseString("data: " + openaiChunks[0] + "\n\ndata: " + openaiChunks[1][:60]), wantF: format.OpenAIStream,
		calls: []wantCall{bad("f", "the event at line 1 (tool_calls index 0) is still open when the event at line 3 is not JSON, ")}},
	{name: "openai fragments that are not JSON", in: array([]string{
		tcChunk(`{"index":0,"id":"c","function":{"name":"f","arguments":"{\"x\":"}}`),
		tcChunk(`{"index":0,"function":{"arguments":"1,,}"}}`),
		finishChunk}), wantF: format.OpenAIStream,
		calls: []wantCall{{name: "f", reason: `[0] (tool_calls index 0): the arguments put together from 2 fragments (the error is in fragment 2, of [1]: "1,,}") are not a usable JSON object`, is: value.ErrSyntax}}},
	{name: "openai fragments holding an array", in: array([]string{tcChunk(`{"index":0,"function":{"name":"f","arguments":"[1]"}}`), finishChunk}), wantF: format.OpenAIStream,
		calls: []wantCall{bad("f", "the arguments put together hold an array, not a JSON object")}},
	{name: "openai empty arguments", in: array([]string{tcChunk(`{"index":0,"function":{"name":"f","arguments":""}}`), finishChunk}), wantF: format.OpenAIStream,
		calls: []wantCall{{name: "f", reason: "from 0 fragments are not a usable JSON object", is: value.ErrSyntax}}},
	{name: "openai arguments fragment not a string", in: array([]string{tcChunk(`{"index":0,"function":{"name":"f","arguments":{"x":1}}}`), finishChunk}), wantF: format.OpenAIStream,
		calls: []wantCall{bad("f", "[0].choices[0].delta.tool_calls[0].function.arguments is an object, not a string")}},
	{name: "openai call without a name", in: array([]string{tcChunk(`{"index":0,"function":{"arguments":"{}"}}`), finishChunk}), wantF: format.OpenAIStream,
		calls: []wantCall{bad("", "[0] (tool_calls index 0) has no name")}},
	{name: "openai tool_calls not an array", in: array([]string{chunk(`{"tool_calls":{"index":0}}`, "null"), finishChunk}), wantF: format.OpenAIStream,
		calls: []wantCall{bad("", "[0].choices[0].delta.tool_calls is an object, not an array")}},
	{name: "openai a call among the chunks", in: array([]string{openaiChunks[0], `{"name":"g","arguments":"{}"}`, openaiChunks[1], openaiChunks[2], openaiChunks[3]}), wantF: format.OpenAIStream,
		calls: []wantCall{ok("f", `{"x":1}`), bad("", "[1] is not a chat completion chunk but looks like a call")}},

	// responses API events
	{name: "responses events", in: array(responsesEvents), wantF: format.ResponsesStream, calls: []wantCall{ok("f", `{"x":1}`)}},
	{name: "responses SSE", in: transcript(responsesEvents, false), wantF: format.ResponsesStream, calls: []wantCall{ok("f", `{"x":1}`)}},
	{name: "responses done arguments win over the deltas", in: array(with(responsesEvents, 3, `{"type":"response.function_call_arguments.delta","item_id":"fc_1","output_index":0,"delta":":2}"}`)),
		wantF: format.ResponsesStream, calls: []wantCall{ok("f", `{"x":1}`)}},
	{name: "responses deltas and arguments.done only", in: array(append(responsesEvents[:5:5], responsesEnd)), wantF: format.ResponsesStream, calls: []wantCall{ok("f", `{"x":1}`)}},
	{name: "responses keyed by item_id alone", in: array([]string{
		`{"type":"response.output_item.added","item":{"type":"function_call","id":"fc_9","name":"f","arguments":""}}`,
		`{"type":"response.function_call_arguments.delta","item_id":"fc_9","delta":"{\"x\":1}"}`,
		`{"type":"response.output_item.done","item":{"type":"function_call","id":"fc_9","name":"f"}}`, responsesEnd}), wantF: format.ResponsesStream, calls: []wantCall{ok("f", `{"x":1}`)}},
	{name: "responses output_item.done alone", in: array([]string{responsesEvents[0], responsesEvents[5], responsesEnd}), wantF: format.ResponsesStream, calls: []wantCall{ok("f", `{"x":1}`)}},
	{name: "responses two calls and a message", in: array([]string{
		`{"type":"response.output_item.added","output_index":0,"item":{"type":"message","id":"msg_1","role":"assistant","content":[]}}`,
		`{"type":"response.output_text.delta","item_id":"msg_1","output_index":0,"content_index":0,"delta":"ok"}`,
		`{"type":"response.output_item.added","output_index":1,"item":{"type":"function_call","id":"fc_1","name":"a","arguments":""}}`,
		`{"type":"response.output_item.added","output_index":2,"item":{"type":"function_call","id":"fc_2","name":"b","arguments":""}}`,
		`{"type":"response.function_call_arguments.delta","item_id":"fc_2","output_index":2,"delta":"{}"}`,
		`{"type":"response.function_call_arguments.delta","item_id":"fc_1","output_index":1,"delta":"{\"n\":1}"}`,
		`{"type":"response.function_call_arguments.done","item_id":"fc_1","output_index":1,"arguments":"{\"n\":1}"}`,
		`{"type":"response.function_call_arguments.done","item_id":"fc_2","output_index":2,"arguments":"{}"}`, responsesEnd}),
		wantF: format.ResponsesStream, calls: []wantCall{ok("a", `{"n":1}`), ok("b", `{}`)}},
	{name: "responses text only", in: array([]string{responsesEvents[0], `{"type":"response.output_text.delta","output_index":0,"delta":"Hi"}`, responsesEnd}), wantF: format.ResponsesStream},
	{name: "responses ends before done", in: array(responsesEvents[:4]), wantF: format.ResponsesStream,
		calls: []wantCall{bad("f", `[1] (output 0) ends with the stream, before its response.output_item.done; the arguments so far, from 2 fragments, end in "{\"x\":1}"`)}},
	{name: "responses error event", in: array(append(responsesEvents[:3:3], `{"type":"error","code":"server_error","message":"The server had an error"}`)), wantF: format.ResponsesStream,
		calls: []wantCall{bad("f", `end in "{\"x\""; the stream reported an error: "The server had an error"`)}},
	{name: "responses delta of no call", in: array([]string{responsesEvents[0], responsesEvents[2]}), wantF: format.ResponsesStream,
		calls: []wantCall{bad("", "[1] continues a call that no response.output_item.added began")}},
	{name: "responses done arguments not JSON", in: array(with(responsesEvents, 5, `{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","id":"fc_1","name":"f","arguments":"{\"x\":"}}`)),
		wantF: format.ResponsesStream, calls: []wantCall{badIs("f", value.ErrSyntax)}},
	{name: "responses custom tool call events", in: array(customEvents), wantF: format.ResponsesStream, calls: []wantCall{bad("code_exec", customFails)}},
	{name: "responses custom tool call SSE", in: transcript(customEvents, false), wantF: format.ResponsesStream,
		calls: []wantCall{bad("code_exec", `the event at line 5.item is of type "custom_tool_call", not "function_call"`)}},
	{name: "responses custom tool call done alone", in: array([]string{customEvents[0], customEvents[5], customEvents[6]}), wantF: format.ResponsesStream,
		calls: []wantCall{bad("code_exec", `[1].item is of type "custom_tool_call"`)}},
	{name: "responses custom tool call beside a function call", in: array([]string{customEvents[1], customEvents[2],
		`{"type":"response.output_item.added","output_index":1,"item":{"type":"function_call","id":"fc_1","name":"f","arguments":""}}`,
		`{"type":"response.function_call_arguments.delta","item_id":"fc_1","output_index":1,"delta":"{}"}`,
		customEvents[5],
		`{"type":"response.output_item.done","output_index":1,"item":{"type":"function_call","id":"fc_1","name":"f","arguments":"{}"}}`, responsesEnd}),
		wantF: format.ResponsesStream, calls: []wantCall{bad("code_exec", `[0].item is of type "custom_tool_call"`), ok("f", `{}`)}},
	{name: "responses custom tool input of no call", in: array([]string{customEvents[0], customEvents[2]}), wantF: format.ResponsesStream,
		calls: []wantCall{bad("", "[1] continues a call that no response.output_item.added began")}},
	{name: "responses custom tool input to a function call", in: array([]string{responsesEvents[1], customEvents[2], responsesEvents[5]}), wantF: format.ResponsesStream,
		calls: []wantCall{bad("f", "[1] gives a custom tool's input to [0] (output 0), a function_call")}},
	{name: "responses unknown _call item", in: array([]string{
		`{"type":"response.output_item.added","output_index":0,"item":{"type":"shell_call","id":"sh_1","call_id":"c","action":{"commands":[]}}}`,
		`{"type":"response.output_item.done","output_index":0,"item":{"type":"shell_call","id":"sh_1","call_id":"c","action":{"commands":["ls"]}}}`}),
		wantF: format.ResponsesStream, calls: []wantCall{bad("", `[0].item is of type "shell_call", not "function_call"`)}},
	{name: "responses item without a type", in: array([]string{
		`{"type":"response.output_item.added","output_index":0,"item":{"id":"x","name":"f","arguments":"{}"}}`,
		`{"type":"response.output_item.done","output_index":0,"item":{"id":"x","name":"f","arguments":"{}"}}`}),
		wantF: format.ResponsesStream, calls: []wantCall{bad("f", "[0].item has no type")}},
	{name: "responses item not an object", in: array([]string{`{"type":"response.output_item.added","output_index":0,"item":"f"}`}), wantF: format.ResponsesStream,
		calls: []wantCall{bad("", "[0].item is a string, not an object")}},
	{name: "responses built-in tool items passed over", in: array([]string{
		`{"type":"response.output_item.added","output_index":0,"item":{"type":"web_search_call","id":"ws_1","status":"in_progress"}}`,
		`{"type":"response.web_search_call.completed","output_index":0,"item_id":"ws_1"}`,
		`{"type":"response.output_item.done","output_index":0,"item":{"type":"web_search_call","id":"ws_1","status":"completed"}}`,
		responsesEvents[1], responsesEvents[5], responsesEnd}), wantF: format.ResponsesStream, calls: []wantCall{ok("f", `{"x":1}`)}},
	{name: "responses event without type", in: array([]string{responsesEvents[0], `{"item_id":"x"}`}), wantF: format.ResponsesStream, calls: []wantCall{bad("", "[1] has no type")}},

	// anthropic message events
	{name: "anthropic events", in: array(anthropicEvents), wantF: format.AnthropicStream, calls: []wantCall{ok("f", `{"x":1}`)}},
	{name: "anthropic SSE", in: transcript(anthropicEvents, false), wantF: format.AnthropicStream, calls: []wantCall{ok("f", `{"x":1}`)}},
	{name: "anthropic SSE without its last blank line", in: strings.TrimSuffix(transcript(anthropicEvents, false), `\n\n"`) + `"`, wantF: format.AnthropicStream, calls: []wantCall{ok("f", `{"x":1}`)}},
	{name: "anthropic tool without input", in: array([]string{anthropicEvents[5], anthropicEvents[6], anthropicEvents[9], anthropicEnd}), wantF: format.AnthropicStream, calls: []wantCall{ok("f", `{}`)}},
	{name: "anthropic two tool_use blocks", in: array([]string{
		`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t1","name":"a","input":{}}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"n\":1}"}}`,
		`{"type":"content_block_stop","index":0}`,
		`{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t2","name":"b","input":{}}}`,
		`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"n\":2}"}}`,
		`{"type":"content_block_stop","index":1}`, anthropicEnd}), wantF: format.AnthropicStream, calls: []wantCall{ok("a", `{"n":1}`), ok("b", `{"n":2}`)}},
	{name: "anthropic server tool block passed over", in: array([]string{
		`{"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"s","name":"web_search","input":{}}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"query\":\"x\"}"}}`,
		`{"type":"content_block_stop","index":0}`, anthropicEnd}), wantF: format.AnthropicStream},
	{name: "anthropic unknown block with a name and an input", in: array([]string{
		`{"type":"content_block_start","index":0,"content_block":{"type":"bash_tool_use","id":"t","name":"bash","input":{}}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"command\":\"ls\"}"}}`,
		`{"type":"content_block_stop","index":0}`}), wantF: format.AnthropicStream,
		calls: []wantCall{bad("bash", `[0].content_block is of type "bash_tool_use", not "tool_use"`)}},
	{name: "anthropic custom_tool_call block", in: array([]string{
		`{"type":"content_block_start","index":0,"content_block":{"type":"custom_tool_call","id":"t","name":"code_exec","input":""}}`,
		`{"type":"content_block_stop","index":0}`}), wantF: format.AnthropicStream,
		calls: []wantCall{bad("code_exec", `[0].content_block is of type "custom_tool_call", not "tool_use"`)}},
	{name: "anthropic block without a type", in: array([]string{
		`{"type":"content_block_start","index":0,"content_block":{"name":"f","input":{}}}`,
		`{"type":"content_block_stop","index":0}`}), wantF: format.AnthropicStream,
		calls: []wantCall{bad("f", `[0].content_block has no type`)}},
	{name: "anthropic unknown block without a name passed over", in: array([]string{
		`{"type":"content_block_start","index":0,"content_block":{"type":"citations","input":{}}}`,
		`{"type":"content_block_stop","index":0}`, anthropicEnd}), wantF: format.AnthropicStream},
	{name: "anthropic no content_block_stop", in: array(anthropicEvents[:9]), wantF: format.AnthropicStream,
		calls: []wantCall{bad("f", `[5] (content block 1) ends with the stream, before its content_block_stop; the arguments so far, from 2 fragments, end in "{\"x\":1}"`)}},
	{name: "anthropic fragments incomplete at the stop", in: array(with(anthropicEvents, 8, "")), wantF: format.AnthropicStream,
		calls: []wantCall{{name: "f", reason: `the arguments put together from 1 fragment (the error is in fragment 1, of [7]: "{\"x\"") are not a usable JSON object`, is: value.ErrSyntax}}},
	{name: "anthropic overloaded", in: array(append(anthropicEvents[:8:8], `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`)), wantF: format.AnthropicStream,
		calls: []wantCall{bad("f", `the stream reported an error: "Overloaded"`)}},
	// An error with no call open is a failed call of its own: the stream
	// gave no answer, which zero calls would pass for one.
	{name: "anthropic error before any block", in: array([]string{anthropicEvents[0], `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`}), wantF: format.AnthropicStream,
		calls: []wantCall{bad("", `[1] reports an error, and the stream gives no answer: "Overloaded"`)}},
	{name: "anthropic error after a whole call", in: array(append(anthropicEvents[:10:10], `{"type":"error","error":{"type":"api_error","message":"boom"}}`)), wantF: format.AnthropicStream,
		calls: []wantCall{ok("f", `{"x":1}`), bad("", `[10] reports an error, and the stream gives no answer: "boom"`)}},
	{name: "responses failed", in: array([]string{responsesEvents[0], `{"type":"response.failed","sequence_number":1,"response":{"id":"r","object":"response","status":"failed","error":{"code":"server_error","message":"boom"},"output":[]}}`}),
		wantF: format.ResponsesStream, calls: []wantCall{bad("", `[1] reports an error, and the stream gives no answer: "boom"`)}},
	{name: "openai error chunk", in: array([]string{chunk(`{"role":"assistant","content":""}`, "null"), `{"error":{"message":"The server had an error while processing your request.","type":"server_error"}}`}),
		wantF: format.OpenAIStream, calls: []wantCall{bad("", `[1] reports an error, and the stream gives no answer: "The server had an error`)}},
	{name: "openai error chunk with a call open", in: array(append(openaiChunks[:2:2], `{"error":{"message":"gone"}}`)),
		wantF: format.OpenAIStream, calls: []wantCall{bad("f", `the stream reported an error: "gone"`)}},
	{name: "anthropic delta of no block", in: array([]string{anthropicEvents[7]}), wantF: format.AnthropicStream,
		calls: []wantCall{bad("", "[0] continues a call that no content_block_start began")}},
	{name: "anthropic partial_json not a string", in: array(with(anthropicEvents, 7, `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":7}}`)),
		wantF: format.AnthropicStream, calls: []wantCall{bad("f", "[7].delta.partial_json is a number, not a string")}},
	{name: "anthropic event without type", in: array([]string{anthropicEvents[0], `{"index":0}`}), wantF: format.AnthropicStream, calls: []wantCall{bad("", "[1] has no type")}},
	{name: "anthropic event not an object", in: array([]string{anthropicEvents[5], `"x"`, anthropicEvents[9]}), wantF: format.AnthropicStream,
		calls: []wantCall{bad("f", "[1] is a string, not an object")}},

	// bedrock converse stream events
	{name: "bedrock events", in: array(bedrockEvents), wantF: format.BedrockStream, calls: []wantCall{ok("f", `{"x":1}`)}},
	{name: "bedrock SSE", in: transcript(bedrockEvents, false), wantF: format.BedrockStream, calls: []wantCall{ok("f", `{"x":1}`)}},
	{name: "bedrock tool without input", in: array([]string{bedrockEvents[3], bedrockEvents[6], bedrockEnd}), wantF: format.BedrockStream, calls: []wantCall{ok("f", `{}`)}},
	{name: "bedrock no contentBlockStop", in: array(bedrockEvents[:6]), wantF: format.BedrockStream,
		calls: []wantCall{bad("f", `[3] (contentBlockIndex 1) ends with the stream, before its contentBlockStop; the arguments so far, from 2 fragments, end in "{\"x\":1}"`)}},
	{name: "bedrock input fragment not a string", in: array(with(bedrockEvents, 4, `{"contentBlockDelta":{"delta":{"toolUse":{"input":{"x":1}}},"contentBlockIndex":1}}`)),
		wantF: format.BedrockStream, calls: []wantCall{bad("f", "[4].contentBlockDelta.delta.toolUse.input is an object, not a string")}},
	{name: "bedrock exception", in: array(append(bedrockEvents[:5:5], `{"modelStreamErrorException":{"message":"stream broke","originalStatusCode":500}}`)), wantF: format.BedrockStream,
		calls: []wantCall{bad("f", `the stream reported an error: "stream broke"`)}},
	{name: "bedrock text only", in: array([]string{bedrockEvents[0], bedrockEvents[1], bedrockEvents[2], `{"messageStop":{"stopReason":"end_turn"}}`}), wantF: format.BedrockStream},

	// A stream that ends without its terminal event broke off: even cut
	// between two calls, with every call closed, it is no whole answer,
	// and a failed call of its own.
	{name: "anthropic cut between two calls", in: array(anthropicEvents[:10]), wantF: format.AnthropicStream,
		calls: []wantCall{ok("f", `{"x":1}`), bad("", "the stream ends at [9] without its message_stop: it broke off, and what it holds is no whole answer")}},
	{name: "anthropic SSE cut between two calls", in: transcript(anthropicEvents[:11], false), wantF: format.AnthropicStream,
		calls: []wantCall{ok("f", `{"x":1}`), bad("", "the stream ends at the event at line 32 without its message_stop")}},
	{name: "anthropic SSE with CRLF cut between two calls", in: sseString(strings.ReplaceAll(sseText(anthropicEvents[:10], false), "\n", "\r\n")), wantF: format.AnthropicStream,
		calls: []wantCall{ok("f", `{"x":1}`), bad("", "without its message_stop")}},
	{name: "anthropic SSE with CRLF", in: sseString(strings.ReplaceAll(sseText(anthropicEvents, false), "\n", "\r\n")), wantF: format.AnthropicStream,
		calls: []wantCall{ok("f", `{"x":1}`)}},
	{name: "anthropic text only, cut", in: array(anthropicEvents[:4]), wantF: format.AnthropicStream,
		calls: []wantCall{bad("", "the stream ends at [3] without its message_stop")}},
	{name: "anthropic message_stop before a block's stop", in: array(append(anthropicEvents[:9:9], anthropicEnd, anthropicEvents[9])), wantF: format.AnthropicStream,
		calls: []wantCall{bad("f", "[5] (content block 1) is still open at the stream's end, [9], before its content_block_stop")}},
	{name: "anthropic call after message_stop", in: array(append(anthropicEvents[:12:12],
		`{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_2","name":"g","input":{}}}`,
		`{"type":"content_block_stop","index":2}`)), wantF: format.AnthropicStream,
		calls: []wantCall{ok("f", `{"x":1}`), bad("g", "[12] (content block 2) begins after the stream's end, [11]")}},
	{name: "anthropic fragment after message_stop", in: array(append(anthropicEvents[:12:12],
		`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"x\":2}"}}`)), wantF: format.AnthropicStream,
		calls: []wantCall{bad("f", "[12] touches [5] (content block 1) after the stream's end, [11]")}},
	{name: "anthropic text and ping after message_stop", in: array(append(anthropicEvents[:12:12], `{"type":"ping"}`,
		`{"type":"content_block_start","index":2,"content_block":{"type":"text","text":""}}`)), wantF: format.AnthropicStream,
		calls: []wantCall{ok("f", `{"x":1}`)}},
	{name: "responses cut between two calls", in: array(responsesEvents[:6]), wantF: format.ResponsesStream,
		calls: []wantCall{ok("f", `{"x":1}`), bad("", "the stream ends at [5] without its response.completed")}},
	{name: "responses SSE cut between two calls", in: transcript(responsesEvents[:6], false), wantF: format.ResponsesStream,
		calls: []wantCall{ok("f", `{"x":1}`), bad("", "the stream ends at the event at line 17 without its response.completed")}},
	{name: "responses incomplete ends the stream", in: array(append(responsesEvents[:6:6],
		`{"type":"response.incomplete","response":{"id":"resp_1","object":"response","status":"incomplete","incomplete_details":{"reason":"max_output_tokens"}}}`)),
		wantF: format.ResponsesStream, calls: []wantCall{ok("f", `{"x":1}`)}},
	{name: "responses call after response.completed", in: array(append(responsesEvents[:7:7],
		`{"type":"response.output_item.done","output_index":1,"item":{"type":"function_call","id":"fc_2","name":"g","arguments":"{}"}}`)),
		wantF: format.ResponsesStream, calls: []wantCall{ok("f", `{"x":1}`), bad("g", "[7] (output 1) begins after the stream's end, [6]")}},
	{name: "responses done arguments after response.completed", in: array(append(responsesEvents[:7:7],
		`{"type":"response.function_call_arguments.done","item_id":"fc_1","output_index":0,"arguments":"{\"x\":2}"}`)),
		wantF: format.ResponsesStream, calls: []wantCall{bad("f", "[7] touches [1] (output 0) after the stream's end, [6]")}},
	// The response a Responses stream ends with holds its output again,
	// which the SDK hands out as the final response: a call only there
	// is a call, and one that disagrees with the events fails.
	{name: "responses call only in response.completed", in: array([]string{responsesEvents[0], responsesEvents[6]}), wantF: format.ResponsesStream,
		calls: []wantCall{ok("f", `{"x":1}`)}},
	{name: "responses custom tool call only in response.completed", in: array([]string{customEvents[0], customEvents[6]}), wantF: format.ResponsesStream,
		calls: []wantCall{bad("code_exec", `[1].response.output[0] is of type "custom_tool_call", not "function_call"`)}},
	{name: "responses response.completed with other arguments", in: array(with(responsesEvents, 6,
		`{"type":"response.completed","response":{"status":"completed","output":[{"type":"function_call","id":"fc_1","name":"f","arguments":"{\"x\":2}"}]}}`)),
		wantF: format.ResponsesStream, calls: []wantCall{bad("f", "[1] (output 0): the arguments streamed differ from those of [6].response.output[0]")}},
	{name: "responses response.completed with another name", in: array(with(responsesEvents, 6,
		`{"type":"response.completed","response":{"status":"completed","output":[{"type":"function_call","id":"fc_1","name":"g","arguments":"{\"x\":1}"}]}}`)),
		wantF: format.ResponsesStream, calls: []wantCall{bad("f", `[1] (output 0) is named "f", and [6].response.output[0].name "g"`)}},
	{name: "responses response.completed with a name not a string", in: array(with(responsesEvents, 6,
		`{"type":"response.completed","response":{"status":"completed","output":[{"type":"function_call","id":"fc_1","name":7,"arguments":"{\"x\":1}"}]}}`)),
		wantF: format.ResponsesStream, calls: []wantCall{bad("f", `[1] (output 0) is named "f", and [6].response.output[0].name a number`)}},
	{name: "responses response.completed without a name", in: array(with(responsesEvents, 6,
		`{"type":"response.completed","response":{"status":"completed","output":[{"type":"function_call","id":"fc_1","arguments":"{\"x\":1}"}]}}`)),
		wantF: format.ResponsesStream, calls: []wantCall{ok("f", `{"x":1}`)}},
	{name: "responses response.completed with another type", in: array(with(responsesEvents, 6,
		`{"type":"response.completed","response":{"status":"completed","output":[{"type":"custom_tool_call","id":"fc_1","name":"f","input":"x"}]}}`)),
		wantF: format.ResponsesStream, calls: []wantCall{bad("f", `[6].response.output[0] is of type "custom_tool_call", not "function_call", where [1] (output 0) streams a function_call`)}},
	{name: "responses response.completed with an item without a type", in: array([]string{responsesEvents[0],
		`{"type":"response.completed","response":{"status":"completed","output":[{"id":"x","name":"f","arguments":"{}"}]}}`}),
		wantF: format.ResponsesStream, calls: []wantCall{bad("f", `[1].response.output[0] has no type`)}},
	{name: "responses response.completed with an item not an object", in: array([]string{responsesEvents[0],
		`{"type":"response.completed","response":{"status":"completed","output":[null]}}`}),
		wantF: format.ResponsesStream, calls: []wantCall{bad("", `[1].response.output[0] is null, not an object`)}},
	{name: "responses response.completed with arguments not JSON", in: array(with(responsesEvents, 6,
		`{"type":"response.completed","response":{"status":"completed","output":[{"type":"function_call","id":"fc_1","name":"f","arguments":"{"}]}}`)),
		wantF: format.ResponsesStream, calls: []wantCall{{name: "f", reason: "[6].response.output[0].arguments is not a usable JSON object", is: value.ErrSyntax}}},
	{name: "responses response.completed with the same arguments spelled otherwise", in: array(with(responsesEvents, 6,
		`{"type":"response.completed","response":{"status":"completed","output":[{"type":"function_call","id":"fc_1","name":"f","arguments":{"x":1}}]}}`)),
		wantF: format.ResponsesStream, calls: []wantCall{ok("f", `{"x":1}`)}},
	{name: "responses response.completed matched by item id", in: array([]string{
		`{"type":"response.output_item.added","item":{"type":"function_call","id":"fc_9","name":"f","arguments":""}}`,
		`{"type":"response.function_call_arguments.delta","item_id":"fc_9","delta":"{\"x\":1}"}`,
		`{"type":"response.output_item.done","item":{"type":"function_call","id":"fc_9","name":"f"}}`,
		`{"type":"response.completed","response":{"status":"completed","output":[{"type":"reasoning","id":"rs_1"},{"type":"function_call","id":"fc_9","name":"f","arguments":"{\"x\":1}"}]}}`}),
		wantF: format.ResponsesStream, calls: []wantCall{ok("f", `{"x":1}`)}},
	{name: "anthropic call in message_start", in: array(with(anthropicEvents, 0,
		`{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"text","text":"ok"},{"type":"tool_use","id":"t0","name":"g","input":{}}]}}`)),
		wantF: format.AnthropicStream, calls: []wantCall{bad("g", "[0].message.content[1] is a call in a message_start, whose content a stream sends in content blocks"), ok("f", `{"x":1}`)}},
	{name: "openai custom tool call", in: array([]string{
		tcChunk(`{"index":0,"id":"call_1","type":"custom","custom":{"name":"code_exec","input":""}}`),
		tcChunk(`{"index":0,"custom":{"input":"print(1)"}}`),
		tcChunk(`{"index":1,"id":"call_2","type":"function","function":{"name":"f","arguments":"{}"}}`),
		finishChunk}), wantF: format.OpenAIStream,
		calls: []wantCall{bad("code_exec", "[0].choices[0].delta.tool_calls[0] is a custom tool's call, not a function's"), ok("f", `{}`)}},
	{name: "openai empty finish_reason in every chunk", in: array([]string{
		chunk(`{"tool_calls":[{"index":0,"id":"c","type":"function","function":{"name":"f","arguments":"{\"x\""}}]}`, `""`),
		chunk(`{"tool_calls":[{"index":0,"function":{"arguments":":1}"}}]}`, `""`),
		finishChunk}), wantF: format.OpenAIStream, calls: []wantCall{ok("f", `{"x":1}`)}},
	{name: "openai whole message in a chunk", in: array([]string{
		`{"object":"chat.completion.chunk","choices":[{"index":0,"message":{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`}),
		wantF: format.OpenAIStream, calls: []wantCall{bad("", "[0].choices[0].message holds a call, in a chunk, whose calls come in its delta")}},
	{name: "responses message item holding a call", in: array([]string{
		`{"type":"response.output_item.added","output_index":0,"item":{"type":"message","role":"assistant","content":[{"type":"tool_use","name":"f","input":{}}]}}`,
		`{"type":"response.output_item.done","output_index":0,"item":{"type":"message","role":"assistant","content":[{"type":"tool_use","name":"f","input":{}}]}}`,
		responsesEnd}), wantF: format.ResponsesStream, calls: []wantCall{bad("", `[0].item is of type "message", not "function_call"`)}},
	{name: "bedrock start of an unknown kind that names a tool", in: array([]string{
		`{"contentBlockStart":{"start":{"mcpToolUse":{"toolUseId":"t","name":"f"}},"contentBlockIndex":0}}`,
		`{"contentBlockStop":{"contentBlockIndex":0}}`, bedrockEnd}), wantF: format.BedrockStream,
		calls: []wantCall{bad("f", "[0].contentBlockStart.start.mcpToolUse is no toolUse, but names a tool")}},
	{name: "bedrock start of an unknown kind passed over", in: array([]string{
		`{"contentBlockStart":{"start":{"image":{"format":"png"}},"contentBlockIndex":0}}`,
		`{"contentBlockStop":{"contentBlockIndex":0}}`, bedrockEvents[3], bedrockEvents[6], bedrockEnd}), wantF: format.BedrockStream,
		calls: []wantCall{ok("f", `{}`)}},
	// A stream that says the model stopped to call a tool, and holds no
	// call, lost one: a failed call, as a cohere TOOL_CALL without calls.
	{name: "anthropic stop_reason tool_use without a tool_use block", in: array([]string{anthropicEvents[0], anthropicEvents[1], anthropicEvents[3], anthropicEvents[4],
		anthropicEvents[10], anthropicEnd}), wantF: format.AnthropicStream,
		calls: []wantCall{bad("", "[4] says stop_reason tool_use, but the stream holds no call")}},
	{name: "anthropic stop_reason end_turn without a tool_use block", in: array([]string{anthropicEvents[0], anthropicEvents[1], anthropicEvents[3], anthropicEvents[4],
		`{"type":"message_delta","delta":{"stop_reason":"end_turn"}}`, anthropicEnd}), wantF: format.AnthropicStream},
	{name: "bedrock stopReason tool_use without a toolUse block", in: array([]string{bedrockEvents[0], bedrockEvents[1], bedrockEvents[2], bedrockEvents[7], bedrockEvents[8]}),
		wantF: format.BedrockStream, calls: []wantCall{bad("", "[3] says stopReason tool_use, but the stream holds no call")}},
	{name: "openai finish_reason tool_calls without a call", in: array([]string{chunk(`{"role":"assistant","content":"Hi."}`, "null"), finishChunk}),
		wantF: format.OpenAIStream, calls: []wantCall{bad("", "[1] says finish_reason tool_calls, but the stream holds no call")}},
	{name: "bedrock cut between two calls", in: array(bedrockEvents[:7]), wantF: format.BedrockStream,
		calls: []wantCall{ok("f", `{"x":1}`), bad("", "the stream ends at [6] without its messageStop")}},
	{name: "bedrock without its metadata", in: array(bedrockEvents[:8]), wantF: format.BedrockStream, calls: []wantCall{ok("f", `{"x":1}`)}},
	{name: "bedrock text only, cut", in: array(bedrockEvents[:3]), wantF: format.BedrockStream,
		calls: []wantCall{bad("", "the stream ends at [2] without its messageStop")}},
	{name: "bedrock call after messageStop", in: array(append(bedrockEvents[:8:8], bedrockEvents[3], bedrockEvents[6])), wantF: format.BedrockStream,
		calls: []wantCall{ok("f", `{"x":1}`), bad("f", "[8] (contentBlockIndex 1) begins after the stream's end, [7]")}},
	{name: "openai text only, cut", in: array([]string{chunk(`{"role":"assistant","content":"Hi."}`, "null")}), wantF: format.OpenAIStream,
		calls: []wantCall{bad("", "the stream ends at [0] without its finish_reason")}},
	{name: "openai [DONE] without a finish_reason", in: transcript(openaiChunks[:3], true), wantF: format.OpenAIStream,
		calls: []wantCall{bad("f", "(tool_calls index 0) ends with the stream, before its finish_reason")}},
	{name: "openai text only, [DONE] without a finish_reason", in: transcript([]string{chunk(`{"role":"assistant","content":"Hi."}`, "null")}, true), wantF: format.OpenAIStream,
		calls: []wantCall{bad("", "the stream ends at the event at line 3 without its finish_reason")}},
	{name: "openai call after the finish_reason", in: array(append(openaiChunks[:4:4],
		tcChunk(`{"index":1,"id":"call_2","type":"function","function":{"name":"g","arguments":"{}"}}`))), wantF: format.OpenAIStream,
		calls: []wantCall{ok("f", `{"x":1}`), bad("g", "[4] (tool_calls index 1) begins after the stream's end, [3]")}},
	{name: "openai fragment after the finish_reason", in: array(append(openaiChunks[:4:4],
		tcChunk(`{"index":0,"function":{"arguments":"x"}}`))), wantF: format.OpenAIStream,
		calls: []wantCall{bad("f", "[4] touches [0] (tool_calls index 0) after the stream's end, [3]")}},
	{name: "openai usage chunk after the finish_reason", in: array(append(openaiChunks[:4:4],
		`{"object":"chat.completion.chunk","choices":[],"usage":{"total_tokens":3}}`)), wantF: format.OpenAIStream, calls: []wantCall{ok("f", `{"x":1}`)}},
	{name: "no events forced to a stream", in: `[]`, f: format.AnthropicStream, wantF: format.AnthropicStream},

	// what is and is not a stream
	{name: "text that starts like SSE", in: `"data: it is sunny"`, wantF: format.Auto},
	{name: "text with an SSE line", in: sseString("Here is the stream:\ndata: {}\n"), wantF: format.Auto},
	{name: "text forced to a stream", in: `"It is sunny."`, f: format.AnthropicStream, wantF: format.AnthropicStream},
	{name: "events forced to another stream", in: array(openaiChunks), f: format.AnthropicStream, wantF: format.AnthropicStream,
		calls: []wantCall{bad("", "[0] has no type"), bad("", "[1] has no type"), bad("", "[2] has no type"), bad("", "[3] has no type")}},
	{name: "calls forced to a stream", in: `[{"name":"a","arguments":"{}"}]`, f: format.BedrockStream, wantF: format.BedrockStream,
		calls: []wantCall{bad("", "[0] is not a converse stream event but looks like a call")}},
}

func TestStreams(t *testing.T) { runExtractTests(t, streamTests) }

// An SSE transcript that is no known stream is a ShapeError, not text.
func TestStreamShapeError(t *testing.T) {
	r := value.StringOf("data: {\"candidates\":[]}\n\ndata: {\"candidates\":[]}\n\n")
	_, _, err := readCalls(r, format.Auto, value.Limits{})
	var se *ShapeError
	if !errors.As(err, &se) || err.Error() != "response is an SSE transcript of 2 events, none of them of a known stream, not a known format" {
		t.Errorf("error = %v", err)
	}
}

// A recorded stream forced to a format that is no stream is an error, not
// a text answer: read as words, its calls would vanish and a case
// expecting no call would pass.
func TestSSEForcedToAFormatThatIsNoStream(t *testing.T) {
	r, err := value.Parse(transcript(anthropicEvents, false))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []format.Format{format.Anthropic, format.OpenAI, format.Calls, format.Hermes} {
		calls, _, err := readCalls(r, f, value.Limits{})
		var se *ShapeError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), "an SSE transcript") || calls != nil {
			t.Errorf("Extract(SSE, %s) = %v, %v; want a ShapeError", f, calls, err)
		}
	}
	if calls, _, err := readCalls(r, format.AnthropicStream, value.Limits{}); err != nil || len(calls) == 0 {
		t.Errorf("Extract(SSE, anthropic-stream) = %v, %v", calls, err)
	}
}

// A long fragment is quoted around the error, not whole.
func TestStreamExcerpt(t *testing.T) {
	long := strings.Repeat("a", 200)
	in := array([]string{tcChunk(`{"index":0,"function":{"name":"f","arguments":"{\"k\":\"` + long + `\"}"}}`),
		tcChunk(`{"index":0,"function":{"arguments":"x"}}`), finishChunk})
	r, _ := value.Parse(in)
	calls, _, _ := readCalls(r, format.Auto, value.Limits{})
	want := `call 0: [0] (tool_calls index 0): the arguments put together from 2 fragments (the error is in fragment 2, of [1]: "x") are not a usable JSON object: `
	if len(calls) != 1 || !strings.HasPrefix(calls[0].Err.Error(), want) {
		t.Fatalf("calls = %v", calls)
	}
	if got := excerpt(long+"é"+long, 201); got != `…"`+strings.Repeat("a", 29)+`é`+strings.Repeat("a", 29)+`"…` {
		t.Errorf("excerpt = %s", got)
	}
}

// FuzzComplete holds complete, which reads a call's argument text on from
// where it stopped at each delta, to a parse of the whole text so far,
// for the text cut into fragments anywhere.
func FuzzComplete(f *testing.F) {
	for _, s := range []string{`{"a": 1}`, `{"a": "}"} `, `[1, {"b": [2]}]x`, `"a\"b"`, `12`, `tru`, `{]`, `}{`, `  {"a":"\\"}  `, `{"a": {"b": "c"}}}`} {
		f.Add(s, uint64(0x5a5a5a5a))
	}
	f.Fuzz(func(t *testing.T, text string, cuts uint64) {
		var a assembly
		c := &pending{}
		for i := 0; i < len(text); {
			n := 1 + int(cuts%7)
			cuts = cuts>>3 | cuts<<61
			n = min(n, len(text)-i)
			c.args = append(c.args, text[i:i+n]...)
			i += n
			_, err := (*value.Parser)(nil).Parse(string(c.args), value.Limits{})
			want := err == nil
			if c.scan.scalar && len(c.args) > maxScalar {
				want = false
			}
			if got := a.complete(c); got != want {
				t.Fatalf("complete(%q) = %v, a parse says %v", c.args, got, want)
			}
		}
	})
}

// TestOddChunks: chunks whose choice of index 0 is written oddly still
// give their calls, or a failing one, never none.
func TestOddChunks(t *testing.T) {
	call := `{"tool_calls":[{"index":0,"id":"c","type":"function","function":{"name":"delete_all","arguments":"{}"}}]}`
	end := `{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`
	tests := []struct{ name, chunk, want string }{
		{"index 0.0", `{"object":"chat.completion.chunk","choices":[{"index":0.0,"delta":` + call + `}]}`, "delete_all"},
		{"index -0", `{"object":"chat.completion.chunk","choices":[{"index":-0,"delta":` + call + `}]}`, "delete_all"},
		{"two entries of index 0", `{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"a"}},{"index":0,"delta":` + call + `}]}`, "delete_all"},
		{"a null before choice 0", `{"object":"chat.completion.chunk","choices":[null,{"index":0,"delta":` + call + `}]}`, ""},
		{"function_call not an object", `{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"function_call":"delete_all"}}]}`, ""},
	}
	for _, tt := range tests {
		r, err := value.Parse(`[` + tt.chunk + `,` + end + `]`)
		if err != nil {
			t.Fatal(err)
		}
		calls, _, err := Options{}.ReadCalls(r, format.OpenAIStream)
		switch {
		case err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case len(calls) == 0:
			t.Errorf("%s: no call", tt.name)
		case tt.want != "" && (calls[0].Name != tt.want || calls[0].Err != nil):
			t.Errorf("%s: %+v, want a call to %s", tt.name, calls, tt.want)
		case tt.want == "" && !slices.ContainsFunc(calls, func(c Call) bool { return c.Err != nil }):
			t.Errorf("%s: %+v, want a failing call", tt.name, calls)
		}
	}
}
