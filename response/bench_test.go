package response

import (
	"testing"

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
		calls, _, err := Extract(r, Auto, value.Limits{})
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
		calls, _, err := ExtractWith(&p, r, Auto, value.Limits{})
		if err != nil || len(calls) != 1 || calls[0].Err != nil {
			b.Fatal(calls, err)
		}
		p.Reset()
	}
}
