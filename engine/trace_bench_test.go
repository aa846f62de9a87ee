package engine

import (
	"os"
	"testing"

	"github.com/callgrade/callgrade/value"
)

// BenchmarkScoreTrace scores an OTLP trace export (GenAI conventions, with
// content) against the call its run made: the trace is read once.
func BenchmarkScoreTrace(b *testing.B) {
	text, err := os.ReadFile("../internal/response/testdata/traces/genai_weather.json")
	if err != nil {
		b.Fatal(err)
	}
	resp, err := value.Parse(string(text))
	if err != nil {
		b.Fatal(err)
	}
	e := load(b, `version: 1
cases:
  - id: weather-paris
    expected: {name: get_weather, arguments: {location: Paris}}
`)
	scoreResponseLoop(b, e, resp)
}
