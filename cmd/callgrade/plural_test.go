package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// A count is followed by the singular when it is 1: "1 case", not
// "1 cases", in what check, score, report and import print.
func TestCountsTakeTheirNumber(t *testing.T) {
	dir := t.TempDir()
	one := writeFile(t, dir, "one.yaml", "version: 1\ntools: [{name: f}]\ncases:\n  - {id: a, expected: {name: g}}\n")
	sampled := writeFile(t, dir, "sampled.yaml", "version: 1\nsamples: 1\ncases:\n  - {id: a, expected: []}\n  - {id: b, expected: []}\n")
	unknown := writeFile(t, dir, "unknown.jsonl", `{"id": "zz", "response": []}`+"\n")
	sampledResponses := writeFile(t, dir, "sampled.jsonl", `{"id": "a", "sample": 0, "response": []}`+"\n")
	result := writeFile(t, dir, "result.json", `{"id": "simple_python_0", "result": "[f(x=1)]"}`+"\n")
	tests := []struct {
		name   string
		args   []string
		want   []string // in stdout and stderr together
		wantNo []string
	}{
		{"check", []string{"check", one}, []string{": 1 case, 1 warning\n"}, []string{"1 cases"}},
		{"check --strict", []string{"check", "--strict", one}, []string{"callgrade: 1 warning, and --strict makes it an error"}, []string{"1 warnings"}},
		{"score, one response naming no case", []string{"score", "--suite", one, "--responses", unknown, "--out", filepath.Join(dir, "o.jsonl")},
			[]string{"responses missing for 1 case; 1 response names no case"}, []string{"1 responses", "1 cases"}},
		{"score, one sample each", []string{"score", "--suite", sampled, "--responses", sampledResponses, "--out", filepath.Join(dir, "s.jsonl")},
			[]string{"2 cases, 1 sample each", "responses missing for 1 sample;"}, []string{"1 samples"}},
		{"import bfcl, one result", []string{"import", "bfcl", "--results", result, "--responses-out", filepath.Join(dir, "r.jsonl")},
			[]string{"r.jsonl: 1 response\n"}, []string{"1 responses"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCLI(t, tt.args...)
			out := r.stdout + r.stderr
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("exit %d; output lacks %q:\n%s", r.code, w, out)
				}
			}
			for _, w := range tt.wantNo {
				if strings.Contains(out, w) {
					t.Errorf("output has %q:\n%s", w, out)
				}
			}
		})
	}
}
