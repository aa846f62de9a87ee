package bfcl_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/callgrade/callgrade"
	"github.com/callgrade/callgrade/bfcl"
)

// An embedding program imports a BFCL category and a model's results
// file and scores them in process, as callgrade import bfcl and callgrade
// score do: the suite goes through a file, which the root reads as it
// reads any suite.
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
	dir, err := os.MkdirTemp("", "bfcl-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	suiteFile := filepath.Join(dir, "simple.json")
	if err := os.WriteFile(suiteFile, imported.JSON(), 0o644); err != nil {
		log.Fatal(err)
	}
	g, err := callgrade.Open([]string{suiteFile}, callgrade.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer g.Close()
	// BFCL's models often answer in Python call syntax.
	result := `{"id": "simple_0", "result": "[area(base=10, height=5)]"}` + "\n"
	var responses bytes.Buffer
	if _, _, err := bfcl.ConvertResults(strings.NewReader(result), "result.json", &responses, bfcl.ResultOptions{}); err != nil {
		log.Fatal(err)
	}
	fmt.Print(responses.String())
	sum, err := g.Run(context.Background(), &responses, io.Discard, callgrade.RunOptions{Name: "responses.jsonl"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(sum.Passed, "of", sum.Cases, "passed")
	// Output:
	// {"id":"simple_0","response":[{"name":"area","arguments":{"base":10,"height":5}}]}
	// 1 of 1 passed
}
