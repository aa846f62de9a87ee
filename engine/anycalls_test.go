package engine

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/results"
)

// anyTest is one verdict of a case in calls mode any or with min_calls:
// the case `t` of suite (a YAML suite with weatherTools), scored on a
// response (the calls format) or, when run is set, on a run (runOf).
type anyTest struct {
	name     string
	suite    string // the suite after its tools
	response string // a response in the calls format; "" when run is set
	run      string // a run, for runOf
	pass     bool
	score    float64
	kinds    []results.Kind
	msg      string // a message one of the diffs holds, when not ""
}

// TestAnyCallsVerdicts: the verdicts of calls: any, alone and with
// min_calls.
func TestAnyCallsVerdicts(t *testing.T) {
	const (
		anyCase     = "cases:\n  - id: t\n    calls: any\n"
		broken      = `{"name": "get_weather", "arguments": "{\"city\": "}`
		weather     = `{"name": "get_weather", "arguments": {"city": "Paris"}}`
		wrongSchema = `{"name": "get_weather", "arguments": {"city": 7}}`
	)
	checkAnyTests(t, []anyTest{
		// calls: any alone.
		{name: "any, no call", suite: anyCase, response: `[]`, pass: true, score: 1},
		{name: "any, a text answer", suite: anyCase, response: `"I cannot help"`, pass: true, score: 1},
		{name: "any, one call", suite: anyCase, response: weather, pass: true, score: 1},
		{name: "any, many calls", suite: anyCase,
			response: `[` + weather + `, {"name": "get_time", "arguments": {}}, ` + weather + `, {"name": "not_offered", "arguments": {"x": [1]}}]`,
			pass:     true, score: 1},
		{name: "any, a broken call", suite: anyCase, response: `[` + broken + `]`,
			kinds: []results.Kind{results.InvalidArguments}, msg: "arguments of get_weather"},
		{name: "any, a broken call among good ones", suite: anyCase, response: `[` + weather + `, ` + broken + `, ` + weather + `]`,
			kinds: []results.Kind{results.InvalidArguments}},
		{name: "any, a call its tool's schema rejects", suite: anyCase, response: wrongSchema,
			kinds: []results.Kind{results.Schema}},
		{name: "any, a call without a name", suite: anyCase, response: `[{"arguments": {}}]`,
			kinds: []results.Kind{results.InvalidArguments}},
		{name: "any, expected []", suite: anyCase + "    expected: []\n", response: weather, pass: true, score: 1},
		{name: "defaults.calls: any", suite: "defaults: {calls: any}\ncases:\n  - id: t\n", response: `[` + weather + `, ` + weather + `]`,
			pass: true, score: 1},
		{name: "defaults.calls: any, a case's own mode wins", suite: "defaults: {calls: any}\ncases:\n  - id: t\n    calls: ordered\n    expected: []\n",
			response: weather, kinds: []results.Kind{results.UnexpectedCall}},

		// min_calls with any.
		{name: "any + min_calls 1, no call", suite: anyCase + "    min_calls: 1\n", response: `[]`,
			kinds: []results.Kind{results.MissingCall}, msg: "expected at least 1 call, got 0"},
		{name: "any + min_calls 1, null", suite: anyCase + "    min_calls: 1\n", response: `null`,
			kinds: []results.Kind{results.MissingCall}, msg: "expected at least 1 call, got 0"},
		{name: "any + min_calls 1, one call", suite: anyCase + "    min_calls: 1\n", response: weather, pass: true, score: 1},
		{name: "any + min_calls 2, one call", suite: anyCase + "    min_calls: 2\n", response: weather,
			kinds: []results.Kind{results.MissingCall}, msg: "expected at least 2 calls, got 1"},
		{name: "any + min_calls 2, three calls", suite: anyCase + "    min_calls: 2\n", response: `[` + weather + `, ` + weather + `, ` + weather + `]`,
			pass: true, score: 1},
		{name: "any + min_calls 1, a broken call", suite: anyCase + "    min_calls: 1\n", response: `[` + broken + `]`,
			kinds: []results.Kind{results.InvalidArguments}},
		{name: "any + min_calls 1, a usable call without a name", suite: anyCase + "    min_calls: 1\n", response: `[{"name": "", "arguments": {}}]`,
			kinds: []results.Kind{results.MissingCall}, msg: "expected at least 1 call, got 0 (1 call without a name, which does not count)"},
		{name: "any + min_calls 1, [{}] in no known format", suite: anyCase + "    min_calls: 1\n", response: `[{}]`,
			kinds: []results.Kind{results.InvalidArguments}, msg: "none of them a call"},
		{name: "any + min_calls 1, [{}] in the calls format", suite: anyCase + "    min_calls: 1\n    format: calls\n", response: `[{}]`,
			kinds: []results.Kind{results.InvalidArguments, results.MissingCall}, msg: "expected at least 1 call, got 0 (1 call without a name, which does not count)"},
		{name: "any + min_calls 2, two calls, one without a name", suite: anyCase + "    min_calls: 2\n", response: `[` + weather + `, {"name": "", "arguments": {}}, {"name": "", "arguments": {}}]`,
			kinds: []results.Kind{results.MissingCall}, msg: "expected at least 2 calls, got 1 (2 calls without a name, which do not count)"},
		{name: "defaults.calls: any + min_calls, no call", suite: "defaults: {calls: any}\ncases:\n  - id: t\n    min_calls: 1\n", response: `[]`,
			kinds: []results.Kind{results.MissingCall}},
	})
}

// TestMinCallsOtherModesVerdicts: min_calls with the other calls modes
// is one more miss in the score.
func TestMinCallsOtherModesVerdicts(t *testing.T) {
	const weather = `{"name": "get_weather", "arguments": {"city": "Paris"}}`
	checkAnyTests(t, []anyTest{
		{name: "ordered + min_calls 2, one right call", suite: "cases:\n  - id: t\n    expected: {name: get_weather, arguments: {city: Paris}}\n    min_calls: 2\n",
			response: weather, score: 0.5, kinds: []results.Kind{results.MissingCall}, msg: "expected at least 2 calls, got 1"},
		{name: "ordered + min_calls 1, one right call", suite: "cases:\n  - id: t\n    expected: {name: get_weather, arguments: {city: Paris}}\n    min_calls: 1\n",
			response: weather, pass: true, score: 1},
		{name: "ordered + min_calls 1, no call expected nor made", suite: "cases:\n  - id: t\n    expected: []\n    min_calls: 1\n",
			response: `[]`, score: 0, kinds: []results.Kind{results.MissingCall}},
		{name: "ordered + min_calls 1, no call", suite: "cases:\n  - id: t\n    expected: {name: get_weather, arguments: {city: Paris}}\n    min_calls: 1\n",
			response: `[]`, score: 0, kinds: []results.Kind{results.MissingCall, results.MissingCall}},
		{name: "superset + min_calls 2, the call and another", suite: "cases:\n  - id: t\n    calls: superset\n    expected: {name: get_weather, arguments: {city: Paris}}\n    min_calls: 2\n",
			response: `[` + weather + `, {"name": "get_time", "arguments": {}}]`, pass: true, score: 1},
		{name: "superset + min_calls 2, the call alone", suite: "cases:\n  - id: t\n    calls: superset\n    expected: {name: get_weather, arguments: {city: Paris}}\n    min_calls: 2\n",
			response: weather, score: 0.5, kinds: []results.Kind{results.MissingCall}},
		{name: "alternatives + min_calls: the best list, then the count", suite: "cases:\n  - id: t\n    expected: {name: get_time}\n    alternatives: [[{name: get_weather, arguments: {city: Paris}}]]\n    min_calls: 2\n",
			response: weather, score: 0.5, kinds: []results.Kind{results.MissingCall}},
	})
}

// TestAnyCallsRunVerdicts: calls: any with a run's checks (final, never,
// max_calls, min_calls).
func TestAnyCallsRunVerdicts(t *testing.T) {
	const anyCase = "cases:\n  - id: t\n    calls: any\n"
	checkAnyTests(t, []anyTest{
		{name: "any + final, passes", suite: anyCase + "    final: {regex: \"(?i)sunny\"}\n",
			run:  `{"steps": [{"name": "get_weather", "arguments": {"city": "Paris"}, "result": {"sky": "sunny"}}, {"name": "get_time", "result": "noon"}], "final": "Sunny in Paris"}`,
			pass: true, score: 1},
		{name: "any + final, no call and the right answer", suite: anyCase + "    final: {regex: \"(?i)sunny\"}\n",
			run: `{"steps": [], "final": "Sunny"}`, pass: true, score: 1},
		{name: "any + final, the wrong answer", suite: anyCase + "    final: {regex: \"(?i)sunny\"}\n",
			run: `{"steps": [{"name": "get_weather", "arguments": {"city": "Paris"}}], "final": "Rain"}`, kinds: []results.Kind{results.Mismatch}},
		{name: "any + final, no answer", suite: anyCase + "    final: {regex: \"(?i)sunny\"}\n",
			run: `{"steps": [{"name": "get_weather", "arguments": {"city": "Paris"}}]}`, kinds: []results.Kind{results.MissingFinal}},
		{name: "any + final from a call's result", suite: anyCase + "    final: {from: \"get_weather.result.sky\", case_insensitive: true}\n",
			run: `{"steps": [{"name": "get_weather", "arguments": {"city": "Paris"}, "result": {"sky": "sunny"}}], "final": "SUNNY"}`, pass: true, score: 1},
		{name: "any + final, the right answer and a broken call", suite: anyCase + "    final: {regex: \"(?i)sunny\"}\n",
			run: `{"steps": [{"name": "get_weather", "arguments": "{\"city\""}], "final": "Sunny"}`, kinds: []results.Kind{results.InvalidArguments}},
		{name: "any + never, not called", suite: anyCase + "    never: [delete_account]\n",
			run: `{"steps": [{"name": "get_weather", "arguments": {"city": "Paris"}}]}`, pass: true, score: 1},
		{name: "any + never, called", suite: anyCase + "    never: [delete_account]\n",
			run: `{"steps": [{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": "delete_account"}]}`, kinds: []results.Kind{results.ForbiddenCall}},
		{name: "any + max_calls, at the limit", suite: anyCase + "    max_calls: 2\n",
			run: `{"steps": [{"name": "get_time"}, {"name": "get_time"}]}`, pass: true, score: 1},
		{name: "any + max_calls, beyond", suite: anyCase + "    max_calls: 2\n",
			run: `{"steps": [{"name": "get_time"}, {"name": "get_time"}, {"name": "get_time"}]}`, kinds: []results.Kind{results.TooManyCalls}},
		{name: "any + min_calls + max_calls, too few", suite: anyCase + "    min_calls: 1\n    max_calls: 2\n",
			run: `{"steps": [], "final": "hi"}`, kinds: []results.Kind{results.MissingCall}, msg: "expected at least 1 call, got 0"},
		{name: "any + min_calls + never + final, all wrong", suite: anyCase + "    min_calls: 2\n    never: [get_time]\n    final: {regex: x}\n",
			run: `{"steps": [{"name": "get_time"}], "final": "y"}`, kinds: []results.Kind{results.MissingCall, results.ForbiddenCall, results.Mismatch}},
		{name: "any + min_calls in a run, enough", suite: anyCase + "    min_calls: 2\n    final: {regex: ok}\n",
			run: `{"steps": [{"name": "get_time"}, {"name": "get_time"}], "final": "ok"}`, pass: true, score: 1},
		{name: "in_order + min_calls in a run: one more miss", suite: "cases:\n  - id: t\n    calls: in_order\n    steps: [{name: get_time}]\n    min_calls: 2\n",
			run: `{"steps": [{"name": "get_time"}]}`, score: 0.5, kinds: []results.Kind{results.MissingCall}},
	})
}

// checkAnyTests scores each test's case both ways, without work and with
// a Scorer, and checks both verdicts.
func checkAnyTests(t *testing.T, tests []anyTest) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := load(t, weatherTools+tt.suite)
			var got, again *results.Result
			if tt.run != "" {
				got, again = scoreRunNoWork(e, 0, runOf(t, tt.run)), e.newScorer().scoreRun(0, runOf(t, tt.run))
			} else {
				got, again = scoreNoWork(e, 0, mustParse(t, tt.response)), e.newScorer().Score(0, mustParse(t, tt.response))
			}
			for _, r := range []*results.Result{got, again} {
				if r.Pass != tt.pass || r.Score != tt.score || !slices.Equal(kinds(r), tt.kinds) {
					t.Errorf("pass %v, score %v, kinds %v; want %v, %v, %v\n%s", r.Pass, r.Score, kinds(r), tt.pass, tt.score, tt.kinds, r.AppendJSON(nil))
				}
				if tt.msg != "" && !slices.ContainsFunc(r.Diffs, func(d results.Diff) bool { return strings.Contains(d.Message, tt.msg) }) {
					t.Errorf("no diff says %q: %s", tt.msg, r.AppendJSON(nil))
				}
			}
		})
	}
}

// TestMinCallsDiff: the min_calls diff is placed and worded as max_calls's
// too_many_calls is: about no call, the number wanted and the number made.
func TestMinCallsDiff(t *testing.T) {
	e := load(t, weatherTools+"cases:\n  - id: t\n    calls: any\n    min_calls: 1\n")
	r := e.newScorer().Score(0, mustParse(t, `[]`))
	want := `{"id":"t","pass":false,"score":0,"calls":[],"diffs":[{"kind":"missing_call","call":null,"path":"min_calls","expected":1,"actual":0,"rule":"min_calls","message":"expected at least 1 call, got 0"}]}`
	if got := string(r.AppendJSON(nil)); got != want {
		t.Errorf("result line\n got %s\nwant %s", got, want)
	}
}

// TestAnyCallsLoadErrors: what the engine's callers see of a suite that
// misuses calls: any or min_calls.
func TestAnyCallsLoadErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"any with expected calls", "cases:\n  - id: r1\n    calls: any\n    expected: [{name: get_weather}]\n",
			"suite.yaml: cases[0].expected (case r1): calls: any expects no particular call, so expected must be empty or left out; to require these calls and allow any others, write calls: superset"},
		{"defaults any with expected calls", "defaults: {calls: any}\ncases:\n  - id: r1\n    expected: {name: get_weather}\n",
			"suite.yaml: cases[0].expected (case r1): calls: any (from defaults.calls) expects no particular call, so expected must be empty or left out; to require these calls and allow any others, write calls: superset"},
		{"any with steps", "cases:\n  - id: r1\n    calls: any\n    steps: [{name: get_weather}]\n",
			"suite.yaml: cases[0].steps (case r1): calls: any expects no particular call, so steps must be empty or left out; to require these calls and allow any others, write calls: superset"},
		{"min_calls 0", "cases:\n  - id: r1\n    calls: any\n    min_calls: 0\n",
			"suite.yaml: cases[0].min_calls (case r1): must be a whole number >= 1, not 0"},
		{"min_calls -1", "cases:\n  - id: r1\n    calls: any\n    min_calls: -1\n",
			"suite.yaml: cases[0].min_calls (case r1): must be a whole number >= 1, not -1"},
		{"min_calls x", "cases:\n  - id: r1\n    calls: any\n    min_calls: \"x\"\n",
			"suite.yaml: cases[0].min_calls (case r1): must be a whole number >= 1, not a string"},
		{"an unknown mode", "cases:\n  - id: r1\n    calls: anything\n    expected: []\n",
			`suite.yaml: cases[0].calls (case r1): must be ordered, unordered, superset, subset, in_order, greedy or any, not "anything"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "suite.yaml"), []byte(tt.src), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Chdir(dir)
			_, err := suite.Load("suite.yaml")
			if err == nil || err.Error() != tt.want {
				t.Errorf("err = %v\nwant %s", err, tt.want)
			}
		})
	}
}

// TestAnyCallsFromWarnings: in mode any every call may come before the
// final text, so a reference to a call is no warning, as in superset; a
// tool the case's tools do not define still is.
func TestAnyCallsFromWarnings(t *testing.T) {
	tests := []struct {
		name, tool string
		want       []string
	}{
		{"a tool of the case", "get_weather", nil},
		{"an unknown tool", "get_wether", []string{`cases[0].final (case t): from: reference "get_wether.result.sky" can never resolve in a run that passes: the case's tools do not define get_wether, and no expected call names it`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := load(t, weatherTools+"cases:\n  - id: t\n    calls: any\n    final: {from: \""+tt.tool+".result.sky\"}\n")
			var got []string
			for _, w := range e.Warnings() {
				s := w.String()
				got = append(got, s[strings.Index(s, "cases["):])
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("warnings %q, want %q", got, tt.want)
			}
		})
	}
}
