package suite_test

import (
	"fmt"
	"log"

	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/value"
)

func ExampleFromValue() {
	doc, err := value.Parse(`{
		"version": 1,
		"defaults": {"calls": "unordered"},
		"cases": [
			{"id": "weather-berlin",
			 "expected": {"name": "get_weather", "arguments": {"city": "Berlin", "days": 9007199254740993},
			              "rules": {"city": "case_insensitive"}}},
			{"id": "small-talk", "expected": []}
		]
	}`)
	if err != nil {
		log.Fatal(err)
	}
	s, err := suite.FromValue("embedded.json", doc)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("calls:", s.Defaults.Calls, "extra fields:", s.Defaults.ExtraFields)
	for _, c := range s.Cases {
		fmt.Printf("%s: %d expected call(s)\n", c.ID, len(c.Expected))
		for _, call := range c.Expected {
			fmt.Println(" ", call.Name, call.Arguments)
			for _, r := range call.Rules {
				fmt.Println("  rule", r.Path, r.Rule, "at", r.Loc)
			}
		}
	}
	// Output:
	// calls: unordered extra fields: reject
	// weather-berlin: 1 expected call(s)
	//   get_weather {"city":"Berlin","days":9007199254740993}
	//   rule city "case_insensitive" at embedded.json: cases[0].expected[0].rules.city (case weather-berlin)
	// small-talk: 0 expected call(s)
}

func ExampleLoad() {
	_, err := suite.Load("testdata/errors/a.yaml")
	fmt.Println(err)
	// Output:
	// testdata/errors/a.yaml: defaults.calls: must be ordered, unordered, superset, subset, in_order, greedy or any, not "sometimes"
	// testdata/errors/a.yaml: cases[0].expected[0].rules.cabins (case flights): must be a rule (a string or an object), not a list
	// testdata/errors/a.yaml: cases[1].expected (case no-expected): required key is missing; write [] for a case that expects no call
}
