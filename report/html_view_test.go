package report

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/callgrade/callgrade/engine"
	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/value"
)

// viewResult is what the page writes into #selftest-result when opened
// with #selftest-view and further keys of the fragment.
type viewResult struct {
	Title, H1 string
	Meta      []string
	Columns   []string
	Charts    []string
	Initial   view
	Clicks    map[string]view
	CSV, JSON *struct {
		Name, Type, Text string
		Size             int
	}
	SortMs, DownloadMs, TextMs, LoadMs float64
}

type view struct {
	Fragment string
	Hash     string // location.hash as the page left it
	Count    int
	Rows     [][]string
	Open     int
	Sorted   []string
	Controls map[string]string
	// MetaControls are the metadata's filters, "NAME=SHOWN" each.
	MetaControls []string
	Groups       []string
}

// writeView writes cases as a page with opts and loads it at
// #selftest-view plus keys.
func writeView(t *testing.T, cases []Case, opts HTMLOptions, keys string) viewResult {
	t.Helper()
	page := filepath.Join(t.TempDir(), "report.html")
	f, err := os.Create(page)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteHTML(f, cases, opts); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var v viewResult
	readSelftest(t, page, "selftest-view"+keys, &v)
	return v
}

func scores(t *testing.T, rows [][]string, col int) []float64 {
	t.Helper()
	var out []float64
	for _, r := range rows {
		x, err := strconv.ParseFloat(r[col], 64)
		if err != nil {
			t.Fatalf("row %q: score %q", r, r[col])
		}
		out = append(out, x)
	}
	return out
}

// TestHTMLViewInChromium: the title names the suite, the run metadata
// shows above the table, #sort=score sorts worst first, clicks on the
// headers sort and turn the order round, the downloads hold the rows as
// filtered, group-by gives pass rates, and the text filter searches the
// calls.
func TestHTMLViewInChromium(t *testing.T) {
	cases := generate(300)
	for i := range cases {
		cases[i].Model = []string{"gpt-x", "gemini-y"}[i%2]
		cases[i].ResponsesFile = "responses.jsonl"
	}
	cases[7].Actual = json.RawMessage(`[{"name":"tool_07","arguments":{"city":"Lyon, \"FR\"","days":3}}]`)
	opts := HTMLOptions{Meta: RunMeta{Date: "2026-12-06T05:00:00Z", Version: "v9.9.9"}}
	v := writeView(t, cases, opts, "&sort=score")
	if v.Title != "callgrade report: generated.yaml" || v.H1 != v.Title {
		t.Errorf("title %q, h1 %q: want the suite named", v.Title, v.H1)
	}
	wantMeta := []string{"suite file", "generated.yaml", "responses", "responses.jsonl", "run date", "2026-12-06T05:00:00Z", "callgrade", "v9.9.9", "models", "gpt-x, gemini-y"}
	if !slices.Equal(v.Meta, wantMeta) {
		t.Errorf("metadata %q, want %q", v.Meta, wantMeta)
	}
	if !slices.Equal(v.Columns, []string{"case", "tool", "suite", "model", "result", "score", "diffs"}) {
		t.Errorf("columns %q", v.Columns)
	}
	// #sort=score: worst first.
	sc := scores(t, v.Initial.Rows, 5)
	if len(sc) != 50 || !slices.IsSorted(sc) || sc[0] != 0 || v.Initial.Fragment != "#sort=score" || !slices.Equal(v.Initial.Sorted, []string{"score ascending"}) {
		t.Errorf("#sort=score: fragment %q, sorted %q, scores %v", v.Initial.Fragment, v.Initial.Sorted, sc)
	}
	// A click on score, already sorted by it, turns it round: best first.
	if sc := scores(t, v.Clicks["score1"].Rows, 5); sc[0] != 1 || v.Clicks["score1"].Fragment != "#sort=-score" {
		t.Errorf("second sort by score: fragment %q, scores %v", v.Clicks["score1"].Fragment, sc)
	}
	if sc := scores(t, v.Clicks["score2"].Rows, 5); !slices.IsSorted(sc) || v.Clicks["score2"].Fragment != "#sort=score" {
		t.Errorf("third sort by score: fragment %q, scores %v", v.Clicks["score2"].Fragment, sc)
	}
	if r := v.Clicks["id1"].Rows; r[0][0] != "case-000000" || r[1][0] != "case-000001" {
		t.Errorf("sorted by case: %q", r[:2])
	}
	// The downloads: every row as filtered (all 300, not the page's 50),
	// in the order shown (by id after the last click).
	rec, err := csv.NewReader(strings.NewReader(v.CSV.Text)).ReadAll()
	if err != nil {
		t.Fatalf("CSV: %v\n%s", err, v.CSV.Text)
	}
	if len(rec) != 301 || !slices.Equal(rec[0], []string{"id", "sample", "tool", "suite", "model", "result", "score", "diffs", "messages"}) ||
		!slices.Equal(rec[1][:7], []string{"case-000000", "", "tool_00", "generated.yaml", "gpt-x", "fail", "0"}) || v.CSV.Type != "text/csv" || v.CSV.Size != len(v.CSV.Text) {
		t.Errorf("CSV: %d records, head %q, first %q, type %q, size %d", len(rec), rec[0], rec[1], v.CSV.Type, v.CSV.Size)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(v.JSON.Text), &rows); err != nil || len(rows) != 300 || rows[0]["id"] != "case-000000" || rows[0]["result"] != "fail" {
		t.Errorf("JSON download: %v: %d rows, first %v", err, len(rows), rows[0])
	}
	if !strings.HasSuffix(v.CSV.Name, ".csv") || !strings.HasSuffix(v.JSON.Name, ".json") {
		t.Errorf("download names %q, %q", v.CSV.Name, v.JSON.Name)
	}
	// Group by tool: 20 tools of 15 cases, a third failing.
	g := v.Clicks["group"]
	if len(g.Groups) != 20 || !strings.HasPrefix(g.Groups[0], "tool_") || !strings.Contains(g.Groups[0], "|15|") || !strings.Contains(g.Fragment, "group=tool") {
		t.Errorf("group by tool: fragment %q, groups %q", g.Fragment, g.Groups)
	}
	// "paris" is in every actual call but case 7's.
	if tx := v.Clicks["text"]; tx.Count != 299 || !strings.Contains(tx.Fragment, "text=paris") {
		t.Errorf("text filter: %d rows, fragment %q", tx.Count, tx.Fragment)
	}

	// A link with filters reproduces the view: failed cases of tool_03
	// whose calls hold "lyon" — none; "berlin" — all of them.
	v = writeView(t, cases, opts, "&status=fail&tool=tool_03&text=Berlin&sort=-id&group=result")
	iv := v.Initial
	if iv.Controls["status"] != "fail" || iv.Controls["tool"] != "tool_03" || iv.Controls["text"] != "Berlin" || iv.Controls["group"] != "result" {
		t.Errorf("controls from the fragment: %v", iv.Controls)
	}
	if iv.Count != 5 || iv.Rows[0][0] != "case-000243" || iv.Rows[0][4] != "fail" || !slices.Equal(iv.Groups, []string{"fail|5|0|0.0%|0.300"}) {
		t.Errorf("status=fail&tool=tool_03&sort=-id: %d rows %q, groups %q", iv.Count, iv.Rows, iv.Groups)
	}
	if iv.Fragment != "#status=fail&tool=tool_03&text=Berlin&sort=-id&group=result" {
		t.Errorf("fragment %q", iv.Fragment)
	}
	// The page writes its view into the URL as it changes.
	for name, cv := range v.Clicks {
		if cv.Hash != cv.Fragment {
			t.Errorf("after %s, location.hash %q, want the view's %q", name, cv.Hash, cv.Fragment)
		}
	}
	// A case link within a view opens the case on its page.
	v = writeView(t, cases, opts, "&sort=score&case=case-000150")
	if v.Initial.Open != 1 || !strings.HasSuffix(v.Initial.Fragment, "&case=case-000150") {
		t.Errorf("case=: %d open, fragment %q", v.Initial.Open, v.Initial.Fragment)
	}
}

// TestHTMLSmallRunCharts: a run of two passing cases has no diffs chart
// and a short histogram; no panel stands empty or tall.
func TestHTMLSmallRunCharts(t *testing.T) {
	cases := generate(3)[1:]
	v := writeView(t, cases, HTMLOptions{}, "")
	if len(v.Charts) != 2 || !strings.HasPrefix(v.Charts[0], "p-tools ") || !strings.HasPrefix(v.Charts[1], "p-hist ") {
		t.Fatalf("charts %q, want the tools and the histogram", v.Charts)
	}
	for _, c := range v.Charts {
		h, _ := strconv.Atoi(c[strings.IndexByte(c, ' ')+1:])
		if h > 150 {
			t.Errorf("chart %s px high on a run of two cases", c)
		}
	}
	if len(v.Meta) != 2 || v.Title != "callgrade report: generated.yaml" {
		t.Errorf("meta %q, title %q", v.Meta, v.Title)
	}
}

// TestHTMLLargeViewInChromium: at 100,000 cases, with metadata (a name
// of 50,000 values among them), sorting by score, the download and the
// text filter stay fast.
func TestHTMLLargeViewInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("100,000 cases in a browser: not in -short")
	}
	start := time.Now()
	v := writeView(t, withMetadata(t, 100_000), HTMLOptions{}, "")
	t.Logf("100,000 cases: loaded and clicked through in %v; first view drawn at %.0f ms; sort %.0f ms, CSV %.0f ms, text filter %.0f ms", time.Since(start), v.LoadMs, v.SortMs, v.DownloadMs, v.TextMs)
	if v.SortMs > 2000 || v.DownloadMs > 3000 || v.TextMs > 3000 {
		t.Errorf("sort %.0f ms, download %.0f ms, text filter %.0f ms at 100,000 cases", v.SortMs, v.DownloadMs, v.TextMs)
	}
	if v.Clicks["text"].Count != 100_000 {
		t.Errorf("text filter found %d", v.Clicks["text"].Count)
	}
}

// TestHTMLCategoriesInChromium: BFCL-style ids ("simple_3") give a
// category column, filter and group-by with pass rates.
func TestHTMLCategoriesInChromium(t *testing.T) {
	cases := generate(30)
	for i := range cases {
		cases[i].ID = fmt.Sprintf("%s_%d", []string{"simple", "parallel_multiple"}[i%2], i)
	}
	v := writeView(t, cases, HTMLOptions{}, "&group=category&category=parallel_multiple")
	if !slices.Contains(v.Columns, "category") {
		t.Errorf("columns %q", v.Columns)
	}
	iv := v.Initial
	// parallel_multiple: the odd cases, of which 5 (3, 9, 15, 21, 27) fail.
	if iv.Count != 15 || iv.Controls["category"] != "parallel_multiple" || !slices.Equal(iv.Groups, []string{"parallel_multiple|15|10|66.7%|0.833"}) {
		t.Errorf("category=parallel_multiple: %d rows, controls %v, groups %q", iv.Count, iv.Controls, iv.Groups)
	}
	if iv.Fragment != "#category=parallel_multiple&group=category" {
		t.Errorf("fragment %q", iv.Fragment)
	}
	if !strings.HasPrefix(v.CSV.Text, "id,sample,tool,suite,category,") || !strings.Contains(v.CSV.Text, ",parallel_multiple,") {
		t.Errorf("CSV %q", v.CSV.Text[:min(200, len(v.CSV.Text))])
	}
}

// TestAttachResponsesModel: a case's model is its response line's "model",
// else the provider body's "model" or "modelVersion"; the page lists each
// once.
func TestAttachResponsesModel(t *testing.T) {
	cases := []Case{{Result: engine.Result{ID: "a"}}, {Result: engine.Result{ID: "b"}}, {Result: engine.Result{ID: "c"}}, {Result: engine.Result{ID: "d"}}, {Result: engine.Result{ID: "e"}}}
	lines := `{"id":"a","response":{"model":"gpt-4o","choices":[]}}
{"id":"b","response":{"modelVersion":"gemini-2.0-flash","candidates":[]}}
{"id":"c","model":"claude-x","response":{"model":"ignored"}}
{"id":"d","response":"no model"}
{"id":"e","response":{"model":"gpt-4o"}}
`
	if err := AttachResponses(cases, strings.NewReader(lines), format.Auto); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cases {
		got = append(got, c.Model)
	}
	if want := []string{"gpt-4o", "gemini-2.0-flash", "claude-x", "", "gpt-4o"}; !slices.Equal(got, want) {
		t.Errorf("models %q, want %q", got, want)
	}
	if m := (RunMeta{}).fill(cases).Models; !slices.Equal(m, []string{"gpt-4o", "gemini-2.0-flash", "claude-x"}) {
		t.Errorf("run metadata's models %q", m)
	}
}

// withMetadata is generate(n) with metadata: difficulty easy (even cases)
// or hard (odd), turns the case's number written as "N.0" for the hard
// ones, and slow true for every fifth.
func withMetadata(t *testing.T, n int) []Case {
	t.Helper()
	cases := generate(n)
	for i := range cases {
		md := map[string]value.Value{"difficulty": value.StringOf([]string{"easy", "hard"}[i%2])}
		if i%2 == 1 {
			num, err := value.NumberOf(fmt.Sprintf("%d.0", i))
			if err != nil {
				t.Fatal(err)
			}
			md["turns"] = num
		}
		if i%5 == 0 {
			md["slow"] = value.BoolOf(true)
		}
		cases[i].Metadata = md
	}
	return cases
}

// TestHTMLMetadataInChromium: each name of the suite's metadata is a
// column, a filter and a group-by with pass rates and mean scores, in
// the URL fragment and in the downloads.
func TestHTMLMetadataInChromium(t *testing.T) {
	cases := withMetadata(t, 30)
	v := writeView(t, cases, HTMLOptions{}, "&meta.difficulty=hard&group=meta.difficulty&sort=-meta.turns")
	if want := []string{"case", "tool", "suite", "difficulty", "slow", "turns", "result", "score", "diffs"}; !slices.Equal(v.Columns, want) {
		t.Errorf("columns %q, want %q", v.Columns, want)
	}
	iv := v.Initial
	// hard: the odd cases, of which 5 (3, 9, 15, 21, 27) fail; sorted by
	// turns, as numbers, most first.
	if iv.Count != 15 || !slices.Equal(iv.Groups, []string{"hard|15|10|66.7%|0.833"}) {
		t.Errorf("meta.difficulty=hard: %d rows, groups %q", iv.Count, iv.Groups)
	}
	if len(iv.Rows) < 3 || !slices.Equal(iv.Rows[0][:6], []string{"case-000029", "tool_09", "generated.yaml", "hard", "", "29.0"}) || iv.Rows[1][5] != "27.0" || iv.Rows[2][4] != "true" {
		t.Errorf("rows %q", iv.Rows[:min(3, len(iv.Rows))])
	}
	if !slices.Equal(iv.MetaControls, []string{"difficulty=hard", "slow=all", "turns=all"}) || iv.Controls["group"] != "meta.difficulty" {
		t.Errorf("controls %q, %v", iv.MetaControls, iv.Controls)
	}
	if iv.Fragment != "#meta.difficulty=hard&sort=-meta.turns&group=meta.difficulty" || iv.Hash != iv.Fragment {
		t.Errorf("fragment %q, hash %q", iv.Fragment, iv.Hash)
	}
	// The downloads: the rows as filtered, the metadata after the other
	// columns in CSV, an object of each case's own in JSON, typed.
	rec, err := csv.NewReader(strings.NewReader(v.CSV.Text)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rec) != 16 || !slices.Equal(rec[0][len(rec[0])-3:], []string{"difficulty", "slow", "turns"}) || !slices.Equal(rec[1][len(rec[1])-3:], []string{"hard", "", "1.0"}) {
		t.Errorf("CSV: %d records, head %q, first %q", len(rec), rec[0], rec[1])
	}
	var rows []struct {
		ID       string
		Metadata map[string]any
	}
	if err := json.Unmarshal([]byte(v.JSON.Text), &rows); err != nil || len(rows) != 15 {
		t.Fatalf("JSON: %v, %d rows", err, len(rows))
	}
	if want := map[string]any{"difficulty": "hard", "turns": 5.0, "slow": true}; rows[2].ID != "case-000005" || !maps.Equal(rows[2].Metadata, want) {
		t.Errorf("JSON row %s: metadata %v, want %v", rows[2].ID, rows[2].Metadata, want)
	}

	// Cases without a name: "(none)" as a filter (meta.NAME=) and a group.
	v = writeView(t, cases, HTMLOptions{}, "&meta.slow=&group=meta.turns")
	if iv := v.Initial; iv.Count != 24 || !slices.Equal(iv.MetaControls, []string{"difficulty=all", "slow=(none)", "turns=all"}) || iv.Fragment != "#meta.slow=&group=meta.turns" {
		t.Errorf("meta.slow=: %d rows, controls %q, fragment %q", iv.Count, iv.MetaControls, iv.Fragment)
	}
	if g := v.Initial.Groups; len(g) != 13 || !slices.Contains(g, "(none)|12|8|66.7%|0.833") {
		t.Errorf("groups by turns: %q", g)
	}
	// A suite's own category stands for the one the ids carry.
	for i := range cases {
		cases[i].ID = fmt.Sprintf("simple_%d", i)
		cases[i].Metadata["category"] = value.StringOf("mine")
	}
	v = writeView(t, cases, HTMLOptions{}, "&group=category")
	if n := strings.Count(strings.Join(v.Columns, ","), "category"); n != 1 || len(v.Initial.Groups) != 0 {
		t.Errorf("columns %q (want one category), groups %q", v.Columns, v.Initial.Groups)
	}
}

// TestAnnotateMetadata: Annotate gives each case its metadata from the
// suite, defaults.metadata included, and the page's data carries each
// name once, its values once each, a number as written.
func TestAnnotateMetadata(t *testing.T) {
	src := `defaults: {metadata: {source: bfcl}}
cases:
- {id: a, expected: [], metadata: {level: 2.50, ok: true}}
- {id: b, expected: [], metadata: {level: "2.50", source: mine}}
- {id: c, expected: []}
`
	s, err := suite.LoadFS(fstest.MapFS{"s.yaml": {Data: []byte(src)}}, "s.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cases := []Case{{Result: engine.Result{ID: "a"}}, {Result: engine.Result{ID: "b"}}, {Result: engine.Result{ID: "c"}}, {Result: engine.Result{ID: "x"}, Unknown: true}}
	Annotate(cases, s)
	got, err := json.Marshal(newHTMLMeta(cases))
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"n":"level","v":["2.50","2.50"],"k":"ns","c":[0,1,-1,-1]},{"n":"ok","v":["true"],"k":"b","c":[0,-1,-1,-1]},{"n":"source","v":["bfcl","mine"],"k":"ss","c":[0,1,0,-1]}]`
	if string(got) != want {
		t.Errorf("page data\n got %s\nwant %s", got, want)
	}
	if newHTMLMeta(generate(3)) != nil {
		t.Error("cases without metadata: want no names")
	}
}
