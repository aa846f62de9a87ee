package engine

import (
	"strings"
	"testing"

	"github.com/callgrade/callgrade/response"
	"github.com/callgrade/callgrade/value"
)

// TestProven says where the shortcut of compiledCall.proven applies: a
// right call written as the schema lets it be written, in a case ruled by
// its tool's schema alone. Everywhere else the comparison decides (and
// FuzzProven holds the shortcut to it where it does apply).
func TestProven(t *testing.T) {
	const tool = `tools:
  - name: f
    parameters:
      type: object
      properties:
        n: {type: integer, minimum: 1}
        unit: {type: string, enum: [c, f], default: c}
        loc:
          anyOf:
            - {$ref: "#/$defs/Loc"}
            - {type: "null"}
        tags: {type: array, items: {type: number}}
        k: {type: string, default: x}
      required: [n, k]
      $defs:
        Loc: {type: object, properties: {lat: {type: number}}}
`
	for _, tc := range []struct {
		name, extra, actual string
		want                bool
	}{
		{"equal", "", `{"n":2,"k":"x","loc":{"lat":1.5}}`, true},
		{"numbers as strings", "", `{"n":"2","k":"x","loc":{"lat":" 1.50 "}}`, true},
		{"default given", "", `{"n":2,"k":"x","loc":{"lat":1.5},"unit":"c"}`, true},
		{"another value", "", `{"n":3,"k":"x","loc":{"lat":1.5}}`, false},
		{"another default", "", `{"n":2,"k":"x","loc":{"lat":1.5},"unit":"f"}`, false},
		{"required default left out", "", `{"n":2,"loc":{"lat":1.5}}`, false},
		{"not a number", "", `{"n":"two","k":"x","loc":{"lat":1.5}}`, false},
		{"extra member", "", `{"n":2,"k":"x","loc":{"lat":1.5},"tags":[]}`, false},
		{"a rule of the suite's", "defaults: {rules: {k: case_insensitive}}\n", `{"n":"2","k":"x","loc":{"lat":1.5}}`, false},
		{"null_is_missing", "defaults: {null_is_missing: true}\n", `{"n":"2","k":"x","loc":{"lat":1.5}}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := load(t, "version: 1\n"+tc.extra+tool+`cases:
  - {id: a, expected: {name: f, arguments: {n: 2, k: x, loc: {lat: 1.5}}}}
`)
			ec := &e.cases[0].expected[0]
			if got := ec.proven(&response.Call{Name: "f", Args: mustParse(t, tc.actual)}); got != tc.want {
				t.Errorf("proven(%s) = %v, want %v", tc.actual, got, tc.want)
			}
		})
	}
	// The benchmark's call (BenchmarkScoreTools) takes the shortcut.
	e := load(t, toolsSuite)
	calls, _, err := response.Extract(mustParse(t, toolsResponse), response.Auto, value.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if !e.cases[0].expected[0].proven(&calls[0]) {
		t.Errorf("the benchmark's call is not proven: %s", strings.TrimSpace(calls[0].Args.String()))
	}
}

// The shortcut's corners, against the contract's words: numbers by their
// exact decimal value whatever their size (a numeric string is its number
// where the schema says number), Unicode keys, nested lists, an empty
// list, a null where the schema allows one. The full comparison and
// validation agree on each.
func TestProvenCorners(t *testing.T) {
	e := load(t, `version: 1
tools:
  - name: f
    parameters:
      type: object
      properties:
        big: {type: number}
        città: {type: integer}
        rows: {type: array, items: {type: array, items: {type: number}}}
        tags: {type: array, items: {type: string}}
        note: {anyOf: [{type: string}, {type: "null"}], default: null}
      required: [big, città, rows, tags]
cases:
  - {id: a, expected: {name: f, arguments: {big: 1e400, città: 3, rows: [[1, 2], [3]], tags: []}}}
`)
	ec := &e.cases[0].expected[0]
	for _, tc := range []struct {
		actual string
		want   bool
	}{
		{`{"big":"1e400","città":"3","rows":[["1",2.0],[" 3 "]],"tags":[]}`, true},
		{`{"big":"10e399","città":3,"rows":[[1,2],[3]],"tags":[],"note":null}`, true},
		{`{"big":"1e401","città":3,"rows":[[1,2],[3]],"tags":[]}`, false},
		{`{"big":1e400,"città":"3.5","rows":[[1,2],[3]],"tags":[]}`, false},
		{`{"big":1e400,"citta":3,"rows":[[1,2],[3]],"tags":[]}`, false},
		{`{"big":1e400,"città":3,"rows":[[1,2],[3],[]],"tags":[]}`, false},
		{`{"big":1e400,"città":3,"rows":[[1,2],[3]],"tags":[""]}`, false},
		{`{"big":1e400,"città":3,"rows":[[1,2],[3]],"tags":[],"note":"x"}`, false},
		{`{"big":1e400,"città":3,"rows":[[1,2],[3]]}`, false},
	} {
		a := mustParse(t, tc.actual)
		if got := ec.proven(&response.Call{Name: "f", Args: a}); got != tc.want {
			t.Errorf("proven(%s) = %v, want %v", tc.actual, got, tc.want)
		}
		// Proven or not, the comparison and the validation it skips say
		// the same.
		if err := fullPass(ec, a); (err == nil) != tc.want {
			t.Errorf("%s: the full path says %v, want pass %v", tc.actual, err, tc.want)
		}
	}
}
