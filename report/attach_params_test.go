package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/engine"
	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/internal/suite"
)

// The page shows a model's text calls as the scorer read them: typed by
// the case's tools (its own, else the suite's), so that an array
// parameter of Qwen3-Coder's text is an array, not its text.
func TestAttachResponsesTypesTextByTools(t *testing.T) {
	dir := t.TempDir()
	suitePath := filepath.Join(dir, "s.yaml")
	if err := os.WriteFile(suitePath, []byte(`version: 1
defaults: {format: qwen-coder}
tools:
  - {name: tag, parameters: {type: object, properties: {ids: {type: array}}}}
cases:
  - {id: suite-tools, expected: {name: tag, arguments: {ids: [1, 2]}}}
  - id: own-tools
    tools: [{name: tag, parameters: {type: object, properties: {ids: {type: string}}}}]
    expected: {name: tag, arguments: {ids: "[1, 2]"}}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := suite.Load(suitePath)
	if err != nil {
		t.Fatal(err)
	}
	cases := []Case{{Result: engine.Result{ID: "suite-tools"}}, {Result: engine.Result{ID: "own-tools"}}}
	Annotate(cases, s)
	text := `"<tool_call>\n<function=tag>\n<parameter=ids>\n[1, 2]\n</parameter>\n</function>\n</tool_call>"`
	lines := `{"id":"suite-tools","response":` + text + "}\n" + `{"id":"own-tools","response":` + text + "}\n"
	if err := AttachResponses(cases, strings.NewReader(lines), format.Auto); err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{`[{"name":"tag","arguments":{"ids":[1,2]}}]`, `[{"name":"tag","arguments":{"ids":"[1, 2]"}}]`} {
		if got := string(cases[i].Actual); got != want {
			t.Errorf("%s: actual %s, want %s", cases[i].ID, got, want)
		}
	}
}
