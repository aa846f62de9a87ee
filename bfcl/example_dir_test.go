package bfcl_test

import (
	"context"
	"fmt"
	"os"

	"github.com/callgrade/callgrade/bfcl"
)

// ExampleScoreDir scores a small BFCL run: a data directory and a model's
// results directory, as BFCL lays them out.
func ExampleScoreDir() {
	s, err := bfcl.ScoreDir(context.Background(), bfcl.Dir{
		Data:      "testdata/run/data",
		Results:   "testdata/run/result",
		Semantics: bfcl.SemanticsBFCL,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range s.Categories {
		fmt.Printf("%s: %d of %d\n", c.Category, c.Passed, c.Cases)
	}
	fmt.Printf("overall %.4f, %d categories of its formula missing\n", s.Overall, len(s.Missing))
	fmt.Println(len(s.Skipped), "results file not scored")
	s.WriteSummary(os.Stdout)
	// Output:
	// simple_python: 1 of 2
	// irrelevance: 1 of 2
	// web_search_base: 1 of 2
	// web_search_no_snippet: 2 of 2
	// overall 0.6667, 17 categories of its formula missing
	// 1 results file not scored
	// category                  cases  passed  accuracy
	// simple_python                 2       1    50.00%
	// irrelevance                   2       1    50.00%
	// web_search_base               2       1    50.00%
	// web_search_no_snippet         2       2   100.00%
	// overall (BFCL v4's weights, over the 4 of 21 categories covered): 66.67%
	// missing from the overall: simple_java, simple_javascript, multiple, parallel, parallel_multiple, live_simple, live_multiple, live_parallel, live_parallel_multiple, live_irrelevance, multi_turn_base, multi_turn_miss_func, multi_turn_miss_param, multi_turn_long_context, memory_kv, memory_vector, memory_rec_sum
}
