package main

import (
	"strings"
	"testing"
)

// TestDSLExample scores examples/dsl, whose cases use expressions and
// asserts, and checks each verdict and the diff that explains it.
func TestDSLExample(t *testing.T) {
	r := runCLI(t, "score", "--suite", "examples/dsl/suite.yaml", "--responses", "examples/dsl/responses.jsonl", "--quiet")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	want := map[string]string{ // id -> "" for a pass, else the kinds of its diffs
		"thermostat-close-enough": "",
		"thermostat-too-far":      "mismatch",
		"hotel-dates":             "",
		"hotel-dates-reversed":    "mismatch mismatch assert_failed",
		"order":                   "",
		"order-amount-rounded":    "mismatch",
		"reminder-bad-type":       "rule_error",
	}
	lines := resultLines(t, r.stdout)
	if len(lines) != len(want) {
		t.Fatalf("got %d result lines, want %d", len(lines), len(want))
	}
	for _, l := range lines {
		id := l["id"].(string)
		var kinds []string
		for _, d := range l["diffs"].([]any) {
			kinds = append(kinds, d.(map[string]any)["kind"].(string))
		}
		if got := strings.Join(kinds, " "); got != want[id] || (got == "") != l["pass"].(bool) {
			t.Errorf("%s: pass %v, diffs %q; want %q", id, l["pass"], got, want[id])
		}
	}
}

func TestCheckClean(t *testing.T) {
	r := runCLI(t, "check", "examples/dsl/suite.yaml", "examples/weather/suite.yaml")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{"examples/dsl/suite.yaml: 7 cases, no problems", "examples/weather/suite.yaml:"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
}

// check reports every problem of every suite, with the file, the key path,
// the case and, for expressions, expr's line and column with a caret.
func TestCheckReportsEveryProblem(t *testing.T) {
	dir := t.TempDir()
	bad := writeFile(t, dir, "bad.yaml", `version: 1
cases:
  - id: a
    expected:
      name: f
      arguments: {t: 1}
      rules:
        t: {expr: "abs(acutal - expected) <= 0.5"}
        u: {regex: "("}
        a..b: exact
      assert: ["now() > 0"]
`)
	syntax := writeFile(t, dir, "syntax.yaml", "cases:\n  - id: b\n    expectd: {}\n")
	good := writeFile(t, dir, "good.yaml", "cases:\n  - {id: c, expected: {name: f, rules: {x: {expr: \"actual == expected\"}}}}\n")
	r := runCLI(t, "check", bad, syntax, good)
	if r.code != 2 {
		t.Fatalf("exit %d, want 2:\n%s", r.code, r.stderr)
	}
	for _, want := range []string{
		bad + ": cases[0].expected[0].rules.t (case a): expr: line 1, column 5: unknown name acutal\n | abs(acutal - expected) <= 0.5\n | ....^",
		bad + ": cases[0].expected[0].rules.u (case a): regex:",
		bad + ": cases[0].expected[0].rules.a..b (case a): path \"a..b\"",
		bad + ": cases[0].expected[0].assert[0] (case a): assert: line 1, column 1: now() is not available",
		syntax + ": cases[0].expectd (case b): unknown key",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if !strings.Contains(r.stdout, good+": 1 case, no problems") {
		t.Errorf("stdout: %s", r.stdout)
	}
	// Layered files are checked as one suite.
	base := writeFile(t, dir, "base.yaml", "rulesets:\n  near: {t: {expr: \"abs(actual - expected) < 1\"}}\ncases: []\n")
	team := writeFile(t, dir, "team.yaml", "cases:\n  - {id: d, use: [near], expected: {name: f, arguments: {t: 1}}}\n")
	if r := runCLI(t, "check", "--suite", base, "--suite", team); r.code != 0 {
		t.Errorf("layered: exit %d: %s", r.code, r.stderr)
	}
	if r := runCLI(t, "check", team); r.code != 2 || !strings.Contains(r.stderr, "near") {
		t.Errorf("team alone: exit %d: %s", r.code, r.stderr)
	}
	if r := runCLI(t, "check"); r.code != 2 {
		t.Errorf("no suite: exit %d", r.code)
	}
}
