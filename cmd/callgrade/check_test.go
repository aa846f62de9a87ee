package main

import (
	"strings"
	"testing"
)

// check warns of expected calls that can never pass and of an empty
// suite, exits 0 with warnings, and 2 with --strict.
func TestCheckWarnings(t *testing.T) {
	dir := t.TempDir()
	suite := writeFile(t, dir, "w.yaml", `version: 1
tools:
  - name: get_weather
    parameters: {type: object, properties: {city: {type: string}, days: {type: integer, maximum: 14}}, required: [city]}
cases:
  - {id: a, expected: {name: get_wether, arguments: {city: X}}}
  - {id: b, expected: {name: get_weather, arguments: {city: X, days: 30}}}
  - {id: c, expected: {name: get_weather, arguments: {days: 3}}}
  - {id: d, expected: {name: get_weather, arguments: {city: X}}, alternatives: [[{name: get_weather, arguments: {city: 5}}]]}
  - {id: e, expected: {name: get_weather, arguments: {city: X, days: 2}}}
  - {id: f, tools: [], expected: {name: anything, arguments: {}}}
`)
	empty := writeFile(t, dir, "empty.yaml", "version: 1\ncases: []\n")
	want := []string{
		`w.yaml: cases[0].expected[0] (case a): the expected call names tool "get_wether", which the case's tools do not define`,
		`w.yaml: cases[1].expected[0].arguments.days (case b): the expected arguments violate the schema of tool get_weather (maximum: got 30, want 14): an actual call equal to them cannot pass`,
		`w.yaml: cases[2].expected[0].arguments (case c): the expected arguments violate the schema of tool get_weather (missing property 'city')`,
		`w.yaml: cases[3].alternatives[0][0].arguments.city (case d): the expected arguments violate the schema of tool get_weather (got number, want string)`,
		`empty.yaml: the suite has no cases`,
	}
	r := runCLI(t, "check", suite, empty)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, w := range want {
		if !strings.Contains(r.stderr, "warning: "+dir+"/"+w) {
			t.Errorf("stderr lacks %q:\n%s", w, r.stderr)
		}
	}
	if n := strings.Count(r.stderr, "warning: "); n != len(want) {
		t.Errorf("%d warnings, want %d:\n%s", n, len(want), r.stderr)
	}
	for _, w := range []string{"w.yaml: 6 cases, 4 warnings", "empty.yaml: 0 cases, 1 warning"} {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("stdout lacks %q:\n%s", w, r.stdout)
		}
	}
	r = runCLI(t, "check", "--strict", suite)
	if r.code != 2 || !strings.Contains(r.stderr, "4 warnings, and --strict makes them errors") {
		t.Errorf("--strict: exit %d: %s", r.code, r.stderr)
	}
	r = runCLI(t, "check", "--strict", "examples/weather/suite.yaml", "examples/dsl/suite.yaml")
	if r.code != 0 {
		t.Errorf("--strict on the examples: exit %d: %s", r.code, r.stderr)
	}
}
