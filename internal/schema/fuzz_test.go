package schema

import (
	"regexp"
	"slices"
	"testing"

	"github.com/callgrade/callgrade/internal/rulecore"

	"github.com/callgrade/callgrade/value"
)

// bigLiteral finds number literals the library's big.Rat cannot hold
// cheaply or at all: there the two are allowed to differ (this package is
// exact where the library fails or panics).
var bigLiteral = regexp.MustCompile(`[0-9.]{60,}|[eE][+-]?0*[0-9]{4,}`)

// FuzzValidate holds this package's validation to the library's on
// arbitrary schemas and instances: when this package validates a schema
// itself, the violations are the library's, less the "want null" of a
// nullable member (see libBrief).
func FuzzValidate(f *testing.F) {
	f.Add(toolSchema, `{"city":"Berlin","days":"3","price":10.25,"tags":["a","a"],"loc":{"lat":"x","z":1},"one":5.5}`)
	f.Add(`{"type":"object","properties":{"a":{"type":["integer","null"],"minimum":2,"enum":[1,2,3.0,null]}},"required":["a"]}`, `{"a":3}`)
	f.Add(`{"anyOf":[{"type":"object","required":["x"]},{"type":"object","properties":{"y":{"const":[1,{"z":null}]}}}]}`, `{"y":[1.0,{"z":null}]}`)
	f.Add(`{"type":"array","items":{"oneOf":[{"type":"integer"},{"multipleOf":0.25}]},"uniqueItems":true,"maxItems":3}`, `[1,0.5,2,1.0]`)
	f.Add(`{"properties":{"s":{"minLength":2,"maxLength":3,"pattern":"b"}},"additionalProperties":{"type":"boolean"}}`, `{"s":"äb","t":1}`)
	f.Add(`{"$defs":{"n":{"type":"number","exclusiveMinimum":0}},"properties":{"x":{"allOf":[{"$ref":"#/$defs/n"},{"maximum":9}]}}}`, `{"x":"0"}`)
	f.Fuzz(func(t *testing.T, schemaText, instance string) {
		sch, x, err := compileFuzzed(schemaText, instance)
		if err != nil {
			return
		}
		for _, nim := range []bool{false, true} {
			got := sch.Validate(nil, x, Check{NullIsMissing: nim}) // must not panic, whatever the schema
			if !sch.fast || bigLiteral.MatchString(schemaText) || bigLiteral.MatchString(instance) {
				continue
			}
			want := libOnly(t, sch, schemaText).Validate(nil, x, Check{NullIsMissing: nim})
			for _, v := range want {
				if v.Path == nil && len(v.Message) > 16 && v.Message[:16] == "cannot be valida" {
					t.Skip("the library failed")
				}
			}
			if g, w := brief(got), libBrief(want); !slices.Equal(g, w) {
				t.Fatalf("null_is_missing=%v\nschema %s\ninstance %s\n got  %q\n want %q", nim, schemaText, instance, g, w)
			}
		}
	})
}

// FuzzValidateKnown: validating with a known valid value (Check.Valid)
// finds exactly what validating without it finds, whatever the two
// values; in particular inside anyOf and oneOf, where a member the known
// value need not match is tried too. Known.Prove proves nothing valid
// that is not.
func FuzzValidateKnown(f *testing.F) {
	f.Add(toolSchema, `{"city":"Berlin","days":3,"one":5,"maybe":1}`, `{"city":"Berlin","days":"3","one":5.5,"maybe":"x","tags":["a"]}`)
	f.Add(`{"anyOf":[{"properties":{"a":{"pattern":"^x"},"b":{"const":1}}},{"properties":{"a":{"pattern":"^y"},"b":{"const":2}}}]}`,
		`{"a":"y","b":2}`, `{"a":"y","b":1}`)
	f.Add(`{"oneOf":[{"type":"integer"},{"minimum":3}]}`, `2`, `4`)
	f.Add(`{"type":"array","items":{"type":"string","maxLength":2}}`, `["ab","c"]`, `["ab","cde","c"]`)
	f.Add(`{"type":"object","properties":{"l":{"type":"array","items":{"type":"object","properties":{"a":{"enum":["x","y"]},"b":{"type":"integer"}},"required":["a"],"additionalProperties":false}},"n":{"type":"integer","maximum":3}},"required":["l","n"],"maxProperties":2}`,
		`{"l":[{"a":"x","b":1},{"a":"y"}],"n":2}`, `{"l":[{"a":"x","b":1},{"b":"2","c":null}],"n":"3","z":null}`)
	f.Fuzz(func(t *testing.T, schemaText, knownText, instance string) {
		doc, err := value.Parse(schemaText)
		if err != nil {
			return
		}
		known, err1 := value.Parse(knownText)
		x, err2 := value.Parse(instance)
		if err1 != nil || err2 != nil {
			return
		}
		sch, err := Compile("t", doc)
		if err != nil {
			return
		}
		for _, nim := range []bool{false, true} {
			if !sch.Valid(known, Check{NullIsMissing: nim}) {
				continue
			}
			want := brief(sch.Validate(nil, x, Check{NullIsMissing: nim}))
			got := brief(sch.Validate(nil, x, Check{NullIsMissing: nim, Valid: &known}))
			if !slices.Equal(got, want) {
				t.Fatalf("null_is_missing=%v\nschema %s\nknown %s\ninstance %s\n with known %q\n without   %q", nim, schemaText, knownText, instance, got, want)
			}
			if sch.Valid(x, Check{NullIsMissing: nim, Valid: &known}) != (len(want) == 0) {
				t.Fatalf("Valid disagrees with Validate: schema %s known %s instance %s", schemaText, knownText, instance)
			}
			// A proof of Valid or Same (which reads nulls as values) is
			// held to the validation it lets the engine skip.
			var passes rulecore.Passes
			if p := sch.Known(known).Prove(x, &passes); !nim && p != Unproven && len(want) > 0 {
				t.Fatalf("proven %v, but %q\nschema %s\nknown %s\ninstance %s", p, want, schemaText, knownText, instance)
			}
			// Knowing the value's plan, and what comparing the two found
			// equal, as the engine validates an actual call.
			var eq rulecore.Equalities
			var set rulecore.Set
			set.CompareCheckedRecording(known, x, &rulecore.Context{NullIsMissing: nim}, nil, &eq)
			c := Check{NullIsMissing: nim, Known: sch.Known(known), Equal: &eq}
			if got := brief(sch.Validate(nil, x, c)); !slices.Equal(got, want) {
				t.Fatalf("null_is_missing=%v\nschema %s\nknown %s\ninstance %s\n with plan %q\n without  %q", nim, schemaText, knownText, instance, got, want)
			}
			set.CompareCheckedRecording(known, x, &rulecore.Context{NullIsMissing: nim}, nil, &eq)
			if sch.Valid(x, c) != (len(want) == 0) {
				t.Fatalf("Valid with plan disagrees with Validate: schema %s known %s instance %s", schemaText, knownText, instance)
			}
		}
	})
}

// compileFuzzed parses a fuzzed schema and instance and compiles the
// schema; err is not nil when either is not JSON or the schema does not
// compile, and the input is then of no use to the target.
func compileFuzzed(schemaText, instance string) (*Schema, value.Value, error) {
	doc, err := value.Parse(schemaText)
	if err != nil {
		return nil, value.Value{}, err
	}
	x, err := value.Parse(instance)
	if err != nil {
		return nil, value.Value{}, err
	}
	sch, err := Compile("t", doc)
	return sch, x, err
}
