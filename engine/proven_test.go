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
