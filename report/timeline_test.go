package report

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/callgrade/callgrade"
	"github.com/callgrade/callgrade/engine"
	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/internal/response"
	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/value"
)

// scoreRuns scores a suite's responses as `callgrade score --html` does,
// and reads the results back with the suite and the responses attached.
func scoreRuns(t testing.TB, suitePath, responsesPath string) []Case {
	t.Helper()
	s, err := suite.Load(suitePath)
	if err != nil {
		t.Fatal(err)
	}
	e, err := engine.New(suite.ViewOf(s), engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(responsesPath)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	var out bytes.Buffer
	if _, err := e.Run(context.Background(), in, &out, engine.RunOptions{Name: responsesPath}); err != nil {
		t.Fatal(err)
	}
	cases, err := ReadResults(&out, "results")
	if err != nil {
		t.Fatal(err)
	}
	Annotate(cases, suite.ViewOf(s))
	r, err := os.Open(responsesPath)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := AttachResponses(cases, r, "", callgrade.Options{}); err != nil {
		t.Fatal(err)
	}
	return cases
}

// agentRuns are the agent example's three runs and testdata/runs' one.
func agentRuns(t testing.TB) []Case {
	return append(scoreRuns(t, "../examples/agent/suite.yaml", "../examples/agent/responses.jsonl"),
		scoreRuns(t, "testdata/runs/suite.yaml", "testdata/runs/responses.jsonl")...)
}

func caseJSON(t *testing.T, d *htmlData, id string) (htmlCase, map[string]json.RawMessage) {
	t.Helper()
	for _, c := range d.Cases {
		if c.ID == id {
			b, err := json.Marshal(c)
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]json.RawMessage
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			return c, m
		}
	}
	t.Fatalf("no case %s in the page's data", id)
	return htmlCase{}, nil
}

// TestHTMLRunData: the page gets a run case's steps (name, arguments,
// turn, result, error flag), its final answer, each pair's verdict and
// score, its steps as the expected calls with their result rules, and the
// step and turn of each diff; an ordinary case gets none of that.
func TestHTMLRunData(t *testing.T) {
	d, err := newHTMLData(agentRuns(t), HTMLOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c, m := caseJSON(t, d, "refund-forbidden-call")
	if c.Run == nil {
		t.Fatal("refund-forbidden-call has no run on the page")
	}
	if _, ok := m["a"]; ok {
		t.Errorf("a run case carries its calls twice: %s", m["a"])
	}
	for _, k := range []string{"r", "cp", "cs", "x"} {
		if _, ok := m[k]; !ok {
			t.Errorf("refund-forbidden-call has no %q", k)
		}
	}
	var got []string
	for _, st := range c.Run.Steps {
		got = append(got, fmt.Sprintf("%s %s turn %d id %s result %s error %v", st.Name, st.Args, st.Turn, st.ID, st.Result, st.Error))
	}
	want := []string{
		`find_order {"email":"ana@example.com"} turn 0 id call_1 result {"id":"A-1001","total":25} error false`,
		`delete_account {"email":"ana@example.com"} turn 1 id call_2 result {"deleted":true} error false`,
		`refund {"amount":25,"order_id":"A-1001"} turn 2 id call_3 result {"status":"ok"} error false`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("steps:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if c.Run.Final == nil || *c.Run.Final != "Your refund of 25 EUR for order A-1001 is on its way." {
		t.Errorf("final: %v", c.Run.Final)
	}
	if fmt.Sprint(c.Pairs[1][0] != nil && *c.Pairs[1][0] == 1, *c.Pairs[1][1], c.PairPass, c.PairScore) != "true 2 [true true] [1 1]" {
		t.Errorf("pairs %s, pass %v, score %v", m["c"], c.PairPass, c.PairScore)
	}
	if len(c.Diffs) != 1 || d.Kinds[c.Diffs[0].Kind] != "forbidden_call" || c.Diffs[0].Step == nil || *c.Diffs[0].Step != 1 || *c.Diffs[0].Turn != 1 {
		t.Errorf("diffs: %+v", c.Diffs)
	}
	if want := `[{"name":"find_order","arguments":{"email":"ana@example.com"},"result":{"error":false,"id":{"type":"string"}}},{"name":"refund","arguments":{"amount":25},"rules":{"order_id":{"from":"find_order.result.id"}}}]`; string(c.Expected) != want {
		t.Errorf("expected steps %s\nwant %s", c.Expected, want)
	}
	if tool := d.Tools[c.Tool]; tool != "find_order" {
		t.Errorf("tool %q, want the first step's, find_order", tool)
	}

	// The Anthropic run: a tool's error flag, a string result, and a
	// missing step's pair with no actual call.
	c, _ = caseJSON(t, d, "refund-missing-step")
	if c.Run == nil || len(c.Run.Steps) != 3 || !c.Run.Steps[1].Error || c.Run.Steps[0].Error || c.Run.Steps[1].ID != "toolu_2" {
		t.Fatalf("run: %+v", c.Run)
	}
	if c.Pairs[1][1] != nil || c.PairPass[1] || c.PairScore[1] != 0 {
		t.Errorf("the missing step's pair: %v %v %v", c.Pairs[1], c.PairPass[1], c.PairScore[1])
	}

	// An ordinary case is as it was: no run, no pair verdicts, no steps.
	plain, err := newHTMLData(loadFixture(t, true), HTMLOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(plain)
	for _, k := range []string{`"r":{"s":`, `"cp":`, `"cs":`, `"st":`, `"tn":`} {
		if bytes.Contains(b, []byte(k)) {
			t.Errorf("the fixture's page data has %s", k)
		}
	}
}

// timelineRow is a row of a timeline as the page's #selftest-timeline
// reads it from the DOM.
type timelineRow struct {
	Cls, Step, Expected, Turn string
	Name, Args, Result        *string
	Clipped                   bool
	Summary                   *string
	X, Xargs, Verdict         *string
	Badges, Diffs             []string
	Marked                    int
	Fin                       *string
}

type timelineReport struct {
	Timelines []struct {
		ID        string
		OpenMs    float64
		Head      string
		CaseDiffs []string
		Rows      []timelineRow
		AfterMore int
	}
	PlainOpen int
}

func runTimelines(t *testing.T, cases []Case) (page string, rep timelineReport) {
	t.Helper()
	page = filepath.Join(t.TempDir(), "report.html")
	f, err := os.Create(page)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteHTML(f, cases, HTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	readSelftest(t, page, "selftest-timeline", &rep)
	return page, rep
}

func str(p *string) string {
	if p == nil {
		return "-"
	}
	return *p
}

// row is a timeline row in one line: step, turn, the actual call and its
// badges, the expected step and its verdict, and the diffs' kinds.
func (r timelineRow) String() string {
	if r.Cls == "tl-final" {
		return fmt.Sprintf("final %q %v", str(r.Fin), r.Diffs)
	}
	return fmt.Sprintf("%s step=%s turn=%s actual=%s%v expected=%s(%s) %s diffs=%v", r.Cls, r.Step, r.Turn, str(r.Name), r.Badges, str(r.X), r.Expected, str(r.Verdict), r.Diffs)
}

// TestHTMLTimelineInChromium opens the agent example's three runs, and a
// run with a missing step, an unexpected call and a tool's error, in
// Chromium, and checks each timeline as the page draws it: the rows in
// order, the expected step beside each actual one with its verdict, the
// gap, the forbidden and unexpected calls marked, the results (a long one
// cut short with the whole of it behind "show all"), the diffs on their
// rows and the final answer at the end. With -update it keeps a
// screenshot of the last as testdata/timeline.png (page#case=ID opens it).
func TestHTMLTimelineInChromium(t *testing.T) {
	page, rep := runTimelines(t, append(agentRuns(t), loadFixture(t, true)...))
	want := map[string][]string{
		"refund-pass": {
			"tl-paired step=0 turn=0 actual=find_order[] expected=find_order(0) pass 1 diffs=[]",
			"tl-paired step=1 turn=1 actual=refund[] expected=refund(1) pass 1 diffs=[]",
			`final "Your refund of 25 EUR for order A-1001 is on its way." []`,
		},
		"refund-wrong-reference": {
			"tl-paired step=0 turn=0 actual=find_order[] expected=find_order(0) pass 1 diffs=[]",
			"tl-paired step=1 turn=1 actual=refund[] expected=refund(1) fail 0.5 diffs=[mismatch]",
			`final "Your refund of 25 EUR for order A-1001 is on its way." []`,
		},
		"refund-forbidden-call": {
			"tl-paired step=0 turn=0 actual=find_order[] expected=find_order(0) pass 1 diffs=[]",
			"tl-forbidden step=1 turn=1 actual=delete_account[forbidden] expected=-() - diffs=[forbidden_call]",
			"tl-paired step=2 turn=2 actual=refund[] expected=refund(1) pass 1 diffs=[]",
			`final "Your refund of 25 EUR for order A-1001 is on its way." []`,
		},
		"refund-missing-step": {
			"tl-paired step=0 turn=0 actual=find_order[] expected=find_order(0) pass 1 diffs=[]",
			"tl-unexpected step=1 turn=1 actual=lookup_faq[unexpected tool error] expected=-() - diffs=[unexpected_call]",
			"tl-gap step= turn= actual=-[missing] expected=check_policy(1) fail 0 diffs=[missing_call]",
			"tl-paired step=2 turn=2 actual=refund[] expected=refund(2) pass 1 diffs=[]",
			`final "Sorry, I could not help <you> today." [mismatch]`,
		},
	}
	if len(rep.Timelines) != len(want) {
		t.Fatalf("%d timelines drawn, want %d", len(rep.Timelines), len(want))
	}
	for _, tl := range rep.Timelines {
		var got []string
		for _, r := range tl.Rows {
			got = append(got, r.String())
		}
		if strings.Join(got, "\n") != strings.Join(want[tl.ID], "\n") {
			t.Errorf("%s: the timeline shows\n%s\nwant\n%s", tl.ID, strings.Join(got, "\n"), strings.Join(want[tl.ID], "\n"))
		}
		if tl.AfterMore != -1 || len(tl.CaseDiffs) != 0 {
			t.Errorf("%s: a short timeline has a show-more button (%d) or diffs of the whole case %v", tl.ID, tl.AfterMore, tl.CaseDiffs)
		}
	}
	byID := map[string][]timelineRow{}
	for _, tl := range rep.Timelines {
		byID[tl.ID] = tl.Rows
	}
	// Arguments, results, and the mark on the wrong argument.
	if r := byID["refund-wrong-reference"][1]; !strings.Contains(str(r.Args), `"order_id": "A-1002"`) || str(r.Result) != `{"status":"ok"}` || r.Marked != 1 ||
		!strings.Contains(str(r.Xargs), `"amount": 25`) {
		t.Errorf("refund-wrong-reference's refund row: args %q result %q marked %d expected %q", str(r.Args), str(r.Result), r.Marked, str(r.Xargs))
	}
	if r := byID["refund-pass"][0]; str(r.Result) != `{"id":"A-1001","total":25}` || r.Clipped {
		t.Errorf("refund-pass's find_order row: result %q (clipped %v)", str(r.Result), r.Clipped)
	}
	// The long result is cut short, the whole of it a click away, its
	// markup shown as text.
	r := byID["refund-missing-step"][1]
	if !r.Clipped || !strings.Contains(str(r.Result), `"q": "How do refunds work <b>today</b>?"`) || !strings.Contains(str(r.Result), "Refunds take 11 days & more.") ||
		!strings.HasSuffix(str(r.Summary), "characters: show all)") || len(str(r.Summary)) > 220 {
		t.Errorf("the long result: clipped %v, summary %q, result %q", r.Clipped, str(r.Summary), str(r.Result))
	}
	if !strings.Contains(str(r.Args), `"<script>refunds</script>"`) {
		t.Errorf("the arguments with markup: %q", str(r.Args))
	}
	if r := byID["refund-missing-step"][2]; !strings.Contains(str(r.Xargs), `"order_id": "A-1001"`) {
		t.Errorf("the gap's expected arguments: %q", str(r.Xargs))
	}
	// An ordinary case keeps its three columns and no timeline.
	if rep.PlainOpen != 1 {
		t.Errorf("opening an ordinary case drew %d (columns + 10 × timelines), want 1", rep.PlainOpen)
	}
	if *update {
		// The runs alone, for a page that is about them.
		page = filepath.Join(t.TempDir(), "runs.html")
		var b bytes.Buffer
		if err := WriteHTML(&b, agentRuns(t), HTMLOptions{title: "callgrade report: runs"}); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(page, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		shot := filepath.Join(t.TempDir(), "timeline.png")
		chromium(t, "file://"+page+"#case=refund-missing-step", "--window-size=1280,1150", "--screenshot="+shot)
		png, err := os.ReadFile(shot)
		if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
			t.Fatalf("no screenshot: %v", err)
		}
		if err := os.WriteFile("testdata/timeline.png", png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestHTMLTimelineLargeInChromium: a run of 20,000 steps, each with a
// result of 2 KB, opens in bounded time, showing its first 200 steps and
// 200 more on a click.
func TestHTMLTimelineLargeInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("a run of 20,000 steps in a browser: not in -short")
	}
	const n = 20_000
	text := strings.Repeat("x", 2000)
	run := &response.Run{Final: "done", HasFinal: true}
	var exp bytes.Buffer
	c := Case{asRun: true, run: run}
	c.ID, c.Score = "long-run", 0.5
	exp.WriteByte('[')
	for i := 0; i < n; i++ {
		st := response.Step{Turn: i, HasResult: true}
		st.Name = fmt.Sprintf("tool_%d", i%7)
		st.Args = mustValue(t, fmt.Sprintf(`{"i":%d}`, i))
		st.Result = mustValue(t, fmt.Sprintf(`{"n":%d,"text":%q}`, i, text))
		run.Steps = append(run.Steps, st)
		if i%2 == 0 {
			if i > 0 {
				exp.WriteByte(',')
			}
			fmt.Fprintf(&exp, `{"name":%q,"arguments":{"i":%d}}`, st.Name, i)
			c.Calls = append(c.Calls, results.CallResult{Expected: i / 2, Actual: i, Pass: true, Score: 1})
		}
	}
	c.expected = append(exp.Bytes(), ']')
	start := time.Now()
	_, rep := runTimelines(t, []Case{c})
	tl := rep.Timelines[0]
	t.Logf("a run of %d steps: written, loaded and opened in %v; opening took %.1f ms", n, time.Since(start), tl.OpenMs)
	if len(tl.Rows) != 200 || tl.AfterMore != 400 || tl.Rows[199].Step != "199" {
		t.Errorf("%d rows shown, %d after show-more, want 200 and 400", len(tl.Rows), tl.AfterMore)
	}
	if tl.OpenMs > 500 {
		t.Errorf("opening a run of %d steps took %.0f ms, want under 500", n, tl.OpenMs)
	}
}

func mustValue(t testing.TB, s string) value.Value {
	t.Helper()
	v, err := value.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestAttachResponsesSuiteFormat: the page reads each response in the
// format the scorer reads it in, the suite's when none is given, for runs
// and for ordinary cases.
func TestAttachResponsesSuiteFormat(t *testing.T) {
	dir := t.TempDir()
	suitePath := filepath.Join(dir, "s.yaml")
	if err := os.WriteFile(suitePath, []byte(`version: 1
defaults: {format: llama-json}
cases:
  - id: plain
    expected: {name: f, arguments: {x: 1}}
  - id: run
    steps: [{name: f, arguments: {x: 1}}]
    format: pythonic
`), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := suite.Load(suitePath)
	if err != nil {
		t.Fatal(err)
	}
	cases := []Case{{Result: results.Result{ID: "plain"}}, {Result: results.Result{ID: "run"}}}
	Annotate(cases, suite.ViewOf(s))
	if cases[0].format != format.LlamaJSON || cases[1].format != format.Pythonic || cases[0].asRun || !cases[1].asRun {
		t.Fatalf("Annotate: format %q %q, run %v %v", cases[0].format, cases[1].format, cases[0].asRun, cases[1].asRun)
	}
	// Neither text is read as calls by detection alone.
	lines := `{"id":"plain","response":"{\"name\": \"f\", \"parameters\": {\"x\": 1}}"}
{"id":"run","response":"[f(x=1)]"}
`
	if err := AttachResponses(cases, strings.NewReader(lines), "", callgrade.Options{}); err != nil {
		t.Fatal(err)
	}
	if string(cases[0].actual) != `[{"name":"f","arguments":{"x":1}}]` || cases[0].run != nil {
		t.Errorf("plain: actual %s, run %v", cases[0].actual, cases[0].run)
	}
	if cases[1].run == nil || len(cases[1].run.Steps) != 1 || cases[1].run.Steps[0].Name != "f" {
		t.Errorf("run: actual %s, run %+v", cases[1].actual, cases[1].run)
	}
}
