package engine_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/callgrade/callgrade"
	"github.com/callgrade/callgrade/engine"
	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/value"
)

// A suite read with callgrade.Load is compiled once, and then used to score
// responses from any number of goroutines.
func Example() {
	s, err := callgrade.Load("testdata/examples/weather.yaml")
	if err != nil {
		fmt.Println(err)
		return
	}
	eng, err := engine.New(s, engine.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}

	// Another key order and an OpenAI chat completion around it.
	resp, _ := value.Parse(`{"choices": [{"message": {"tool_calls": [{"type": "function",
		"function": {"name": "get_weather", "arguments": "{\"unit\":\"celsius\",\"city\":\"Berlin\"}"}}]}}]}`)
	r := eng.NewScorer(context.Background()).Score(0, resp)
	fmt.Println(r.Pass, r.Score)

	// The right city in the wrong tool.
	resp, _ = value.Parse(`[{"name": "get_forecast", "arguments": {"city": "Berlin", "unit": "celsius"}}]`)
	r = eng.NewScorer(context.Background()).Score(0, resp)
	fmt.Println(r.Pass, r.Score, r.Diffs[0].Kind)
	// Output:
	// true 1
	// false 0 wrong_tool
}

// Run scores a whole responses stream and writes the results file.
func ExampleEngine_Run() {
	s, err := callgrade.Load("testdata/examples/two.yaml")
	if err != nil {
		fmt.Println(err)
		return
	}
	eng, err := engine.New(s, engine.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	responses := strings.NewReader(`{"id": "b", "response": [{"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}]}
{"id": "a", "response": [{"name": "get_weather", "arguments": "{\"city\": \"Berlin\"}"}]}
`)
	sum, err := eng.Run(context.Background(), responses, os.Stdout, engine.RunOptions{Name: "responses.jsonl"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("passed %d of %d\n", sum.Passed, sum.Cases)
	// Output:
	// {"id":"a","pass":true,"score":1,"calls":[{"expected":0,"actual":0,"pass":true,"score":1}],"diffs":[]}
	// {"id":"b","pass":false,"score":0,"calls":[{"expected":0,"actual":0,"pass":false,"score":0}],"diffs":[{"kind":"mismatch","call":0,"path":"city","expected":"Berlin","actual":"Paris","rule":"exact","message":"expected \"Berlin\", got \"Paris\" (exact)"}]}
	// passed 1 of 2
}

// A Scorer reads one line of a responses file as Run does: the service's
// batch endpoint scores its lines through it, one Scorer per goroutine.
func ExampleScorer_ScoreLine() {
	s, err := callgrade.Load("testdata/examples/one.yaml")
	if err != nil {
		fmt.Println(err)
		return
	}
	eng, err := engine.New(s, engine.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	sc := eng.NewScorer(context.Background())
	for n, line := range []string{
		`{"id": 17, "response": [{"name": "get_weather", "arguments": "{\"city\": \"Berlin\"}"}]}`,
		`{"id": "17"}`,
		`{"id": "17", "response": [{"name": "get_weather", "arguments": "{\"city\": NaN}"}]}`,
		`[1, 2]`,
	} {
		r, i, _, err := sc.ScoreLine(line, n+1, 0)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(i, r.Pass, kindsOf(r))
	}
	// Output:
	// 0 true []
	// 0 false [missing_response]
	// 0 false [invalid_arguments]
	// line 4: a response line must be a JSON object with an id, not array
}

func kindsOf(r *results.Result) []results.Kind {
	var ks []results.Kind
	for _, d := range r.Diffs {
		ks = append(ks, d.Kind)
	}
	return ks
}
