package engine

import (
	"slices"
	"testing"

	"github.com/callgrade/callgrade/dsl"
	"github.com/callgrade/callgrade/internal/jsonv"
	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/value"
)

// An actual call Identical to the expected one is judged as the expected
// one against itself: it passes where that passes, and where the expected
// arguments fail their own rules, their tool's schema or an assert, or
// something besides the two values decides, the identical call is judged
// in full and fails as it would without the shortcut. Each case is
// scored twice, so that the second finds the first's answer kept.
func TestIdenticalCallIsJudgedAsItself(t *testing.T) {
	const tools = `
tools:
  - name: f
    parameters:
      type: object
      properties: {n: {type: integer}, s: {type: string, enum: [a, b]}}
`
	for _, tc := range []struct {
		name, call, response string
		pass                 bool
		kinds                []results.Kind
		self                 uint32
	}{
		// The schema alone rules: schema.Known.Prove's way, not this one.
		{"the schema alone", `{name: f, arguments: {n: 5, s: a}}`, `{"n":5,"s":"a"}`, true, nil, selfUnknown},
		{"rules that pass it", `{name: f, arguments: {n: 5, s: a}, rules: {s: {one_of: [a, b]}, n: {type: integer}}}`, `{"n":5,"s":"a"}`, true, nil, selfPasses},
		{"a one_of without it", `{name: f, arguments: {n: 5, s: a}, rules: {s: {one_of: [b]}}}`, `{"n":5,"s":"a"}`, false, []results.Kind{results.Mismatch}, selfNot},
		{"a regex it does not match", `{name: f, arguments: {n: 5, s: a}, rules: {s: {regex: "^b"}}}`, `{"n":5,"s":"a"}`, false, []results.Kind{results.Mismatch}, selfNot},
		{"a type rule it breaks", `{name: f, arguments: {n: 5.0, s: a}, rules: {n: {type: integer}}}`, `{"n":5.0,"s":"a"}`, false, []results.Kind{results.Mismatch}, selfNot},
		{"arguments the schema refuses", `{name: f, arguments: {n: 5, s: c}}`, `{"n":5,"s":"c"}`, false, []results.Kind{results.Schema}, selfNot},
		{"a false assert", `{name: f, arguments: {n: 5, s: a}, assert: ["actual.n > 9"]}`, `{"n":5,"s":"a"}`, false, []results.Kind{results.AssertFailed}, selfNot},
		{"an expression that refuses", `{name: f, arguments: {n: 5, s: a}, rules: {n: {expr: "actual > 9"}}}`, `{"n":5,"s":"a"}`, false, []results.Kind{results.Mismatch}, selfNot},
		{"an expression that accepts", `{name: f, arguments: {n: 5, s: a}, rules: {n: {expr: "actual < 9"}}}`, `{"n":5,"s":"a"}`, true, nil, selfNot},
		{"spelt otherwise, so judged in full", `{name: f, arguments: {n: 5, s: a}, rules: {n: {type: integer}}}`, `{"n":5.0,"s":"a"}`, false, []results.Kind{results.Mismatch}, selfUnknown},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := loadWith(t, "version: 1\n"+tools+"cases:\n  - id: t\n    expected: "+tc.call+"\n",
				Options{Extensions: dsl.NewCompiler(dsl.Options{}).Extensions()})
			resp := mustParse(t, `[{"name":"f","arguments":`+tc.response+`}]`)
			for range 2 {
				r := e.newScorer().Score(0, resp)
				if r.Pass != tc.pass || !slices.Equal(kinds(r), tc.kinds) {
					t.Fatalf("pass=%v kinds=%v, want pass=%v kinds=%v\n%s", r.Pass, kinds(r), tc.pass, tc.kinds, r.AppendJSON(nil))
				}
			}
			if got := e.cases[0].expected[0].itself.Load(); got != tc.self {
				t.Errorf("itself = %d, want %d", got, tc.self)
			}
		})
	}
}

// A comparator decides each time: a plugin may keep state or fail, so an
// identical call is still put to it.
func TestIdenticalCallStillAsksComparators(t *testing.T) {
	cmp := &countingEqual{}
	e := loadWith(t, `version: 1
cases:
  - id: t
    expected: {name: f, arguments: {x: 1}, rules: {x: {plugin: count.eq}}}
`, Options{Extensions: rules.Extensions{Plugin: func(string, value.Value) (rules.Comparator, error) { return cmp, nil }}})
	resp := mustParse(t, `[{"name":"f","arguments":{"x":1}}]`)
	for range 3 {
		if r := e.newScorer().Score(0, resp); !r.Pass {
			t.Fatalf("fails: %s", r.AppendJSON(nil))
		}
	}
	if cmp.n != 3 {
		t.Errorf("the comparator was asked %d times for 3 scorings", cmp.n)
	}
}

// Identical calls at the contract's corners pass or fail as the contract
// says, the first time (judged in full) and the second (as the expected
// arguments against themselves): a null counted as absent with a default,
// no arguments at all, integers past float64's precision, Unicode under
// case folding, and the calls beside them in superset and subset cases.
func TestIdenticalCallCorners(t *testing.T) {
	for _, tc := range []struct {
		name, suite, response string
		pass                  bool
		kinds                 []results.Kind
	}{
		{"null with default, null_is_missing",
			`{id: t, null_is_missing: true, expected: {name: f, arguments: {a: 1, u: null}, rules: {u: {default: c}}}}`,
			`[{"name":"f","arguments":{"a":1,"u":null}}]`, true, nil},
		{"no arguments", `{id: t, expected: {name: f, arguments: {}, rules: {"*": case_insensitive}}}`,
			`[{"name":"f","arguments":{}}]`, true, nil},
		{"a large integer, identical", `{id: t, expected: {name: f, arguments: {n: 9007199254740993}, rules: {n: numeric}}}`,
			`[{"name":"f","arguments":{"n":9007199254740993}}]`, true, nil},
		{"a large integer, one off", `{id: t, expected: {name: f, arguments: {n: 9007199254740993}, rules: {n: numeric}}}`,
			`[{"name":"f","arguments":{"n":9007199254740992}}]`, false, []results.Kind{results.Mismatch}},
		{"Unicode, identical", `{id: t, expected: {name: f, arguments: {s: "Straße"}, rules: {s: case_insensitive}}}`,
			`[{"name":"f","arguments":{"s":"Straße"}}]`, true, nil},
		{"Unicode, folded", `{id: t, expected: {name: f, arguments: {s: "Straße"}, rules: {s: case_insensitive}}}`,
			`[{"name":"f","arguments":{"s":"STRASSE"}}]`, true, nil},
		{"superset: the identical call and another", `{id: t, calls: superset, expected: [{name: f, arguments: {a: [1, 2]}, rules: {a: unordered}}]}`,
			`[{"name":"g","arguments":{}},{"name":"f","arguments":{"a":[1,2]}}]`, true, nil},
		{"subset: the identical call alone", `{id: t, calls: subset, expected: [{name: f, arguments: {a: 1}, rules: {a: numeric}}, {name: g, arguments: {b: 2}, rules: {b: numeric}}]}`,
			`[{"name":"f","arguments":{"a":1}}]`, true, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := load(t, "version: 1\ncases:\n  - "+tc.suite+"\n")
			resp := mustParse(t, tc.response)
			for range 2 {
				r := e.newScorer().Score(0, resp)
				if r.Pass != tc.pass || !slices.Equal(kinds(r), tc.kinds) {
					t.Fatalf("pass=%v kinds=%v, want pass=%v kinds=%v\n%s", r.Pass, kinds(r), tc.pass, tc.kinds, r.AppendJSON(nil))
				}
			}
			// The shortcut was asked exactly where an actual call is
			// identical to the first expected one.
			identical := false
			for _, c := range resp.Elems() {
				a, _ := c.Get("arguments")
				identical = identical || jsonv.Identical(a, e.cases[0].expected[0].args)
			}
			if got := e.cases[0].expected[0].itself.Load(); (got == selfPasses) != identical {
				t.Errorf("itself = %d with an identical call %v", got, identical)
			}
		})
	}
}
