package rules

import (
	"errors"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"

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
	cmp       Comparator
	params    value.Value
	ignore    bool
	optional  bool
	def       value.Value
	hasDef    bool
	extra     extraMode
	types     typeSet // 0: no type property

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

// The properties, in the order String lists them.
var propertyOrder = []string{
	"exact", "numeric", "tolerance", "relative", "case_insensitive", "normalize",
	"unordered", "one_of", "regex", "ignore", "optional", "default", "type",
	"expr", "plugin", "params", "extra_fields",
}

// CompileError is a rule that cannot be compiled: an unknown property, a
// value of the wrong type, an unknown normaliser, a contradictory
// combination, a bad regular expression or expression, or a property whose
// extension is not enabled.
type CompileError struct {
	Property string // the property at fault; "" for the rule as a whole
	Offset   int    // byte offset inside the property's text when known (regex, expr), else -1
	Msg      string
	Err      error // the underlying error, if any
}

// Error returns "property: message at offset N: underlying error".
func (e *CompileError) Error() string {
	var b strings.Builder
	if e.Property != "" {
		b.WriteString(e.Property)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	if e.Offset >= 0 {
		b.WriteString(" at offset ")
		b.WriteString(strconv.Itoa(e.Offset))
	}
	if e.Err != nil {
		if e.Msg != "" {
			b.WriteString(": ")
		}
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the underlying error.
func (e *CompileError) Unwrap() error { return e.Err }

func errorf(prop, msg string) *CompileError {
	return &CompileError{Property: prop, Offset: -1, Msg: msg}
}

// Compile compiles a RULE: a shorthand string (exact, numeric,
// case_insensitive, unordered, ignore, optional) or an object of
// properties. ext supplies the expr and plugin properties; a nil func
// makes that property an error. Every regular expression, normaliser
// pipeline, one_of list and comparator is prepared here.
func Compile(spec value.Value, ext Extensions) (*Rule, error) {
	switch spec.Kind() {
	case value.String:
		return shorthand(spec.Str())
	case value.Object:
		return compileObject(spec, ext)
	}
	return nil, errorf("", "a rule must be a shorthand string or an object of properties, got "+describeKind(spec))
}

func shorthand(s string) (*Rule, error) {
	r := &Rule{name: s}
	switch s {
	case "exact":
		r.reset = true
	case "numeric":
		r.num, r.setNum = numNumeric, true
	case "case_insensitive":
		r.fold, r.setFold = true, true
	case "unordered":
		r.unordered = true
	case "ignore":
		r.ignore = true
	case "optional":
		r.optional = true
	default:
		return nil, errorf("", "unknown rule "+strconv.Quote(s)+"; the shorthands are exact, numeric, case_insensitive, unordered, ignore and optional (anything else is written as an object)")
	}
	r.finish()
	return r, nil
}

// props is what an object rule said, before the combination checks.
type props struct {
	has        map[string]bool
	exact      bool
	numeric    bool
	fold       bool
	unordered  bool
	ignore     bool
	optional   bool
	tolText    string
	relText    string
	normNames  []string
	regex      string
	expr       string
	plugin     string
	extraText  string
	params     value.Value
	oneOf      []value.Value
	defaultVal value.Value
	typeNames  []string
}

func compileObject(spec value.Value, ext Extensions) (*Rule, error) {
	p := props{has: make(map[string]bool, spec.Len())}
	r := &Rule{}
	for _, m := range spec.Members() { // sorted by key: the first error is deterministic
		v := m.Value
		p.has[m.Key] = true
		var err error
		switch m.Key {
		case "exact":
			p.exact, err = boolProp(m.Key, v)
		case "numeric":
			p.numeric, err = boolProp(m.Key, v)
		case "case_insensitive":
			p.fold, err = boolProp(m.Key, v)
		case "unordered":
			p.unordered, err = boolProp(m.Key, v)
		case "ignore":
			p.ignore, err = boolProp(m.Key, v)
		case "optional":
			p.optional, err = boolProp(m.Key, v)
		case "tolerance":
			r.tol, err = boundProp(m.Key, v)
			p.tolText = r.tol
		case "relative":
			r.rel, err = boundProp(m.Key, v)
			p.relText = r.rel
		case "normalize":
			p.normNames, r.norm, err = normalizeProp(v)
		case "one_of":
			if v.Kind() != value.Array || v.Len() == 0 {
				err = errorf(m.Key, "want a non-empty list of values, got "+describeKind(v))
			}
			p.oneOf = v.Elems()
		case "regex":
			if v.Kind() != value.String {
				err = errorf(m.Key, "want a regular expression string, got "+describeKind(v))
			}
			p.regex = v.Str()
		case "default":
			p.defaultVal = v
		case "type":
			p.typeNames, r.types, err = typeProp(v)
		case "expr":
			if v.Kind() != value.String || strings.TrimSpace(v.Str()) == "" {
				err = errorf(m.Key, "want an expression string, got "+describeKind(v))
			}
			p.expr = v.Str()
		case "plugin":
			if v.Kind() != value.String {
				err = errorf(m.Key, "want \"plugin_name.comparator\", got "+describeKind(v))
			} else if name, cmp, ok := strings.Cut(v.Str(), "."); !ok || name == "" || cmp == "" {
				err = errorf(m.Key, "want \"plugin_name.comparator\", got "+strconv.Quote(v.Str()))
			}
			p.plugin = v.Str()
		case "params":
			if v.Kind() != value.Object {
				err = errorf(m.Key, "want an object, got "+describeKind(v))
			}
			p.params = v
		case "extra_fields":
			if v.Kind() != value.String || (v.Str() != "allow" && v.Str() != "reject") {
				err = errorf(m.Key, "want allow or reject, got "+v.String())
			}
			p.extraText = v.Str()
		default:
			err = errorf(m.Key, "unknown rule property; the properties are "+strings.Join(propertyOrder, ", "))
		}
		if err != nil {
			return nil, err
		}
	}
	if err := p.check(); err != nil {
		return nil, err
	}

	// Settings.
	r.reset = p.exact
	if p.has["numeric"] {
		r.setNum = true
		if p.numeric {
			r.num = numNumeric
		}
	}
	if r.tol != "" || r.rel != "" {
		r.num, r.setNum = numTolerance, true
	}
	r.fold, r.setFold = p.fold, p.has["case_insensitive"]
	r.setNorm = p.has["normalize"]
	r.unordered = p.unordered
	r.ignore = p.ignore
	r.optional = p.optional
	if p.has["default"] {
		r.def, r.hasDef = p.defaultVal, true
	}
	switch p.extraText {
	case "allow":
		r.extra = extraAllow
	case "reject":
		r.extra = extraReject
	}
	if p.has["one_of"] {
		r.oneOf = p.oneOf
	}
	if p.has["params"] {
		r.params = p.params
	}
	if p.has["regex"] {
		re, err := compileRegex(p.regex, "")
		if err != nil {
			return nil, err
		}
		r.re = re
		// A folded variant for when case_insensitive is in force here,
		// said by this rule or inherited: RE2's (?i) is its case folding.
		if r.reFold, err = compileRegex(p.regex, "(?i)"); err != nil {
			return nil, err
		}
	}
	switch {
	case p.has["expr"]:
		if ext.Expr == nil {
			return nil, errorf("expr", "expr rules need the expression language, which is not enabled")
		}
		c, err := ext.Expr(p.expr)
		if err != nil {
			return nil, extensionError("expr", "invalid expression", err)
		}
		r.cmp = c
	case p.has["plugin"]:
		if ext.Plugin == nil {
			return nil, errorf("plugin", "plugin rules need plugins, which are not enabled")
		}
		c, err := ext.Plugin(p.plugin, r.params)
		if err != nil {
			return nil, extensionError("plugin", "cannot use plugin comparator "+strconv.Quote(p.plugin), err)
		}
		r.cmp = c
	}
	r.name = p.describe()
	r.finish()
	return r, nil
}

// check rejects combinations that contradict each other or mean nothing.
func (p *props) check() error {
	has := p.has
	others := func(except ...string) []string {
		var out []string
		for _, k := range propertyOrder {
			if has[k] && !contains(except, k) {
				out = append(out, k)
			}
		}
		return out
	}
	if p.ignore {
		if o := others("ignore"); len(o) > 0 {
			return errorf("ignore", "ignore: true cannot be combined with "+strings.Join(o, ", ")+": an ignored field is never compared")
		}
	}
	tolerant := has["tolerance"] || has["relative"]
	if p.exact {
		for _, k := range []string{"tolerance", "relative", "regex", "expr", "plugin"} {
			if has[k] {
				return errorf("exact", "exact: true contradicts "+k)
			}
		}
		if p.numeric {
			return errorf("exact", "exact: true contradicts numeric: true")
		}
	}
	if has["numeric"] && !p.numeric && tolerant {
		return errorf("numeric", "numeric: false contradicts tolerance and relative, which compare numbers")
	}
	if has["regex"] {
		// regex says what the actual may be, ignoring the expected value;
		// one_of and the numeric and list comparisons say it differently.
		for _, k := range []string{"one_of", "numeric", "tolerance", "relative", "expr", "plugin"} {
			if has[k] && (k != "numeric" || p.numeric) {
				return errorf("regex", "regex cannot be combined with "+k+": both say what the actual value may be")
			}
		}
		if p.unordered {
			return errorf("regex", "regex cannot be combined with unordered: regex matches a string, unordered compares lists")
		}
	}
	if has["expr"] && has["plugin"] {
		return errorf("expr", "expr cannot be combined with plugin: a field has one comparator")
	}
	for _, c := range []string{"expr", "plugin"} {
		if !has[c] {
			continue
		}
		for _, k := range []string{"numeric", "tolerance", "relative", "unordered", "one_of"} {
			if has[k] && (k != "numeric" || p.numeric) && (k != "unordered" || p.unordered) {
				return errorf(c, c+" cannot be combined with "+k+": the "+c+" decides the comparison")
			}
		}
	}
	if has["params"] && !has["plugin"] && !has["expr"] {
		return errorf("params", "params needs a plugin or an expr to pass them to")
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// describe returns what String shows: the one property's compact form, or
// the property names joined with "+".
func (p *props) describe() string {
	var parts []string
	for _, k := range propertyOrder {
		if !p.has[k] || k == "params" {
			continue
		}
		parts = append(parts, k)
	}
	compact := func(k string) string {
		switch k {
		case "exact":
			return boolName(k, p.exact)
		case "numeric":
			return boolName(k, p.numeric)
		case "case_insensitive":
			return boolName(k, p.fold)
		case "unordered":
			return boolName(k, p.unordered)
		case "ignore":
			return boolName(k, p.ignore)
		case "optional":
			return boolName(k, p.optional)
		case "tolerance":
			return "tolerance=" + p.tolText
		case "relative":
			return "relative=" + p.relText
		case "normalize":
			return "normalize=[" + strings.Join(p.normNames, ",") + "]"
		case "regex":
			return "regex=" + p.regex
		case "plugin":
			return "plugin=" + p.plugin
		case "extra_fields":
			return "extra_fields=" + p.extraText
		case "type":
			if len(p.typeNames) == 1 {
				return "type=" + p.typeNames[0]
			}
			return "type=[" + strings.Join(p.typeNames, ",") + "]"
		}
		return k
	}
	switch len(parts) {
	case 0:
		return "exact"
	case 1:
		return compact(parts[0])
	}
	for i, k := range parts {
		if n := compact(k); strings.HasSuffix(n, "=false") {
			parts[i] = n // a switched-off property must not read as switched on
		}
	}
	return strings.Join(parts, "+")
}

func boolName(k string, b bool) string {
	if b {
		return k
	}
	return k + "=false"
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
		r.re == nil && r.oneOf == nil && r.cmp == nil && !r.unordered &&
		(tolerance || r.tol == "" && r.rel == "")
}

// finish derives the flags the comparison walks on.
func (r *Rule) finish() {
	r.leaf = r.re != nil || r.oneOf != nil || r.tol != "" || r.rel != "" || r.cmp != nil || r.unordered
	r.inherit = r.reset || r.setFold || r.setNorm || r.setNum
	r.compare = r.inherit || r.leaf
}

func boolProp(k string, v value.Value) (bool, error) {
	if v.Kind() != value.Bool {
		return false, errorf(k, "want true or false, got "+describeKind(v))
	}
	return v.Bool(), nil
}

// boundProp reads a tolerance, kept as its literal so that comparisons
// under it are exact.
func boundProp(k string, v value.Value) (string, error) {
	if v.Kind() != value.Number {
		return "", errorf(k, "want a number >= 0, got "+describeKind(v))
	}
	if value.CompareNumbers(v.Str(), "0") < 0 {
		return "", errorf(k, "want a number >= 0, got "+v.Str())
	}
	return v.Str(), nil
}

func normalizeProp(v value.Value) ([]string, []normalizer, error) {
	if v.Kind() != value.Array {
		return nil, nil, errorf("normalize", "want a list of normalisers ("+normalizerNames+"), got "+describeKind(v))
	}
	names := make([]string, 0, v.Len())
	var fns []normalizer
	for _, e := range v.Elems() {
		var fn normalizer
		switch e.Kind() {
		case value.String:
			if fn = normalizerByName(e.Str()); fn == nil {
				return nil, nil, errorf("normalize", "unknown normaliser "+strconv.Quote(e.Str())+"; the normalisers are "+normalizerNames)
			}
			names = append(names, e.Str())
		case value.Object:
			var err error
			if fn, err = paramNormalizer(e); err != nil {
				return nil, nil, err
			}
			names = append(names, e.String())
		default:
			return nil, nil, errorf("normalize", "want normaliser names ("+normalizerNames+"), got "+describeKind(e))
		}
		fns = append(fns, fn)
	}
	return names, fns, nil
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
	return nil, &CompileError{Property: "regex", Offset: off, Msg: "invalid regular expression", Err: err}
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
func extensionError(prop, msg string, err error) *CompileError {
	var ce *CompileError
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
	return &CompileError{Property: prop, Offset: off, Msg: msg, Err: err}
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
