package rulecore

import (
	"strconv"
	"strings"

	"github.com/callgrade/callgrade/internal/number"
	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/value"
)

// A property is one key of an object rule. All that is particular to it is
// its entry in properties: how its value is read into the Rule, which
// combinations it refuses, and how String shows it.
type property struct {
	name string
	// flag makes a boolean property: its value must be true or false, and
	// flag writes it into the Rule. A flag is "on" when true.
	flag func(r *Rule, on bool)
	// parse reads any other property's value into the Rule; such a property
	// is on when given. Properties are read in key order, so that the first
	// error is deterministic: parse must not look at other properties.
	parse func(r *Rule, v value.Value) error
	// build finishes what depends on other properties or must wait until
	// the combination is known to be valid (a regex compiles, a comparator
	// is resolved). It runs after the checks, in table order.
	build func(r *Rule, v value.Value, ext rules.Extensions) error
	// excludes are the combinations the property refuses, in the order
	// they are checked.
	excludes []exclusion
	// needs are properties of which one must be on for this one to mean
	// anything; needsMsg is the error otherwise.
	needs    []string
	needsMsg string
	// show is the property's compact form in String (shown alone, or in a
	// list when it ends in "=false"); nil shows the name, or for a flag the
	// name and "=false" when false.
	show func(name string, v value.Value) string
	// hidden leaves the property out of String (params: its comparator's
	// property is shown).
	hidden bool
	// shorthand lets a flag's name alone, as a string rule, mean name: true.
	shorthand bool
}

// An exclusion is a combination a property refuses.
type exclusion struct {
	off  bool     // a flag refuses when false, not when true
	with []string // the properties refused when on
	all  bool     // every other property given, whatever its value
	msg  string   // the error; %s is the property refused (with all: the list of them)
}

// comparisons are the properties that say how values compare, which a
// comparator (expr, plugin) decides instead.
var comparisons = []string{"numeric", "tolerance", "relative", "unordered", "one_of"}

// properties are the rule properties, in the order String lists them and
// the checks run (but that an exclusion of all the others runs first).
var properties = []property{
	{name: "exact", shorthand: true, flag: func(r *Rule, on bool) { r.reset = on },
		excludes: []exclusion{
			{with: []string{"tolerance", "relative", "regex", "expr", "plugin"}, msg: "exact: true contradicts %s"},
			{with: []string{"numeric"}, msg: "exact: true contradicts numeric: true"},
		}},
	{name: "numeric", shorthand: true,
		flag: func(r *Rule, on bool) {
			r.setNum = true
			if on {
				r.num = numNumeric
			}
		},
		excludes: []exclusion{
			{off: true, with: []string{"tolerance", "relative"}, msg: "numeric: false contradicts tolerance and relative, which compare numbers"},
		}},
	{name: "tolerance", show: showLiteral, build: tolerant,
		parse: func(r *Rule, v value.Value) (err error) {
			r.tol, err = boundProp("tolerance", v)
			return err
		}},
	{name: "relative", show: showLiteral, build: tolerant,
		parse: func(r *Rule, v value.Value) (err error) {
			r.rel, err = boundProp("relative", v)
			return err
		}},
	{name: "case_insensitive", shorthand: true, flag: func(r *Rule, on bool) { r.fold, r.setFold = on, true }},
	{name: "normalize", show: showNormalize,
		parse: func(r *Rule, v value.Value) (err error) {
			r.norm, err = normalizeProp(v)
			r.setNorm = true
			return err
		}},
	{name: "unordered", shorthand: true, flag: func(r *Rule, on bool) { r.unordered = on }},
	{name: "one_of",
		parse: func(r *Rule, v value.Value) error {
			if v.Kind() != value.Array || v.Len() == 0 {
				return errorf("one_of", "want a non-empty list of values, got "+describeKind(v))
			}
			r.oneOf = v.Elems()
			return nil
		}},
	{name: "regex", show: showLiteral,
		parse: func(r *Rule, v value.Value) error {
			if v.Kind() != value.String {
				return errorf("regex", "want a regular expression string, got "+describeKind(v))
			}
			return nil
		},
		build: func(r *Rule, v value.Value, _ rules.Extensions) (err error) {
			if r.re, err = compileRegex(v.Str(), ""); err != nil {
				return err
			}
			// Written once, clipped: BFCL's patterns run to kilobytes.
			r.reMsg = "expected a string matching " + clipped(r.re.String())

			if r.bounded = compileBounded(v.Str()); r.bounded == nil {
				if r.anchored = compileAnchored(v.Str()); r.anchored == nil {
					r.prog = compileProg(v.Str())
				}
			}
			// A folded variant for when case_insensitive is in force here,
			// said by this rule or inherited: RE2's (?i) is its case folding.
			r.reFold, err = compileRegex(v.Str(), "(?i)")
			return err
		},
		// regex says what the actual may be, ignoring the expected value;
		// one_of and the numeric and list comparisons say it differently.
		excludes: []exclusion{
			{with: []string{"one_of", "numeric", "tolerance", "relative", "expr", "plugin"}, msg: "regex cannot be combined with %s: both say what the actual value may be"},
			{with: []string{"unordered"}, msg: "regex cannot be combined with %s: regex matches a string, unordered compares lists"},
		}},
	{name: "ignore", shorthand: true, flag: func(r *Rule, on bool) { r.ignore = on },
		excludes: []exclusion{{all: true, msg: "ignore: true cannot be combined with %s: an ignored field is never compared"}}},
	{name: "optional", shorthand: true, flag: func(r *Rule, on bool) { r.optional = on }},
	{name: "default",
		parse: func(r *Rule, v value.Value) error {
			r.def, r.hasDef = v, true
			return nil
		}},
	{name: "type", show: showType,
		parse: func(r *Rule, v value.Value) (err error) {
			r.types, err = typeProp(v)
			return err
		}},
	{name: "from", show: showLiteral,
		parse: func(r *Rule, v value.Value) error {
			if v.Kind() != value.String {
				return errorf("from", "want a reference such as \"steps[0].result.id\", got "+describeKind(v))
			}
			ref, err := ParseRef(v.Str())
			r.from = ref
			return err
		},
		// from gives the expected value; these say what the actual may be
		// without one, or give another.
		excludes: []exclusion{
			{with: []string{"one_of", "regex", "default"}, msg: "from cannot be combined with %s: from gives the expected value"},
		}},
	{name: "expr",
		parse: func(r *Rule, v value.Value) error {
			if v.Kind() != value.String || strings.TrimSpace(v.Str()) == "" {
				return errorf("expr", "want an expression string, got "+describeKind(v))
			}
			return nil
		},
		build: func(r *Rule, v value.Value, ext rules.Extensions) error {
			if ext.Expr == nil {
				return errorf("expr", "expr rules need the expression language, which is not enabled")
			}
			c, err := ext.Expr(v.Str())
			if err != nil {
				return extensionError("expr", "invalid expression", err)
			}
			r.cmp = c
			return nil
		},
		excludes: []exclusion{
			{with: []string{"plugin"}, msg: "expr cannot be combined with %s: a field has one comparator"},
			{with: comparisons, msg: "expr cannot be combined with %s: the expr decides the comparison"},
		}},
	{name: "plugin", show: showLiteral,
		parse: func(r *Rule, v value.Value) error {
			if v.Kind() != value.String {
				return errorf("plugin", "want \"plugin_name.comparator\", got "+describeKind(v))
			}
			if name, cmp, ok := strings.Cut(v.Str(), "."); !ok || name == "" || cmp == "" {
				return errorf("plugin", "want \"plugin_name.comparator\", got "+strconv.Quote(v.Str()))
			}
			return nil
		},
		build: func(r *Rule, v value.Value, ext rules.Extensions) error {
			if ext.Plugin == nil {
				return errorf("plugin", "plugin rules need plugins, which are not enabled")
			}
			c, err := ext.Plugin(v.Str(), r.params)
			if err != nil {
				return extensionError("plugin", "cannot use plugin comparator "+strconv.Quote(v.Str()), err)
			}
			r.cmp = c
			return nil
		},
		excludes: []exclusion{
			{with: comparisons, msg: "plugin cannot be combined with %s: the plugin decides the comparison"},
		}},
	{name: "params", hidden: true,
		parse: func(r *Rule, v value.Value) error {
			if v.Kind() != value.Object {
				return errorf("params", "want an object, got "+describeKind(v))
			}
			r.params = v
			return nil
		},
		needs: []string{"plugin", "expr"}, needsMsg: "params needs a plugin or an expr to pass them to"},
	{name: "extra_fields", show: showLiteral,
		parse: func(r *Rule, v value.Value) error {
			if v.Kind() == value.String {
				switch v.Str() {
				case "allow":
					r.extra = extraAllow
					return nil
				case "reject":
					r.extra = extraReject
					return nil
				}
			}
			return errorf("extra_fields", "want allow or reject, got "+v.String())
		}},
}

// propertyIndex finds a property's entry by name.
var propertyIndex = indexProperties()

func indexProperties() map[string]int {
	index := make(map[string]int, len(properties))
	for i, p := range properties {
		index[p.name] = i
	}
	// A misspelt name in the table would silently refuse nothing.
	for _, p := range properties {
		names := p.needs
		for _, x := range p.excludes {
			names = append(names[:len(names):len(names)], x.with...)
		}
		for _, n := range names {
			if _, ok := index[n]; !ok {
				panic("rules: property " + p.name + " names an unknown property " + n)
			}
		}
		if p.shorthand && p.flag == nil {
			panic("rules: shorthand " + p.name + " is not a flag")
		}
	}
	return index
}

// propertyNames and shorthandNames list the names for errors.
var propertyNames, shorthandNames = listProperties()

func listProperties() (all, shorthands string) {
	var names, short []string
	for _, p := range properties {
		names = append(names, p.name)
		if p.shorthand {
			short = append(short, p.name)
		}
	}
	if n := len(short); n > 1 {
		short = append(short[:n-2], short[n-2]+" and "+short[n-1])
	}
	return strings.Join(names, ", "), strings.Join(short, ", ")
}

// given holds an object rule's properties by table index.
type given []struct {
	v  value.Value
	ok bool
}

// on reports whether property i is given, and true if it is a flag.
func (g given) on(i int) bool {
	return g[i].ok && (properties[i].flag == nil || g[i].v.Bool())
}

// check rejects combinations that contradict each other or mean nothing.
func (g given) check() error {
	// An exclusion of all the others goes first: its message names them all.
	for _, all := range []bool{true, false} {
		for i, p := range properties {
			if !g[i].ok {
				continue
			}
			for _, x := range p.excludes {
				if x.all != all || p.flag != nil && g[i].v.Bool() == x.off {
					continue
				}
				if err := g.excluded(i, x); err != nil {
					return err
				}
			}
			if !all && len(p.needs) > 0 && !g.any(p.needs) {
				return errorf(p.name, p.needsMsg)
			}
		}
	}
	return nil
}

// excluded returns the error of exclusion x of property i, if it applies.
func (g given) excluded(i int, x exclusion) error {
	name := properties[i].name
	if x.all {
		var others []string
		for j, p := range properties {
			if j != i && g[j].ok {
				others = append(others, p.name)
			}
		}
		if len(others) == 0 {
			return nil
		}
		return errorf(name, strings.Replace(x.msg, "%s", strings.Join(others, ", "), 1))
	}
	for _, k := range x.with {
		if g.on(propertyIndex[k]) {
			return errorf(name, strings.Replace(x.msg, "%s", k, 1))
		}
	}
	return nil
}

func (g given) any(names []string) bool {
	for _, k := range names {
		if g.on(propertyIndex[k]) {
			return true
		}
	}
	return false
}

// describe returns what String shows: the one property's compact form, or
// the property names joined with "+".
func (g given) describe() string {
	var shown []int
	for i, p := range properties {
		if g[i].ok && !p.hidden {
			shown = append(shown, i)
		}
	}
	switch len(shown) {
	case 0:
		return "exact"
	case 1:
		return g.compact(shown[0])
	}
	parts := make([]string, len(shown))
	for k, i := range shown {
		parts[k] = properties[i].name
		if n := g.compact(i); strings.HasSuffix(n, "=false") {
			parts[k] = n // a switched-off property must not read as switched on
		}
	}
	return strings.Join(parts, "+")
}

// compact returns property i's compact form.
func (g given) compact(i int) string {
	p := &properties[i]
	switch {
	case p.show != nil:
		return p.show(p.name, g[i].v)
	case p.flag != nil && !g[i].v.Bool():
		return p.name + "=false"
	}
	return p.name
}

func showLiteral(name string, v value.Value) string { return name + "=" + v.Str() }

func showNormalize(name string, v value.Value) string {
	names := make([]string, 0, v.Len())
	for _, e := range v.Elems() {
		if e.Kind() == value.String {
			names = append(names, e.Str())
		} else {
			names = append(names, e.String())
		}
	}
	return name + "=[" + strings.Join(names, ",") + "]"
}

func showType(name string, v value.Value) string {
	if v.Kind() == value.String {
		return name + "=" + v.Str()
	}
	if v.Len() == 1 {
		return name + "=" + v.Elems()[0].Str()
	}
	names := make([]string, 0, v.Len())
	for _, e := range v.Elems() {
		names = append(names, e.Str())
	}
	return name + "=[" + strings.Join(names, ",") + "]"
}

// tolerant makes a rule with a tolerance compare numbers within it. It is
// a build step so that it overrides what numeric said.
func tolerant(r *Rule, _ value.Value, _ rules.Extensions) error {
	r.num, r.setNum = numTolerance, true
	return nil
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
	if number.Compare(v.Str(), "0") < 0 {
		return "", errorf(k, "want a number >= 0, got "+v.Str())
	}
	return v.Str(), nil
}

func normalizeProp(v value.Value) ([]normalizer, error) {
	if v.Kind() != value.Array {
		return nil, errorf("normalize", "want a list of normalisers ("+normalizerNames+"), got "+describeKind(v))
	}
	var steps []normStep
	for _, e := range v.Elems() {
		var st normStep
		switch e.Kind() {
		case value.String:
			if st = stepByName(e.Str()); st.fn == nil {
				return nil, errorf("normalize", "unknown normaliser "+strconv.Quote(e.Str())+"; the normalisers are "+normalizerNames)
			}
		case value.Object:
			var err error
			if st, err = paramStep(e); err != nil {
				return nil, err
			}
		default:
			return nil, errorf("normalize", "want normaliser names ("+normalizerNames+"), got "+describeKind(e))
		}
		steps = append(steps, st)
	}
	return fuse(steps), nil
}
