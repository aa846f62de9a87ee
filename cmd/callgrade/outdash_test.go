package main

import (
	"os"
	"path/filepath"
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
