package response

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

// wantStep is one expected Step: a good call has args, a failed one a
// reason (a substring of its message); result is the result's JSON, ""
// for none.
type wantStep struct {
	name, args, reason string
	id                 string
	turn               int
	result             string
	toolErr            bool
}

func checkRun(t *testing.T, what string, run Run, steps []wantStep, final string) {
	t.Helper()
	if len(run.Steps) != len(steps) {
		t.Fatalf("%s: %d steps, want %d: %+v", what, len(run.Steps), len(steps), run.Steps)
	}
	for i, w := range steps {
		s := run.Steps[i]
		switch {
		case s.Name != w.name:
			t.Errorf("%s: step %d name = %q, want %q", what, i, s.Name, w.name)
		case w.reason == "" && (s.Err != nil || s.Args.String() != w.args):
			t.Errorf("%s: step %d = %s, %v, want %s", what, i, s.Args, s.Err, w.args)
		case w.reason != "" && (s.Err == nil || !strings.Contains(s.Err.Error(), w.reason)):
			t.Errorf("%s: step %d error = %v, want %q", what, i, s.Err, w.reason)
		}
		if s.ID != w.id || s.Turn != w.turn {
			t.Errorf("%s: step %d id %q turn %d, want %q %d", what, i, s.ID, s.Turn, w.id, w.turn)
		}
		if got := ""; s.HasResult != (w.result != "") || s.HasResult && s.Result.String() != w.result || s.Error != w.toolErr {
			if s.HasResult {
				got = s.Result.String()
			}
			t.Errorf("%s: step %d result %q (error %v), want %q (error %v)", what, i, got, s.Error, w.result, w.toolErr)
		}
	}
	if run.HasFinal != (final != "") || run.Final != final {
		t.Errorf("%s: final %q (%v), want %q", what, run.Final, run.HasFinal, final)
	}
}

// TestRunExamples reads each provider's documented conversation, as
// the files in testdata/runs hold it:
//   - openai: the function calling guide's get_weather turn, a tool
//     message with tool_call_id answering it
//     (https://platform.openai.com/docs/guides/function-calling), and
//     parallel calls answered out of order, one with content parts;
//   - ollama: its chat API's tool messages, which carry no tool_call_id
//     (https://github.com/ollama/ollama/blob/main/docs/api.md);
//   - responses: the same guide's input list, the function_call item and
//     its function_call_output, and the output message after them;
//   - anthropic: the tool use guide's get_weather, a tool_result with
//     is_error (https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use),
//     then one with a list of text blocks;
//   - gemini: the function calling guide's set_light_values, answered by
//     a functionResponse without an id
//     (https://ai.google.dev/gemini-api/docs/function-calling), and a
//     functionResponse with an "error" key, which the FunctionResponse
//     reference documents for a failed call; and the Python SDK's
//     chat history as model_dump(mode="json") writes it, every key in
//     snake case (function_call, function_response, thought_signature)
//     and every field a part does not use as null; and a response of
//     the same SDK that ran the calls itself (automatic function
//     calling), which keeps them in automatic_function_calling_history
//     and has the answer alone in its candidate;
//   - langchain: messages_to_dict of the tool calling guide's multiply
//     and add (langchain_core/messages/base.py), a LangGraph state of
//     dumpd constructors with an error ToolMessage, and model_dump dicts.
func TestRunExamples(t *testing.T) {
	weather := `{"location":"Paris, France"}`
	sf := `{"location":"San Francisco, CA","unit":"celsius"}`
	tests := []struct {
		file  string
		steps []wantStep
		final string
	}{
		{"openai-request.json", []wantStep{{name: "get_weather", args: weather, id: "call_12345xyz", result: `14`}},
			"The current temperature in Paris is 14°C."},
		{"openai-parallel.json", []wantStep{
			{name: "get_weather", args: weather, id: "call_1", result: `{"temperature":14,"unit":"C"}`},
			{name: "get_weather", args: `{"location":"Bogotá, Colombia"}`, id: "call_2", result: `{"temperature":18,"unit":"C"}`},
			{name: "send_email", reason: "call 2: [4].tool_calls[0].function.arguments is not a usable JSON object", id: "call_3", turn: 1,
				result: `"Error: the arguments did not parse"`},
		}, ""},
		{"ollama-positional.json", []wantStep{
			{name: "get_current_weather", args: `{"format":"celsius","location":"Paris, FR"}`, result: `22`},
			{name: "get_current_weather", args: `{"format":"celsius","location":"Toronto, CA"}`, result: `11`},
		}, "It is 22°C in Paris and 11°C in Toronto."},
		{"responses-run.json", []wantStep{{name: "get_weather", args: weather, id: "call_12345xyz", result: `14`}},
			"The current temperature in Paris is 14°C."},
		{"responses-items.json", []wantStep{
			{name: "get_weather", args: weather, id: "call_1", result: `{"temperature":14}`},
			{name: "get_weather", args: `{"location":"Bogotá, Colombia"}`, id: "call_2", result: `{"temperature":18}`},
		}, "Paris is 14°C, Bogotá 18°C."},
		{"anthropic-request.json", []wantStep{
			{name: "get_weather", args: sf, id: "toolu_01A09q90qw90lq917835lq9",
				result: `"ConnectionError: the weather service API is not available (HTTP 500)"`, toolErr: true},
			{name: "get_weather", args: sf, id: "toolu_02B", turn: 1, result: `"15 degrees"`},
		}, "It is 15 degrees in San Francisco."},
		{"gemini-request.json", []wantStep{{name: "set_light_values", args: `{"brightness":25,"color_temp":"warm"}`,
			result: `{"brightness":25,"colorTemperature":"warm"}`}},
			"I've dimmed the lights to 25% and set a warm color temperature."},
		{"gemini-contents.json", []wantStep{
			{name: "get_weather", args: `{"location":"London"}`, id: "fc-weather", result: `{"output":{"temperature":12,"unit":"C"}}`},
			{name: "schedule_meeting", args: `{"attendees":["Bob"],"date":"2025-03-27","time":"10:00","topic":"Q3 planning"}`,
				result: `{"error":"calendar unavailable"}`, toolErr: true},
		}, ""},
		{"gemini-model-dump.json", []wantStep{
			{name: "find_order", args: `{"email":"ana@example.com"}`, result: `{"result":{"id":"A-1001","status":"delivered","total":25.0}}`},
			{name: "refund", args: `{"amount":25.0,"order_id":"A-1001"}`, turn: 1, result: `{"error":"refund window closed"}`, toolErr: true},
		}, "I couldn't refund order A-1001: its refund window has closed."},
		{"gemini-afc-model-dump.json", []wantStep{
			{name: "get_weather", args: `{"location":"Paris"}`, result: `{"result":{"temperature":14,"unit":"C"}}`},
			{name: "get_weather", args: `{"location":"Bogotá"}`, result: `{"result":{"temperature":18,"unit":"C"}}`},
		}, "It is 14°C in Paris and 18°C in Bogotá."},
		{"langchain-messages-to-dict.json", []wantStep{
			{name: "multiply", args: `{"a":3,"b":12}`, id: "call_1", result: `36`},
			{name: "add", args: `{"a":11,"b":49}`, id: "call_2", result: `60`},
		}, "3 * 12 = 36 and 11 + 49 = 60."},
		{"langchain-state.json", []wantStep{
			{name: "delete_file", args: `{"path":"report.pdf"}`, id: "toolu_1",
				result: `"Error: PermissionError('report.pdf is read-only')\n Please fix your mistakes."`, toolErr: true},
			{name: "log", reason: `messages[1].kwargs.invalid_tool_calls[0] is a call langchain could not read`, id: "toolu_2"},
		}, ""},
		{"langchain-model-dump.json", []wantStep{{name: "multiply", args: `{"a":3,"b":12}`, id: "call_1", result: `36`}}, "36."},
	}
	for _, tt := range tests {
		r := readRunFile(t, tt.file)
		for _, f := range []format.Format{format.Auto, runFiles[tt.file]} {
			run, got, err := readRun(r, f)
			if err != nil || got != runFiles[tt.file] {
				t.Fatalf("%s: ExtractRun(%q) = %q, %v", tt.file, f, got, err)
			}
			checkRun(t, tt.file, run, tt.steps, tt.final)
			// ReadCalls reads the same calls, so that an expected: case
			// scores a conversation's calls.
			calls, _, _ := readCalls(r, f, value.Limits{})
			if !sameCalls(calls, run.Calls()) {
				t.Errorf("%s: Extract = %v, the run's calls %v", tt.file, calls, run.Calls())
			}
		}
	}
}

// TestRunPairing checks the rules by which a result finds its call.
func TestRunPairing(t *testing.T) {
	call := func(id, name string) string {
		return `{"id":"` + id + `","type":"function","function":{"name":"` + name + `","arguments":"{}"}}`
	}
	asst := func(calls ...string) string {
		return `{"role":"assistant","tool_calls":[` + strings.Join(calls, ",") + `]}`
	}
	tool := func(id, content string) string {
		if id == "" {
			return `{"role":"tool","content":"` + content + `"}`
		}
		return `{"role":"tool","tool_call_id":"` + id + `","content":"` + content + `"}`
	}
	tests := []struct {
		name  string
		in    []string
		steps []wantStep
		final string
	}{
		{"by id, out of order", []string{asst(call("a", "f"), call("b", "g")), tool("b", "2"), tool("a", "1")},
			[]wantStep{{name: "f", args: `{}`, id: "a", result: `1`}, {name: "g", args: `{}`, id: "b", result: `2`}}, ""},
		{"by place without ids", []string{asst(call("", "f"), call("", "g")), tool("", "1"), tool("", "2")},
			[]wantStep{{name: "f", args: `{}`, result: `1`}, {name: "g", args: `{}`, result: `2`}}, ""},
		{"a place counts the results before it", []string{asst(call("a", "f"), call("", "g")), tool("a", "1"), tool("", "2")},
			[]wantStep{{name: "f", args: `{}`, id: "a", result: `1`}, {name: "g", args: `{}`, result: `2`}}, ""},
		{"an unknown id does not take a call that has one", []string{asst(call("a", "f")), tool("zzz", "1")},
			[]wantStep{{name: "f", args: `{}`, id: "a"}}, ""},
		{"an unknown id takes its place when the call has none", []string{asst(call("", "f")), tool("zzz", "1")},
			[]wantStep{{name: "f", args: `{}`, result: `1`}}, ""},
		{"the first result wins", []string{asst(call("a", "f")), tool("a", "1"), tool("a", "2")},
			[]wantStep{{name: "f", args: `{}`, id: "a", result: `1`}}, ""},
		{"a result before any turn is passed over", []string{tool("", "1"), asst(call("", "f"))},
			[]wantStep{{name: "f", args: `{}`}}, ""},
		{"a place is in the last turn", []string{asst(call("", "f")), `{"role":"assistant","content":"ok"}`, tool("", "1")},
			[]wantStep{{name: "f", args: `{}`}}, "ok"},
		{"an id reaches an earlier turn", []string{asst(call("a", "f")), asst(call("b", "g")), tool("a", "1")},
			[]wantStep{{name: "f", args: `{}`, id: "a", result: `1`}, {name: "g", args: `{}`, id: "b", turn: 1}}, ""},
		{"a reused id is the latest call's", []string{asst(call("c0", "f")), tool("c0", "1"), asst(call("c0", "g")), tool("c0", "2")},
			[]wantStep{{name: "f", args: `{}`, id: "c0", result: `1`}, {name: "g", args: `{}`, id: "c0", turn: 1, result: `2`}}, ""},
		{"text that is no JSON stays text", []string{asst(call("a", "f")), tool("a", "sunny, 14")},
			[]wantStep{{name: "f", args: `{}`, id: "a", result: `"sunny, 14"`}}, ""},
		{"a result repeating a key stays text", []string{asst(call("a", "f")), tool("a", `{\"k\":1,\"k\":2}`)},
			[]wantStep{{name: "f", args: `{}`, id: "a", result: `"{\"k\":1,\"k\":2}"`}}, ""},
		{"the final answer follows the last call", []string{`{"role":"assistant","content":"let me see"}`, asst(call("a", "f")), tool("a", "1"),
			`{"role":"assistant","content":"done"}`, `{"role":"user","content":"thanks"}`},
			[]wantStep{{name: "f", args: `{}`, id: "a", turn: 1, result: `1`}}, "done"},
		{"a tool's text parts are joined, then parsed", []string{asst(call("a", "f")),
			`{"role":"tool","tool_call_id":"a","content":[{"type":"text","text":"{\"t\":"},{"type":"image_url","image_url":{"url":"x"}},{"type":"text","text":"14}"}]}`},
			[]wantStep{{name: "f", args: `{}`, id: "a", result: `{"t":14}`}}, ""},
		{"a tool's text parts that are no JSON are their text", []string{asst(call("a", "f")),
			`{"role":"tool","tool_call_id":"a","content":[{"type":"text","text":"sunny, "},{"type":"text","text":"14"}]}`},
			[]wantStep{{name: "f", args: `{}`, id: "a", result: `"sunny, 14"`}}, ""},
		{"text beside calls is no final answer", []string{`{"role":"assistant","content":"calling","tool_calls":[` + call("a", "f") + `]}`},
			[]wantStep{{name: "f", args: `{}`, id: "a"}}, ""},
	}
	for _, tt := range tests {
		r, err := value.Parse("[" + strings.Join(tt.in, ",") + "]")
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		run, f, err := readRun(r, format.Auto)
		if err != nil || f != format.OpenAIMessages {
			t.Fatalf("%s: %q, %v", tt.name, f, err)
		}
		checkRun(t, tt.name, run, tt.steps, tt.final)
	}
	// Gemini pairs a response without an id by its name, in order.
	r, _ := value.Parse(`{"contents":[{"role":"model","parts":[{"functionCall":{"name":"f","args":{"n":1}}},{"functionCall":{"name":"g","args":{}}},{"functionCall":{"name":"f","args":{"n":2}}}]},
		{"role":"user","parts":[{"functionResponse":{"name":"f","response":{"r":1}}},{"functionResponse":{"name":"f","response":{"r":2}}},{"functionResponse":{"name":"h","response":{}}}]}]}`)
	run, _, err := readRun(r, format.Auto)
	if err != nil {
		t.Fatal(err)
	}
	checkRun(t, "gemini by name", run, []wantStep{
		{name: "f", args: `{"n":1}`, result: `{"r":1}`}, {name: "g", args: `{}`}, {name: "f", args: `{"n":2}`, result: `{"r":2}`},
	}, "")
}

// TestRunLengths reads runs around the lengths where the builder changes
// how it keeps steps (past smallRun it takes memory; past manyIDs results
// find their calls through a map): every result pairs with its call by
// id, answered in reverse order, and a later turn's reused id is its own;
// Read's steps are ReadCalls's calls, also into memory given for them.
func TestRunLengths(t *testing.T) {
	for _, n := range []int{1, smallRun - 1, smallRun, smallRun + 1, 2*smallRun + 1, manyIDs, manyIDs + 1, 3 * manyIDs} {
		var b strings.Builder
		b.WriteString(`[{"role":"user","content":"go"},{"role":"assistant","tool_calls":[`)
		for k := range n {
			if k > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"id":"c%d","type":"function","function":{"name":"f","arguments":"{\"k\":%d}"}}`, k, k)
		}
		b.WriteString(`]}`)
		for k := n - 1; k >= 0; k-- {
			fmt.Fprintf(&b, `,{"role":"tool","tool_call_id":"c%d","content":"%d"}`, k, k)
		}
		b.WriteString(`,{"role":"assistant","tool_calls":[{"id":"c0","type":"function","function":{"name":"g","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c0","content":"-1"},{"role":"assistant","content":"done"}]`)
		r, err := value.Parse(b.String())
		if err != nil {
			t.Fatal(err)
		}
		want := make([]wantStep, 0, n+1)
		for k := range n {
			want = append(want, wantStep{name: "f", args: `{"k":` + strconv.Itoa(k) + `}`, id: "c" + strconv.Itoa(k), result: strconv.Itoa(k)})
		}
		want = append(want, wantStep{name: "g", args: `{}`, id: "c0", turn: 1, result: "-1"})
		what := strconv.Itoa(n) + " calls"
		run, _, err := readRun(r, format.Auto)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		checkRun(t, what, run, want, "done")
		for _, room := range []int{0, n / 2, n + 1} {
			calls, _, err := Options{Calls: make([]Call, room)}.ReadCalls(r, format.Auto)
			if err != nil || !sameCalls(calls, run.Calls()) {
				t.Errorf("%s, room for %d: ReadCalls = %v, %v, want the run's calls", what, room, calls, err)
			}
		}
	}
}

// TestRunMalformed: a call that does not read is its step's failed call,
// a message of unknown role is passed over unless it holds a call, and a
// conversation that is not a list of objects is a ShapeError.
func TestRunMalformed(t *testing.T) {
	tests := []struct {
		name, in string
		f        format.Format
		steps    []wantStep
	}{
		{"openai bad arguments", `[{"role":"assistant","tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{"}}]},{"role":"tool","tool_call_id":"a","content":"x"}]`, format.Auto,
			[]wantStep{{name: "f", reason: "call 0: [0].tool_calls[0].function.arguments is not a usable JSON object", id: "a", result: `"x"`}}},
		{"openai tool_calls not a list", `{"messages":[{"role":"user","content":"hi"},{"role":"assistant","tool_calls":"f"}]}`, format.Auto,
			[]wantStep{{reason: "call 0: messages[1].tool_calls is a string, not an array"}}},
		{"unknown role skipped", `[{"role":"critic","content":"no"},{"role":"assistant","tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{}"}}]}]`, format.Auto,
			[]wantStep{{name: "f", args: `{}`, id: "a"}}},
		{"unknown role with a call fails", `[{"role":"critic","tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"user","content":"hi"}]`, format.Auto,
			[]wantStep{{reason: `call 0: [0] holds a call, but is a message of role "critic"`}}},
		// A tool's result is no place for a call: it is a failed step,
		// never dropped; a plain result, name and all, is none.
		{"openai tool message with a call", `[{"role":"assistant","tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","tool_call_id":"a","name":"f","content":"ok","tool_calls":[{"id":"b","type":"function","function":{"name":"delete","arguments":"{}"}}]}]`, format.Auto,
			[]wantStep{{name: "f", args: `{}`, id: "a", result: `"ok"`}, {reason: `call 1: [1] holds a call, but is a message of role "tool"`, turn: 1}}},
		{"openai function message with a call", `[{"role":"function","name":"f","content":"ok","function_call":{"name":"delete","arguments":"{}"}},{"role":"user","content":"hi"}]`, format.Auto,
			[]wantStep{{reason: `holds a call, but is a message of role "function"`}}},
		{"openai tool message plain", `[{"role":"assistant","tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","tool_call_id":"a","name":"f","content":"sunny, by name"}]`, format.Auto,
			[]wantStep{{name: "f", args: `{}`, id: "a", result: `"sunny, by name"`}}},
		{"langchain tool message with a call", `[{"type":"ai","data":{"tool_calls":[{"name":"f","args":{},"id":"a"}]}},{"type":"tool","data":{"tool_call_id":"a","content":"ok","tool_calls":[{"name":"delete","args":{},"id":"b"}]}}]`, format.Auto,
			[]wantStep{{name: "f", args: `{}`, id: "a", result: `"ok"`}, {reason: `holds a call, but is a langchain message of type "tool"`, turn: 1}}},
		{"anthropic bad input", `{"system":"s","messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"f","input":"x"}]}]}`, format.Auto,
			[]wantStep{{name: "f", reason: "messages[0].content[0].input is a string, not an object", id: "t"}}},
		{"anthropic block without type", `[{"role":"assistant","content":[{"type":"text","text":"x"},{"name":"f","input":{}}]}]`, format.AnthropicMessages,
			[]wantStep{{reason: "[0].content[1] has no type"}}},
		{"anthropic tool_use in a user message", `[{"role":"user","content":[{"type":"tool_use","id":"t","name":"f","input":{}}]}]`, format.Auto,
			[]wantStep{{reason: "[0].content[0] is a call, in a user message"}}},
		{"gemini args a string", `{"contents":[{"role":"model","parts":[{"functionCall":{"name":"f","args":"{}"}}]}]}`, format.Auto,
			[]wantStep{{name: "f", reason: "contents[0].parts[0].functionCall.args is a string, not an object"}}},
		{"langchain args not an object", `[{"type":"ai","data":{"tool_calls":[{"name":"f","args":"{}","id":"c"}]}}]`, format.Auto,
			[]wantStep{{name: "f", reason: "[0].data.tool_calls[0].args is a string, not an object", id: "c"}}},
		{"langchain data not an object", `[{"type":"ai","data":"x"}]`, format.Auto, []wantStep{{reason: "[0].data is a string, not an object"}}},
		{"responses bad arguments", `{"input":[{"type":"function_call","call_id":"c","name":"f","arguments":"{,}"}]}`, format.Auto,
			[]wantStep{{name: "f", reason: "input[0].arguments is not a usable JSON object", id: "c"}}},
		{"responses item not an object", `[{"type":"function_call_output","call_id":"c","output":"1"},7]`, format.Auto,
			[]wantStep{{reason: "[1] is a number, not an object"}}},
		{"openai forced on an anthropic list", `[{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"f","input":{}}]}]`, format.OpenAIMessages,
			[]wantStep{{reason: "[0].content[0] is a call in another API's shape"}}},
		{"anthropic forced on an openai list", `[{"role":"assistant","tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{}"}}]}]`, format.AnthropicMessages,
			[]wantStep{{reason: "[0].tool_calls holds calls in another API's shape"}}},
	}
	for _, tt := range tests {
		r, err := value.Parse(tt.in)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		run, _, err := readRun(r, tt.f)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		checkRun(t, tt.name, run, tt.steps, "")
		calls, _, _ := readCalls(r, tt.f, value.Limits{})
		if !sameCalls(calls, run.Calls()) {
			t.Errorf("%s: Extract = %v, the run's calls %v", tt.name, calls, run.Calls())
		}
	}
	for _, tt := range []struct {
		in   string
		f    format.Format
		want string
	}{
		{`[{"role":"user","content":"hi"},5]`, format.Auto, "response is a conversation whose element [1] is a number, not a message object, not a known format"},
		{`{"messages":[{"role":"user","content":"hi"},"x"]}`, format.Auto, "element messages[1] is a string"},
		{`{"contents":[null]}`, format.GeminiContents, "not a gemini contents list, or a request that holds one"},
		{`[{"type":"human","data":{}},[]]`, format.Auto, "element [1] is an array"},
		{`{"messages":"hi"}`, format.OpenAIMessages, "response is an object with keys [messages], not an openai chat messages list"},
		{`{"role":"assistant","content":"x"}`, format.AnthropicMessages, "not an anthropic messages list, or a request that holds one"},
	} {
		r, _ := value.Parse(tt.in)
		for _, read := range []func() error{
			func() error { _, _, err := readRun(r, tt.f); return err },
			func() error { _, _, err := readCalls(r, tt.f, value.Limits{}); return err },
		} {
			var se *ShapeError
			if err := read(); !errors.As(err, &se) || se.Want != tt.f || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%s as %q: %v, want a ShapeError saying %q", tt.in, tt.f, err, tt.want)
			}
		}
	}
}

// A single response is a run of one turn: its calls with their ids, and
// its text answer when it has no calls.
func TestRunSingleResponse(t *testing.T) {
	tests := []struct {
		in    string
		f     format.Format
		steps []wantStep
		final string
	}{
		{`{"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"f","arguments":"{}"}}]}}]}`,
			format.OpenAI, []wantStep{{name: "f", args: `{}`, id: "call_1"}}, ""},
		{`{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"f","arguments":"{}"}}],"function_call":{"name":"g","arguments":"{}"}}`,
			format.OpenAI, []wantStep{{name: "f", args: `{}`, id: "call_1"}, {name: "g", args: `{}`}}, ""},
		{`{"choices":[{"message":{"role":"assistant","content":"It is sunny."}}]}`, format.OpenAI, nil, "It is sunny."},
		{`{"choices":[{"message":{"role":"assistant","content":[{"type":"text","text":"It is "},{"type":"text","text":"sunny."}]}}]}`, format.OpenAI, nil, "It is sunny."},
		{`{"choices":[{"message":{"role":"assistant","content":""}}]}`, format.OpenAI, nil, ""},
		{`"It is sunny."`, format.Auto, nil, "It is sunny."},
		{`{"type":"message","role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"f","input":{}}]}`,
			format.Anthropic, []wantStep{{name: "f", args: `{}`, id: "toolu_1"}}, ""},
		{`{"type":"message","role":"assistant","content":[{"type":"thinking","thinking":"hm"},{"type":"text","text":"Hi "},{"type":"text","text":"there."}]}`, format.Anthropic, nil, "Hi there."},
		{`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"id":"g1","name":"f","args":{}}}]}}]}`,
			format.Gemini, []wantStep{{name: "f", args: `{}`, id: "g1"}}, ""},
		{`{"candidates":[{"content":{"role":"model","parts":[{"text":"hm","thought":true},{"text":"Sunny."}]}}]}`, format.Gemini, nil, "Sunny."},
		{`{"candidates":[{"content":{"role":"model","parts":[{"function_call":{"id":"g1","name":"f","args":{}},"function_response":null,"thought_signature":"c2ln"}]},"finish_reason":"STOP"}]}`,
			format.Gemini, []wantStep{{name: "f", args: `{}`, id: "g1"}}, ""},
		{`{"object":"response","output":[{"type":"reasoning","summary":[]},{"type":"function_call","call_id":"c1","name":"f","arguments":"{}"}]}`,
			format.Responses, []wantStep{{name: "f", args: `{}`, id: "c1"}}, ""},
		{`{"object":"response","output":[{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Sunny."}]}]}`, format.Responses, nil, "Sunny."},
		{`[{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Checking."}]},{"type":"function_call","call_id":"c1","name":"f","arguments":"{}"}]`,
			format.Responses, []wantStep{{name: "f", args: `{}`, id: "c1"}}, ""},
		{`{"output":{"message":{"role":"assistant","content":[{"toolUse":{"toolUseId":"tu1","name":"f","input":{}}}]}}}`,
			format.Bedrock, []wantStep{{name: "f", args: `{}`, id: "tu1"}}, ""},
		{`{"output":{"message":{"role":"assistant","content":[{"text":"Sunny."}]}},"stopReason":"end_turn"}`, format.Bedrock, nil, "Sunny."},
		{`{"type":"ai","content":"","tool_calls":[{"name":"f","args":{},"id":"lc1"}],"invalid_tool_calls":[{"name":"g","args":"{","id":"lc2","error":"bad"}]}`,
			format.LangChain, []wantStep{{name: "f", args: `{}`, id: "lc1"}, {name: "g", reason: "could not read", id: "lc2"}}, ""},
		{`{"type":"ai","data":{"content":"Sunny.","tool_calls":[]}}`, format.LangChain, nil, "Sunny."},
		{`{"model":"llama3.2","message":{"role":"assistant","content":"Sunny."},"done":true}`, format.Ollama, nil, "Sunny."},
		{`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"f","arguments":{}}}`, format.MCP, []wantStep{{name: "f", args: `{}`}}, ""},
		{`"<tool_call>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_call>"`, format.Hermes, []wantStep{{name: "f", args: `{}`}}, ""},
	}
	for _, tt := range tests {
		r, err := value.Parse(tt.in)
		if err != nil {
			t.Fatalf("%s: %v", tt.in, err)
		}
		run, f, err := readRun(r, format.Auto)
		if err != nil || f != tt.f {
			t.Fatalf("%s: %q, %v", tt.in, f, err)
		}
		checkRun(t, tt.in, run, tt.steps, tt.final)
	}
}

// With Options.Steps holding the last run's steps, reading the next run
// into them gives the run read without them, nothing of the last left
// behind (a conversation of a few steps, one of more than the builder
// holds, a single response), and a conversation takes no memory for its
// steps.
func TestOptionsStepsReused(t *testing.T) {
	turn := func(id, name string) string {
		return `{"role":"assistant","content":null,"tool_calls":[{"id":"` + id + `","type":"function","function":{"name":"` + name + `","arguments":"{\"n\":1}"}}]},` +
			`{"role":"tool","tool_call_id":"` + id + `","content":"{\"ok\":true}"}`
	}
	var long []string
	for i := range 7 {
		long = append(long, turn("c"+strconv.Itoa(i), "f"+strconv.Itoa(i)))
	}
	tests := []struct{ name, in string }{
		{"short", `[{"role":"user","content":"hi"},` + turn("a", "f") + `,{"role":"assistant","content":"done"}]`},
		{"long", `[` + strings.Join(long, ",") + `]`},
		{"single", completion(oai("a", berlin), oai("b", `"not json"`))},
		{"failed", `[{"role":"assistant","tool_calls":[{"id":"x","function":{"name":"g","arguments":"{"}}]}]`},
	}
	var p value.Parser
	o := Options{Parser: &p, Steps: staleSteps(0)}
	for range 2 {
		for _, tt := range tests {
			r, err := value.Parse(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			want, _, _ := readRun(r, format.Auto)
			p.Reset()
			got, _, err := o.Read(r, format.Auto)
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			if why := runDiff(want, got); why != "" {
				t.Errorf("%s: %s", tt.name, why)
			}
			if cap(got.Steps) > cap(o.Steps) {
				o.Steps = got.Steps[:0]
			}
		}
	}
	r, _ := value.Parse(tests[1].in)
	allocs := testing.AllocsPerRun(100, func() {
		p.Reset()
		if _, _, err := o.Read(r, format.Auto); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("Read into Options.Steps allocates %v times, want 0", allocs)
	}
}

// TestRunPairsByName: results without ids pair by name with the first
// step of that name in the last turn that has none yet, for a turn short
// and long (past manyIDs the builder queues the steps by name), however
// the names interleave and in whatever order the results come.
func TestRunPairsByName(t *testing.T) {
	for _, n := range []int{7, manyIDs + 1, 5 * manyIDs} {
		names := []string{"a", "b", "c"}
		var b strings.Builder
		b.WriteString(`[{"role":"user","parts":[{"text":"go"}]},{"role":"model","parts":[`)
		for k := range n {
			if k > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"functionCall":{"name":"%s","args":{"k":%d}}}`, names[k%3], k)
		}
		b.WriteString(`]},{"role":"user","parts":[`)
		// The results of b, then of c, then of a, each name's in order.
		want := make([]string, n)
		first := true
		for _, name := range []string{"b", "c", "a"} {
			r := 0
			for k := range n {
				if names[k%3] != name {
					continue
				}
				if !first {
					b.WriteByte(',')
				}
				first = false
				fmt.Fprintf(&b, `{"functionResponse":{"name":"%s","response":{"r":"%s%d"}}}`, name, name, r)
				want[k] = fmt.Sprintf(`{"r":"%s%d"}`, name, r)
				r++
			}
		}
		b.WriteString(`]}]`)
		r, err := value.Parse(b.String())
		if err != nil {
			t.Fatal(err)
		}
		run, _, err := readRun(r, format.Auto)
		if err != nil || len(run.Steps) != n {
			t.Fatalf("%d calls: %d steps, %v", n, len(run.Steps), err)
		}
		for k, s := range run.Steps {
			if !s.HasResult || s.Result.String() != want[k] {
				t.Errorf("%d calls: step %d (%s) has result %s, want %s", n, k, s.Name, s.Result.String(), want[k])
			}
		}
	}
}
