package response_test

import (
	"fmt"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/internal/response"
	"github.com/callgrade/callgrade/value"
)

// A response is read as a run; a single response is a run of one turn,
// whose steps are its calls.
func ExampleOptions_Read() {
	r, err := value.Parse(`{
	  "object": "chat.completion",
	  "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
	    "role": "assistant", "content": null,
	    "tool_calls": [
	      {"id": "call_1", "type": "function",
	       "function": {"name": "get_weather", "arguments": "{\"unit\":\"celsius\",\"city\":\"Berlin\"}"}},
	      {"id": "call_2", "type": "function",
	       "function": {"name": "get_time", "arguments": "{\"city\":\"Berlin\",\"city\":\"Paris\"}"}}
	    ]}}]}`)
	if err != nil {
		panic(err)
	}
	run, got, err := response.Options{}.Read(r, format.Auto)
	if err != nil {
		panic(err)
	}
	fmt.Println("format:", got)
	for _, c := range run.Calls() {
		if c.Err != nil {
			fmt.Println(c.Name, "failed:", c.Err)
			continue
		}
		fmt.Println(c.Name, c.Args)
	}
	// Output:
	// format: openai
	// get_weather {"city":"Berlin","unit":"celsius"}
	// get_time failed: call 1: choices[0].message.tool_calls[1].function.arguments is not a usable JSON object: duplicate key at byte 17: key "city" appears twice
}

// A loop that reads response after response reuses the parser's memory
// and the last response's calls: after the first responses, reading one
// allocates nothing. What a response's calls hold is valid until the next
// one is read.
func ExampleOptions_ReadCalls() {
	var p value.Parser
	o := response.Options{Parser: &p}
	for _, line := range []string{
		`[{"name": "get_weather", "arguments": "{\"city\": \"Berlin\"}"}]`,
		`[{"name": "get_time", "arguments": "{\"zone\": \"CET\"}"}, {"name": "get_weather", "arguments": "{}"}]`,
	} {
		r, err := value.Parse(line)
		if err != nil {
			panic(err)
		}
		p.Reset()
		calls, _, err := o.ReadCalls(r, format.Calls)
		if err != nil {
			panic(err)
		}
		o.Calls = calls // the next response's calls go here when they fit
		for _, c := range calls {
			fmt.Println(c.Name, c.Args)
		}
	}
	// Output:
	// get_weather {"city":"Berlin"}
	// get_time {"zone":"CET"}
	// get_weather {}
}
