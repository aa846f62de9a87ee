package acebench

import (
	"context"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/callgrade/callgrade/engine"
	"github.com/callgrade/callgrade/value"
)

// BenchmarkScoreCandidates scores every candidate of the shared
// candidates.jsonl (both languages, the 12 normal categories) in process
// on one goroutine: suites imported and compiled and responses read into
// values before the timer starts, each category's engine with one
// Scorer, so the figure is the engine's (candidates/s per core), to set
// beside ACEBench's checker's rate on the same candidates
// (docs/performance.md). A multi-turn row is one candidate, as ACEBench
// checks it.
//
//	go test -run '^$' -bench ScoreCandidates -cpu 1 ./acebench/
func BenchmarkScoreCandidates(b *testing.B) {
	cands := readCandidates(b)
	type item struct {
		sc   *engine.Scorer
		i    int
		resp value.Value
	}
	var items []item
	for _, lang := range []string{"en", "zh"} {
		for _, cat := range categories {
			e := importEngine(b, lang, cat)
			sc := e.NewScorer(context.Background())
			for _, c := range cands {
				if c.Language != lang || c.Category != cat {
					continue
				}
				i, ok := e.Lookup(c.QuestionID)
				if !ok {
					b.Fatalf("%s: no case %s", c.ID, c.QuestionID)
				}
				items = append(items, item{sc, i, value.StringOf(c.Response)})
			}
		}
	}
	if len(items) != len(cands) {
		b.Fatalf("%d of %d candidates in the 12 categories", len(items), len(cands))
	}
	b.ReportAllocs()
	runtime.GC() // the import's garbage, as in package bfcl's scoreItems
	b.ResetTimer()
	cpu := cpuTime()
	for b.Loop() {
		for _, it := range items {
			it.sc.Score(it.i, it.resp)
		}
	}
	if cpu = cpuTime() - cpu; cpu > 0 {
		// The measure the checker's rate is taken in: on a shared
		// machine wall time includes waiting for a core.
		b.ReportMetric(float64(len(items)*b.N)/cpu.Seconds(), "candidates/CPU-s")
	}
	b.ReportMetric(float64(len(items)*b.N)/b.Elapsed().Seconds(), "candidates/s")
}

// cpuTime is the process's user and system CPU time, the collector's
// work included.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
