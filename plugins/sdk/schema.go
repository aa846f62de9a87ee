package sdk

import (
	"encoding/json"
	"reflect"
	"strings"
)

// schemaOf derives a JSON Schema for the params type P.
func schemaOf[P any]() string {
	s := typeSchema(reflect.TypeFor[P]())
	if _, ok := s["type"]; !ok {
		s = map[string]any{"type": "object"}
	}
	b, _ := json.Marshal(s)
	return string(b)
}

func typeSchema(t reflect.Type) map[string]any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Slice, reflect.Array:
		return map[string]any{"type": "array", "items": typeSchema(t.Elem())}
	case reflect.Map:
		return map[string]any{"type": "object"}
	case reflect.Struct:
		props := map[string]any{}
		required := []string{}
		for f := range t.Fields() {
			if !f.IsExported() {
				continue
			}
			name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" && opts == "" {
				continue
			}
			if name == "" {
				name = f.Name
			}
			p := typeSchema(f.Type)
			if doc := f.Tag.Get("doc"); doc != "" {
				p["description"] = doc
			}
			props[name] = p
			if !strings.Contains(","+opts+",", ",omitempty,") && !strings.Contains(","+opts+",", ",omitzero,") {
				required = append(required, name)
			}
		}
		return map[string]any{"type": "object", "properties": props, "required": required, "additionalProperties": false}
	}
	return map[string]any{}
}
