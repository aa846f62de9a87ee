package engine

import (
	"slices"
	"testing"

	"github.com/callgrade/callgrade/results"
)

// TestFinalTextVerdicts scores runs against a case that judges the final
// answer only (calls: any and final), as final_text reads it: joined
// (the default), answer or bfcl (docs/trajectories.md).
func TestFinalTextVerdicts(t *testing.T) {
	const (
		user   = `{"role":"user","content":"Who?"}`
		call   = `{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"search","arguments":"{\"q\": \"who\"}"}}]}`
		result = `{"role":"tool","tool_call_id":"c1","content":"[]"}`
		blocks = `[` + user + `,{"role":"assistant","content":[{"type":"text","text":"It is X."},{"type":"text","text":"Hope this helps."}]}]`
		second = `[` + user + `,{"role":"assistant","content":[{"type":"text","text":"Here is what I found."},{"type":"text","text":"It is X."}]}]`
		broken = `[` + user + `,` + call + `,` + result +
			`,{"role":"assistant","content":null,"tool_calls":[{"id":"c2","type":"function","function":{"name":"search","arguments":"{\"q\": \"X conf"}}]}]`
		idk  = `[` + user + `,{"role":"assistant","content":"{'answer': 'I do not know', 'context': 'It is X.'}"}]`
		rule = "    calls: any\n    final: {regex: '\\bx\\b', normalize: [{delete: '.'}, lower]}\n"
	)
	tests := []struct {
		name, reading, run string
		pass               bool
		kinds              []results.Kind
	}{
		// Joined, "It is XHope this helps." has no x between boundaries.
		{"joined, two blocks", "", blocks, false, []results.Kind{results.Mismatch}},
		{"bfcl, two blocks", "bfcl", blocks, true, nil},
		{"joined, the answer in the second block", "joined", second, true, nil},
		{"bfcl, the answer in the second block", "bfcl", second, false, []results.Kind{results.Mismatch}},
		{"joined, a broken last call", "", broken, false, []results.Kind{results.InvalidArguments, results.MissingFinal}},
		{"bfcl, a broken last call read as the answer", "bfcl", broken, true, nil},
		{"joined, the answer in the context", "", idk, true, nil},
		{"answer, the answer in the context", "answer", idk, false, []results.Kind{results.Mismatch}},
		{"bfcl, a good last call", "bfcl", `[` + user + `,` + call + `,` + result + `]`, false, []results.Kind{results.MissingFinal}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := "cases:\n  - id: t\n" + rule
			if tt.reading != "" {
				s += "    final_text: " + tt.reading + "\n"
			}
			e := load(t, s)
			for _, r := range []*results.Result{scoreNoWork(e, 0, mustParse(t, tt.run)), e.newScorer().Score(0, mustParse(t, tt.run))} {
				if r.Pass != tt.pass || !slices.Equal(kinds(r), tt.kinds) {
					t.Errorf("pass %v, kinds %v; want %v, %v\n%s", r.Pass, kinds(r), tt.pass, tt.kinds, r.AppendJSON(nil))
				}
			}
		})
	}
}
