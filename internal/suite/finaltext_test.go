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
		// BFCL's reading drops the calls whose arguments do not parse: a
		// check that must see every call cannot go with it.
		{"bfcl with expected calls", "cases:\n  - id: a\n    expected: {name: f, arguments: {}}\n    final: {regex: x}\n    final_text: bfcl\n",
			[]want{{loc, "needs calls: any, not defaults.calls: ordered"}}},
		{"bfcl with steps", "cases:\n  - id: a\n    calls: unordered\n    steps: [{name: f, arguments: {}}]\n    final: {regex: x}\n    final_text: bfcl\n",
			[]want{{loc, "needs calls: any, not calls: unordered"}}},
		{"bfcl with never", "cases:\n  - id: a\n    calls: any\n    never: [delete]\n    final: {regex: x}\n    final_text: bfcl\n",
			[]want{{loc, "never would not see such a call"}}},
		{"bfcl with max_calls", "cases:\n  - id: a\n    calls: any\n    max_calls: 0\n    final: {regex: x}\n    final_text: bfcl\n",
			[]want{{loc, "max_calls would not count such a call"}}},
		{"bfcl with min_calls", "cases:\n  - id: a\n    calls: any\n    min_calls: 1\n    final: {regex: x}\n    final_text: bfcl\n",
			[]want{{loc, "min_calls would count without such a call"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := load(memFiles{"s.yaml": []byte(tt.src)}, []string{"s.yaml"})
			checkProblems(t, err, tt.want)
		})
	}
}
