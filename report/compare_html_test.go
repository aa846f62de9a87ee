package report

import (
	"encoding/csv"
	"encoding/json"
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
	// CSV and JSON are the downloads after the sort by delta; Tools the
	// tool filter's options; ToolView the view with the first tool
	// chosen, TextView then with "paris" in the text filter.
	CSV, JSON          *struct{ Name, Type, Text string }
	Tools              []string
	ToolView, TextView *diffView
	DownloadMs, TextMs float64
}

type diffView struct {
	Count    int
	Rows     [][]string
	Fragment string
}

func runDiffPage(t *testing.T, old, new []Case, fragment string) (string, diffSelftest) {
	t.Helper()
	page := filepath.Join(t.TempDir(), "diff.html")
	f, err := os.Create(page)
	if err != nil {
		t.Fatal(err)
	}
	oldMeta, newMeta := RunMeta{Responses: "old.jsonl", Date: "2026-12-01T00:00:00Z"}, RunMeta{Responses: "new.jsonl", Date: "2026-12-06T00:00:00Z"}
	if err := WriteCompareHTML(f, old, new, oldMeta, newMeta); err != nil {
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
	cur = append(cur[:29:29], Case{Result: cur[29].Result, suiteFile: "generated.yaml"})
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
	t.Logf("2 × 100,000 cases: a page of %.1f MB, first view drawn at %.0f ms, written, loaded and self-tested in %v; CSV %.0f ms, text filter %.0f ms", float64(fi.Size())/1e6, st.LoadMs, time.Since(start), st.DownloadMs, st.TextMs)
	if st.DownloadMs > 3000 || st.TextMs > 3000 {
		t.Errorf("download %.0f ms, text filter %.0f ms at 2 × 100,000 cases", st.DownloadMs, st.TextMs)
	}
	if st.Count != 100_000 || st.Rows[0][2] != "regressed" {
		t.Errorf("%d rows, first %q", st.Count, st.Rows[0])
	}
}

// TestCompareHTMLFiltersInChromium: the diff page filters by tool and by
// text in both runs' calls, downloads the rows as filtered and sorted as
// CSV and JSON, and keeps the filters in the URL fragment.
func TestCompareHTMLFiltersInChromium(t *testing.T) {
	old, cur := generate(30), generate(30)
	// Regressed: 1 and 20; fixed: 0 and 3. Case 20's calls, in both
	// runs, say Lyon, not Paris.
	cur[1].Pass, cur[1].Score = false, 0.5
	cur[20].Pass, cur[20].Score = false, 0.5
	cur[0].Pass, cur[0].Score, cur[0].Diffs = true, 1, nil
	cur[3].Pass, cur[3].Score, cur[3].Diffs = true, 1, nil
	lyon := json.RawMessage(`[{"name":"tool_00","arguments":{"city":"Lyon","days":3}}]`)
	old[20].actual, cur[20].actual = lyon, lyon
	_, st := runDiffPage(t, old, cur, "")
	if st.CSV == nil || st.JSON == nil || st.ToolView == nil || st.TextView == nil {
		t.Fatalf("self-test %+v", st)
	}
	rec, err := csv.NewReader(strings.NewReader(st.CSV.Text)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range rec[1:] {
		ids = append(ids, r[0])
	}
	// Only changed, sorted by delta: the rows of every page, in order.
	if !slices.Equal(rec[0], []string{"id", "tool", "change", "old_result", "new_result", "old_score", "new_score", "delta", "old_diffs", "new_diffs"}) ||
		!slices.Equal(ids, []string{"case-000001", "case-000020", "case-000003", "case-000000"}) ||
		!slices.Equal(rec[1], []string{"case-000001", "tool_01", "regressed", "pass", "fail", "1", "0.5", "-0.5", "", ""}) ||
		!slices.Equal(rec[4][:3], []string{"case-000000", "tool_00", "fixed"}) || rec[4][8] == "" || st.CSV.Type != "text/csv" {
		t.Errorf("CSV %q, type %q", rec, st.CSV.Type)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(st.JSON.Text), &rows); err != nil || len(rows) != 4 || rows[0]["delta"] != -0.5 || rows[3]["new_diffs"] == nil {
		t.Errorf("JSON %v: %v", err, rows)
	}
	if !strings.HasSuffix(st.CSV.Name, ".csv") || !strings.HasSuffix(st.JSON.Name, ".json") || st.JSON.Type != "application/json" {
		t.Errorf("download names %q, %q, type %q", st.CSV.Name, st.JSON.Name, st.JSON.Type)
	}
	if len(st.Tools) != 21 || st.Tools[0] != "all tools" || st.Tools[1] != "tool_00" {
		t.Errorf("tool options %q", st.Tools)
	}
	rowIDs := func(v *diffView) []string {
		var out []string
		for _, r := range v.Rows {
			out = append(out, r[0])
		}
		return out
	}
	if v := st.ToolView; !slices.Equal(rowIDs(v), []string{"case-000020", "case-000000"}) || v.Fragment != "#only=changed&tool=tool_00&sort=delta" {
		t.Errorf("tool_00: rows %q, fragment %q", rowIDs(v), v.Fragment)
	}
	if v := st.TextView; !slices.Equal(rowIDs(v), []string{"case-000000"}) || v.Fragment != "#only=changed&tool=tool_00&text=paris&sort=delta" {
		t.Errorf("tool_00, paris: rows %q, fragment %q", rowIDs(v), v.Fragment)
	}
	// A link keeps the view: the tool and text filters from the fragment
	// (text in the expected calls counts: every case expects Berlin).
	_, st = runDiffPage(t, old, cur, "&tool=tool_01&text=Berlin")
	if st.Count != 2 || st.Fragment != "#tool=tool_01&text=Berlin" || st.Rows[0][0] != "case-000001" || st.Rows[1][0] != "case-000021" {
		t.Errorf("#tool=tool_01&text=Berlin: %d rows %q, fragment %q", st.Count, st.Rows, st.Fragment)
	}
}
