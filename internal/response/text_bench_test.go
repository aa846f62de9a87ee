package response

import (
	"strconv"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/internal/jsontext"
	"github.com/callgrade/callgrade/value"
)

// benchTexts are benchCompletion's call as each text format writes it,
// and as the calls format's JSON, the route they are measured against.
var benchTexts = []struct {
	name string
	f    format.Format
	text string // the model's text; "" for JSON
	json string
}{
	{name: "calls-json", f: format.Calls, json: `[{"name":"search_flights","arguments":` + benchArguments + `}]`},
	{name: "calls-json-string", f: format.Calls, json: `[{"name":"search_flights","arguments":` + quote(benchArguments) + `}]`},
	{name: "hermes", f: format.Hermes, text: "<tool_call>\n{\"name\": \"search_flights\", \"arguments\": " + benchArguments + "}\n</tool_call>"},
	{name: "qwen-coder", f: format.QwenCoder, text: "<tool_call>\n<function=search_flights>\n<parameter=origin>\nBER\n</parameter>\n<parameter=destination>\nSFO\n</parameter>\n" +
		"<parameter=date>\n2025-03-14\n</parameter>\n<parameter=passengers>\n2\n</parameter>\n<parameter=cabins>\n[\"economy\",\"business\"]\n</parameter>\n</function>\n</tool_call>"},
	{name: "llama-json", f: format.LlamaJSON, text: `<|python_tag|>{"name": "search_flights", "parameters": ` + benchArguments + `}<|eom_id|>`},
	{name: "mistral", f: format.Mistral, text: `[TOOL_CALLS]search_flights[ARGS]` + benchArguments},
	{name: "deepseek", f: format.DeepSeek, text: "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>search_flights\n```json\n" + benchArguments + "\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>"},
	{name: "harmony", f: format.Harmony, text: `<|channel|>analysis<|message|>Search the flights.<|end|><|start|>assistant<|channel|>commentary to=functions.search_flights <|constrain|>json<|message|>` + benchArguments + `<|call|>`},
	{name: "pythonic", f: format.Pythonic, text: `[search_flights(origin="BER", destination="SFO", date="2025-03-14", passengers=2, cabins=["economy", "business"])]`},
}

// benchParams is search_flights' schema, which Qwen3-Coder's text needs
// to read the same arguments.
const benchParams = `{"type":"object","properties":{"origin":{"type":"string"},"destination":{"type":"string"},"date":{"type":"string"},"passengers":{"type":"integer"},"cabins":{"type":"array","items":{"type":"string"}}}}`

// quote writes s as a JSON string as Python's json.dumps does, without
// escaping "<" and ">" as encoding/json does for HTML.
func quote(s string) string { return string(jsontext.AppendQuote(nil, s)) }

// BenchmarkText reads the response line of each, from its JSON text to
// the calls, with one Parser reset after each line as the engine reads
// them: the raw text's route against the JSON's.
func BenchmarkText(b *testing.B) {
	params, err := value.Parse(benchParams)
	if err != nil {
		b.Fatal(err)
	}
	want, _ := value.Parse(benchArguments)
	for _, bench := range benchTexts {
		line := bench.json
		if bench.text != "" {
			line = quote(bench.text)
		}
		b.Run(bench.name, func(b *testing.B) {
			var p value.Parser
			o := Options{Parser: &p, Params: map[string]value.Value{"search_flights": params}}
			b.SetBytes(int64(len(line)))
			b.ReportAllocs()
			for b.Loop() {
				r, err := p.Parse(line, value.Limits{})
				if err != nil {
					b.Fatal(err)
				}
				calls, _, err := o.ReadCalls(r, bench.f)
				if err != nil || len(calls) != 1 || calls[0].Err != nil || !value.Equal(calls[0].Args, want) {
					b.Fatal(calls, err)
				}
				p.Reset()
			}
		})
	}
}

// markerTexts are texts of one marker, or the start of a call, written
// over and over: what a model stuck in a loop, or a hostile tester,
// sends. Every reader, and Auto's detection, must read them in time
// linear in their length.
var markerTexts = []struct {
	name string
	f    format.Format
	unit string
}{
	{"hermes-open", format.Hermes, "<tool_call>"},
	{"hermes-open-brace", format.Hermes, `<tool_call>{"`},
	{"hermes-closed", format.Hermes, `<tool_call>{"name":"f","arguments":{}}</tool_call>`},
	{"qwen-open", format.QwenCoder, "<tool_call><function="},
	{"qwen-function", format.QwenCoder, "<function="},
	{"qwen-function-named", format.QwenCoder, "<function=f><parameter="},
	{"qwen-block-function", format.QwenCoder, "<tool_call><function=f>"},
	{"llama-tag", format.LlamaJSON, "<|python_tag|>"},
	{"llama-tag-brace", format.LlamaJSON, "<|python_tag|>{"},
	{"llama-calls", format.LlamaJSON, `{"name":"f","parameters":{}};`},
	{"mistral-marker", format.Mistral, "[TOOL_CALLS]"},
	{"mistral-list", format.Mistral, "[TOOL_CALLS]["},
	{"mistral-args", format.Mistral, "[TOOL_CALLS]f[ARGS]{"},
	{"mistral-call-id", format.Mistral, "[TOOL_CALLS]f[CALL_ID]"},
	{"deepseek-calls-begin", format.DeepSeek, "<｜tool▁calls▁begin｜>"},
	{"deepseek-call-begin", format.DeepSeek, "<｜tool▁call▁begin｜>"},
	{"deepseek-call-sep", format.DeepSeek, "<｜tool▁call▁begin｜>f<｜tool▁sep｜>{"},
	{"harmony-channel", format.Harmony, "<|channel|>"},
	{"harmony-start", format.Harmony, "<|start|>"},
	{"harmony-message", format.Harmony, "<|start|>assistant<|channel|>commentary to=functions.f<|message|>"},
	{"pythonic-start", format.Pythonic, "<|python_start|>"},
	{"pythonic-start-call", format.Pythonic, "<|python_start|>[f("},
	{"pythonic-list", format.Pythonic, "[f(x=1), "},
	{"hermes-string", format.Hermes, `<tool_call>{"a":"`},
	{"hermes-string-close", format.Hermes, `<tool_call>{"a":"</tool_call>`},
	{"llama-string", format.LlamaJSON, `<|python_tag|>{"a":"`},
	{"mistral-string", format.Mistral, `[TOOL_CALLS][{"a":"`},
	{"deepseek-string", format.DeepSeek, `<｜tool▁call▁begin｜>f<｜tool▁sep｜>{"a":"`},
	{"qwen-parameter", format.QwenCoder, "<tool_call><function=f><parameter=x><"},
	{"harmony-string", format.Harmony, `<|start|>assistant to=functions.f<|channel|>commentary<|message|>{"`},
	{"think", format.Hermes, "<think>"},
	{"think-closed", format.Hermes, "<think></think>"},
}

// BenchmarkTextMarkers reads each marker text, forced and under Auto, at
// two sizes, so that ns/op shows how the time grows: linear when 8 MiB
// take 8 times as long as 1 MiB.
func BenchmarkTextMarkers(b *testing.B) {
	for _, m := range markerTexts {
		for _, size := range []int{1 << 20, 8 << 20} {
			text := value.StringOf(strings.Repeat(m.unit, size/len(m.unit)))
			for _, f := range []format.Format{m.f, format.Auto} {
				b.Run(m.name+"/"+string(f)+"/"+strconv.Itoa(size>>20)+"MiB", func(b *testing.B) {
					b.SetBytes(int64(len(text.Str())))
					for b.Loop() {
						if _, _, err := readCalls(text, f, value.Limits{}); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}
