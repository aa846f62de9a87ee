package bfcl

import (
	"runtime"
	"strconv"
	"testing"

	"github.com/callgrade/callgrade/engine"
	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

// families are the importer's category families other than the python AST
// categories (BenchmarkScoreCandidates), each with the candidates file
// that holds them and the format its candidates are read in, as the
// agreement scripts read them: live and relevance in the calls format,
// the agentic runs detected from their shape.
var families = []struct {
	name, file string
	cats       []string
	format     format.Format
}{
	{"live", "candidates-live.jsonl", []string{"live_simple", "live_multiple", "live_parallel", "live_parallel_multiple", "live_irrelevance", "live_relevance"}, format.Calls},
	{"java_js", "candidates-live.jsonl", []string{"simple_java", "simple_javascript"}, format.Calls},
	{"agentic", "candidates-agentic.jsonl", agenticCategories, ""},
}

// BenchmarkScoreFamilies scores every candidate of each family in
// process on one goroutine, as BenchmarkScoreCandidates does for the
// python categories: responses parsed and suites imported and compiled
// before the timer starts, so the figure is the engine's (candidates/s
// per core), to set beside the official checker's rate on the same
// candidates (docs/performance.md).
//
//	go test -run '^$' -bench ScoreFamilies -cpu 1 ./bfcl/
func BenchmarkScoreFamilies(b *testing.B) {
	for _, f := range families {
		for _, sem := range []Semantics{SemanticsBFCL, SemanticsCallgrade} {
			b.Run("family="+f.name+"/semantics="+string(sem), func(b *testing.B) {
				cands := readCandidateFile(b, f.file)
				engines := map[string]*engine.Engine{}
				for _, cat := range f.cats {
					engines[cat] = importEngine(b, cat, sem, f.format)
				}
				items := readyItems(b, cands, engines)
				if len(items) == 0 {
					b.Fatalf("no candidate of %v", f.cats)
				}
				scoreItems(b, items)
				b.ReportMetric(float64(len(items)*b.N)/b.Elapsed().Seconds(), "candidates/s")
			})
		}
	}
}

// BenchmarkScoreFamilyCategories is BenchmarkScoreFamilies by category,
// under BFCL's semantics: which category of a family its time goes to
// (live_multiple holds 63% of the live candidates, each with a choice of
// tools; live_irrelevance's calls are all unexpected ones).
//
//	go test -run '^$' -bench ScoreFamilyCategories -cpu 1 -benchmem ./bfcl/
func BenchmarkScoreFamilyCategories(b *testing.B) {
	for _, f := range families {
		for _, cat := range f.cats {
			b.Run(cat, func(b *testing.B) {
				cands := readCandidateFile(b, f.file, cat)
				items := readyItems(b, cands, map[string]*engine.Engine{cat: importEngine(b, cat, SemanticsBFCL, f.format)})
				scoreItems(b, items)
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(len(items)*b.N), "ns/candidate")
			})
		}
	}
}

// BenchmarkScoreTwice scores each live candidate twice in a row, by
// category, under BFCL's semantics. The second score finds the candidate's
// response and its case's compiled calls and schemas in the caches, where
// the first, as in BenchmarkScoreFamilyCategories, finds them in memory
// when the category's data outgrows the caches: ns/score at times=2 less
// half of times=1 is a warm score, and the rest of times=1's is waiting
// for memory (docs/performance.md).
//
//	GOGC=off go test -run '^$' -bench ScoreTwice -cpu 1 ./bfcl/
func BenchmarkScoreTwice(b *testing.B) {
	f := families[0]
	for _, cat := range f.cats {
		for _, times := range []int{1, 2} {
			b.Run(cat+"/times="+strconv.Itoa(times), func(b *testing.B) {
				cands := readCandidateFile(b, f.file, cat)
				items := readyItems(b, cands, map[string]*engine.Engine{cat: importEngine(b, cat, SemanticsBFCL, f.format)})
				for b.Loop() {
					for _, it := range items {
						for range times {
							it.sc.Score(it.i, it.resp)
						}
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(len(items)*b.N*times), "ns/score")
			})
		}
	}
}

// BenchmarkParseArguments parses the arguments strings of the live
// family's candidates and does nothing else: the floor under
// BenchmarkScoreFamilies' family=live, whose scoring reads them as its
// first step. Its ns/candidate set beside family=live's says how much of a
// candidate's time is judging it rather than reading it
// (docs/performance.md).
//
//	go test -run '^$' -bench ParseArguments -cpu 1 ./bfcl/
func BenchmarkParseArguments(b *testing.B) {
	f := families[0]
	cands := readCandidateFile(b, f.file, f.cats...)
	var args []string
	for _, c := range cands {
		resp, err := value.Parse(string(c.Response))
		if err != nil {
			b.Fatal(err)
		}
		for _, call := range resp.Elems() {
			if a, ok := call.Get("arguments"); ok && a.Kind() == value.String {
				args = append(args, a.Str())
			}
		}
	}
	if len(args) == 0 {
		b.Fatal("no arguments string in the live candidates")
	}
	var p value.Parser
	b.ReportAllocs()
	for b.Loop() {
		for _, a := range args {
			p.Reset()
			p.Parse(a, value.Limits{}) // an invalid one costs its reading too
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(len(cands)*b.N), "ns/candidate")
}

// BenchmarkImportFamilies imports and compiles each family's suites, one
// engine per category under BFCL's semantics, and reports the heap they
// keep once compiled (retained-MB): the memory a run holds for its whole
// length, which scoring reads cases from and the collector marks at
// every cycle. live's cases repeat their tools (live_multiple gives 4,178
// tools, 1,073 of them distinct), which the engine compiles once
// (docs/performance.md).
//
//	go test -run '^$' -bench ImportFamilies -cpu 1 -benchmem ./bfcl/
func BenchmarkImportFamilies(b *testing.B) {
	for _, f := range families {
		b.Run("family="+f.name, func(b *testing.B) {
			var engines []*engine.Engine
			var ms runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&ms)
			before := ms.HeapAlloc
			for b.Loop() {
				engines = engines[:0]
				for _, cat := range f.cats {
					engines = append(engines, importEngine(b, cat, SemanticsBFCL, f.format))
				}
			}
			b.StopTimer()
			runtime.GC()
			runtime.ReadMemStats(&ms)
			b.ReportMetric(float64(ms.HeapAlloc-before)/(1<<20), "retained-MB")
			runtime.KeepAlive(engines)
		})
	}
}
