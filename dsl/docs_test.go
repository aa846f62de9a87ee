package dsl

import (
	"os"
	"strings"
	"testing"
)

// TestDocumentedExamples evaluates the example column of the helper table
// in docs/dsl.md: each must compile and be true.
func TestDocumentedExamples(t *testing.T) {
	data, err := os.ReadFile("../docs/dsl.md")
	if err != nil {
		t.Fatal(err)
	}
	c := NewCompiler(Options{})
	_, helpers, _ := strings.Cut(string(data), "## Helpers")
	helpers, _, _ = strings.Cut(helpers, "\n## ")
	in := input(t, `"Leave at the door"`, `"leave at the door."`)
	in.Args = mustParse(t, `{"items": [{"sku": "A"}, {"sku": "B"}], "filters": {"price": {"max": 100}}}`)
	n := 0
	for _, line := range strings.Split(helpers, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(line, " | ")
		last := strings.TrimSuffix(cells[len(cells)-1], " |")
		if len(cells) != 3 || !strings.HasPrefix(last, "`") {
			continue
		}
		src := strings.ReplaceAll(strings.Trim(last, "`"), `\|`, `|`)
		e, err := c.Compile(src)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		ok, err := e.eval(in)
		if !ok || err != nil {
			t.Errorf("%s = %v, %v; the docs say true", src, ok, err)
		}
		n++
	}
	if n != 17 {
		t.Errorf("found %d examples, want one per helper", n)
	}
}
