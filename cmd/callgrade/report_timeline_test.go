package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHTMLRunTimeline: the page of `score --html` and that of `report
// --suite --responses --html` carry each run case's steps (with turns and
// results), its final answer, its pairs' verdicts and its diffs' steps,
// which the page draws as a timeline; and report's table names the tool of
// a steps case as score's does.
func TestHTMLRunTimeline(t *testing.T) {
	dir := t.TempDir()
	results, scored, reported := filepath.Join(dir, "agent.jsonl"), filepath.Join(dir, "score.html"), filepath.Join(dir, "report.html")
	r := runCLI(t, "score", "--suite", "examples/agent/suite.yaml", "--responses", "examples/agent/responses.jsonl",
		"--html", scored, "--out", results)
	if r.code != 0 {
		t.Fatalf("score: exit %d: %s", r.code, r.stderr)
	}
	r2 := runCLI(t, "report", results, "--suite", "examples/agent/suite.yaml", "--responses", "examples/agent/responses.jsonl", "--html", reported)
	if r2.code != 0 {
		t.Fatalf("report: exit %d: %s", r2.code, r2.stderr)
	}
	for _, page := range []string{scored, reported} {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{
			`"r":{"s":[{"n":"find_order","a":{"email":"ana@example.com"},"id":"call_1","t":0,"r":{"id":"A-1001","total":25}}`,
			`"f":"Your refund of 25 EUR for order A-1001 is on its way."`,
			`"cp":[true,false],"cs":[1,0.5]`,
			`"st":1,"tn":1`,
		} {
			if !strings.Contains(string(b), want) {
				t.Errorf("%s lacks %s", filepath.Base(page), want)
			}
		}
	}
	if !strings.Contains(r2.stdout, "find_order") || strings.Contains(r2.stdout, "(no call)") {
		t.Errorf("report's table does not count the steps cases under find_order:\n%s", r2.stdout)
	}
}
