package report

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/results"
)

// stepToolsSuite has cases written with steps, one that expects a call
// of each of two tools, and one of no steps; stepToolsResponses fails
// the second refund of two-refunds and leaves missing without a line.
const (
	stepToolsSuite = `version: 1
tools:
  - {name: find_order, parameters: {type: object, properties: {email: {type: string}}, required: [email]}}
  - {name: refund, parameters: {type: object, properties: {amount: {type: number}}, required: [amount]}}
cases:
  - id: two-refunds
    steps:
      - {name: find_order, arguments: {email: a@example.com}}
      - {name: refund, arguments: {amount: 25}}
      - {name: refund, arguments: {amount: 5}}
  - id: no-steps
    steps: []
  - id: missing
    steps:
      - {name: find_order, arguments: {email: a@example.com}}
  - id: plain
    expected:
      - {name: refund, arguments: {amount: 1}}
      - {name: find_order, arguments: {email: b@example.com}}
`
	stepToolsResponses = `{"id": "two-refunds", "response": [{"name": "find_order", "arguments": {"email": "a@example.com"}}, {"name": "refund", "arguments": {"amount": 25}}, {"name": "refund", "arguments": {"amount": 6}}]}
{"id": "no-steps", "response": []}
{"id": "plain", "response": [{"name": "refund", "arguments": {"amount": 1}}, {"name": "find_order", "arguments": {"email": "b@example.com"}}]}
`
)

// stepToolCases scores stepToolsSuite as callgrade score --html does; it
// returns the cases and the suite file's path.
func stepToolCases(t *testing.T) ([]Case, string) {
	t.Helper()
	dir := t.TempDir()
	suitePath, responses := filepath.Join(dir, "suite.yaml"), filepath.Join(dir, "responses.jsonl")
	for name, text := range map[string]string{suitePath: stepToolsSuite, responses: stepToolsResponses} {
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return scoreRuns(t, suitePath, responses), suitePath
}

// TestTableByStepTool: the by-tool table counts a case written with
// steps under each tool its steps call, with that tool's verdict and the
// mean of its steps' scores: two-refunds passes for find_order and fails
// for refund (one refund of two fails: 0.5); an expected case counts
// under its first tool, a case of no steps under (no call).
func TestTableByStepTool(t *testing.T) {
	cases, _ := stepToolCases(t)
	var b bytes.Buffer
	if err := WriteTable(&b, Summarize(cases), TableOptions{}); err != nil {
		t.Fatal(err)
	}
	const want = `tool        cases  passed  failed  pass rate  mean score
find_order      2       1       1      50.0%       0.500
refund          2       1       1      50.0%       0.750
(no call)       1       1       0     100.0%       1.000
`
	_, table, _ := strings.Cut(b.String(), "\n\n")
	table, _, _ = strings.Cut(table, "\n\n")
	if table+"\n" != want {
		t.Errorf("by-tool table:\n%s\nwant\n%s", table, want)
	}
	// Each case counts once in the totals, whatever its tools.
	if s := Summarize(cases); s.Cases != 4 || s.Passed != 2 {
		t.Errorf("%d cases, %d passed; want 4, 2", s.Cases, s.Passed)
	}
}

// TestJUnitClassOfSteps: a case written with steps is one testcase, its
// classname the tools its steps call, each once, in step order; one of no
// steps, as one expecting no call, has the suite's name.
func TestJUnitClassOfSteps(t *testing.T) {
	cases, suitePath := stepToolCases(t)
	var b bytes.Buffer
	if err := WriteJUnit(&b, cases, JUnitOptions{}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Suites []struct {
			Name  string `xml:"name,attr"`
			Cases []struct {
				Name  string `xml:"name,attr"`
				Class string `xml:"classname,attr"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			got = append(got, c.Name+": "+c.Class)
		}
	}
	want := []string{
		"two-refunds: find_order > refund",
		"no-steps: " + suitePath,
		"missing: find_order",
		"plain: refund",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("testcases\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !bytes.Contains(b.Bytes(), []byte(`classname="find_order &gt; refund"`)) {
		t.Errorf("the classname is not escaped as XML:\n%s", b.Bytes())
	}
}

// TestHTMLByStepTool: the page's data gives a case written with steps the
// verdict of each of its tools, which its chart of pass rates by tool
// counts and its tool filter finds the case by (in Chromium, when present:
// the bars and the rows each tool shows); other cases have none.
func TestHTMLByStepTool(t *testing.T) {
	cases, _ := stepToolCases(t)
	d, err := newHTMLData(cases, HTMLOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, c := range d.Cases {
		for _, v := range c.Tools {
			verdict := "fail"
			if v.Pass {
				verdict = "pass"
			}
			got[c.ID] = append(got[c.ID], d.Tools[v.Tool]+" "+verdict+" "+strconv.FormatFloat(v.Score, 'g', -1, 64))
		}
	}
	want := map[string][]string{"two-refunds": {"find_order pass 1", "refund fail 0.5"}, "missing": {"find_order fail 0"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tools of the cases %q, want %q", got, want)
	}

	_, st := runSelftest(t, cases)
	wantBars := []string{"find_order 50.0%", "refund 50.0%", "(no call) 100.0%"}
	if !reflect.DeepEqual(st.ToolBars, wantBars) {
		t.Errorf("chart of pass rates by tool %q, want %q", st.ToolBars, wantBars)
	}
	wantRows := map[string][]string{
		"find_order": {"two-refunds: find_order > refund", "missing: find_order"},
		"refund":     {"two-refunds: find_order > refund", "plain: refund"},
		"(no call)":  {"no-steps: (no call)"},
	}
	if !reflect.DeepEqual(st.ToolRows, wantRows) {
		t.Errorf("rows each tool shows %q, want %q", st.ToolRows, wantRows)
	}
}

// TestCompareByStepTool: callgrade diff's rows by tool count a case
// written with steps under each tool of its steps, with that tool's
// verdict in each run, as the table does; with samples, a tool passes
// when it passes in every sample of the case.
func TestCompareByStepTool(t *testing.T) {
	cases, _ := stepToolCases(t) // the second refund of two-refunds fails
	old := slices.Clone(cases)
	old[0].Pass, old[0].Score, old[0].Diffs = true, 1, nil
	old[0].Calls = slices.Clone(old[0].Calls)
	old[0].Calls[2].Pass, old[0].Calls[2].Score = true, 1

	run := func(id string, sample int, refundPasses bool) Case {
		c := Case{Result: results.Result{ID: id, Pass: refundPasses, Sampled: true, Sample: sample, Tool: "find_order",
			StepTools: []string{"find_order", "refund"},
			Calls:     []results.CallResult{{Expected: 0, Actual: 0, Pass: true, Score: 1}, {Expected: 1, Actual: 1, Pass: refundPasses}}},
			expected: []byte("[]")}
		if refundPasses {
			c.Score, c.Calls[1].Score = 1, 1
		}
		return c
	}
	tests := []struct {
		name     string
		old, new []Case
		want     []string
	}{
		{"one line a case", old, cases, []string{
			"refund: 2 cases 100.0% -> 2 cases 50.0%",
			"(no call): 1 cases 100.0% -> 1 cases 100.0%",
			"find_order: 2 cases 50.0% -> 2 cases 50.0%",
		}},
		{"samples", []Case{run("r", 0, true), run("r", 1, true)}, []Case{run("r", 0, true), run("r", 1, false)}, []string{
			"refund: 1 cases 100.0% -> 1 cases 0.0%",
			"find_order: 1 cases 100.0% -> 1 cases 100.0%",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmp := Compare(tt.old, tt.new)
			var got []string
			for _, tc := range cmp.byTool {
				name := tc.tool
				if name == "" {
					name = "(no call)"
				}
				got = append(got, fmt.Sprintf("%s: %d cases %.1f%% -> %d cases %.1f%%", name, tc.oldCases, 100*tc.oldPassRate, tc.newCases, 100*tc.newPassRate))
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("by tool\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}
