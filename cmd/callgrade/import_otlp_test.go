package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// import otlp turns a collector's export into responses that score: the
// run with content passes, the one without is not_evaluable.
func TestImportOTLP(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "responses.jsonl")
	r := runCLI(t, "import", "otlp", "--traces", "internal/response/testdata/traces/collector.jsonl", "--out", out)
	if r.code != 0 || r.stdout != "" || r.stderr != out+": 3 responses from 3 traces\n" {
		t.Fatalf("import: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, "score", "--suite", "internal/response/testdata/traces/suite.yaml", "--responses", out, "--quiet")
	lines := resultLines(t, r.stdout)
	if r.code != 0 || len(lines) != 3 {
		t.Fatalf("score: exit %d, stdout %s, stderr %s", r.code, r.stdout, r.stderr)
	}
	for i, want := range []struct {
		id   string
		pass bool
		kind string
	}{{"weather-paris", true, ""}, {"weather-rome", false, "not_evaluable"}, {"weather-boston", true, ""}} {
		l := lines[i]
		diffs, _ := l["diffs"].([]any)
		kind := ""
		if len(diffs) > 0 {
			kind, _ = diffs[0].(map[string]any)["kind"].(string)
		}
		if l["id"] != want.id || l["pass"] != want.pass || kind != want.kind {
			t.Errorf("result %d = %v, want %s pass %v %s", i, l, want.id, want.pass, want.kind)
		}
	}

	// By trace id.
	r = runCLI(t, "import", "otlp", "--traces", "internal/response/testdata/traces/collector.jsonl", "--out", out, "--case-attribute", "")
	got, _ := os.ReadFile(out)
	if r.code != 0 || !strings.HasPrefix(string(got), `{"id":"4bf92f3577b34da6a3ce929d0e0e4736","response":{"resourceSpans":[`) {
		t.Errorf("by trace id: exit %d, %s, %.80s", r.code, r.stderr, got)
	}
}

// A bad export is exit 2 naming the file and the line, and nothing is
// written.
func TestImportOTLPErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "responses.jsonl")
	good := `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"t1","spanId":"s1","name":"x"}]}]}]}`
	bad := writeFile(t, dir, "bad.jsonl", good+"\n"+`{"resourceSpans":[{"scopeSpans":[{"spans":[{"name":"x"}]}]}]}`+"\n")
	notJSON := writeFile(t, dir, "notjson.jsonl", "\n"+good+"\n{\n")
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"a span without a trace id", []string{"--traces", bad, "--out", out},
			"callgrade: " + bad + ":2: resourceSpans[0].scopeSpans[0].spans[0] has no traceId\n"},
		{"not JSON", []string{"--traces", notJSON, "--out", out}, "callgrade: " + notJSON + ":3: not JSON: "},
		{"no such file", []string{"--traces", filepath.Join(dir, "missing.jsonl"), "--out", out}, "callgrade: open " + filepath.Join(dir, "missing.jsonl")},
		{"no --out", []string{"--traces", bad}, "callgrade: import otlp needs --traces and --out\n"},
		{"--out in a missing directory", []string{"--traces", bad, "--out", filepath.Join(dir, "no", "r.jsonl")},
			"callgrade: --out " + filepath.Join(dir, "no", "r.jsonl") + ": directory " + filepath.Join(dir, "no") + " does not exist\n"},
	} {
		r := runCLI(t, append([]string{"import", "otlp"}, tt.args...)...)
		if r.code != 2 || !strings.HasPrefix(r.stderr, tt.want) {
			t.Errorf("%s: exit %d, stderr %q; want 2 and %q", tt.name, r.code, r.stderr, tt.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: %s was written", tt.name, out)
		}
	}
}
