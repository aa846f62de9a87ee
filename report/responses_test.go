package report

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/callgrade/callgrade"
	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/value"
)

// Responses, handed the lines of a run as the run reads them, attaches
// to each case what AttachResponses attaches from the responses file:
// the same calls, model and run, in each case's format or in one forced.
func TestResponsesAsAttachResponses(t *testing.T) {
	dir := t.TempDir()
	suitePath := filepath.Join(dir, "s.yaml")
	if err := os.WriteFile(suitePath, []byte(`version: 1
defaults: {format: qwen-coder}
tools:
  - {name: tag, parameters: {type: object, properties: {ids: {type: array}}}}
cases:
  - {id: qwen, expected: {name: tag, arguments: {ids: [1, 2]}}}
  - {id: openai, format: openai, expected: {name: tag, arguments: {ids: [1]}}}
  - id: run
    format: auto
    steps:
      - {name: tag, arguments: {ids: [1]}}
  - {id: broken, expected: []}
  - {id: utf8, format: auto, expected: []}
  - {id: silent, expected: []}
  - {id: refs, format: auto, expected: {name: tag, arguments: {ids: [1]}}}
  - {id: many, format: auto, expected: {name: tag, arguments: {ids: [1]}}}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := suite.Load(suitePath)
	if err != nil {
		t.Fatal(err)
	}
	qwen := `"<tool_call>\n<function=tag>\n<parameter=ids>\n[1, 2]\n</parameter>\n</function>\n</tool_call>"`
	lines := []string{
		`{"id":"qwen","model":"m1","response":` + qwen + `}`,
		`{"id":"openai","response":{"model":"gpt","choices":[{"message":{"tool_calls":[{"type":"function","function":{"name":"tag","arguments":"{\"ids\":[1]}"}}]}}]}}`,
		`{"id":"run","response":[{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"tag","arguments":"{\"ids\":[1]}"}}]},{"role":"tool","tool_call_id":"c1","content":"{\"ok\":true}"}]}`,
		`{"id":"broken","response":[{"name":"f","arguments":{"x":NaN}}]}`,
		"{\"id\":\"utf8\",\"response\":[{\"name\":\"f\",\"arguments\":{\"x\":\"\xff\"}}]}",
		`{"id":"nope","response":[]}`,
		`{"id":"many","response":[{"name":"tag","arguments":{"ids":[1,2,3,4,5,6,7,8]}}]}`,
		`{"id":"refs","response":[{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"tag","arguments":"{\"ids\":[2]}"}}]}]}`,
	}
	// What scoring gave each line: a diff with a step says that the case
	// was scored as a run, though the suite does not write it as one (its
	// rules read the steps).
	scored := map[string]results.Result{"refs": {ID: "refs", Diffs: []results.Diff{{Kind: results.Mismatch, HasStep: true}}}}
	tests := []struct {
		name  string
		f     format.Format
		force bool
	}{
		{"each case's format", format.Auto, false},
		{"auto forced", format.Auto, true},
		{"openai forced", format.OpenAI, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			newCases := func() []Case {
				cases := make([]Case, 0, len(s.Cases)+1)
				for i := range s.Cases {
					res := scored[s.Cases[i].ID]
					res.ID = s.Cases[i].ID
					cases = append(cases, Case{Result: res})
				}
				Annotate(cases, suite.ViewOf(s))
				return append(cases, Case{Result: results.Result{ID: "nope"}, unknown: true})
			}
			opts := callgrade.Options{Format: tt.f, ForceFormat: tt.force}
			want := newCases()
			if err := AttachResponses(want, strings.NewReader(strings.Join(lines, "\n")), "", opts); err != nil {
				t.Fatal(err)
			}
			rs := NewResponses(suite.ViewOf(s), opts)
			lim := value.Limits{MaxBytes: 1 << 20, MaxDepth: 64}
			for n, text := range lines {
				lim := lim
				if strings.HasPrefix(text, `{"id":"many"`) {
					// Over a run's limit of values (engine.Options.Limits),
					// which AttachResponses does not apply.
					lim.MaxValues = 4
				}
				rl, lerr := results.ReadResponseLine(nil, text, n+1, lim, 0)
				if lerr != nil {
					t.Fatal(lerr)
				}
				res := scored[rl.ID]
				rs.Add(&rl, &res)
			}
			got := newCases()
			rs.Attach(got, "")
			for i := range got {
				g, w := attachedOf(&got[i]), attachedOf(&want[i])
				if g != w {
					t.Errorf("%s: Responses attached\n%s\nAttachResponses\n%s", got[i].ID, g, w)
				}
			}
			if a := string(got[0].actual); tt.name == "each case's format" && a != `[{"name":"tag","arguments":{"ids":[1,2]}}]` {
				t.Errorf("qwen: actual %s", a)
			}
			if tt.name == "each case's format" && (got[2].run == nil || got[6].run == nil || got[7].actual == nil) {
				t.Error("run or refs: no run attached, or many: no calls")
			}
		})
	}
}

// attachedOf is what AttachResponses and Responses set in c, as text.
func attachedOf(c *Case) string {
	steps := -1
	if c.run != nil {
		steps = len(c.run.Steps)
	}
	return fmt.Sprintf("actual %s model %q steps %d", c.actual, c.model, steps)
}
