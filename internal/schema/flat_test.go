package schema

import (
	"slices"
	"testing"
)

// FuzzFlat: what a flat schema's one walk finds valid, the validator finds
// valid, under either null_is_missing; the flat form leaves nothing valid
// to the validator that it decides at once; and the violations it words
// (flat.words) are the validator's, in its order, with the same paths
// and missing lists, from a Scratch's memory or not.
func FuzzFlat(f *testing.F) {
	const tool = `{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"},"price":{"type":"number"},"ok":{"type":["boolean","null"]},"tags":{"type":"array","items":{"type":"string"}},"prefs":{"type":"object"},"any":{}},"required":["city","days"],"additionalProperties":false}`
	f.Add(tool, `{"city":"Berlin","days":3,"price":1.5,"ok":null,"tags":["a"],"prefs":{"x":1},"any":[1]}`)
	f.Add(tool, `{"city":"Berlin","days":3.0}`)
	f.Add(tool, `{"city":"Berlin","days":"3"}`)
	f.Add(tool, `{"city":"Berlin","days":3.5}`)
	f.Add(tool, `{"city":null,"days":3}`)
	f.Add(tool, `{"city":"Berlin","days":3,"extra":1}`)
	f.Add(tool, `{"city":"Berlin","days":3,"tags":["a",1]}`)
	f.Add(tool, `{"city":"Berlin"}`)
	f.Add(tool, `{"a":1,"days":" 3.5 ","price":"x","tags":[1,"b",null],"z":null}`)
	f.Add(tool, `[1]`)
	f.Add(tool, `"3"`)
	f.Add(`{"type":"object","properties":{"a":{"type":"string"}},"required":["a","b"]}`, `{"a":"x","b":1}`)
	f.Add(`{"type":"object","properties":{"a":{"type":"string"},"b":{}},"required":["b","a","b"]}`, `{"a":2,"c":1}`)
	// Two missing, required out of key order: listed in the schema's order.
	f.Add(`{"type":"object","properties":{"a":{},"b":{"type":"string"},"c":{}},"required":["c","b","a"]}`, `{"b":1,"d":null}`)
	f.Add(`{"type":["object","integer"],"properties":{"a":{"type":["integer","array"],"items":{"type":"number"}}}}`, `{"a":["1",2.0,true]}`)
	f.Add(`{"type":"object","properties":{"a":{"type":"string","enum":["x"]}}}`, `{"a":"y"}`)
	f.Add(`{"type":"object","properties":{"a":{"type":"array","items":{"type":"integer"},"maxItems":1}}}`, `{"a":[1,2]}`)
	f.Add(`{"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"string"}}}}}`, `{"a":{"b":1}}`)
	f.Fuzz(func(t *testing.T, schemaText, instance string) {
		sch, x, err := compileFuzzed(schemaText, instance)
		if err != nil || !sch.flat.ok {
			return
		}
		general := *sch
		general.flat = flat{}
		var sc Scratch
		for _, nim := range []bool{false, true} {
			flatValid := sch.flat.valid(x, nim)
			vs := general.Validate(nil, x, Check{NullIsMissing: nim})
			if flatValid && len(vs) > 0 {
				t.Fatalf("null_is_missing=%v\nschema %s\ninstance %s\nflat: valid; validator: %q", nim, schemaText, instance, brief(vs))
			}
			if got := sch.Validate(nil, x, Check{NullIsMissing: nim}); !sameViolations(got, vs) {
				t.Fatalf("null_is_missing=%v\nschema %s\ninstance %s\n with the flat form %+v\n without %+v", nim, schemaText, instance, got, vs)
			}
			if got := sch.Validate(nil, x, Check{NullIsMissing: nim, Scratch: &sc}); !sameViolations(got, vs) {
				t.Fatalf("null_is_missing=%v\nschema %s\ninstance %s\n with the flat form and a Scratch %+v\n without %+v", nim, schemaText, instance, got, vs)
			}
			if sch.Valid(x, Check{NullIsMissing: nim}) != (len(vs) == 0) {
				t.Fatalf("Valid disagrees with the validator: schema %s instance %s", schemaText, instance)
			}
		}
	})
}

// sameViolations reports whether a and b are the same violations in the
// same order.
func sameViolations(a, b []Violation) bool {
	return slices.EqualFunc(a, b, func(x, y Violation) bool {
		return x.Message == y.Message && slices.Equal(x.Path, y.Path) && slices.Equal(x.Missing, y.Missing)
	})
}

// TestFlatOf: which schemas have a flat form.
func TestFlatOf(t *testing.T) {
	tests := []struct {
		schema string
		flat   bool
	}{
		{`{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"array","items":{"type":"integer"}}},"required":["a"],"additionalProperties":false}`, true},
		{`{"type":"object","properties":{"a":{"type":"object"}}}`, true},
		{`{"type":"object"}`, true},
		{`{"properties":{"a":{"type":"string"}}}`, false},
		{`{"type":"object","properties":{"a":{"type":"string"}},"required":["b"]}`, false},
		{`{"type":"object","properties":{"a":{"type":"string","enum":["x"]}}}`, false},
		{`{"type":"object","properties":{"a":{"type":"object","properties":{"b":{}}}}}`, false},
		{`{"type":"object","properties":{"a":{"type":"array","items":{"type":"array","items":{}}}}}`, false},
		{`{"type":"object","properties":{"a":{"type":"array","minItems":1}}}`, false},
		{`{"type":"object","additionalProperties":{"type":"string"}}`, false},
		{`{"type":"object","properties":{"a":{"$ref":"#/$defs/s"}},"$defs":{"s":{"type":"string"}}}`, false},
	}
	for _, tt := range tests {
		sch, err := Compile("t", mustParse(t, tt.schema))
		if err != nil {
			t.Fatal(err)
		}
		if got := sch.flat.ok; got != tt.flat {
			t.Errorf("%s: flat %v, want %v", tt.schema, got, tt.flat)
		}
	}
}

// TestMissingWithScratch: a required violation lists the same missing
// properties from a Scratch's memory as from its own, two in a row too.
func TestMissingWithScratch(t *testing.T) {
	sch, err := Compile("t", mustParse(t, `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"object","properties":{"c":{"type":"integer"}},"required":["c","d"]}},"required":["a","b","e"]}`))
	if err != nil {
		t.Fatal(err)
	}
	var sc Scratch
	for _, args := range []string{`{"b":{}}`, `{"b":{"c":"x"}}`, `{"a":1,"b":{"d":null}}`} {
		x := mustParse(t, args)
		for _, nim := range []bool{false, true} {
			want := sch.Validate(nil, x, Check{NullIsMissing: nim})
			got := sch.Validate(nil, x, Check{NullIsMissing: nim, Scratch: &sc})
			if len(got) != len(want) {
				t.Fatalf("%s: %d violations, want %d", args, len(got), len(want))
			}
			for i := range got {
				if !slices.Equal(got[i].Missing, want[i].Missing) || !slices.Equal(got[i].Path, want[i].Path) || got[i].Message != want[i].Message {
					t.Errorf("%s: %+v, want %+v", args, got[i], want[i])
				}
			}
		}
	}
}
