package bfcl_test

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/callgrade/callgrade"
	"github.com/callgrade/callgrade/bfcl"
)

// An embedding program imports a BFCL category and scores a model's
// output in process, without writing the suite to a file.
func ExampleImport() {
	questions := `{"id": "simple_0", "question": [[{"role": "user", "content": "Area of a triangle, base 10, height 5?"}]], "function": [{"name": "area", "description": "Triangle area.", "parameters": {"type": "dict", "properties": {"base": {"type": "integer"}, "height": {"type": "integer"}, "unit": {"type": "string", "default": "cm"}}, "required": ["base", "height"]}}]}`
	answers := `{"id": "simple_0", "ground_truth": [{"area": {"base": [10], "height": [5], "unit": ["cm", ""]}}]}`
	imported, err := bfcl.Import(bfcl.Input{
		Questions: strings.NewReader(questions), QuestionsName: "questions.json",
		Answers: strings.NewReader(answers), AnswersName: "answers.json",
	}, bfcl.SemanticsBFCL)
	if err != nil {
		log.Fatal(err)
	}
	s, err := imported.Decode("simple.json")
	if err != nil {
		log.Fatal(err)
	}
	g, err := callgrade.New(s, callgrade.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer g.Close()
	// BFCL's models often answer in Python call syntax.
	calls, err := bfcl.ParsePythonCalls(`[area(base=10, height=5)]`)
	if err != nil {
		log.Fatal(err)
	}
	resp := []byte(`[{"name": "` + calls[0].Name + `", "arguments": ` + calls[0].Arguments + `}]`)
	r, err := g.Score(context.Background(), "simple_0", resp)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(calls[0].Name, calls[0].Arguments, r.Pass)
	// Output: area {"base":10,"height":5} true
}

func ExampleParsePythonCalls() {
	calls, err := bfcl.ParsePythonCalls(`[get_weather(city="Berlin", days=3), get_time(tz='CET')]`)
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range calls {
		fmt.Println(c.Name, c.Arguments)
	}
	_, err = bfcl.ParsePythonCalls(`f(1)`)
	fmt.Println(err)
	// Output:
	// get_weather {"city":"Berlin","days":3}
	// get_time {"tz":"CET"}
	// line 1, column 3: call of f: expected a keyword argument name=value (positional arguments are not supported)
}
