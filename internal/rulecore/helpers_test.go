package rulecore

import (
	"github.com/callgrade/callgrade/rules"
	"strings"
	"testing"
)

// rs is one PATH -> RULE entry for a test: spec is JSON; "" declares the
// path (Set.Declare).
type rs struct {
	level Level
	path  string
	spec  string
}

func call(path, spec string) rs { return rs{LevelCall, path, spec} }

func declare(path string) rs { return rs{LevelSchema, path, ""} }

func newSet(tb testing.TB, ext rules.Extensions, entries ...rs) *Set {
	tb.Helper()
	s := &Set{}
	for _, e := range entries {
		p, err := ParsePath(e.path)
		if err != nil {
			tb.Fatalf("ParsePath(%q): %v", e.path, err)
		}
		if e.spec == "" {
			s.Declare(p)
			continue
		}
		r, err := Compile(mustParse(tb, e.spec), ext)
		if err != nil {
			tb.Fatalf("Compile(%s): %v", e.spec, err)
		}
		s.Add(e.level, p, r)
	}
	return s
}

func compareText(tb testing.TB, s *Set, ctx *Context, expected, actual string) (Result, []Diff) {
	tb.Helper()
	var diffs []Diff
	res := s.Compare(mustParse(tb, expected), mustParse(tb, actual), ctx, func(d Diff) { diffs = append(diffs, d) })
	return res, diffs
}

// brief lists diffs as "kind path".
func brief(ds []Diff) []string {
	out := []string{}
	for _, d := range ds {
		out = append(out, string(d.Kind)+" "+d.Path)
	}
	return out
}

func describeDiffs(ds []Diff) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString("\n  " + string(d.Kind) + " " + d.Path + " [" + d.Rule + "]: " + d.Message)
	}
	return b.String()
}

// comparatorFunc adapts a func to Comparator.
type comparatorFunc func(in *rules.Input) rules.Outcome

func (f comparatorFunc) Compare(in *rules.Input) rules.Outcome { return f(in) }
