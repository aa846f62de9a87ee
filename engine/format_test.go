package engine

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/internal/format"
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
	if r := e.newScorer().Score(0, calls); !r.Pass {
		t.Errorf("defaults.format calls: %s", r.AppendJSON(nil))
	}
	if r := e.newScorer().Score(1, anthropic); !r.Pass {
		t.Errorf("case format anthropic: %s", r.AppendJSON(nil))
	}
	if r := e.newScorer().Score(1, calls); r.Pass {
		t.Errorf("case format anthropic passed a calls list: %s", r.AppendJSON(nil))
	}
	forced := *e
	forced.opts.Format = format.Anthropic
	if r := forced.newScorer().Score(0, anthropic); !r.Pass {
		t.Errorf("Options.Format wins over defaults.format: %s", r.AppendJSON(nil))
	}
}

// Qwen3-Coder writes every parameter as text; the case's tools type it, so
// that an array parameter is an array, whether the tools are the suite's
// or the case's own.
func TestTextFormatTypedByTools(t *testing.T) {
	e := load(t, `version: 1
defaults: {format: qwen-coder}
tools:
  - name: tag
    parameters:
      type: object
      properties:
        ids: {type: array, items: {type: integer}}
        urgent: {type: boolean}
      required: [ids]
cases:
  - {id: suite-tools, expected: {name: tag, arguments: {ids: [1, 2], urgent: true}}}
  - id: case-tools
    tools:
      - name: tag
        parameters: {type: object, properties: {ids: {type: string}}}
    expected: {name: tag, arguments: {ids: "[1, 2]"}}
  - id: no-tools
    tools: []
    expected: {name: tag, arguments: {ids: "[1, 2]", urgent: "true"}}
`)
	text := mustParse(t, `"<tool_call>\n<function=tag>\n<parameter=ids>\n[1, 2]\n</parameter>\n<parameter=urgent>\ntrue\n</parameter>\n</function>\n</tool_call>"`)
	if r := e.newScorer().Score(0, text); !r.Pass {
		t.Errorf("suite tools: %s", r.AppendJSON(nil))
	}
	caseText := mustParse(t, `"<tool_call>\n<function=tag>\n<parameter=ids>\n[1, 2]\n</parameter>\n</function>\n</tool_call>"`)
	if r := e.newScorer().Score(1, caseText); !r.Pass {
		t.Errorf("case tools: a string parameter stays text: %s", r.AppendJSON(nil))
	}
	if r := e.newScorer().Score(2, text); !r.Pass {
		t.Errorf("no tools: every parameter is text: %s", r.AppendJSON(nil))
	}
	if r := e.newScorer().Score(0, caseText); r.Pass || len(r.Diffs) == 0 {
		t.Errorf("suite tools, urgent missing: want a failure: %s", r.AppendJSON(nil))
	}
}

// A suite large enough to compile on several cores types a text format's
// parameters by the suite's tools in every case, not only in those the
// first core compiles (each core's compiler lost the suite's schemas).
func TestTextFormatTypedByToolsInALargeSuite(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	var b strings.Builder
	b.WriteString(`{"version": 1, "defaults": {"format": "qwen-coder"}, "tools": [{"name": "tag", "parameters": {"type": "object", "properties": {"ids": {"type": "array", "items": {"type": "integer"}}}}}], "cases": [`)
	const n = 3 * 4096
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id": "c%d", "expected": {"name": "tag", "arguments": {"ids": [%d]}}}`, i, i)
	}
	b.WriteString("]}")
	e := load(t, b.String())
	for _, i := range []int{0, n / 2, n - 1} {
		text := mustParse(t, fmt.Sprintf(`"<tool_call>\n<function=tag>\n<parameter=ids>\n[%d]\n</parameter>\n</function>\n</tool_call>"`, i))
		if r := e.newScorer().Score(i, text); !r.Pass {
			t.Errorf("case %d: %s", i, r.AppendJSON(nil))
		}
	}
}
