package value

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
)

// BenchmarkParseArguments parses the arguments strings of BFCL's
// candidates (the project's shared data, ../shared beside the repository)
// with one Parser reset after each candidate's worth, as the engine parses
// them: the parser's share of scoring, apart from the rest.
func BenchmarkParseArguments(b *testing.B) {
	var args []string
	for _, name := range []string{"candidates.jsonl", "candidates-live.jsonl"} {
		f, err := os.Open("../../shared/bfcl/" + name)
		if err != nil {
			b.Skipf("%v: this benchmark needs BFCL's candidates from the project's shared data", err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			// Read with encoding/json, so that a profile of the
			// benchmark holds only the parses it times.
			var line struct {
				Response []struct {
					Arguments any `json:"arguments"`
				} `json:"response"`
			}
			if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
				b.Fatal(err)
			}
			for _, call := range line.Response {
				if a, ok := call.Arguments.(string); ok {
					args = append(args, a)
				}
			}
		}
		f.Close()
	}
	var p Parser
	b.ReportAllocs()
	for b.Loop() {
		for _, a := range args {
			p.Parse(a, Limits{})
			p.Reset()
		}
	}
	b.ReportMetric(float64(len(args)), "docs/op")
}
