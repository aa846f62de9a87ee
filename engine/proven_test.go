package engine

import (
	"strings"
	"testing"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/internal/response"
	"github.com/callgrade/callgrade/internal/schema"
)

// fTool begins the tools of a suite with one tool, f, whose parameters
// are an object: its properties follow.
const fTool = "tools:\n  - name: f\n    parameters:\n      type: object\n      properties:\n"

// TestProven says where the shortcuts of compiledCall.prove apply, in a
// case ruled by its tool's schema alone: Same for a right call written as
// the schema lets it be written, Valid for a valid call that differs.
// Everywhere else the comparison and the validation decide (and
// FuzzProven holds the shortcuts to them where they do apply).
func TestProven(t *testing.T) {
	const tool = fTool + `        n: {type: integer, minimum: 1}
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
		want                schema.Proof
	}{
		{"equal", "", `{"n":2,"k":"x","loc":{"lat":1.5}}`, schema.Same},
		{"numbers as strings", "", `{"n":"2","k":"x","loc":{"lat":" 1.50 "}}`, schema.Same},
		{"default given", "", `{"n":2,"k":"x","loc":{"lat":1.5},"unit":"c"}`, schema.Same},
		{"another value", "", `{"n":3,"k":"x","loc":{"lat":1.5}}`, schema.Valid},
		{"another value as a string", "", `{"n":" 3","k":"x","loc":{"lat":1.5}}`, schema.Valid},
		{"another default", "", `{"n":2,"k":"x","loc":{"lat":1.5},"unit":"f"}`, schema.Valid},
		{"extra member", "", `{"n":2,"k":"x","loc":{"lat":1.5},"tags":[]}`, schema.Valid},
		{"unknown member", "", `{"n":2,"k":"x","loc":{"lat":1.5},"zz":[1]}`, schema.Valid},
		{"optional member left out", "", `{"n":2,"k":"x"}`, schema.Valid},
		{"null where the schema allows it", "", `{"n":2,"k":"x","loc":null}`, schema.Valid},
		{"nested value", "", `{"n":2,"k":"x","loc":{"lat":-7,"lon":"e"}}`, schema.Valid},
		{"required default left out", "", `{"n":2,"loc":{"lat":1.5}}`, schema.Unproven},
		{"not a number", "", `{"n":"two","k":"x","loc":{"lat":1.5}}`, schema.Unproven},
		{"below the minimum", "", `{"n":0,"k":"x","loc":{"lat":1.5}}`, schema.Unproven},
		{"not in the enum", "", `{"n":2,"k":"x","unit":"k"}`, schema.Unproven},
		{"nested not a number", "", `{"n":2,"k":"x","loc":{"lat":"north"}}`, schema.Unproven},
		{"an element not a number", "", `{"n":2,"k":"x","tags":[1,"x"]}`, schema.Unproven},
		{"a rule of the suite's", "defaults: {rules: {k: case_insensitive}}\n", `{"n":"2","k":"x","loc":{"lat":1.5}}`, schema.Unproven},
		{"null_is_missing", "defaults: {null_is_missing: true}\n", `{"n":"2","k":"x","loc":{"lat":1.5}}`, schema.Unproven},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := load(t, "version: 1\n"+tc.extra+tool+`cases:
  - {id: a, expected: {name: f, arguments: {n: 2, k: x, loc: {lat: 1.5}}}}
`)
			ec := &e.cases[0].expected[0]
			a := mustParse(t, tc.actual)
			if got, _ := ec.prove(&response.Call{Name: "f", Args: a}, nil); got != tc.want {
				t.Errorf("prove(%s) = %v, want %v", tc.actual, got, tc.want)
			}
			if err := agrees(ec, a, tc.want); err != nil {
				t.Error(err)
			}
		})
	}
	// The benchmark's call (BenchmarkScoreTools) takes the shortcut.
	e := load(t, toolsSuite)
	calls, _, err := response.Options{}.ReadCalls(mustParse(t, toolsResponse), format.Auto)
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := e.cases[0].expected[0].prove(&calls[0], nil); p != schema.Same {
		t.Errorf("the benchmark's call is not proven: %s", strings.TrimSpace(calls[0].Args.String()))
	}
}

// The shortcut's corners, against the contract's words: numbers by their
// exact decimal value whatever their size (a numeric string is its number
// where the schema says number), Unicode keys, nested lists, an empty
// list, a null where the schema allows one. The full comparison and
// validation agree on each.
func TestProvenCorners(t *testing.T) {
	e := load(t, "version: 1\n"+fTool+`        big: {type: number}
        città: {type: integer}
        rows: {type: array, items: {type: array, items: {type: number}}}
        tags: {type: array, items: {type: string}}
        note: {anyOf: [{type: string}, {type: "null"}], default: null}
      required: [big, città, rows, tags]
cases:
  - {id: a, expected: {name: f, arguments: {big: 1e400, città: 3, rows: [[1, 2], [3]], tags: []}}}
`)
	proveEach(t, &e.cases[0].expected[0], []proofCase{
		{`{"big":"1e400","città":"3","rows":[["1",2.0],[" 3 "]],"tags":[]}`, schema.Same},
		{`{"big":"10e399","città":3,"rows":[[1,2],[3]],"tags":[],"note":null}`, schema.Same},
		{`{"big":"1e401","città":3,"rows":[[1,2],[3]],"tags":[]}`, schema.Valid},
		{`{"big":-1e-400,"città":-3,"rows":[[1,2],[3]],"tags":[]}`, schema.Valid},
		{`{"big":1e400,"città":3,"rows":[[1,2],[3],[]],"tags":[]}`, schema.Valid},
		{`{"big":1e400,"città":3,"rows":[[1,2],[3,"4"]],"tags":[]}`, schema.Valid},
		{`{"big":1e400,"città":3,"rows":[[1,2],[3]],"tags":["日本"]}`, schema.Valid},
		{`{"big":1e400,"città":3,"rows":[[1,2],[3]],"tags":[],"note":"x"}`, schema.Valid},
		{`{"big":1e400,"città":"3.5","rows":[[1,2],[3]],"tags":[]}`, schema.Unproven},
		{`{"big":1e400,"città":1e400,"rows":[[1,2],[3]],"tags":[]}`, schema.Valid},
		{`{"big":1e400,"citta":3,"rows":[[1,2],[3]],"tags":[]}`, schema.Unproven},
		{`{"big":1e400,"città":3,"rows":[[1,2],[3,"x"]],"tags":[]}`, schema.Unproven},
		{`{"big":1e400,"città":3,"rows":[[1,2],[3]],"tags":[null]}`, schema.Unproven},
		{`{"big":1e400,"città":3,"rows":[[1,2],[3]],"tags":[],"note":1}`, schema.Unproven},
		{`{"big":1e400,"città":3,"rows":[[1,2],[3]]}`, schema.Unproven},
	})
}

// A numeric string is its number only where the schema's type does not
// also allow strings: there it is a string, held to maxLength, so that
// "5" for an expected 5 is neither the same nor valid.
func TestProvenStringInUnion(t *testing.T) {
	e := load(t, "version: 1\n"+fTool+`        tag: {type: [integer, string], maxLength: 0}
cases:
  - {id: a, expected: {name: f, arguments: {tag: 5}}}
`)
	proveEach(t, &e.cases[0].expected[0], []proofCase{
		{`{"tag":5}`, schema.Same},
		{`{"tag":6}`, schema.Valid},
		{`{"tag":"5"}`, schema.Unproven},
		{`{"tag":""}`, schema.Valid},
		{`{"tag":"x"}`, schema.Unproven},
	})
}

// Below the root, a member whose schema the shortcut does not read (an
// anyOf that is not the nullable idiom) is the same when it is equal, and
// validated whole when it is not.
func TestProvenUnreadSchema(t *testing.T) {
	e := load(t, "version: 1\n"+fTool+`        n: {type: integer}
        shape:
          anyOf:
            - {type: object, properties: {r: {type: number}}, required: [r]}
            - {type: object, properties: {w: {type: number}}, required: [w]}
cases:
  - {id: a, expected: {name: f, arguments: {n: 1, shape: {r: 1}}}}
`)
	proveEach(t, &e.cases[0].expected[0], []proofCase{
		{`{"n":"1","shape":{"r":1}}`, schema.Same},
		{`{"n":1,"shape":{"r":2}}`, schema.Valid},
		{`{"n":1,"shape":{"w":2}}`, schema.Valid},
		{`{"n":1,"shape":{"r":"x"}}`, schema.Unproven},
	})
}

// proofCase is an actual call's arguments and what prove should find.
type proofCase struct {
	actual string
	want   schema.Proof
}

// proveEach checks prove on each case, and that the comparison and the
// validation it skips say the same: where it proves less than Same, the
// full path finds a difference or a violation.
func proveEach(t *testing.T, ec *compiledCall, cases []proofCase) {
	t.Helper()
	for _, tc := range cases {
		a := mustParse(t, tc.actual)
		if got, _ := ec.prove(&response.Call{Name: "f", Args: a}, nil); got != tc.want {
			t.Errorf("prove(%s) = %v, want %v", tc.actual, got, tc.want)
		}
		if err := agrees(ec, a, tc.want); err != nil {
			t.Error(err)
		}
		if err := fullPass(ec, a); err == nil && tc.want != schema.Same {
			t.Errorf("%s: the full path passes, but prove says %v", tc.actual, tc.want)
		}
	}
}
