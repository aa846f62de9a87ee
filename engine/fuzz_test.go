package engine

import (
	"errors"
	"reflect"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/callgrade/callgrade/internal/rulecore"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/internal/jsonv"

	"github.com/callgrade/callgrade/internal/response"
	"github.com/callgrade/callgrade/internal/schema"
	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/value"
)

// FuzzScore feeds arbitrary response documents to a suite that uses every
// matching mode and a schema: scoring never panics, every result is valid
// JSON with a score in [0, 1], and a pass has no diffs and a score of 1.
func FuzzScore(f *testing.F) {
	e := load(f, `version: 1
tools:
  - name: f
    parameters: {type: object, properties: {a: {type: integer}, b: {type: array, items: {type: number}}}, required: [a]}
cases:
  - {id: ordered, expected: [{name: f, arguments: {a: 1, b: [1, 2]}, rules: {b: unordered}}, {name: g, arguments: {}}]}
  - {id: unordered, calls: unordered, expected: [{name: f, arguments: {a: 1}}, {name: f, arguments: {a: 2}}]}
  - {id: superset, calls: superset, expected: [{name: f, arguments: {a: 1}}]}
  - {id: subset, calls: subset, expected: [{name: f, arguments: {a: 1}}, {name: g, arguments: {}}]}
  - {id: none, expected: []}
  - {id: itself, calls: unordered, expected: [{name: f, arguments: {a: 1}, rules: {a: {one_of: [2]}}}, {name: g, arguments: {s: x}, rules: {s: {regex: "^y"}}}]}
  - id: alt
    expected: {name: f, arguments: {a: 1}}
    alternatives: [[{name: g, arguments: {x: {y: [1]}}, rules: {x.y: {tolerance: 0.5}}}]]
`)
	for _, seed := range []string{
		`[{"name":"f","arguments":"{\"a\":1,\"b\":[2,1]}"},{"name":"g","arguments":{}}]`,
		`[{"name":"f","arguments":"{\"a\":1,\"b\":[1,2]}"},{"name":"g","arguments":{}}]`,
		`[{"name":"g","arguments":{"x":{"y":[1]}}},{"name":"f","arguments":{"a":2}}]`,
		`[{"name":"f","arguments":{"a":1}},{"name":"g","arguments":{"s":"x"}}]`,
		`{"choices":[{"message":{"tool_calls":[{"type":"function","function":{"name":"f","arguments":"{\"a\":\"1\"}"}}]}}]}`,
		`{"content":[{"type":"tool_use","name":"f","input":{"a":1.0}}]}`,
		`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"g","args":{"x":{"y":[1.4]}}}}]}}]}`,
		`{"output":[{"type":"function_call","name":"f","arguments":"{\"a\":2}"}]}`,
		`[{"name":"f","arguments":"{\"a\":1,\"a\":2}"}]`,
		`null`, `"text"`, `[]`, `{"x":1}`, `[1,2,3]`,
	} {
		f.Add(seed)
	}
	// seedResp is scored by the same Scorer between the fuzzed responses
	// (checkScorerLines): it words diffs of every kind the cases have.
	seedResp, err := value.Parse(`[{"name":"f","arguments":"{\"a\":\"x\",\"b\":[1,\"2\"],\"c\":{}}"},{"name":"h","arguments":{}},{"name":"g","arguments":"{"}]`)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(`[{"name":"f","arguments":{"a":1,"b":["\udc00"]}}]`)
	f.Add("{\"content\":\"\xff\",\"tool_calls\":[{\"function\":{\"name\":\"f\",\"arguments\":\"{\\\"a\\\":1}\"}}]}")
	f.Fuzz(func(t *testing.T, doc string) {
		resp, err := value.Parse(doc)
		if errors.Is(err, value.ErrInvalidUTF8) {
			checkInvalidUTF8(t, e, doc)
			return
		}
		if err != nil {
			return
		}
		for i := range len(e.cases) {
			r := e.newScorer().Score(i, resp)
			if r.Score < 0 || r.Score > 1 || r.Score != r.Score {
				t.Fatalf("case %s: score %v out of [0, 1]", r.ID, r.Score)
			}
			if r.Pass != (len(r.Diffs) == 0) {
				t.Fatalf("case %s: pass=%v with %d diffs", r.ID, r.Pass, len(r.Diffs))
			}
			if r.Pass && r.Score != 1 {
				t.Fatalf("case %s: passes with score %v", r.ID, r.Score)
			}
			for _, d := range r.Diffs {
				if d.Call >= len(r.Calls) {
					t.Fatalf("case %s: diff names call %d of %d", r.ID, d.Call, len(r.Calls))
				}
			}
			if _, err := value.Parse(string(r.AppendJSON(nil))); err != nil {
				t.Fatalf("case %s: result is not JSON: %v\n%s", r.ID, err, r.AppendJSON(nil))
			}
		}
		checkWeighAgrees(t, e, resp)
		checkAllPassAgrees(t, e, resp)
		checkScorerLines(t, e, resp, seedResp)
	})
}

// checkInvalidUTF8 scores doc, which holds text that is not UTF-8, as the
// response of a line for each case: a result like any other, and no pass
// while a call holds such text in its name or arguments.
func checkInvalidUTF8(t *testing.T, e *Engine, doc string) {
	resp, err := new(value.Parser).ParseKeepInvalidUTF8(doc, value.Limits{})
	if err != nil {
		return
	}
	broken := false
	if calls, _, err := (response.Options{}).ReadCalls(resp, format.Auto); err == nil {
		for _, c := range calls {
			broken = broken || c.Err == nil && (invalidUTF8In(c.Args) || !utf8.ValidString(c.Name))
		}
	}
	sc := e.newScorer()
	for i := range len(e.cases) {
		r, j, _, err := sc.ScoreLine(`{"id":"`+e.cases[i].id+`","response":`+doc+`}`, 1, 0)
		if err != nil || j != i {
			t.Fatalf("case %s: line scored as %d, %v", e.cases[i].id, j, err)
		}
		if r.Pass != (len(r.Diffs) == 0) || r.Score < 0 || r.Score > 1 || r.Pass && r.Score != 1 {
			t.Fatalf("case %s: pass %v, score %v, %d diffs", r.ID, r.Pass, r.Score, len(r.Diffs))
		}
		if r.Pass && broken {
			t.Fatalf("case %s passes with a call that holds text that is not UTF-8", r.ID)
		}
		if _, err := value.Parse(string(r.AppendJSON(nil))); err != nil {
			t.Fatalf("case %s: result is not JSON: %v\n%s", r.ID, err, r.AppendJSON(nil))
		}
	}
}

// invalidUTF8In reports whether a key or string in v is not UTF-8.
func invalidUTF8In(v value.Value) bool {
	switch v.Kind() {
	case value.String:
		return !utf8.ValidString(v.Str())
	case value.Array:
		return slices.ContainsFunc(v.Elems(), invalidUTF8In)
	case value.Object:
		return slices.ContainsFunc(v.Members(), func(m value.Member) bool {
			return !utf8.ValidString(m.Key) || invalidUTF8In(m.Value)
		})
	}
	return false
}

// checkAllPassAgrees holds the allPass shortcut to the exhaustive pairing:
// every case scores to the same result line either way.
func checkAllPassAgrees(t *testing.T, e *Engine, resp value.Value) {
	t.Helper()
	full := *e
	full.exhaustive = true
	for i := range e.cases {
		got, want := e.newScorer().Score(i, resp).AppendJSON(nil), scoreNoWork(&full, i, resp).AppendJSON(nil)
		if string(got) != string(want) {
			t.Fatalf("case %s:\n allPass    %s\n exhaustive %s", e.cases[i].id, got, want)
		}
	}
}

// checkFastValidation holds the validation of an actual call knowing the
// expected arguments valid (their plan, and what comparing them with the
// actual ones found equal) to the validation knowing nothing.
func checkFastValidation(t *testing.T, id string, ec *compiledCall, ac *response.Call) {
	t.Helper()
	if ac.Err != nil || ec.tool == nil || ec.tool.schema == nil {
		return
	}
	slow := ec.tool.validate(ac.Args, schema.Check{NullIsMissing: ec.nullIsMissing}, -1, nil, nil)
	var eq rulecore.Equalities
	ctx := ec.ctx(rules.Steps{})
	ec.rules.CompareCheckedRecording(ec.args, ac.Args, &ctx, nil, &eq)
	// From the pool, then twice in a Scorer's memory, which the first
	// validation must leave as it found it.
	w := new(work)
	for _, wk := range []*work{nil, w, w} {
		fast := ec.tool.validate(ac.Args, ec.check(&eq, wk), -1, nil, nil)
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("case %s: validating %s knowing %s valid (%v):\n fast %+v\n slow %+v", id, ac.Args, ec.args, ec.known != nil, fast, slow)
		}
		if v := ec.tool.schema.Valid(ac.Args, ec.check(&eq, wk)); v != (len(slow) == 0) {
			t.Fatalf("case %s: Valid %v knowing %s, violations %+v", id, v, ec.args, slow)
		}
	}
}

// checkItself holds the identical-call shortcut (compiledCall.prove) to
// what it skips: where an actual call Identical to an expected one that
// passes against itself takes it, the comparison and the validation find
// nothing wrong, and there is no assert or result rule to run.
func checkItself(t *testing.T, id string, ec *compiledCall, ac *response.Call) {
	t.Helper()
	if ac.Err != nil || ac.Name != ec.name || ec.impliedOnly && ec.more == nil ||
		!jsonv.Identical(ac.Args, ec.args) || !ec.passesItself() {
		return
	}
	var diffs []rulecore.Diff
	ctx := ec.ctx(rules.Steps{})
	res := ec.rules.CompareChecked(ec.args, ac.Args, &ctx, func(d rulecore.Diff) { diffs = append(diffs, d) })
	if res.Matched != res.Total || len(diffs) > 0 {
		t.Fatalf("case %s: %s passes itself, yet its identical call compares %+v %+v", id, ec.args, res, diffs)
	}
	if vs := ec.tool.validate(ac.Args, schema.Check{NullIsMissing: ec.nullIsMissing}, -1, nil, nil); len(vs) > 0 {
		t.Fatalf("case %s: %s passes itself, yet its identical call is invalid: %+v", id, ec.args, vs)
	}
	if ec.more != nil {
		t.Fatalf("case %s: a call with asserts or result rules passes itself", id)
	}
}

// checkWeighAgrees holds weigh, which pairs quietly, to compare's verdict
// on every pair of expected and actual calls of every case, and quick
// weighing to its verdict.
func checkWeighAgrees(t *testing.T, e *Engine, resp value.Value) {
	t.Helper()
	calls, _, err := response.Options{Limits: e.opts.Limits}.ReadCalls(resp, e.opts.Format)
	if err != nil {
		return
	}
	for i := range e.cases {
		c := &e.cases[i]
		for _, list := range append([][]compiledCall{c.expected}, c.alternatives...) {
			for a := range list {
				for b := range calls {
					w, p := e.weigh(&list[a], &calls[b], nil, b, nil, false), e.compare(&list[a], &calls[b], nil, nil, b)
					if w.pass != p.pass || w.score != p.score {
						t.Fatalf("case %s: expected %d, actual %d: weigh %+v, compare pass=%v score=%v %+v",
							c.id, a, b, w, p.pass, p.score, p.diffs)
					}
					if wr := e.weigh(&list[a], &calls[b], nil, b, new(work), false); wr != w {
						t.Fatalf("case %s: expected %d, actual %d: weigh %+v, recording %+v", c.id, a, b, w, wr)
					}
					// Quickly, only the verdict, and a pass scores 1.
					for _, wk := range []*work{nil, new(work)} {
						if q := e.weigh(&list[a], &calls[b], nil, b, wk, true); q.pass != w.pass || q.pass && q.score != w.score {
							t.Fatalf("case %s: expected %d, actual %d: weigh %+v, quickly %+v", c.id, a, b, w, q)
						}
					}
					checkFastValidation(t, c.id, &list[a], &calls[b])
					checkItself(t, c.id, &list[a], &calls[b])
				}
			}
		}
	}
}
