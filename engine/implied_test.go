package engine

import "testing"

// A wildcard rule the author wrote holds on the parameters a tool's schema
// types: what the schema implies at a literal path gives way to it (spec
// 1.2, "an explicit rule on a path overrides what the schema implies
// there"), lending it the schema's numeric and default.
func TestWildcardRuleOverSchema(t *testing.T) {
	e := load(t, wildcardSuite)
	tests := []struct {
		id, resp string
		pass     bool
	}{
		{"one_of", `[{"name":"f","arguments":{"n":99}}]`, false},
		{"one_of", `[{"name":"f","arguments":{"n":"2"}}]`, true},
		{"ignore", `[{"name":"f","arguments":{"n":7}}]`, true},
		{"fold", `[{"name":"f","arguments":{"u":"CELSIUS"}}]`, true},
		{"fold", `[{"name":"f","arguments":{}}]`, true},
		{"fold", `[{"name":"f","arguments":{"u":"kelvin"}}]`, false},
	}
	for _, tt := range tests {
		i, ok := e.Lookup(tt.id)
		if !ok {
			t.Fatalf("no case %s", tt.id)
		}
		if r := e.newScorer().Score(i, mustParse(t, tt.resp)); r.Pass != tt.pass {
			t.Errorf("%s %s: pass %v, want %v: %+v", tt.id, tt.resp, r.Pass, tt.pass, r.Diffs)
		}
	}
}

// wildcardSuite has a tool with a number parameter and a defaulted
// string one, and cases whose wildcard rules reach both.
const wildcardSuite = `
version: 1
tools:
  - name: f
    parameters:
      type: object
      properties:
        n: {type: number}
        u: {type: string, default: celsius}
cases:
  - {id: one_of, expected: {name: f, arguments: {}, rules: {"*": {one_of: [1, 2]}}}}
  - {id: ignore, expected: {name: f, arguments: {n: 1}}, use: [loose]}
  - {id: fold, expected: {name: f, arguments: {u: celsius}, rules: {"*": case_insensitive}}}
rulesets:
  loose: {"*": ignore}
`
