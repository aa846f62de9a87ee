package engine

import (
	"strconv"
	"strings"
	"testing"
)

// fromWarningTools are the tools of the suites in fromWarningTests that
// say which tools there are.
const fromWarningTools = "tools:\n  - {name: find_order}\n  - {name: refund}\n  - {name: lookup}\n"

// fromWarningTest is a suite (after its version line) and the from
// warnings it should get, in order.
type fromWarningTest struct {
	name  string
	suite string
	want  []string // the key, the case and the message after prefix
}

// fromWarningTests are the rows of TestFromWarnings: references by a
// tool's name, by steps[I], to a later step's tool, and from the other
// places a rule can be (alternatives, final, never, a failed step).
var fromWarningTests = []fromWarningTest{
	{"a reference that resolves", `
cases:
  - id: a
    steps:
      - {name: find_order, result: {id: {type: string}}}
      - {name: refund, rules: {order_id: {from: "find_order.result.id"}, x: {from: "steps[0].result.id"}, y: {from: "steps[-1].id"}}}
    final: {from: "refund.arguments.order_id"}
`, nil},
	{"a tool the tools do not define", fromWarningTools + `
cases:
  - id: a
    calls: in_order
    steps:
      - {name: find_order}
      - {name: refund, rules: {order_id: {from: "find_ordr.result.id"}}}
`, []string{`cases[0].steps[1].rules.order_id (case a): from: reference "find_ordr.result.id" can never resolve in a run that passes: the case's tools do not define find_ordr, and no expected call names it`}},
	{"a tool no step calls, ordered", `
cases:
  - id: a
    steps:
      - {name: find_order}
      - {name: refund, rules: {order_id: {from: "lookup.result.id"}}}
`, []string{`cases[0].steps[1].rules.order_id (case a): from: reference "lookup.result.id" can never resolve in a run that passes: no expected call names lookup, and calls: ordered allows no other call`}},
	{"a tool no step calls, in_order, no tools", `
cases:
  - id: a
    calls: in_order
    steps:
      - {name: refund, rules: {order_id: {from: "lookup.result.id"}}}
`, nil},
	{"a tool no step calls, in_order, among the tools", fromWarningTools + `
cases:
  - id: a
    calls: in_order
    steps:
      - {name: refund, rules: {order_id: {from: "lookup.result.id"}}}
`, nil},
	{"a tool no step calls, superset, in the suite's tools", fromWarningTools + `
cases:
  - id: a
    calls: superset
    expected: [{name: refund, rules: {order_id: {from: "lookup[-2].result.id"}}}]
`, nil},
	{"steps[I] past the steps before it, ordered", `
cases:
  - id: a
    steps:
      - {name: find_order}
      - {name: refund, rules: {order_id: {from: "steps[1].result.id"}, n: {from: "steps[-2].result.id"}, ok: {from: "steps[0].result.id"}}}
`, []string{
		`cases[0].steps[1].rules.n (case a): from: reference "steps[-2].result.id" can never resolve in a run that passes: it has at most 1 step before this one (calls: ordered)`,
		`cases[0].steps[1].rules.order_id (case a): from: reference "steps[1].result.id" can never resolve in a run that passes: it has at most 1 step before this one (calls: ordered)`,
	}},
	{"steps[0] in the first step's result rules", `
cases:
  - id: a
    steps:
      - {name: find_order, result: {id: {from: "steps[0].arguments.id"}}}
`, []string{`cases[0].steps[0].result.id (case a): from: reference "steps[0].arguments.id" can never resolve in a run that passes: it has at most 0 steps before this one (calls: ordered)`}},
	{"steps[I] in_order: calls between may be there", `
cases:
  - id: a
    calls: in_order
    steps:
      - {name: find_order}
      - {name: refund, rules: {order_id: {from: "steps[5].result.id"}}}
`, nil},
	{"a later step's tool, ordered", `
cases:
  - id: a
    steps:
      - {name: find_order, rules: {id: {from: "refund.arguments.id"}}}
      - {name: refund, rules: {order_id: {from: "find_order[1].result.id"}}}
`, []string{
		`cases[0].steps[0].rules.id (case a): from: reference "refund.arguments.id" can never resolve in a run that passes: it has at most 0 calls to refund before this one (calls: ordered)`,
		`cases[0].steps[1].rules.order_id (case a): from: reference "find_order[1].result.id" can never resolve in a run that passes: it has at most 1 call to find_order before this one (calls: ordered)`,
	}},
	{"a later step's tool, unordered", `
cases:
  - id: a
    calls: unordered
    steps:
      - {name: find_order, rules: {id: {from: "refund.arguments.id"}, x: {from: "steps[1].id"}, y: {from: "find_order.id"}}}
      - {name: refund}
`, []string{
		`cases[0].steps[0].rules.x (case a): from: reference "steps[1].id" can never resolve in a run that passes: it has at most 1 step before this one (calls: unordered)`,
		`cases[0].steps[0].rules.y (case a): from: reference "find_order.id" can never resolve in a run that passes: it has at most 0 calls to find_order before this one (calls: unordered)`,
	}},
	{"expected calls, alternatives", `
cases:
  - id: a
    expected: [{name: find_order}, {name: refund, rules: {order_id: {from: "find_order.result.id"}}}]
    alternatives:
      - [{name: refund, rules: {order_id: {from: "find_order.result.id"}}}]
`, []string{`cases[0].alternatives[0][0].rules.order_id (case a): from: reference "find_order.result.id" can never resolve in a run that passes: it has at most 0 calls to find_order before this one (calls: ordered)`}},
	{"final", `
cases:
  - id: a
    steps: [{name: find_order}]
    final: {from: "steps[1].result.msg"}
  - id: b
    steps: [{name: find_order}]
    final: {from: "refund.result.msg"}
  - id: c
    calls: in_order
    steps: [{name: find_order}]
    final: {from: "steps[3].result.msg"}
`, []string{
		`cases[0].final (case a): from: reference "steps[1].result.msg" can never resolve in a run that passes: it has at most 1 step (calls: ordered)`,
		`cases[1].final (case b): from: reference "refund.result.msg" can never resolve in a run that passes: no expected call names refund, and calls: ordered allows no other call`,
	}},
	{"the result of a step expected to fail", `
cases:
  - id: a
    steps:
      - {name: find_order, result: {error: true}}
      - {name: refund, rules: {order_id: {from: "find_order.result.id"}, n: {from: "steps[0].result.id"}, e: {from: "find_order.error"}}}
    final: {from: "find_order.result.msg"}
  - id: b
    calls: unordered
    steps:
      - {name: refund, rules: {order_id: {from: "find_order[0].result.id"}, n: {from: "steps[-1].result.id"}}}
      - {name: find_order, result: {error: true}}
  - id: c
    steps:
      - {name: find_order, result: {error: true}}
      - {name: find_order, result: {error: false}}
      - {name: refund, rules: {order_id: {from: "find_order.result.id"}, n: {from: "steps[0].result.id"}}}
  - id: d
    calls: in_order
    steps:
      - {name: find_order, result: {error: true}}
      - {name: refund, rules: {order_id: {from: "find_order.result.id"}}}
`, []string{
		`cases[0].steps[1].rules.n (case a): from: reference "steps[0].result.id" can never resolve in a run that passes: step 0 expects its tool to report an error (result: {error: true}), and a failed tool's result gives no value`,
		`cases[0].steps[1].rules.order_id (case a): from: reference "find_order.result.id" can never resolve in a run that passes: the step calling find_order before it expects its tool to report an error (result: {error: true}), and a failed tool's result gives no value`,
		`cases[0].final (case a): from: reference "find_order.result.msg" can never resolve in a run that passes: the step calling find_order before it expects its tool to report an error (result: {error: true}), and a failed tool's result gives no value`,
		`cases[1].steps[0].rules.order_id (case b): from: reference "find_order[0].result.id" can never resolve in a run that passes: each step calling find_order before it expects its tool to report an error (result: {error: true}), and a failed tool's result gives no value`,
		`cases[2].steps[2].rules.n (case c): from: reference "steps[0].result.id" can never resolve in a run that passes: step 0 expects its tool to report an error (result: {error: true}), and a failed tool's result gives no value`,
	}},
	{"never", fromWarningTools + `
cases:
  - id: a
    steps: [{name: find_order}]
    never: [{name: refund, arguments: {id: x}, rules: {id: {from: "find_ordr.result.id"}}}, {name: refund, arguments: {id: x}, rules: {id: {from: "find_order[3].result.id"}}}]
`, []string{`cases[0].never[0].rules.id (case a): from: reference "find_ordr.result.id" can never resolve in a run that passes: the case's tools do not define find_ordr, and no expected call names it`}},
}

// TestFromWarnings: a `from` reference that no run that passes can
// resolve is a warning naming the file and the key of the rule; one that
// some passing run resolves is none.
func TestFromWarnings(t *testing.T) {
	const prefix = `from: reference `
	for _, tt := range fromWarningTests {
		t.Run(tt.name, func(t *testing.T) {
			e := load(t, "version: 1\n"+tt.suite)
			var got []string
			for _, w := range e.Warnings() {
				if strings.Contains(w.Msg, prefix) {
					if w.Loc.File == "" {
						t.Errorf("no file: %s", w)
					}
					got = append(got, w.Loc.Key+" (case "+w.Loc.Case+"): "+w.Msg)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("warnings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestFromThroughAMissingList: a from rule whose path indexes into a list
// that the expected arguments do not hold is a warning, since the
// comparison then expects an object there; with the list written out, a
// wildcard, or a key that is a number at the top, there is none.
func TestFromThroughAMissingList(t *testing.T) {
	const step = "      - {name: find_order}\n"
	for _, tc := range []struct {
		args, path, want string // want: the list named, "" for no warning
	}{
		{`{}`, "items.0.sku", "items"},
		{`{q: 1}`, "tags.1", "tags"},
		{`{a: {x: 1}}`, "a.b.0.c", "b"},
		{`{items: [{qty: 1}]}`, "items.0.sku", ""},
		{`{}`, "items.*.sku", ""},
		{`{}`, "0.sku", ""},
		{`{}`, "order.id", ""},
	} {
		e := load(t, "version: 1\ncases:\n  - id: a\n    steps:\n"+step+
			"      - {name: ship, arguments: "+tc.args+", rules: {"+strconv.Quote(tc.path)+": {from: \"find_order.result.sku\"}}}\n")
		var got []string
		for _, w := range e.Warnings() {
			if strings.Contains(w.Msg, "indexes into") {
				got = append(got, w.Msg)
			}
		}
		switch {
		case tc.want == "" && len(got) > 0:
			t.Errorf("%s %s: %q", tc.args, tc.path, got)
		case tc.want != "" && (len(got) != 1 || !strings.Contains(got[0], "indexes into "+strconv.Quote(tc.want)+", which the expected arguments do not hold")):
			t.Errorf("%s %s: %q, want a warning naming %s", tc.args, tc.path, got, tc.want)
		}
	}
}
