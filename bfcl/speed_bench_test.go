package bfcl

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/callgrade/callgrade"
	"github.com/callgrade/callgrade/engine"
	"github.com/callgrade/callgrade/response"
)

// families are the importer's category families other than the python AST
// categories (BenchmarkScoreCandidates), each with the candidates file
// that holds them and the format its candidates are read in, as the
// agreement scripts read them: live and relevance in the calls format,
// the agentic runs detected from their shape.
var families = []struct {
	name, file string
	cats       []string
	format     response.Format
}{
	{"live", "candidates-live.jsonl", []string{"live_simple", "live_multiple", "live_parallel", "live_parallel_multiple", "live_irrelevance", "live_relevance"}, response.Calls},
	{"java_js", "candidates-live.jsonl", []string{"simple_java", "simple_javascript"}, response.Calls},
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
				cands := readFamilyCandidates(b, f.file)
				engines := map[string]*engine.Engine{}
				for _, cat := range f.cats {
					engines[cat] = importFamilyEngine(b, cat, sem, f.format)
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

// readFamilyCandidates reads every candidate of the shared file name;
// readyItems keeps those of the categories it has engines for.
func readFamilyCandidates(b *testing.B, name string) []candidate {
	b.Helper()
	f := needShared(b, name)
	defer f.Close()
	var out []candidate
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var c candidate
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			b.Fatal(err)
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		b.Fatal(err)
	}
	return out
}

// importFamilyEngine imports one category under sem, with its possible
// answers where BFCL ships them (live_irrelevance and live_relevance have
// none), and compiles it to read responses in format.
func importFamilyEngine(b *testing.B, cat string, sem Semantics, format response.Format) *engine.Engine {
	b.Helper()
	q := needShared(b, filepath.Join("data", "BFCL_v4_"+cat+".json"))
	defer q.Close()
	in := Input{Questions: q, QuestionsName: cat}
	if a, err := os.Open(filepath.Join(shared, "data", "possible_answer", "BFCL_v4_"+cat+".json")); err == nil {
		defer a.Close()
		in.Answers, in.AnswersName = a, cat+" answers"
	}
	doc, err := Import(in, sem)
	if err != nil {
		b.Fatal(err)
	}
	s, err := doc.Decode(cat + ".json")
	if err != nil {
		b.Fatal(err)
	}
	g, err := callgrade.New(s, callgrade.Options{Format: format})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { g.Close() })
	return g.Engine()
}
