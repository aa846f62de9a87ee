package dsl

import (
	"strings"
	"testing"

	"github.com/callgrade/callgrade/rules"
)

func benchEval(b *testing.B, src string, in *rules.Input) {
	c := NewCompiler(Options{})
	e, err := c.Compile(src)
	if err != nil {
		b.Fatal(err)
	}
	if ok, err := e.eval(in); err != nil || !ok {
		b.Fatalf("%s: %v %v", src, ok, err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		e.Compare(in)
	}
}

// BenchmarkEval evaluates one expression per call, as a field comparator.
func BenchmarkEval(b *testing.B) {
	b.Run("expr=abs", func(b *testing.B) {
		benchEval(b, `abs(actual - expected) <= 0.5`, &rules.Input{Path: "temp", Actual: mustParse(b, `21.3`), Expected: mustParse(b, `21`)})
	})
	b.Run("expr=abs/vm", func(b *testing.B) {
		// The same expression on expr's VM, as every expression outside the
		// numeric subset runs.
		c := NewCompiler(Options{})
		e, err := c.Compile(`abs(actual - expected) <= 0.5`)
		if err != nil {
			b.Fatal(err)
		}
		in := &rules.Input{Path: "temp", Actual: mustParse(b, `21.3`), Expected: mustParse(b, `21`)}
		b.ReportAllocs()
		for b.Loop() {
			e.evalVM(in)
		}
	})
	b.Run("expr=approx", func(b *testing.B) {
		// Exact on the literals, as the tolerance rule.
		benchEval(b, `approx(actual, expected, 0.5)`, &rules.Input{Path: "temp", Actual: mustParse(b, `21.3`), Expected: mustParse(b, `21`)})
	})
	b.Run("expr=approx/vm", func(b *testing.B) {
		c := NewCompiler(Options{})
		e, err := c.Compile(`approx(actual, expected, 0.5)`)
		if err != nil {
			b.Fatal(err)
		}
		in := &rules.Input{Path: "temp", Actual: mustParse(b, `21.3`), Expected: mustParse(b, `21`)}
		b.ReportAllocs()
		for b.Loop() {
			e.evalVM(in)
		}
	})
	b.Run("expr=same_day", func(b *testing.B) {
		benchEval(b, `same_day(actual, expected)`, &rules.Input{Path: "date", Actual: mustParse(b, `"2024-01-05T10:30:00+01:00"`), Expected: mustParse(b, `"2024-01-05"`)})
	})
	// The budgets' own cost: a closure over a list (steps, and the clock
	// read every 64), string building (work), a split (memory).
	b.Run("expr=closure", func(b *testing.B) {
		benchEval(b, `all(actual, # > 0)`, &rules.Input{Path: "xs", Actual: mustParse(b, `[`+strings.Repeat(`1,`, 99)+`1]`)})
	})
	b.Run("expr=concat", func(b *testing.B) {
		benchEval(b, `actual + "-" + expected == "ab-cd"`, &rules.Input{Path: "s", Actual: mustParse(b, `"ab"`), Expected: mustParse(b, `"cd"`)})
	})
	// == of two values whose types are known only when it runs: its
	// sides' sizes are charged to MaxWork first.
	b.Run("expr=equal", func(b *testing.B) {
		benchEval(b, `actual == expected`, &rules.Input{Path: "o", Actual: mustParse(b, `{"city":"Berlin","days":[1,2,3]}`), Expected: mustParse(b, `{"days":[1,2,3],"city":"Berlin"}`)})
	})
	b.Run("expr=split", func(b *testing.B) {
		benchEval(b, `len(split(actual, ",")) == 3`, &rules.Input{Path: "s", Actual: mustParse(b, `"a,b,c"`)})
	})
}
