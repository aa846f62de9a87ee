package response

import (
	"encoding/json"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

// textExamples are raw model texts of each text format that Auto tells
// by their markers, each holding the call f({"x":1}); TestDetectionExamples
// reads them with the other formats' examples.
var textExamples = map[format.Format][]string{
	format.Hermes:    {"<tool_call>\n{\"name\": \"f\", \"arguments\": {\"x\": 1}}\n</tool_call>"},
	format.QwenCoder: {"<tool_call>\n<function=f>\n<parameter=x>\n1\n</parameter>\n</function>\n</tool_call>"},
	format.LlamaJSON: {`<|python_tag|>{"name": "f", "parameters": {"x": 1}}<|eom_id|>`},
	format.Mistral:   {`[TOOL_CALLS][{"name": "f", "arguments": {"x": 1}}]`, `[TOOL_CALLS]f[ARGS]{"x": 1}`},
	format.DeepSeek: {
		"<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n```json\n{\"x\": 1}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
		`<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f<｜tool▁sep｜>{"x": 1}<｜tool▁call▁end｜><｜tool▁calls▁end｜>`,
	},
	format.Harmony:  {`<|channel|>commentary to=functions.f <|constrain|>json<|message|>{"x":1}<|call|>`},
	format.Pythonic: {`<|python_start|>[f(x=1)]<|python_end|>`},
}

func init() {
	for f, texts := range textExamples {
		for _, s := range texts {
			q, _ := json.Marshal(s)
			formatExamples[f] = append(formatExamples[f], string(q))
		}
	}
}

// textTests read raw text in a forced text format. A call is written
// `name {arguments}`, a failed one `!name: part of its message`. auto
// says what Auto reads the same text as: the format (its markers tell
// it), or Auto for a text answer.
var textTests = []struct {
	name   string
	f      format.Format
	in     string
	params string // the tools' parameters schemas, by tool name
	want   []string
	auto   format.Format
}{
	// Qwen's function calling guide, Hermes-style tool use: two calls,
	// each in a block of its own, with text before them.
	// https://qwen.readthedocs.io/en/latest/framework/function_call.html
	{name: "hermes qwen guide", f: format.Hermes, auto: format.Hermes,
		in: "I'll check both.\n<tool_call>\n{\"name\": \"get_current_temperature\", \"arguments\": {\"location\": \"San Francisco, CA, USA\"}}\n</tool_call>\n" +
			"<tool_call>\n{\"name\": \"get_temperature_date\", \"arguments\": {\"location\": \"San Francisco, CA, USA\", \"date\": \"2024-10-01\"}}\n</tool_call>",
		want: []string{`get_current_temperature {"location":"San Francisco, CA, USA"}`, `get_temperature_date {"date":"2024-10-01","location":"San Francisco, CA, USA"}`}},
	// NousResearch's Hermes 2 Pro model card: arguments before the name.
	{name: "hermes 2 pro", f: format.Hermes, auto: format.Hermes,
		in:   "<tool_call>\n{\"arguments\": {\"symbol\": \"TSLA\"}, \"name\": \"get_stock_fundamentals\"}\n</tool_call>",
		want: []string{`get_stock_fundamentals {"symbol":"TSLA"}`}},
	{name: "hermes no call", f: format.Hermes, auto: format.Auto, in: "The weather is fine.", want: nil},
	{name: "hermes unclosed", f: format.Hermes, auto: format.Hermes,
		in:   "<tool_call>\n{\"name\": \"f\", \"arguments\": {\"x\": 1}}\n",
		want: []string{`!: text[0:49] "<tool_call>\n{\"name\": \"f\", \"arguments\": {\"x\": 1}}\n": never closed: no </tool_call> follows`}},
	{name: "hermes unclosed then a call", f: format.Hermes, auto: format.Hermes,
		in:   "<tool_call>{\"name\": \"f\"<tool_call>{\"name\": \"g\", \"arguments\": {}}</tool_call>",
		want: []string{`!: text[0:23] "<tool_call>{\"name\": \"f\"": never closed`, `g {}`}},
	{name: "hermes bad JSON", f: format.Hermes, auto: format.Hermes,
		in:   `<tool_call>{"name": "f", "arguments": {"x": 1,}}</tool_call>`,
		want: []string{`!: text[11:48] "{\"name\": \"f\", \"arguments\": {\"x\": 1,}}": not a usable JSON object: invalid JSON at byte 46`}},
	{name: "hermes arguments a string", f: format.Hermes, auto: format.Hermes,
		in:   `<tool_call>{"name": "f", "arguments": "{\"x\": 1}"}</tool_call>`,
		want: []string{`!f: "arguments" is a string, not an object`}},
	{name: "hermes no name", f: format.Hermes, auto: format.Hermes,
		in:   `<tool_call>{"arguments": {}}</tool_call><tool_call>{"name": 5}</tool_call><tool_call>{"name": "h"}</tool_call>`,
		want: []string{`!: "name" is missing`, `!: "name" is a number, not a string`, `!h: "arguments" is missing`}},
	{name: "hermes empty block", f: format.Hermes, auto: format.Hermes, in: `<tool_call></tool_call>`,
		want: []string{`!: text[11:11] "": not a usable JSON object`}},
	{name: "hermes duplicate key", f: format.Hermes, auto: format.Hermes, in: `<tool_call>{"name": "f", "arguments": {"x": 1, "x": 2}}</tool_call>`,
		want: []string{`!: not a usable JSON object: duplicate key`}},

	// vLLM's Qwen3-Coder parser tests
	// (tests/tool_use/test_qwen3coder_tool_parser.py): typed parameters,
	// a multi-line object, text before the call, two calls.
	{name: "qwen coder typed", f: format.QwenCoder, auto: format.QwenCoder,
		params: `{"calculate_area": {"type": "object", "properties": {"shape": {"type": "string"}, "dimensions": {"type": "object"}, "precision": {"type": "integer"}}}}`,
		in:     "Let me calculate that area for you.<tool_call>\n<function=calculate_area>\n<parameter=shape>\nrectangle\n</parameter>\n<parameter=dimensions>\n{\"width\": 10, \n \"height\": 20}\n</parameter>\n<parameter=precision>\n2\n</parameter>\n</function>\n</tool_call>",
		want:   []string{`calculate_area {"dimensions":{"height":20,"width":10},"precision":2,"shape":"rectangle"}`}},
	{name: "qwen coder untyped", f: format.QwenCoder, auto: format.QwenCoder,
		in:   "<tool_call>\n<function=calculate_area>\n<parameter=shape>\nrectangle\n</parameter>\n<parameter=precision>\n2\n</parameter>\n</function>\n</tool_call>",
		want: []string{`calculate_area {"precision":"2","shape":"rectangle"}`}},
	{name: "qwen coder parallel", f: format.QwenCoder, auto: format.QwenCoder,
		in: "<tool_call>\n<function=get_current_weather>\n<parameter=city>\nDallas\n</parameter>\n<parameter=state>\nTX\n</parameter>\n</function>\n</tool_call>\n" +
			"<tool_call>\n<function=get_current_weather>\n<parameter=city>\nOrlando\n</parameter>\n<parameter=state>\nFL\n</parameter>\n</function>\n</tool_call>",
		want: []string{`get_current_weather {"city":"Dallas","state":"TX"}`, `get_current_weather {"city":"Orlando","state":"FL"}`}},
	// test_extract_tool_calls_type_conversion, float being vLLM's name.
	{name: "qwen coder type conversion", f: format.QwenCoder, auto: format.QwenCoder,
		params: `{"test_types": {"properties": {"int_param": {"type": "integer"}, "float_param": {"type": "float"}, "bool_param": {"type": "boolean"}, "str_param": {"type": "string"}, "obj_param": {"type": "object"}}}}`,
		in:     "<tool_call>\n<function=test_types>\n<parameter=int_param>\n42\n</parameter>\n<parameter=float_param>\n3.14\n</parameter>\n<parameter=bool_param>\ntrue\n</parameter>\n<parameter=str_param>\nhello world\n</parameter>\n<parameter=obj_param>\n{\"key\": \"value\"}\n</parameter>\n</function>\n</tool_call>",
		want:   []string{`test_types {"bool_param":true,"float_param":3.14,"int_param":42,"obj_param":{"key":"value"},"str_param":"hello world"}`}},
	// test_extract_tool_calls_fallback_no_tags: no <tool_call> around.
	{name: "qwen coder bare function", f: format.QwenCoder, auto: format.Auto,
		in:   "<function=get_current_weather>\n<parameter=city>\nDallas\n</parameter>\n</function>",
		want: []string{`get_current_weather {"city":"Dallas"}`}},
	{name: "qwen coder unclosed parameter", f: format.QwenCoder, auto: format.QwenCoder,
		in:   "<tool_call>\n<function=f>\n<parameter=x>\n1\n<parameter=y>\n2\n</function>\n</tool_call>",
		want: []string{`!f: text[25:57] "<parameter=x>\n1\n<parameter=y>\n2\n": never closed: no </parameter> follows`}},
	{name: "qwen coder unclosed function", f: format.QwenCoder, auto: format.QwenCoder,
		in:   "<tool_call>\n<function=f>\n<parameter=x>\n1\n</parameter>\n</tool_call>",
		want: []string{`!: text[12:54] "<function=f>\n<parameter=x>\n1\n</parameter>\n": never closed: no </function> follows`}},
	{name: "qwen coder unclosed tool call", f: format.QwenCoder, auto: format.QwenCoder,
		in:   "<tool_call>\n<function=f>\n</function>",
		want: []string{`!: never closed: no </tool_call> follows`}},
	{name: "qwen coder JSON inside", f: format.QwenCoder, auto: format.Hermes,
		in:   `<tool_call>{"name": "f", "arguments": {}}</tool_call>`,
		want: []string{`!: text[11:41] "{\"name\": \"f\", \"arguments\": {}}": not a <function=…> block`}},
	{name: "qwen coder text between parameters", f: format.QwenCoder, auto: format.QwenCoder,
		in:   "<tool_call><function=f>\n<parameter=x>1</parameter> and <parameter=y>2</parameter></function></tool_call>",
		want: []string{`!f: "and <parameter=y>2</parameter>": not a <parameter=…> block`}},
	{name: "qwen coder parameter twice", f: format.QwenCoder, auto: format.QwenCoder,
		in:   "<tool_call><function=f><parameter=x>1</parameter><parameter=x>2</parameter></function></tool_call>",
		want: []string{`!f: gives a parameter twice: duplicate key`}},
	{name: "qwen coder no name", f: format.QwenCoder, auto: format.QwenCoder,
		in:   "<tool_call><function=></function><function=g</function></tool_call>",
		want: []string{`!: names no function`, `!: has no '>' after the function's name`}},

	// The JSON-based tool calling of Llama 3.1's model card
	// (meta-llama/llama-models, models/llama3_1/prompt_format.md), and
	// several calls joined by ";" as vLLM's llama3_json parser reads them.
	{name: "llama model card", f: format.LlamaJSON, auto: format.Auto,
		in:   `{"name": "get_current_conditions", "parameters": {"location": "San Francisco, CA", "unit": "Fahrenheit"}}`,
		want: []string{`get_current_conditions {"location":"San Francisco, CA","unit":"Fahrenheit"}`}},
	{name: "llama python tag", f: format.LlamaJSON, auto: format.LlamaJSON,
		in:   `<|python_tag|>{"name": "f", "parameters": {"x": 1}}; {"name": "g", "arguments": {}}<|eom_id|>`,
		want: []string{`f {"x":1}`, `g {}`}},
	// The JSON of llama-stack's decoder test has a type key; with text
	// before it, as there, it is a text answer.
	{name: "llama type key", f: format.LlamaJSON, auto: format.Auto,
		in:   "{\"type\": \"function\", \"name\": \"get_weather\", \"parameters\": {\"location\": \"San Francisco, CA\"}}",
		want: []string{`get_weather {"location":"San Francisco, CA"}`}},
	{name: "llama after text", f: format.LlamaJSON, auto: format.Auto,
		in:   "I'll help you get the weather information.\n\n{\"type\": \"function\", \"name\": \"get_weather\", \"parameters\": {\"location\": \"San Francisco, CA\"}}",
		want: nil},
	{name: "llama text answer", f: format.LlamaJSON, auto: format.Auto, in: "It is sunny {today}.", want: nil},
	{name: "llama builtin tool", f: format.LlamaJSON, auto: format.LlamaJSON,
		in:   `<|python_tag|>brave_search.call(query="Menlo Park")<|eom_id|>`,
		want: []string{`!: text[14:51] "brave_search.call(query=\"Menlo Park\")": not a JSON call`}},
	{name: "llama both keys", f: format.LlamaJSON, auto: format.Auto,
		in:   `{"name": "f", "parameters": {}, "arguments": {}}`,
		want: []string{`!f: has both "parameters" and "arguments"`}},
	{name: "llama unclosed", f: format.LlamaJSON, auto: format.Auto,
		in:   `{"name": "f", "parameters": {"x": 1}`,
		want: []string{`!: text[0:36] "{\"name\": \"f\", \"parameters\": {\"x\": 1}": never closed`}},
	{name: "llama dangling separator", f: format.LlamaJSON, auto: format.Auto,
		in:   `{"name": "f", "parameters": {}}; and then`,
		want: []string{`f {}`, `!: text[33:41] "and then": not a JSON call`}},

	// mistral-common's decoder (tokens/tokenizers/tools.py): the JSON
	// list of tokenizers v2 to v7, and NAME[ARGS] and NAME[CALL_ID]ID[ARGS]
	// of v11 on, several calls one after another.
	{name: "mistral v3 list", f: format.Mistral, auto: format.Mistral,
		in:   `[TOOL_CALLS] [{"name": "get_current_weather", "arguments": {"location": "Boston, MA", "unit": "fahrenheit"}}]`,
		want: []string{`get_current_weather {"location":"Boston, MA","unit":"fahrenheit"}`}},
	// SGLang's mistral detector doc: the answer's text follows the list.
	{name: "mistral list then text", f: format.Mistral, auto: format.Mistral,
		in:   "[TOOL_CALLS] [{\"name\": \"get_current_weather\", \"arguments\": {\"location\": \"Boston, MA\"}}, {\"id\": \"abcdef123\", \"name\": \"g\", \"arguments\": {}}]\n\nToday's weather in Boston is :{function call result} (in Fahrenheit)",
		want: []string{`get_current_weather {"location":"Boston, MA"}`, `g {}`}},
	{name: "mistral v11", f: format.Mistral, auto: format.Mistral,
		in:   `Sure.[TOOL_CALLS]add[ARGS]{"a": 3.5, "b": 4}[TOOL_CALLS]get_weather[CALL_ID]a1b2c3d4e[ARGS]{"city": "Paris"}</s>`,
		want: []string{`add {"a":3.5,"b":4}`, `get_weather {"city":"Paris"}`}},
	// vLLM's mistral parser: [ARGS] dropped as a control token.
	{name: "mistral without args token", f: format.Mistral, auto: format.Mistral,
		in:   `[TOOL_CALLS]add{"a": 3.5, "b": 4}`,
		want: []string{`add {"a":3.5,"b":4}`}},
	{name: "mistral bad list", f: format.Mistral, auto: format.Mistral,
		in:   `[TOOL_CALLS][{"name": "f", "arguments": {"x": 1}}, {"name": "g"}, 5]`,
		want: []string{`f {"x":1}`, `!g: element 1: "arguments" is missing`, `!: element 2: is a number, not an object`}},
	{name: "mistral unclosed list", f: format.Mistral, auto: format.Mistral,
		in:   `[TOOL_CALLS][{"name": "f", "arguments": {"x": 1}}`,
		want: []string{`!: text[0:49] "[TOOL_CALLS][{\"name\": \"f\", \"arguments\": {\"x\": 1}}": never closed`}},
	{name: "mistral no arguments", f: format.Mistral, auto: format.Mistral,
		in:   `[TOOL_CALLS]f[ARGS]hello[TOOL_CALLS]g[CALL_ID]123`,
		want: []string{`!f: text[0:24] "[TOOL_CALLS]f[ARGS]hello": has no JSON object of arguments`, `!g: has no [ARGS] after its [CALL_ID]`}},
	// Prose after the token starts no call: Auto reads a text answer.
	{name: "mistral not a call", f: format.Mistral, auto: format.Auto,
		in:   `[TOOL_CALLS] I cannot call tools.`,
		want: []string{`!: not a call: want NAME[ARGS]{…} or a JSON list of calls`}},

	// vLLM's DeepSeek V3 parser doc, two calls, and its V3.1 parser tests
	// (tests/tool_use/test_deepseekv31_tool_parser.py).
	{name: "deepseek v3", f: format.DeepSeek, auto: format.DeepSeek,
		in: "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_current_weather\n```json\n{\"location\": \"Beijing\"}\n```<｜tool▁call▁end｜>\n" +
			"<｜tool▁call▁begin｜>function<｜tool▁sep｜>get_current_weather\n```json\n{\"location\": \"Shanghai\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜><｜end▁of▁sentence｜>",
		want: []string{`get_current_weather {"location":"Beijing"}`, `get_current_weather {"location":"Shanghai"}`}},
	{name: "deepseek v3.1", f: format.DeepSeek, auto: format.DeepSeek,
		in:   `some prefix text<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>foo<｜tool▁sep｜>{"x":1}<｜tool▁call▁end｜><｜tool▁call▁begin｜>bar<｜tool▁sep｜>{"y":2}<｜tool▁call▁end｜><｜tool▁calls▁end｜> some suffix text`,
		want: []string{`foo {"x":1}`, `bar {"y":2}`}},
	{name: "deepseek unclosed", f: format.DeepSeek, auto: format.DeepSeek,
		in:   `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>foo<｜tool▁sep｜>{"x":1}`,
		want: []string{`!: never closed: no <｜tool▁call▁end｜> follows`}},
	{name: "deepseek bad", f: format.DeepSeek, auto: format.DeepSeek,
		in: `<｜tool▁call▁begin｜>foo{"x":1}<｜tool▁call▁end｜>` +
			"<｜tool▁call▁begin｜>function<｜tool▁sep｜>foo\n{\"x\":1}<｜tool▁call▁end｜>" +
			`<｜tool▁call▁begin｜>foo<｜tool▁sep｜>{"x":}<｜tool▁call▁end｜>`,
		want: []string{`!: has no <｜tool▁sep｜>`, "!foo: not a ```json block", `!foo: not a usable JSON object`}},

	// The harmony format's guide (openai/harmony, docs/format.md): a call
	// after the chain of thought, the recipient in the channel section,
	// and in the role section; a preamble; a final answer.
	{name: "harmony guide", f: format.Harmony, auto: format.Harmony,
		in:   `<|channel|>analysis<|message|>Need to use function get_weather.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"location":"San Francisco"}<|call|>`,
		want: []string{`get_weather {"location":"San Francisco"}`}},
	{name: "harmony role header", f: format.Harmony, auto: format.Harmony,
		in:   `<|start|>assistant to=functions.get_weather<|channel|>commentary json<|message|>{"location":"Tokyo"}`,
		want: []string{`get_weather {"location":"Tokyo"}`}},
	{name: "harmony preamble", f: format.Harmony, auto: format.Harmony,
		in:   `<|channel|>analysis<|message|>{long chain of thought}<|end|><|start|>assistant<|channel|>commentary<|message|>**Action plan**: generate a file<|end|><|start|>assistant<|channel|>commentary to=functions.generate_file<|constrain|>json<|message|>{"template": "basic_html", "path": "index.html"}<|call|>`,
		want: []string{`generate_file {"path":"index.html","template":"basic_html"}`}},
	{name: "harmony final answer", f: format.Harmony, auto: format.Harmony,
		in:   `<|channel|>analysis<|message|>User asks: "What is 2 + 2?" Simple arithmetic.<|end|><|start|>assistant<|channel|>final<|message|>2 + 2 = 4.<|return|>`,
		want: nil},
	{name: "harmony builtin and tool output", f: format.Harmony, auto: format.Harmony,
		in:   `<|channel|>analysis to=browser.search<|message|>{"query": "weather"}<|call|><|start|>functions.get_weather to=assistant<|channel|>commentary<|message|>{"sunny": true}<|end|>`,
		want: []string{`browser.search {"query":"weather"}`}},
	{name: "harmony bad", f: format.Harmony, auto: format.Harmony,
		in:   `<|channel|>commentary to=functions.f json<|message|>{"x": <|call|><|start|>assistant<|channel|>commentary to=functions.g`,
		want: []string{`!f: text[52:57] "{\"x\":": not a usable JSON object: invalid JSON at byte 57`, `!g: never reaches <|message|>`}},

	// vLLM's tool calling guide, pythonic calls (Llama 3.2), and Llama
	// 4's <|python_start|>.
	{name: "pythonic", f: format.Pythonic, auto: format.Auto,
		in:   `[get_weather(city='San Francisco', metric='celsius'), get_weather(city='Seattle', metric='celsius')]`,
		want: []string{`get_weather {"city":"San Francisco","metric":"celsius"}`, `get_weather {"city":"Seattle","metric":"celsius"}`}},
	{name: "pythonic llama 4", f: format.Pythonic, auto: format.Pythonic,
		in:   `<|python_start|>[get_weather(location="San Francisco, CA")]<|python_end|><|eot|>`,
		want: []string{`get_weather {"location":"San Francisco, CA"}`}},
	{name: "pythonic one call", f: format.Pythonic, auto: format.Auto, in: `math.hypot(x=3, y=4.0)`, want: []string{`math.hypot {"x":3,"y":4.0}`}},
	{name: "pythonic text answer", f: format.Pythonic, auto: format.Auto, in: `It is sunny (mostly).`, want: nil},
	{name: "pythonic bad second call", f: format.Pythonic, auto: format.Auto,
		in:   `[f(x=1), g(y=), h(z=2)]`,
		want: []string{`f {"x":1}`, `!: text[9:23] "g(y=), h(z=2)]": not Python calls: at byte 13: expected a value`}},
	{name: "pythonic positional", f: format.Pythonic, auto: format.Auto, in: `f(1)`,
		want: []string{`!: text[0:4] "f(1)": not Python calls: at byte 2: call of f: expected a keyword argument`}},
}

func TestTextFormats(t *testing.T) {
	for _, tt := range textTests {
		t.Run(tt.name, func(t *testing.T) {
			o := Options{}
			if tt.params != "" {
				p, err := value.Parse(tt.params)
				if err != nil {
					t.Fatal(err)
				}
				o.Params = map[string]value.Value{}
				for _, m := range p.Members() {
					o.Params[m.Key] = m.Value
				}
			}
			r := value.StringOf(tt.in)
			calls, got, err := o.ReadCalls(r, tt.f)
			if err != nil || got != tt.f {
				t.Fatalf("Extract(%s) = %q, %v", tt.f, got, err)
			}
			checkCalls(t, calls, tt.want)
			if _, got, err := o.ReadCalls(r, format.Auto); err != nil || got != tt.auto {
				t.Errorf("Auto reads it as %q, %v; want %q", got, err, tt.auto)
			}
		})
	}
}

// Every block that starts a call is read, however many the text has and
// whatever stands between them: a second block is never dropped.
var textBlockTests = []struct {
	name string
	f    format.Format
	in   string
	want []string
	auto format.Format
}{
	{name: "pythonic two python_start blocks", f: format.Pythonic, auto: format.Pythonic,
		in:   `<|python_start|>[f(x=1)]<|python_end|> and <|python_start|>g(y=2)<|python_end|><|eot|>`,
		want: []string{`f {"x":1}`, `g {"y":2}`}},
	{name: "pythonic block never ended, then another", f: format.Pythonic, auto: format.Pythonic,
		in:   `<|python_start|>[f(x=1)]<|python_start|>[g(y=2)]`,
		want: []string{`f {"x":1}`, `g {"y":2}`}},
	{name: "pythonic empty block", f: format.Pythonic, auto: format.Pythonic,
		in:   `<|python_start|><|python_end|>`,
		want: []string{`!: text[0:30] "<|python_start|><|python_end|>": holds no call`}},
	{name: "pythonic block of prose", f: format.Pythonic, auto: format.Auto,
		in:   `<|python_start|>hello there<|python_end|>`,
		want: []string{`!: text[16:27] "hello there": not Python calls`}},
	{name: "pythonic calls then end of turn", f: format.Pythonic, auto: format.Auto,
		in:   "[f(x=1)]<|eot_id|>\n",
		want: []string{`f {"x":1}`}},
	{name: "llama two python tags", f: format.LlamaJSON, auto: format.LlamaJSON,
		in:   `<|python_tag|>{"name": "f", "parameters": {"x": 1}}<|eom_id|><|python_tag|>{"name": "g", "parameters": {}}<|eom_id|>`,
		want: []string{`f {"x":1}`, `g {}`}},
	{name: "llama call then a python tag", f: format.LlamaJSON, auto: format.LlamaJSON,
		in:   `{"name": "f", "parameters": {"x": 1}}<|python_tag|>{"name": "g", "parameters": {}}`,
		want: []string{`f {"x":1}`, `g {}`}},
	{name: "llama python tag in a string", f: format.LlamaJSON, auto: format.LlamaJSON,
		in:   `<|python_tag|>{"name": "f", "parameters": {"s": "<|python_tag|>"}}`,
		want: []string{`f {"s":"<|python_tag|>"}`}},
	{name: "qwen coder bare function before a block", f: format.QwenCoder, auto: format.QwenCoder,
		in:   "<function=f>\n<parameter=x>\n1\n</parameter>\n</function>\n<tool_call>\n<function=g>\n<parameter=y>\n2\n</parameter>\n</function>\n</tool_call>",
		want: []string{`f {"x":"1"}`, `g {"y":"2"}`}},
	{name: "qwen coder bare function after a block", f: format.QwenCoder, auto: format.QwenCoder,
		in:   "<tool_call>\n<function=g>\n<parameter=y>\n2\n</parameter>\n</function>\n</tool_call>\n<function=f>\n<parameter=x>\n1\n</parameter>\n</function>",
		want: []string{`g {"y":"2"}`, `f {"x":"1"}`}},
	{name: "qwen coder bare function never closed", f: format.QwenCoder, auto: format.QwenCoder,
		in:   "<tool_call>\n<function=g>\n</function>\n</tool_call><function=f>",
		want: []string{`g {}`, `!: text[49:61] "<function=f>": never closed`}},
	{name: "hermes three blocks, text between", f: format.Hermes, auto: format.Hermes,
		in:   `<tool_call>{"name": "a", "arguments": {}}</tool_call> then <tool_call>{"name": "b", "arguments": {}}</tool_call><tool_call>{"name": "c", "arguments": {}}</tool_call>`,
		want: []string{`a {}`, `b {}`, `c {}`}},
	{name: "mistral several tool calls tokens", f: format.Mistral, auto: format.Mistral,
		in:   `[TOOL_CALLS][{"name": "a", "arguments": {}}] so [TOOL_CALLS][{"name": "b", "arguments": {}}][TOOL_CALLS]c[ARGS]{}`,
		want: []string{`a {}`, `b {}`, `c {}`}},
	{name: "deepseek two sections", f: format.DeepSeek, auto: format.DeepSeek,
		in:   `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>a<｜tool▁sep｜>{}<｜tool▁call▁end｜><｜tool▁calls▁end｜> and <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>b<｜tool▁sep｜>{}<｜tool▁call▁end｜><｜tool▁calls▁end｜>`,
		want: []string{`a {}`, `b {}`}},
	// A block reader reads JSON as JSON: an end token in a string of the
	// arguments does not end the block.
	{name: "hermes close tag in a string", f: format.Hermes, auto: format.Hermes,
		in:   `<tool_call>{"name": "f", "arguments": {"s": "a </tool_call> b"}}</tool_call><tool_call>{"name": "g", "arguments": {}}</tool_call>`,
		want: []string{`f {"s":"a </tool_call> b"}`, `g {}`}},
	{name: "hermes open tag in a string", f: format.Hermes, auto: format.Hermes,
		in:   `<tool_call>{"name": "f", "arguments": {"s": "<tool_call>"}}</tool_call>`,
		want: []string{`f {"s":"<tool_call>"}`}},
	{name: "hermes other format's end in a string", f: format.Hermes, auto: format.Hermes,
		in:   `<tool_call>{"name": "f", "arguments": {"s": "[TOOL_CALLS]<|python_tag|></function>"}}</tool_call>`,
		want: []string{`f {"s":"[TOOL_CALLS]<|python_tag|></function>"}`}},
	{name: "hermes broken JSON around a close tag", f: format.Hermes, auto: format.Hermes,
		in:   `<tool_call>{"name": "f", "arguments": {"s": "</tool_call>"}</tool_call>`,
		want: []string{`!: not a usable JSON object`}},
	{name: "mistral marker in a string", f: format.Mistral, auto: format.Mistral,
		in:   `[TOOL_CALLS][{"name": "f", "arguments": {"s": "[TOOL_CALLS]g[ARGS]{}"}}]`,
		want: []string{`f {"s":"[TOOL_CALLS]g[ARGS]{}"}`}},
	{name: "mistral v11 marker in a string", f: format.Mistral, auto: format.Mistral,
		in:   `[TOOL_CALLS]f[ARGS]{"s": "x[TOOL_CALLS]y"}</s>`,
		want: []string{`f {"s":"x[TOOL_CALLS]y"}`}},
	{name: "mistral empty list", f: format.Mistral, auto: format.Mistral,
		in:   `[TOOL_CALLS][]`,
		want: []string{`!: text[0:14] "[TOOL_CALLS][]": holds no call`}},
	{name: "deepseek end token in a string", f: format.DeepSeek, auto: format.DeepSeek,
		in:   `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f<｜tool▁sep｜>{"s": "<｜tool▁call▁end｜>"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>`,
		want: []string{`f {"s":"<｜tool▁call▁end｜>"}`}},
	{name: "deepseek v3 end token in a string", f: format.DeepSeek, auto: format.DeepSeek,
		in:   "<｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n```json\n{\"s\": \"<｜tool▁call▁end｜>\"}\n```<｜tool▁call▁end｜>",
		want: []string{`f {"s":"<｜tool▁call▁end｜>"}`}},
	// A call-start marker with nothing after it is a failed call.
	{name: "deepseek calls begin alone", f: format.DeepSeek, auto: format.DeepSeek,
		in:   `<｜tool▁calls▁begin｜>`,
		want: []string{`!: holds no <｜tool▁call▁begin｜>`}},
	{name: "deepseek calls begin and end, nothing between", f: format.DeepSeek, auto: format.DeepSeek,
		in:   `Sure.<｜tool▁calls▁begin｜><｜tool▁calls▁end｜><｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f<｜tool▁sep｜>{}<｜tool▁call▁end｜>`,
		want: []string{`!: holds no <｜tool▁call▁begin｜>`, `f {}`}},
	{name: "hermes open tag alone", f: format.Hermes, auto: format.Hermes, in: "<tool_call><|im_end|>",
		want: []string{`!: never closed`}},
	// Trailing end-of-turn tokens are passed over.
	{name: "llama end of turn tokens", f: format.LlamaJSON, auto: format.LlamaJSON,
		in:   `<|python_tag|>{"name": "f", "parameters": {}}<|eom_id|><|eot_id|>`,
		want: []string{`f {}`}},
	{name: "hermes end of turn tokens", f: format.Hermes, auto: format.Hermes,
		in:   `<tool_call>{"name": "f", "arguments": {}}</tool_call><|im_end|></s>`,
		want: []string{`f {}`}},
	// Forced llama-json on JSON that is no call is a text answer.
	{name: "llama JSON answer", f: format.LlamaJSON, auto: format.Auto, in: `{"answer": 42, "unit": "m"}`, want: nil},
	{name: "llama JSON list answer", f: format.LlamaJSON, auto: format.Auto, in: `{"items": [1, 2]}; done`, want: nil},
	{name: "llama name but no parameters", f: format.LlamaJSON, auto: format.Auto, in: `{"name": "f"}`,
		want: []string{`!f: "parameters" is missing`}},
	{name: "llama JSON after a tag must be a call", f: format.LlamaJSON, auto: format.LlamaJSON, in: `<|python_tag|>{"answer": 42}`,
		want: []string{`!: "name" is missing`}},
	// Neighbouring corners: empty arguments, an empty name (a call, not
	// dropped), a marker in another case (no marker).
	{name: "hermes empty arguments and empty name", f: format.Hermes, auto: format.Hermes,
		in:   `<tool_call>{"name": "f", "arguments": {}}</tool_call><tool_call>{"name": "", "arguments": {}}</tool_call>`,
		want: []string{`f {}`, ` {}`}},
	{name: "hermes marker in upper case", f: format.Hermes, auto: format.Auto,
		in: `<TOOL_CALL>{"name": "f", "arguments": {}}</TOOL_CALL>`, want: nil},
	// A call right after a call, without its format's separator or
	// marker, is read: passed over as text, it would vanish from never
	// and max_calls.
	{name: "llama-json calls on two lines", f: format.LlamaJSON, auto: format.LlamaJSON,
		in:   "<|python_tag|>{\"name\": \"f\", \"parameters\": {\"x\": 1}}\n{\"name\": \"g\", \"parameters\": {}}<|eom_id|>",
		want: []string{`f {"x":1}`, `g {}`}},
	{name: "llama-json a call after the end of turn", f: format.LlamaJSON, auto: format.LlamaJSON,
		in:   `<|python_tag|>{"name": "f", "parameters": {}}<|eom_id|>{"name": "g", "parameters": {}}`,
		want: []string{`f {}`, `g {}`}},
	{name: "llama-json text after the calls", f: format.LlamaJSON, auto: format.LlamaJSON,
		in:   `<|python_tag|>{"name": "f", "parameters": {}}<|eom_id|> Done.`,
		want: []string{`f {}`}},
	{name: "mistral NAME[ARGS] after a call", f: format.Mistral, auto: format.Mistral,
		in:   "[TOOL_CALLS]f[ARGS]{\"x\": 1}\ng[ARGS]{}",
		want: []string{`f {"x":1}`, `g {}`}},
	{name: "mistral a list after a list", f: format.Mistral, auto: format.Mistral,
		in:   "[TOOL_CALLS][{\"name\": \"f\", \"arguments\": {}}]\n[{\"name\": \"g\", \"arguments\": {}}]</s>",
		want: []string{`f {}`, `g {}`}},
	{name: "mistral an object after an object", f: format.Mistral, auto: format.Mistral,
		in:   "[TOOL_CALLS]{\"name\": \"f\", \"arguments\": {}} {\"name\": \"g\", \"arguments\": {}}",
		want: []string{`f {}`, `g {}`}},
	{name: "mistral text after a call", f: format.Mistral, auto: format.Mistral,
		in:   "[TOOL_CALLS]f[ARGS]{} I called f.",
		want: []string{`f {}`}},
	{name: "hermes a list in the tag", f: format.Hermes, auto: format.Hermes,
		in:   "<tool_call>\n[{\"name\": \"f\", \"arguments\": {}}]\n</tool_call>",
		want: []string{`!: holds an array, not a JSON object`}},
	{name: "hermes a fence in the tag", f: format.Hermes, auto: format.Hermes,
		in:   "<tool_call>\n```json\n{\"name\": \"f\", \"arguments\": {}}\n```\n</tool_call>",
		want: []string{`!: not a usable JSON object`}},
	{name: "harmony two calls", f: format.Harmony, auto: format.Harmony,
		in:   `<|channel|>commentary to=functions.a <|constrain|>json<|message|>{}<|call|><|start|>assistant<|channel|>commentary to=functions.b <|constrain|>json<|message|>{}<|call|>`,
		want: []string{`a {}`, `b {}`}},
}

func TestTextEveryBlock(t *testing.T) {
	for _, tt := range textBlockTests {
		t.Run(tt.name, func(t *testing.T) {
			r := value.StringOf(tt.in)
			calls, got, err := readCalls(r, tt.f, value.Limits{})
			if err != nil || got != tt.f {
				t.Fatalf("Extract(%s) = %q, %v", tt.f, got, err)
			}
			checkCalls(t, calls, tt.want)
			if _, got, err := readCalls(r, format.Auto, value.Limits{}); err != nil || got != tt.auto {
				t.Errorf("Auto reads it as %q, %v; want %q", got, err, tt.auto)
			}
		})
	}
}

// checkCalls checks calls against want, written as textTests write them.
func checkCalls(t *testing.T, calls []Call, want []string) {
	t.Helper()
	if len(calls) != len(want) {
		t.Errorf("got %d calls, want %d: %v", len(calls), len(want), calls)
		return
	}
	for i, c := range calls {
		w := want[i]
		if rest, failed := strings.CutPrefix(w, "!"); failed {
			name, msg, _ := strings.Cut(rest, ": ")
			var ae *ArgumentsError
			if c.Err == nil || !errors.As(c.Err, &ae) || ae.Index != i || c.Name != name || !strings.Contains(c.Err.Error(), msg) {
				t.Errorf("call %d = %q %s %v, want it to fail: %q", i, c.Name, c.Args, c.Err, w)
			}
			continue
		}
		if got := c.Name + " " + c.Args.String(); c.Err != nil || got != w {
			t.Errorf("call %d = %q, %v; want %s", i, got, c.Err, w)
		}
	}
}

// A forced text format reads the text where a server without the tool
// parser leaves it: the content of a chat completion's message (a string,
// or text parts), a message, or the text of a legacy completion. Calls
// the server did parse are failed calls, read as openai's.
func TestTextInMessages(t *testing.T) {
	text := strconv.Quote("<tool_call>{\"name\": \"f\", \"arguments\": {\"x\": 1}}</tool_call>")
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{`{"choices":[{"index":0,"message":{"role":"assistant","content":` + text + `},"finish_reason":"stop"}]}`, []string{`f {"x":1}`}},
		{`{"role":"assistant","content":` + text + `}`, []string{`f {"x":1}`}},
		{`{"role":"assistant","content":[{"type":"text","text":"Sure."},{"type":"text","text":` + text + `}]}`, []string{`f {"x":1}`}},
		{`{"choices":[{"index":0,"text":` + text + `,"finish_reason":"stop"}]}`, []string{`f {"x":1}`}},
		{`{"choices":[]}`, nil},
		{`{"role":"assistant","content":null}`, nil},
		{`{"choices":[{"index":0,"message":{"role":"assistant","content":"<tool_call>{\"name\": \"f\"}</tool_call>"}}]}`,
			[]string{`!f: choices[0].message.content[11:24] "{\"name\": \"f\"}": "arguments" is missing`}},
		{`{"choices":[{"index":0,"message":{"role":"assistant","content":` + text + `,"tool_calls":[{"id":"c","type":"function","function":{"name":"g","arguments":"{}"}}]}}]}`,
			[]string{`f {"x":1}`, `!: choices[0].message.tool_calls[0] is a call the server parsed already`}},
		{`{"role":"assistant","content":null,"function_call":{"name":"g","arguments":"{}"}}`, []string{`!: function_call is a call the server parsed already`}},
		{`{"role":"assistant","content":5}`, []string{`!: content is a number, not a string`}},
		{`{"choices":[{"index":0}]}`, []string{`!: choices[0] has no message object and no text`}},
		{`{"role":"assistant","content":[{"type":"tool_use","name":"f","input":{}},{"type":"refusal","refusal":"no"}]}`, []string{`!: content[0] is not a text part`}},
		{`{"choices":5}`, []string{`!: choices is a number, not an array`}},
		{`[{"name":"f","arguments":{"x":1}}]`, []string{`!: [0] is an element of a list, not a model's text`}},
	} {
		r, err := value.Parse(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		calls, got, err := readCalls(r, format.Hermes, value.Limits{})
		if err != nil || got != format.Hermes {
			t.Errorf("Extract(%s) = %q, %v", tt.in, got, err)
			continue
		}
		checkCalls(t, calls, tt.want)
	}
	for _, in := range []string{`{"candidates":[]}`, `{"role":"model","parts":[]}`, `{"jsonrpc":"2.0"}`, `5`} {
		r, _ := value.Parse(in)
		var se *ShapeError
		if _, _, err := readCalls(r, format.Hermes, value.Limits{}); !errors.As(err, &se) || !strings.Contains(err.Error(), "not a model's text with <tool_call>") {
			t.Errorf("Extract(%s) = %v, want a ShapeError", in, err)
		}
	}
}

// Auto reads a string as a text format only by its markers; any other
// string is a text answer, whatever it holds, and a transcript of a
// stream stays one even when its deltas carry the markers.
func TestTextDetection(t *testing.T) {
	for _, s := range []string{
		"",
		"The weather in Berlin is sunny.",
		`{"name": "f", "parameters": {"x": 1}}`,
		`[f(x=1)]`,
		`<function=f>{"x": 1}</function>`,
		"<|channel|>final", // no message
		"a [TOOL_CALL] b",
		"Use <tool_calls> or [TOOLS].",
		// Prose that names a marker starts no call.
		"Llama 4 wraps its calls in <|python_start|> and <|python_end|>.",
		"DeepSeek begins its calls with <｜tool▁calls▁begin｜> and then each call.",
		"The [TOOL_CALLS] token starts Mistral's calls.",
		"Hermes puts a call in <tool_call> tags.",
		"Llama writes <|python_tag|> before a call.",
		"<think>I could call <tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call></think>No call needed.",
	} {
		calls, got, err := readCalls(value.StringOf(s), format.Auto, value.Limits{})
		if calls != nil || got != format.Auto || err != nil {
			t.Errorf("Auto(%q) = %v, %q, %v; want a text answer", s, calls, got, err)
		}
	}
	// The first marker decides.
	for s, want := range map[string]format.Format{
		"[TOOL_CALLS]f[ARGS]{} <tool_call>":       format.Mistral,
		"<tool_call>\n  <function=f></function>":  format.QwenCoder,
		"<tool_call>  {}</tool_call>[TOOL_CALLS]": format.Hermes,
		"<|start|>assistant<|message|>hi<|end|>":  format.Harmony,
		"x<|python_tag|>{}":                       format.LlamaJSON,
		"<｜tool▁call▁begin｜>":                     format.DeepSeek,
		// Detection goes on past a marker that starts no call.
		"Llama 4 writes <|python_start|> first. <tool_call>{}</tool_call>":               format.Hermes,
		"The begin token <｜tool▁calls▁begin｜> then [TOOL_CALLS]f[ARGS]{}":                format.Mistral,
		"Mention [TOOL_CALLS] here; <|python_tag|>{\"name\": \"f\", \"parameters\": {}}": format.LlamaJSON,
		"<|python_tag|>":                 format.LlamaJSON,
		"<｜tool▁calls▁begin｜>":           format.DeepSeek,
		"<|python_start|><|python_end|>": format.Pythonic,
	} {
		if got := textFormatOf(s); got == nil || got.name != want {
			t.Errorf("textFormatOf(%q) = %v, want %s", s, got, want)
		}
	}
	sse := "data: {\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"<tool_call>\"}}]}\n\ndata: [DONE]\n\n"
	if _, got, err := readCalls(value.StringOf(sse), format.Auto, value.Limits{}); got != format.OpenAIStream || err != nil {
		t.Errorf("a stream of text deltas read as %q, %v", got, err)
	}
}

// Every failed call of a text format names its span as text[from:to],
// within the text, and quotes it shortened.
func TestTextSpans(t *testing.T) {
	long := "<tool_call>{\"name\": \"f\", \"arguments\": {\"text\": \"" + strings.Repeat("é", 100) + "\"}"
	calls, _, _ := readCalls(value.StringOf(long), format.Hermes, value.Limits{})
	if len(calls) != 1 || calls[0].Err == nil {
		t.Fatalf("calls = %v", calls)
	}
	msg := calls[0].Err.Error()
	if !strings.HasPrefix(msg, "call 0: text[0:"+strconv.Itoa(len(long))+`] "<tool_call>{\"name\": \"f\"`) ||
		!strings.Contains(msg, `…é`) || !strings.HasSuffix(msg, `é\"}": never closed: no </tool_call> follows`) || len(msg) > 200 {
		t.Errorf("message = %s", msg)
	}
}

var spanRE = regexp.MustCompile(`^(?:text|[a-z0-9_.\[\]]*(?:content|text))\[(\d+):(\d+)\] "`)

// FuzzText feeds arbitrary text to Auto and to every text format at once,
// so that an input one parser's coverage found is tried on the others;
// FuzzHermes and the rest below fuzz one parser each, guided by its own
// coverage. Besides checkExtract's rules: a failed call that names a span
// names one inside the text, and the calls read from the content are those
// read from the string.
func FuzzText(f *testing.F) {
	addTextSeeds(f)
	var texts []format.Format
	for _, ft := range formats {
		if ft.isText() {
			texts = append(texts, ft.name)
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkExtract(t, value.StringOf(s), format.Auto)
		checkQwenQuick(t, s)
		for _, want := range texts {
			checkText(t, s, want)
		}
	})
}

func FuzzHermes(f *testing.F)    { fuzzText(f, format.Hermes) }
func FuzzQwenCoder(f *testing.F) { fuzzText(f, format.QwenCoder) }
func FuzzLlamaJSON(f *testing.F) { fuzzText(f, format.LlamaJSON) }
func FuzzMistral(f *testing.F)   { fuzzText(f, format.Mistral) }
func FuzzDeepSeek(f *testing.F)  { fuzzText(f, format.DeepSeek) }
func FuzzHarmony(f *testing.F)   { fuzzText(f, format.Harmony) }
func FuzzPythonic(f *testing.F)  { fuzzText(f, format.Pythonic) }

// fuzzText fuzzes the one text format's parser.
func fuzzText(f *testing.F, want format.Format) {
	addTextSeeds(f)
	f.Fuzz(func(t *testing.T, s string) {
		checkText(t, s, want)
		if want == format.QwenCoder {
			checkQwenQuick(t, s)
		}
	})
}

// addTextSeeds seeds a text fuzzer with every text test and example, whole
// and cut in half.
func addTextSeeds(f *testing.F) {
	for _, tt := range textTests {
		f.Add(tt.in)
	}
	for _, tt := range textBlockTests {
		f.Add(tt.in)
	}
	for _, texts := range textExamples {
		for _, s := range texts {
			f.Add(s)
			f.Add(s[:len(s)/2])
		}
	}
}

// checkText reads s in format, as a string and as a message's content.
func checkText(t *testing.T, s string, want format.Format) {
	r := value.StringOf(s)
	calls, _ := checkExtract(t, r, want)
	for _, c := range calls {
		var ae *ArgumentsError
		if !errors.As(c.Err, &ae) {
			continue
		}
		m := spanRE.FindStringSubmatch(ae.Reason)
		if m == nil {
			t.Fatalf("Extract(%q) call %d names no span: %s", want, ae.Index, ae.Reason)
		}
		from, _ := strconv.Atoi(m[1])
		to, _ := strconv.Atoi(m[2])
		if from > to || to > len(s) {
			t.Fatalf("Extract(%q) call %d: span [%d:%d] of a text of %d bytes", want, ae.Index, from, to, len(s))
		}
	}
	msg, _ := value.ObjectOf(value.Member{Key: "role", Value: value.StringOf("assistant")}, value.Member{Key: "content", Value: r})
	inMsg, _ := checkExtract(t, msg, want)
	if !sameCalls(calls, inMsg) {
		t.Fatalf("Extract(%q) of the text = %v, of a message holding it = %v", want, calls, inMsg)
	}
}

// qwenCoderTypeTest is one parameter of f: its name (its type is in
// TestQwenCoderTypes's schema), its text, and the value it reads as, in
// JSON.
type qwenCoderTypeTest struct{ key, text, want string }

// qwenCoderTypeTests are the rows of TestQwenCoderTypes.
// As vLLM's _convert_param_value converts them: Python's int() for an
// integer, float() for a number (an integer when it has no fraction),
// ast.literal_eval for a type it does not name; what does not
// convert stays a string.
var qwenCoderTypeTests = []qwenCoderTypeTest{
	{"n", "5", `5`},
	{"n", " 5 ", `5`},
	{"n", "+5", `5`},
	{"n", "-0", `0`},
	{"n", "007", `7`},
	{"n", "1_000", `1000`},
	{"n", "1__000", `"1__000"`},
	{"n", "_1", `"_1"`},
	{"n", "1_", `"1_"`},
	{"n", "0x10", `"0x10"`},
	{"n", "0o10", `"0o10"`},
	{"n", "1e3", `"1e3"`},
	{"n", " 5.0 ", `" 5.0 "`},
	{"n", "5.", `"5."`},
	{"n", "inf", `"inf"`},
	{"n", "--5", `"--5"`},
	{"n", "- 5", `"- 5"`},
	{"n", "٥", `"٥"`}, // a digit outside ASCII: not converted
	{"n", "9007199254740993", `9007199254740993`},
	{"n", strings.Repeat("1", 4300), strings.Repeat("1", 4300)},
	{"n", strings.Repeat("1", 4301), `"` + strings.Repeat("1", 4301) + `"`},
	{"n", "five", `"five"`},
	{"n", "NULL", `null`},
	{"n", " null", `" null"`},
	{"x", "1e3", `1000`},
	{"x", "5.0", `5`},
	{"x", "1.5", `1.5`},
	{"x", " -2.50 ", `-2.5`},
	{"x", ".5", `0.5`},
	{"x", "5.", `5`},
	{"x", "1_0.2_5", `10.25`},
	{"x", "1e1_0", `10000000000`},
	{"x", "0.1", `0.1`},
	{"x", "9007199254740993", `9007199254740992`}, // a float64, as Python's
	{"x", "1e-400", `0`},
	{"x", "inf", `"inf"`},
	{"x", "-Infinity", `"-Infinity"`},
	{"x", "nan", `"nan"`},
	{"x", "1e400", `"1e400"`},
	{"x", "0x10", `"0x10"`},
	{"x", "1e", `"1e"`},
	{"x", ".", `"."`},
	{"x", "1__0", `"1__0"`},
	{"b", "True", `true`},
	{"b", "false", `false`},
	{"b", "yes", `"yes"`},
	{"b", " true", `" true"`},
	{"s", "null", `null`},
	{"s", " 5 ", `" 5 "`},
	{"ns", "null", `null`},
	{"ns", "5", `5`},     // a list of types: ast.literal_eval
	{"ns", "0x10", `16`}, // as literal_eval reads it
	{"ns", "'x'", `"x"`},
	{"ns", "true", `"true"`},
	{"o", `{"k": [1, 2]}`, `{"k":[1,2]}`},
	{"o", `{'k': None}`, `{"k":null}`},
	{"o", `{"k": }`, `"{\"k\": }"`},
	{"o", `[1]`, `[1]`}, // JSON of another kind: the schema check says so
	{"a", `["x", 'y']`, `["x","y"]`},
	{"opt", "7", `"7"`}, // no type: a string, as in vLLM
	{"opt", "null", `null`},
	{"d", `{"k": 1}`, `{"k":1}`},
	{"untyped", "5", `"5"`},
	{"unknown", "5", `"5"`},
	{"unknown", "Null", `null`},
	{"s", "two\nlines", `"two\nlines"`},
}

// Qwen3-Coder's values are typed from the parameter's schema, as vLLM's
// parser types them, but text that is not of the type stays a string for
// the schema check to report.
func TestQwenCoderTypes(t *testing.T) {
	params, err := value.Parse(`{"properties": {
		"n": {"type": "integer"}, "x": {"type": "number"}, "b": {"type": "boolean"},
		"s": {"type": "string"}, "ns": {"type": ["string", "null"]}, "o": {"type": "object"},
		"a": {"type": "array"}, "opt": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
		"d": {"type": "dict"}, "untyped": {"description": "no type"}}}`)
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Params: map[string]value.Value{"f": params}}
	for _, tt := range qwenCoderTypeTests {
		text := "<tool_call>\n<function=f>\n<parameter=" + tt.key + ">\n" + tt.text + "\n</parameter>\n</function>\n</tool_call>"
		calls, _, err := o.ReadCalls(value.StringOf(text), format.QwenCoder)
		if err != nil || len(calls) != 1 || calls[0].Err != nil {
			t.Errorf("%s=%q: %v, %v", tt.key, tt.text, calls, err)
			continue
		}
		if got, _ := calls[0].Args.Get(tt.key); got.String() != tt.want {
			t.Errorf("%s=%q read as %s, want %s", tt.key, tt.text, got, tt.want)
		}
	}
	// A tool whose parameters are a bare map of them, with no
	// "properties", types them from it, as vLLM does.
	bare, _ := value.Parse(`{"n": {"type": "integer"}}`)
	calls, _, _ := Options{Params: map[string]value.Value{"f": bare}}.ReadCalls(value.StringOf("<tool_call><function=f><parameter=n>5</parameter></function></tool_call>"), format.QwenCoder)
	if len(calls) != 1 || calls[0].Args.String() != `{"n":5}` {
		t.Errorf("a bare map of parameters: %v", calls)
	}
	// Without the tool's schema, every value is a string but null.
	calls, _, _ = readCalls(value.StringOf("<tool_call><function=f><parameter=n>5</parameter></function></tool_call>"), format.QwenCoder, value.Limits{})
	if len(calls) != 1 || calls[0].Args.String() != `{"n":"5"}` {
		t.Errorf("without a schema: %v", calls)
	}
	// Each value is held to the limits, and so is the object around them.
	deep := "<tool_call><function=f><parameter=a>" + strings.Repeat("[", 4) + strings.Repeat("]", 4) + "</parameter></function></tool_call>"
	calls, _, _ = Options{Params: map[string]value.Value{"f": params}, Limits: value.Limits{MaxDepth: 4}}.ReadCalls(value.StringOf(deep), format.QwenCoder)
	if len(calls) != 1 || !errors.Is(calls[0].Err, value.ErrTooDeep) {
		t.Errorf("too deep: %v", calls)
	}
}

// checkQwenQuick checks that the one-pass reading of a Qwen3-Coder
// <tool_call> reads what the careful one does, wherever it reads at all.
func checkQwenQuick(t *testing.T, s string) {
	for i := 0; ; {
		j := strings.Index(s[i:], hermesOpen)
		if j < 0 {
			return
		}
		start := i + j
		quick := &textReader{x: extraction{lim: fuzzLimits}, src: s, at: "text"}
		if next, ok := quick.qwenQuick(start); ok {
			careful := &textReader{x: quick.x, src: s, at: "text"}
			got := careful.qwenBlock(start)
			if got != next || !sameCalls(quick.out, careful.out) ||
				len(quick.out) == 1 && quick.out[0].Err != nil && quick.out[0].Err.Error() != careful.out[0].Err.Error() {
				t.Fatalf("%q at %d: quick reading %v to %d, careful %v to %d", s, start, quick.out, next, careful.out, got)
			}
		}
		i = start + 1
	}
}

// A harmony header that starts no message does not hide a later call of
// another format: Auto still reads it.
func TestTextHarmonyHeaderAloneDoesNotHideACall(t *testing.T) {
	r := value.StringOf("<|start|>assistant<|channel|>analysis thinking <tool_call>\n{\"name\": \"f\", \"arguments\": {\"x\": 1}}\n</tool_call>")
	calls, f, err := readCalls(r, format.Auto, value.Limits{})
	if err != nil || f != format.Hermes || len(calls) != 1 || calls[0].Name != "f" || calls[0].Err != nil {
		t.Errorf("Extract = %v, %s, %v", calls, f, err)
	}
}
