package engine

import (
	"fmt"
	"testing"

	"github.com/callgrade/callgrade/internal/rulecore"

	"github.com/callgrade/callgrade/internal/jsonv"
	"github.com/callgrade/callgrade/internal/response"
	"github.com/callgrade/callgrade/internal/schema"
	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/value"
)

// FuzzProven holds the shortcuts of compiledCall.prove to what they skip:
// a call, and a pair of calls in any order, scores as it would without
// them, byte for byte; whenever it
// proves an actual call the expected one up to the schema's implications
// (Same), the comparison under the case's rules passes every argument
// without a diff and the validation finds no violation; whenever it proves
// the call valid (Valid), the validation finds none. The
// actual arguments are the fuzzer's, and variants of the expected ones
// that the shortcut is for: numbers written as strings (with white space
// too), each member left out.
func FuzzProven(f *testing.F) {
	for _, seed := range []struct{ schema, expected, actual string }{
		{`{"type":"object","properties":{"n":{"type":"integer","minimum":1},"u":{"type":"string","enum":["c","f"],"default":"c"}},"required":["n"]}`,
			`{"n":2}`, `{"n":"2","u":"c"}`},
		{`{"type":"object","properties":{"n":{"type":"integer","default":1}},"required":["n"]}`, `{"n":1}`, `{}`},
		{`{"type":"object","properties":{"n":{"type":"integer","default":1}},"minProperties":1}`, `{"n":1}`, `{}`},
		{`{"type":"object","properties":{"s":{"type":"string","default":"ab","minLength":3}}}`, `{}`, `{"s":"ab"}`},
		{`{"type":"object","properties":{"t":{"$ref":"#"},"n":{"type":"number"}}}`, `{"t":{"n":1},"n":2}`, `{"t":{"n":"1"},"n":"2"}`},
		{`{"type":"object","properties":{"p":{"anyOf":[{"type":"number"},{"type":"null"}],"default":null}}}`, `{"p":3}`, `{"p":"3"}`},
		{`{"type":"object","properties":{"p":{"anyOf":[{"type":"number"},{"type":"null"}],"default":null}}}`, `{}`, `{"p":null}`},
		{`{"type":"object","properties":{"r":{"$ref":"#/$defs/R"}},"$defs":{"R":{"type":"object","properties":{"x":{"type":"integer","default":1}}}}}`,
			`{"r":{"x":2}}`, `{"r":{"x":" 2 "}}`},
		{`{"type":"object","properties":{"l":{"type":"array","items":{"type":"number"},"uniqueItems":true}}}`, `{"l":[1,2]}`, `{"l":["1","2"]}`},
		{`{"type":"object","additionalProperties":{"type":"number"}}`, `{"x":1}`, `{"x":"1"}`},
		{`{"type":"object","properties":{"n":{"type":["number","string"]}}}`, `{"n":5}`, `{"n":"5.0"}`},
		{`{"type":"object","properties":{"n":{"allOf":[{"type":"integer","maximum":3}]}}}`, `{"n":3}`, `{"n":"3e0"}`},
		{`{"type":"object","properties":{"n":{"type":"number","default":"x"}}}`, `{}`, `{"n":"x"}`},
	} {
		f.Add(seed.schema, seed.expected, seed.actual)
	}
	f.Fuzz(func(t *testing.T, schemaText, expectedText, actualText string) {
		params, err := value.Parse(schemaText)
		if err != nil {
			return
		}
		exp, err := value.Parse(expectedText)
		if err != nil || exp.Kind() != value.Object {
			return
		}
		// The second case pairs two calls in any order, which weighs each
		// pair before it compares the chosen ones.
		s := &suite.Suite{
			Tools: []suite.Tool{{Name: "f", Parameters: params}},
			Cases: []suite.Case{
				{ID: "c", Expected: []suite.Call{{Name: "f", Arguments: exp}}},
				{ID: "pair", Calls: suite.CallsUnordered, Expected: []suite.Call{{Name: "f", Arguments: exp}, {Name: "f", Arguments: exp}}},
			},
		}
		e, err := newEngine(s, Options{})
		if err != nil {
			return
		}
		ec := &e.cases[0].expected[0]
		// ref scores as e would without the proofs: with the whole
		// comparison and validation every time.
		ref, _ := newEngine(s, Options{})
		for i := range ref.cases {
			for j := range ref.cases[i].expected {
				ref.cases[i].expected[j].impliedOnly = false
			}
		}
		scorer, refScorer := e.newScorer(), ref.newScorer()
		actuals := variants(exp)
		if a, err := value.Parse(actualText); err == nil {
			actuals = append(actuals, a)
		}
		for _, a := range actuals {
			for i, text := range []string{
				`[{"name":"f","arguments":` + a.String() + `}]`,
				`[{"name":"f","arguments":` + a.String() + `},{"name":"f","arguments":` + exp.String() + `}]`,
			} {
				resp := mustParse(t, text)
				got, want := e.newScorer().Score(i, resp).AppendJSON(nil), scoreNoWork(ref, i, resp).AppendJSON(nil)
				if string(got) != string(want) {
					t.Fatalf("with the proofs\n%s\nwithout\n%s", got, want)
				}
				got, want = scorer.Score(i, resp).AppendJSON(nil), refScorer.Score(i, resp).AppendJSON(nil)
				if string(got) != string(want) {
					t.Fatalf("a Scorer, with the proofs\n%s\nwithout\n%s", got, want)
				}
			}
			p, _ := ec.prove(&response.Call{Name: "f", Args: a}, nil)
			if err := agrees(ec, a, p); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// agrees says how the comparison and the validation that a proof p skips
// disagree with it, or nil when they agree: Same passes both, Valid passes
// the validation, Unproven says nothing.
func agrees(ec *compiledCall, a value.Value, p schema.Proof) error {
	switch p {
	case schema.Same:
		if err := fullPass(ec, a); err != nil {
			return fmt.Errorf("proven the same, but %w", err)
		}
	case schema.Valid:
		if v := ec.tool.validate(a, ec.check(nil, nil), -1, nil, nil); len(v) > 0 {
			return fmt.Errorf("proven valid, but %s is not: %+v", a, v)
		}
	}
	return nil
}

// fullPass says why the comparison and the validation that a proof of
// Same skips would not pass actual arguments a, or nil when they would.
func fullPass(ec *compiledCall, a value.Value) error {
	var diffs []rulecore.Diff
	ctx := ec.ctx(rules.Steps{})
	res := ec.rules.CompareChecked(ec.args, a, &ctx, func(d rulecore.Diff) { diffs = append(diffs, d) })
	if res.Matched != res.Total || len(diffs) > 0 {
		return fmt.Errorf("the comparison of %s with %s finds %d of %d: %+v", a, ec.args, res.Matched, res.Total, diffs)
	}
	if v := ec.tool.validate(a, ec.check(nil, nil), -1, nil, nil); len(v) > 0 {
		return fmt.Errorf("%s is not valid: %+v", a, v)
	}
	return nil
}

// variants returns v with every number written as a string, once as is
// and once with white space around it, and v without each of its members
// in turn, at the top level.
func variants(v value.Value) []value.Value {
	out := []value.Value{quoteNumbers(v, ""), quoteNumbers(v, " ")}
	for _, m := range v.Members() {
		out = append(out, jsonv.Without(v, m.Key))
	}
	return out
}

func quoteNumbers(v value.Value, pad string) value.Value {
	switch v.Kind() {
	case value.Number:
		return value.StringOf(pad + v.Str() + pad)
	case value.Array:
		es := make([]value.Value, v.Len())
		for i, x := range v.Elems() {
			es[i] = quoteNumbers(x, pad)
		}
		return value.ArrayOf(es...)
	case value.Object:
		ms := make([]value.Member, 0, v.Len())
		for _, m := range v.Members() {
			ms = append(ms, value.Member{Key: m.Key, Value: quoteNumbers(m.Value, pad)})
		}
		o, _ := value.ObjectOf(ms...)
		return o
	}
	return v
}
