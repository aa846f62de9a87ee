package engine

import (
	"testing"

	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/value"
)

func TestScoreGreedy(t *testing.T) {
	two := `cases: [{id: t, calls: greedy, expected: [{name: f, arguments: {a: 1}}, {name: g, arguments: {b: 2}}]}]`
	f1 := `{"name":"f","arguments":{"a":1}}`
	f9 := `{"name":"f","arguments":{"a":9}}`
	g2 := `{"name":"g","arguments":{"b":2}}`
	// The first expected call accepts either actual call, the second only
	// the first: greedy pairing gives the first away and fails a correct
	// answer, which unordered accepts.
	trap := func(mode string) string {
		return `cases: [{id: t, calls: ` + mode + `, expected: [
  {name: f, arguments: {a: 1}, rules: {a: {one_of: [1, 2]}}},
  {name: f, arguments: {a: 1}}]}]`
	}
	runScoreTests(t, []scoreTest{
		{"in order", two, "[" + f1 + "," + g2 + "]", true, 1, nil},
		{"out of order", two, "[" + g2 + "," + f1 + "]", true, 1, nil},
		{"one wrong", two, "[" + g2 + "," + f9 + "]", false, 0.5, []results.Kind{results.Mismatch}},
		{"one missing", two, "[" + g2 + "]", false, 0.5, []results.Kind{results.MissingCall}},
		{"one more", two, "[" + g2 + "," + f1 + "," + f1 + "]", false, 2.0 / 3, []results.Kind{results.UnexpectedCall}},
		{"wrong tool left over is paired", two, "[" + f1 + "," + f9 + "]", false, 0.5, []results.Kind{results.WrongTool}},
		{"greedy trap", trap("greedy"), `[{"name":"f","arguments":{"a":1}},{"name":"f","arguments":{"a":2}}]`, false, 0.5, []results.Kind{results.Mismatch}},
		{"unordered has no trap", trap("unordered"), `[{"name":"f","arguments":{"a":1}},{"name":"f","arguments":{"a":2}}]`, true, 1, nil},
		{"greedy no call expected", `cases: [{id: t, calls: greedy, expected: []}]`, "[" + f1 + "]", false, 0, []results.Kind{results.UnexpectedCall}},
	})
}

func TestScoreTypeRule(t *testing.T) {
	one := `cases: [{id: t, expected: {name: f, arguments: {n: 5, s: x}, rules: {n: {type: integer}}}}]`
	runScoreTests(t, []scoreTest{
		{"integer", one, `[{"name":"f","arguments":{"n":5,"s":"x"}}]`, true, 1, nil},
		{"float for integer", one, `[{"name":"f","arguments":{"n":5.0,"s":"x"}}]`, false, 0.5, []results.Kind{results.Mismatch}},
	})
}

// countingEqual is a comparator that counts its comparisons.
type countingEqual struct{ n int }

func (c *countingEqual) Compare(in *rules.Input) rules.Outcome {
	c.n++
	return rules.Outcome{Equal: value.Equal(in.Expected, in.Actual)}
}

// Pairing weighs each pair of calls once: the pairs a first pass weighed
// (unordered's try at passing every call) are not weighed again when the
// calls left over are paired; the pairs chosen are then compared once
// more, to say what is wrong with them. Greedy's first pass needs only
// verdicts, so it stops at each pair's first failing argument, and weighs
// the pairs left over in full only where there is a choice among them.
func TestPairingWeighsEachPairOnce(t *testing.T) {
	const three = `[{name: f, arguments: {a: 1, b: 1, c: 1}, rules: {"*": {plugin: count.eq}}},
      {name: f, arguments: {a: 2, b: 2, c: 2}, rules: {"*": {plugin: count.eq}}}]`
	for _, tc := range []struct {
		name, mode, expected, actual string
		diffs, want                  int
	}{
		// Two expected calls, two wrong calls to the same tool: four
		// pairs weighed, two compared.
		{"unordered", "unordered", `[{name: f, arguments: {x: 1}, rules: {x: {plugin: count.eq}}},
      {name: f, arguments: {x: 2}, rules: {x: {plugin: count.eq}}}]`,
			`[{"name":"f","arguments":{"x":3}},{"name":"f","arguments":{"x":4}}]`, 2, 6},
		// The first call passes (3 comparisons); the second fails at its
		// first argument (1), and, alone with the one call left over, is
		// compared (3).
		{"greedy, one left over", "greedy", three,
			`[{"name":"f","arguments":{"a":1,"b":1,"c":1}},{"name":"f","arguments":{"a":9,"b":2,"c":2}}]`, 1, 7},
		// Both fail at their first argument against both calls (4), so
		// the four pairs are weighed in full to choose (12), and the two
		// chosen compared (6).
		{"greedy, a choice left over", "greedy", three,
			`[{"name":"f","arguments":{"a":3,"b":1,"c":1}},{"name":"f","arguments":{"a":4,"b":2,"c":2}}]`, 2, 22},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmp := &countingEqual{}
			e := loadWith(t, `version: 1
cases:
  - id: c
    calls: `+tc.mode+`
    expected: `+tc.expected+`
`, Options{Extensions: rules.Extensions{Plugin: func(string, value.Value) (rules.Comparator, error) { return cmp, nil }}})
			r := e.newScorer().Score(0, mustParse(t, tc.actual))
			if r.Pass || len(r.Diffs) != tc.diffs {
				t.Fatalf("want %d mismatches: %s", tc.diffs, r.AppendJSON(nil))
			}
			if cmp.n != tc.want {
				t.Errorf("%d comparisons, want %d", cmp.n, tc.want)
			}
		})
	}
}
