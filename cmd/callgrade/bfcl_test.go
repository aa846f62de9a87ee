package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBFCLScore scores the hand-written run of bfcl/testdata/run: the
// summary on stdout, what is not scored on stderr, the files of --out.
func TestBFCLScore(t *testing.T) {
	out := t.TempDir()
	r := runCLI(t, "bfcl", "score", "--data", "bfcl/testdata/run/data", "--results", "bfcl/testdata/run/result", "--out", out)
	if r.code != 0 {
		t.Fatalf("exit %d, stderr %s", r.code, r.stderr)
	}
	want := `category                  cases  passed  accuracy
simple_python                 2       1    50.00%
irrelevance                   2       1    50.00%
web_search_base               2       1    50.00%
web_search_no_snippet         2       2   100.00%
overall (BFCL v4's weights, over the 4 of 21 categories covered): 66.67%
missing from the overall: simple_java, simple_javascript, multiple, parallel, parallel_multiple, live_simple, live_multiple, live_parallel, live_parallel_multiple, live_irrelevance, multi_turn_base, multi_turn_miss_func, multi_turn_miss_param, multi_turn_long_context, memory_kv, memory_vector, memory_rec_sum
`
	if r.stdout != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", r.stdout, want)
	}
	for _, w := range []string{"BFCL_v4_multi_turn_base_result.json: multi_turn categories are not imported", "result irrelevance_0:"} {
		if !strings.Contains(r.stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, r.stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "irrelevance_results.jsonl")); err != nil {
		t.Errorf("--out: %v", err)
	}
}

// TestBFCLScoreErrors: unreadable input and usage errors are exit 2,
// naming the file and the line, with nothing on stdout.
func TestBFCLScoreErrors(t *testing.T) {
	bad := t.TempDir()
	if err := os.WriteFile(filepath.Join(bad, "BFCL_v4_irrelevance_result.json"), []byte("{\"id\": \"irrelevance_0\", \"result\": []}\n{\"result\": []}\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"a line without an id", []string{"--data", "bfcl/testdata/run/data", "--results", bad}, "BFCL_v4_irrelevance_result.json:2"},
		{"no results directory", []string{"--data", "bfcl/testdata/run/data", "--results", filepath.Join(bad, "none")}, "none"},
		{"no data directory", []string{"--data", filepath.Join(bad, "none"), "--results", bad}, "none"},
		{"unknown semantics", []string{"--data", "bfcl/testdata/run/data", "--results", bad, "--semantics", "x"}, "--semantics"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCLI(t, append([]string{"bfcl", "score"}, tt.args...)...)
			if r.code != 2 || r.stdout != "" || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("exit %d, stdout %q, stderr %q: want exit 2 and %q", r.code, r.stdout, r.stderr, tt.want)
			}
		})
	}
}
