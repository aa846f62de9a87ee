package rulecore_test

import (
	"fmt"
	"github.com/callgrade/callgrade/internal/rulecore"

	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/value"
)

// A call's rules: a fuzzy city, tags in any order, a price within a cent
// and a field to ignore. The unit differs and filters has an extra key.
func Example() {
	var set rulecore.Set
	for _, pr := range [][2]string{
		{"city", `{"normalize": ["trim"], "case_insensitive": true}`},
		{"tags", `"unordered"`},
		{"price", `{"tolerance": 0.01}`},
		{`filters.\.hidden`, `"ignore"`},
	} {
		path, spec := pr[0], pr[1]
		p, err := rulecore.ParsePath(path)
		if err != nil {
			panic(err)
		}
		r, err := rulecore.Compile(parse(spec), rules.Extensions{})
		if err != nil {
			panic(err)
		}
		set.Add(rulecore.LevelCall, p, r)
	}
	expected := parse(`{"city": "Berlin", "unit": "celsius", "tags": ["a", "b"], "price": 9.99, "filters": {"max": 5}}`)
	actual := parse(`{"city": " BERLIN ", "unit": "kelvin", "tags": ["b", "a"], "price": 9.991, "filters": {"max": 5, ".hidden": 1, "x": 2}}`)
	res := set.Compare(expected, actual, &rulecore.Context{}, func(d rulecore.Diff) {
		fmt.Printf("%s %s: %s\n", d.Kind, d.Path, d.Message)
	})
	fmt.Printf("%d of %d arguments match\n", res.Matched, res.Total)
	// Output:
	// unexpected_argument filters.x: got 2, but the expected object has no such field
	// mismatch unit: expected "celsius", got "kelvin" (exact)
	// 3 of 5 arguments match
}

func parse(s string) value.Value {
	v, err := value.Parse(s)
	if err != nil {
		panic(err)
	}
	return v
}
