package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// A second response for a case stops the run with an error that names
// both lines, and always the same two: the first line in the file that
// repeats an earlier line's case, and that case's first line, however
// many workers score the batches and in whatever order they finish.
func TestDuplicateResponseLinesAreDeterministic(t *testing.T) {
	dir := t.TempDir()
	const n = 60000 // several batches of lines, so that workers race
	var s strings.Builder
	s.WriteString(`{"version": 1, "cases": [`)
	for i := range n {
		if i > 0 {
			s.WriteString(", ")
		}
		fmt.Fprintf(&s, `{"id": "c%d", "expected": []}`, i)
	}
	s.WriteString("]}\n")
	suite := writeFile(t, dir, "s.json", s.String())
	var lines []string
	for i := range n {
		lines = append(lines, fmt.Sprintf(`{"id": "c%d", "response": []}`, i))
	}
	// c40000 comes again late, c100 twice more, c59000 at the end: the
	// first repeat in the file is c100's at line 30001 (its first at 101).
	again := func(at int, id string) {
		lines = append(lines[:at], append([]string{fmt.Sprintf(`{"id": "%s", "response": []}`, id)}, lines[at:]...)...)
	}
	again(50000, "c40000")
	again(30000, "c100")
	again(55000, "c100")
	lines = append(lines, `{"id": "c59000", "response": []}`)
	responses := writeFile(t, dir, "r.jsonl", strings.Join(lines, "\n")+"\n")
	want := `r.jsonl:30001: a second response for case "c100" (lines 101 and 30001)`
	for _, workers := range []string{"1", "2", "4", "4", "4", "4", "4", "4", "8", "8"} {
		r := runCLI(t, "score", "--suite", suite, "--responses", responses, "--out", filepath.Join(dir, "out.jsonl"), "-q", "--workers", workers)
		if r.code != 2 || !strings.Contains(r.stderr, want) {
			t.Errorf("--workers %s: exit %d, stderr %q; want exit 2 with %q", workers, r.code, r.stderr, want)
		}
	}
}
