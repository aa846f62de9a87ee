package callgrade_test

import (
	"context"
	"fmt"

	"github.com/callgrade/callgrade"
)

// Compare scores a response against expected calls kept anywhere but in a
// suite file: the expected calls are what a case's expected: holds, rules
// included. Here an OpenAI completion spells the city in capitals, which
// the case-insensitive rule allows, and the days as a string, which the
// exact comparison of every other argument does not.
func ExampleCompare() {
	expected := []byte(`{"name": "get_weather", "arguments": {"city": "Berlin", "days": 3},
		"rules": {"city": {"case_insensitive": true}}}`)
	resp := []byte(`{"choices": [{"message": {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function",
		"function": {"name": "get_weather", "arguments": "{\"city\": \"BERLIN\", \"days\": \"3\"}"}}]}}]}`)
	r, err := callgrade.Compare(context.Background(), expected, resp, callgrade.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, d := range r.Diffs {
		fmt.Println(d.Kind, d.Path, d.Message)
	}
	fmt.Println(r.Pass, r.Score)
	// Output:
	// mismatch days expected 3 (number), got "3" (string) (exact)
	// false 0.5
}
