package callgrade_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/callgrade/callgrade"
)

// A suite with `samples: 3` has three response lines per case, told apart
// by "sample"; the Grader runs with the suite's samples and sums up each
// case's passing samples with pass@k and pass^k.
func ExampleGrader_Run_samples() {
	g, err := callgrade.Open([]string{"report/testdata/samples/suite.yaml"}, callgrade.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer g.Close()
	responses, err := os.Open("report/testdata/samples/responses.jsonl")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer responses.Close()
	var results strings.Builder
	sum, err := g.Run(context.Background(), responses, &results, callgrade.RunOptions{PassK: []int{1, 3}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d result lines for %d cases of %d samples\n", sum.Cases, len(sum.PerCase), sum.Samples)
	for _, c := range sum.PerCase {
		fmt.Printf("%s: %d of %d passed\n", c.ID, c.Passed, c.N)
	}
	for _, e := range sum.PassK {
		fmt.Printf("pass@%d %.3f, pass^%d %.3f\n", e.K, e.PassAt, e.K, e.PassHat)
	}
	// Output:
	// 12 result lines for 4 cases of 3 samples
	// weather-berlin: 3 of 3 passed
	// weather-paris: 2 of 3 passed
	// flights: 0 of 3 passed
	// no-tool: 2 of 3 passed
	// pass@1 0.583, pass^1 0.583
	// pass@3 0.750, pass^3 0.250
}

// A negative RunOptions.Samples turns the suite's samples off: the lines
// of one case are then a second response for it.
func ExampleGrader_Run_samplesOff() {
	g, err := callgrade.Open([]string{"report/testdata/samples/suite.yaml"}, callgrade.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer g.Close()
	responses, err := os.Open("report/testdata/samples/responses.jsonl")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer responses.Close()
	_, err = g.Run(context.Background(), responses, &strings.Builder{}, callgrade.RunOptions{Name: "responses.jsonl", Samples: -1})
	fmt.Println(err)
	// Output:
	// responses.jsonl:2: a second response for case "weather-berlin" (lines 1 and 2); the lines carry "sample": for several samples per case, say how many with samples: in the suite or --samples
}
