package callgrade_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/callgrade/callgrade"
)

// Open reads and compiles a suite, with its expressions and plugins; the
// Grader then scores a responses stream as callgrade score does.
func Example() {
	g, err := callgrade.Open([]string{"examples/dsl/suite.yaml"}, callgrade.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer g.Close()

	responses, err := os.Open("examples/dsl/responses.jsonl")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer responses.Close()
	var results strings.Builder
	sum, err := g.Run(context.Background(), responses, &results, callgrade.RunOptions{Name: "responses.jsonl"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d cases, %d passed, %d result lines\n", sum.Cases, sum.Passed, strings.Count(results.String(), "\n"))
	// Output:
	// 7 cases, 3 passed, 7 result lines
}

// Score scores one response against one case, here an Anthropic message.
func ExampleGrader_Score() {
	g, err := callgrade.Open([]string{"examples/weather/suite.yaml"}, callgrade.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer g.Close()
	resp := []byte(`{"role": "assistant", "content": [
		{"type": "tool_use", "id": "t1", "name": "get_weather", "input": {"city": "Berlin", "unit": "Celsius", "days": "3"}}]}`)
	r, err := g.Score(context.Background(), "key-order-and-number-spelling", resp)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, d := range r.Diffs {
		fmt.Println(d.Kind, d.Path, d.Message)
	}
	fmt.Println(r.Pass, r.Score)
	// Output:
	// mismatch unit expected "celsius", got "Celsius" (exact)
	// schema unit unit: value must be one of 'celsius', 'fahrenheit'
	// false 0.6666666666666666
}

// A suite that does not load comes back as a *callgrade.SuiteError listing
// every problem: its shape's and its rules', with file, key path and case.
func ExampleOpen_errors() {
	_, err := callgrade.Open([]string{"testdata/broken.yaml"}, callgrade.Options{})
	var se *callgrade.SuiteError
	if errors.As(err, &se) {
		for _, p := range se.Problems {
			fmt.Println(p)
		}
	}
	// Output:
	// testdata/broken.yaml: cases[0].expectd (case a): unknown key; want one of id, tools, tools_file, use, extra_fields, calls, null_is_missing, format, expected, alternatives, steps, never, max_calls, min_calls, final, final_text, metadata
	// testdata/broken.yaml: cases[0].expected (case a): required key is missing; write [] for a case that expects no call
	// testdata/broken.yaml: cases[1].expected[0].rules.city (case b): expr: line 1, column 1: unknown name acutal
	//  | acutal == expected
	//  | ^
}
