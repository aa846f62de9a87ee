package bfcl

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
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
	cache := newDirCache()
	defer cache.close()
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
		total += scoreRound(t, r, dir, files, want, cache)
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
		{"one category", []CategoryScore{{"multiple", 200, 150}}, 0.75, len(formulaCategories()) - 1},
		{
			// simple = (0.5+1+0)/3 = 0.5; non-live = (0.5+0.75)/2 = 0.625.
			"non-live means are unweighted",
			[]CategoryScore{{"simple_python", 400, 200}, {"simple_java", 100, 100}, {"simple_javascript", 50, 0}, {"multiple", 200, 150}},
			0.625, len(formulaCategories()) - 4,
		},
		{
			// live weighted by cases: (50+150)/(100+300) = 0.5;
			// irrelevance its own part, 0.25: overall (10*0.5+10*0.25)/20.
			"live is weighted by cases, irrelevance is its own part",
			[]CategoryScore{{"live_simple", 100, 50}, {"live_multiple", 300, 150}, {"live_irrelevance", 200, 50}},
			0.375, len(formulaCategories()) - 3,
		},
		{
			// live 0.9, irrelevance 1, multi-turn 0.5, agentic (web_search
			// 0.4): (10*0.9 + 10*1 + 30*0.5 + 40*0.4) / 90; live_relevance
			// is in no part.
			"the parts weigh 10, 10, 10, 30 and 40",
			[]CategoryScore{{"irrelevance", 240, 240}, {"live_simple", 100, 90}, {"live_relevance", 100, 10},
				{"multi_turn_base", 200, 100}, {"web_search_base", 100, 60}, {"web_search_no_snippet", 100, 20}},
			50.0 / 90, len(formulaCategories()) - 5,
		},
		{
			// web_search unweighted (0.6+0.2)/2 = 0.4 (pooled would be
			// 70/150); memory (1+0+0.5)/3 = 0.5; agentic 0.45; with
			// multi_turn_base 0.8: overall (30*0.8 + 40*0.45)/70 = 0.6.
			"agentic",
			[]CategoryScore{{"web_search_base", 100, 60}, {"web_search_no_snippet", 50, 10},
				{"memory_kv", 155, 155}, {"memory_vector", 155, 0}, {"memory_rec_sum", 10, 5}, {"multi_turn_base", 200, 160}},
			0.6, len(formulaCategories()) - 6,
		},
		{"no category of the formula", []CategoryScore{{"sql", 10, 10}}, 0, len(formulaCategories())},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := overallAccuracy(tt.scores)
			if math.Abs(o.accuracy-tt.want) > 1e-12 {
				t.Errorf("accuracy %v, want %v", o.accuracy, tt.want)
			}
			if len(o.missing) != tt.missing || len(o.covered)+len(o.missing) != len(formulaCategories()) {
				t.Errorf("covered %v, missing %v: want %d missing", o.covered, o.missing, tt.missing)
			}
		})
	}
}

// TestScoreDirBFCLHandWritten scores the small run of testdata/run, whose
// verdicts and overall figure are worked out by hand.
func TestScoreDirBFCLHandWritten(t *testing.T) {
	out := t.TempDir()
	got, err := ScoreDir(context.Background(), Dir{Data: "testdata/run/data", Results: "testdata/run/result", Semantics: SemanticsBFCL, Out: out})
	if err != nil {
		t.Fatal(err)
	}
	want := []CategoryScore{
		{"simple_python", 2, 1},         // simple_python_1 asks for London, not Paris
		{"irrelevance", 2, 1},           // irrelevance_1 makes a call
		{"web_search_base", 2, 1},       // web_search_base_1 does not know
		{"web_search_no_snippet", 2, 2}, // the first text block says 95
	}
	if fmt.Sprint(got.Categories) != fmt.Sprint(want) {
		t.Errorf("scores %v, want %v", got.Categories, want)
	}
	// non-live: simple 0.5; irrelevance 0.5; agentic: web_search
	// (0.5+1)/2; overall (10*0.5 + 10*0.5 + 40*0.75)/60 = 2/3.
	if math.Abs(got.Overall-2.0/3) > 1e-12 {
		t.Errorf("overall %v, want 2/3", got.Overall)
	}
	if len(got.Skipped) != 1 || !strings.Contains(got.Skipped[0], "multi_turn") {
		t.Errorf("skipped %q, want the multi_turn_base results", got.Skipped)
	}
	for _, name := range []string{"simple_python.yaml", "web_search.yaml", "web_search_base_responses.jsonl", "web_search_no_snippet_results.jsonl"} {
		if fi, err := os.Stat(filepath.Join(out, name)); err != nil || fi.Size() == 0 {
			t.Errorf("--out: %s: %v, want it written", name, err)
		}
	}
	var b strings.Builder
	if err := got.WriteSummary(&b); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"simple_python                 2       1    50.00%",
		"overall (BFCL v4's weights, over the 4 of 21 categories covered): 66.67%",
		"missing from the overall: simple_java, simple_javascript, multiple,",
	} {
		if !strings.Contains(b.String(), line) {
			t.Errorf("summary lacks %q:\n%s", line, b.String())
		}
	}
}

func TestScoreDirBFCLErrors(t *testing.T) {
	bad := t.TempDir()
	if err := os.WriteFile(filepath.Join(bad, "BFCL_v4_simple_python_result.json"), []byte("{\"id\": \"simple_python_0\", \"result\": []}\nnot json\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, results, want string }{
		{"no results", t.TempDir(), "no BFCL_v4_<category>_result.json file"},
		{"a line that is not JSON", bad, "BFCL_v4_simple_python_result.json:2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ScoreDir(context.Background(), Dir{Data: "testdata/run/data", Results: tt.results})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one with %q", err, tt.want)
			}
		})
	}
}

// astCandidate is a candidate of candidates.jsonl or
// candidates-live.jsonl: a list of {name, arguments} calls, the arguments
// JSON text as an FC handler receives them.
type astCandidate struct {
	QuestionID string `json:"question_id"`
	Category   string `json:"category"`
	Response   []struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"response"`
	Valid bool `json:"bfcl_valid"`
}

// TestScoreDirBFCLAST writes the AST candidates as the results files
// BFCL's FC handlers write ([{name: arguments}] lines), in rounds of at
// most one candidate per question, and checks that ScoreDir passes, under
// --semantics bfcl, as many of each category's results as BFCL's checker
// finds valid.
func TestScoreDirBFCLAST(t *testing.T) {
	var rounds []map[string]astCandidate
	for _, file := range []string{"candidates.jsonl", "candidates-live.jsonl"} {
		f := needShared(t, file)
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			var c astCandidate
			if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
				t.Fatal(err)
			}
			i := 0
			for i < len(rounds) {
				if _, taken := rounds[i][c.QuestionID]; !taken {
					break
				}
				i++
			}
			if i == len(rounds) {
				rounds = append(rounds, map[string]astCandidate{})
			}
			rounds[i][c.QuestionID] = c
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	total := 0
	cache := newDirCache()
	defer cache.close()
	for r, round := range rounds {
		dir := t.TempDir()
		files := map[string]*strings.Builder{}
		want := map[string]int{}
		for qid, c := range round {
			b := files[c.Category]
			if b == nil {
				b = &strings.Builder{}
				files[c.Category] = b
			}
			var calls []string
			for _, call := range c.Response {
				calls = append(calls, fmt.Sprintf("{%q: %s}", call.Name, call.Arguments))
			}
			fmt.Fprintf(b, "{\"id\": %q, \"result\": [%s]}\n", qid, strings.Join(calls, ", "))
			if c.Valid {
				want[c.Category]++
			}
		}
		total += scoreRound(t, r, dir, files, want, cache)
	}
	t.Logf("%d rounds, %d results passed", len(rounds), total)
}

// scoreRound writes round r's result files, one per category or variant
// (files), into dir, scores the directory under bfcl semantics with the
// suites of cache, and checks that each category passes BFCL's count of
// valid results (want); it returns how many passed.
func scoreRound(t *testing.T, r int, dir string, files map[string]*strings.Builder, want map[string]int, cache *dirCache) int {
	t.Helper()
	for cat, b := range files {
		if err := os.WriteFile(filepath.Join(dir, "BFCL_v4_"+cat+"_result.json"), []byte(b.String()), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	got, err := scoreDir(context.Background(), Dir{Data: filepath.Join(shared, "data"), Results: dir, Semantics: SemanticsBFCL}, cache)
	if err != nil {
		t.Fatal(err)
	}
	passed := 0
	for _, cs := range got.Categories {
		if cs.Passed != want[cs.Category] {
			t.Errorf("round %d: %s: %d of %d passed, BFCL finds %d valid", r, cs.Category, cs.Passed, cs.Cases, want[cs.Category])
		}
		passed += cs.Passed
	}
	if len(got.Categories) != len(files) {
		t.Errorf("round %d: scored %d categories, want the %d written (skipped %q)", r, len(got.Categories), len(files), got.Skipped)
	}
	return passed
}

// TestScoreDirNested: BFCL v4's handlers write the results by group
// (non_live/, agentic/, ...); ScoreDir finds them there as in one
// directory, and refuses a category found twice.
func TestScoreDirNested(t *testing.T) {
	flat, err := ScoreDir(context.Background(), Dir{Data: "testdata/run/data", Results: "testdata/run/result", Semantics: SemanticsBFCL})
	if err != nil {
		t.Fatal(err)
	}
	nested := t.TempDir()
	group := map[string]string{"simple_python": "non_live", "irrelevance": "non_live", "web_search_base": "agentic",
		"web_search_no_snippet": "agentic", "multi_turn_base": "multi_turn"}
	names, err := filepath.Glob("testdata/run/result/BFCL_v4_*_result.json")
	if err != nil || len(names) == 0 {
		t.Fatal(names, err)
	}
	for _, name := range names {
		cat := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(name), "BFCL_v4_"), "_result.json")
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(nested, group[cat])
		if err := os.MkdirAll(dir, 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(name)), b, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	got, err := ScoreDir(context.Background(), Dir{Data: "testdata/run/data", Results: nested, Semantics: SemanticsBFCL})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got.Categories) != fmt.Sprint(flat.Categories) || got.Overall != flat.Overall {
		t.Errorf("nested: %v %v; flat: %v %v", got.Categories, got.Overall, flat.Categories, flat.Overall)
	}
	twice := filepath.Join(nested, "live", filepath.Base(names[0]))
	if err := os.MkdirAll(filepath.Dir(twice), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(twice, []byte{}, 0o666); err != nil {
		t.Fatal(err)
	}
	if _, err := ScoreDir(context.Background(), Dir{Data: "testdata/run/data", Results: nested, Semantics: SemanticsBFCL}); err == nil || !strings.Contains(err.Error(), "are also in") {
		t.Errorf("a category found twice: %v", err)
	}
}

// TestScoreDirMissingResults: a results file that lacks questions (an
// interrupted run) is scored with them failed, and a warning says how
// many, since BFCL would refuse it.
func TestScoreDirMissingResults(t *testing.T) {
	dir := t.TempDir()
	b, err := os.ReadFile("testdata/run/result/BFCL_v4_simple_python_result.json")
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(b), "\n")
	if err := os.WriteFile(filepath.Join(dir, "BFCL_v4_simple_python_result.json"), []byte(first+"\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	got, err := ScoreDir(context.Background(), Dir{Data: "testdata/run/data", Results: dir, Semantics: SemanticsBFCL})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Categories) != 1 || got.Categories[0].Cases != 2 {
		t.Fatalf("scores %v, want simple_python's 2 questions", got.Categories)
	}
	if !slices.ContainsFunc(got.Warnings, func(w string) bool { return strings.Contains(w, "1 of the 2 questions") }) {
		t.Errorf("warnings %q, want one that 1 of the 2 questions has no result", got.Warnings)
	}
}
