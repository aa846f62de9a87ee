package report

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

type diffSelftest struct {
	LoadMs                  float64
	Title, OldMeta, NewMeta string
	Figures                 []string
	Count, ChangedCount     int
	Rows, ChangedRows       [][]string
	DeltaRows               [][]string
	Fragment, OpenFragment  string
	Detail                  *struct {
		Sides     []string
		Pres      int
		Timelines []int
	}
}

func runDiffPage(t *testing.T, old, new []Case, fragment string) (string, diffSelftest) {
	t.Helper()
	page := filepath.Join(t.TempDir(), "diff.html")
	f, err := os.Create(page)
	if err != nil {
		t.Fatal(err)
	}
	opts := CompareHTMLOptions{OldMeta: RunMeta{Responses: "old.jsonl", Date: "2026-12-01T00:00:00Z"}, NewMeta: RunMeta{Responses: "new.jsonl", Date: "2026-12-06T00:00:00Z"}}
	if err := WriteCompareHTML(f, old, new, opts); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var st diffSelftest
	readSelftest(t, page, "selftest-diff"+fragment, &st)
	return page, st
}

// TestCompareHTMLInChromium: the diff page lists regressed then fixed
// cases first, so labelled, with both scores and the delta; "Only
// changed" leaves the rest out; a case opens with both runs' calls; each
// run's metadata heads the page.
func TestCompareHTMLInChromium(t *testing.T) {
	old, cur := generate(30), generate(30)
	// case 1 regresses, case 3 (failing before) is fixed, case 6 scores
	// higher yet still fails.
	cur[1].Pass, cur[1].Score = false, 0.5
	cur[3].Pass, cur[3].Score, cur[3].Diffs = true, 1, nil
	cur[6].Score = 0.9
	cur = append(cur[:29:29], Case{Result: cur[29].Result, Suite: "generated.yaml"})
	cur[29].ID = "case-new"
	_, st := runDiffPage(t, old, cur, "")
	if st.Title != "callgrade diff: generated.yaml" || !strings.Contains(st.OldMeta, "old.jsonl") || !strings.Contains(st.NewMeta, "2026-12-06") {
		t.Errorf("title %q, metadata %q | %q", st.Title, st.OldMeta, st.NewMeta)
	}
	if st.Count != 31 || len(st.Rows) < 2 || st.Rows[0][0] != "case-000001" || st.Rows[0][2] != "regressed" || st.Rows[1][0] != "case-000003" || st.Rows[1][2] != "fixed" {
		t.Fatalf("%d rows, first %q", st.Count, st.Rows[:2])
	}
	if r := st.Rows[0]; r[3] != "pass" || r[4] != "fail" || r[5] != "1" || r[6] != "0.5" || r[7] != "-0.5" {
		t.Errorf("regressed row %q", r)
	}
	if !slices.Equal(st.Figures[2:4], []string{"1", "1"}) {
		t.Errorf("figures %q", st.Figures)
	}
	var changed []string
	for _, r := range st.ChangedRows {
		changed = append(changed, r[0]+" "+r[2])
	}
	want := []string{"case-000001 regressed", "case-000003 fixed", "case-000006 score changed", "case-new new case", "case-000029 removed"}
	if !slices.Equal(changed, want) {
		t.Errorf("only changed: %q, want %q", changed, want)
	}
	if st.Detail == nil || len(st.Detail.Sides) != 2 || !strings.HasPrefix(st.Detail.Sides[0], "Old run pass") || !strings.HasPrefix(st.Detail.Sides[1], "New run fail") || st.Detail.Pres != 3 {
		t.Errorf("drill-down %+v", st.Detail)
	}
	if st.OpenFragment != "#only=changed&case=case-000001" {
		t.Errorf("fragment %q", st.OpenFragment)
	}
	if st.DeltaRows[0][0] != "case-000001" || st.DeltaRows[len(st.DeltaRows)-1][0] != "case-000003" {
		t.Errorf("by delta: first %q, last %q", st.DeltaRows[0], st.DeltaRows[len(st.DeltaRows)-1])
	}
	// A link keeps the view.
	_, st = runDiffPage(t, old, cur, "&only=fixed")
	if st.Count != 1 || st.Fragment != "#only=fixed" {
		t.Errorf("#only=fixed: %d rows, fragment %q", st.Count, st.Fragment)
	}
}

// TestCompareHTMLTimelines: for an agent's runs, a case opens with both
// runs' timelines side by side.
func TestCompareHTMLTimelines(t *testing.T) {
	runs := agentRuns(t)
	old := slices.Clone(runs)
	for i := range old {
		old[i].Pass, old[i].Score = true, 1
	}
	_, st := runDiffPage(t, old, runs, "&only=regressed")
	if st.Detail == nil || len(st.Detail.Timelines) != 2 || st.Detail.Timelines[0] == 0 || st.Detail.Timelines[0] != st.Detail.Timelines[1] {
		t.Errorf("timelines side by side: %+v (%d regressed)", st.Detail, st.Count)
	}
}

func TestCompareHTMLLargeInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("2 × 100,000 cases in a browser: not in -short")
	}
	old, cur := generate(100_000), generate(100_000)
	for i := 0; i < len(cur); i += 7 {
		cur[i].Pass, cur[i].Score = !cur[i].Pass, 0.5
	}
	start := time.Now()
	page, st := runDiffPage(t, old, cur, "")
	fi, _ := os.Stat(page)
	t.Logf("2 × 100,000 cases: a page of %.1f MB, first view drawn at %.0f ms, written, loaded and self-tested in %v", float64(fi.Size())/1e6, st.LoadMs, time.Since(start))
	if st.Count != 100_000 || st.Rows[0][2] != "regressed" {
		t.Errorf("%d rows, first %q", st.Count, st.Rows[0])
	}
}
