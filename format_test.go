package callgrade_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/callgrade/callgrade"
	"github.com/callgrade/callgrade/internal/format"
)

// formatSuite has defaults.format: calls, which reads an OpenAI completion
// as no shape it knows, and cases that leave the format to the defaults,
// name auto, or name openai.
const formatSuite = `version: 1
defaults: {format: calls}
cases:
  - {id: inherits, expected: {name: f, arguments: {x: 1}}}
  - {id: auto, format: auto, expected: {name: f, arguments: {x: 1}}}
  - {id: openai, format: openai, expected: {name: f, arguments: {x: 1}}}
`

// An explicit auto is a value, not "unset": a case's `format: auto` wins
// over defaults.format, and Options.Format auto with ForceFormat (what
// --format auto sets) wins over both. The precedence is Options.Format
// (when forced) > the case's format > defaults.format > auto.
func TestExplicitAutoFormat(t *testing.T) {
	path := filepath.Join(t.TempDir(), "suite.yaml")
	if err := os.WriteFile(path, []byte(formatSuite), 0o644); err != nil {
		t.Fatal(err)
	}
	completion := []byte(`{"choices": [{"message": {"role": "assistant", "tool_calls": [
		{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{\"x\": 1}"}}]}}]}`)
	call := []byte(`[{"name": "f", "arguments": {"x": 1}}]`)
	tests := []struct {
		name string
		opts callgrade.Options
		id   string
		resp []byte
		pass bool
	}{
		{"defaults.format reads the completion as calls", callgrade.Options{}, "inherits", completion, false},
		{"defaults.format reads a calls list", callgrade.Options{}, "inherits", call, true},
		{"case format auto detects", callgrade.Options{}, "auto", completion, true},
		{"case format auto detects a calls list too", callgrade.Options{}, "auto", call, true},
		{"case format openai", callgrade.Options{}, "openai", completion, true},
		{"unforced auto leaves the suite's format", callgrade.Options{Format: format.Auto}, "inherits", completion, false},
		{"forced auto over defaults.format", callgrade.Options{Format: format.Auto, ForceFormat: true}, "inherits", completion, true},
		{"forced auto over the case's format", callgrade.Options{Format: format.Auto, ForceFormat: true}, "openai", call, true},
		{"forced openai over the case's auto", callgrade.Options{Format: format.OpenAI}, "auto", call, false},
		{"forced openai over defaults.format", callgrade.Options{Format: format.OpenAI}, "inherits", completion, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := callgrade.Open([]string{path}, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			defer g.Close()
			r, err := g.Score(context.Background(), tt.id, tt.resp)
			if err != nil {
				t.Fatal(err)
			}
			if r.Pass != tt.pass {
				t.Errorf("case %s: pass = %v, want %v: %s", tt.id, r.Pass, tt.pass, r.AppendJSON(nil))
			}
		})
	}
}
