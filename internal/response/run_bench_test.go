package response

import (
	"strconv"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

// benchConversation is an OpenAI conversation of 20 steps: a system
// prompt and a question, ten assistant turns of two parallel calls (five
// arguments each), each call answered by a tool message of JSON, and a
// final answer.
func benchConversation() string {
	var b strings.Builder
	b.WriteString(`{"model":"gpt-4.1","messages":[{"role":"system","content":"You plan trips."},{"role":"user","content":"Find me flights for the team."}`)
	for turn := range 10 {
		id := func(k int) string { return "call_" + strconv.Itoa(2*turn+k) }
		b.WriteString(`,{"role":"assistant","content":null,"tool_calls":[`)
		for k := range 2 {
			if k > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`{"id":"` + id(k) + `","type":"function","function":{"name":"search_flights","arguments":` +
				`"{\"origin\":\"BER\",\"destination\":\"SFO\",\"date\":\"2025-03-14\",\"passengers\":2,\"cabins\":[\"economy\",\"business\"]}"}}`)
		}
		b.WriteString(`]}`)
		for k := range 2 {
			b.WriteString(`,{"role":"tool","tool_call_id":"` + id(k) + `","content":"{\"flights\":[{\"number\":\"LH454\",\"price\":612.5,\"seats\":4}],\"currency\":\"EUR\"}"}`)
		}
	}
	b.WriteString(`,{"role":"assistant","content":"LH454 has seats for everyone at 612.50 EUR."}]}`)
	return b.String()
}

// BenchmarkRun reads benchConversation as a run (results parsed), with
// and without a Parser reset after each read, and its calls alone as
// ReadCalls does.
func BenchmarkRun(b *testing.B) {
	r, err := value.Parse(benchConversation())
	if err != nil {
		b.Fatal(err)
	}
	b.Run("run", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			run, _, err := readRun(r, format.Auto)
			if err != nil || len(run.Steps) != 20 || !run.Steps[19].HasResult || !run.HasFinal {
				b.Fatal(run, err)
			}
		}
	})
	b.Run("run-parser", func(b *testing.B) {
		var p value.Parser
		o := Options{Parser: &p}
		b.ReportAllocs()
		for b.Loop() {
			run, _, err := o.Read(r, format.Auto)
			if err != nil || len(run.Steps) != 20 || !run.Steps[19].HasResult {
				b.Fatal(run, err)
			}
			p.Reset()
		}
	})
	b.Run("calls", func(b *testing.B) {
		var p value.Parser
		b.ReportAllocs()
		for b.Loop() {
			calls, _, err := Options{Parser: &p}.ReadCalls(r, format.Auto)
			if err != nil || len(calls) != 20 || calls[19].Err != nil {
				b.Fatal(calls, err)
			}
			p.Reset()
		}
	})
}
