package schema

import (
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/callgrade/callgrade/value"
)

// TestMessagesMatchTheLibrary: the messages written without the printer
// are the library's, character for character.
func TestMessagesMatchTheLibrary(t *testing.T) {
	vals := func(src string) []value.Value { return mustParse(t, src).Elems() }
	anys := func(vs []value.Value) []any {
		out := make([]any, len(vs))
		for i, v := range vs {
			out[i] = jsonAny(v)
		}
		return out
	}
	tests := []struct {
		got  string
		kind jsonschema.ErrorKind
	}{
		{typeMessage("string", tNumber|tNull), &kind.Type{Got: "string", Want: []string{"null", "number"}}},
		{typeMessage("object", tInteger), &kind.Type{Got: "object", Want: []string{"integer"}}},
		{constMessage(nil, mustParse(t, `"a'b\"c\u00e9\n"`)), &kind.Const{Want: "a'b\"c\u00e9\n"}},
		{constMessage(nil, mustParse(t, `1.50`)), &kind.Const{Want: jsonAny(mustParse(t, `1.50`))}},
		{constMessage(nil, mustParse(t, `null`)), &kind.Const{Want: nil}},
		{constMessage(nil, mustParse(t, `[1]`)), &kind.Const{Want: []any{1}}},
		{enumMessage(nil, vals(`["a",1,true,null,2.50]`)), &kind.Enum{Want: anys(vals(`["a",1,true,null,2.50]`))}},
		{enumMessage(nil, vals(`["only"]`)), &kind.Enum{Want: anys(vals(`["only"]`))}},
		{enumMessage(nil, vals(`["a",{"b":1}]`)), &kind.Enum{Want: anys(vals(`["a",{"b":1}]`))}},
		{requiredMessage(nil, []string{"city"}), &kind.Required{Missing: []string{"city"}}},
		{requiredMessage(nil, []string{"a", "b'c"}), &kind.Required{Missing: []string{"a", "b'c"}}},
		{additionalMessage(nil, []string{"x", "é"}), &kind.AdditionalProperties{Properties: []string{"x", "é"}}},
		{additionalMessage(nil, []string{"only"}), &kind.AdditionalProperties{Properties: []string{"only"}}},
		{additionalMessage(nil, []string{"a'b", "c\\d", ""}), &kind.AdditionalProperties{Properties: []string{"a'b", "c\\d", ""}}},
		{requiredMessage(nil, []string{"é\n"}), &kind.Required{Missing: []string{"é\n"}}},
		{requiredMessage(nil, []string{"a", "b", "c"}), &kind.Required{Missing: []string{"a", "b", "c"}}},
		{typeMessage("null", tString), &kind.Type{Got: "null", Want: []string{"string"}}},
		{typeMessage("number", tBoolean), &kind.Type{Got: "number", Want: []string{"boolean"}}},
		{typeMessage("array", tObject|tArray), &kind.Type{Got: "array", Want: []string{"array", "object"}}},
		{countMessage("minItems", 3, 1000), &kind.MinItems{Got: 3, Want: 1000}},
		{countMessage("maxItems", 1234567, 3), &kind.MaxItems{Got: 1234567, Want: 3}},
		{countMessage("minProperties", 0, 1), &kind.MinProperties{Got: 0, Want: 1}},
		{countMessage("maxProperties", 100000, 99), &kind.MaxProperties{Got: 100000, Want: 99}},
		{countMessage("minLength", 1, 2), &kind.MinLength{Got: 1, Want: 2}},
		{countMessage("maxLength", 12345, 10), &kind.MaxLength{Got: 12345, Want: 10}},
		{uniqueMessage(999, 1000), &kind.UniqueItems{Duplicates: [2]int{999, 1000}}},
		{patternMessage(nil, "Jan 5\t'x'", `^\d{4}$`), &kind.Pattern{Got: "Jan 5\t'x'", Want: `^\d{4}$`}},
		{oneOfMessage(0, 1234), &kind.OneOf{Subschemas: []int{0, 1234}}},
		{falseMessage, &kind.FalseSchema{}},
	}
	for _, tt := range tests {
		if want := tt.kind.LocalizedString(printer); tt.got != want {
			t.Errorf("got  %q\nwant %q", tt.got, want)
		}
	}
}

// FuzzQuote holds quote, with its shortcut for plain text, to the
// library's wording of a missing property, on any text.
func FuzzQuote(f *testing.F) {
	for _, s := range []string{"city", `a"b`, "a'b", `a\b`, "é", "\x7f", "tab\there", "\xff", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := (&kind.Required{Missing: []string{s}}).LocalizedString(printer)
		if got := requiredMessage(nil, []string{s}); got != want {
			t.Fatalf("%q: %q, the library %q", s, got, want)
		}
	})
}

// TestSingleTypeMessages: every message of one wanted type, which comes
// from a table, is the library's.
func TestSingleTypeMessages(t *testing.T) {
	for _, g := range typeOrder {
		for _, w := range typeOrder {
			want := (&kind.Type{Got: g.name, Want: []string{w.name}}).LocalizedString(printer)
			if got := typeMessage(g.name, w.t); got != want {
				t.Errorf("got  %q\nwant %q", got, want)
			}
		}
	}
}
