package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutDash: --out - sends the results to standard output, as --out left
// out does, for score, score --partial and merge; no file called "-" is
// written in the working directory.
func TestOutDash(t *testing.T) {
	dir := t.TempDir()
	suite, responses := "examples/weather/suite.yaml", "examples/weather/responses.jsonl"
	part := filepath.Join(dir, "all.partial")
	if r := runCLI(t, "score", "--partial", "--suite", suite, "--responses", responses, "--out", part); r.code != 0 {
		t.Fatalf("score --partial: exit %d: %s", r.code, r.stderr)
	}
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"score", []string{"score", "--suite", suite, "--responses", responses, "--quiet"}},
		{"partial", []string{"score", "--partial", "--suite", suite, "--responses", responses}},
		{"merge", []string{"merge", "--suite", suite, "--quiet", part}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plain := runCLI(t, tc.args...)
			dash := runCLI(t, append(tc.args, "--out", "-")...)
			if plain.code != 0 || dash.code != 0 {
				t.Fatalf("exit %d and %d: %s / %s", plain.code, dash.code, plain.stderr, dash.stderr)
			}
			if dash.stdout == "" || dash.stdout != plain.stdout {
				t.Errorf("--out - wrote %q to standard output, want what no --out writes, %q", dash.stdout, plain.stdout)
			}
			if _, err := os.Stat("../../-"); err == nil {
				os.Remove("../../-")
				t.Error(`--out - wrote a file called "-"`)
			}
		})
	}
}

// TestResponsesOutDash: an importer's responses file named "-" is standard
// output, byte for byte the file it writes otherwise, so that it can be
// piped into score --responses -; the count it reports goes to standard
// error and names standard output.
func TestResponsesOutDash(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, flag string
		args       []string
	}{
		{"bfcl", "--responses-out", []string{"import", "bfcl", "--results", "examples/bfcl/BFCL_v4_simple_python_result.json"}},
		{"otlp", "--out", []string{"import", "otlp", "--traces", "internal/response/testdata/traces/collector.jsonl"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(dir, tc.name+".jsonl")
			toFile := runCLI(t, append(tc.args, tc.flag, file)...)
			dash := runCLI(t, append(tc.args, tc.flag, "-")...)
			if toFile.code != 0 || dash.code != 0 {
				t.Fatalf("exit %d and %d: %s / %s", toFile.code, dash.code, toFile.stderr, dash.stderr)
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if len(want) == 0 || dash.stdout != string(want) {
				t.Errorf("%s - wrote %d bytes to standard output, want the file's %d bytes, the same", tc.flag, len(dash.stdout), len(want))
			}
			if !strings.HasPrefix(dash.stderr, "standard output: ") {
				t.Errorf("standard error %q does not name standard output", dash.stderr)
			}
			if _, err := os.Stat("../../-"); err == nil {
				os.Remove("../../-")
				t.Errorf(`%s - wrote a file called "-"`, tc.flag)
			}
		})
	}
}

// TestReportsDashIsAFile: "-" stands for standard output only where
// results or responses go; two reports that name "-" name one file, which
// is refused before any work, as two reports naming any one file are.
func TestReportsDashIsAFile(t *testing.T) {
	r := runCLI(t, "score", "--suite", "examples/weather/suite.yaml", "--responses", "examples/weather/responses.jsonl", "--quiet", "--junit", "-", "--html", "-")
	if r.code != 2 || !strings.Contains(r.stderr, "is also --junit's file") {
		t.Errorf("--junit - --html -: exit %d, %q; want 2, the same file refused", r.code, r.stderr)
	}
	if _, err := os.Stat("../../-"); err == nil {
		os.Remove("../../-")
		t.Error(`--junit - --html - wrote a file called "-"`)
	}
}
