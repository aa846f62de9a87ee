package main

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestScoreWritesJUnitAndHTML(t *testing.T) {
	dir := t.TempDir()
	junit, page := filepath.Join(dir, "junit.xml"), filepath.Join(dir, "report.html")
	r := runCLI(t, "score", "--suite", "report/testdata/suite.yaml", "--responses", "report/testdata/responses.jsonl",
		"--out", filepath.Join(dir, "results.jsonl"), "--junit", junit, "--html", page)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if strings.Contains(r.stderr, "\x1b[") {
		t.Errorf("colour on a stderr that is not a terminal:\n%q", r.stderr)
	}
	var doc struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Errors   int `xml:"errors,attr"`
		Suites   []struct {
			Name string `xml:"name,attr"`
		} `xml:"testsuite"`
	}
	data, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	// Of the 8 failing lines, 2 errored (a missing response, invalid arguments).
	if doc.Tests != 11 || doc.Failures != 6 || doc.Errors != 2 || len(doc.Suites) != 2 || doc.Suites[0].Name != "report/testdata/suite.yaml" {
		t.Errorf("junit: tests=%d failures=%d errors=%d suites=%+v, want 11, 6, 2 and report/testdata/suite.yaml first", doc.Tests, doc.Failures, doc.Errors, doc.Suites)
	}
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	// The page carries the expected and the actual calls of each case.
	for _, want := range []string{`id="data"`, `"x":[{"name":"get_weather"`, `"a":[{"name":"get_forecast"`} {
		if !strings.Contains(string(html), want) {
			t.Errorf("the HTML page lacks %s", want)
		}
	}
	if strings.Contains(string(html), "http://") || strings.Contains(string(html), "https://") {
		t.Error("the HTML page refers to the network")
	}
}

func TestReportCommand(t *testing.T) {
	page := filepath.Join(t.TempDir(), "r.html")
	r := runCLI(t, "report", "report/testdata/results.jsonl", "--suite", "report/testdata/suite.yaml", "--html", page)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	want, err := os.ReadFile("../../report/testdata/table.golden")
	if err != nil {
		t.Fatal(err)
	}
	if r.stdout != string(want) {
		t.Errorf("report prints\n%s\nwant the run's table\n%s", r.stdout, want)
	}
	if _, err := os.Stat(page); err != nil {
		t.Error(err)
	}
	if r := runCLI(t, "report", "no/such/results.jsonl"); r.code != 2 {
		t.Errorf("a missing results file: exit %d, want 2", r.code)
	}
}

func TestDiffFailOnRegression(t *testing.T) {
	dir := t.TempDir()
	old := writeFile(t, dir, "old.jsonl", `{"id":"a","pass":true,"score":1,"calls":[],"diffs":[]}
{"id":"b","pass":false,"score":0,"calls":[],"diffs":[{"kind":"wrong_tool","call":0,"path":"","rule":"exact","message":"m"}]}
`)
	fixed := writeFile(t, dir, "fixed.jsonl", `{"id":"a","pass":true,"score":1,"calls":[],"diffs":[]}
{"id":"b","pass":true,"score":1,"calls":[],"diffs":[]}
`)
	worse := writeFile(t, dir, "worse.jsonl", `{"id":"a","pass":false,"score":0.5,"calls":[],"diffs":[{"kind":"mismatch","call":0,"path":"city","rule":"exact","message":"m"}]}
{"id":"b","pass":false,"score":0,"calls":[],"diffs":[{"kind":"wrong_tool","call":0,"path":"","rule":"exact","message":"m"}]}
`)
	tests := []struct {
		name     string
		args     []string
		code     int
		contains string
	}{
		{"fixed", []string{old, fixed, "--fail-on-regression"}, 0, "0 regressed, 1 fixed"},
		{"regressed without the flag", []string{old, worse}, 0, "1 regressed, 0 fixed"},
		{"regressed with the flag", []string{old, worse, "--fail-on-regression"}, 1, "regressed (passed before, fail now):\n  a"},
		{"same file", []string{old, old, "--fail-on-regression"}, 0, "50.0%          2          50.0%  +0.0 pts"},
		{"missing file", []string{old, filepath.Join(dir, "nope.jsonl")}, 2, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCLI(t, append([]string{"diff"}, tt.args...)...)
			if r.code != tt.code {
				t.Fatalf("exit %d, want %d: %s", r.code, tt.code, r.stderr)
			}
			if !strings.Contains(r.stdout, tt.contains) {
				t.Errorf("output lacks %q:\n%s", tt.contains, r.stdout)
			}
		})
	}
}

// A responses file given where a results file is wanted is exit 2 naming
// the file and the line, not a run of cases that all "failed".
func TestReportAndDiffRejectAResponsesFile(t *testing.T) {
	const resp = "examples/weather/responses.jsonl"
	good := filepath.Join(t.TempDir(), "results.jsonl")
	if r := runCLI(t, "score", "--suite", "examples/weather/suite.yaml", "--responses", resp, "--out", good, "--quiet"); r.code != 0 {
		t.Fatalf("score: exit %d: %s", r.code, r.stderr)
	}
	const want = `callgrade: ` + resp + `:1: not a results line: no "pass" (is this a responses file?)`
	tests := []struct {
		name string
		args []string
	}{
		{"report", []string{"report", resp}},
		{"diff, old", []string{"diff", resp, good}},
		{"diff, new", []string{"diff", good, resp}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCLI(t, tt.args...)
			if r.code != 2 || strings.TrimSpace(r.stderr) != want {
				t.Errorf("exit %d, stderr %q; want exit 2 and %q", r.code, r.stderr, want)
			}
			if r.stdout != "" {
				t.Errorf("stdout %q, want nothing", r.stdout)
			}
		})
	}
}
