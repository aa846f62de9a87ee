package response

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

// benchCompletion is an OpenAI completion with one five-argument call, the
// common case.
const benchCompletion = `{"id":"chatcmpl-1","object":"chat.completion","created":1700000000,"model":"gpt-4o",
	  "choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":null,
	  "tool_calls":[{"id":"call_1","type":"function","function":{"name":"search_flights",
	  "arguments":"{\"origin\":\"BER\",\"destination\":\"SFO\",\"date\":\"2025-03-14\",\"passengers\":2,\"cabins\":[\"economy\",\"business\"]}"}}]}}],
	  "usage":{"prompt_tokens":100,"completion_tokens":30,"total_tokens":130}}`

// BenchmarkExtract reads benchCompletion; the arguments string is parsed
// on every iteration.
func BenchmarkExtract(b *testing.B) {
	r, err := value.Parse(benchCompletion)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		calls, _, err := readCalls(r, format.Auto, value.Limits{})
		if err != nil || len(calls) != 1 || calls[0].Err != nil {
			b.Fatal(calls, err)
		}
	}
}

// BenchmarkExtractWith is BenchmarkExtract with one Parser reset after
// each response, as the engine's streaming run reads them.
func BenchmarkExtractWith(b *testing.B) {
	r, err := value.Parse(benchCompletion)
	if err != nil {
		b.Fatal(err)
	}
	var p value.Parser
	b.ReportAllocs()
	for b.Loop() {
		calls, _, err := Options{Parser: &p}.ReadCalls(r, format.Auto)
		if err != nil || len(calls) != 1 || calls[0].Err != nil {
			b.Fatal(calls, err)
		}
		p.Reset()
	}
}

// benchCalls is benchCompletion's call as a harness that took it out of
// the completion writes it, forced as Calls: the arguments are JSON text
// spelled as Python's json.dumps spells it, as in BFCL's candidates.
const benchCalls = `[{"name": "search_flights", "arguments": "{\"origin\": \"BER\", \"destination\": \"SFO\", \"date\": \"2025-03-14\", \"passengers\": 2, \"cabins\": [\"economy\", \"business\"]}"}]`

// BenchmarkExtractCalls reads benchCalls with Options.ReadCalls and one
// Parser reset after each response, as the engine scores a response
// already parsed: extraction alone, the arguments text parsed on every
// iteration.
func BenchmarkExtractCalls(b *testing.B) {
	r, err := value.Parse(benchCalls)
	if err != nil {
		b.Fatal(err)
	}
	var p value.Parser
	o := Options{Parser: &p}
	b.ReportAllocs()
	for b.Loop() {
		calls, _, err := o.ReadCalls(r, format.Calls)
		if err != nil || len(calls) != 1 || calls[0].Err != nil || calls[0].Args.Len() != 5 {
			b.Fatal(calls, err)
		}
		p.Reset()
	}
}

// benchArguments are benchCompletion's arguments, which a stream sends in
// fragments of a few tokens each.
const benchArguments = `{"origin":"BER","destination":"SFO","date":"2025-03-14","passengers":2,"cabins":["economy","business"]}`

// benchChunks is benchCompletion streamed: a first chunk with the id and
// name, the arguments 8 bytes a chunk, a finish_reason, and the usage.
func benchChunks() []string {
	chunks := []string{chunk(`{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"search_flights","arguments":""}}]}`, "null")}
	for rest := benchArguments; rest != ""; {
		n := min(8, len(rest))
		q, _ := json.Marshal(rest[:n])
		chunks = append(chunks, tcChunk(`{"index":0,"function":{"arguments":`+string(q)+`}}`))
		rest = rest[n:]
	}
	return append(chunks, finishChunk, `{"id":"chatcmpl-1","object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":100,"completion_tokens":30,"total_tokens":130}}`)
}

// BenchmarkStream reads benchCompletion's call from the completion, from
// the JSON array of its chunks, and from their SSE transcript, whose
// events are parsed on every iteration as the arguments are.
func BenchmarkStream(b *testing.B) {
	for _, bench := range []struct{ name, in string }{
		{"json", benchCompletion},
		{"chunks", array(benchChunks())},
		{"sse", transcript(benchChunks(), true)},
	} {
		r, err := value.Parse(bench.in)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(bench.name, func(b *testing.B) {
			var p value.Parser
			b.ReportAllocs()
			for b.Loop() {
				calls, _, err := Options{Parser: &p}.ReadCalls(r, format.Auto)
				if err != nil || len(calls) != 1 || calls[0].Err != nil || calls[0].Args.Len() != 5 {
					b.Fatal(calls, err)
				}
				p.Reset()
			}
		})
	}
}

// BenchmarkStreamRepeatedName reads an openai stream of one call whose
// every delta repeats its name, as some servers send it: each delta asks
// whether the arguments so far are complete, which must not read them
// all again (ns/op grows as the fragments do, not as their square).
func BenchmarkStreamRepeatedName(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run("fragments="+strconv.Itoa(n), func(b *testing.B) {
			var sb strings.Builder
			sb.WriteString(`[`)
			for i := 0; i < n; i++ {
				var frag string
				switch {
				case i == 0:
					frag = `{"k": "`
				case i == n-1:
					frag = `x"}`
				default:
					frag = strings.Repeat("x", 18)
				}
				arg, _ := json.Marshal(frag)
				fmt.Fprintf(&sb, `{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"name":"f","arguments":%s}}]}}]},`, arg)
			}
			sb.WriteString(`{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}]`)
			r, err := value.Parse(sb.String())
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				calls, _, err := Options{}.ReadCalls(r, format.OpenAIStream)
				if err != nil || len(calls) != 1 || calls[0].Err != nil {
					b.Fatalf("%v, %v", calls, err)
				}
			}
		})
	}
}
