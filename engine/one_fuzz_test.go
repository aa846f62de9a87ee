package engine

import (
	"testing"

	"github.com/callgrade/callgrade/internal/response"
	"github.com/callgrade/callgrade/value"
)

// oneCallSuite has a list of one expected call in every mode, with a
// schema, rules, an alternative, a diff cap and a run of one step, so
// that a response of one call takes evaluateOne where the mode pairs the
// two, and the matcher elsewhere.
const oneCallSuite = `version: 1
tools:
  - name: f
    parameters: {type: object, properties: {a: {type: integer}, s: {type: string, enum: [x, y]}, l: {type: array, items: {type: number}}}, required: [a]}
cases:
  - {id: ordered, expected: [{name: f, arguments: {a: 1, s: x}}]}
  - {id: greedy, calls: greedy, expected: [{name: f, arguments: {a: 1}, rules: {a: {one_of: [1, 2]}}}]}
  - {id: unordered, calls: unordered, expected: [{name: f, arguments: {a: 1, l: [1, 2]}, rules: {l: unordered}}]}
  - {id: superset, calls: superset, expected: [{name: f, arguments: {a: 1}}]}
  - {id: subset, calls: subset, expected: [{name: f, arguments: {a: 1}}]}
  - {id: in_order, calls: in_order, expected: [{name: f, arguments: {a: 1}}]}
  - {id: loose, expected: [{name: g, arguments: {x: 1.5, y: [1, 2, 3]}, rules: {x: {tolerance: 0.5}}}]}
  - id: alt
    expected: {name: f, arguments: {a: 1}}
    alternatives: [[{name: g, arguments: {x: 2}}]]
  - id: run
    steps:
      - name: f
        arguments: {a: 1}
        result: {error: false, id: {type: string}}
  - id: run_unordered
    calls: unordered
    steps:
      - name: f
        arguments: {a: 1}
  - {id: none, expected: []}
  - {id: none_superset, calls: superset, expected: []}
  - {id: none_in_order, calls: in_order, expected: []}
  - {id: no_steps, steps: []}
  - {id: anything, calls: any, expected: []}
  - {id: anything_final, calls: any, final: {regex: 'x'}}
`

// FuzzOneCall holds evaluateOne, which scores a list of one expected call
// against a response of one call without the matcher, and evaluateNone,
// which scores a list of none, to the matcher's pairing and assembly
// (Engine.exhaustive): every case scores to the same result line either
// way, read as calls or as a run.
func FuzzOneCall(f *testing.F) {
	e := loadWith(f, oneCallSuite, Options{})
	capped := loadWith(f, oneCallSuite, Options{maxDiffs: 1})
	for _, seed := range []string{
		`[{"name":"f","arguments":{"a":1,"s":"x"}}]`,
		`[{"name":"f","arguments":{"a":2,"s":"z","l":[2,1]}}]`,
		`[{"name":"f","arguments":"{\"a\":\"1\"}"}]`,
		`[{"name":"f","arguments":"{\"a\":"}]`,
		`[{"name":"g","arguments":{"x":1.9,"y":[1,2]}}]`,
		`[{"name":"h","arguments":{}}]`,
		`[{"name":"","arguments":"{"}]`,
		`[{"name":"f","arguments":{"a":1,"b":1,"c":2,"d":3}}]`,
		`[{"name":"f","arguments":{"a":1}},{"name":"f","arguments":{"a":2}}]`,
		`[]`,
		`{"steps":[{"name":"f","arguments":{"a":1},"result":{"id":"O-1"},"error":false,"turn":0}]}`,
		`{"steps":[{"name":"f","arguments":{"a":1},"result":{"id":1},"error":true,"turn":0}]}`,
		`{"steps":[{"name":"g","arguments":{"a":1},"turn":0}]}`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		resp, err := value.Parse(doc)
		if err != nil {
			return
		}
		for _, eng := range []*Engine{e, capped} {
			full := *eng
			full.exhaustive = true
			for i := range eng.cases {
				got, want := eng.newScorer().Score(i, resp).AppendJSON(nil), full.newScorer().Score(i, resp).AppendJSON(nil)
				if string(got) != string(want) {
					t.Fatalf("case %s:\n one     %s\n matcher %s", eng.cases[i].id, got, want)
				}
				if got := scoreNoWork(eng, i, resp).AppendJSON(nil); string(got) != string(want) {
					t.Fatalf("case %s, no work:\n one     %s\n matcher %s", eng.cases[i].id, got, want)
				}
				run, _, err := response.Options{}.Read(resp, eng.opts.Format)
				if err != nil {
					continue
				}
				got, want = eng.newScorer().scoreRun(i, &run).AppendJSON(nil), full.newScorer().scoreRun(i, &run).AppendJSON(nil)
				if string(got) != string(want) {
					t.Fatalf("case %s, run:\n one     %s\n matcher %s", eng.cases[i].id, got, want)
				}
			}
		}
	})
}
