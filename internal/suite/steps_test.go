package suite

import (
	"testing"

	"github.com/callgrade/callgrade/value"
)

func TestRunCaseKeys(t *testing.T) {
	src := `
cases:
  - id: refund
    calls: in_order
    steps:
      - name: find_order
        arguments: {email: a@b.c}
        result: {error: false, id: {type: string}, "items.#.sku": {regex: "^S"}}
      - name: refund
        arguments: {}
        rules: {order_id: {from: "find_order.result.id"}}
    never: [delete_account, {name: refund, arguments: {amount: 0}, rules: {amount: numeric}}]
    max_calls: 5
    final: {regex: "refund"}
  - id: one
    steps: {name: f}
  - id: none
    steps: []
    final: case_insensitive
  - id: plain
    expected: []
    never: {name: x}
`
	s, err := load(memFiles{"s.yaml": []byte(src)}, []string{"s.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	c := s.Cases[0]
	if c.Calls != CallsInOrder || len(c.Run.Steps) != 2 || c.Expected != nil || !c.IsRun() {
		t.Fatalf("case 0 = %+v", c)
	}
	st := c.Run.Steps[0]
	if st.Name != "find_order" || !st.HasError || st.Error || len(st.Result) != 2 || st.Result[1].Path != "items.#.sku" {
		t.Errorf("step 0 = %+v", st)
	}
	if st.Result[0].Loc.Key != "cases[0].steps[0].result.id" || st.Loc.Key != "cases[0].steps[0]" || st.Loc.Case != "refund" {
		t.Errorf("locs = %+v, %+v", st.Result[0].Loc, st.Loc)
	}
	if r := c.Run.Steps[1].Rules; len(r) != 1 || r[0].Loc.Key != "cases[0].steps[1].rules.order_id" {
		t.Errorf("step 1 rules = %+v", r)
	}
	if len(c.Run.Never) != 2 || c.Run.Never[0].Name != "delete_account" || c.Run.Never[1].Name != "refund" || len(c.Run.Never[1].Rules) != 1 ||
		c.Run.Never[1].Loc.Key != "cases[0].never[1]" {
		t.Errorf("never = %+v", c.Run.Never)
	}
	if c.Run.MaxCalls == nil || *c.Run.MaxCalls != 5 || c.Run.Final.Kind() != value.Object || c.Run.FinalLoc.Key != "cases[0].final" {
		t.Errorf("max_calls, final = %v, %v", c.Run.MaxCalls, c.Run.Final)
	}
	if c := s.Cases[1]; len(c.Run.Steps) != 1 || c.Run.Steps[0].Name != "f" || c.Run.Steps[0].Arguments.Kind() != value.Object {
		t.Errorf("case one = %+v", c)
	}
	if c := s.Cases[2]; c.Run.Steps == nil || len(c.Run.Steps) != 0 || !c.IsRun() || c.Run.Final.Str() != "case_insensitive" {
		t.Errorf("case none = %+v", c)
	}
	if c := s.Cases[3]; c.Run.Steps != nil || c.Expected == nil || len(c.Run.Never) != 1 || !c.IsRun() {
		t.Errorf("case plain = %+v", c)
	}
	if s.Cases[3].Run.MaxCalls != nil {
		t.Error("max_calls set without the key")
	}
}

func TestRunCaseErrors(t *testing.T) {
	y := func(src string) memFiles { return memFiles{"s.yaml": []byte(src)} }
	loc := func(key, id string) Loc { return Loc{File: "s.yaml", Key: key, Case: id} }
	tests := []struct {
		name string
		src  string
		want []want
	}{
		{"steps and expected", "cases:\n  - id: a\n    expected: []\n    steps: []\n",
			[]want{{loc("cases[0].steps", "a"), "steps and expected are both set"}}},
		{"steps and alternatives", "cases:\n  - id: a\n    steps: []\n    alternatives: [[]]\n",
			[]want{{loc("cases[0].alternatives", "a"), "alternatives cannot be combined with steps"}}},
		{"neither", "cases:\n  - id: a\n    never: [x]\n",
			[]want{{loc("cases[0].expected", "a"), "required key is missing"}}},
		{"unknown step key", "cases:\n  - id: a\n    steps: [{name: f, resutl: {}}]\n",
			[]want{{loc("cases[0].steps[0].resutl", "a"), "unknown key; want one of name, arguments, rules, assert, result"}}},
		{"step without name", "cases:\n  - id: a\n    steps: [{arguments: {}}]\n",
			[]want{{loc("cases[0].steps[0].name", "a"), "required key is missing"}}},
		{"step not an object", "cases:\n  - id: a\n    steps: [3]\n",
			[]want{{loc("cases[0].steps[0]", "a"), "must be a step object"}}},
		{"steps not a list", "cases:\n  - id: a\n    steps: 3\n",
			[]want{{loc("cases[0].steps", "a"), "must be a step or a list of steps"}}},
		{"result not an object", "cases:\n  - id: a\n    steps: [{name: f, result: [1]}]\n",
			[]want{{loc("cases[0].steps[0].result", "a"), "must be an object of PATH: RULE"}}},
		{"result rule a number", "cases:\n  - id: a\n    steps: [{name: f, result: {id: 3}}]\n",
			[]want{{loc("cases[0].steps[0].result.id", "a"), "must be a rule (a string or an object), or for error true or false"}}},
		{"max_calls negative", "cases:\n  - id: a\n    expected: []\n    max_calls: -1\n",
			[]want{{loc("cases[0].max_calls", "a"), "must be a whole number >= 0, not -1"}}},
		{"max_calls fraction", "cases:\n  - id: a\n    expected: []\n    max_calls: 1.5\n",
			[]want{{loc("cases[0].max_calls", "a"), "must be a whole number >= 0, not 1.5"}}},
		{"max_calls string", "cases:\n  - id: a\n    expected: []\n    max_calls: \"3\"\n",
			[]want{{loc("cases[0].max_calls", "a"), "must be a whole number >= 0, not a string"}}},
		{"final a number", "cases:\n  - id: a\n    expected: []\n    final: 3\n",
			[]want{{loc("cases[0].final", "a"), "must be a rule"}}},
		{"never without name", "cases:\n  - id: a\n    expected: []\n    never: [{arguments: {}}]\n",
			[]want{{loc("cases[0].never[0].name", "a"), "required key is missing"}}},
		{"never unknown key", "cases:\n  - id: a\n    expected: []\n    never: [{name: x, assert: []}]\n",
			[]want{{loc("cases[0].never[0].assert", "a"), "unknown key; want one of name, arguments, rules"}}},
		{"never a number", "cases:\n  - id: a\n    expected: []\n    never: [3]\n",
			[]want{{loc("cases[0].never[0]", "a"), "must be a tool name or {name, arguments, rules}"}}},
		{"calls sometimes", "cases:\n  - id: a\n    expected: []\n    calls: sometimes\n",
			[]want{{loc("cases[0].calls", "a"), "must be ordered, unordered, superset, subset, in_order, greedy or any"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := load(y(tt.src), []string{"s.yaml"})
			checkProblems(t, err, tt.want)
		})
	}
}

// TestRunCaseJSON checks that a JSON suite's run case, which the fast
// decoder leaves to the general one, reads the same.
func TestRunCaseJSON(t *testing.T) {
	src := `{"cases": [{"id": "a", "calls": "in_order", "steps": [{"name": "f", "result": {"error": true}}], "max_calls": 0}]}`
	s, err := load(memFiles{"s.json": []byte(src)}, []string{"s.json"})
	if err != nil {
		t.Fatal(err)
	}
	c := s.Cases[0]
	if c.Calls != CallsInOrder || len(c.Run.Steps) != 1 || !c.Run.Steps[0].Error || c.Run.MaxCalls == nil || *c.Run.MaxCalls != 0 {
		t.Errorf("case = %+v", c)
	}
}
