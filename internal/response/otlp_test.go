package response

import (
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/internal/jsonv"
	"github.com/callgrade/callgrade/internal/otlptest"
	"github.com/callgrade/callgrade/value"
)

// The otlp examples of TestDetectionExamples, each holding f({"x":1}): an
// execute_tool span alone, and a chat span whose tool call an
// execute_tool span ran.
func init() {
	formatExamples[format.OTLP] = []string{
		otlptest.Export(otlptest.Span("execute_tool f", 1, otlptest.Str("gen_ai.operation.name", "execute_tool"), otlptest.Str("gen_ai.tool.name", "f"),
			otlptest.Str("gen_ai.tool.call.arguments", `{"x":1}`))),
		otlptest.Export(otlptest.Span("chat m", 1, otlptest.Str("gen_ai.operation.name", "chat"),
			otlptest.Str("gen_ai.output.messages", `[{"role":"assistant","parts":[{"type":"tool_call","id":"c1","name":"f","arguments":{"x":1}}],"finish_reason":"tool_call"}]`)),
			otlptest.Span("execute_tool f", 2, otlptest.Str("gen_ai.operation.name", "execute_tool"), otlptest.Str("gen_ai.tool.name", "f"), otlptest.Str("gen_ai.tool.call.id", "c1"))),
	}
}

// Spans of the GenAI conventions.
func tChat(start int, msgs string, more ...string) string {
	return otlptest.Span("chat m", start, append([]string{otlptest.Str("gen_ai.operation.name", "chat"), otlptest.Str("gen_ai.output.messages", msgs)}, more...)...)
}
func tTool(start int, name, id, args string, more ...string) string {
	attrs := []string{otlptest.Str("gen_ai.operation.name", "execute_tool"), otlptest.Str("gen_ai.tool.name", name)}
	if id != "" {
		attrs = append(attrs, otlptest.Str("gen_ai.tool.call.id", id))
	}
	if args != "" {
		attrs = append(attrs, otlptest.Str("gen_ai.tool.call.arguments", args))
	}
	return otlptest.Span("execute_tool "+name, start, append(attrs, more...)...)
}

// msg is gen_ai.output.messages of one assistant message of parts.
func tMsg(parts ...string) string {
	return `[{"role":"assistant","parts":[` + strings.Join(parts, ",") + `],"finish_reason":"stop"}]`
}
func tCall(id, name, args string) string {
	return `{"type":"tool_call","id":` + strconv.Quote(id) + `,"name":` + strconv.Quote(name) + `,"arguments":` + args + `}`
}
func tText(s string) string { return `{"type":"text","content":` + strconv.Quote(s) + `}` }

// traceWant is one expected Step: a good one has args (canonical JSON), a
// failed one a substring of its message.
type traceWant struct {
	name, args, id string
	turn           int
	result         string // canonical JSON; "" for none
	isErr          bool
	fails          string
}

func readFixture(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "traces", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var traceTests = []struct {
	name  string
	in    string // a trace, or @file of testdata/traces
	steps []traceWant
	final string // "-" for none
	// notEvaluable is a substring of Run.NotEvaluable.
	notEvaluable string
}{
	{name: "the semantic conventions' tool call example", in: "@genai_weather.json",
		steps: []traceWant{{name: "get_weather", args: `{"location":"Paris"}`, id: "call_VSPygqKTWdrhaFErNvMV18Yl", result: `"rainy, 57°F"`}},
		final: "The weather in Paris is currently rainy with a temperature of 57°F."},
	{name: "OpenInference's tool call flow", in: "@openinference_boston.json",
		steps: []traceWant{{name: "get_weather", args: `{"location":"Boston, MA"}`, id: "call_123", result: `{"condition":"cloudy","temperature":65}`}},
		final: "The current weather in Boston is 65°F and cloudy."},
	{name: "recorded without content", in: "@genai_no_content.json",
		steps:        []traceWant{{name: "get_weather", id: "call_VSPygqKTWdrhaFErNvMV18Yl", fails: "gen_ai.tool.call.arguments is not recorded"}},
		final:        "-",
		notEvaluable: "the trace has 2 chat spans and 1 execute_tool span but no gen_ai.output.messages and no gen_ai.tool.call.arguments: it was recorded without the opt-in content of the calls (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true"},
	{name: "a tool span alone, arguments as a kvlist",
		in: otlptest.Export(tTool(5, "f", "c1", "", otlptest.Attr("gen_ai.tool.call.arguments",
			`{"kvlistValue":{"values":[{"key":"city","value":{"stringValue":"Paris"}},{"key":"days","value":{"intValue":"3"}},{"key":"units","value":{"arrayValue":{"values":[{"stringValue":"c"},{"doubleValue":1.5},{"boolValue":true}]}}}]}}`))),
		steps: []traceWant{{name: "f", args: `{"city":"Paris","days":3,"units":["c",1.5,true]}`, id: "c1"}}, final: "-"},
	{name: "output messages as a structured value, arguments as JSON text",
		in: otlptest.Export(otlptest.Span("chat m", 1, otlptest.Str("gen_ai.operation.name", "chat"), otlptest.Attr("gen_ai.output.messages",
			`{"arrayValue":{"values":[{"kvlistValue":{"values":[{"key":"role","value":{"stringValue":"assistant"}},{"key":"parts","value":{"arrayValue":{"values":[{"kvlistValue":{"values":[{"key":"type","value":{"stringValue":"tool_call"}},{"key":"name","value":{"stringValue":"f"}},{"key":"id","value":{"stringValue":"c1"}},{"key":"arguments","value":{"stringValue":"{\"x\": 1}"}}]}}]}}}]}}]}}`))),
		steps: []traceWant{{name: "f", args: `{"x":1}`, id: "c1"}}, final: "-"},
	{name: "one step for a call and the tool span of its id, in the model's order",
		in: otlptest.Export(tChat(1, tMsg(tCall("a", "f", `{"x":1}`), tCall("b", "g", `{"y":2}`))),
			tTool(3, "g", "b", `{"y":2}`, otlptest.Str("gen_ai.tool.call.result", `{"ok":true}`)),
			tTool(2, "f", "a", `{"x":1}`, otlptest.Str("gen_ai.tool.call.result", "5")),
			tChat(4, tMsg(tText("done")))),
		steps: []traceWant{{name: "f", args: `{"x":1}`, id: "a", result: `5`}, {name: "g", args: `{"y":2}`, id: "b", result: `{"ok":true}`}},
		final: "done"},
	{name: "the model's arguments win over the tool span's",
		in:    otlptest.Export(tChat(1, tMsg(tCall("a", "f", `{"x":1}`))), tTool(2, "f", "a", `{"x":2}`)),
		steps: []traceWant{{name: "f", args: `{"x":1}`, id: "a"}}, final: "-"},
	{name: "without ids, a tool span goes with the first call of its name before it",
		in: otlptest.Export(tChat(1, tMsg(`{"type":"tool_call","name":"f","arguments":{"x":1}}`, `{"type":"tool_call","name":"f","arguments":{"x":2}}`)),
			tTool(2, "f", "", `{"x":1}`, otlptest.Str("gen_ai.tool.call.result", "one")), tTool(3, "f", "", `{"x":2}`, otlptest.Str("gen_ai.tool.call.result", "two"))),
		steps: []traceWant{{name: "f", args: `{"x":1}`, result: `"one"`}, {name: "f", args: `{"x":2}`, result: `"two"`}}, final: "-"},
	{name: "ids that differ are two steps",
		in:    otlptest.Export(tChat(1, tMsg(tCall("a", "f", `{"x":1}`))), tTool(2, "f", "b", `{"x":1}`)),
		steps: []traceWant{{name: "f", args: `{"x":1}`, id: "a"}, {name: "f", args: `{"x":1}`, id: "b"}}, final: "-"},
	{name: "turns count the model spans",
		in: otlptest.Export(tChat(1, tMsg(tCall("a", "f", `{}`))), tTool(2, "f", "a", `{}`),
			tChat(3, tMsg(tText("now g"), tCall("b", "g", `{}`))), tTool(4, "g", "b", `{}`),
			tTool(5, "h", "", `{}`), tChat(6, tMsg(tText("the answer"), tText(" in two parts")))),
		steps: []traceWant{{name: "f", args: `{}`, id: "a"}, {name: "g", args: `{}`, id: "b", turn: 1}, {name: "h", args: `{}`, turn: 1}},
		final: "the answer in two parts"},
	{name: "no answer after a call that no model span shows",
		in:    otlptest.Export(tChat(1, tMsg(tText("let me see"))), tTool(2, "f", "", `{}`)),
		steps: []traceWant{{name: "f", args: `{}`}}, final: "-"},
	{name: "text before the last call is no answer",
		in:    otlptest.Export(tChat(1, tMsg(tText("calling f"), tCall("a", "f", `{}`)))),
		steps: []traceWant{{name: "f", args: `{}`, id: "a"}}, final: "-"},
	{name: "start times order the spans, ties the file",
		in:    otlptest.Export(tTool(7, "c", "", `{}`), tTool(3, "a", "", `{}`), tTool(7, "d", "", `{}`), tTool(5, "b", "", `{}`)),
		steps: []traceWant{{name: "a", args: `{}`}, {name: "b", args: `{}`}, {name: "c", args: `{}`}, {name: "d", args: `{}`}}, final: "-"},
	{name: "errors: status code 2, STATUS_CODE_ERROR, error.type",
		in: otlptest.Export(tTool(1, "f", "", `{}`, `"status":{"code":2,"message":"city not found"}`),
			tTool(2, "g", "", `{}`, `"status":{"code":"STATUS_CODE_ERROR"}`, otlptest.Str("gen_ai.tool.call.result", `{"error":"x"}`)),
			tTool(3, "h", "", `{}`, otlptest.Str("error.type", "TimeoutError")),
			tTool(4, "i", "", `{}`, `"status":{"code":1}`)),
		steps: []traceWant{{name: "f", args: `{}`, result: `"city not found"`, isErr: true}, {name: "g", args: `{}`, result: `{"error":"x"}`, isErr: true},
			{name: "h", args: `{}`, isErr: true}, {name: "i", args: `{}`}}, final: "-"},
	{name: "the tool's name from the span name",
		in:    otlptest.Export(otlptest.Span("execute_tool f", 1, otlptest.Str("gen_ai.operation.name", "execute_tool"), otlptest.Str("gen_ai.tool.call.arguments", `{}`))),
		steps: []traceWant{{name: "f", args: `{}`}}, final: "-"},
	{name: "a tool call part with null or no arguments has none",
		in:    otlptest.Export(tChat(1, tMsg(tCall("a", "f", `null`), `{"type":"tool_call","id":"b","name":"g"}`))),
		steps: []traceWant{{name: "f", args: `{}`, id: "a"}, {name: "g", args: `{}`, id: "b"}}, final: "-"},
	{name: "built-in tools and other parts are passed over",
		in: otlptest.Export(tChat(1, tMsg(`{"type":"reasoning","content":"hm"}`, `{"type":"server_tool_call","id":"s","name":"code_interpreter","server_tool_call":{"type":"code_interpreter"}}`,
			tCall("a", "f", `{}`), `{"type":"server_tool_call_response","id":"s"}`, tText("ok"))), tChat(2, tMsg(tText("done")))),
		steps: []traceWant{{name: "f", args: `{}`, id: "a"}}, final: "done"},
	{name: "arguments that do not parse",
		in:    otlptest.Export(tTool(1, "f", "", `{"x":`)),
		steps: []traceWant{{name: "f", fails: `("execute_tool f") attribute gen_ai.tool.call.arguments is not a usable JSON object`}}, final: "-"},
	{name: "arguments that are no object",
		in:    otlptest.Export(tTool(1, "f", "", `[1]`), tTool(2, "g", "", "", otlptest.Attr("gen_ai.tool.call.arguments", `{"intValue":"5"}`))),
		steps: []traceWant{{name: "f", fails: "holds an array, not a JSON object"}, {name: "g", fails: "is a number, not a JSON string or object"}}, final: "-"},
	{name: "an attribute twice",
		in:    otlptest.Export(tTool(1, "f", "", `{"x":1}`, otlptest.Str("gen_ai.tool.call.arguments", `{"x":2}`))),
		steps: []traceWant{{name: "f", fails: "has attribute gen_ai.tool.call.arguments twice"}}, final: "-"},
	{name: "a kvlist with a key twice",
		in: otlptest.Export(tTool(1, "f", "", "", otlptest.Attr("gen_ai.tool.call.arguments",
			`{"kvlistValue":{"values":[{"key":"x","value":{"intValue":1}},{"key":"x","value":{"intValue":2}}]}}`))),
		steps: []traceWant{{name: "f", fails: `attribute gen_ai.tool.call.arguments: kvlistValue: duplicate key "x"`}}, final: "-"},
	{name: "a tool call part without a name, or of no type",
		in:    otlptest.Export(tChat(1, tMsg(`{"type":"tool_call","id":"a","arguments":{}}`, `{"name":"g","arguments":{}}`, `"x"`))),
		steps: []traceWant{{id: "a", fails: "parts[0].name is missing"}, {fails: "parts[1] has no type"}, {fails: "parts[2] is a string, not an object"}}, final: "-"},
	{name: "output messages that are not JSON",
		in:    otlptest.Export(tChat(1, `[{"role"`)),
		steps: []traceWant{{fails: `("chat m") gen_ai.output.messages is not JSON`}}, final: "-"},
	{name: "a tool span without content beside a chat span with it",
		in:    otlptest.Export(tChat(1, tMsg(tCall("a", "f", `{"x":1}`))), tTool(2, "f", "a", ""), tTool(3, "g", "", "")),
		steps: []traceWant{{name: "f", args: `{"x":1}`, id: "a"}, {name: "g", fails: "gen_ai.tool.call.arguments is not recorded"}}, final: "-"},
	{name: "OpenInference, calls in their index order, a text content",
		in: otlptest.Export(otlptest.Span("llm", 1, otlptest.Str("openinference.span.kind", "LLM"),
			otlptest.Str("llm.output_messages.0.message.tool_calls.10.tool_call.function.name", "g"),
			otlptest.Str("llm.output_messages.0.message.tool_calls.10.tool_call.function.arguments", `{"b":2}`),
			otlptest.Str("llm.output_messages.0.message.tool_calls.2.tool_call.function.name", "f"),
			otlptest.Str("llm.output_messages.0.message.tool_calls.2.tool_call.function.arguments", `{"a":1}`),
			otlptest.Str("llm.output_messages.0.message.tool_calls.2.tool_call.id", "c2"),
			otlptest.Str("llm.output_messages.1.message.tool_calls.0.tool_call.function.name", "other_choice")),
			otlptest.Span("llm", 2, otlptest.Str("openinference.span.kind", "LLM"),
				otlptest.Str("llm.output_messages.0.message.contents.1.message_content.type", "text"),
				otlptest.Str("llm.output_messages.0.message.contents.1.message_content.text", " there"),
				otlptest.Str("llm.output_messages.0.message.contents.0.message_content.type", "text"),
				otlptest.Str("llm.output_messages.0.message.contents.0.message_content.text", "hello"))),
		steps: []traceWant{{name: "f", args: `{"a":1}`, id: "c2"}, {name: "g", args: `{"b":2}`}}, final: "hello there"},
	{name: "OpenInference, arguments redacted: not evaluable",
		in: otlptest.Export(otlptest.Span("llm", 1, otlptest.Str("openinference.span.kind", "LLM"),
			otlptest.Str("llm.output_messages.0.message.tool_calls.0.tool_call.function.name", "f"),
			otlptest.Str("llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments", "__REDACTED__")),
			otlptest.Span("tool", 2, otlptest.Str("openinference.span.kind", "TOOL"), otlptest.Str("tool.name", "f"), otlptest.Str("input.value", "__REDACTED__"))),
		steps: []traceWant{{name: "f", fails: "tool_call.function.arguments is not recorded"}, {name: "f", fails: "input.value is not recorded"}},
		final: "-", notEvaluable: "the trace has 1 LLM span and 1 TOOL span but no llm.output_messages content or tool call arguments and no input.value: it was recorded without the opt-in content of the calls (OpenInference records it unless"},
	{name: "OpenInference, a TOOL span's input that is no JSON",
		in:    otlptest.Export(otlptest.Span("tool", 1, otlptest.Str("openinference.span.kind", "TOOL"), otlptest.Str("tool.name", "f"), otlptest.Str("input.value", "{'query': 'weather'}"), otlptest.Str("output.value", "sunny"))),
		steps: []traceWant{{name: "f", fails: "input.value is not a usable JSON object", result: `"sunny"`}}, final: "-"},
	// A model span without its output beside model spans with theirs
	// may hide calls: the trace is not evaluable, whatever the others
	// show. A span that ended in an error had no output to record.
	{name: "a chat span without content beside chat spans with it",
		in: otlptest.Export(tChat(1, tMsg(tCall("a", "f", `{"x":1}`))), tTool(2, "f", "a", `{"x":1}`),
			otlptest.Span("chat m", 3, otlptest.Str("gen_ai.operation.name", "chat")), tChat(4, tMsg(tText("done")))),
		steps: []traceWant{{name: "f", args: `{"x":1}`, id: "a"}, {name: "f", args: `{"x":1}`, id: "a"}}, final: "-",
		notEvaluable: `resourceSpans[0].scopeSpans[0].spans[2] ("chat m") records no output (no gen_ai.output.messages), while 2 other model spans of the trace record theirs: a trace recorded in part may hide calls`},
	{name: "an OpenInference LLM span without content beside a GenAI chat span with it",
		in: otlptest.Export(tChat(1, tMsg(tCall("a", "f", `{"x":1}`))), tTool(2, "f", "a", `{"x":1}`),
			otlptest.Span("llm", 3, otlptest.Str("openinference.span.kind", "LLM"), otlptest.Str("llm.input_messages.0.message.content", "go on")),
			otlptest.Span("llm", 4, otlptest.Str("openinference.span.kind", "LLM"), otlptest.Str("llm.output_messages.0.message.content", "__REDACTED__"))),
		steps: []traceWant{{name: "f", args: `{"x":1}`, id: "a"}, {name: "f", args: `{"x":1}`, id: "a"}}, final: "-",
		notEvaluable: `spans[2] ("llm") records no output (no llm.output_messages.0.message attributes), while 1 other model span of the trace records its own: a trace recorded in part may hide calls (and 1 more model span records none)`},
	{name: "a chat span that ended in an error needs no content",
		in: otlptest.Export(otlptest.Span("chat m", 1, otlptest.Str("gen_ai.operation.name", "chat"), otlptest.Str("error.type", "RateLimitError")),
			tChat(2, tMsg(tCall("a", "f", `{}`))), tChat(3, tMsg(tText("done")))),
		steps: []traceWant{{name: "f", args: `{}`, id: "a", turn: 1}}, final: "done"},
	{name: "an LLM span with a call's name, its arguments redacted, records its output",
		in: otlptest.Export(otlptest.Span("llm", 1, otlptest.Str("openinference.span.kind", "LLM"),
			otlptest.Str("llm.output_messages.0.message.tool_calls.0.tool_call.function.name", "f"),
			otlptest.Str("llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments", "__REDACTED__")),
			otlptest.Span("llm", 3, otlptest.Str("openinference.span.kind", "LLM"), otlptest.Str("llm.output_messages.0.message.content", "done"))),
		steps: []traceWant{{name: "f", fails: "tool_call.function.arguments is not recorded"}}, final: "done"},
	// A redacted argument falls back on what the tool span recorded.
	{name: "OpenInference, a redacted argument from the TOOL span's input",
		in: otlptest.Export(otlptest.Span("llm", 1, otlptest.Str("openinference.span.kind", "LLM"),
			otlptest.Str("llm.output_messages.0.message.tool_calls.0.tool_call.function.name", "f"),
			otlptest.Str("llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments", "__REDACTED__")),
			otlptest.Span("tool", 2, otlptest.Str("openinference.span.kind", "TOOL"), otlptest.Str("tool.name", "f"), otlptest.Str("input.value", `{"x":1}`), otlptest.Str("output.value", "ok")),
			otlptest.Span("llm", 3, otlptest.Str("openinference.span.kind", "LLM"), otlptest.Str("llm.output_messages.0.message.content", "done"))),
		steps: []traceWant{{name: "f", args: `{"x":1}`, result: `"ok"`}}, final: "done"},
	{name: "OpenInference, a redacted answer is none",
		in: otlptest.Export(otlptest.Span("tool", 1, otlptest.Str("openinference.span.kind", "TOOL"), otlptest.Str("tool.name", "f"), otlptest.Str("input.value", `{}`)),
			otlptest.Span("llm", 2, otlptest.Str("openinference.span.kind", "LLM"), otlptest.Str("llm.output_messages.0.message.content", "__REDACTED__"))),
		steps: []traceWant{{name: "f", args: `{}`}}, final: "-"},
	{name: "OpenInference, a redacted text content is none",
		in: otlptest.Export(otlptest.Span("tool", 1, otlptest.Str("openinference.span.kind", "TOOL"), otlptest.Str("tool.name", "f"), otlptest.Str("input.value", `{}`)),
			otlptest.Span("llm", 2, otlptest.Str("openinference.span.kind", "LLM"),
				otlptest.Str("llm.output_messages.0.message.contents.0.message_content.type", "text"),
				otlptest.Str("llm.output_messages.0.message.contents.0.message_content.text", "__REDACTED__"))),
		steps: []traceWant{{name: "f", args: `{}`}}, final: "-"},
	// Text beside a call is no answer, as in a conversation, before the
	// call or after it.
	{name: "text after the last call of the last span is no answer",
		in:    otlptest.Export(tChat(1, tMsg(tCall("a", "f", `{}`), tText("I have called f.")))),
		steps: []traceWant{{name: "f", args: `{}`, id: "a"}}, final: "-"},
	{name: "OpenInference, text beside a call is no answer",
		in: otlptest.Export(otlptest.Span("llm", 1, otlptest.Str("openinference.span.kind", "LLM"),
			otlptest.Str("llm.output_messages.0.message.content", "Refunded."),
			otlptest.Str("llm.output_messages.0.message.tool_calls.0.tool_call.function.name", "f"),
			otlptest.Str("llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments", `{}`))),
		steps: []traceWant{{name: "f", args: `{}`}}, final: "-"},
	{name: "text after a call that does not read is no answer",
		in:    otlptest.Export(tChat(1, tMsg(`{"type":"tool_call","id":"a","arguments":{}}`, tText("done")))),
		steps: []traceWant{{id: "a", fails: "parts[0].name is missing"}}, final: "-"},
	{name: "no span of a model or a tool", in: otlptest.Export(otlptest.Span("GET /", 1, otlptest.Str("http.request.method", "GET"))),
		final: "-", notEvaluable: "the trace has no span of a model or a tool"},
	{name: "an empty export", in: `{"resourceSpans":[]}`, final: "-", notEvaluable: "no span of a model or a tool"},
	{name: "resourceSpans that is no list", in: `{"resourceSpans":"x"}`,
		steps: []traceWant{{fails: "resourceSpans is a string, not an array"}}, final: "-"},
	{name: "a span that is no object", in: `{"resourceSpans":[{"scopeSpans":[{"spans":[1]}]}]}`,
		steps: []traceWant{{fails: "resourceSpans[0].scopeSpans[0].spans[0] is a number, not an object"}}, final: "-"},
	{name: "a start time that is no time", in: otlptest.Export(`{"name":"x","startTimeUnixNano":"soon"}`),
		steps: []traceWant{{fails: "startTimeUnixNano is not a time in nanoseconds"}}, final: "-"},
	{name: "an attribute without a key", in: otlptest.Export(`{"name":"x","attributes":[{"value":{}}]}`),
		steps: []traceWant{{fails: "spans[0].attributes[0] is not a key and a value"}}, final: "-"},
}

func TestTraceRuns(t *testing.T) {
	for _, tt := range traceTests {
		t.Run(tt.name, func(t *testing.T) {
			in := tt.in
			if f, ok := strings.CutPrefix(in, "@"); ok {
				in = readFixture(t, f)
			}
			r, err := value.Parse(in)
			if err != nil {
				t.Fatal(err)
			}
			run, got, err := readRun(r, format.Auto)
			if err != nil || got != format.OTLP {
				t.Fatalf("ExtractRun = %q, %v", got, err)
			}
			checkTraceSteps(t, run.Steps, tt.steps)
			if final := run.Final; !run.HasFinal && final == "" {
				final = "-"
			}
			if want := tt.final; (want == "-") == run.HasFinal || run.HasFinal && run.Final != want {
				t.Errorf("Final = %q, %v; want %q", run.Final, run.HasFinal, want)
			}
			if tt.notEvaluable == "" && run.NotEvaluable != "" || !strings.Contains(run.NotEvaluable, tt.notEvaluable) {
				t.Errorf("NotEvaluable = %q, want %q in it", run.NotEvaluable, tt.notEvaluable)
			}
			// ReadCalls reads the same calls, and a trace that is not
			// evaluable as one failed call, so that it never passes.
			calls, got, err := readCalls(r, format.Auto, value.Limits{})
			if err != nil || got != format.OTLP {
				t.Fatalf("Extract = %q, %v", got, err)
			}
			if run.NotEvaluable != "" {
				if len(calls) != 1 || calls[0].Err == nil || !strings.Contains(calls[0].Err.Error(), "not evaluable: "+run.NotEvaluable) {
					t.Errorf("Extract of a trace that is not evaluable = %v", calls)
				}
			} else if !sameCalls(calls, run.Calls()) {
				t.Errorf("Extract = %v, ExtractRun = %v", calls, run.Calls())
			}
			// Forced, the same.
			forced, _, err := readRun(r, format.OTLP)
			if err != nil || len(forced.Steps) != len(run.Steps) || forced.NotEvaluable != run.NotEvaluable {
				t.Errorf("forced otlp reads %v, %v", forced, err)
			}
		})
	}
}

func checkTraceSteps(t *testing.T, steps []Step, want []traceWant) {
	t.Helper()
	if len(steps) != len(want) {
		t.Fatalf("%d steps, want %d: %+v", len(steps), len(want), steps)
	}
	for i, w := range want {
		s := steps[i]
		if s.Name != w.name || s.ID != w.id || s.Turn != w.turn || s.Error != w.isErr {
			t.Errorf("step %d = %q id %q turn %d error %v; want %q id %q turn %d error %v", i, s.Name, s.ID, s.Turn, s.Error, w.name, w.id, w.turn, w.isErr)
		}
		if w.fails != "" {
			var ae *ArgumentsError
			if s.Err == nil || !errors.As(s.Err, &ae) || ae.Index != i || !strings.Contains(s.Err.Error(), w.fails) {
				t.Errorf("step %d error = %v, want %q in it", i, s.Err, w.fails)
			}
		} else if s.Err != nil || string(jsonv.AppendCanonical(nil, s.Args)) != w.args {
			t.Errorf("step %d = %s, %v; want %s", i, s.Args, s.Err, w.args)
		}
		if got := ""; s.HasResult || w.result != "" {
			if s.HasResult {
				got = string(jsonv.AppendCanonical(nil, s.Result))
			}
			if got != w.result {
				t.Errorf("step %d result = %s, want %s", i, got, w.result)
			}
		}
	}
}

// Detection takes an object with resourceSpans for a trace, unless an
// earlier row claims it; a forced otlp fails what is not a trace.
func TestTraceDetection(t *testing.T) {
	for _, tt := range []struct {
		in    string
		f     format.Format
		want  format.Format
		trace bool
	}{
		{`{"resourceSpans":[]}`, format.Auto, format.OTLP, true},
		{`{"resourceSpans":[],"choices":[]}`, format.Auto, format.OpenAI, false},
		{`{"resourceSpans":[],"choices":[]}`, format.OTLP, format.OTLP, true},
		{`{"resourceSpans":[],"name":"f","arguments":{}}`, format.Auto, format.Calls, false},
		{`[{"name":"f","arguments":{}}]`, format.OTLP, format.OTLP, false},
		{`{"choices":[]}`, format.OTLP, format.OTLP, false},
	} {
		r, _ := value.Parse(tt.in)
		if got := isTrace(r, tt.f); got != tt.trace {
			t.Errorf("isTrace(%s, %q) = %v", tt.in, tt.f, got)
		}
		_, got, _ := readRun(r, tt.f)
		if got != tt.want {
			t.Errorf("ExtractRun(%s, %q) read as %q, want %q", tt.in, tt.f, got, tt.want)
		}
	}
	// A list forced as otlp: every element fails, whatever it holds.
	r, _ := value.Parse(`[{"name":"f","arguments":{"x":1}},{"resourceSpans":[]}]`)
	calls, _, err := readCalls(r, format.OTLP, value.Limits{})
	if err != nil || len(calls) != 2 || calls[0].Err == nil || calls[1].Err == nil ||
		!strings.Contains(calls[0].Err.Error(), "call 0: [0] is an element of a list: an otlp response is an OTLP/JSON export object") {
		t.Errorf("a list forced as otlp = %v, %v", calls, err)
	}
	// An object of no trace, forced: a ShapeError, as for every format.
	r, _ = value.Parse(`{"spans":[]}`)
	var se *ShapeError
	if _, _, err := readRun(r, format.OTLP); !errors.As(err, &se) || !strings.Contains(err.Error(), "not an OTLP/JSON trace export") {
		t.Errorf("ExtractRun of an object that is no trace = %v", err)
	}
}

// FuzzTrace feeds arbitrary JSON to the otlp reading: it must not panic,
// every step has a name or an error, and a trace that is evaluable gives
// ReadCalls the run's calls and one that is not one failed call (package
// otlp's FuzzSplitTraces reads the export split into cases).
func FuzzTrace(f *testing.F) {
	for _, name := range []string{"genai_weather.json", "genai_no_content.json", "openinference_boston.json"} {
		f.Add(readFixture(f, name))
	}
	for _, tt := range traceTests {
		if !strings.HasPrefix(tt.in, "@") {
			f.Add(tt.in)
		}
	}
	for _, ex := range formatExamples[format.OTLP] {
		f.Add(ex)
	}
	o := Options{Limits: fuzzLimits}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := value.Parse(s)
		if err != nil {
			return
		}
		for _, f := range []format.Format{format.Auto, format.OTLP} {
			calls, got := checkExtract(t, r, f)
			run, rgot, err := o.Read(r, f)
			if err != nil {
				var se *ShapeError
				if !errors.As(err, &se) {
					t.Fatalf("ExtractRun(%q) = %v", f, err)
				}
				continue
			}
			for i, st := range run.Steps {
				if st.Err == nil && (st.Name == "" || st.Args.Kind() != value.Object) {
					t.Fatalf("ExtractRun(%q) step %d has no error, name %q, arguments %s", f, i, st.Name, st.Args)
				}
			}
			if rgot != format.OTLP || !isTrace(r, f) {
				continue
			}
			switch {
			case run.NotEvaluable == "" && !sameCalls(calls, run.Calls()):
				t.Fatalf("Extract(%q) = %v, ExtractRun = %v", f, calls, run.Calls())
			case run.NotEvaluable != "" && (len(calls) != 1 || calls[0].Err == nil):
				t.Fatalf("Extract(%q) of a trace that is not evaluable = %v", f, calls)
			case got != format.OTLP:
				t.Fatalf("Extract(%q) read a trace as %q", f, got)
			}
		}
	})
}

// A tool span that finds no model's call is a call of its own, which a
// later tool span never takes for its call: two calls to one tool, no
// ids, no chat span, are two calls, each with its arguments and turn.
func TestTraceToolSpansAreNotMergedIntoEachOther(t *testing.T) {
	for _, id := range []string{"", "call_1"} {
		r, err := value.Parse(otlptest.Export(
			tTool(1, "get_weather", id, `{"city":"Berlin"}`),
			tTool(2, "get_weather", id, `{"city":"Paris"}`)))
		if err != nil {
			t.Fatal(err)
		}
		run, _, err := readRun(r, format.Auto)
		calls, _, err2 := readCalls(r, format.Auto, value.Limits{})
		if err != nil || err2 != nil || len(run.Steps) != 2 || len(calls) != 2 {
			t.Fatalf("id %q: run %+v (%v), calls %v (%v)", id, run.Steps, err, calls, err2)
		}
		for i, city := range []string{"Berlin", "Paris"} {
			if got, _ := run.Steps[i].Args.Get("city"); got.Str() != city || run.Steps[i].Turn != 0 {
				t.Errorf("id %q: step %d = %+v", id, i, run.Steps[i])
			}
		}
	}
}

// ReadCalls reads a trace with the caller's limits, as Read does: a
// model's messages nested deeper than the caller allows fail both alike,
// where ReadCalls read them with the default limits and failed the call
// for another reason than Read's.
func TestTraceReadWithTheCallersLimits(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "traces", "genai_weather.json"))
	if err != nil {
		t.Fatal(err)
	}
	deep := strings.Repeat(`{\"a\":`, 12) + "1" + strings.Repeat("}", 12)
	text := strings.Replace(string(b), `\"arguments\": {\"location\": \"Paris\"}`, `\"arguments\": `+deep, -1)
	if text == string(b) {
		t.Fatal("test bug: the trace's arguments were not replaced")
	}
	r, err := value.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Limits: value.Limits{MaxDepth: 4}}
	calls, _, err := o.ReadCalls(r, format.Auto)
	if err != nil {
		t.Fatal(err)
	}
	run, _, err := o.Read(r, format.Auto)
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) == 0 || len(calls) != len(run.Steps) {
		t.Fatalf("Extract gives %d calls, ExtractRun %d steps", len(calls), len(run.Steps))
	}
	failed := 0
	for i := range calls {
		if got, want := fmt.Sprint(calls[i].Err), fmt.Sprint(run.Steps[i].Call.Err); got != want {
			t.Errorf("call %d: Extract says %s, ExtractRun %s", i, got, want)
		}
		if calls[i].Err != nil {
			failed++
		}
	}
	if failed == 0 {
		t.Errorf("no call failed: %+v", calls)
	}
}

// isTrace reports whether r, read in format f, is a trace that its
// reader reads as a run: with Auto, when detection takes it as otlp.
func isTrace(r value.Value, f format.Format) bool {
	var p plan
	return planFor(&p, r, f, extraction{}) == nil && p.trace.Kind() == value.Object
}

// mergeByScan is merge as it was written first, each tool span looking
// for its call from the first: the reference merge's queues must agree
// with.
func (t *trace) mergeByScan(tools []traceStep) {
	for k := range tools {
		ts := &tools[k]
		m := -1
		for i := range t.steps {
			c := &t.steps[i]
			if c.model && !c.merged && ts.id != "" && c.id == ts.id {
				m = i
				break
			}
		}
		if m < 0 {
			for i := range t.steps {
				c := &t.steps[i]
				if c.model && !c.merged && (c.id == "" || ts.id == "") && c.name == ts.name && c.before(ts) {
					m = i
					break
				}
			}
		}
		if m < 0 {
			t.steps = append(t.steps, *ts)
			continue
		}
		c := &t.steps[m]
		c.merged = true
		c.result, c.hasResult = ts.result, ts.hasResult
		if c.id == "" {
			c.id = ts.id
		}
	}
}

// TestMergeIsTheScan: merge pairs every tool span as the scan from the
// first call does, on random traces of calls in start order, with and
// without ids, names repeated, tool spans before and after their calls.
func TestMergeIsTheScan(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	for range 2000 {
		var steps []traceStep
		start := uint64(0)
		for seq := range r.IntN(12) {
			start += uint64(r.IntN(3))
			for part := range 1 + r.IntN(3) {
				steps = append(steps, traceStep{name: pick("a", "b"), id: pick("", "", "1", "2", "3"), start: start, seq: seq, part: part, model: true})
			}
		}
		var tools []traceStep
		for k := range r.IntN(14) {
			tools = append(tools, traceStep{name: pick("a", "b", "c"), id: pick("", "", "1", "2", "4"), start: uint64(r.IntN(30)), seq: 100 + k,
				result: value.Int(int64(k)), hasResult: true})
		}
		slices.SortStableFunc(tools, func(a, b traceStep) int { return cmp.Compare(a.start, b.start) })
		a := trace{steps: slices.Clone(steps)}
		b := trace{steps: slices.Clone(steps)}
		a.merge(slices.Clone(tools))
		b.mergeByScan(slices.Clone(tools))
		if len(a.steps) != len(b.steps) {
			t.Fatalf("merge made %d steps, the scan %d", len(a.steps), len(b.steps))
		}
		for i := range a.steps {
			x, y := a.steps[i], b.steps[i]
			if x.name != y.name || x.id != y.id || x.merged != y.merged || x.hasResult != y.hasResult || !value.Equal(x.result, y.result) {
				t.Fatalf("step %d: merge %+v, the scan %+v\ncalls %+v\ntools %+v", i, x, y, steps, tools)
			}
		}
	}
}
