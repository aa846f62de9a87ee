package engine

import (
	"strings"
	"testing"

	"github.com/callgrade/callgrade/dsl"
)

// TestSchemaLintRules: the warning that an expected call violates its
// tool's schema is not given for a field whose rule makes the expected
// value no literal (regex, one_of, expr, ignore, from: what the call
// writes there is not what an actual call must equal), whether the call
// writes the field or leaves a required one out, nor for a required field
// left out under a type rule; it is still given for the fields no such
// rule covers, and for what a rule that compares the expected value
// (exact, optional, default, a type rule on a written value) cannot
// excuse.
func TestSchemaLintRules(t *testing.T) {
	const tools = `tools:
  - name: get_weather
    parameters:
      type: object
      required: [city, unit]
      properties:
        city: {type: string}
        unit: {type: string, enum: [celsius, fahrenheit]}
        days: {type: integer}
        where: {type: object, required: [lat, lon], properties: {lat: {type: number}, lon: {type: number}}}
        stops: {type: array, items: {type: object, required: [name], properties: {name: {type: string}}}}
`
	const prefix = "the expected arguments violate the schema of tool get_weather ("
	tests := []struct {
		name string
		cas  string   // the case's expected call (and what else the case says)
		want []string // the key and the message between prefix and ")"
	}{
		// The false warnings.
		{"regex on a field written", `expected: {name: get_weather, arguments: {city: 5, unit: celsius}, rules: {city: {regex: "^Ber"}}}`, nil},
		{"regex on a required field left out", `expected: {name: get_weather, arguments: {unit: celsius}, rules: {city: {regex: "^Ber"}}}`, nil},
		{"regex on a value not in the enum", `expected: {name: get_weather, arguments: {city: Berlin, unit: "c.*"}, rules: {unit: {regex: "^c"}}}`, nil},
		{"one_of, left out", `expected: {name: get_weather, arguments: {unit: celsius}, rules: {city: {one_of: [Berlin, Bonn]}}}`, nil},
		{"one_of, written ill-typed", `expected: {name: get_weather, arguments: {city: Berlin, unit: celsius, days: "some"}, rules: {days: {one_of: [1, 2]}}}`, nil},
		{"expr, left out", `expected: {name: get_weather, arguments: {unit: celsius}, rules: {city: {expr: "actual startsWith 'B'"}}}`, nil},
		{"ignore, left out", `expected: {name: get_weather, arguments: {unit: celsius}, rules: {city: ignore}}`, nil},
		{"ignore on an object, inside it", `expected: {name: get_weather, arguments: {city: Berlin, unit: celsius, where: {lat: "north"}}, rules: {where: ignore}}`, nil},
		{"type, left out", `expected: {name: get_weather, arguments: {unit: celsius}, rules: {city: {type: string}}}`, nil},
		{"both required left out, both ruled", `expected: {name: get_weather, arguments: {}, rules: {city: {regex: "^B"}, unit: {one_of: [celsius]}}}`, nil},
		{"a wildcard regex", `expected: {name: get_weather, arguments: {unit: celsius}, rules: {"*": {regex: "."}}}`, nil},
		{"every element's field", `expected: {name: get_weather, arguments: {city: Berlin, unit: celsius, stops: [{}, {name: 5}]}, rules: {"stops.#.name": {regex: "^S"}}}`, nil},
		{"a nested required field", `expected: {name: get_weather, arguments: {city: Berlin, unit: celsius, where: {lat: 1}}, rules: {where.lon: {expr: "actual > 0"}}}`, nil},
		{"a ruleset's regex", `use: [loose_city]
    expected: {name: get_weather, arguments: {unit: celsius}}`, nil},
		{"the defaults' rule", `expected: {name: get_weather, arguments: {city: Berlin}}
    # unit has a default rule below`, nil},
		{"a from reference", `steps:
      - {name: get_weather, arguments: {city: Berlin, unit: celsius}}
      - {name: get_weather, arguments: {unit: celsius}, rules: {city: {from: "steps[-1].arguments.city"}}}`, nil},
		// Real violations still warn.
		{"nothing ruled", `expected: {name: get_weather, arguments: {unit: celsius}}`,
			[]string{"cases[0].expected[0].arguments: missing property 'city'"}},
		{"an ill-typed field, another ruled", `expected: {name: get_weather, arguments: {city: Berlin, unit: celsius, days: "x"}, rules: {city: {regex: "^B"}}}`,
			[]string{"cases[0].expected[0].arguments.days: got string, want integer"}},
		{"one of two left out is ruled", `expected: {name: get_weather, arguments: {}, rules: {city: {regex: "^B"}}}`,
			[]string{"cases[0].expected[0].arguments: missing property 'unit'"}},
		{"two left out, neither ruled", `expected: {name: get_weather, arguments: {days: 1}}`,
			[]string{"cases[0].expected[0].arguments: missing properties 'city', 'unit'"}},
		{"a type rule on a written value", `expected: {name: get_weather, arguments: {city: 5, unit: celsius}, rules: {city: {type: string}}}`,
			[]string{"cases[0].expected[0].arguments.city: got number, want string"}},
		{"exact", `expected: {name: get_weather, arguments: {city: 5, unit: celsius}, rules: {city: exact}}`,
			[]string{"cases[0].expected[0].arguments.city: got number, want string"}},
		{"optional, left out", `expected: {name: get_weather, arguments: {unit: celsius}, rules: {city: optional}}`,
			[]string{"cases[0].expected[0].arguments: missing property 'city'"}},
		{"default, left out", `expected: {name: get_weather, arguments: {unit: celsius}, rules: {city: {default: Berlin}}}`,
			[]string{"cases[0].expected[0].arguments: missing property 'city'"}},
		{"a rule on another field's parent", `expected: {name: get_weather, arguments: {city: Berlin, unit: celsius, where: {lat: 1}}, rules: {where.lat: {regex: "."}}}`,
			[]string{"cases[0].expected[0].arguments.where: missing property 'lon'"}},
		{"an exact rule beats a ruleset's regex", `use: [loose_city]
    expected: {name: get_weather, arguments: {unit: celsius}, rules: {city: exact}}`,
			[]string{"cases[0].expected[0].arguments: missing property 'city'"}},
		{"a step left out, nothing ruled", `steps:
      - {name: get_weather, arguments: {unit: celsius}}`,
			[]string{"cases[0].steps[0].arguments: missing property 'city'"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			suite := "version: 1\n" + tools + `rulesets:
  loose_city: {city: {regex: "(?i)^ber"}}
`
			if strings.Contains(tt.cas, "# unit has a default rule below") {
				suite += "defaults:\n  rules: {unit: {one_of: [celsius, fahrenheit]}}\n"
			}
			e := loadWith(t, suite+"cases:\n  - id: c\n    "+tt.cas+"\n", Options{Extensions: dsl.NewCompiler(dsl.Options{}).Extensions()})
			var got []string
			for _, w := range e.Warnings() {
				if msg, ok := strings.CutPrefix(w.Msg, prefix); ok {
					msg, _, _ = strings.Cut(msg, "): an actual call equal to them cannot pass")
					got = append(got, w.Loc.Key+": "+msg)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("warnings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}
