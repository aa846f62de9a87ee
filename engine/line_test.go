package engine

import (
	"strings"
	"testing"
)

// A responses file written as one JSON array, or with its objects
// pretty-printed, is refused with a word on what JSON Lines wants; a
// line that is wrong in another way is not given that word.
func TestLineHints(t *testing.T) {
	e := load(t, "version: 1\ncases:\n  - {id: a, expected: []}\n")
	tests := []struct {
		text string
		line int
		want string // "" for no hint
	}{
		{`[{"id": "a", "response": []}]`, 1, "not one array"},
		{`[{"id": "a", "response": [],`, 1, "not one array"},
		{`{`, 1, "not pretty-printed over several"},
		{"  {", 7, "not pretty-printed over several"},
		{`[1, 2]`, 4, ""},
		{`"a"`, 1, ""},
		{`{"response": []}`, 1, ""},
	}
	for _, tt := range tests {
		_, _, _, err := e.newScorer().ScoreLine(tt.text, tt.line, 0)
		if err == nil {
			t.Fatalf("%s: no error", tt.text)
		}
		hinted := strings.Contains(err.Error(), "JSON Lines")
		if tt.want == "" && hinted || tt.want != "" && !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s (line %d): %v, want the hint %q", tt.text, tt.line, err, tt.want)
		}
	}
}
