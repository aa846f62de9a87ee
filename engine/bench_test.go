package engine

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/internal/response"
	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/value"
)

const flightsSuite = `version: 1
cases:
  - id: flights
    expected:
      name: search_flights
      arguments: {origin: BER, destination: SFO, max_price: 500, cabins: [economy, business], passengers: 2}
      rules:
        cabins: unordered
        origin: case_insensitive
`

const flightsResponse = `[{"name":"search_flights","arguments":"{\"passengers\":2,\"cabins\":[\"business\",\"economy\"],\"max_price\":500.0,\"destination\":\"SFO\",\"origin\":\"ber\"}"}]`

// BenchmarkScore scores the five-argument flights call: on calls already
// read (the comparison alone), with a Scorer reused, and made for each
// call ("public", what scoring one response costs a caller who keeps no
// Scorer); and Score on the whole response (extracting the call and
// parsing its arguments string too).
func BenchmarkScore(b *testing.B) {
	e := load(b, flightsSuite)
	resp := mustParse(b, flightsResponse)
	calls, _, err := response.Options{}.ReadCalls(resp, format.Auto)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("calls", func(b *testing.B) {
		sc := e.newScorer()
		var r *results.Result
		b.ReportAllocs()
		for b.Loop() {
			r = sc.scoreCalls(0, calls)
		}
		if !r.Pass {
			b.Fatalf("the benchmark call should pass: %s", r.AppendJSON(nil))
		}
	})
	b.Run("response", func(b *testing.B) { scoreResponseLoop(b, e, resp) })
	b.Run("public", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if r := e.newScorer().scoreCalls(0, calls); !r.Pass {
				b.Fatal("the benchmark call should pass")
			}
		}
	})
}

// scoreResponseLoop times a Scorer of e scoring resp for case 0, which
// must pass.
func scoreResponseLoop(b *testing.B, e *Engine, resp value.Value) {
	sc := e.newScorer()
	var r *results.Result
	b.ReportAllocs()
	for b.Loop() {
		r = sc.Score(0, resp)
	}
	if !r.Pass {
		b.Fatalf("the benchmark response should pass: %s", r.AppendJSON(nil))
	}
}

// BenchmarkRun scores a stream of 10,000 lines end to end, as the CLI does:
// parsing each line, scoring, encoding the result in case order.
func BenchmarkRun(b *testing.B) {
	var sb, rb strings.Builder
	sb.WriteString("version: 1\ncases:\n")
	for i := range 10000 {
		fmt.Fprintf(&sb, "  - {id: c%d, expected: {name: search_flights, arguments: {origin: BER, destination: SFO, max_price: %d, cabins: [economy, business], passengers: 2}, rules: {cabins: unordered}}}\n", i, 100+i)
		fmt.Fprintf(&rb, `{"id":"c%d","response":{"name":"search_flights","arguments":"{\"passengers\":2,\"cabins\":[\"business\",\"economy\"],\"max_price\":%d.0,\"destination\":\"SFO\",\"origin\":\"BER\"}"}}`+"\n", i, 100+i)
	}
	e := load(b, sb.String())
	lines := rb.String()
	b.SetBytes(int64(len(lines)))
	b.ReportAllocs()
	for b.Loop() {
		sum, err := e.Run(context.Background(), strings.NewReader(lines), io.Discard, RunOptions{Name: "bench"})
		if err != nil || sum.Passed != 10000 {
			b.Fatalf("err=%v passed=%d", err, sum.Passed)
		}
	}
}
