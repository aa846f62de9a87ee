package engine

import (
	"testing"

	"github.com/callgrade/callgrade/results"
)

// The verdicts of issue 10, each a wrong pass or a crash before its fix.

func TestNoExpectedCallsPassOnlyWithNone(t *testing.T) {
	call := `[{"name":"delete_account","arguments":{}}]`
	runScoreTests(t, []scoreTest{
		{"superset, nothing expected, a call", `cases: [{id: t, calls: superset, expected: []}]`, call, false, 0, []results.Kind{results.UnexpectedCall}},
		{"superset, nothing expected, no call", `cases: [{id: t, calls: superset, expected: []}]`, `[]`, true, 1, nil},
		{"superset default, nothing expected", `defaults: {calls: superset}
cases: [{id: t, expected: []}]`, call, false, 0, []results.Kind{results.UnexpectedCall}},
		{"an empty alternative under superset", `cases: [{id: t, calls: superset, expected: [{name: f, arguments: {x: 1}}], alternatives: [[]]}]`,
			call, false, 0, []results.Kind{results.MissingCall}},
		{"subset, nothing expected, a call", `cases: [{id: t, calls: subset, expected: []}]`, call, false, 0, []results.Kind{results.UnexpectedCall}},
		{"unordered, nothing expected, a call", `cases: [{id: t, calls: unordered, expected: []}]`, call, false, 0, []results.Kind{results.UnexpectedCall}},
		{"greedy, nothing expected, a call", `cases: [{id: t, calls: greedy, expected: []}]`, call, false, 0, []results.Kind{results.UnexpectedCall}},
		{"superset still tolerates extra calls", `cases: [{id: t, calls: superset, expected: [{name: f, arguments: {}}]}]`,
			`[{"name":"f","arguments":{}},{"name":"delete_account","arguments":{}}]`, true, 1, nil},
	})
}

const nullableTools = `
tools:
  - name: f
    parameters:
      type: object
      properties:
        n: {type: integer}
        o: {type: integer}
        s: {type: string}
        loc:
          type: object
          properties: {city: {type: string}, floor: {type: integer}}
          required: [city]
      required: [n]
`

func TestNullIsMissingInTheSchema(t *testing.T) {
	on := "defaults: {null_is_missing: true}\n" + nullableTools
	runScoreTests(t, []scoreTest{
		{"a null optional argument", on + `cases: [{id: t, expected: {name: f, arguments: {n: 1}}}]`,
			`[{"name":"f","arguments":{"n":1,"o":null}}]`, true, 1, nil},
		{"a null nested optional field", on + `cases: [{id: t, expected: {name: f, arguments: {n: 1, loc: {city: X}}}}]`,
			`[{"name":"f","arguments":{"n":1,"loc":{"city":"X","floor":null}}}]`, true, 1, nil},
		{"a null required argument is missing", on + `cases: [{id: t, expected: {name: f, arguments: {n: 1}}}]`,
			`[{"name":"f","arguments":{"n":null}}]`, false, 0, []results.Kind{results.MissingArgument, results.Schema}},
		{"a null on the expected side is left out", on + `cases: [{id: t, expected: {name: f, arguments: {n: 1, o: null}}}]`,
			`[{"name":"f","arguments":{"n":1,"o":3}}]`, true, 1, nil},
		{"without null_is_missing, null is a value", nullableTools + `cases: [{id: t, expected: {name: f, arguments: {n: 1}}}]`,
			`[{"name":"f","arguments":{"n":1,"o":null}}]`, false, 1, []results.Kind{results.Schema}},
	})
}

func TestHugeNumbersAreDiffsNotCrashes(t *testing.T) {
	tools := `
tools:
  - name: f
    parameters:
      type: object
      properties:
        a: {type: number, minimum: 0, maximum: 100}
        m: {type: number, multipleOf: 0.5}
        u: {type: array, items: {type: number}, uniqueItems: true}
      required: [a]
`
	runScoreTests(t, []scoreTest{
		{"1e10000000 over a maximum", tools + `cases: [{id: t, expected: {name: f, arguments: {a: 5}}}]`,
			`[{"name":"f","arguments":{"a":1e10000000}}]`, false, 0, []results.Kind{results.Mismatch, results.Schema}},
		{"as a string", tools + `cases: [{id: t, expected: {name: f, arguments: {a: 5, m: 1}}}]`,
			`[{"name":"f","arguments":{"a":5,"m":"1e10000001"}}]`, false, 0.5, []results.Kind{results.Mismatch}},
		{"tiny under multipleOf", tools + `cases: [{id: t, expected: {name: f, arguments: {a: 5, m: 1}}}]`,
			`[{"name":"f","arguments":{"a":5,"m":1e-100000000}}]`, false, 0.5, []results.Kind{results.Mismatch, results.Schema}},
		{"huge within bounds is equal to itself", tools + `cases: [{id: t, expected: {name: f, arguments: {a: 5, m: 1e400}}}]`,
			`[{"name":"f","arguments":{"a":5,"m":1e400}}]`, true, 1, nil},
		{"uniqueItems with many huge numbers", tools + `cases: [{id: t, expected: {name: f, arguments: {a: 5, u: []}}}]`,
			`[{"name":"f","arguments":{"a":5,"u":[1e10000000,1e10000001,1e10000002,1e10000003,1e10000004,1e10000005,1e10000006,1e10000007,1e10000008,1e10000009,1e10000010,1e10000011,1e10000012,1e10000013,1e10000014,1e10000015,1e10000016,1e10000017,1e10000018,1e10000019,1e10000020,1e10000000]}}]`,
			false, 0.5, []results.Kind{results.Mismatch, results.Schema}},
	})
}

func TestSchemaRefsAndNullable(t *testing.T) {
	// What Pydantic and zod emit.
	tools := `
tools:
  - name: f
    parameters:
      type: object
      properties:
        r: {$ref: "#/$defs/Num"}
        p: {anyOf: [{type: number}, {type: "null"}], default: 7}
        q: {anyOf: [{type: integer}, {type: "null"}], default: null}
        loc: {anyOf: [{$ref: "#/$defs/Loc"}, {type: "null"}], default: null}
        z: {$ref: "#/definitions/Z"}
      required: [r]
      $defs:
        Num: {type: number}
        Loc: {type: object, properties: {lat: {type: number}, name: {type: string, default: HQ}}, required: [lat]}
      definitions:
        Z: {type: integer, default: 3}
`
	runScoreTests(t, []scoreTest{
		{"a $ref number is numeric", tools + `cases: [{id: t, expected: {name: f, arguments: {r: 5}}}]`,
			`[{"name":"f","arguments":{"r":"5"}}]`, true, 1, nil},
		{"Optional[float] is numeric", tools + `cases: [{id: t, expected: {name: f, arguments: {r: 1, p: 5}}}]`,
			`[{"name":"f","arguments":{"r":1,"p":"5.0"}}]`, true, 1, nil},
		{"Optional[float] has its default", tools + `cases: [{id: t, expected: {name: f, arguments: {r: 1}}}]`,
			`[{"name":"f","arguments":{"r":1,"p":7}}]`, true, 1, nil},
		{"against the default", tools + `cases: [{id: t, expected: {name: f, arguments: {r: 1}}}]`,
			`[{"name":"f","arguments":{"r":1,"p":8}}]`, false, 0.5, []results.Kind{results.Mismatch}},
		{"Optional[int] = None may be null", tools + `cases: [{id: t, expected: {name: f, arguments: {r: 1}}}]`,
			`[{"name":"f","arguments":{"r":1,"q":null}}]`, true, 1, nil},
		{"Optional[int] given where the expected call has none", tools + `cases: [{id: t, expected: {name: f, arguments: {r: 1}}}]`,
			`[{"name":"f","arguments":{"r":1,"q":4}}]`, false, 0.5, []results.Kind{results.Mismatch}},
		{"a $ref object's nested default", tools + `cases: [{id: t, expected: {name: f, arguments: {r: 1, loc: {lat: 1}}}}]`,
			`[{"name":"f","arguments":{"r":1,"loc":{"lat":"1","name":"HQ"}}}]`, true, 1, nil},
		{"a $ref object's nested type", tools + `cases: [{id: t, expected: {name: f, arguments: {r: 1, loc: {lat: 1}}}}]`,
			`[{"name":"f","arguments":{"r":1,"loc":{"lat":"north"}}}]`, false, 0.5, []results.Kind{results.Mismatch, results.Schema}},
		{"definitions default", tools + `cases: [{id: t, expected: {name: f, arguments: {r: 1}}}]`,
			`[{"name":"f","arguments":{"r":1,"z":"3"}}]`, true, 1, nil},
	})
}

func TestSchemaImplicationsAtEveryDepth(t *testing.T) {
	tools := `
tools:
  - name: f
    parameters:
      type: object
      properties:
        location:
          type: object
          properties:
            city: {type: string}
            building: {type: string, default: HQ}
            floor: {type: integer}
          required: [city]
        items:
          type: array
          items:
            type: object
            properties: {sku: {type: string}, qty: {type: integer, default: 1}, note: {type: string}}
            required: [sku]
      required: [location]
`
	runScoreTests(t, []scoreTest{
		{"a nested default on the actual side", tools + `cases: [{id: t, expected: {name: f, arguments: {location: {city: X, building: HQ}}}}]`,
			`[{"name":"f","arguments":{"location":{"city":"X"}}}]`, true, 1, nil},
		{"a nested default on the expected side", tools + `cases: [{id: t, expected: {name: f, arguments: {location: {city: X}}}}]`,
			`[{"name":"f","arguments":{"location":{"city":"X","building":"HQ"}}}]`, true, 1, nil},
		{"against the nested default", tools + `cases: [{id: t, expected: {name: f, arguments: {location: {city: X}}}}]`,
			`[{"name":"f","arguments":{"location":{"city":"X","building":"Annex"}}}]`, false, 0, []results.Kind{results.Mismatch}},
		{"a nested field not required", tools + `cases: [{id: t, expected: {name: f, arguments: {location: {city: X}}}}]`,
			`[{"name":"f","arguments":{"location":{"city":"X","floor":"3"}}}]`, true, 1, nil},
		{"a nested field the expected call gives", tools + `cases: [{id: t, expected: {name: f, arguments: {location: {city: X, floor: 3}}}}]`,
			`[{"name":"f","arguments":{"location":{"city":"X"}}}]`, false, 0, []results.Kind{results.MissingArgument}},
		{"a nested field not in the schema", tools + `cases: [{id: t, expected: {name: f, arguments: {location: {city: X}}}}]`,
			`[{"name":"f","arguments":{"location":{"city":"X","wing":"B"}}}]`, false, 0, []results.Kind{results.UnexpectedArgument}},
		{"array items' defaults", tools + `cases: [{id: t, expected: {name: f, arguments: {location: {city: X}, items: [{sku: A}, {sku: B, qty: 2}]}}}]`,
			`[{"name":"f","arguments":{"location":{"city":"X"},"items":[{"sku":"A","qty":1},{"sku":"B","qty":"2"}]}}]`, true, 1, nil},
		{"array items' fields not required", tools + `cases: [{id: t, expected: {name: f, arguments: {location: {city: X}, items: [{sku: A}]}}}]`,
			`[{"name":"f","arguments":{"location":{"city":"X"},"items":[{"sku":"A","note":"fragile"}]}}]`, true, 1, nil},
		{"array items' defaults decide", tools + `cases: [{id: t, expected: {name: f, arguments: {location: {city: X}, items: [{sku: A}]}}}]`,
			`[{"name":"f","arguments":{"location":{"city":"X"},"items":[{"sku":"A","qty":3}]}}]`, false, 0.5, []results.Kind{results.Mismatch}},
	})
}
