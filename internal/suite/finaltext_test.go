package suite

import (
	"testing"

	"github.com/callgrade/callgrade/internal/format"
)

// TestFinalTextKey: final_text says which text of a run final judges, in
// YAML and in JSON; it needs final, and names a known reading.
func TestFinalTextKey(t *testing.T) {
	tests := []struct {
		name, file, src string
		want            format.FinalReading
	}{
		{"left out", "s.yaml", "cases:\n  - id: a\n    calls: any\n    final: {regex: x}\n", ""},
		{"joined", "s.yaml", "cases:\n  - id: a\n    calls: any\n    final: {regex: x}\n    final_text: joined\n", format.FinalJoined},
		{"bfcl", "s.yaml", "cases:\n  - id: a\n    calls: any\n    final: {regex: x}\n    final_text: bfcl\n", format.FinalBFCL},
		{"answer", "s.yaml", "cases:\n  - id: a\n    calls: any\n    final: {regex: x}\n    final_text: answer\n", format.FinalAnswer},
		{"null", "s.yaml", "cases:\n  - id: a\n    calls: any\n    final: {regex: x}\n    final_text: null\n", ""},
		{"JSON bfcl", "s.json", `{"cases": [{"id": "a", "calls": "any", "final": {"regex": "x"}, "final_text": "bfcl"}]}`, format.FinalBFCL},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := load(memFiles{tt.file: []byte(tt.src)}, []string{tt.file})
			if err != nil {
				t.Fatal(err)
			}
			c := s.Cases[0]
			if !c.IsRun() || c.Run.FinalText != tt.want {
				t.Errorf("run %v, final_text %q; want a run, %q", c.IsRun(), c.Run.FinalText, tt.want)
			}
		})
	}
}

func TestFinalTextErrors(t *testing.T) {
	loc := Loc{File: "s.yaml", Key: "cases[0].final_text", Case: "a"}
	tests := []struct {
		name, src string
		want      []want
	}{
		{"without final", "cases:\n  - id: a\n    calls: any\n    final_text: bfcl\n",
			[]want{{loc, "final_text says which text final judges; the case has no final"}}},
		{"unknown", "cases:\n  - id: a\n    calls: any\n    final: {regex: x}\n    final_text: first\n",
			[]want{{loc, `must be joined, answer or bfcl, not "first"`}}},
		{"not a string", "cases:\n  - id: a\n    calls: any\n    final: {regex: x}\n    final_text: [bfcl]\n",
			[]want{{loc, "joined, answer or bfcl"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := load(memFiles{"s.yaml": []byte(tt.src)}, []string{"s.yaml"})
			checkProblems(t, err, tt.want)
		})
	}
}
