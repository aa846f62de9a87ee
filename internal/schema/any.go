package schema

import (
	"encoding/json"

	"github.com/callgrade/callgrade/value"
)

// jsonAny converts v to the Go values encoding/json decodes into with
// UseNumber (nil, bool, json.Number, string, []any and map[string]any):
// what the JSON Schema library compiles and validates. A number keeps its
// literal, so that no precision is lost on the way.
func jsonAny(v value.Value) any {
	switch v.Kind() {
	case value.Null:
		return nil
	case value.Bool:
		return v.Bool()
	case value.Number:
		return json.Number(v.Str())
	case value.String:
		return v.Str()
	case value.Array:
		elems := v.Elems()
		out := make([]any, len(elems))
		for i, e := range elems {
			out[i] = jsonAny(e)
		}
		return out
	default:
		members := v.Members()
		out := make(map[string]any, len(members))
		for _, m := range members {
			out[m.Key] = jsonAny(m.Value)
		}
		return out
	}
}
