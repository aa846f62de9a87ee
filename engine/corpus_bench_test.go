package engine

import (
	"context"
	"io"
	"os"
	"testing"

	"github.com/callgrade/callgrade/internal/suite"
)

// The corpus /work/shared/bench/gen_corpus.py writes; bench-vs-seed runs
// the CLI on it.
const (
	corpusSuite     = "/tmp/callgrade-bench/corpus-200000/suite.json"
	corpusResponses = "/tmp/callgrade-bench/corpus-200000/responses.jsonl"
)

// BenchmarkCorpus200k is what `callgrade score` does on the benchmark
// corpus, in process: load the suite, compile it, score the responses.
func BenchmarkCorpus200k(b *testing.B) {
	if _, err := os.Stat(corpusResponses); err != nil {
		b.Skipf("no corpus at %s", corpusResponses)
	}
	b.ReportAllocs()
	for b.Loop() {
		s, err := suite.Load(corpusSuite)
		if err != nil {
			b.Fatal(err)
		}
		e, err := newEngine(s, Options{})
		if err != nil {
			b.Fatal(err)
		}
		f, err := os.Open(corpusResponses)
		if err != nil {
			b.Fatal(err)
		}
		sum, err := e.Run(context.Background(), f, io.Discard, RunOptions{Name: "responses.jsonl"})
		f.Close()
		if err != nil || sum.Cases != 200000 {
			b.Fatalf("err=%v cases=%d", err, sum.Cases)
		}
	}
}
