package engine

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/internal/response"
	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/value"
)

// runOf builds a run from {"steps": [{name, arguments, result, error, id,
// turn}], "final": text}.
func runOf(t testing.TB, src string) *response.Run {
	t.Helper()
	doc := mustParse(t, src)
	run := &response.Run{}
	steps, _ := doc.Get("steps")
	for _, s := range steps.Elems() {
		var st response.Step
		n, _ := s.Get("name")
		st.Name = n.Str()
		st.Args, _ = value.ObjectOf()
		if a, ok := s.Get("arguments"); ok {
			st.Args = a
			if a.Kind() == value.String {
				// Text, as a run's format gives it: unusable unless it
				// holds an object, as the formats read it.
				v, err := value.Parse(a.Str())
				if err == nil && v.Kind() != value.Object {
					err = errors.New("not an object")
				}
				st.Args = v
				if err != nil {
					st.Args, st.Err = value.Value{}, &response.ArgumentsError{Index: len(run.Steps), Reason: "arguments are not a JSON object", Err: err}
				}
			}
		}
		st.Result, st.HasResult = s.Get("result")
		if e, ok := s.Get("error"); ok {
			st.Error = e.Bool()
		}
		if id, ok := s.Get("id"); ok {
			st.ID = id.Str()
		}
		if tn, ok := s.Get("turn"); ok {
			st.Turn = int(mustInt(tn))
		}
		run.Steps = append(run.Steps, st)
	}
	if f, ok := doc.Get("final"); ok {
		run.Final, run.HasFinal = f.Str(), true
	}
	return run
}

func mustInt(v value.Value) int64 {
	var n int64
	for _, c := range v.Str() {
		n = n*10 + int64(c-'0')
	}
	return n
}

const agentCase = `
cases:
  - id: t
    calls: %s
    steps:
      - name: find_order
        arguments: {email: a@b.c}
        result: {error: false, id: {type: string}}
      - name: refund
        rules: {order_id: {from: "find_order.result.id"}}
    never: [delete_account]
`

type runTest struct {
	name  string
	mode  string
	suite string // default agentCase
	run   string
	pass  bool
	score float64
	kinds []results.Kind
	json  string // a part of the result line
}

func runRunTests(t *testing.T, tests []runTest) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := tt.suite
			if src == "" {
				mode := tt.mode
				if mode == "" {
					mode = "ordered"
				}
				src = strings.Replace(agentCase, "%s", mode, 1)
			}
			e := load(t, "version: 1\n"+src)
			i, _ := e.Lookup("t")
			run := runOf(t, tt.run)
			for _, r := range []*results.Result{scoreRunNoWork(e, i, run), e.newScorer().scoreRun(i, run)} {
				line := string(r.AppendJSON(nil))
				if r.Pass != tt.pass || r.Score != tt.score || !slices.Equal(kinds(r), tt.kinds) || !strings.Contains(line, tt.json) {
					t.Errorf("pass=%v score=%v kinds=%v, want pass=%v score=%v kinds=%v ...%s...\n%s",
						r.Pass, r.Score, kinds(r), tt.pass, tt.score, tt.kinds, tt.json, line)
				}
				var back results.Result
				if err := back.UnmarshalJSON([]byte(line)); err != nil || string(back.AppendJSON(nil)) != line {
					t.Errorf("round trip: %v\n%s\n%s", err, line, back.AppendJSON(nil))
				}
			}
		})
	}
}

const (
	findO1   = `{"name":"find_order","arguments":{"email":"a@b.c"},"result":{"id":"O-1"},"error":false,"turn":0}`
	refundO1 = `{"name":"refund","arguments":{"order_id":"O-1"},"result":{"ok":true},"turn":1}`
	refundO9 = `{"name":"refund","arguments":{"order_id":"O-9"},"result":{"ok":true},"turn":1}`
	deleteAc = `{"name":"delete_account","arguments":{},"turn":1}`
)

func steps(s ...string) string { return `{"steps":[` + strings.Join(s, ",") + `]}` }

func TestScoreRunAgent(t *testing.T) {
	runRunTests(t, []runTest{
		{name: "pass", run: steps(findO1, refundO1), pass: true, score: 1},
		{name: "pass in_order", mode: "in_order", run: steps(findO1, refundO1), pass: true, score: 1},
		{name: "pass unordered", mode: "unordered", run: steps(findO1, refundO1), pass: true, score: 1},
		{name: "wrong reference", run: steps(findO1, refundO9), score: 0.5, kinds: []results.Kind{results.Mismatch},
			json: `{"kind":"mismatch","call":1,"step":1,"turn":1,"path":"order_id","expected":"O-1","actual":"O-9"`},
		{name: "reference to a step that did not happen", run: steps(refundO1), score: 0, kinds: []results.Kind{results.MissingCall, results.Mismatch},
			json: `but no call to find_order happened before this one`},
		{name: "reference to a later step", mode: "unordered", run: steps(refundO1, findO1), score: 0.5, kinds: []results.Kind{results.Mismatch},
			json: `"step":0,"turn":1`},
		{name: "forbidden call, ordered", run: steps(findO1, deleteAc, refundO1), score: 2.0 / 3, kinds: []results.Kind{results.UnexpectedCall, results.ForbiddenCall},
			json: `{"kind":"forbidden_call","call":2,"step":1,"turn":1,"path":"","actual":"delete_account","rule":"never"`},
		{name: "forbidden call, in_order", mode: "in_order", run: steps(findO1, deleteAc, refundO1), score: 2.0 / 3, kinds: []results.Kind{results.ForbiddenCall},
			json: `"call":null,"step":1`},
		{name: "extra call, in_order", mode: "in_order", run: steps(findO1, `{"name":"lookup"}`, refundO1), pass: true, score: 1},
		{name: "extra call with unusable arguments, in_order", mode: "in_order", run: steps(findO1, `{"name":"lookup","arguments":"{oops","turn":1}`, refundO1),
			score: 2.0 / 3, kinds: []results.Kind{results.InvalidArguments}, json: `{"kind":"invalid_arguments","call":2,"step":1,"turn":1,"path":"","rule":"json"`},
		{name: "extra call, ordered", run: steps(`{"name":"lookup"}`, findO1, refundO1), score: 2.0 / 3, kinds: []results.Kind{results.UnexpectedCall},
			json: `"calls":[{"expected":0,"actual":1,"pass":true,"score":1},{"expected":1,"actual":2,"pass":true,"score":1},{"expected":null,"actual":0`},
		{name: "no result", run: steps(`{"name":"find_order","arguments":{"email":"a@b.c"}}`, refundO1), score: 1.0 / 6,
			kinds: []results.Kind{results.MissingResult, results.Mismatch}},
		{name: "tool error", run: steps(`{"name":"find_order","arguments":{"email":"a@b.c"},"result":{"id":"O-1"},"error":true}`, refundO1),
			score: 1.0 / 3, kinds: []results.Kind{results.Mismatch, results.Mismatch}, json: `"path":"result.error","expected":false,"actual":true,"rule":"error"`},
		{name: "result field of the wrong type", run: steps(`{"name":"find_order","arguments":{"email":"a@b.c"},"result":{"id":7}}`, `{"name":"refund","arguments":{"order_id":7}}`),
			score: 0.8333333333333333, kinds: []results.Kind{results.Mismatch}, json: `"path":"result.id"`},
		{name: "result field missing", run: steps(`{"name":"find_order","arguments":{"email":"a@b.c"},"result":{"ID":"O-1"}}`, refundO1),
			score: (2.0 / 3) / 2, kinds: []results.Kind{results.MissingArgument, results.Mismatch}, json: `"path":"result.id"`},
		{name: "zero steps", run: steps(), score: 0, kinds: []results.Kind{results.MissingCall, results.MissingCall}},
		{name: "zero steps, unordered", mode: "unordered", run: steps(), score: 0, kinds: []results.Kind{results.MissingCall, results.MissingCall}},
		{name: "refund twice", run: steps(findO1, refundO9, refundO1), score: 2.0 / 3, kinds: []results.Kind{results.UnexpectedCall},
			json: `{"expected":1,"actual":2,"pass":true`},
	})
}

func TestScoreRunChecks(t *testing.T) {
	const base = `
cases:
  - id: t
    steps: [{name: a}]
    calls: in_order
`
	runRunTests(t, []runTest{
		{name: "max_calls", suite: base + "    max_calls: 2\n", run: steps(`{"name":"a"}`, `{"name":"b"}`, `{"name":"c","turn":3}`),
			score: 0.5, kinds: []results.Kind{results.TooManyCalls}, json: `{"kind":"too_many_calls","call":null,"step":2,"turn":3,"path":"","expected":2,"actual":3`},
		{name: "max_calls kept", suite: base + "    max_calls: 2\n", run: steps(`{"name":"a"}`, `{"name":"b"}`), pass: true, score: 1},
		{name: "final passes", suite: base + "    final: {regex: \"(?i)refund\"}\n", run: `{"steps":[{"name":"a"}],"final":"Your Refund is on its way"}`, pass: true, score: 1},
		{name: "final fails", suite: base + "    final: {regex: \"refund\"}\n", run: `{"steps":[{"name":"a"}],"final":"Sorry"}`, score: 0.5,
			kinds: []results.Kind{results.Mismatch}, json: `"path":"final","actual":"Sorry","rule":"regex=refund"`},
		{name: "final missing", suite: base + "    final: {regex: \"refund\"}\n", run: steps(`{"name":"a"}`), score: 0.5, kinds: []results.Kind{results.MissingFinal}},
		{name: "final one_of Unicode", suite: base + "    final: {one_of: [\"Straße\"], case_insensitive: true}\n", run: `{"steps":[{"name":"a"}],"final":"STRASSE"}`, pass: true, score: 1},
		{name: "final from", suite: base + "    final: {from: \"a.result.msg\"}\n", run: `{"steps":[{"name":"a","result":{"msg":"done"}}],"final":"done"}`, pass: true, score: 1},
		{name: "final from missing", suite: base + "    final: {from: \"a.result.msg\"}\n", run: `{"steps":[{"name":"a"}],"final":"done"}`, score: 0.5,
			kinds: []results.Kind{results.Mismatch}, json: "a (step 0) has no result"},
		{name: "never with arguments", suite: base + "    never: [{name: b, arguments: {n: 5}, rules: {n: numeric}}]\n",
			run: steps(`{"name":"a"}`, `{"name":"b","arguments":{"n":"5","x":1}}`, `{"name":"b","arguments":{"n":6}}`), score: 0.5, kinds: []results.Kind{results.ForbiddenCall}},
		// The tool's schema implies what it does for an expected call:
		// "1000" for a number parameter is the forbidden 1000.
		{name: "never under the schema", suite: "tools: [{name: b, parameters: {type: object, properties: {n: {type: number}, k: {type: integer}}}}]\n" + base +
			"    never: [{name: b, arguments: {n: 1000}}, {name: b, arguments: {k: 5}}]\n",
			run:   steps(`{"name":"a"}`, `{"name":"b","arguments":{"n":"1000"}}`, `{"name":"b","arguments":{"k":"5"}}`, `{"name":"b","arguments":{"n":"999"}}`),
			score: 1.0 / 3, kinds: []results.Kind{results.ForbiddenCall, results.ForbiddenCall}},
		{name: "result regex fails, no expected side", suite: "cases:\n  - id: t\n    steps: [{name: a, result: {sku: {regex: \"^S\"}}}]\n",
			run: steps(`{"name":"a","result":{"sku":"X1"}}`), score: 0, kinds: []results.Kind{results.Mismatch}, json: `"path":"result.sku","actual":"X1","rule":"regex=^S"`},
		{name: "nested result paths", suite: "cases:\n  - id: t\n    steps: [{name: a, result: {\"items.#.sku\": {regex: \"^S\"}, \"meta.ünï\": {one_of: [1]}}}]\n",
			run: steps(`{"name":"a","result":{"items":[{"sku":"S1"},{"sku":"X2"}],"meta":{"ünï":1}}}`), score: 0.5, kinds: []results.Kind{results.Mismatch},
			json: `"path":"result.items.1.sku"`},
		{name: "null result", suite: "cases:\n  - id: t\n    steps: [{name: a, result: {\"x\": {type: string}}}]\n",
			run: steps(`{"name":"a","result":null}`), score: 0, kinds: []results.Kind{results.MissingArgument}},
		{name: "optional result field", suite: "cases:\n  - id: t\n    steps: [{name: a, result: {\"x\": {type: string, optional: true}}}]\n",
			run: steps(`{"name":"a","result":{}}`), pass: true, score: 1},
		{name: "empty steps, no call", suite: "cases:\n  - id: t\n    steps: []\n", run: steps(), pass: true, score: 1},
		{name: "empty steps, in_order, a call", suite: "cases:\n  - id: t\n    steps: []\n    calls: in_order\n", run: steps(`{"name":"a"}`),
			score: 0, kinds: []results.Kind{results.UnexpectedCall}},
		{name: "expected case with never", suite: "cases:\n  - id: t\n    expected: [{name: a}]\n    never: [b]\n",
			run: steps(`{"name":"b"}`), score: 0, kinds: []results.Kind{results.WrongTool, results.ForbiddenCall}, json: `"kind":"wrong_tool","call":0,"step":0,"turn":0`},
		{name: "expected case in_order", suite: "cases:\n  - id: t\n    expected: [{name: a}, {name: b}]\n    calls: in_order\n",
			run: steps(`{"name":"b"}`, `{"name":"a"}`, `{"name":"c"}`, `{"name":"b"}`), pass: true, score: 1},
	})
}

// TestOrdinaryCaseLineUnchanged checks that a case without run keys gets
// no step in its diffs.
func TestOrdinaryCaseLineUnchanged(t *testing.T) {
	e := load(t, "cases:\n  - id: t\n    expected: [{name: a, arguments: {x: 1}}]\n")
	r := e.newScorer().Score(0, mustParse(t, `[{"name":"a","arguments":{"x":2}}]`))
	if line := string(r.AppendJSON(nil)); strings.Contains(line, `"step"`) {
		t.Errorf("line = %s", line)
	}
}

// TestScoreRunFromResponse scores a run case from a response of the calls
// format: a run of one turn, without results.
func TestScoreRunFromResponse(t *testing.T) {
	e := load(t, "cases:\n  - id: t\n    steps: [{name: a, arguments: {x: 1}}, {name: b, rules: {x: {from: \"a.arguments.x\"}}}]\n    never: [c]\n")
	r := e.newScorer().Score(0, mustParse(t, `[{"name":"a","arguments":{"x":1}},{"name":"b","arguments":{"x":1}}]`))
	if !r.Pass {
		t.Errorf("%s", r.AppendJSON(nil))
	}
	r = e.newScorer().Score(0, mustParse(t, `{"choices":[{"message":{"tool_calls":[{"function":{"name":"a","arguments":"{\"x\":1}"}},{"function":{"name":"c","arguments":"{}"}},{"function":{"name":"b","arguments":"{\"x\":2}"}}]}}]}`))
	if got := kinds(r); !slices.Equal(got, []results.Kind{results.Mismatch, results.UnexpectedCall, results.ForbiddenCall}) {
		t.Errorf("kinds = %v\n%s", got, r.AppendJSON(nil))
	}
}

// TestScoreRunReused: one Scorer reads each run into the memory of the
// last (work.runOrNew); the runs it scores one after another, a longer
// after a shorter, one with a final answer after one without, one that
// cannot be read between them, give the lines a new Scorer gives each.
func TestScoreRunReused(t *testing.T) {
	e := load(t, "cases:\n  - id: t\n    steps: [{name: a, arguments: {x: 1}}, {name: b, rules: {x: {from: \"a.arguments.x\"}}}]\n    never: [c]\n"+
		"  - id: f\n    calls: any\n    final: {regex: done}\n")
	responses := []string{
		`[{"name":"a","arguments":{"x":1}},{"name":"b","arguments":{"x":1}}]`,
		`{"choices":[{"message":{"tool_calls":[{"function":{"name":"a","arguments":"{\"x\":1}"}},{"function":{"name":"c","arguments":"{}"}},{"function":{"name":"b","arguments":"{\"x\":2}"}}]}}]}`,
		`[{"role":"assistant","tool_calls":[{"id":"1","function":{"name":"a","arguments":"{\"x\":1}"}}]},{"role":"tool","tool_call_id":"1","content":"ok"},{"role":"assistant","content":"done"}]`,
		`[{"name":"a","arguments":"{not json"}]`,
		`{"unreadable":true}`,
		`[]`,
	}
	sc := e.newScorer()
	for round := range 2 {
		for k, resp := range responses {
			for i := range 2 {
				want := string(e.newScorer().Score(i, mustParse(t, resp)).AppendJSON(nil))
				if got := string(sc.Score(i, mustParse(t, resp)).AppendJSON(nil)); got != want {
					t.Errorf("round %d, response %d, case %d: one Scorer gave\n%s\na new one\n%s", round, k, i, got, want)
				}
			}
		}
	}
}

// TestScoreRunReferenceCorners: a reference resolves only to what the run
// really gave back. The result of a call whose tool reported an error
// names no value (the error is not what the run went on with); a step
// with no result, or a result that is text, has nothing at a path.
func TestScoreRunReferenceCorners(t *testing.T) {
	const refs = `
cases:
  - id: t
    steps:
      - name: find_order
      - name: refund
        rules: {order_id: {from: "find_order.result.id"}}
`
	const whole = `
cases:
  - id: t
    steps:
      - name: find_order
      - name: refund
        rules: {order_id: {from: "find_order.result"}}
`
	failed := `{"name":"find_order","result":{"id":"O-1","error":"timeout"},"error":true}`
	runRunTests(t, []runTest{
		{name: "a result the tool reported as an error", suite: refs, run: steps(failed, refundO1), score: 0.5, kinds: []results.Kind{results.Mismatch},
			json: `"path":"order_id","actual":"O-1","rule":"exact","message":"got \"O-1\"; expected the value of find_order.result.id, but find_order (step 0) failed: its tool reported an error, so its result gives no value"`},
		{name: "the whole result of a tool that failed", suite: whole, run: steps(`{"name":"find_order","result":"O-1","error":true}`, refundO1),
			score: 0.5, kinds: []results.Kind{results.Mismatch}, json: `but find_order (step 0) failed: its tool reported an error`},
		{name: "a failed tool's error flag still resolves", suite: "cases:\n  - id: t\n    steps: [{name: a}, {name: b, rules: {failed: {from: a.error}}}]\n",
			run: steps(`{"name":"a","error":true}`, `{"name":"b","arguments":{"failed":true}}`), pass: true, score: 1},
		{name: "a step with no result", suite: refs, run: steps(`{"name":"find_order"}`, refundO1), score: 0.5, kinds: []results.Kind{results.Mismatch},
			json: `but find_order (step 0) has no result"`},
		{name: "a result that is text has nothing at a path", suite: refs, run: steps(`{"name":"find_order","result":"O-1"}`, refundO1),
			score: 0.5, kinds: []results.Kind{results.Mismatch}, json: `but find_order (step 0).result has nothing at id"`},
		{name: "a result that is text is the whole result", suite: whole, run: steps(`{"name":"find_order","result":"O-1"}`, refundO1), pass: true, score: 1},
		{name: "a result rule's reference to a failed tool's result",
			suite: "cases:\n  - id: t\n    steps: [{name: a}, {name: b, result: {id: {from: a.result.id}}}]\n",
			run:   steps(`{"name":"a","result":{"id":1},"error":true}`, `{"name":"b","result":{"id":1}}`), score: 0.5, kinds: []results.Kind{results.Mismatch},
			json: `"path":"result.id","actual":1,"rule":"from=a.result.id","message":"expected the value of a.result.id, but a (step 0) failed: its tool reported an error`},
		{name: "a never entry's reference to a failed tool's result matches no call",
			suite: "cases:\n  - id: t\n    steps: [{name: find_order}]\n    calls: in_order\n    never: [{name: refund, rules: {order_id: {from: find_order.result.id}}}]\n",
			run:   steps(`{"name":"find_order","result":{"id":"O-1"},"error":true}`, refundO1), pass: true, score: 1},
		{name: "a never entry's reference to a result matches the call that uses it",
			suite: "cases:\n  - id: t\n    steps: [{name: find_order}]\n    calls: in_order\n    never: [{name: refund, rules: {order_id: {from: find_order.result.id}}}]\n",
			run:   steps(`{"name":"find_order","result":{"id":"O-1"}}`, refundO1), score: 0.5, kinds: []results.Kind{results.ForbiddenCall}},
		// null_is_missing: a null the step gives is left out, on the
		// expected side as on the actual one.
		{name: "null_is_missing: a null reference and the field left out", suite: "cases:\n  - id: t\n    null_is_missing: true\n    steps: [{name: a}, {name: b, rules: {coupon: {from: a.result.coupon}}}]\n",
			run: steps(`{"name":"a","result":{"coupon":null}}`, `{"name":"b","arguments":{}}`), pass: true, score: 1},
		{name: "null_is_missing: a null reference and a null", suite: "cases:\n  - id: t\n    null_is_missing: true\n    steps: [{name: a}, {name: b, rules: {coupon: {from: a.result.coupon}}}]\n",
			run: steps(`{"name":"a","result":{"coupon":null}}`, `{"name":"b","arguments":{"coupon":null}}`), pass: true, score: 1},
		{name: "null_is_missing: a null reference and a value", suite: "cases:\n  - id: t\n    null_is_missing: true\n    steps: [{name: a}, {name: b, rules: {coupon: {from: a.result.coupon}}}]\n",
			run: steps(`{"name":"a","result":{"coupon":null}}`, `{"name":"b","arguments":{"coupon":"C-1"}}`), score: 0.5, kinds: []results.Kind{results.UnexpectedArgument}},
		{name: "without null_is_missing a null reference wants the null", suite: "cases:\n  - id: t\n    steps: [{name: a}, {name: b, rules: {coupon: {from: a.result.coupon}}}]\n",
			run: steps(`{"name":"a","result":{"coupon":null}}`, `{"name":"b","arguments":{}}`), score: 0.5, kinds: []results.Kind{results.MissingArgument}},
		{name: "null_is_missing: a value wanted and the field left out", suite: "cases:\n  - id: t\n    null_is_missing: true\n    steps: [{name: a}, {name: b, rules: {coupon: {from: a.result.coupon}}}]\n",
			run: steps(`{"name":"a","result":{"coupon":"C-1"}}`, `{"name":"b","arguments":{"coupon":null}}`), score: 0.5, kinds: []results.Kind{results.MissingArgument}},
		{name: "final's reference to a failed tool's result", suite: "cases:\n  - id: t\n    steps: [{name: a}]\n    final: {from: a.result.msg}\n",
			run: `{"steps":[{"name":"a","result":{"msg":"done"},"error":true}],"final":"done"}`, score: 0.5, kinds: []results.Kind{results.Mismatch},
			json: `"path":"final","actual":"done","rule":"from=a.result.msg","message":"expected the value of a.result.msg, but a (step 0) failed: its tool reported an error`},
	})
}

// TestScoreRunPinned pins verdicts kept on purpose: a never entry's
// nested objects match as a subset of the call's (its lists element by
// element), and a result rule whose # path finds no element (the list is
// empty) finds nothing there.
func TestScoreRunPinned(t *testing.T) {
	const nested = "cases:\n  - id: t\n    steps: [{name: a}]\n    calls: in_order\n" +
		"    never: [{name: ship, arguments: {to: {country: FR}, items: [{sku: S1}]}}]\n"
	const hash = "cases:\n  - id: t\n    steps: [{name: a, result: {\"items.#.sku\": {regex: \"^S\"}}}]\n"
	runRunTests(t, []runTest{
		{name: "a nested never entry matches as a subset", suite: nested,
			run:   steps(`{"name":"a"}`, `{"name":"ship","arguments":{"to":{"country":"FR","city":"Lyon"},"items":[{"sku":"S1","qty":2}],"note":"x"}}`),
			score: 0.5, kinds: []results.Kind{results.ForbiddenCall}, json: `"actual":"ship","rule":"never"`},
		{name: "a nested never entry that differs does not match", suite: nested,
			run:  steps(`{"name":"a"}`, `{"name":"ship","arguments":{"to":{"country":"DE","city":"Köln"},"items":[{"sku":"S1"}]}}`),
			pass: true, score: 1},
		{name: "a nested never list is compared element by element", suite: nested,
			run:  steps(`{"name":"a"}`, `{"name":"ship","arguments":{"to":{"country":"FR"},"items":[{"sku":"S1"},{"sku":"S2"}]}}`),
			pass: true, score: 1},
		{name: "a # path over an empty list", suite: hash, run: steps(`{"name":"a","result":{"items":[]}}`), score: 0, kinds: []results.Kind{results.MissingArgument},
			json: `"path":"result.items.#.sku","rule":"regex=^S","message":"the result of a has nothing at items.#.sku"`},
		{name: "a # path over a list", suite: hash, run: steps(`{"name":"a","result":{"items":[{"sku":"S1"},{"sku":"S2"}]}}`), pass: true, score: 1},
		{name: "an optional # path over an empty list", suite: "cases:\n  - id: t\n    steps: [{name: a, result: {\"items.#.sku\": {regex: \"^S\", optional: true}}}]\n",
			run: steps(`{"name":"a","result":{"items":[]}}`), pass: true, score: 1},
	})
}
