package bfcl

import (
	"testing"

	"github.com/callgrade/callgrade/engine"
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
				engines[cat] = importEngine(b, cat, sem)
			}
			// One Scorer per engine, as a worker scoring a stream has:
			// each result is read before the next response is scored.
			scorers := map[*engine.Engine]*engine.Scorer{}
			for _, e := range engines {
				scorers[e] = e.NewScorer()
			}
			type item struct {
				sc   *engine.Scorer
				i    int
				resp value.Value
			}
			items := make([]item, 0, len(cands))
			for _, c := range cands {
				e := engines[c.Category]
				i, ok := e.Lookup(c.QuestionID)
				if !ok {
					b.Fatalf("%s: no case %s", c.ID, c.QuestionID)
				}
				resp, err := value.Parse(string(c.Response))
				if err != nil {
					b.Fatal(err)
				}
				items = append(items, item{scorers[e], i, resp})
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				for _, it := range items {
					it.sc.Score(it.i, it.resp)
				}
			}
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
			e := importEngine(b, cat, SemanticsBFCL)
			sc := e.NewScorer()
			type item struct {
				i    int
				resp value.Value
			}
			var items []item
			for _, c := range cands {
				if c.Category != cat {
					continue
				}
				i, ok := e.Lookup(c.QuestionID)
				if !ok {
					b.Fatalf("%s: no case %s", c.ID, c.QuestionID)
				}
				resp, err := value.Parse(string(c.Response))
				if err != nil {
					b.Fatal(err)
				}
				items = append(items, item{i, resp})
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				for _, it := range items {
					sc.Score(it.i, it.resp)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(len(items)*b.N), "ns/candidate")
		})
	}
}
