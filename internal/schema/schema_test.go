package schema

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/value"
)

func mustParse(tb testing.TB, s string) value.Value {
	tb.Helper()
	v, err := value.Parse(s)
	if err != nil {
		tb.Fatalf("parse %s: %v", s, err)
	}
	return v
}

func mustCompile(tb testing.TB, s string) *Schema {
	tb.Helper()
	sch, err := Compile("t", mustParse(tb, s))
	if err != nil {
		tb.Fatalf("compile %s: %v", s, err)
	}
	return sch
}

// brief renders violations as sorted "path: message" lines; the keys
// listed by an additionalProperties message are sorted too, since the
// library lists them in a map's order.
func brief(vs []Violation) []string {
	out := []string{}
	for _, v := range vs {
		msg := v.Message
		if rest, ok := strings.CutPrefix(msg, "additional properties "); ok {
			list, tail, _ := strings.Cut(rest, " not allowed")
			names := strings.Split(list, ", ")
			slices.Sort(names)
			msg = "additional properties " + strings.Join(names, ", ") + " not allowed" + tail
		}
		out = append(out, strings.Join(v.Path, "/")+": "+msg)
	}
	slices.Sort(out)
	return out
}

// libBrief is brief for the library's violations, less the one kind this
// package leaves out on purpose: when a value matches no member of an
// anyOf or oneOf, the member that only allows null says "got T, want
// null", which tells a person nothing.
func libBrief(vs []Violation) []string {
	out := []Violation{}
	for _, v := range vs {
		if strings.HasSuffix(v.Message, ", want null") && v.Message != "got null, want null" {
			continue
		}
		out = append(out, v)
	}
	return brief(out)
}

// libOnly is s, compiled from text, validated by the library, as a schema
// with a keyword this package does not handle is. Compile keeps the
// library's schema only for those, so it is compiled again here.
func libOnly(tb testing.TB, s *Schema, text string) *Schema {
	tb.Helper()
	lib, err := compileLib("t", mustParse(tb, text))
	if err != nil {
		tb.Fatalf("compile %s: %v", text, err)
	}
	c := *s
	c.fast, c.lib = false, lib
	return &c
}

const toolSchema = `{
	"type": "object",
	"properties": {
		"city": {"type": "string", "minLength": 2, "maxLength": 20, "pattern": "^[A-Z]"},
		"unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "default": "celsius"},
		"days": {"type": "integer", "minimum": 1, "maximum": 14},
		"price": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1000, "multipleOf": 0.5},
		"tags": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 3, "uniqueItems": true},
		"when": {"$ref": "#/$defs/Date"},
		"maybe": {"anyOf": [{"type": "number"}, {"type": "null"}], "default": null},
		"one": {"oneOf": [{"type": "integer"}, {"type": "number", "minimum": 10}]},
		"both": {"allOf": [{"type": "string"}, {"minLength": 3}]},
		"loc": {
			"type": "object",
			"properties": {"lat": {"type": "number"}, "lon": {"type": "number"}, "name": {"type": "string", "default": "HQ"}},
			"required": ["lat", "lon"],
			"additionalProperties": false
		},
		"items": {"type": "array", "items": {"$ref": "#/$defs/Item"}},
		"meta": {"type": "object", "additionalProperties": {"type": "integer"}, "minProperties": 1, "maxProperties": 2},
		"kind": {"const": "fixed"},
		"nothing": false
	},
	"required": ["city", "days"],
	"$defs": {
		"Date": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
		"Item": {"type": "object", "properties": {"sku": {"type": "string"}, "qty": {"type": "integer", "default": 1}}, "required": ["sku"]}
	}
}`

// instances are arguments for toolSchema: valid ones and every way of
// breaking it that a model's output might take.
var instances = []string{
	`{"city":"Berlin","days":3}`,
	`{"city":"Berlin","days":"3"}`,
	`{"city":"Berlin","days":" 3 "}`,
	`{"city":"Berlin","days":3.0}`,
	`{"city":"Berlin","days":3.5}`,
	`{"city":"Berlin","days":"three"}`,
	`{"city":"Berlin","days":0}`,
	`{"city":"Berlin","days":15}`,
	`{"city":"Berlin","days":1e400}`,
	`{"city":"Berlin","days":-1e400}`,
	`{"city":"Berlin","days":1e-400}`,
	`{"city":"b","days":3}`,
	`{"city":"berlin","days":3}`,
	`{"city":"Berlinberlinberlinberlin","days":3}`,
	`{"city":"Ünïcødé","days":3}`,
	`{"city":1,"days":3}`,
	`{"city":null,"days":3}`,
	`{"days":3}`,
	`{}`,
	`{"city":"Berlin","days":3,"unit":"kelvin"}`,
	`{"city":"Berlin","days":3,"unit":"celsius"}`,
	`{"city":"Berlin","days":3,"price":10.5}`,
	`{"city":"Berlin","days":3,"price":"10.5"}`,
	`{"city":"Berlin","days":3,"price":10.25}`,
	`{"city":"Berlin","days":3,"price":0}`,
	`{"city":"Berlin","days":3,"price":1000}`,
	`{"city":"Berlin","days":3,"price":999.5}`,
	`{"city":"Berlin","days":3,"price":1e3}`,
	`{"city":"Berlin","days":3,"tags":[]}`,
	`{"city":"Berlin","days":3,"tags":["a","b","a"]}`,
	`{"city":"Berlin","days":3,"tags":["a","b","c","d"]}`,
	`{"city":"Berlin","days":3,"tags":["a",1]}`,
	`{"city":"Berlin","days":3,"tags":"a"}`,
	`{"city":"Berlin","days":3,"when":"2024-01-05"}`,
	`{"city":"Berlin","days":3,"when":"Jan 5"}`,
	`{"city":"Berlin","days":3,"when":5}`,
	`{"city":"Berlin","days":3,"maybe":null}`,
	`{"city":"Berlin","days":3,"maybe":"5"}`,
	`{"city":"Berlin","days":3,"maybe":"x"}`,
	`{"city":"Berlin","days":3,"one":5}`,
	`{"city":"Berlin","days":3,"one":12}`,
	`{"city":"Berlin","days":3,"one":5.5}`,
	`{"city":"Berlin","days":3,"one":"x"}`,
	`{"city":"Berlin","days":3,"both":"abcd"}`,
	`{"city":"Berlin","days":3,"both":"ab"}`,
	`{"city":"Berlin","days":3,"both":5}`,
	`{"city":"Berlin","days":3,"loc":{"lat":1,"lon":2}}`,
	`{"city":"Berlin","days":3,"loc":{"lat":1}}`,
	`{"city":"Berlin","days":3,"loc":{}}`,
	`{"city":"Berlin","days":3,"loc":{"lat":1,"lon":2,"alt":3}}`,
	`{"city":"Berlin","days":3,"loc":{"lat":1,"lon":2,"alt":3,"z":1}}`,
	`{"city":"Berlin","days":3,"loc":{"lat":"1","lon":"x"}}`,
	`{"city":"Berlin","days":3,"items":[{"sku":"A"},{"sku":"B","qty":2}]}`,
	`{"city":"Berlin","days":3,"items":[{"qty":2},{"sku":3,"qty":"2"}]}`,
	`{"city":"Berlin","days":3,"items":[{"sku":"A","qty":2.5}]}`,
	`{"city":"Berlin","days":3,"meta":{}}`,
	`{"city":"Berlin","days":3,"meta":{"a":1}}`,
	`{"city":"Berlin","days":3,"meta":{"a":1,"b":"2","c":3}}`,
	`{"city":"Berlin","days":3,"meta":{"a":"x"}}`,
	`{"city":"Berlin","days":3,"kind":"fixed"}`,
	`{"city":"Berlin","days":3,"kind":"other"}`,
	`{"city":"Berlin","days":3,"nothing":1}`,
	`{"city":5,"days":"x","unit":1,"tags":[1,1],"loc":{"q":1},"kind":2}`,
	`[]`,
	`"x"`,
	`null`,
}

// TestValidateAgreesWithLibrary holds this package's validation to the
// library's verdicts and messages on every instance.
func TestValidateAgreesWithLibrary(t *testing.T) {
	sch := mustCompile(t, toolSchema)
	if !sch.fast {
		t.Fatal("the tool schema should be validated by this package")
	}
	lib := libOnly(t, sch, toolSchema)
	for _, nim := range []bool{false, true} {
		for _, in := range instances {
			x := mustParse(t, in)
			got, want := brief(sch.Validate(nil, x, Check{NullIsMissing: nim})), libBrief(lib.Validate(nil, x, Check{NullIsMissing: nim}))
			if valid := sch.Valid(x, Check{NullIsMissing: nim}); valid != (len(got) == 0) {
				t.Errorf("null_is_missing=%v %s: Valid = %v with violations %q", nim, in, valid, got)
			}
			if !slices.Equal(got, want) {
				t.Errorf("null_is_missing=%v %s:\n got  %q\n want %q", nim, in, got, want)
			}
		}
	}
}

// TestValidateWithScratch validates every instance, one after another,
// with one Scratch, whose memory then holds the violations and their
// paths, and wants each result, read before the next validation, to be
// what validating with memory of its own gives, in the same order.
func TestValidateWithScratch(t *testing.T) {
	sch := mustCompile(t, toolSchema)
	var sc Scratch
	several := 0
	for round := 0; round < 2; round++ {
		for _, nim := range []bool{false, true} {
			for _, in := range instances {
				x := mustParse(t, in)
				want := sch.Validate(nil, x, Check{NullIsMissing: nim})
				got := sch.Validate(nil, x, Check{NullIsMissing: nim, Scratch: &sc})
				if !reflect.DeepEqual(got, want) {
					t.Errorf("null_is_missing=%v %s:\n got  %q\n want %q", nim, in, got, want)
				}
				if len(want) > 1 {
					several++
				}
			}
		}
	}
	if several == 0 {
		t.Fatal("no instance has two violations: the paths' buffer is not tried")
	}
}

// TestValidateWithScratchIntoDst validates into a dst of the caller's
// with a Scratch, and wants the violations' paths to outlive the
// Scratch's next validation: only a result in the Scratch's own memory is
// valid no longer than that.
func TestValidateWithScratchIntoDst(t *testing.T) {
	sch := mustCompile(t, toolSchema)
	var sc Scratch
	x := mustParse(t, `{"city":5,"days":"x","unit":1,"tags":[1,1],"loc":{"q":1},"kind":2,"price":1000}`)
	want := sch.Validate(nil, x, Check{})
	if len(want) < 2 {
		t.Fatalf("want an instance with several violations, got %q", want)
	}
	got := sch.Validate(make([]Violation, 0, 1), x, Check{Scratch: &sc})
	// Other paths, longer ones, where the first's were.
	y := mustParse(t, `{"city":"Berlin","days":3,"items":[{"sku":1,"qty":"x"},{"qty":2}],"loc":{"lat":"a","lon":"b","z":1},"meta":{"a":"x","b":"y","c":"z"}}`)
	sch.Validate(nil, y, Check{Scratch: &sc})
	if !reflect.DeepEqual(got, want) {
		t.Errorf("after the Scratch's next validation:\n got  %q\n want %q", got, want)
	}
}

func TestValidate(t *testing.T) {
	sch := mustCompile(t, toolSchema)
	tests := []struct {
		in   string
		nim  bool
		want []string
	}{
		{in: `{"city":"Berlin","days":3}`},
		{in: `{"city":"Berlin","days":"3"}`},
		{in: `{"city":"Berlin","days":5.0}`},
		{in: `{"city":"Berlin","days":5.5}`, want: []string{"days: got number, want integer"}},
		{in: `{"city":"Berlin","days":"x"}`, want: []string{"days: got string, want integer"}},
		{in: `{"days":3}`, want: []string{": missing property 'city'"}},
		{in: `{"city":"Berlin","days":3,"maybe":null}`},
		{in: `{"city":"Berlin","days":3,"maybe":"5"}`},
		{in: `{"city":"Berlin","days":3,"when":"x"}`, want: []string{`when: 'x' does not match pattern '^\\d{4}-\\d{2}-\\d{2}$'`}},
		{in: `{"city":"Berlin","days":3,"items":[{"sku":"A","qty":"2"}]}`},
		{in: `{"city":"Berlin","days":3,"items":[{"qty":2}]}`, want: []string{"items/0: missing property 'sku'"}},
		// Numbers beyond what the library can hold: exact, never a panic.
		{in: `{"city":"Berlin","days":1e10000000}`, want: []string{"days: maximum: got ∞, want 14"}},
		{in: `{"city":"Berlin","days":"1e10000001"}`, want: []string{"days: maximum: got ∞, want 14"}},
		{in: `{"city":"Berlin","days":3,"price":1e-100000000}`, want: []string{"price: multipleOf: got 0, want 0.5"}},
		{in: `{"city":"Berlin","days":3,"price":1e10000000}`, want: []string{"price: exclusiveMaximum: got ∞, want 1,000"}},
		{in: `{"city":"Berlin","days":-1e100000000000000000000}`, want: []string{"days: minimum: got -∞, want 1"}},
		{in: `{"city":"Berlin","days":3,"tags":[` + strings.Repeat(`"a",`, 100) + `"b"]}`,
			want: []string{"tags: items at 0 and 1 are equal", "tags: maxItems: got 101, want 3"}},
		// null_is_missing: null counts as absent everywhere.
		{in: `{"city":"Berlin","days":3,"unit":null}`, want: []string{"unit: got null, want string"}},
		{in: `{"city":"Berlin","days":3,"unit":null}`, nim: true},
		{in: `{"city":null,"days":3}`, nim: true, want: []string{": missing property 'city'"}},
		{in: `{"city":"Berlin","days":3,"loc":{"lat":1,"lon":2,"name":null}}`, nim: true},
	}
	for _, tt := range tests {
		got := brief(sch.Validate(nil, mustParse(t, tt.in), Check{NullIsMissing: tt.nim}))
		want := tt.want
		if want == nil {
			want = []string{}
		}
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%.80s (null_is_missing=%v):\n got  %q\n want %q", tt.in, tt.nim, got, want)
		}
	}
}

// TestValidateStringInUnion: a parameter whose type allows strings as
// well as numbers takes a numeric string as the string it is, held to
// enum, const, maxLength and pattern as written, here and in the library
// (whose instance coerceTree makes); "5" is no number to coerce to. A
// parameter of numbers alone still reads "5" as 5.
func TestValidateStringInUnion(t *testing.T) {
	const text = `{"type":"object","properties":{
		"code": {"type":["string","integer"],"enum":["5","x",7]},
		"tag": {"type":["integer","string"],"maxLength":3,"pattern":"^[0-9]+$"},
		"one": {"type":["string","number"],"const":"5"},
		"n": {"type":"integer","enum":[5]}}}`
	sch := mustCompile(t, text)
	lib := libOnly(t, sch, text)
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{in: `{"code":"5"}`},
		{in: `{"code":7}`},
		{in: `{"code":"7"}`, want: []string{"code: value must be one of '5', 'x', 7"}},
		{in: `{"code":5}`, want: []string{"code: value must be one of '5', 'x', 7"}},
		{in: `{"tag":"123"}`},
		{in: `{"tag":"123456"}`, want: []string{"tag: maxLength: got 6, want 3"}},
		{in: `{"tag":"1a"}`, want: []string{"tag: '1a' does not match pattern '^[0-9]+$'"}},
		{in: `{"tag":123456}`},
		{in: `{"one":"5"}`},
		{in: `{"one":5}`, want: []string{"one: value must be '5'"}},
		{in: `{"n":"5"}`},
		{in: `{"n":"6"}`, want: []string{"n: value must be 5"}},
	} {
		x := mustParse(t, tt.in)
		want := tt.want
		if want == nil {
			want = []string{}
		}
		if got := brief(sch.Validate(nil, x, Check{})); !slices.Equal(got, want) {
			t.Errorf("%s:\n got  %q\n want %q", tt.in, got, want)
		}
		if got := libBrief(lib.Validate(nil, x, Check{})); !slices.Equal(got, want) {
			t.Errorf("%s, the library:\n got  %q\n want %q", tt.in, got, want)
		}
		if valid := sch.Valid(x, Check{}); valid != (len(want) == 0) {
			t.Errorf("%s: Valid = %t", tt.in, valid)
		}
	}
}

func TestValidateOrderIsStable(t *testing.T) {
	sch := mustCompile(t, toolSchema)
	x := mustParse(t, `{"city":5,"days":"x","unit":1,"tags":[1,1],"loc":{"q":1,"r":2},"kind":2}`)
	first := sch.Validate(nil, x, Check{NullIsMissing: false})
	for range 20 {
		again := sch.Validate(nil, x, Check{NullIsMissing: false})
		if !slices.EqualFunc(first, again, func(a, b Violation) bool {
			return a.Message == b.Message && slices.Equal(a.Path, b.Path)
		}) {
			t.Fatalf("order changed:\n%v\n%v", first, again)
		}
	}
	var keys []string
	for _, v := range first {
		keys = append(keys, strings.Join(v.Path, "/"))
	}
	if !slices.IsSorted(keys[1:]) { // the first is the object's own
		t.Errorf("violations not in key order: %q", keys)
	}
}

func TestFallback(t *testing.T) {
	tests := []struct {
		schema string
		fast   bool
	}{
		{`{"type":"object"}`, true},
		{`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object"}`, true},
		{`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object"}`, false},
		{`{"type":"object","properties":{"a":{"not":{"type":"string"}}}}`, false},
		{`{"type":"object","patternProperties":{"^x":{"type":"string"}}}`, false},
		{`{"type":"object","properties":{"a":{"$ref":"#/$defs/A"}},"$defs":{"A":{"$anchor":"a"}}}`, false},
		{`{"type":"object","properties":{"a":{"type":"integer","x-custom":1,"format":"int32"}}}`, true},
		{`{"type":"object","properties":{"a":{"$ref":"#"}}}`, true}, // recursive through a property
		{`{"type":"object","allOf":[{"$ref":"#"}]}`, false},         // a loop on the same instance
		{`{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"properties":{"x":{"$ref":"#/$defs/a"}}}`, false},
	}
	for _, tt := range tests {
		sch, err := Compile("t", mustParse(t, tt.schema))
		if err != nil {
			t.Errorf("%s: %v", tt.schema, err)
			continue
		}
		if sch.fast != tt.fast {
			t.Errorf("%s: fast = %v, want %v", tt.schema, sch.fast, tt.fast)
		}
		// The library's compiled schema is kept where it validates, and
		// only there: it is most of a compiled tool's memory.
		if (sch.lib != nil) == sch.fast {
			t.Errorf("%s: fast = %v, library schema kept = %v", tt.schema, sch.fast, sch.lib != nil)
		}
	}
}

// TestFallbackSurvivesLibraryPanics: the library panics on a number
// beyond big.Rat's exponent limit under minimum or multipleOf; a schema
// that the library validates (here because of `not`) must turn that into
// a violation.
func TestFallbackSurvivesLibraryPanics(t *testing.T) {
	sch := mustCompile(t, `{"type":"object","properties":{"n":{"type":"number","maximum":5,"not":{"type":"string"}}}}`)
	if sch.fast {
		t.Fatal("want the library")
	}
	got := sch.Validate(nil, mustParse(t, `{"n":1e10000000}`), Check{NullIsMissing: false})
	if len(got) != 1 || !strings.Contains(got[0].Message, "cannot be validated") {
		t.Errorf("got %v", got)
	}
	if got := sch.Validate(nil, mustParse(t, `{"n":"4"}`), Check{NullIsMissing: false}); len(got) != 0 {
		t.Errorf("coerced: %v", got)
	}
}

func TestCompileErrors(t *testing.T) {
	for _, s := range []string{
		`{"type":"object","properties":{"a":{"type":"strng"}}}`,
		`{"type":"object","properties":{"a":{"$ref":"#/$defs/missing"}}}`,
		`{"type":"object","required":"a"}`,
		`{"type":"object","properties":{"a":{"pattern":"("}}}`,
	} {
		if _, err := Compile("t", mustParse(t, s)); err == nil {
			t.Errorf("%s: compiled", s)
		}
	}
}

func TestValidateAllocatesNothingWhenValid(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop what it holds")
	}
	sch := mustCompile(t, toolSchema)
	x := mustParse(t, `{"city":"Berlin","days":"3","unit":"celsius","price":10.5,"tags":["a","b"],"when":"2024-01-05",
		"maybe":null,"one":5,"both":"abcd","loc":{"lat":1,"lon":2},"items":[{"sku":"A","qty":2}],"meta":{"a":1},"kind":"fixed"}`)
	if v := sch.Validate(nil, x, Check{NullIsMissing: false}); len(v) != 0 {
		t.Fatalf("not valid: %v", v)
	}
	if n := testing.AllocsPerRun(100, func() { sch.Validate(nil, x, Check{NullIsMissing: false}) }); n != 0 {
		t.Errorf("%v allocations", n)
	}
}

func BenchmarkValidate(b *testing.B) {
	sch := mustCompile(b, toolSchema)
	x := mustParse(b, `{"city":"Berlin","days":"3","unit":"celsius","price":10.5,"tags":["a","b"],"when":"2024-01-05",
		"maybe":null,"one":5,"both":"abcd","loc":{"lat":1,"lon":2},"items":[{"sku":"A","qty":2}],"meta":{"a":1},"kind":"fixed"}`)
	b.ReportAllocs()
	for b.Loop() {
		sch.Validate(nil, x, Check{NullIsMissing: false})
	}
}

func BenchmarkValidateInvalid(b *testing.B) {
	sch := mustCompile(b, toolSchema)
	x := mustParse(b, `{"city":5,"days":"x","unit":1,"tags":[1,1],"loc":{"q":1},"kind":2,"price":1000}`)
	b.ReportAllocs()
	for b.Loop() {
		sch.Validate(nil, x, Check{NullIsMissing: false})
	}
}

// TestViolationMissing: a violation of required names the properties
// missing in Missing, as its message lists them, whether this package
// validates or the library does; other violations name none.
func TestViolationMissing(t *testing.T) {
	const text = `{"type": "object", "required": ["a", "b", "c"], "properties": {"a": {"type": "string"}, "o": {"type": "object", "required": ["x"]}}}`
	sch := mustCompile(t, text)
	tests := []struct {
		in   string
		want []string // "path: missing, ..." per violation
	}{
		{`{"a": "x", "b": 1, "c": 2}`, nil},
		{`{"b": 1}`, []string{": a,c"}},
		{`{"a": "x", "b": 1, "c": 2, "o": {}}`, []string{"o: x"}},
		{`{"a": 5, "b": 1, "c": 2}`, []string{"a: "}},
	}
	for _, s := range []*Schema{sch, libOnly(t, sch, text)} {
		for _, tt := range tests {
			var got []string
			for _, v := range s.Validate(nil, mustParse(t, tt.in), Check{}) {
				got = append(got, strings.Join(v.Path, "/")+": "+strings.Join(v.Missing, ","))
				if len(v.Missing) > 0 && v.Message != MissingMessage(v.Missing) {
					t.Errorf("%s (fast %v): message %q, Missing %q", tt.in, s.fast, v.Message, v.Missing)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("%s (fast %v): %q, want %q", tt.in, s.fast, got, tt.want)
			}
		}
	}
}
