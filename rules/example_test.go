package rules_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/callgrade/callgrade/engine"
	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/value"
)

// skuComparator is a team's own comparator: SKUs match whatever their
// region prefix ("EU-", "US-").
type skuComparator struct{}

func (skuComparator) Compare(in *rules.Input) rules.Outcome {
	if in.Actual.Kind() != value.String || in.Expected.Kind() != value.String {
		return rules.Outcome{Message: "want two SKU strings"}
	}
	strip := func(s string) string {
		if i := strings.IndexByte(s, '-'); i == 2 {
			return s[i+1:]
		}
		return s
	}
	if strip(in.Actual.Str()) != strip(in.Expected.Str()) {
		return rules.Outcome{Message: fmt.Sprintf("SKU %s is not %s in any region", in.Actual.Str(), in.Expected.Str())}
	}
	return rules.Outcome{Equal: true}
}

// A Go comparator is supplied to the engine through Extensions, as the
// plugin host supplies its plugins' comparators: a suite's rule
// `{"plugin": "team.sku"}` then calls it.
func Example_comparator() {
	args, _ := value.Parse(`{"sku": "EU-4711"}`)
	rule, _ := value.Parse(`{"plugin": "team.sku"}`)
	s := &suite.Suite{Cases: []suite.Case{{
		ID: "order",
		Expected: []suite.Call{{Name: "order", Arguments: args,
			Rules: suite.RuleSet{{Path: "sku", Rule: rule}}}},
	}}}
	ext := rules.Extensions{Plugin: func(ref string, _ value.Value) (rules.Comparator, error) {
		if ref != "team.sku" {
			return nil, fmt.Errorf("no comparator %q", ref)
		}
		return skuComparator{}, nil
	}}
	eng, err := engine.New(suite.ViewOf(s), engine.Options{Extensions: ext})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, resp := range []string{
		`[{"name": "order", "arguments": {"sku": "US-4711"}}]`,
		`[{"name": "order", "arguments": {"sku": "US-4712"}}]`,
	} {
		v, _ := value.Parse(resp)
		r := eng.NewScorer(context.Background()).Score(0, v)
		fmt.Println(r.Pass)
		for _, d := range r.Diffs {
			fmt.Println(d.Kind, d.Path, d.Message)
		}
	}
	// Output:
	// true
	// false
	// mismatch sku SKU US-4712 is not EU-4711 in any region
}
