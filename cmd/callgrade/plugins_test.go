package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// buildGeo builds the geo example plugin where its suite expects it, as the
// example's instructions tell a user to.
func buildGeo(t *testing.T) {
	t.Helper()
	build := exec.Command("go", "build", "-o", "bin/callgrade-geo", "./examples/plugins/geo")
	build.Dir = "../.."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the geo plugin: %v\n%s", err, out)
	}
}

func TestScoreWithGoPlugin(t *testing.T) {
	buildGeo(t)
	r := runCLI(t, "score", "--suite", "examples/plugins/geo/suite.yaml", "--responses", "examples/plugins/geo/responses.jsonl")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	want := map[string]bool{"same-point": true, "string-form-nearby": true, "too-far": false, "not-a-point": false, "airport-1km": true}
	lines := resultLines(t, r.stdout)
	if len(lines) != len(want) {
		t.Fatalf("%d result lines, want %d", len(lines), len(want))
	}
	for _, l := range lines {
		id := l["id"].(string)
		if l["pass"] != want[id] {
			t.Errorf("%s: pass = %v, want %v: %v", id, l["pass"], want[id], l["diffs"])
		}
	}
	if !strings.Contains(r.stdout, "27.2 km apart") {
		t.Errorf("the plugin's message does not reach the diff:\n%s", r.stdout)
	}

	r = runCLI(t, "plugins", "describe", "examples/plugins/geo/suite.yaml")
	if r.code != 0 || !strings.Contains(r.stdout, "geo.within_km") || !strings.Contains(r.stdout, `"km"`) {
		t.Errorf("plugins describe: exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
}

func TestPluginProblemsAreLoadErrors(t *testing.T) {
	buildGeo(t)
	root, _ := filepath.Abs("../..")
	dir := t.TempDir()
	resp := writeFile(t, dir, "responses.jsonl", `{"id":"a","response":[]}`+"\n")
	geo := filepath.Join(root, "bin", "callgrade-geo")
	tests := []struct {
		name, suite string
		want        []string
	}{
		{"missing command", "plugins: {geo: {command: [./no/such/plugin]}}\ncases: [{id: a, expected: []}]\n",
			[]string{"suite.yaml", "plugins.geo", "./no/such/plugin"}},
		{"checksum mismatch", "plugins: {geo: {command: [" + geo + "], sha256: \"" + strings.Repeat("0", 64) + "\"}}\ncases: [{id: a, expected: []}]\n",
			[]string{"suite.yaml", "plugins.geo", "sha256"}},
		{"unknown comparator", "plugins: {geo: {command: [" + geo + "]}}\ncases: [{id: a, expected: {name: f, arguments: {p: x}, rules: {p: {plugin: geo.nearby}}}}]\n",
			[]string{"suite.yaml", "cases[0].expected[0].rules.p", "nearby"}},
		{"bad params", "plugins: {geo: {command: [" + geo + "]}}\ncases: [{id: a, expected: {name: f, arguments: {p: x}, rules: {p: {plugin: geo.within_km, params: {km: far}}}}}]\n",
			[]string{"suite.yaml", "cases[0].expected[0].rules.p", "km"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := writeFile(t, dir, "suite.yaml", "version: 1\n"+tt.suite)
			for _, args := range [][]string{{"check", s}, {"score", "--suite", s, "--responses", resp}} {
				r := runCLI(t, args...)
				if r.code != 2 {
					t.Fatalf("%s: exit %d, want 2: %s", args[0], r.code, r.stderr)
				}
				for _, w := range tt.want {
					if !strings.Contains(r.stderr, w) {
						t.Errorf("%s: stderr does not name %q:\n%s", args[0], w, r.stderr)
					}
				}
			}
		})
	}
	if _, err := os.Stat(geo); err != nil {
		t.Fatal(err)
	}
}
