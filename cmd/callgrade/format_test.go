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

// A forced format that does not fit a response names the format that
// does: a conversation forced to openai says it is openai-messages, as a
// whole object (a ShapeError) or as a list whose elements fail as calls.
func TestForcedFormatNamesTheOneThatFits(t *testing.T) {
	dir := t.TempDir()
	suite := writeFile(t, dir, "s.yaml", `version: 1
cases:
  - {id: list, expected: {name: f, arguments: {x: 1}}}
  - {id: wrapped, expected: {name: f, arguments: {x: 1}}}
  - {id: anthropic, expected: {name: f, arguments: {x: 1}}}
  - {id: gemini, expected: {name: f, arguments: {x: 1}}}
`)
	conv := `[{"role": "user", "content": "hi"}, {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{\"x\": 1}"}}]}]`
	responses := writeFile(t, dir, "r.jsonl", strings.Join([]string{
		`{"id": "list", "response": ` + conv + `}`,
		`{"id": "wrapped", "response": {"messages": ` + conv + `}}`,
		`{"id": "anthropic", "response": {"type": "message", "role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "f", "input": {"x": 1}}]}}`,
		`{"id": "gemini", "response": {"candidates": [{"content": {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {"x": 1}}}]}}]}}`,
	}, "\n")+"\n")
	tests := []struct {
		format string
		want   map[string]string // case id: what its first diff says; "" for a pass
	}{
		{"openai", map[string]string{
			"list":      "the response reads as openai-messages: use --format openai-messages or auto",
			"wrapped":   "response is an object with keys [messages], not an openai chat completion, message or tool_calls list; it reads as openai-messages: use --format openai-messages or auto",
			"anthropic": "; it reads as anthropic: use --format anthropic or auto",
			"gemini":    "; it reads as gemini: use --format gemini or auto",
		}},
		{"calls", map[string]string{
			"list":      "the response reads as openai-messages: use --format openai-messages or auto",
			"wrapped":   "; it reads as openai-messages: use --format openai-messages or auto",
			"anthropic": "; it reads as anthropic: use --format anthropic or auto",
			"gemini":    "; it reads as gemini: use --format gemini or auto",
		}},
		{"hermes", map[string]string{
			"list":      "the response reads as openai-messages: use --format openai-messages or auto",
			"wrapped":   "; it reads as openai-messages: use --format openai-messages or auto",
			"anthropic": "the response reads as anthropic: use --format anthropic or auto",
			"gemini":    "; it reads as gemini: use --format gemini or auto",
		}},
		{"openai-messages", map[string]string{"list": "", "wrapped": "",
			"anthropic": "; it reads as anthropic: use --format anthropic or auto",
			"gemini":    "; it reads as gemini: use --format gemini or auto",
		}},
		{"auto", map[string]string{"list": "", "wrapped": "", "anthropic": "", "gemini": ""}},
	}
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			r := runCLI(t, "score", "--suite", suite, "--responses", responses, "-q", "--format", tt.format)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			for _, l := range resultLines(t, r.stdout) {
				id := l["id"].(string)
				want, ok := tt.want[id]
				if !ok {
					continue
				}
				diffs, _ := l["diffs"].([]any)
				if want == "" {
					if l["pass"] != true {
						t.Errorf("case %s: want a pass: %v", id, diffs)
					}
					continue
				}
				if len(diffs) == 0 {
					t.Errorf("case %s: no diffs, want one saying %q", id, want)
					continue
				}
				if msg, _ := diffs[0].(map[string]any)["message"].(string); !strings.Contains(msg, want) {
					t.Errorf("case %s: first diff says %q, want %q", id, msg, want)
				}
			}
		})
	}
}
