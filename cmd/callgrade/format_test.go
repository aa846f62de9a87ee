package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An explicit auto is a value, not "unset": --format auto wins over the
// suite's formats as any other --format does, and a case's `format: auto`
// wins over defaults.format. Without --format, the case's format, then
// defaults.format, apply.
func TestScoreExplicitAutoFormat(t *testing.T) {
	dir := t.TempDir()
	suite := writeFile(t, dir, "s.yaml", `version: 1
defaults: {format: calls}
cases:
  - {id: inherits, expected: {name: f, arguments: {x: 1}}}
  - {id: auto, format: auto, expected: {name: f, arguments: {x: 1}}}
  - {id: openai, format: openai, expected: {name: f, arguments: {x: 1}}}
`)
	completion := `{"choices": [{"message": {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{\"x\": 1}"}}]}}]}`
	responses := writeFile(t, dir, "r.jsonl",
		`{"id": "inherits", "response": `+completion+`}`+"\n"+
			`{"id": "auto", "response": `+completion+`}`+"\n"+
			`{"id": "openai", "response": [{"name": "f", "arguments": {"x": 1}}]}`+"\n")
	tests := []struct {
		name string
		args []string
		pass map[string]bool
	}{
		{"no --format", nil, map[string]bool{"inherits": false, "auto": true, "openai": false}},
		{"--format auto", []string{"--format", "auto"}, map[string]bool{"inherits": true, "auto": true, "openai": true}},
		{"--format=AUTO", []string{"--format=AUTO"}, map[string]bool{"inherits": true, "auto": true, "openai": true}},
		{"--format calls", []string{"--format", "calls"}, map[string]bool{"inherits": false, "auto": false, "openai": true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"score", "--suite", suite, "--responses", responses, "-q"}, tt.args...)
			r := runCLI(t, args...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			lines := resultLines(t, r.stdout)
			if len(lines) != len(tt.pass) {
				t.Fatalf("%d result lines, want %d:\n%s", len(lines), len(tt.pass), r.stdout)
			}
			for _, l := range lines {
				id := l["id"].(string)
				if l["pass"] != tt.pass[id] {
					t.Errorf("case %s: pass = %v, want %v: %v", id, l["pass"], tt.pass[id], l["diffs"])
				}
			}
		})
	}
	// The HTML page shows each case's actual calls read in the format the
	// case was scored with: with --format auto, the call of every case, in
	// score --html as in report --responses.
	out := filepath.Join(dir, "res.jsonl")
	html := filepath.Join(dir, "r.html")
	if r := runCLI(t, "score", "--suite", suite, "--responses", responses, "-q", "--format", "auto", "--html", html, "--out", out); r.code != 0 {
		t.Fatalf("--html: exit %d: %s", r.code, r.stderr)
	}
	report := filepath.Join(dir, "report.html")
	if r := runCLI(t, "report", out, "--suite", suite, "--responses", responses, "-q", "--format", "auto", "--html", report); r.code != 0 {
		t.Fatalf("report --html: exit %d: %s", r.code, r.stderr)
	}
	const actual = `"a":[{"name":"f","arguments":{"x":1}}]`
	for _, name := range []string{html, report} {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(data), actual); n != 3 {
			t.Errorf("%s: %d cases show the actual call f, want 3", filepath.Base(name), n)
		}
	}
}
