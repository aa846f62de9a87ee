package engine

import (
	"testing"

	"github.com/callgrade/callgrade/internal/response"
)

// TestMatcherAllocates holds a Scorer's pairing of calls, in every calls
// mode, to no allocation once its memory is grown: the matcher's
// bookkeeping stays on evaluate's stack (see lent), so that a change of
// its layout that moves it to the heap shows here, not only as a
// benchmark's figure. Each response passes, in an order or with a
// call beside the expected ones that makes the mode pair it its own way.
func TestMatcherAllocates(t *testing.T) {
	a1 := response.Call{Name: "a", Args: mustParse(t, `{"x": 1}`)}
	b := response.Call{Name: "b", Args: mustParse(t, `{"y": [1, 2]}`)}
	a2 := response.Call{Name: "a", Args: mustParse(t, `{"x": 2}`)}
	c := response.Call{Name: "c", Args: mustParse(t, `{}`)}
	for _, tc := range []struct {
		mode  string
		calls []response.Call
	}{
		{"ordered", []response.Call{a1, b, a2}},
		{"unordered", []response.Call{a2, b, a1}},
		{"superset", []response.Call{c, a2, b, a1}},
		{"subset", []response.Call{a2, a1}},
		{"greedy", []response.Call{b, a2, a1}},
		{"in_order", []response.Call{a1, c, b, a2}},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			e := load(t, `version: 1
cases:
  - id: c
    calls: `+tc.mode+`
    expected:
      - {name: a, arguments: {x: 1}}
      - {name: b, arguments: {y: [1, 2]}}
      - {name: a, arguments: {x: 2}}
`)
			sc := e.newScorer()
			if r := sc.scoreCalls(0, tc.calls); !r.Pass {
				t.Fatalf("the response should pass: %s", r.AppendJSON(nil))
			}
			if n := testing.AllocsPerRun(100, func() { sc.scoreCalls(0, tc.calls) }); n > 0 {
				t.Errorf("%v allocations per response, want none", n)
			}
		})
	}
}
