package engine

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/suite"
	"github.com/callgrade/callgrade/value"
)

// tool is a tool definition compiled for scoring: its JSON Schema, and what
// the schema implies for the rules and for the coercions before validation.
type tool struct {
	name     string
	schema   *jsonschema.Schema // nil when the tool declares no parameters
	coerce   *coercion          // nil when nothing needs coercing
	params   []paramRules       // what the schema implies for each top-level parameter
	nested   []rules.Path       // number and integer fields below the top level
	numeric  *rules.Rule        // the rule for nested
	required map[string]bool
}

// paramRules are the rules the schema implies for one top-level parameter,
// compiled into one rule per path: at one level the later rule on a path
// replaces the earlier, so numeric, default and optional must be one rule.
type paramRules struct {
	name     string
	path     rules.Path
	base     *rules.Rule // numeric and default; nil when the schema implies neither
	optional *rules.Rule // base plus optional, for when the expected call leaves it out
}

func mustObject(m ...value.Member) value.Value {
	v, err := value.ObjectOf(m...)
	if err != nil {
		panic(err)
	}
	return v
}

func (c *compiler) compileTools(ts []suite.Tool, caseID string) map[string]*tool {
	out := make(map[string]*tool, len(ts))
	for i := range ts {
		t, err := compileTool(&ts[i])
		if err != nil {
			c.problem(ts[i].Loc, caseID, err.Error())
			continue
		}
		out[t.name] = t
	}
	return out
}

func compileTool(st *suite.Tool) (*tool, error) {
	t := &tool{name: st.Name, required: map[string]bool{}}
	var err error
	if t.numeric, err = rules.Compile(mustObject(value.Member{Key: "numeric", Value: value.BoolOf(true)}), rules.Extensions{}); err != nil {
		return nil, err
	}
	params := st.Parameters
	if params.Kind() == value.Null {
		return t, nil
	}
	if params.Kind() != value.Object {
		return nil, fmt.Errorf("tool %s: parameters must be a JSON Schema object, not %s", st.Name, params.Kind())
	}
	comp := jsonschema.NewCompiler()
	url := "mem://tools/" + st.Name + ".json"
	if err := comp.AddResource(url, params.Any()); err != nil {
		return nil, fmt.Errorf("tool %s: %w", st.Name, err)
	}
	sch, err := comp.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("tool %s: invalid parameters schema: %w", st.Name, err)
	}
	t.schema = sch
	t.coerce = newCoercion(params)
	if req, ok := params.Get("required"); ok {
		for _, r := range req.Elems() {
			t.required[r.Str()] = true
		}
	}
	props, _ := params.Get("properties")
	for _, m := range props.Members() {
		p, err := rules.ParsePath(escapeKey(m.Key))
		if err != nil {
			return nil, fmt.Errorf("tool %s: parameter %s: %w", st.Name, m.Key, err)
		}
		var spec []value.Member
		types := schemaTypes(m.Value)
		if hasType(types, "number") || hasType(types, "integer") {
			spec = append(spec, value.Member{Key: "numeric", Value: value.BoolOf(true)})
		}
		if d, ok := m.Value.Get("default"); ok {
			spec = append(spec, value.Member{Key: "default", Value: d})
		}
		pr := paramRules{name: m.Key, path: p}
		if len(spec) > 0 {
			if pr.base, err = rules.Compile(mustObject(spec...), rules.Extensions{}); err != nil {
				return nil, fmt.Errorf("tool %s: parameter %s: %w", st.Name, m.Key, err)
			}
		}
		spec = append(spec, value.Member{Key: "optional", Value: value.BoolOf(true)})
		if pr.optional, err = rules.Compile(mustObject(spec...), rules.Extensions{}); err != nil {
			return nil, fmt.Errorf("tool %s: parameter %s: %w", st.Name, m.Key, err)
		}
		t.params = append(t.params, pr)
		t.nested = numericPaths(m.Value, []string{escapeKey(m.Key)}, t.nested, false)
	}
	return t, nil
}

// implyRules adds to set what the schema implies for an expected call with
// the given arguments (spec 1.2): numeric for number parameters, default
// where the schema has one, optional for a parameter that is not required
// and that the expected call leaves out.
func (t *tool) implyRules(set *rules.Set, args value.Value) {
	for i := range t.params {
		p := &t.params[i]
		switch {
		case !t.required[p.name] && !args.Has(p.name):
			set.Add(rules.LevelSchema, p.path, p.optional)
		case p.base != nil:
			set.Add(rules.LevelSchema, p.path, p.base)
		}
	}
	for _, p := range t.nested {
		set.Add(rules.LevelSchema, p, t.numeric)
	}
}

// escapeKey turns an object key into a one-segment PATH.
func escapeKey(k string) string {
	if !strings.ContainsAny(k, `.\*#`) {
		return k
	}
	var b strings.Builder
	for _, r := range k {
		if r == '.' || r == '\\' || r == '*' || r == '#' {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// schemaType returns the JSON Schema type names a schema node allows.
func schemaTypes(s value.Value) []string {
	t, ok := s.Get("type")
	if !ok {
		return nil
	}
	if t.Kind() == value.String {
		return []string{t.Str()}
	}
	var out []string
	for _, e := range t.Elems() {
		out = append(out, e.Str())
	}
	return out
}

func hasType(types []string, want string) bool {
	for _, t := range types {
		if t == want {
			return true
		}
	}
	return false
}

// numericPaths lists the paths of number and integer fields at or below a
// parameter, descending into object properties and array items; self says
// whether the node at prefix itself counts.
func numericPaths(s value.Value, prefix []string, out []rules.Path, self bool) []rules.Path {
	types := schemaTypes(s)
	if self && (hasType(types, "number") || hasType(types, "integer")) {
		if p, err := rules.ParsePath(strings.Join(prefix, ".")); err == nil {
			out = append(out, p)
		}
	}
	if props, ok := s.Get("properties"); ok {
		for _, m := range props.Members() {
			out = numericPaths(m.Value, append(prefix[:len(prefix):len(prefix)], escapeKey(m.Key)), out, true)
		}
	}
	if items, ok := s.Get("items"); ok && items.Kind() == value.Object {
		out = numericPaths(items, append(prefix[:len(prefix):len(prefix)], "#"), out, true)
	}
	return out
}

// coercion turns what the schema says is a number into one before the
// schema is checked (spec 1.2): "5" for a number parameter is the number 5,
// and 5.0 for an integer parameter is the integer 5.
type coercion struct {
	number, integer bool
	props           map[string]*coercion
	items           *coercion
}

func newCoercion(s value.Value) *coercion {
	types := schemaTypes(s)
	c := &coercion{number: hasType(types, "number"), integer: hasType(types, "integer")}
	if props, ok := s.Get("properties"); ok {
		for _, m := range props.Members() {
			if sub := newCoercion(m.Value); sub != nil {
				if c.props == nil {
					c.props = map[string]*coercion{}
				}
				c.props[m.Key] = sub
			}
		}
	}
	if items, ok := s.Get("items"); ok && items.Kind() == value.Object {
		c.items = newCoercion(items)
	}
	if !c.number && !c.integer && c.props == nil && c.items == nil {
		return nil
	}
	return c
}

// apply returns v with the coercions made, sharing what it does not change,
// and whether it changed anything.
func (c *coercion) apply(v value.Value) (value.Value, bool) {
	if c == nil {
		return v, false
	}
	switch v.Kind() {
	case value.String:
		if c.number || c.integer {
			if n, err := value.NumberOf(strings.TrimSpace(v.Str())); err == nil {
				n, _ = c.apply(n)
				return n, true
			}
		}
	case value.Number:
		if c.integer && !c.number && v.IsInteger() {
			if canon := value.CanonicalNumber(v.Str()); canon != v.Str() {
				if n, err := value.NumberOf(canon); err == nil {
					return n, true
				}
			}
		}
	case value.Object:
		out, changed := v, false
		for _, m := range v.Members() {
			if sub := c.props[m.Key]; sub != nil {
				if nv, ok := sub.apply(m.Value); ok {
					out, changed = out.With(m.Key, nv), true
				}
			}
		}
		return out, changed
	case value.Array:
		if c.items == nil {
			return v, false
		}
		elems := v.Elems()
		var out []value.Value
		for i, e := range elems {
			ne, ok := c.items.apply(e)
			if ok && out == nil {
				out = append([]value.Value(nil), elems...)
			}
			if out != nil {
				out[i] = ne
			}
		}
		if out != nil {
			return value.ArrayOf(out...), true
		}
	}
	return v, false
}

var printer = message.NewPrinter(language.English)

// validate checks actual arguments against the tool's schema and returns
// one diff per violation.
func (t *tool) validate(args value.Value, call int, dst []Diff) []Diff {
	if t == nil || t.schema == nil {
		return dst
	}
	coerced, _ := t.coerce.apply(args)
	err := t.schema.Validate(coerced.Any())
	if err == nil {
		return dst
	}
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return append(dst, Diff{Kind: Schema, Call: call, Rule: "schema", Message: err.Error()})
	}
	return appendSchemaDiffs(dst, ve, args, call)
}

// appendSchemaDiffs reports the leaves of a validation error: the causes a
// person acts on, not the chain of keywords that led to them.
func appendSchemaDiffs(dst []Diff, ve *jsonschema.ValidationError, args value.Value, call int) []Diff {
	if len(ve.Causes) > 0 {
		for _, c := range ve.Causes {
			dst = appendSchemaDiffs(dst, c, args, call)
		}
		return dst
	}
	d := Diff{Kind: Schema, Call: call, Rule: "schema", Path: instancePath(ve.InstanceLocation),
		Message: "schema: " + ve.ErrorKind.LocalizedString(printer)}
	if d.Path != "" {
		d.Message = d.Path + ": " + ve.ErrorKind.LocalizedString(printer)
		if v, ok := lookup(args, ve.InstanceLocation); ok {
			d.Actual, d.HasActual = v, true
		}
	}
	return append(dst, d)
}

func instancePath(loc []string) string {
	parts := make([]string, len(loc))
	for i, s := range loc {
		parts[i] = escapeKey(s)
	}
	return strings.Join(parts, ".")
}

func lookup(v value.Value, loc []string) (value.Value, bool) {
	for _, k := range loc {
		switch v.Kind() {
		case value.Object:
			var ok bool
			if v, ok = v.Get(k); !ok {
				return value.Value{}, false
			}
		case value.Array:
			i, err := strconv.Atoi(k)
			if err != nil || i < 0 || i >= v.Len() {
				return value.Value{}, false
			}
			v = v.Elems()[i]
		default:
			return value.Value{}, false
		}
	}
	return v, true
}
