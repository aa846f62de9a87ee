package callgrade_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/callgrade/callgrade"
)

// compareSuite holds, case by case, the expected calls compareTests give
// Compare, so that the two ways of scoring can be held to one verdict.
const compareSuite = `version: 1
cases:
  - {id: one, expected: {name: f, arguments: {x: 1, s: "a"}}}
  - {id: rules, expected: {name: f, arguments: {s: "Abc"}, rules: {s: {case_insensitive: true}}}}
  - id: two
    expected:
      - {name: f, arguments: {x: 1}}
      - {name: g, arguments: {}}
  - {id: none, expected: []}
`

var compareTests = []struct {
	id, expected, resp string
	pass               bool
}{
	{"one", `{"name": "f", "arguments": {"x": 1, "s": "a"}}`, `[{"name": "f", "arguments": {"s": "a", "x": 1.0}}]`, true},
	{"one", `{"name": "f", "arguments": {"x": 1, "s": "a"}}`, `[{"name": "f", "arguments": {"x": 2, "s": "a"}}]`, false},
	{"one", `{"name": "f", "arguments": {"x": 1, "s": "a"}}`, `{"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "f", "input": {"x": 1, "s": "a"}}]}`, true},
	{"rules", `{"name": "f", "arguments": {"s": "Abc"}, "rules": {"s": {"case_insensitive": true}}}`, `[{"name": "f", "arguments": {"s": "aBC"}}]`, true},
	{"two", `[{"name": "f", "arguments": {"x": 1}}, {"name": "g", "arguments": {}}]`, `[{"name": "f", "arguments": {"x": 1}}]`, false},
	{"two", `[{"name": "f", "arguments": {"x": 1}}, {"name": "g", "arguments": {}}]`, `[{"name": "f", "arguments": {"x": 1}}, {"name": "g", "arguments": {}}]`, true},
	{"none", `[]`, `[]`, true},
	{"none", `[]`, `[{"name": "f", "arguments": {}}]`, false},
}

// Compare gives the verdict a suite file gives the same expected calls,
// result line for result line: it scores through the same engine.
func TestCompareAsASuite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "suite.yaml")
	if err := os.WriteFile(path, []byte(compareSuite), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := callgrade.Open([]string{path}, callgrade.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	ctx := context.Background()
	for _, tt := range compareTests {
		t.Run(tt.id+" "+tt.resp, func(t *testing.T) {
			got, err := callgrade.Compare(ctx, []byte(tt.expected), []byte(tt.resp), callgrade.Options{})
			if err != nil {
				t.Fatal(err)
			}
			want, err := g.Score(ctx, tt.id, []byte(tt.resp))
			if err != nil {
				t.Fatal(err)
			}
			if got.Pass != tt.pass {
				t.Errorf("pass = %v, want %v: %s", got.Pass, tt.pass, got.AppendJSON(nil))
			}
			if got.ID != "" {
				t.Errorf("ID = %q, want none", got.ID)
			}
			want.ID = ""
			if g, w := string(got.AppendJSON(nil)), string(want.AppendJSON(nil)); g != w {
				t.Errorf("Compare's result\n%s\nis not the suite's\n%s", g, w)
			}
		})
	}
}

// Compare and Grader.Score fail with an error, not a verdict, when what
// they are given cannot be read: it is the caller's input, not the model's.
func TestCompareErrors(t *testing.T) {
	call := `{"name": "f", "arguments": {"x": 1}}`
	deep := strings.Repeat("[", 400) + strings.Repeat("]", 400)
	tests := []struct {
		name, expected, resp string
		opts                 callgrade.Options
		code                 callgrade.Code // "" for none
		want                 string         // in the message
	}{
		{"expected is not JSON", `{"name": "f"`, `[]`, callgrade.Options{}, "", "expected: "},
		{"an unknown rule property", `{"name": "f", "arguments": {"x": 1}, "rules": {"x": {"exactly": true}}}`, `[]`, callgrade.Options{}, callgrade.CodeUnknownKey, "expected: cases[0].expected[0].rules.x (case compare): exactly: unknown rule property"},
		{"a call without a name", `{"arguments": {"x": 1}}`, `[]`, callgrade.Options{}, callgrade.CodeMissingKey, "expected: cases[0].expected"},
		{"the response is not JSON", call, `[{"name": "f"`, callgrade.Options{}, "", "response: "},
		{"the response is too deep", call, deep, callgrade.Options{}, callgrade.CodeLimitExceeded, "response: "},
		{"the response is past MaxValues", call, `[{"name": "f", "arguments": {"x": 1}}]`, callgrade.Options{Limits: callgrade.Limits{MaxValues: 3}}, callgrade.CodeLimitExceeded, "response: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := callgrade.Compare(context.Background(), []byte(tt.expected), []byte(tt.resp), tt.opts)
			if err == nil {
				t.Fatalf("no error; result %s", r.AppendJSON(nil))
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not say %q", err, tt.want)
			}
			if tt.code != "" && !errors.Is(err, tt.code) {
				t.Errorf("error %q is not %s", err, tt.code)
			}
		})
	}
}

// Grader.Score names the case it cannot find, and Options.Format decides
// how a response is read, as it does for a run.
func TestGraderScore(t *testing.T) {
	g, err := callgrade.Open([]string{"examples/weather/suite.yaml"}, callgrade.Options{Format: "anthropic"})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	ctx := context.Background()
	if _, err := g.Score(ctx, "nope", []byte(`[]`)); err == nil || err.Error() != `no case with id "nope"` {
		t.Errorf("unknown id: error %v", err)
	}
	calls := []byte(`[{"name": "get_weather", "arguments": {"city": "Berlin"}}]`)
	r, err := g.Score(ctx, "unit-left-to-its-default", calls)
	if err != nil {
		t.Fatal(err)
	}
	if r.Pass {
		t.Errorf("a calls list read as anthropic passes: %s", r.AppendJSON(nil))
	}
}
