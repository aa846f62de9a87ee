package engine

import (
	"testing"

	"github.com/callgrade/callgrade/response"
)

// The suite says which format its responses are in (defaults.format, or a
// case's format); engine.Options.Format, when set, wins over both.
func TestSuiteFormat(t *testing.T) {
	e := load(t, `version: 1
defaults: {format: calls}
cases:
  - {id: a, expected: {name: f, arguments: {x: 1}}}
  - {id: b, format: anthropic, expected: {name: f, arguments: {x: 1}}}
`)
	// A calls-format list whose element has a "type" that auto-detection
	// would read as another API's item.
	calls := mustParse(t, `[{"type": "tool_use", "name": "f", "arguments": {"x": 1}}]`)
	anthropic := mustParse(t, `[{"type": "tool_use", "name": "f", "input": {"x": 1}}]`)
	if r := e.Score(0, calls); !r.Pass {
		t.Errorf("defaults.format calls: %s", r.AppendJSON(nil))
	}
	if r := e.Score(1, anthropic); !r.Pass {
		t.Errorf("case format anthropic: %s", r.AppendJSON(nil))
	}
	if r := e.Score(1, calls); r.Pass {
		t.Errorf("case format anthropic passed a calls list: %s", r.AppendJSON(nil))
	}
	forced := *e
	forced.opts.Format = response.Anthropic
	if r := forced.Score(0, anthropic); !r.Pass {
		t.Errorf("Options.Format wins over defaults.format: %s", r.AppendJSON(nil))
	}
}
