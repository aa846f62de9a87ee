package bfcl

import (
	"fmt"
	"slices"

	"github.com/callgrade/callgrade/internal/suitedoc"
)

// schemaType maps BFCL's type names (Python's, and "dict") to JSON Schema.
// "any" has no JSON Schema type: anything is allowed.
var schemaType = map[string]string{
	"string": "string", "integer": "integer", "float": "number", "number": "number",
	"boolean": "boolean", "array": "array", "tuple": "array", "dict": "object", "object": "object",
	"any": "", "null": "null",
}

// dropped are the keywords BFCL's checker does not check and its answers
// do not respect (answers outside an enum, for one): kept, they would make
// the schema reject what the answers accept. "optional" is BFCL's own.
var dropped = []string{"enum", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "format", "pattern", "optional"}

// mapType returns the JSON Schema type for a BFCL type name, and false for
// a name BFCL does not use.
func mapType(bfclType string) (string, bool) {
	t, ok := schemaType[bfclType]
	return t, ok
}

// paramsSchema returns a BFCL parameter schema in JSON Schema: "dict" is
// "object", "float" "number", "tuple" "array", "any" no type at all, in
// properties and items at every depth; keywords BFCL does not check are
// left out.
func paramsSchema(s *suitedoc.Node) (*suitedoc.Node, error) { return mapSchema(s, "parameters") }

func mapSchema(s *suitedoc.Node, where string) (*suitedoc.Node, error) {
	if s.Kind != suitedoc.Object {
		return nil, fmt.Errorf("%s: want a schema object, got %s", where, s.KindName())
	}
	out := suitedoc.NewObject()
	for i, k := range s.Keys {
		v := s.Vals[i]
		switch {
		case slices.Contains(dropped, k):
			continue
		case k == "type":
			if v.Kind != suitedoc.String {
				return nil, fmt.Errorf("%s.type: want a type name, got %s", where, v.Short())
			}
			t, ok := mapType(v.Text)
			if !ok {
				return nil, fmt.Errorf("%s.type: unknown type %q (BFCL's python types are string, integer, float, boolean, array, tuple, dict, any; Java and JavaScript types are read in the simple_java and simple_javascript categories, docs/bfcl.md)", where, v.Text)
			}
			if t != "" {
				out.Set("type", suitedoc.StringOf(t))
			}
			continue
		case k == "properties" && v.Kind == suitedoc.Object:
			ps := suitedoc.NewObject()
			for j, name := range v.Keys {
				m, err := mapSchema(v.Vals[j], where+".properties."+name)
				if err != nil {
					return nil, err
				}
				ps.Set(name, m)
			}
			out.Set(k, ps)
			continue
		case k == "items" && v.Kind == suitedoc.Object:
			m, err := mapSchema(v, where+".items")
			if err != nil {
				return nil, err
			}
			out.Set(k, m)
			continue
		}
		out.Set(k, v)
	}
	return out, nil
}

// mapTool writes one of a question's functions as a tool. Where a possible
// answer's value is of a type the declared one does not allow (BFCL then
// takes the parameter for a variable and accepts the answer's type), that
// type is allowed too, or the answer itself would fail the schema. In bfcl
// semantics the parameters are closed (additionalProperties: false), as
// BFCL rejects a parameter the function does not have even when the answer
// names it.
func mapTool(f *suitedoc.Node, gt *suitedoc.Node, sem Semantics) (*suitedoc.Node, error) {
	name, _ := f.Get("name")
	t := suitedoc.NewObject().Set("name", name)
	if d, ok := f.Get("description"); ok {
		t.Set("description", d)
	}
	params, ok := f.Get("parameters")
	if !ok {
		return t, nil
	}
	m, err := mapSchema(params, "function "+name.Text+": parameters")
	if err != nil {
		return nil, err
	}
	if sem == SemanticsBFCL {
		if _, has := m.Get("additionalProperties"); !has {
			m.Set("additionalProperties", suitedoc.BoolOf(false))
		}
		if ps, ok := m.Get("properties"); ok {
			for _, p := range ps.Vals {
				bfclOpenSchema(p)
			}
		}
	}
	if ps, ok := m.Get("properties"); ok && gt != nil {
		for _, call := range gt.Vals {
			if call.Keys[0] != name.Text {
				continue
			}
			answer := call.Vals[0]
			for i, param := range answer.Keys {
				p, ok := ps.Get(param)
				if !ok {
					continue
				}
				alts := answer.Vals[i]
				if alts.Kind != suitedoc.Array {
					alts = suitedoc.ArrayOf(alts)
				}
				for _, a := range alts.Vals {
					if isMarker(a) {
						continue
					}
					lits, _, err := expand(a, sem)
					if err != nil {
						return nil, err
					}
					for _, l := range lits {
						allowValue(p, l)
					}
				}
			}
		}
	}
	t.Set("parameters", m)
	return t, nil
}

// bfclOpenSchema removes from a parameter's schema what would make
// callgrade read more into it than BFCL's checker does: a default (BFCL
// never fills one in: an answer's key that is left out is missing) and,
// below the parameter, the properties and required list of an object
// (BFCL's dict_checker compares a dict with the answer alone: a key the
// answer does not name is unexpected even when the schema declares it,
// a key the answer names is missing unless "" marks it optional, and
// dict values are not type-checked).
func bfclOpenSchema(p *suitedoc.Node) {
	if p.Kind != suitedoc.Object {
		return
	}
	p.Delete("default")
	p.Delete("properties")
	p.Delete("required")
	if it, ok := p.Get("items"); ok {
		bfclOpenSchema(it)
	}
}

// allowValue widens a schema to allow the value v: its own type, and the
// types of v's items and members where the schema describes them.
func allowValue(p *suitedoc.Node, v *suitedoc.Node) {
	if p.Kind != suitedoc.Object {
		return
	}
	allowType(p, v)
	switch v.Kind {
	case suitedoc.Array:
		if it, ok := p.Get("items"); ok {
			for _, e := range v.Vals {
				allowValue(it, e)
			}
		}
	case suitedoc.Object:
		if ps, ok := p.Get("properties"); ok {
			for i, k := range v.Keys {
				if q, ok := ps.Get(k); ok {
					allowValue(q, v.Vals[i])
				}
			}
		}
	}
}

// allowType widens a property's JSON Schema type to allow the value v.
func allowType(p *suitedoc.Node, v *suitedoc.Node) {
	tn, ok := p.Get("type")
	if !ok {
		return // no type: anything goes
	}
	var types []string
	if tn.Kind == suitedoc.String {
		types = []string{tn.Text}
	} else {
		for _, e := range tn.Vals {
			types = append(types, e.Text)
		}
	}
	want := ""
	switch v.Kind {
	case suitedoc.String:
		want = "string"
	case suitedoc.Bool:
		want = "boolean"
	case suitedoc.Null:
		want = "null"
	case suitedoc.Array:
		want = "array"
	case suitedoc.Object:
		want = "object"
	case suitedoc.Number:
		if slices.Contains(types, "number") {
			return
		}
		want = "number"
		if !v.IsFloat() || isIntegral(v.Text) {
			want = "integer"
		}
	}
	if slices.Contains(types, want) {
		return
	}
	types = append(types, want)
	p.Set("type", typeNode(types))
}

// isIntegral reports whether a float literal has an integral value (5.0,
// 5e2), which JSON Schema's integer allows.
func isIntegral(lit string) bool {
	var f float64
	if _, err := fmt.Sscan(lit, &f); err != nil {
		return false
	}
	return f == float64(int64(f))
}
