package rulecore

import (
	"github.com/callgrade/callgrade/rules"
	"slices"
	"testing"

	"github.com/callgrade/callgrade/value"
)

// TestPasses: a pair in Context.Passes passes without being walked, at
// any depth, and only that pair: the same values elsewhere, or the pair
// with its sides swapped, are compared as ever. The outermost pairs of
// nested ones are what Mark and Cut keep.
func TestPasses(t *testing.T) {
	set := newSet(t, rules.Extensions{}, call("n", `"numeric"`))
	e := mustParse(t, `{"list":[{"k":"v"},{"k":"w"}],"n":2,"s":"x"}`)
	a := mustParse(t, `{"list":[{"k":"v"},{"k":"W"}],"n":"3","s":"y"}`)
	el, al := e.Members()[0].Value.Elems(), a.Members()[0].Value.Elems()
	en, an := &e.Members()[1].Value, &a.Members()[1].Value
	for _, tc := range []struct {
		name  string
		add   func(p *Passes)
		diffs []string
	}{
		{"none", func(*Passes) {}, []string{"mismatch list.1.k", "mismatch n", "mismatch s"}},
		{"an element", func(p *Passes) { p.Add(&al[1], &el[1]) }, []string{"mismatch n", "mismatch s"}},
		{"a member", func(p *Passes) { p.Add(an, en) }, []string{"mismatch list.1.k", "mismatch s"}},
		{"sides swapped", func(p *Passes) { p.Add(en, an) }, []string{"mismatch list.1.k", "mismatch n", "mismatch s"}},
		{"another element", func(p *Passes) { p.Add(&al[0], &el[1]) }, []string{"mismatch list.1.k", "mismatch n", "mismatch s"}},
		{"inner pairs cut", func(p *Passes) {
			m := p.Mark()
			p.Add(&al[1], &el[1])
			p.Cut(m)
			p.Add(an, en)
		}, []string{"mismatch list.1.k", "mismatch s"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var p Passes
			tc.add(&p)
			var diffs []Diff
			res := set.Compare(e, a, &Context{Passes: &p}, func(d Diff) { diffs = append(diffs, d) })
			if got := brief(diffs); !slices.Equal(got, tc.diffs) {
				t.Errorf("diffs %q, want %q%s", got, tc.diffs, describeDiffs(diffs))
			}
			if want := (Result{Matched: 3 - len(tc.diffs), Total: 3}); res != want {
				t.Errorf("result %+v, want %+v", res, want)
			}
		})
	}
	// Past its bound a Passes records nothing more, and the comparison
	// walks what it did not record.
	var p Passes
	x := value.StringOf("x")
	for range maxPasses {
		p.Add(&x, &x)
	}
	p.Add(an, en)
	if p.has(an, en) {
		t.Error("a pair past the bound is recorded")
	}
}
