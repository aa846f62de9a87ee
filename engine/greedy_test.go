package engine

import "testing"

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
		{"one wrong", two, "[" + g2 + "," + f9 + "]", false, 0.5, []Kind{Mismatch}},
		{"one missing", two, "[" + g2 + "]", false, 0.5, []Kind{MissingCall}},
		{"one more", two, "[" + g2 + "," + f1 + "," + f1 + "]", false, 2.0 / 3, []Kind{UnexpectedCall}},
		{"wrong tool left over is paired", two, "[" + f1 + "," + f9 + "]", false, 0.5, []Kind{WrongTool}},
		{"greedy trap", trap("greedy"), `[{"name":"f","arguments":{"a":1}},{"name":"f","arguments":{"a":2}}]`, false, 0.5, []Kind{Mismatch}},
		{"unordered has no trap", trap("unordered"), `[{"name":"f","arguments":{"a":1}},{"name":"f","arguments":{"a":2}}]`, true, 1, nil},
		{"greedy no call expected", `cases: [{id: t, calls: greedy, expected: []}]`, "[" + f1 + "]", false, 0, []Kind{UnexpectedCall}},
	})
}

func TestScoreTypeRule(t *testing.T) {
	one := `cases: [{id: t, expected: {name: f, arguments: {n: 5, s: x}, rules: {n: {type: integer}}}}]`
	runScoreTests(t, []scoreTest{
		{"integer", one, `[{"name":"f","arguments":{"n":5,"s":"x"}}]`, true, 1, nil},
		{"float for integer", one, `[{"name":"f","arguments":{"n":5.0,"s":"x"}}]`, false, 0.5, []Kind{Mismatch}},
	})
}
