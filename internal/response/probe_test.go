package response

import (
	"testing"

	"github.com/callgrade/callgrade/value"
)

// The shape probes (isCallShaped, heldCall, itemFormat) read an
// object's members in one walk; these are the same probes by lookups of
// one key at a time, as they were written first, which FuzzShapeProbes
// holds them to.

func isCallShapedByLookups(e value.Value) bool {
	if e.Kind() != value.Object {
		return false
	}
	if t, ok := e.Get("type"); ok && t.Kind() == value.String {
		switch t.Str() {
		case "function_call", "tool_use", "function", "tool_call", "invalid_tool_call":
			return true
		}
		if isUnknownCall(e) {
			return true
		}
	}
	for _, key := range [...]string{"function", "functionCall", "toolUse", "function_call"} {
		if v, ok := e.Get(key); ok && v.Kind() != value.Null {
			return true
		}
	}
	if tc, ok := e.Get("tool_calls"); ok && tc.Kind() != value.Null && (tc.Kind() != value.Array || tc.Len() > 0) {
		return true
	}
	return e.Has("name") && e.Has("arguments")
}

func heldCallByLookups(m value.Value) bool {
	if isCallShapedByLookups(m) {
		return true
	}
	for _, key := range [...]string{"content", "parts"} {
		l, _ := m.Get(key)
		for _, e := range l.Elems() {
			if isCallShapedByLookups(e) {
				return true
			}
		}
	}
	return false
}

func itemFormatByLookups(e value.Value) (f *api, rank itemRank) {
	if e.Kind() != value.Object {
		return nil, noRank
	}
	if t, ok := e.Get("type"); ok && t.Kind() == value.String {
		return typeFormat(t.Str()), decides
	}
	if (e.Has("role") || e.Has("parts")) && !e.Has("arguments") {
		return messageFormatByLookups(e)
	}
	for _, k := range itemKeys[:] {
		if v, ok := e.Get(k.key); ok && (k.is == "" || v.Kind() == value.String && v.Str() == k.is) {
			if k.weak {
				return k.api, weakly
			}
			return k.api, decides
		}
	}
	return nil, noRank
}

// messageFormatByLookups reads a message's shape by a lookup of each
// key, and tells its format by the same table as itemFormat's walk.
func messageFormatByLookups(e value.Value) (*api, itemRank) {
	role, _ := e.Get("role")
	content, _ := e.Get("content")
	s := messageShape{
		parts:   e.Has("parts"),
		openai:  e.Has("tool_calls") || e.Has("tool_call_id") || e.Has("function_call"),
		role:    role,
		content: content,
	}
	return s.format()
}

// plainMessage is what openaiMessage passes over without failHeld: an
// object of no members but role, content, tool_call_id and name, whose
// content is no list.
func plainMessage(e value.Value) bool {
	if e.Kind() != value.Object {
		return false
	}
	for _, m := range e.Members() {
		switch m.Key {
		case "role", "tool_call_id", "name":
		case "content":
			if m.Value.Kind() == value.Array {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// FuzzShapeProbes asks the shape probes about every object in arbitrary
// JSON, and wants the answers of the probes by lookups.
func FuzzShapeProbes(f *testing.F) {
	addRunSeeds(f)
	f.Fuzz(func(t *testing.T, s string) {
		r, err := value.Parse(s)
		if err != nil {
			return
		}
		eachValue(r, func(e value.Value) {
			if got, want := isCallShaped(e), isCallShapedByLookups(e); got != want {
				t.Fatalf("isCallShaped(%s) = %v, by lookups %v", e, got, want)
			}
			if got, want := heldCall(e), heldCallByLookups(e); got != want {
				t.Fatalf("heldCall(%s) = %v, by lookups %v", e, got, want)
			}
			if plainMessage(e) && heldCall(e) {
				t.Fatalf("heldCall(%s) = true for a message of a role, text and ids alone", e)
			}
			gf, gr := itemFormat(e)
			wf, wr := itemFormatByLookups(e)
			if gf != wf || gr != wr {
				t.Fatalf("itemFormat(%s) = %v %d, by lookups %v %d", e, apiName(gf), gr, apiName(wf), wr)
			}
		})
	})
}

// eachValue calls f with v and every value inside it.
func eachValue(v value.Value, f func(value.Value)) {
	f(v)
	for _, e := range v.Elems() {
		eachValue(e, f)
	}
	for _, m := range v.Members() {
		eachValue(m.Value, f)
	}
}

func apiName(f *api) string {
	if f == nil {
		return "none"
	}
	return string(f.name)
}
