package rulecore

import (
	"errors"
	"github.com/callgrade/callgrade/rules"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"

	"github.com/callgrade/callgrade/internal/errcode"
	"github.com/callgrade/callgrade/value"
)

// Rule is one compiled RULE: everything a comparison needs, prepared once
// so that comparing compiles nothing. A Rule is immutable and safe for
// concurrent use.
type Rule struct {
	name string // what String returns

	// Settings that descendants inherit (see the package doc). Each has a
	// flag saying whether this rule sets it, so that an unset property
	// keeps what an ancestor said.
	reset   bool // exact: true: start from the defaults, not the ancestors' settings
	fold    bool
	setFold bool
	norm    []normalizer // nil with setNorm: normalisers switched off
	setNorm bool
	num     numMode
	setNum  bool
	tol     string // the tolerance's literal; "": none
	rel     string // the relative tolerance's literal; "": none

	// Properties that act at this path only.
	unordered bool
	oneOf     []value.Value // nil: no one_of
	re        *regexp.Regexp
	reFold    *regexp.Regexp // re, case-insensitive, for case folding in force
	bounded   boundedAlts    // re decided without RE2, when it has that shape (bounded.go)
	anchored  anchoredAlts   // the same, for another shape
	prog      *progMatcher   // re searched without RE2, for the other shapes (backtrack.go)
	reMsg     string         // "expected a string matching re", which messages start with
	cmp       rules.Comparator
	params    value.Value
	ignore    bool
	optional  bool
	def       value.Value
	hasDef    bool
	// defImplied says the default is the schema's, taken in by under: it
	// fills in a side that lacks the field, but a field that neither
	// side gives is not judged by it (state.defaulted).
	defImplied bool
	extra      extraMode
	types      typeSet // 0: no type property
	from       *Ref    // the expected value is an earlier step's (steps.go)

	leaf    bool // decides at its path without reporting below it
	inherit bool // sets something descendants inherit
	compare bool // says how to compare (not only presence or extra_fields)
}

type numMode uint8

const (
	numExact     numMode = iota // value.Equal on numbers, strict types
	numNumeric                  // numeric strings count as numbers
	numTolerance                // numeric, and numbers within tol or rel
)

type extraMode uint8

const (
	extraInherit extraMode = iota
	extraAllow
	extraReject
)

func errorf(prop, msg string) *rules.CompileError {
	return &rules.CompileError{Property: prop, Offset: -1, Msg: msg}
}

// Compile compiles a RULE: a shorthand string (exact, numeric,
// case_insensitive, unordered, ignore, optional) or an object of
// properties. ext supplies the expr and plugin properties; a nil func
// makes that property an error. Every regular expression, normaliser
// pipeline, one_of list and comparator is prepared here. The error is a
// *CompileError, or, when the rule has several mistakes, their
// errors.Join: each a *CompileError, which errors.As finds the first of.
func Compile(spec value.Value, ext rules.Extensions) (*Rule, error) {
	switch spec.Kind() {
	case value.String:
		return shorthand(spec.Str())
	case value.Object:
		return compileObject(spec, ext)
	}
	return nil, errorf("", "a rule must be a shorthand string or an object of properties, got "+describeKind(spec))
}

func shorthand(s string) (*Rule, error) {
	i, ok := propertyIndex[s]
	if !ok || !properties[i].shorthand {
		return nil, errorf("", "unknown rule "+strconv.Quote(s)+"; the shorthands are "+shorthandNames+" (anything else is written as an object)")
	}
	r := &Rule{name: s}
	properties[i].flag(r, true)
	r.finish()
	return r, nil
}

// compileObject reads each property into the Rule, checks the combination,
// then builds what must wait for the check (see property). Every property
// that is unknown or does not read is reported, as is every one that does
// not build, so that one rule's mistakes take one round to fix; the
// combination is checked, and the properties built, only when all read.
// Several errors come joined (errors.Join), each a *CompileError, in the
// order of the keys.
func compileObject(spec value.Value, ext rules.Extensions) (*Rule, error) {
	r := &Rule{}
	g := make(given, len(properties))
	var errs []error
	for _, m := range spec.Members() { // sorted by key: the errors' order is deterministic
		i, ok := propertyIndex[m.Key]
		if !ok {
			// The cause carries unknown_key, so that errors.Is finds the
			// finer code; with no Msg the text reads as it always has.
			cause := errcode.Wrap(errcode.UnknownKey, errors.New("unknown rule property; the properties are "+propertyNames))
			errs = append(errs, &rules.CompileError{Property: m.Key, Offset: -1, Err: cause})
			continue
		}
		g[i].v, g[i].ok = m.Value, true
		p := &properties[i]
		var err error
		if p.flag != nil {
			var on bool
			if on, err = boolProp(m.Key, m.Value); err == nil {
				p.flag(r, on)
			}
		} else {
			err = p.parse(r, m.Value)
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return nil, join(errs)
	}
	if err := g.check(); err != nil {
		return nil, err
	}
	for i, p := range properties {
		if g[i].ok && p.build != nil {
			if err := p.build(r, g[i].v, ext); err != nil {
				errs = append(errs, err)
			}
		}
	}
	if len(errs) > 0 {
		return nil, join(errs)
	}
	r.name = g.describe()
	r.finish()
	return r, nil
}

// join is the error of errs: the one, or all joined.
func join(errs []error) error {
	if len(errs) == 1 {
		return errs[0]
	}
	return errors.Join(errs...)
}

// standalone reports whether the rule's matcher decides without an
// expected value (one_of and regex ignore it; a comparator is given null),
// so that an optional field the expected call leaves out is still held to
// it when the actual call gives one.
func (r *Rule) standalone() bool { return r.re != nil || r.oneOf != nil || r.cmp != nil }

// settingsOnly reports whether the rule says nothing but how to compare
// (case folding, normalisers, numeric mode, and, with tolerance, a
// tolerance), so that comparing under it is symmetric: what it accepts
// does not depend on which side is the expected one or on presence.
func (r *Rule) settingsOnly(tolerance bool) bool {
	return !r.ignore && !r.optional && !r.hasDef && r.extra == extraInherit &&
		r.re == nil && r.oneOf == nil && r.cmp == nil && !r.unordered && r.from == nil &&
		(tolerance || r.tol == "" && r.rel == "")
}

// under returns r with the numeric mode and the default of im, a rule the
// tool's schema implies at a path where r applies, taken in where r says
// nothing of them and may take them: r itself when nothing is added. A
// regex, expr or plugin rule, or one with a tolerance, keeps its own way
// with numbers (numeric would contradict the first three, and a tolerance
// is numeric already); exact: true starts from exact comparison; a rule
// whose expected value is a step's (from) takes no default; an ignored
// field takes nothing.
func (r *Rule) under(im *Rule) *Rule {
	if r.ignore {
		return r
	}
	m := *r
	var added []string
	if im.setNum && !r.setNum && !r.reset && r.tol == "" && r.rel == "" && r.re == nil && r.cmp == nil {
		m.num, m.setNum = im.num, true
		added = append(added, "numeric")
	}
	if im.hasDef && !r.hasDef && r.from == nil {
		m.def, m.hasDef, m.defImplied = im.def, true, true
		added = append(added, "default")
	}
	if len(added) == 0 {
		return r
	}
	m.name = r.name + "+" + strings.Join(added, "+")
	m.finish()
	return &m
}

// judgesAbsent reports whether a field that neither call gives (or both
// give as null, with null_is_missing) is compared as the rule's default
// on both sides: a default written in the rule, not one the schema lends
// it (defImplied), on a field that is not ignored.
func (r *Rule) judgesAbsent() bool { return r.hasDef && !r.defImplied && !r.ignore }

// finish derives the flags the comparison walks on.
func (r *Rule) finish() {
	r.leaf = r.re != nil || r.oneOf != nil || r.tol != "" || r.rel != "" || r.cmp != nil || r.unordered
	r.inherit = r.reset || r.setFold || r.setNorm || r.setNum
	r.compare = r.inherit || r.leaf
}

// compileRegex compiles an RE2 expression; a syntax error gets the offset of
// the fragment regexp names.
func compileRegex(src, prefix string) (*regexp.Regexp, error) {
	re, err := regexp.Compile(prefix + src)
	if err == nil {
		return re, nil
	}
	off := -1
	var se *syntax.Error
	if errors.As(err, &se) {
		switch se.Code {
		case syntax.ErrMissingParen, syntax.ErrUnexpectedParen:
			// RE2 names the whole expression; point at the bracket.
			off = unbalancedParen(src)
		default:
			if se.Expr != "" {
				off = strings.Index(src, se.Expr)
			}
		}
	}
	return nil, &rules.CompileError{Property: "regex", Offset: off, Msg: "invalid regular expression", Err: err}
}

// unbalancedParen returns the offset of the first '(' never closed or ')'
// never opened in an RE2 expression, skipping escapes and character
// classes, or -1.
func unbalancedParen(src string) int {
	var open []int
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case '[':
			// A class ends at the first ']' that is not its first member.
			j := i + 1
			if j < len(src) && src[j] == '^' {
				j++
			}
			if j < len(src) && src[j] == ']' {
				j++
			}
			for j < len(src) && src[j] != ']' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			i = j
		case '(':
			open = append(open, i)
		case ')':
			if len(open) == 0 {
				return i
			}
			open = open[:len(open)-1]
		}
	}
	if len(open) > 0 {
		return open[0]
	}
	return -1
}

// extensionError wraps an error from Extensions. An error that knows where
// in the text it is (a *CompileError, or one with a Column() int method,
// 0-based) gives its offset.
func extensionError(prop, msg string, err error) *rules.CompileError {
	var ce *rules.CompileError
	if errors.As(err, &ce) {
		c := *ce
		c.Property = prop
		return &c
	}
	off := -1
	var col interface{ Column() int }
	if errors.As(err, &col) {
		off = col.Column()
	}
	return &rules.CompileError{Property: prop, Offset: off, Msg: msg, Err: err}
}

func describeKind(v value.Value) string {
	s := v.String()
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return v.Kind().String() + " " + s
}

// String returns what a diff's "rule" field shows for this rule: the
// shorthand it was written as; for an object with one property a compact
// form such as "tolerance=0.01", "regex=^B.*n$", "normalize=[trim,lower]",
// "plugin=geo.within_km"; for several, the property names joined with "+"
// ("normalize+case_insensitive").
func (r *Rule) String() string { return r.name }

// Ignore reports whether the field is ignored: anything or nothing matches.
func (r *Rule) Ignore() bool { return r.ignore }

// Optional reports whether the field may be absent.
func (r *Rule) Optional() bool { return r.optional }

// Default returns the value an absent field counts as, if the rule has one.
func (r *Rule) Default() (value.Value, bool) { return r.def, r.hasDef }
