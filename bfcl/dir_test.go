package bfcl

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// resultCandidate is a candidate of candidates-agentic.jsonl with the
// result line BFCL's handlers wrote for it.
type resultCandidate struct {
	QuestionID string          `json:"question_id"`
	Category   string          `json:"category"`
	Variant    *string         `json:"variant"`
	Result     json.RawMessage `json:"bfcl_result"`
	Valid      bool            `json:"bfcl_valid"`
}

// TestScoreDirBFCLAgentic writes the agentic candidates as BFCL results
// directories, in rounds of at most one candidate per question and
// variant, and checks that ScoreDir passes, under --semantics bfcl, as
// many of each category's results as BFCL's checker finds valid.
func TestScoreDirBFCLAgentic(t *testing.T) {
	f := needShared(t, "candidates-agentic.jsonl")
	defer f.Close()
	type slot struct{ variant, qid string }
	var rounds []map[slot]resultCandidate
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var c resultCandidate
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		v := map[string]string{"web_search": "web_search_base", "memory": "memory_kv"}[c.Category]
		if c.Variant != nil {
			v = *c.Variant
		}
		k := slot{v, c.QuestionID}
		i := 0
		for i < len(rounds) {
			if _, taken := rounds[i][k]; !taken {
				break
			}
			i++
		}
		if i == len(rounds) {
			rounds = append(rounds, map[slot]resultCandidate{})
		}
		rounds[i][k] = c
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	total := 0
	for r, round := range rounds {
		dir := t.TempDir()
		files := map[string]*strings.Builder{}
		want := map[string]int{}
		for k, c := range round {
			b := files[k.variant]
			if b == nil {
				b = &strings.Builder{}
				files[k.variant] = b
			}
			id := k.variant + strings.TrimPrefix(k.qid, c.Category)
			fmt.Fprintf(b, "{\"id\": %q, \"result\": %s}\n", id, c.Result)
			if c.Valid {
				want[k.variant]++
			}
		}
		for v, b := range files {
			if err := os.WriteFile(filepath.Join(dir, "BFCL_v4_"+v+"_result.json"), []byte(b.String()), 0o666); err != nil {
				t.Fatal(err)
			}
		}
		got, err := ScoreDir(context.Background(), Dir{Data: filepath.Join(shared, "data"), Results: dir, Semantics: SemanticsBFCL})
		if err != nil {
			t.Fatal(err)
		}
		for _, cs := range got.Categories {
			if cs.Passed != want[cs.Category] {
				t.Errorf("round %d: %s: %d of %d passed, BFCL finds %d valid", r, cs.Category, cs.Passed, cs.Cases, want[cs.Category])
			}
			total += cs.Passed
		}
		if len(got.Categories) != len(files) {
			t.Errorf("round %d: scored %v, want the %d categories written", r, got.Categories, len(files))
		}
	}
	t.Logf("%d rounds, %d results passed", len(rounds), total)
}

func TestOverallAccuracyBFCL(t *testing.T) {
	tests := []struct {
		name    string
		scores  []CategoryScore
		want    float64
		missing int
	}{
		{"one category", []CategoryScore{{"multiple", 200, 150}}, 0.75, len(Categories()) - 1},
		{
			// simple = (0.5+1+0)/3 = 0.5; non-live = (0.5+0.75)/2 = 0.625.
			"non-live means are unweighted",
			[]CategoryScore{{"simple_python", 400, 200}, {"simple_java", 100, 100}, {"simple_javascript", 50, 0}, {"multiple", 200, 150}},
			0.625, len(Categories()) - 4,
		},
		{
			// live weighted by cases: (50+150)/(100+300) = 0.5.
			"live is weighted by cases",
			[]CategoryScore{{"live_simple", 100, 50}, {"live_multiple", 300, 150}, {"live_irrelevance", 0, 0}},
			0.5, len(Categories()) - 3,
		},
		{
			// non-live 1, live (90+10)/(100+100) = 0.5: overall 0.75.
			"the overall is the unweighted mean of the groups",
			[]CategoryScore{{"irrelevance", 240, 240}, {"live_simple", 100, 90}, {"live_relevance", 100, 10}},
			0.75, len(Categories()) - 3,
		},
		{
			// web_search pooled (60+40)/200 = 0.5; memory (1+0+0.5)/3 = 0.5;
			// agentic 0.5; with multi_turn_base 0.8: overall (0.5+0.8)/2.
			"agentic",
			[]CategoryScore{{"web_search_base", 100, 60}, {"web_search_no_snippet", 100, 40},
				{"memory_kv", 155, 155}, {"memory_vector", 155, 0}, {"memory_rec_sum", 10, 5}, {"multi_turn_base", 200, 160}},
			0.65, len(Categories()) - 6,
		},
		{"no category of the formula", []CategoryScore{{"sql", 10, 10}}, 0, len(Categories())},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := OverallAccuracy(tt.scores)
			if math.Abs(o.Accuracy-tt.want) > 1e-12 {
				t.Errorf("accuracy %v, want %v", o.Accuracy, tt.want)
			}
			if len(o.Missing) != tt.missing || len(o.Covered)+len(o.Missing) != len(Categories()) {
				t.Errorf("covered %v, missing %v: want %d missing", o.Covered, o.Missing, tt.missing)
			}
		})
	}
}
