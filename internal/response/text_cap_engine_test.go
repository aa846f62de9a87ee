package response_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/engine"
	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/internal/response"
	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/value"
)

// A response whose text holds more than MaxTextCalls calls fails its
// case in every mode, a superset's that tolerates extra calls included,
// and as a run whose max_calls the calls read stay under: the failed call
// that stands for the calls not read is an invalid_arguments diff, which
// no mode tolerates.
func TestTextCappedResponseFails(t *testing.T) {
	doc := `{"version": 1, "cases": [`
	modes := []string{"ordered", "in_order", "unordered", "superset", "subset", "greedy"}
	for _, m := range modes {
		doc += `{"id": "` + m + `", "calls": "` + m + `", "expected": {"name": "f", "arguments": {"a": 1}}},`
	}
	doc += `{"id": "run", "calls": "superset", "steps": [{"name": "f", "arguments": {"a": 1}}], "max_calls": 1000000}]}`
	v, err := value.Parse(doc)
	if err != nil {
		t.Fatal(err)
	}
	s, err := suite.FromValue("suite.json", v)
	if err != nil {
		t.Fatal(err)
	}
	e, err := engine.New(suite.ViewOf(s), engine.Options{Format: format.Hermes})
	if err != nil {
		t.Fatal(err)
	}
	call := `<tool_call>{"name": "f", "arguments": {"a": 1}}</tool_call>`
	for _, n := range []int{response.MaxTextCalls, response.MaxTextCalls + 1} {
		text := value.StringOf(strings.Repeat(call, n))
		for _, id := range append(modes, "run") {
			r, err := scoreID(e, id, text)
			if err != nil {
				t.Fatal(err)
			}
			capped := n > response.MaxTextCalls
			invalid := false
			for _, d := range r.Diffs {
				invalid = invalid || d.Kind == results.InvalidArguments
			}
			if capped && (r.Pass || !invalid) {
				t.Errorf("%s, %d calls: pass=%v, diffs %v", id, n, r.Pass, r.Diffs)
			}
			// Uncapped, the superset modes pass: the cap, not the calls, fails.
			if !capped && (id == "superset" || id == "run") && !r.Pass {
				t.Errorf("%s, %d calls: fails: %s", id, n, r.AppendJSON(nil))
			}
		}
	}
}

// scoreID scores resp against the case with the given id, with a Scorer
// of its own so that each result is kept.
func scoreID(e *engine.Engine, id string, resp value.Value) (*results.Result, error) {
	i, ok := e.Lookup(id)
	if !ok {
		return nil, fmt.Errorf("no case with id %q", id)
	}
	return e.NewScorer(context.Background()).Score(i, resp), nil
}
