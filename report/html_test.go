package report

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/callgrade/callgrade/internal/testenv"
	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/value"
)

const chromiumPath = "/usr/bin/chromium"

// chromium runs Debian's chromium headless on url with extra arguments
// and returns its stdout. The flags keep it off the network, which this
// machine's closed network would refuse many times over.
func chromium(t *testing.T, url string, args ...string) []byte {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("CALLGRADE_REQUIRE_CHROMIUM") != "" {
			t.Fatalf("%s is absent and CALLGRADE_REQUIRE_CHROMIUM is set (as .ci/run sets it)", chromiumPath)
		}
		testenv.Skipf(t, "%s is absent (apt-get install chromium): the HTML report is not tested in a browser", chromiumPath)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	argv := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-extensions",
		"--hide-scrollbars", "--user-data-dir=" + t.TempDir()}, args...)
	cmd := exec.CommandContext(ctx, chromiumPath, append(argv, url)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, errb.Bytes())
	}
	return out.Bytes()
}

// selftest is what the page writes into #selftest-result when opened with
// #selftest: its headline figures, the rows after clicking "Failed", and
// how long that click took.
type selftest struct {
	Cases, Passed, Failed, Errored, Rate, Mean string
	FailedRows, PageRows                       int
	FilterMs                                   float64
	// LoadMs is when the page had drawn its first view, from the start of
	// navigation.
	LoadMs float64
	// ToolBars are the bars of the chart of pass rates by tool, "tool
	// rate"; ToolRows, by tool, the rows the tool filter shows, "case:
	// tool cell".
	ToolBars          []string
	ToolRows          map[string][]string
	DetailOpen, Marks int
	// Samples, for a results file with samples: the cases, the run's
	// pass@k and pass^k as the page shows them, and the text of the
	// samples strip of the case opened.
	Samples *struct {
		Cases   string
		At, Hat []string
		Strip   string
	}
}

var selftestRE = regexp.MustCompile(`<pre id="selftest-result"[^>]*>([^<]*)</pre>`)

// runSelftest writes cases as a page, loads it in Chromium with #selftest
// and returns what the page reported.
func runSelftest(t *testing.T, cases []Case) (page string, st selftest) {
	t.Helper()
	page = filepath.Join(t.TempDir(), "report.html")
	f, err := os.Create(page)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteHTML(f, cases, HTMLOptions{title: "callgrade report: testdata"}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	readSelftest(t, page, "selftest", &st)
	return page, st
}

func wantFigures(t *testing.T, s *results.Summary, st selftest) {
	t.Helper()
	type figures struct{ Cases, Passed, Failed, Errored, Rate, Mean string }
	want := figures{Cases: fmt.Sprint(s.Cases), Passed: fmt.Sprint(s.Passed), Failed: fmt.Sprint(s.Failed),
		Errored: fmt.Sprint(s.Errored), Rate: fmt.Sprintf("%.1f%%", 100*s.PassRate()), Mean: fmt.Sprintf("%.3f", s.MeanScore())}
	got := figures{Cases: st.Cases, Passed: st.Passed, Failed: st.Failed, Errored: st.Errored, Rate: st.Rate, Mean: st.Mean}
	if got != want {
		t.Errorf("headline figures on the page %+v, want %+v (from the results file)", got, want)
	}
	// "Failed" shows every line that did not pass: the failed cases and the
	// responses that name no case.
	if st.FailedRows != s.Failed+s.Unknown {
		t.Errorf("after clicking Failed the page lists %d cases, want %d", st.FailedRows, s.Failed+s.Unknown)
	}
	if st.PageRows != min(st.FailedRows, 50) {
		t.Errorf("the page shows %d rows, want %d", st.PageRows, min(st.FailedRows, 50))
	}
}

// TestHTMLInChromium loads the fixture's report in Chromium, checks the
// figures against the results file, clicks the Failed filter, opens a case,
// and takes a screenshot (kept as testdata/report.png with -update).
func TestHTMLInChromium(t *testing.T) {
	cases := loadFixture(t, true)
	page, st := runSelftest(t, cases)
	wantFigures(t, Summarize(cases), st)
	if st.DetailOpen != 1 || st.Marks == 0 {
		t.Errorf("opening the first failing case showed %d detail rows with %d marked paths, want 1 with some", st.DetailOpen, st.Marks)
	}
	shot := filepath.Join(t.TempDir(), "report.png")
	chromium(t, "file://"+page+"#selftest", "--window-size=1280,1100", "--screenshot="+shot)
	png, err := os.ReadFile(shot)
	if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Fatalf("no screenshot: %v", err)
	}
	if *update {
		if err := os.WriteFile("testdata/report.png", png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestHTMLLargeInChromium: a page of 100,000 cases loads, shows the right
// figures, and answers a click on a filter within a bounded time.
func TestHTMLLargeInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("100,000 cases in a browser: not in -short")
	}
	cases := generate(100_000)
	start := time.Now()
	page, st := runSelftest(t, cases)
	fi, err := os.Stat(page)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("100,000 cases: a page of %.1f MB written, loaded and self-tested in %v; the page drew its first view %.0f ms after navigation began; the Failed filter took %.1f ms", float64(fi.Size())/1e6, time.Since(start), st.LoadMs, st.FilterMs)
	wantFigures(t, Summarize(cases), st)
	if st.FilterMs > 1000 {
		t.Errorf("clicking Failed took %.0f ms over 100,000 cases, want under 1000", st.FilterMs)
	}
}

// generate makes n cases over 20 tools, a third of them failing with one
// or two diffs.
func generate(n int) []Case {
	kinds := []results.Kind{results.Mismatch, results.MissingArgument, results.WrongTool, results.InvalidArguments, results.UnexpectedArgument}
	cases := make([]Case, n)
	for i := range cases {
		tool := fmt.Sprintf("tool_%02d", i%20)
		c := Case{Result: results.Result{ID: fmt.Sprintf("case-%06d", i), Tool: tool, Pass: true, Score: 1,
			Calls: []results.CallResult{{Expected: 0, Actual: 0, Pass: true, Score: 1}}},
			suiteFile: "generated.yaml",
			expected:  json.RawMessage(`[{"name":"` + tool + `","arguments":{"city":"Berlin","days":3}}]`),
			actual:    json.RawMessage(`[{"name":"` + tool + `","arguments":{"city":"Paris","days":3}}]`)}
		if i%3 == 0 {
			c.Pass, c.Score, c.Calls[0].Pass = false, float64(i%10)/10, false
			for j := 0; j <= i%2; j++ {
				c.Diffs = append(c.Diffs, results.Diff{Kind: kinds[(i/3+j)%len(kinds)], Path: "city",
					Expected: value.StringOf("Berlin"), Actual: value.StringOf("Paris"), HasExpected: true, HasActual: true,
					Rule: "exact", Message: `expected "Berlin", got "Paris" (exact)`})
			}
		}
		cases[i] = c
	}
	return cases
}

// readSelftest opens page in Chromium at #fragment, whose script checks the
// page and writes what it found into #selftest-result, and decodes that
// into out.
func readSelftest(t *testing.T, page, fragment string, out any) {
	t.Helper()
	dom := chromium(t, "file://"+page+"#"+fragment, "--dump-dom")
	m := selftestRE.FindSubmatch(dom)
	if m == nil {
		t.Fatalf("the page wrote no #selftest-result: its script did not run to the end (%d bytes of DOM)", len(dom))
	}
	if err := json.Unmarshal([]byte(html.UnescapeString(string(m[1]))), out); err != nil {
		t.Fatalf("#selftest-result: %v: %s", err, m[1])
	}
}
