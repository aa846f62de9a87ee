package engine

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/value"
)

// load compiles a suite written as YAML.
func load(t testing.TB, yaml string) *Engine {
	t.Helper()
	return loadWith(t, yaml, Options{})
}

// loadWith compiles a suite written as YAML with opts.
func loadWith(t testing.TB, yaml string, opts Options) *Engine {
	t.Helper()
	path := filepath.Join(t.TempDir(), "suite.yaml")
	if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := suite.Load(path)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	e, err := newEngine(s, opts)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	return e
}

func mustParse(t testing.TB, s string) value.Value {
	t.Helper()
	v, err := value.Parse(s)
	if err != nil {
		t.Fatalf("parse %s: %v", s, err)
	}
	return v
}

func kinds(r *results.Result) []results.Kind {
	var ks []results.Kind
	for _, d := range r.Diffs {
		ks = append(ks, d.Kind)
	}
	return ks
}

type scoreTest struct {
	name     string
	suite    string // the case list of a suite; `id: t` is the case scored
	response string
	pass     bool
	score    float64
	kinds    []results.Kind // diff kinds, in order
}

const weatherTools = `
tools:
  - type: function
    function:
      name: get_weather
      parameters:
        type: object
        properties:
          city: {type: string}
          unit: {type: string, enum: [celsius, fahrenheit], default: celsius}
          days: {type: integer}
          max_temp: {type: number}
          limit: {type: integer, default: 10}
        required: [city]
`

func runScoreTests(t *testing.T, tests []scoreTest) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := load(t, "version: 1\n"+tt.suite)
			i, ok := e.Lookup("t")
			if !ok {
				t.Fatal("the suite has no case t")
			}
			r := e.newScorer().Score(i, mustParse(t, tt.response))
			if r.Pass != tt.pass || r.Score != tt.score || !slices.Equal(kinds(r), tt.kinds) {
				t.Errorf("pass=%v score=%v kinds=%v, want pass=%v score=%v kinds=%v\n%s",
					r.Pass, r.Score, kinds(r), tt.pass, tt.score, tt.kinds, r.AppendJSON(nil))
			}
		})
	}
}

func TestScoreSpecExamples(t *testing.T) {
	one := `cases: [{id: t, expected: {name: get_weather, arguments: {city: Berlin, unit: celsius}}}]`
	runScoreTests(t, []scoreTest{
		{"key order", one, `[{"name":"get_weather","arguments":"{\"unit\":\"celsius\",\"city\":\"Berlin\"}"}]`, true, 1, nil},
		{"wrong tool whose arguments mention Berlin", one,
			`[{"name":"get_forecast","arguments":"{\"city\":\"Berlin\",\"unit\":\"celsius\"}"}]`, false, 0, []results.Kind{results.WrongTool}},
		{"one wrong value", one, `[{"name":"get_weather","arguments":{"city":"Berlin","unit":"kelvin"}}]`, false, 0.5, []results.Kind{results.Mismatch}},
		{"missing argument", one, `[{"name":"get_weather","arguments":{"city":"Berlin"}}]`, false, 0.5, []results.Kind{results.MissingArgument}},
		{"extra argument counts as one more miss", one,
			`[{"name":"get_weather","arguments":{"city":"Berlin","unit":"celsius","debug":true}}]`, false, 2.0 / 3, []results.Kind{results.UnexpectedArgument}},
		{"invalid JSON", one, `[{"name":"get_weather","arguments":"{not json"}]`, false, 0, []results.Kind{results.InvalidArguments}},
		{"duplicate key never passes", one,
			`[{"name":"get_weather","arguments":"{\"city\":\"Paris\",\"city\":\"Berlin\",\"unit\":\"celsius\"}"}]`, false, 0, []results.Kind{results.InvalidArguments}},
		{"arguments not an object", one, `[{"name":"get_weather","arguments":"[1]"}]`, false, 0, []results.Kind{results.InvalidArguments}},
		{"NaN", one, `[{"name":"get_weather","arguments":"{\"city\":NaN}"}]`, false, 0, []results.Kind{results.InvalidArguments}},
		{"no call", one, `{"choices":[{"message":{"role":"assistant","content":"hi"}}]}`, false, 0, []results.Kind{results.MissingCall}},
		{"two calls where one is expected", one,
			`[{"name":"get_weather","arguments":{"city":"Berlin","unit":"celsius"}},{"name":"get_weather","arguments":{"city":"Paris","unit":"celsius"}}]`,
			false, 0.5, []results.Kind{results.UnexpectedCall}},
		{"unknown shape is a hard failure", one, `{"foo":"bar"}`, false, 0, []results.Kind{results.InvalidArguments}},
	})
}

func TestScoreNumbers(t *testing.T) {
	runScoreTests(t, []scoreTest{
		{"5 equals 5.0 and 5e0", `cases: [{id: t, expected: {name: f, arguments: {a: 5, b: 5, c: 5.0}}}]`,
			`[{"name":"f","arguments":"{\"a\":5.0,\"b\":5e0,\"c\":5}"}]`, true, 1, nil},
		{"2^53+1 is not 2^53", `cases: [{id: t, expected: {name: f, arguments: {a: 9007199254740993}}}]`,
			`[{"name":"f","arguments":"{\"a\":9007199254740992}"}]`, false, 0, []results.Kind{results.Mismatch}},
		{"0.1+0.2 is not 0.3", `cases: [{id: t, expected: {name: f, arguments: {a: 0.3}}}]`,
			`[{"name":"f","arguments":"{\"a\":0.30000000000000004}"}]`, false, 0, []results.Kind{results.Mismatch}},
		{"a numeric string is not a number by default", `cases: [{id: t, expected: {name: f, arguments: {a: 5}}}]`,
			`[{"name":"f","arguments":{"a":"5"}}]`, false, 0, []results.Kind{results.Mismatch}},
		{"numeric rule", `cases: [{id: t, expected: {name: f, arguments: {a: 5}, rules: {a: numeric}}}]`,
			`[{"name":"f","arguments":{"a":"5.0"}}]`, true, 1, nil},
		{"true is not 1", `cases: [{id: t, expected: {name: f, arguments: {a: true}}}]`,
			`[{"name":"f","arguments":{"a":1}}]`, false, 0, []results.Kind{results.Mismatch}},
		{"tolerance", `cases: [{id: t, expected: {name: f, arguments: {a: 10}, rules: {a: {tolerance: 0.5}}}}]`,
			`[{"name":"f","arguments":{"a":10.4}}]`, true, 1, nil},
	})
}

func TestScoreSchema(t *testing.T) {
	runScoreTests(t, []scoreTest{
		{"number parameter is numeric", weatherTools + `cases: [{id: t, expected: {name: get_weather, arguments: {city: Oslo, max_temp: 5}}}]`,
			`[{"name":"get_weather","arguments":{"city":"Oslo","max_temp":"5"}}]`, true, 1, nil},
		{"5.0 is an integer", weatherTools + `cases: [{id: t, expected: {name: get_weather, arguments: {city: Oslo, days: 5}}}]`,
			`[{"name":"get_weather","arguments":{"city":"Oslo","days":5.0}}]`, true, 1, nil},
		{"5.5 is not an integer", weatherTools + `cases: [{id: t, expected: {name: get_weather, arguments: {city: Oslo, days: 5}}}]`,
			`[{"name":"get_weather","arguments":{"city":"Oslo","days":5.5}}]`, false, 0.5, []results.Kind{results.Mismatch, results.Schema}},
		{"not in enum", weatherTools + `cases: [{id: t, expected: {name: get_weather, arguments: {city: Oslo}}}]`,
			`[{"name":"get_weather","arguments":{"city":"Oslo","unit":"kelvin"}}]`, false, 0.5, []results.Kind{results.Mismatch, results.Schema}},
		{"default given explicitly", weatherTools + `cases: [{id: t, expected: {name: get_weather, arguments: {city: Oslo}}}]`,
			`[{"name":"get_weather","arguments":{"city":"Oslo","unit":"celsius"}}]`, true, 1, nil},
		{"optional parameter the expected call leaves out", weatherTools + `cases: [{id: t, expected: {name: get_weather, arguments: {city: Oslo}}}]`,
			`[{"name":"get_weather","arguments":{"city":"Oslo","days":2}}]`, true, 1, nil},
		{"missing required", weatherTools + `cases: [{id: t, expected: {name: get_weather, arguments: {city: Oslo}}}]`,
			`[{"name":"get_weather","arguments":{}}]`, false, 0, []results.Kind{results.MissingArgument, results.Schema}},
		{"a number parameter with a default stays numeric", weatherTools + `cases: [{id: t, expected: {name: get_weather, arguments: {city: Oslo, limit: 5}}}]`,
			`[{"name":"get_weather","arguments":{"city":"Oslo","limit":"5"}}]`, true, 1, nil},
		{"its default is numeric too", weatherTools + `cases: [{id: t, expected: {name: get_weather, arguments: {city: Oslo}}}]`,
			`[{"name":"get_weather","arguments":{"city":"Oslo","limit":"10.0"}}]`, true, 1, nil},
		{"and a different value is a mismatch against it", weatherTools + `cases: [{id: t, expected: {name: get_weather, arguments: {city: Oslo}}}]`,
			`[{"name":"get_weather","arguments":{"city":"Oslo","limit":11}}]`, false, 0.5, []results.Kind{results.Mismatch}},
		{"explicit rule overrides the schema", weatherTools + `cases: [{id: t, expected: {name: get_weather, arguments: {city: Oslo, max_temp: 5}, rules: {max_temp: exact}}}]`,
			`[{"name":"get_weather","arguments":{"city":"Oslo","max_temp":"5"}}]`, false, 0.5, []results.Kind{results.Mismatch}},
	})
}

func TestScoreMatching(t *testing.T) {
	two := func(mode string) string {
		return `cases: [{id: t, calls: ` + mode + `, expected: [{name: f, arguments: {a: 1}}, {name: g, arguments: {b: 2}}]}]`
	}
	f1 := `{"name":"f","arguments":{"a":1}}`
	g2 := `{"name":"g","arguments":{"b":2}}`
	h3 := `{"name":"h","arguments":{"c":3}}`
	runScoreTests(t, []scoreTest{
		{"ordered in order", two("ordered"), "[" + f1 + "," + g2 + "]", true, 1, nil},
		{"ordered out of order", two("ordered"), "[" + g2 + "," + f1 + "]", false, 0, []results.Kind{results.WrongTool, results.WrongTool}},
		{"unordered out of order", two("unordered"), "[" + g2 + "," + f1 + "]", true, 1, nil},
		{"unordered missing one", two("unordered"), "[" + g2 + "]", false, 0.5, []results.Kind{results.MissingCall}},
		{"superset allows more", two("superset"), "[" + h3 + "," + g2 + "," + f1 + "]", true, 1, nil},
		{"superset still needs all", two("superset"), "[" + h3 + "," + g2 + "]", false, 0.5, []results.Kind{results.MissingCall}},
		{"subset allows fewer", two("subset"), "[" + g2 + "]", true, 1, nil},
		{"subset rejects others", two("subset"), "[" + g2 + "," + h3 + "]", false, 0.5, []results.Kind{results.UnexpectedCall}},
		{"no call expected, none made", `cases: [{id: t, expected: []}]`, `[]`, true, 1, nil},
		{"no call expected, one made", `cases: [{id: t, expected: []}]`, "[" + f1 + "]", false, 0, []results.Kind{results.UnexpectedCall}},
	})
}

// An actual call that pairs with no expected call is still read and
// validated: unusable arguments are an invalid_arguments diff on it in
// every mode (spec 2: never a silent pass), and so are the schema's
// rejections (spec 1.2), even where the mode tolerates the call itself.
func TestScoreUnpairedCalls(t *testing.T) {
	one := func(mode string) string {
		return weatherTools + `cases: [{id: t, calls: ` + mode + `, expected: [{name: get_weather, arguments: {city: Oslo}}]}]`
	}
	oslo := `{"name":"get_weather","arguments":{"city":"Oslo"}}`
	broken := `{"name":"get_weather","arguments":"{\"city\": oops"}`
	twice := `{"name":"get_weather","arguments":"{\"city\":\"Oslo\",\"city\":\"Rome\"}"}`
	nan := `{"name":"get_weather","arguments":"{\"city\":NaN}"}`
	wrongType := `{"name":"get_weather","arguments":{"city":"Oslo","days":5.5}}`
	noCity := `{"name":"get_weather","arguments":{"days":2}}`
	other := `{"name":"look_up","arguments":{"anything":[1,"x"]}}`
	brokenOther := `{"name":"look_up","arguments":"[1,2]"}`
	nullUnit := `{"name":"get_weather","arguments":{"city":"Rome","unit":null}}`
	runScoreTests(t, []scoreTest{
		{"superset tolerates a good extra call", one("superset"), "[" + oslo + "," + oslo + "]", true, 1, nil},
		{"superset tolerates a call to a tool it has no schema for", one("superset"), "[" + other + "," + oslo + "]", true, 1, nil},
		{"superset: extra call not JSON", one("superset"), "[" + oslo + "," + broken + "]", false, 0.5, []results.Kind{results.InvalidArguments}},
		{"superset: extra call with a duplicated key", one("superset"), "[" + oslo + "," + twice + "]", false, 0.5, []results.Kind{results.InvalidArguments}},
		{"superset: extra call with NaN", one("superset"), "[" + nan + "," + oslo + "]", false, 0.5, []results.Kind{results.InvalidArguments}},
		{"superset: extra call to an unknown tool, not an object", one("superset"), "[" + oslo + "," + brokenOther + "]", false, 0.5, []results.Kind{results.InvalidArguments}},
		{"superset: extra call of the wrong type", one("superset"), "[" + oslo + "," + wrongType + "]", false, 0.5, []results.Kind{results.Schema}},
		{"superset: extra call without a required argument", one("superset"), "[" + noCity + "," + oslo + "]", false, 0.5, []results.Kind{results.Schema}},
		{"superset: extra call with a null outside the enum", one("superset"), "[" + oslo + "," + nullUnit + "]", false, 0.5, []results.Kind{results.Schema}},
		{"superset: that null is missing with null_is_missing", weatherTools + `cases: [{id: t, calls: superset, null_is_missing: true, expected: [{name: get_weather, arguments: {city: Oslo}}]}]`,
			"[" + oslo + "," + nullUnit + "]", true, 1, nil},
		{"in_order: broken call between", one("in_order"), "[" + broken + "," + oslo + "]", false, 0.5, []results.Kind{results.InvalidArguments}},
		{"ordered: unexpected broken call", one("ordered"), "[" + oslo + "," + broken + "]", false, 0.5, []results.Kind{results.UnexpectedCall, results.InvalidArguments}},
		{"unordered: unexpected call of the wrong type", one("unordered"), "[" + wrongType + "," + oslo + "]", false, 0.5, []results.Kind{results.UnexpectedCall, results.Schema}},
		{"subset: unexpected broken call", one("subset"), "[" + oslo + "," + twice + "]", false, 0.5, []results.Kind{results.UnexpectedCall, results.InvalidArguments}},
		{"greedy: unexpected broken call", one("greedy"), "[" + oslo + "," + nan + "]", false, 0.5, []results.Kind{results.UnexpectedCall, results.InvalidArguments}},
		{"no call expected, a broken one made", weatherTools + `cases: [{id: t, calls: superset, expected: []}]`,
			"[" + broken + "]", false, 0, []results.Kind{results.UnexpectedCall, results.InvalidArguments}},
	})

	// The diffs point at the result of the call they are about.
	e := load(t, "version: 1\n"+one("superset"))
	r := e.newScorer().Score(0, mustParse(t, "["+broken+","+oslo+","+wrongType+"]"))
	if len(r.Diffs) != 2 {
		t.Fatalf("got %d diffs, want 2\n%s", len(r.Diffs), r.AppendJSON(nil))
	}
	for k, want := range []int{0, 2} {
		d := r.Diffs[k]
		if d.Call < 0 || d.Call >= len(r.Calls) || r.Calls[d.Call].Actual != want || r.Calls[d.Call].Expected != -1 {
			t.Errorf("diff %d (%s) is on call result %d, want the result of actual call %d\n%s", k, d.Kind, d.Call, want, r.AppendJSON(nil))
		}
	}
	if r.Score != 1.0/3 {
		t.Errorf("score %v, want 1/3: the two wrong extra calls count", r.Score)
	}
}

// A call whose shape is broken before its name (tool_calls that is not a
// list) is an invalid_arguments diff, not a call to a tool named "": no
// wrong_tool diff, and messages that do not print an empty name.
func TestScoreNamelessCall(t *testing.T) {
	broken := `{"choices":[{"message":{"role":"assistant","tool_calls":"x"}}]}`
	runScoreTests(t, []scoreTest{
		{"expected a call", `cases: [{id: t, expected: {name: f, arguments: {x: 1}}}]`, broken, false, 0, []results.Kind{results.InvalidArguments}},
		{"expected none", `cases: [{id: t, expected: []}]`, broken, false, 0, []results.Kind{results.UnexpectedCall, results.InvalidArguments}},
	})
	for _, src := range []string{`cases: [{id: t, expected: {name: f, arguments: {x: 1}}}]`, `cases: [{id: t, expected: []}]`} {
		e := load(t, "version: 1\n"+src)
		line := string(e.newScorer().Score(0, mustParse(t, broken)).AppendJSON(nil))
		for _, bad := range []string{"got a call to \"", "got a call to ,", "arguments of :", "got \""} {
			if strings.Contains(line, bad) {
				t.Errorf("%s: the result says %q\n%s", src, bad, line)
			}
		}
	}
}

func TestUnorderedCallsDoNotDependOnOrder(t *testing.T) {
	// Greedy pairing would give the first actual call to the first expected
	// call it half matches; optimal pairing finds the full matches.
	e := load(t, `version: 1
cases:
  - id: t
    calls: unordered
    expected:
      - {name: f, arguments: {a: 1, b: 1}}
      - {name: f, arguments: {a: 1, b: 2}}
      - {name: f, arguments: {a: 2, b: 2}}
`)
	calls := []string{`{"name":"f","arguments":{"a":1,"b":2}}`, `{"name":"f","arguments":{"a":2,"b":2}}`, `{"name":"f","arguments":{"a":1,"b":1}}`}
	for _, perm := range [][]int{{0, 1, 2}, {2, 1, 0}, {1, 0, 2}, {1, 2, 0}, {0, 2, 1}, {2, 0, 1}} {
		doc := "["
		for k, p := range perm {
			if k > 0 {
				doc += ","
			}
			doc += calls[p]
		}
		r := e.newScorer().Score(0, mustParse(t, doc+"]"))
		if !r.Pass || r.Score != 1 {
			t.Errorf("order %v: pass=%v score=%v, want a pass\n%s", perm, r.Pass, r.Score, r.AppendJSON(nil))
		}
	}
}

func TestAlternatives(t *testing.T) {
	e := load(t, `version: 1
cases:
  - id: t
    expected: {name: get_weather, arguments: {city: Oslo}}
    alternatives:
      - [{name: get_forecast, arguments: {city: Oslo, days: 0}}]
      - [{name: get_forecast, arguments: {city: Oslo, days: 1}}]
`)
	r := e.newScorer().Score(0, mustParse(t, `[{"name":"get_forecast","arguments":{"city":"Oslo","days":1}}]`))
	if !r.Pass || r.Alternative != 2 {
		t.Errorf("pass=%v alternative=%d, want a pass by alternative 2", r.Pass, r.Alternative)
	}
	r = e.newScorer().Score(0, mustParse(t, `[{"name":"get_forecast","arguments":{"city":"Oslo","days":5}}]`))
	if r.Pass || r.Alternative != 1 || r.Score != 0.5 {
		t.Errorf("pass=%v alternative=%d score=%v, want a fail scored by alternative 1 at 0.5", r.Pass, r.Alternative, r.Score)
	}
}

// TestAlternativesTieInTheLastBits: two lists whose scores are equal but
// sum to floats apart in their last bit ((0.3+0)/2 against (0.1+0.2)/2)
// tie, and the earlier list counts.
func TestAlternativesTieInTheLastBits(t *testing.T) {
	e := load(t, `version: 1
cases:
  - id: t
    expected:
      - {name: t, arguments: {k0: 0, k1: 0, k2: 0, k3: 1, k4: 1, k5: 1, k6: 1, k7: 1, k8: 1, k9: 1}}
      - {name: u, arguments: {k0: 1, k1: 1, k2: 1, k3: 1, k4: 1, k5: 1, k6: 1, k7: 1, k8: 1, k9: 1}}
    alternatives:
      - - {name: t, arguments: {k0: 0, k1: 1, k2: 1, k3: 1, k4: 1, k5: 1, k6: 1, k7: 1, k8: 1, k9: 1}}
        - {name: u, arguments: {k0: 0, k1: 0, k2: 1, k3: 1, k4: 1, k5: 1, k6: 1, k7: 1, k8: 1, k9: 1}}
`)
	zeros := `{"k0":0,"k1":0,"k2":0,"k3":0,"k4":0,"k5":0,"k6":0,"k7":0,"k8":0,"k9":0}`
	r := e.newScorer().Score(0, mustParse(t, `[{"name":"t","arguments":`+zeros+`},{"name":"u","arguments":`+zeros+`}]`))
	if r.Pass || r.Alternative != 0 || r.Score != 0.15 {
		t.Errorf("pass=%v alternative=%d score=%v, want a fail scored by the expected calls at 0.15", r.Pass, r.Alternative, r.Score)
	}
}

// TestInOrderMissingCallMessage: in in_order, a call made out of its
// order is not "none": the missing_call says where it is.
func TestInOrderMissingCallMessage(t *testing.T) {
	e := load(t, `version: 1
cases: [{id: t, calls: in_order, expected: [{name: t, arguments: {a: 1}}, {name: u, arguments: {a: 1}}]}]
`)
	for _, tc := range []struct{ resp, want string }{
		{`[{"name":"u","arguments":{"a":1}},{"name":"t","arguments":{"a":1}}]`, "expected a call to u in its order, got none there (call 0 is to u, out of that order)"},
		{`[{"name":"t","arguments":{"a":1}}]`, "expected a call to u, got none"},
	} {
		r := e.newScorer().Score(0, mustParse(t, tc.resp))
		if len(r.Diffs) != 1 || r.Diffs[0].Kind != results.MissingCall || r.Diffs[0].Message != tc.want || r.Score != 0.5 {
			t.Errorf("%s: %s, want one missing_call saying %q", tc.resp, r.AppendJSON(nil), tc.want)
		}
	}
}

func TestNullIsMissing(t *testing.T) {
	runScoreTests(t, []scoreTest{
		{"null is a value by default", `cases: [{id: t, expected: {name: f, arguments: {a: 1}}}]`,
			`[{"name":"f","arguments":{"a":1,"b":null}}]`, false, 0.5, []results.Kind{results.UnexpectedArgument}},
		{"null as missing", `cases: [{id: t, null_is_missing: true, expected: {name: f, arguments: {a: 1}}}]`,
			`[{"name":"f","arguments":{"a":1,"b":null}}]`, true, 1, nil},
	})
}

func TestResultJSON(t *testing.T) {
	e := load(t, `version: 1
cases: [{id: weather-berlin, expected: {name: get_weather, arguments: {city: Berlin, unit: celsius}}}]`)
	r := e.newScorer().Score(0, mustParse(t, `[{"name":"get_weather","arguments":{"city":"Berlin","unit":"kelvin"}}]`))
	got, err := value.Parse(string(r.AppendJSON(nil)))
	if err != nil {
		t.Fatalf("the result is not JSON: %v\n%s", err, r.AppendJSON(nil))
	}
	for _, path := range [][]string{{"id"}, {"pass"}, {"score"}, {"calls"}, {"diffs"}} {
		if !got.Has(path[0]) {
			t.Errorf("result lacks %q: %s", path[0], got)
		}
	}
	diff, _ := got.Get("diffs")
	first := diff.Elems()[0]
	for k, want := range map[string]string{"kind": `"mismatch"`, "call": "0", "path": `"unit"`, "expected": `"celsius"`, "actual": `"kelvin"`, "rule": `"exact"`} {
		if v, ok := first.Get(k); !ok || v.String() != want {
			t.Errorf("diff %s = %s, want %s", k, v, want)
		}
	}
	if m, _ := first.Get("message"); m.Str() == "" {
		t.Error("diff has no message")
	}
}

func TestSchemaDiffsNameNestedPaths(t *testing.T) {
	e := load(t, `version: 1
tools:
  - name: book
    parameters:
      type: object
      properties:
        travellers:
          type: array
          items:
            type: object
            properties: {name: {type: string}, age: {type: integer}}
            required: [name]
        seat: {type: object, properties: {row: {type: integer}, side: {type: string, enum: [left, right]}}}
      required: [travellers]
cases:
  - id: t
    extra_fields: allow
    expected: {name: book, arguments: {travellers: [{name: Ada, age: 36}]}, rules: {travellers: ignore}}
`)
	r := e.newScorer().Score(0, mustParse(t, `[{"name":"book","arguments":{"travellers":[{"name":"Ada","age":"36"},{"age":3.5}],"seat":{"row":"7","side":"middle"}}}]`))
	got := map[string]bool{}
	for _, d := range r.Diffs {
		if d.Kind == results.Schema {
			got[d.Path] = true
		}
	}
	// "36" and "7" are numbers once coerced; 3.5 is no integer, the second
	// traveller has no name, and "middle" is not in the enum.
	for _, want := range []string{"travellers.1.age", "travellers.1", "seat.side"} {
		if !got[want] {
			t.Errorf("no schema diff at %s; got %v\n%s", want, got, r.AppendJSON(nil))
		}
	}
	if len(got) != 3 {
		t.Errorf("schema diffs at %v, want exactly the three above", got)
	}
}

// A schema diff names its argument by the PATH a rule's diff uses for
// the same argument (rulecore.EscapeKey): keys with dots, backslashes and
// wildcard characters included.
func TestSchemaDiffPathsAreRulePaths(t *testing.T) {
	e := load(t, `version: 1
tools:
  - name: f
    parameters:
      type: object
      properties:
        "a*b": {type: integer}
        "a.b": {type: integer}
        "*": {type: integer}
        "x#": {type: integer}
        'c\d': {type: integer}
cases:
  - id: t
    expected: {name: f, arguments: {"a*b": 1, "a.b": 1, "*": 1, "x#": 1, 'c\d': 1}}
`)
	r := e.newScorer().Score(0, mustParse(t, `[{"name":"f","arguments":{"a*b":"x","a.b":"x","*":"x","x#":"x","c\\d":"x"}}]`))
	paths := map[results.Kind][]string{}
	for _, d := range r.Diffs {
		paths[d.Kind] = append(paths[d.Kind], d.Path)
	}
	want := []string{`\*`, "a*b", `a\.b`, `c\\d`, "x#"}
	for _, k := range []results.Kind{results.Mismatch, results.Schema} {
		got := slices.Clone(paths[k])
		slices.Sort(got)
		want := slices.Clone(want)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s diffs at %q, want %q\n%s", k, got, want, r.AppendJSON(nil))
		}
	}
}

func TestLineWithoutResponseFailsItsCase(t *testing.T) {
	e := load(t, "version: 1\ncases:\n  - {id: a, expected: []}\n  - {id: b, expected: []}\n")
	var out strings.Builder
	sum, err := e.Run(context.Background(), strings.NewReader(`{"id":"a","error":"timeout"}`+"\n"+`{"id":"b","response":null}`+"\n"), &out, RunOptions{Name: "r.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Passed != 1 || !strings.Contains(out.String(), `"kind":"missing_response"`) || !strings.Contains(out.String(), `line 1 has no \"response\"`) {
		t.Errorf("passed %d, want 1 (b, a null response is no call); results:\n%s", sum.Passed, out.String())
	}
}

func TestByteOrderMarkIsSkipped(t *testing.T) {
	e := load(t, "version: 1\ncases:\n  - {id: a, expected: {name: f, arguments: {x: 1}}}\n")
	var out strings.Builder
	sum, err := e.Run(context.Background(), strings.NewReader("\ufeff"+`{"id":"a","response":[{"name":"f","arguments":"{\"x\":1}"}]}`+"\r\n"), &out, RunOptions{})
	if err != nil || sum.Passed != 1 {
		t.Fatalf("err=%v passed=%d, want the case to pass:\n%s", err, sum.Passed, out.String())
	}
}

func TestNumberIDs(t *testing.T) {
	e := load(t, "version: 1\ncases:\n  - {id: 1, expected: []}\n  - {id: \"2\", expected: []}\n")
	var out strings.Builder
	sum, err := e.Run(context.Background(), strings.NewReader(`{"id":1,"response":[]}`+"\n"+`{"id":2,"response":[]}`+"\n"), &out, RunOptions{})
	if err != nil || sum.Passed != 2 || sum.Unknown != 0 {
		t.Fatalf("err=%v passed=%d unknown=%d, want both cases found by their number ids:\n%s", err, sum.Passed, sum.Unknown, out.String())
	}
}
