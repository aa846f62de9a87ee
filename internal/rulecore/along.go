package rulecore

import (
	"strconv"

	"github.com/callgrade/callgrade/value"
)

// RulesAlong returns the rule in force at each step of a concrete path into
// v, an expected call's arguments, as a comparison under s would find it:
// out[0] at the arguments object itself, out[i] at path[:i]; nil where no
// rule applies. An element of path is an index where v holds an array at
// that place, else an object key; the path may go on past what v holds
// (to a key v leaves out). An ignore above a step whose rule was written,
// and is no ignore, is nil there: the most specific path wins
// (walker.ignored).
func (s *Set) RulesAlong(v value.Value, path []string) []*Rule {
	out := make([]*Rule, 0, len(path)+1)
	st := s.compiled()
	out = append(out, st.rule)
	named := -1 // the last step whose written rule is no ignore
	if st.written && !st.rule.ignore {
		named = 0
	}
	defer func() {
		for j := range named {
			if out[j] != nil && out[j].ignore {
				out[j] = nil
			}
		}
	}()
	for _, k := range path {
		if v.Kind() == value.Array {
			i, err := strconv.Atoi(k)
			if err != nil || i < 0 {
				st, v = nil, value.Value{}
			} else {
				st = st.index(i)
				if i < v.Len() {
					v = v.Elems()[i]
				} else {
					v = value.Value{}
				}
			}
		} else {
			st = st.key(k)
			v, _ = v.Get(k)
		}
		var r *Rule
		if st != nil {
			r = st.rule
			if st.written && !r.ignore {
				named = len(out)
			}
		}
		out = append(out, r)
	}
	return out
}

// Typed reports whether the rule has a type property, which decides a
// field the expected call leaves out.
func (r *Rule) Typed() bool { return r.types != 0 }
