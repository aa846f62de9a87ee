package dsl_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/callgrade/callgrade/dsl"
	"github.com/callgrade/callgrade/engine"
	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/value"
)

// build loads a suite from text and compiles it with the expression
// language installed, as the CLI does.
func build(t testing.TB, yaml string) (*engine.Engine, error) {
	t.Helper()
	fsys := fstest.MapFS{"suite.yaml": {Data: []byte(yaml)}}
	s, err := suite.LoadFS(fsys, "suite.yaml")
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	return engine.New(suite.ViewOf(s), engine.Options{Extensions: dsl.NewCompiler(dsl.Options{}).Extensions()})
}

func mustParse(t testing.TB, s string) value.Value {
	t.Helper()
	v, err := value.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

const scoreSuite = `version: 1
cases:
  - id: c
    expected:
      name: book
      arguments: {temp: 21, start: "2024-01-05", end: "2024-01-08", when: "2024-01-05"}
      rules:
        temp: {expr: "abs(actual - expected) <= params.tol", params: {tol: 0.5}}
        when: {expr: "date(actual) == date(expected)"}
        start: {expr: "same_day(actual, expected) && path == 'start' && tool == 'book' && args.end != nil && expected_args.start == expected"}
      assert:
        - "date(actual.end) > date(actual.start)"
        - "num(actual.temp) > 0"
`

func TestEngineScoresExpressions(t *testing.T) {
	eng, err := build(t, scoreSuite)
	if err != nil {
		t.Fatal(err)
	}
	r := eng.NewScorer(context.Background()).Score(0, mustParse(t, `[{"name":"book","arguments":{"temp":"hot","start":"Jan 5 2024","end":"2024-01-04","when":5}}]`))
	kinds := map[string]string{}
	for _, d := range r.Diffs {
		kinds[string(d.Kind)+" "+d.Path] = d.Message
	}
	want := []string{"rule_error temp", "rule_error when", "mismatch end", "assert_failed ", "rule_error "}
	for _, k := range want {
		if _, ok := kinds[k]; !ok {
			t.Errorf("no %q diff in %v", k, kinds)
		}
	}
	if len(r.Diffs) != len(want) {
		t.Errorf("got %d diffs, want %d: %v", len(r.Diffs), len(want), kinds)
	}
	if m := kinds["assert_failed "]; m != `assert "date(actual.end) > date(actual.start)" is false` {
		t.Errorf("assert_failed message %q", m)
	}
	if m := kinds["rule_error "]; !strings.Contains(m, `num: "hot" is not a number`) {
		t.Errorf("assert rule_error message %q", m)
	}
	if m := kinds["rule_error when"]; !strings.Contains(m, "date: 5 is not a string") {
		t.Errorf("field rule_error message %q", m)
	}

	r = eng.NewScorer(context.Background()).Score(0, mustParse(t, `[{"name":"book","arguments":{"temp":21,"start":"2024-01-05","end":"2024-01-08","when":"5 January 2024"}}]`))
	if len(r.Diffs) > 0 {
		t.Errorf("want a pass, got %+v", r.Diffs)
	}
}

// Every bad expression of a suite is reported at once, with the file, the
// key path, the case and expr's line and column.
func TestEngineReportsEveryBadExpression(t *testing.T) {
	_, err := build(t, `version: 1
defaults:
  rules:
    price: {expr: "decimal(actual) = decimal(expected)"}
cases:
  - id: a
    expected:
      name: f
      rules:
        temp: {expr: "abs(acutal - expected) <= 0.5"}
      assert: ["now() > 0", "actual.a >"]
  - id: b
    expected:
      name: f
      rules:
        x: {expr: "len(actual) + 1"}
        y: {expr: "actual + 1"}
`)
	var se *suite.Error
	if !errors.As(err, &se) {
		t.Fatalf("got %v, want a *suite.Error", err)
	}
	text := err.Error()
	for _, want := range []string{
		"suite.yaml: defaults.rules.price: expr: line 1, column 17:",
		"suite.yaml: cases[0].expected[0].rules.temp (case a): expr: line 1, column 5: unknown name acutal\n | abs(acutal - expected) <= 0.5\n | ....^",
		"suite.yaml: cases[0].expected[0].assert[0] (case a): assert: line 1, column 1: now() is not available",
		"suite.yaml: cases[0].expected[0].assert[1] (case a): assert: line 1, column 10: unexpected token EOF",
		"suite.yaml: cases[1].expected[0].rules.x (case b): expr: line 1, column 13: expected bool, but got int",
		"suite.yaml: cases[1].expected[0].rules.y (case b): expr: line 1, column 8: expected bool, but got the result of +",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the error does not contain %q:\n%s", want, text)
		}
	}
	if len(se.Problems) != 6 {
		t.Errorf("got %d problems, want 6:\n%s", len(se.Problems), text)
	}
}

const (
	benchCall     = `[{"name":"set_thermostat","arguments":"{\"room\":\"living\",\"celsius\":21.3,\"mode\":\"heat\"}"}]`
	benchCallRead = `[{"name":"set_thermostat","arguments":{"room":"living","celsius":21.3,"mode":"heat"}}]`
)

func benchSuite(rule string) string {
	return `version: 1
cases:
  - id: c
    expected:
      name: set_thermostat
      arguments: {room: living, celsius: 21, mode: heat}
      rules:
        celsius: ` + rule + "\n"
}

// BenchmarkEngineScore scores one call whose numeric field is decided by an
// expression, and the same call under the built-in tolerance rule, with
// one Scorer: on the call already read (its arguments an object), and
// (response=) on the whole response, its arguments
// string parsed each time as the CLI does, to set the expression's cost
// against a call's.
func BenchmarkEngineScore(b *testing.B) {
	for _, bc := range []struct {
		name, rule string
		whole      bool
	}{
		{"rule=builtin", `{tolerance: 0.5}`, false},
		{"rule=expr", `{expr: "abs(actual - expected) <= 0.5"}`, false},
		{"response=builtin", `{tolerance: 0.5}`, true},
		{"response=expr", `{expr: "abs(actual - expected) <= 0.5"}`, true},
	} {
		b.Run(bc.name, func(b *testing.B) {
			eng, err := build(b, benchSuite(bc.rule))
			if err != nil {
				b.Fatal(err)
			}
			resp := mustParse(b, benchCall)
			sc := eng.NewScorer(context.Background())
			// The call already read: its arguments an object, which
			// Score takes as they are.
			read := mustParse(b, benchCallRead)
			score := func() *results.Result { return sc.Score(0, read) }
			if bc.whole {
				score = func() *results.Result { return sc.Score(0, resp) }
			}
			if r := score(); !r.Pass {
				b.Fatalf("the call should pass: %+v", r.Diffs)
			}
			b.ReportAllocs()
			for b.Loop() {
				score()
			}
		})
	}
}

// BenchmarkEngineRun scores 10,000 lines end to end as the CLI does
// (engine.Run: reading each line, scoring, writing its result) on one
// worker, each call's numeric field decided by an expression: what an
// expression's cost comes to over a whole run.
func BenchmarkEngineRun(b *testing.B) {
	var sb, rb strings.Builder
	sb.WriteString("version: 1\ncases:\n")
	for i := range 10000 {
		v := 15 + float64(i%100)/10
		fmt.Fprintf(&sb, "  - {id: c%d, expected: {name: set_thermostat, arguments: {room: living, celsius: %g, mode: heat}, rules: {celsius: {expr: \"abs(actual - expected) <= 0.5\"}}}}\n", i, v)
		off := []float64{0.3, -0.2, 0.7, 1.5}[i%4] // half pass
		fmt.Fprintf(&rb, `{"id":"c%d","response":[{"name":"set_thermostat","arguments":"{\"room\":\"living\",\"celsius\":%g,\"mode\":\"heat\"}"}]}`+"\n", i, v+off)
	}
	eng, err := build(b, sb.String())
	if err != nil {
		b.Fatal(err)
	}
	lines := rb.String()
	b.ReportAllocs()
	for b.Loop() {
		sum, err := eng.Run(context.Background(), strings.NewReader(lines), io.Discard, engine.RunOptions{Name: "bench", Workers: 1})
		if err != nil || sum.Passed != 5000 {
			b.Fatalf("err=%v passed=%d", err, sum.Passed)
		}
	}
}

// An expression over its budget is a rule_error on its field; the other
// fields are scored and the run goes on.
func TestEngineBudgetIsFieldRuleError(t *testing.T) {
	eng, err := build(t, `version: 1
cases:
  - id: c
    expected:
      name: f
      arguments: {a: x, b: y, c: 1}
      rules:
        a: {expr: 'len(reduce(1..999999, #acc + "x", "")) > 0'}
        b: {expr: 'len(split(actual, "")) > 0'}
  - id: d
    expected: {name: f, arguments: {c: 1}}
`)
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("b", 2<<20)
	r := eng.NewScorer(context.Background()).Score(0, mustParse(t, `[{"name":"f","arguments":{"a":"x","b":"`+long+`","c":2}}]`))
	got := map[string]results.Kind{}
	for _, d := range r.Diffs {
		got[d.Path] = d.Kind
	}
	if len(r.Diffs) != 3 || got["a"] != results.RuleError || got["b"] != results.RuleError || got["c"] != results.Mismatch {
		t.Errorf("diffs %v", got)
	}
	if r2 := eng.NewScorer(context.Background()).Score(1, mustParse(t, `[{"name":"f","arguments":{"c":1}}]`)); !r2.Pass {
		t.Errorf("the next case: %+v", r2)
	}
}

// A never entry whose expression loops over a list cannot be passed by a
// model that writes the forbidden value as a string, or as an object,
// rather than in a list: the call gets a rule_error in place of
// forbidden_call (docs/trajectories.md, never), where expr's loop over
// the string's bytes found nothing and let it past.
func TestNeverLoopOnWrongType(t *testing.T) {
	eng, err := build(t, `version: 1
cases:
  - id: c
    calls: any
    never:
      - {name: send_email, rules: {to: {expr: "any(actual, # == 'ceo@corp.com')"}}}
`)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		to   string
		kind results.Kind // "" for a pass
	}{
		{`["ceo@corp.com"]`, results.ForbiddenCall},
		{`["ops@corp.com"]`, ""},
		{`"ceo@corp.com"`, results.RuleError},
		{`{"ceo@corp.com": true}`, results.RuleError},
		{`null`, results.RuleError},
	} {
		r := eng.NewScorer(context.Background()).Score(0, mustParse(t, `[{"name":"send_email","arguments":{"to":`+tc.to+`}}]`))
		if tc.kind == "" {
			if !r.Pass {
				t.Errorf("to %s: want a pass, got %+v", tc.to, r.Diffs)
			}
			continue
		}
		if r.Pass || len(r.Diffs) != 1 || r.Diffs[0].Kind != tc.kind {
			t.Errorf("to %s: want one %s diff, got pass=%v %+v", tc.to, tc.kind, r.Pass, r.Diffs)
		}
	}
}
