package engine

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/value"
)

// FuzzSchemaScore scores an arbitrary arguments string against cases of a
// tool whose parameters schema is arbitrary too (numeric bounds, refs,
// nested objects, nullable members, whatever the fuzzer makes): nothing
// panics, and a run writes exactly one result line per case, each a
// verdict that holds together, whether or not the schema compiles.
func FuzzSchemaScore(f *testing.F) {
	for _, seed := range []struct{ schema, args string }{
		{`{"type":"object","properties":{"n":{"type":"number","minimum":0,"maximum":100,"multipleOf":0.5}},"required":["n"]}`,
			`{"n":1e10000000}`},
		{`{"type":"object","properties":{"n":{"type":"number","exclusiveMaximum":1e400}}}`, `{"n":"1e10000001"}`},
		{`{"type":"object","properties":{"n":{"type":"integer","multipleOf":3}}}`, `{"n":1e-100000000}`},
		{`{"type":"object","properties":{"r":{"$ref":"#/$defs/R"}},"$defs":{"R":{"type":"object","properties":{"x":{"type":"integer","default":1}},"required":["x"]}}}`,
			`{"r":{"x":"2"}}`},
		{`{"type":"object","properties":{"p":{"anyOf":[{"type":"number"},{"type":"null"}],"default":null}}}`, `{"p":null}`},
		{`{"type":"object","properties":{"l":{"type":"array","items":{"type":"object","properties":{"q":{"type":"integer","default":1}}},"uniqueItems":true}}}`,
			`{"l":[{"q":1e400},{"q":1e400}]}`},
		{`{"type":"object","properties":{"t":{"$ref":"#"}},"additionalProperties":false}`, `{"t":{"t":{"u":1}}}`},
		{`{"type":"object","properties":{"n":{"not":{"type":"string"},"maximum":5}}}`, `{"n":1e10000000}`},
		{`{"type":"object","properties":{"s":{"type":"string","pattern":"^[a-z]+$","maxLength":3}}}`, `{"s":"ab\u00e9cd"}`},
		{`{"type":"object","properties":{"o":{"oneOf":[{"type":"integer"},{"type":"number","minimum":1}]}}}`, `{"o":2}`},
		{`{"type":"object"}`, `not json`},
		{`[1]`, `{}`},
	} {
		f.Add(seed.schema, seed.args)
	}
	f.Fuzz(func(t *testing.T, schema, args string) {
		params, err := value.Parse(schema)
		if err != nil {
			return
		}
		nullIsMissing := len(args)%2 == 0
		s := &suite.Suite{
			Tools:    []suite.Tool{{Name: "f", Parameters: params}},
			Defaults: suite.Defaults{NullIsMissing: nullIsMissing},
		}
		empty, _ := value.ObjectOf()
		s.Cases = append(s.Cases, suite.Case{ID: "empty", Expected: []suite.Call{{Name: "f", Arguments: empty}}})
		if a, err := value.Parse(args); err == nil && a.Kind() == value.Object {
			s.Cases = append(s.Cases,
				suite.Case{ID: "same", Expected: []suite.Call{{Name: "f", Arguments: a}}},
				suite.Case{ID: "unordered", Calls: suite.CallsUnordered, Expected: []suite.Call{{Name: "f", Arguments: a}, {Name: "f", Arguments: empty}}})
		}
		e, err := newEngine(s, Options{})
		if err != nil {
			return // a schema the library rejects: a load error, not a crash
		}
		_ = e.Warnings()
		var in bytes.Buffer
		call := `{"name":"f","arguments":` + strconv.Quote(args) + `}`
		if resp, err := value.Parse(`[` + call + `]`); err == nil {
			checkWeighAgrees(t, e, resp)
			if two, err := value.Parse(`[` + call + `,` + call + `]`); err == nil {
				checkScorerLines(t, e, resp, two)
			}
		}
		for i := range len(e.cases) {
			in.WriteString(`{"id":` + strconv.Quote(e.cases[i].id) + `,"response":[` + call + `,` + call + `]}` + "\n")
		}
		var out bytes.Buffer
		sum, err := e.Run(context.Background(), &in, &out, RunOptions{Name: "fuzz.jsonl"})
		if err != nil {
			t.Fatalf("run: %v", err)
		}
		lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		if len(lines) != len(e.cases) || sum.Cases != len(e.cases) {
			t.Fatalf("%d result lines, %d counted, for %d cases:\n%s", len(lines), sum.Cases, len(e.cases), out.String())
		}
		for i, line := range lines {
			r, err := value.Parse(line)
			if err != nil {
				t.Fatalf("result %d is not JSON: %v\n%s", i, err, line)
			}
			id, _ := r.Get("id")
			pass, _ := r.Get("pass")
			diffs, _ := r.Get("diffs")
			if id.Str() != e.cases[i].id || pass.Bool() != (diffs.Len() == 0) {
				t.Fatalf("result %d does not hold together: %s", i, line)
			}
		}
	})
}
