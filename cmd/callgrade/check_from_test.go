package main

import (
	"strings"
	"testing"
)

// check warns of a `from` reference that no run that passes resolves,
// with the file and the key of the rule, and --strict makes it an error.
func TestCheckFromWarnings(t *testing.T) {
	dir := t.TempDir()
	suite := writeFile(t, dir, "r.yaml", `version: 1
tools: [{name: find_order}, {name: refund}]
cases:
  - id: a
    calls: in_order
    steps:
      - {name: find_order}
      - {name: refund, rules: {order_id: {from: "find_ordr.result.id"}}}
  - id: b
    steps:
      - {name: find_order}
      - {name: refund, rules: {order_id: {from: "steps[1].result.id"}}}
`)
	want := []string{
		`r.yaml: cases[0].steps[1].rules.order_id (case a): from: reference "find_ordr.result.id" can never resolve in a run that passes: the case's tools do not define find_ordr, and no expected call names it`,
		`r.yaml: cases[1].steps[1].rules.order_id (case b): from: reference "steps[1].result.id" can never resolve in a run that passes: it has at most 1 step before this one (calls: ordered)`,
	}
	r := runCLI(t, "check", suite)
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
	if r = runCLI(t, "check", "--strict", suite); r.code != 2 {
		t.Errorf("--strict: exit %d: %s", r.code, r.stderr)
	}
	if r = runCLI(t, "check", "--strict", "examples/agent/suite.yaml"); r.code != 0 {
		t.Errorf("--strict on the agent example: exit %d: %s", r.code, r.stderr)
	}
}
