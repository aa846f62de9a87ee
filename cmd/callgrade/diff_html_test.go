package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDiffHTML: diff --html writes one self-contained page of both runs,
// titled by the suite, with each run's results file, and the text report
// as before; report --html's page names the suite and the responses.
func TestDiffHTML(t *testing.T) {
	dir := t.TempDir()
	results, page, diffPage := filepath.Join(dir, "results.jsonl"), filepath.Join(dir, "report.html"), filepath.Join(dir, "diff.html")
	if r := runCLI(t, "score", "--suite", "report/testdata/suite.yaml", "--responses", "report/testdata/responses.jsonl", "--out", results, "--html", page); r.code != 1 && r.code != 0 {
		t.Fatalf("score: exit %d: %s", r.code, r.stderr)
	}
	r := runCLI(t, "diff", "--html", diffPage, "report/testdata/results.jsonl", results, "--suite", "report/testdata/suite.yaml",
		"--new-responses", "report/testdata/responses.jsonl")
	if r.code != 0 {
		t.Fatalf("diff --html: exit %d: %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stdout, "pass rate") && r.stdout == "" {
		t.Errorf("diff printed nothing")
	}
	for _, p := range []struct{ file, title, meta string }{
		{page, "<title>callgrade report: suite.yaml", "report/testdata/responses.jsonl"},
		{diffPage, "<title>callgrade diff: suite.yaml", results},
	} {
		data, err := os.ReadFile(p.file)
		if err != nil {
			t.Fatal(err)
		}
		s := string(data)
		if !strings.Contains(s, p.title) || !strings.Contains(s, p.meta) {
			t.Errorf("%s: want %q and %q in it", p.file, p.title, p.meta)
		}
		// Self-contained: nothing is fetched at load.
		if m := regexp.MustCompile(`(?i)(src|href)\s*=\s*["']?(https?:)?//`).FindString(s); m != "" {
			t.Errorf("%s loads %q", p.file, m)
		}
	}
}
