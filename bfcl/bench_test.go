package bfcl

import (
	"context"
	"fmt"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/callgrade/callgrade/engine"
	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

// BenchmarkScoreCandidates scores every candidate of candidates.jsonl under
// each semantics, in process, on one goroutine: responses parsed once,
// suites imported and compiled once, each scored with a Scorer, so the
// figure is the engine's (candidates/s per core).
//
//	go test -run '^$' -bench ScoreCandidates -benchmem ./bfcl/
func BenchmarkScoreCandidates(b *testing.B) {
	cands := readCandidates(b)
	for _, sem := range []Semantics{SemanticsBFCL, SemanticsCallgrade} {
		b.Run("semantics="+string(sem), func(b *testing.B) {
			engines := map[string]*engine.Engine{}
			for _, cat := range categories {
				engines[cat] = importEngine(b, cat, sem, format.Calls)
			}
			items := readyItems(b, cands, engines)
			scoreItems(b, items)
			b.ReportMetric(float64(len(items)*b.N)/b.Elapsed().Seconds(), "candidates/s")
		})
	}
}

// BenchmarkScoreCategories is BenchmarkScoreCandidates by category, under
// BFCL's semantics: where a candidate's time goes (the parallel categories
// hold two to four calls each).
//
//	go test -run '^$' -bench ScoreCategories -benchmem ./bfcl/
func BenchmarkScoreCategories(b *testing.B) {
	cands := readCandidates(b)
	for _, cat := range categories {
		b.Run(cat, func(b *testing.B) {
			items := readyItems(b, cands, map[string]*engine.Engine{cat: importEngine(b, cat, SemanticsBFCL, format.Calls)})
			scoreItems(b, items)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(len(items)*b.N), "ns/candidate")
		})
	}
}

// BenchmarkScoreVerdicts is BenchmarkScoreCandidates split by BFCL's own
// verdict, under BFCL's semantics: what a right candidate costs against a
// wrong one, which is also read, paired and judged, and then says why it
// is wrong (diffs, their messages, the schema's violations).
//
//	go test -run '^$' -bench ScoreVerdicts -benchmem ./bfcl/
func BenchmarkScoreVerdicts(b *testing.B) {
	cands := readCandidates(b)
	engines := map[string]*engine.Engine{}
	for _, cat := range categories {
		engines[cat] = importEngine(b, cat, SemanticsBFCL, format.Calls)
	}
	for _, valid := range []bool{true, false} {
		b.Run(fmt.Sprintf("bfcl_valid=%t", valid), func(b *testing.B) {
			var some []candidate
			for _, c := range cands {
				if c.Valid == valid {
					some = append(some, c)
				}
			}
			items := readyItems(b, some, engines)
			scoreItems(b, items)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(len(items)*b.N), "ns/candidate")
		})
	}
}

// item is a candidate made ready to score: the Scorer of its category's
// engine, its case and its parsed response.
type item struct {
	sc   *engine.Scorer
	i    int
	resp value.Value
}

// readyItems makes the candidates of the categories engines has ready to
// score, so that the benchmarks time the engine alone. Each engine gets
// one Scorer, as a worker scoring a stream has: each result is read
// before the next response is scored.
func readyItems(b *testing.B, cands []candidate, engines map[string]*engine.Engine) []item {
	scorers := map[string]*engine.Scorer{}
	var items []item
	for _, c := range cands {
		e := engines[c.Category]
		if e == nil {
			continue
		}
		if scorers[c.Category] == nil {
			scorers[c.Category] = e.NewScorer(context.Background())
		}
		sc := scorers[c.Category]
		i, ok := e.Lookup(c.QuestionID)
		if !ok {
			b.Fatalf("%s: no case %s", c.ID, c.QuestionID)
		}
		resp, err := value.Parse(string(c.Response))
		if err != nil {
			b.Fatal(err)
		}
		items = append(items, item{sc, i, resp})
	}
	return items
}

func scoreItems(b *testing.B, items []item) {
	b.ReportAllocs()
	// The suites' import leaves garbage (its JSON, the schema library's
	// compilation) that the collector would otherwise mark and sweep in
	// the first passes: import's cost, not scoring's. The garbage scoring
	// makes is still collected in the loop.
	runtime.GC()
	b.ResetTimer()
	cpu := cpuTime()
	for b.Loop() {
		for _, it := range items {
			it.sc.Score(it.i, it.resp)
		}
	}
	reportCPURate(b, len(items), cpuTime()-cpu)
}

// reportCPURate reports candidates per second of the process's CPU time
// over the timed loop (the collector's work included), the measure the
// official checkers' rates are taken in (docs/performance.md): on a
// shared machine wall time includes waiting for a core.
func reportCPURate(b *testing.B, n int, cpu time.Duration) {
	if cpu > 0 {
		b.ReportMetric(float64(n*b.N)/cpu.Seconds(), "candidates/CPU-s")
	}
}

// cpuTime is the process's user and system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
