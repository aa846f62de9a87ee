package suite

import (
	"strings"
	"testing"
)

// TestAnyCallsKeys: calls: any and min_calls read, from a case or from
// defaults, in YAML and in JSON (which the fast decoder leaves to the
// general one when it must).
func TestAnyCallsKeys(t *testing.T) {
	tests := []struct {
		name, file, src string
		mode            CallMatch // the case's own mode
		expected        int       // len(Expected), -1 for nil
		minCalls        int
		isRun           bool
	}{
		{"any without expected", "s.yaml", "cases:\n  - id: a\n    calls: any\n", CallsAny, -1, 0, false},
		{"any with expected []", "s.yaml", "cases:\n  - id: a\n    calls: any\n    expected: []\n", CallsAny, 0, 0, false},
		{"any with steps []", "s.yaml", "cases:\n  - id: a\n    calls: any\n    steps: []\n", CallsAny, -1, 0, true},
		{"any with min_calls", "s.yaml", "cases:\n  - id: a\n    calls: any\n    min_calls: 2\n", CallsAny, -1, 2, false},
		{"min_calls in ordered", "s.yaml", "cases:\n  - id: a\n    expected: {name: f}\n    min_calls: 1\n", "", 1, 1, false},
		{"defaults any", "s.yaml", "defaults: {calls: any}\ncases:\n  - id: a\n    min_calls: 1\n", "", -1, 1, false},
		{"defaults any, expected []", "s.json", `{"defaults": {"calls": "any"}, "cases": [{"id": "a", "expected": []}]}`, "", 0, 0, false},
		{"JSON any", "s.json", `{"cases": [{"id": "a", "calls": "any", "min_calls": 3}]}`, CallsAny, -1, 3, false},
		{"any and final", "s.yaml", "cases:\n  - id: a\n    calls: any\n    final: {regex: done}\n", CallsAny, -1, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := load(memFiles{tt.file: []byte(tt.src)}, []string{tt.file})
			if err != nil {
				t.Fatal(err)
			}
			c := s.Cases[0]
			n := len(c.Expected)
			if c.Expected == nil {
				n = -1
			}
			minCalls := 0
			if c.Run != nil {
				minCalls = c.Run.MinCalls
			}
			if c.Calls != tt.mode || n != tt.expected || minCalls != tt.minCalls || c.IsRun() != tt.isRun {
				t.Errorf("calls %q, expected %d, min_calls %d, run %v; want %q, %d, %d, %v",
					c.Calls, n, minCalls, c.IsRun(), tt.mode, tt.expected, tt.minCalls, tt.isRun)
			}
		})
	}
}

func TestAnyCallsErrors(t *testing.T) {
	loc := func(file, key string) Loc { return Loc{File: file, Key: key, Case: "a"} }
	const superset = "to require these calls and allow any others, write calls: superset"
	tests := []struct {
		name, file, src string
		want            []want
	}{
		{"any with expected", "s.yaml", "cases:\n  - id: a\n    calls: any\n    expected: [{name: f}]\n",
			[]want{{loc("s.yaml", "cases[0].expected"), "calls: any expects no particular call, so expected must be empty or left out; " + superset}}},
		{"any with one expected call", "s.yaml", "cases:\n  - id: a\n    calls: any\n    expected: {name: f}\n",
			[]want{{loc("s.yaml", "cases[0].expected"), "calls: any expects no particular call"}}},
		{"any with steps", "s.yaml", "cases:\n  - id: a\n    calls: any\n    steps: [{name: f}]\n",
			[]want{{loc("s.yaml", "cases[0].steps"), "calls: any expects no particular call, so steps must be empty or left out; " + superset}}},
		{"any with alternatives", "s.yaml", "cases:\n  - id: a\n    calls: any\n    expected: []\n    alternatives: [[{name: f}]]\n",
			[]want{{loc("s.yaml", "cases[0].alternatives"), "so alternatives must be empty or left out"}}},
		{"defaults any with expected", "s.yaml", "defaults: {calls: any}\ncases:\n  - id: a\n    expected: [{name: f}]\n",
			[]want{{loc("s.yaml", "cases[0].expected"), "calls: any (from defaults.calls) expects no particular call, so expected must be empty or left out"}}},
		{"defaults any with expected, JSON", "s.json", `{"defaults": {"calls": "any"}, "cases": [{"id": "a", "expected": [{"name": "f"}]}]}`,
			[]want{{loc("s.json", "cases[0].expected"), "calls: any (from defaults.calls) expects no particular call"}}},
		{"a case's mode wins over defaults any", "s.yaml", "defaults: {calls: any}\ncases:\n  - id: a\n    calls: ordered\n",
			[]want{{loc("s.yaml", "cases[0].expected"), "required key is missing"}}},
		{"min_calls 0", "s.yaml", "cases:\n  - id: a\n    calls: any\n    min_calls: 0\n",
			[]want{{loc("s.yaml", "cases[0].min_calls"), "must be a whole number >= 1, not 0"}}},
		{"min_calls -1", "s.yaml", "cases:\n  - id: a\n    calls: any\n    min_calls: -1\n",
			[]want{{loc("s.yaml", "cases[0].min_calls"), "must be a whole number >= 1, not -1"}}},
		{"min_calls x", "s.yaml", "cases:\n  - id: a\n    calls: any\n    min_calls: x\n",
			[]want{{loc("s.yaml", "cases[0].min_calls"), "must be a whole number >= 1, not a string"}}},
		{"min_calls fraction", "s.yaml", "cases:\n  - id: a\n    calls: any\n    min_calls: 1.5\n",
			[]want{{loc("s.yaml", "cases[0].min_calls"), "must be a whole number >= 1, not 1.5"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := load(memFiles{tt.file: []byte(tt.src)}, []string{tt.file})
			checkProblems(t, err, tt.want)
		})
	}
}

// TestAnyCallsErrorText: the whole line a user reads names the file, the
// key path and the case.
func TestAnyCallsErrorText(t *testing.T) {
	_, err := load(memFiles{"s.yaml": []byte("cases:\n  - id: relevance_1\n    calls: any\n    expected: [{name: f}]\n")}, []string{"s.yaml"})
	want := "s.yaml: cases[0].expected (case relevance_1): calls: any expects no particular call, so expected must be empty or left out; to require these calls and allow any others, write calls: superset"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
	if err != nil && strings.Contains(err.Error(), "\n") {
		t.Errorf("more than one problem: %v", err)
	}
}

// TestAnyCallsSchema: the schema accepts what the loader accepts of calls:
// any and min_calls, and rejects what it rejects.
func TestAnyCallsSchema(t *testing.T) {
	s := suiteSchema(t)
	tests := []struct {
		suite string
		ok    bool
	}{
		{`{cases: [{id: a, calls: any}]}`, true},
		{`{cases: [{id: a, calls: any, expected: [], min_calls: 1}]}`, true},
		{`{defaults: {calls: any}, cases: [{id: a, min_calls: 1}]}`, true},
		{`{defaults: {calls: any}, cases: [{id: a, expected: [], calls: null}]}`, true},
		{`{cases: [{id: a, expected: {name: f}, min_calls: 2}]}`, true},
		{`{cases: [{id: a}]}`, false},
		{`{defaults: {calls: any}, cases: [{id: a, calls: ordered}]}`, false},
		{`{cases: [{id: a, calls: any, expected: [{name: f}]}]}`, false},
		{`{cases: [{id: a, calls: any, expected: {name: f}}]}`, false},
		{`{cases: [{id: a, calls: any, steps: [{name: f}]}]}`, false},
		{`{cases: [{id: a, calls: any, alternatives: [[]]}]}`, false},
		{`{cases: [{id: a, calls: any, min_calls: 0}]}`, false},
		{`{cases: [{id: a, calls: any, min_calls: x}]}`, false},
	}
	for _, tt := range tests {
		loadErr := loadAndCompile(t, tt.suite)
		schemaErr := s.Validate(docOf(t, "s.yaml", []byte(tt.suite)))
		if (loadErr == nil) != tt.ok {
			t.Errorf("%s: the loader says %v, want ok %v", tt.suite, loadErr, tt.ok)
		}
		if (schemaErr == nil) != tt.ok {
			t.Errorf("%s: the schema says %v, want ok %v", tt.suite, schemaErr, tt.ok)
		}
	}
}
