package main

import (
	"path/filepath"
	"strconv"
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

// warnedSuite has two calls check warns of: a `from` to a step no run
// has, and a call of a tool the suite does not declare.
const warnedSuite = `version: 1
tools: [{name: find_order}, {name: refund}]
cases:
  - id: a
    steps:
      - {name: find_order}
      - {name: refund, rules: {order_id: {from: "find_ordr.result.id"}}}
  - {id: b, expected: {name: get_wether}}
  - {id: c, expected: {name: refund}}
`

// score prints the warnings check gives, in the same words, once at the
// start of the run whatever the number of workers, --quiet or not.
func TestScoreWarnsAsCheck(t *testing.T) {
	dir := t.TempDir()
	suite := writeFile(t, dir, "w.yaml", warnedSuite)
	responses := writeFile(t, dir, "r.jsonl", `{"id": "c", "response": [{"name": "refund", "arguments": {}}]}`+"\n")
	check := runCLI(t, "check", suite)
	if check.code != 0 || strings.Count(check.stderr, "warning: ") != 2 {
		t.Fatalf("check: exit %d, want 0 with 2 warnings:\n%s", check.code, check.stderr)
	}
	for _, args := range [][]string{{"--workers", "1"}, {"--workers", "4"}, {"--workers", "4", "-q"}} {
		r := runCLI(t, append([]string{"score", "--suite", suite, "--responses", responses, "--out", filepath.Join(dir, "out.jsonl")}, args...)...)
		if r.code != 0 {
			t.Fatalf("%q: exit %d: %s", args, r.code, r.stderr)
		}
		if !strings.HasPrefix(r.stderr, check.stderr) {
			t.Errorf("%q: stderr does not begin with check's warnings:\n%s\nwant first:\n%s", args, r.stderr, check.stderr)
		}
		if n := strings.Count(r.stderr, "warning: "); n != 2 {
			t.Errorf("%q: %d warnings on stderr, want 2:\n%s", args, n, r.stderr)
		}
	}
}

// serve logs the same warnings once when it loads the suite.
func TestServeWarnsAsCheck(t *testing.T) {
	dir := t.TempDir()
	suite := writeFile(t, dir, "w.yaml", warnedSuite)
	check := runCLI(t, "check", suite)
	var want []string
	for _, l := range strings.Split(strings.TrimSpace(check.stderr), "\n") {
		if w, ok := strings.CutPrefix(l, "warning: "); ok {
			want = append(want, w)
		}
	}
	if len(want) != 2 {
		t.Fatalf("check: want 2 warnings:\n%s", check.stderr)
	}
	s := startServe(t, nil, "--suite", suite, "--addr", "127.0.0.1:0")
	log := s.stderr()
	if n := strings.Count(log, "level=WARN"); n != 2 {
		t.Errorf("serve logged %d warnings, want 2:\n%s", n, log)
	}
	for _, w := range want {
		if !strings.Contains(log, strconv.Quote(w)) {
			t.Errorf("serve's log lacks check's warning %q:\n%s", w, log)
		}
	}
}
