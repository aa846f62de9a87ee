package response

import (
	"testing"

	"github.com/callgrade/callgrade/value"
)

// BenchmarkExtract reads an OpenAI completion with one five-argument call,
// the common case; the arguments string is parsed on every iteration.
func BenchmarkExtract(b *testing.B) {
	r, err := value.Parse(`{"id":"chatcmpl-1","object":"chat.completion","created":1700000000,"model":"gpt-4o",
	  "choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":null,
	  "tool_calls":[{"id":"call_1","type":"function","function":{"name":"search_flights",
	  "arguments":"{\"origin\":\"BER\",\"destination\":\"SFO\",\"date\":\"2025-03-14\",\"passengers\":2,\"cabins\":[\"economy\",\"business\"]}"}}]}}],
	  "usage":{"prompt_tokens":100,"completion_tokens":30,"total_tokens":130}}`)
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
