package pycall

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"

	"github.com/callgrade/callgrade/internal/testenv"
	"github.com/callgrade/callgrade/value"
)

// BenchmarkAppendValues reads the call text of every ACEBench candidate
// in the project's shared data (../shared beside the repository), the way
// the response package reads it while scoring: the parse that is a third
// of acebench's BenchmarkScoreCandidates, alone, to profile.
//
//	go test -run '^$' -bench AppendValues -cpu 1 -benchmem ./internal/pycall/
func BenchmarkAppendValues(b *testing.B) {
	f, err := os.Open("../../../shared/acebench/candidates.jsonl")
	if err != nil {
		testenv.Skipf(b, "%v: this benchmark reads ACEBench's candidates from the project's shared data, ../shared beside the repository", err)
	}
	defer f.Close()
	var texts []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var c struct{ Response string }
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			b.Fatal(err)
		}
		texts = append(texts, c.Response)
	}
	var vp value.Parser
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range texts {
			var room [1]Call
			AppendValuesN(room[:0], s, &vp, 10000)
			vp.Reset()
		}
	}
	b.ReportMetric(float64(len(texts)*b.N)/b.Elapsed().Seconds(), "texts/s")
}
