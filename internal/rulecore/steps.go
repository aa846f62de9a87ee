package rulecore

import (
	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/rules"
	"strconv"
	"strings"

	"github.com/callgrade/callgrade/value"
)

// The fields of a step that a reference may name.
var stepFields = []string{"name", "arguments", "result", "error", "id", "turn"}

// Ref is a parsed reference to an earlier step of a run, the value of a
// `from` property: `steps[I].FIELD.PATH` (step I of the run; a negative I
// counts back from the step being compared, -1 being the one just before
// it), `TOOL.FIELD.PATH` (the last call to TOOL before it) or
// `TOOL[I].FIELD.PATH` (the I-th call to TOOL, from 0; negative from the
// last). FIELD is name, arguments, result, error, id or turn; PATH, which
// may be left out, is a PATH without wildcards.
type Ref struct {
	src     string
	tool    string // "" for steps[I]
	index   int
	indexed bool // steps[I] or TOOL[I]
	field   string
	path    []string // literal segments
}

// String returns the reference as written.
func (r *Ref) String() string { return r.src }

// Tool returns the tool a reference names, "" for steps[I].
func (r *Ref) Tool() string { return r.tool }

// Index returns the index a reference gives, I of steps[I] or TOOL[I],
// and false when it gives none (TOOL alone).
func (r *Ref) Index() (int, bool) { return r.index, r.indexed }

// ParseRef parses a reference (see Ref).
func ParseRef(s string) (*Ref, error) {
	bad := func(off int, msg string) error {
		return errorf("from", "reference "+strconv.Quote(s)+" at offset "+strconv.Itoa(off)+": "+msg)
	}
	r := &Ref{src: s}
	i := strings.IndexAny(s, ".[")
	if i <= 0 {
		if i == 0 || s == "" {
			return nil, bad(0, "want steps[I] or a tool name first")
		}
		return nil, bad(len(s), "want .FIELD after "+strconv.Quote(s)+" (one of "+strings.Join(stepFields, ", ")+")")
	}
	head := s[:i]
	rest := s[i:]
	if rest[0] == '[' {
		end := strings.IndexByte(rest, ']')
		if end < 0 {
			return nil, bad(i, "[ is not closed")
		}
		n, err := strconv.Atoi(rest[1:end])
		if err != nil {
			return nil, bad(i+1, "want a whole number in [ ], not "+strconv.Quote(rest[1:end]))
		}
		r.index, r.indexed = n, true
		i += end + 1
		rest = rest[end+1:]
	}
	if head != "steps" || !r.indexed {
		r.tool = head
	}
	if rest == "" || rest[0] != '.' {
		return nil, bad(i, "want .FIELD (one of "+strings.Join(stepFields, ", ")+")")
	}
	rest = rest[1:]
	i++
	field, path, hasPath := strings.Cut(rest, ".")
	known := false
	for _, f := range stepFields {
		known = known || f == field
	}
	if !known {
		return nil, bad(i, "unknown step field "+strconv.Quote(field)+"; the fields are "+strings.Join(stepFields, ", "))
	}
	r.field = field
	if hasPath {
		p, err := ParsePath(path)
		if err != nil {
			return nil, bad(i+len(field)+1, err.Error())
		}
		for _, seg := range p.Segments() {
			if seg.Star || seg.Hash {
				return nil, bad(i+len(field)+1, "a reference names one value: no * or #")
			}
			r.path = append(r.path, seg.Key)
		}
	}
	return r, nil
}

// Resolve returns the value r names among the visible steps of s, or why
// it names none: the step did not happen, its tool reported an error (for
// a reference to its result), or the path leads nowhere in it.
func (r *Ref) Resolve(s rules.Steps) (value.Value, string) {
	n := s.Len()
	k := -1
	switch {
	case r.tool == "":
		k = r.index
		if k < 0 {
			k += n
		}
		if k < 0 || k >= n {
			return value.Value{}, "step " + strings.TrimPrefix(r.head(), "steps") + " did not happen before this one (" + plural(n, "step") + " before it)"
		}
	case !r.indexed || r.index < 0:
		want := 1
		if r.indexed {
			want = -r.index
		}
		for j := n - 1; j >= 0; j-- {
			if s.Name(j) == r.tool {
				if want--; want == 0 {
					k = j
					break
				}
			}
		}
	default:
		seen := 0
		for j := 0; j < n; j++ {
			if s.Name(j) == r.tool {
				if seen == r.index {
					k = j
					break
				}
				seen++
			}
		}
	}
	if k < 0 {
		if !r.indexed {
			return value.Value{}, "no call to " + r.tool + " happened before this one"
		}
		return value.Value{}, r.head() + " did not happen before this one (" + plural(count(s, r.tool), "call") + " to " + r.tool + " before it)"
	}
	step := s.Value(k)
	where := r.head() + " (step " + strconv.Itoa(k) + ")"
	if e, _ := step.Get("error"); r.field == "result" && e.Kind() == value.Bool && e.Bool() {
		// What a failed tool returned is its error, not the value the
		// run went on with.
		return value.Value{}, where + " failed: its tool reported an error, so its result gives no value"
	}
	v, ok := step.Get(r.field)
	if !ok {
		return value.Value{}, where + " has no " + r.field
	}
	for _, key := range r.path {
		switch v.Kind() {
		case value.Object:
			v, ok = v.Get(key)
		case value.Array:
			j, err := strconv.Atoi(key)
			ok = err == nil && j >= 0 && j < v.Len() && key == strconv.Itoa(j)
			if ok {
				v = v.Elems()[j]
			}
		default:
			ok = false
		}
		if !ok {
			return value.Value{}, where + "." + r.field + " has nothing at " + strings.Join(r.path, ".")
		}
	}
	return v, ""
}

// head is the step part of the reference as written: steps[0], find_order.
func (r *Ref) head() string {
	if i := strings.IndexByte(r.src, '.'); i >= 0 {
		h := r.src[:i]
		if j := strings.IndexByte(h, ']'); j >= 0 && j < len(h)-1 {
			return h[:j+1]
		}
		return h
	}
	return r.src
}

func count(s rules.Steps, tool string) int {
	c := 0
	for j := range s.Len() {
		if s.Name(j) == tool {
			c++
		}
	}
	return c
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// StepsUser is implemented by comparators that read the run's steps
// (rules.Input.Steps; an expression that names `steps`), so that an engine
// knows which cases need a view of the run. A program's own comparator
// says so with the same method.
type StepsUser interface {
	UsesSteps() bool
}

// UsesSteps reports whether comparing under r reads the run's steps: a
// `from` reference, or a comparator that reads them.
func (r *Rule) UsesSteps() bool {
	if r.from != nil {
		return true
	}
	u, ok := r.cmp.(StepsUser)
	return ok && u.UsesSteps()
}

// From returns the rule's reference, nil when it has none.
func (r *Rule) From() *Ref { return r.from }

// Standalone reports whether the rule decides without an expected value:
// it has regex, one_of, an expr or plugin comparator, or a from reference
// that supplies the expected value.
func (r *Rule) Standalone() bool { return r.standalone() || r.from != nil }

// unresolved fails a field whose `from` reference names nothing: a step
// that did not happen is the agent's failure, a mismatch, never a rule
// error. An optional field left out passes.
func (w *walker) unresolved(st *state, f *eff, r *Rule, av *value.Value, why string, quiet bool) bool {
	if av == nil && r.optional {
		return true
	}
	if !quiet {
		d := Diff{Kind: results.Mismatch, Path: w.pathString(w.ctx.Words), Rule: nameAt(st, f)}
		var rm room
		if av != nil {
			d.Actual, d.HasActual = *av, true
			d.Message = rm.message("got ").show(*av).s("; expected the value of ").s(r.from.String()).s(", but ").s(why).done(w.ctx.Words)
		} else {
			d.Kind = results.MissingArgument
			d.Message = rm.message("expected the value of ").s(r.from.String()).s(", but ").s(why).s(", and the ").s(w.what()).s(" is missing").done(w.ctx.Words)
		}
		w.emit(d)
	}
	return false
}

// UsesSteps reports whether a comparison under s reads the run's steps.
func (s *Set) UsesSteps() bool { return s.root.anyRule((*Rule).UsesSteps) }

// DecidesByValues reports whether a comparison under s depends on the
// two values alone (and the Context's settings): no rule calls a
// comparator, an expression or a plugin, which may keep state or fail,
// or names a run's step. Under such a set an actual value Identical to
// the expected one is judged as the expected one against itself is.
func (s *Set) DecidesByValues() bool {
	return !s.root.anyRule(func(r *Rule) bool { return r.cmp != nil || r.from != nil })
}

// anyRule reports whether f holds for a rule at or below n.
func (n *node) anyRule(f func(*Rule) bool) bool {
	if n == nil {
		return false
	}
	if n.rule != nil && f(n.rule) {
		return true
	}
	for _, c := range n.lit {
		if c.anyRule(f) {
			return true
		}
	}
	return n.star.anyRule(f) || n.hash.anyRule(f)
}
