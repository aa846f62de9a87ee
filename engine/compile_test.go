package engine

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/value"
)

// Calls whose rules are written the same share one rulecore.Set; a call whose
// rules differ, or whose tool implies rules, gets its own; and a rule
// that does not compile is reported for every case that writes it.
func TestSharedRuleSets(t *testing.T) {
	e := load(t, `version: 1
tools:
  - name: t
    parameters: {type: object, properties: {n: {type: number}, o: {type: string}}, required: [n]}
cases:
  - {id: a, expected: {name: f, arguments: {x: A}, rules: {x: case_insensitive}}}
  - {id: b, expected: {name: f, arguments: {x: B}, rules: {x: case_insensitive}}}
  - {id: c, expected: {name: f, arguments: {x: C}, rules: {x: {tolerance: 1}}}}
  - {id: d, expected: {name: f, arguments: {x: D}}}
  - {id: e, expected: {name: t, arguments: {n: 1}}}
  - {id: g, expected: {name: t, arguments: {n: 1, o: x}}}
  - {id: h, expected: {name: t, arguments: {n: 2}}}
`)
	set := func(i int) any { return e.cases[i].expected[0].rules }
	if set(0) != set(1) {
		t.Error("cases a and b should share their rules")
	}
	if set(0) == set(2) || set(0) == set(3) || set(2) == set(3) {
		t.Error("cases with different rules should not share them")
	}
	// What a tool's schema implies depends on the tool alone, not on which
	// arguments the expected call names (declarations, see rulecore.Set.Declare).
	if set(4) != set(5) || set(4) != set(6) {
		t.Error("calls of one tool should share their rules")
	}
	if set(3) == set(4) {
		t.Error("a call of a tool with a schema should not share the rules of a call without one")
	}
	for i, id := range []string{"a", "b"} {
		r := e.newScorer().Score(i, mustParse(t, `[{"name":"f","arguments":{"x":"`+string(rune('a'+i))+`"}}]`))
		if !r.Pass {
			t.Errorf("case %s: %s", id, r.AppendJSON(nil))
		}
	}

	path := filepath.Join(t.TempDir(), "suite.yaml")
	os.WriteFile(path, []byte(`version: 1
cases:
  - {id: a, expected: {name: f, arguments: {x: A}, rules: {x: bogus}}}
  - {id: b, expected: {name: f, arguments: {x: B}, rules: {x: bogus}}}
`), 0o644)
	s, err := suite.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = newEngine(s, Options{})
	var se *suite.Error
	if !errors.As(err, &se) || len(se.Problems) != 2 || se.Problems[0].Loc.Case != "a" || se.Problems[1].Loc.Case != "b" {
		t.Fatalf("want one problem per case, got %v", err)
	}
}

// Cases that give the same tool, by name and parameters, share one
// compiled tool, as suites imported from benchmarks repeat a few tools in
// thousands of cases; a tool whose parameters differ in anything, a
// number's spelling included, or whose name differs, is compiled apart,
// and each case still scores against its own.
func TestSharedTools(t *testing.T) {
	e := load(t, `version: 1
cases:
  - id: a
    tools: [{name: f, parameters: {type: object, properties: {n: {type: integer, maximum: 5}}}}]
    expected: {name: f, arguments: {n: 1}}
  - id: b
    tools: [{name: f, parameters: {properties: {n: {maximum: 5, type: integer}}, type: object}}]
    expected: {name: f, arguments: {n: 1}}
  - id: c
    tools: [{name: f, parameters: {type: object, properties: {n: {type: integer, maximum: 5.0}}}}]
    expected: {name: f, arguments: {n: 1}}
  - id: d
    tools: [{name: f, parameters: {type: object, properties: {n: {type: integer, maximum: 2}}}}]
    expected: {name: f, arguments: {n: 1}}
  - id: e
    tools: [{name: g, parameters: {type: object, properties: {n: {type: integer, maximum: 5}}}}]
    expected: {name: g, arguments: {n: 1}}
`)
	tool := func(i int) *tool { return e.cases[i].input.tool(e.cases[i].expected[0].name) }
	if tool(0) == nil || tool(0) != tool(1) {
		t.Error("cases a and b give one tool and should share it")
	}
	for _, i := range []int{2, 3, 4} {
		if tool(i) == tool(0) {
			t.Errorf("case %s gives another tool and should not share a's", e.cases[i].id)
		}
	}
	resp := func(name string) value.Value {
		return mustParse(t, `[{"name":"`+name+`","arguments":{"n":3}}]`)
	}
	for i, want := range []string{"mismatch", "mismatch", "mismatch", "schema", "mismatch"} {
		r := e.newScorer().Score(i, resp(e.cases[i].expected[0].name))
		var kinds []string
		for _, d := range r.Diffs {
			kinds = append(kinds, string(d.Kind))
		}
		if !slices.Contains(kinds, want) || (want != "schema") == slices.Contains(kinds, "schema") {
			t.Errorf("case %s: diffs %v, want a %s and a schema diff only where n is above its maximum", e.cases[i].id, kinds, want)
		}
	}
}

// A suite large enough to compile on several goroutines reports its
// problems in the order of its cases, as compiling them one by one does.
func TestProblemsInCaseOrder(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("version: 1\ncases:\n")
	var want []string
	for i := range 12000 {
		rule := "case_insensitive"
		if i%997 == 5 {
			rule = fmt.Sprintf("bogus%d", i)
			want = append(want, fmt.Sprintf("c%d", i))
		}
		fmt.Fprintf(&sb, "  - {id: c%d, expected: {name: f, arguments: {x: A}, rules: {x: %s}}}\n", i, rule)
	}
	path := filepath.Join(t.TempDir(), "suite.yaml")
	os.WriteFile(path, []byte(sb.String()), 0o644)
	s, err := suite.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = newEngine(s, Options{})
	var se *suite.Error
	if !errors.As(err, &se) {
		t.Fatalf("want a *suite.Error, got %v", err)
	}
	var got []string
	for _, p := range se.Problems {
		got = append(got, p.Loc.Case)
	}
	if !slices.Equal(got, want) {
		t.Errorf("problems for cases %v, want %v", got, want)
	}
}

// Each mistake of a rule is a problem of its own, at the rule's key, so
// that a suite's author fixes them all in one round.
func TestEveryMistakeOfARule(t *testing.T) {
	path := filepath.Join(t.TempDir(), "suite.yaml")
	os.WriteFile(path, []byte("version: 1\ncases:\n  - {id: a, expected: {name: f, arguments: {x: 1}, rules: {x: {tolerence: 1, relativ: 2, normalize: [bogus]}}}}\n"), 0o644)
	s, err := suite.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = newEngine(s, Options{})
	var se *suite.Error
	if !errors.As(err, &se) || len(se.Problems) != 3 {
		t.Fatalf("want three problems, got %v", err)
	}
	for i, prop := range []string{"normalize", "relativ", "tolerence"} {
		p := se.Problems[i]
		if p.Loc.Key != "cases[0].expected[0].rules.x" || p.Loc.Case != "a" || !strings.HasPrefix(p.Msg, prop+": ") || strings.Contains(p.Msg, "\n") {
			t.Errorf("problem %d: %s, want one of %s at the rule's key", i, p, prop)
		}
	}
}
