package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// import acebench writes the suite, YAML or JSON as --out says, and the
// pythonic text format scores ACEBench's text answers against it.
func TestImportACEBench(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"suite.yaml", "suite.json"} {
		out := filepath.Join(dir, name)
		r := runCLI(t, "import", "acebench", "--questions", "acebench/testdata/data_normal_sample.json",
			"--answers", "acebench/testdata/possible_answer/data_normal_sample.json", "--out", out)
		if r.code != 0 || r.stdout != "" || r.stderr != "" {
			t.Fatalf("import %s: exit %d, stdout %q, stderr %q", name, r.code, r.stdout, r.stderr)
		}
		got, _ := os.ReadFile(out)
		want, _ := os.ReadFile(filepath.Join("../../acebench/testdata", "sample"+filepath.Ext(name)))
		if string(got) != string(want) {
			t.Errorf("%s differs from acebench/testdata/sample%s", name, filepath.Ext(name))
		}
		r = runCLI(t, "score", "--suite", out, "--responses", "acebench/testdata/responses.jsonl", "--format", "pythonic", "--quiet")
		lines := resultLines(t, r.stdout)
		if r.code != 0 || len(lines) != 6 {
			t.Fatalf("score: exit %d, stdout %s, stderr %s", r.code, r.stdout, r.stderr)
		}
		for i, want := range []bool{true, true, false, true, false, false} {
			if lines[i]["pass"] != want {
				t.Errorf("%s: result %d = %v, want pass %v", name, i, lines[i], want)
			}
		}
	}
}

// Files that cannot be read or do not correspond are exit 2, naming the
// ids and lines, and nothing is written; --semantics acebench is refused.
func TestImportACEBenchErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "suite.json")
	half := filepath.Join(dir, "half.json")
	data, _ := os.ReadFile("../../acebench/testdata/possible_answer/data_normal_sample.json")
	os.WriteFile(half, []byte(strings.SplitAfter(string(data), "\n")[0]), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--answers", half}, "5 question(s) of acebench/testdata/data_normal_sample.json have no answer in " + half + ": nested (line 2), parallel (line 3), suffix (line 4), alts (line 5), items (line 6)"},
		{[]string{"--answers", filepath.Join(dir, "absent.json")}, "absent.json"},
		{[]string{"--answers", "acebench/testdata/possible_answer/data_normal_sample.json", "--semantics", "acebench"}, "docs/acebench.md"},
		{nil, "import acebench needs --questions, --answers and --out"},
	} {
		args := append([]string{"import", "acebench", "--questions", "acebench/testdata/data_normal_sample.json", "--out", out}, tc.args...)
		r := runCLI(t, args...)
		if r.code != 2 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want 2 and %q", tc.args, r.code, r.stderr, tc.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: %s was written", tc.args, out)
		}
	}
}
