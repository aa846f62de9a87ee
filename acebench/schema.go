package acebench

import (
	"slices"
	"strconv"
	"strings"

	"github.com/callgrade/callgrade/internal/suitedoc"
)

// schemaType maps ACEBench's type names to JSON Schema's: "float" (one
// nested property) and "bool" are ACEBench's spellings of number and
// boolean.
var schemaType = map[string]string{
	"string": "string", "integer": "integer", "number": "number", "float": "number",
	"boolean": "boolean", "bool": "boolean", "array": "array", "object": "object", "dict": "object",
}

// kept are the schema keywords a tool keeps. ACEBench checks no other
// (enum, format, minimum, maximum, pattern, default, ...), and its answers
// break some of them; kept, they would fail the answers themselves.
var kept = []string{"type", "description", "properties", "items", "required"}

// mapSchema returns an ACEBench schema in JSON Schema, with only the kept
// keywords, at every depth.
func mapSchema(s *suitedoc.Node, depth int) *suitedoc.Node {
	out := suitedoc.NewObject()
	if s.Kind != suitedoc.Object || depth > 32 {
		return out
	}
	for i, k := range s.Keys {
		v := s.Vals[i]
		if !slices.Contains(kept, k) {
			continue
		}
		switch k {
		case "type":
			if v.Kind == suitedoc.String {
				if t, ok := schemaType[v.Text]; ok {
					out.Set(k, suitedoc.StringOf(t))
				}
			}
		case "properties":
			if v.Kind == suitedoc.Object {
				ps := suitedoc.NewObject()
				for j, name := range v.Keys {
					ps.Set(name, mapSchema(v.Vals[j], depth+1))
				}
				out.Set(k, ps)
			}
		case "items":
			if v.Kind == suitedoc.Object {
				out.Set(k, mapSchema(v, depth+1))
			}
		case "required":
			if v.Kind == suitedoc.Array {
				r := suitedoc.ArrayOf()
				for _, e := range v.Vals {
					if e.Kind == suitedoc.String {
						r.Vals = append(r.Vals, e)
					}
				}
				out.Set(k, r)
			}
		default:
			out.Set(k, v)
		}
	}
	return out
}

// mapTool writes one of a question's functions as a tool. The answers are
// trusted over the schema: where an answer's value has another type than
// the declared one, that type is allowed too, and a field an answer leaves
// out is not required, at every depth.
func mapTool(f *suitedoc.Node, answers []*suitedoc.Node) *suitedoc.Node {
	name, _ := f.Get("name")
	t := suitedoc.NewObject().Set("name", name)
	if d, ok := f.Get("description"); ok && d.Kind == suitedoc.String {
		t.Set("description", d)
	}
	s := schemaOf(f)
	if s == nil {
		return t
	}
	m := mapSchema(s, 0)
	if _, ok := m.Get("type"); !ok {
		m.Set("type", suitedoc.StringOf("object"))
	}
	for _, a := range answers {
		fit(m, a, 0)
	}
	return t.Set("parameters", m)
}

// jsonType is the JSON Schema type of a value.
func jsonType(v *suitedoc.Node) string {
	switch v.Kind {
	case suitedoc.String:
		return "string"
	case suitedoc.Number:
		if isInteger(v) {
			return "integer"
		}
		return "number"
	case suitedoc.Bool:
		return "boolean"
	case suitedoc.Array:
		return "array"
	case suitedoc.Object:
		return "object"
	}
	return "null"
}

// isInteger reports whether a Number is written without fraction or
// exponent, or with a zero fraction ("5.0"): a value JSON Schema's
// integer admits.
func isInteger(n *suitedoc.Node) bool {
	if n.Kind != suitedoc.Number {
		return false
	}
	if !strings.ContainsAny(n.Text, ".eE") {
		return true
	}
	f, err := strconv.ParseFloat(n.Text, 64)
	return err == nil && f == float64(int64(f))
}

// admits reports whether a declared type admits a value's type.
func admits(decl, got string) bool {
	return decl == got || decl == "number" && got == "integer"
}

// fit widens schema s so that value v passes it: its type, and the
// required fields v leaves out.
func fit(s, v *suitedoc.Node, depth int) {
	if depth > 32 {
		return
	}
	if t, ok := s.Get("type"); ok {
		got := jsonType(v)
		switch t.Kind {
		case suitedoc.String:
			if !admits(t.Text, got) {
				s.Set("type", suitedoc.ArrayOf(suitedoc.StringOf(t.Text), suitedoc.StringOf(got)))
			}
		case suitedoc.Array:
			ok := false
			for _, e := range t.Vals {
				ok = ok || admits(e.Text, got)
			}
			if !ok {
				t.Vals = append(t.Vals, suitedoc.StringOf(got))
			}
		}
	}
	switch v.Kind {
	case suitedoc.Object:
		if r, ok := s.Get("required"); ok {
			kept := r.Vals[:0:0]
			for _, e := range r.Vals {
				if _, has := v.Get(e.Text); has {
					kept = append(kept, e)
				}
			}
			r.Vals = kept
		}
		if p, ok := s.Get("properties"); ok {
			for i, k := range v.Keys {
				if ps, ok := p.Get(k); ok {
					fit(ps, v.Vals[i], depth+1)
				}
			}
		}
	case suitedoc.Array:
		if it, ok := s.Get("items"); ok {
			for _, e := range v.Vals {
				fit(it, e, depth+1)
			}
		}
	}
}
