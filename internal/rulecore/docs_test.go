package rulecore_test

import (
	"github.com/callgrade/callgrade/internal/rulecore"
	"os"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/value"
)

// TestDocsExamples checks every row of the examples table in docs/rules.md,
// so that the reference cannot drift from the code.
func TestDocsExamples(t *testing.T) {
	doc, err := os.ReadFile("../../docs/rules.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(doc), "## Examples")
	if !ok {
		t.Fatal("docs/rules.md has no Examples section")
	}
	rows := 0
	for _, line := range strings.Split(table, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 6 || !strings.Contains(cells[1], "`") {
			continue
		}
		cell := func(i int) value.Value {
			text := strings.Trim(strings.TrimSpace(cells[i]), "`")
			v, err := value.Parse(text)
			if err != nil {
				t.Fatalf("%s: cell %q is not JSON: %v", line, text, err)
			}
			return v
		}
		exp, act, spec := cell(1), cell(2), cell(3)
		want := strings.TrimSpace(cells[4])
		rows++
		rule, err := rulecore.Compile(spec, rules.Extensions{})
		if err != nil {
			t.Errorf("%s: %v", line, err)
			continue
		}
		path, _ := rulecore.ParsePath("x")
		var set rulecore.Set
		set.Add(rulecore.LevelCall, path, rule)
		e, _ := value.ObjectOf(value.Member{Key: "x", Value: exp})
		a, _ := value.ObjectOf(value.Member{Key: "x", Value: act})
		var kinds []string
		set.CompareChecked(e, a, &rulecore.Context{}, func(d rulecore.Diff) { kinds = append(kinds, string(d.Kind)) })
		got := "pass"
		if len(kinds) > 0 {
			got = kinds[0]
		}
		if got != want {
			t.Errorf("docs/rules.md row %s\n  verdict %s, the table says %s", line, got, want)
		}
	}
	if rows < 10 {
		t.Fatalf("read only %d example rows from docs/rules.md", rows)
	}
}
