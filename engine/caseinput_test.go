package engine

import (
	"fmt"
	"testing"

	"github.com/callgrade/callgrade/internal/response"
	"github.com/callgrade/callgrade/internal/suite"
)

// TestCaseInputTool: a case's few tools, scanned, are found as its map
// finds them, and so are many.
func TestCaseInputTool(t *testing.T) {
	names := []string{"", "a", "b", "ab", "get_weather", "get.weather", "getWeather", "x", "yy", "zzz", "w"}
	for _, n := range []int{0, 1, 2, 3, maxFewTools, maxFewTools + 1, len(names)} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			tools := map[string]*tool{}
			for _, name := range names[:n] {
				tools[name] = &tool{name: name}
			}
			in := newCaseInput("", nil, tools)
			if few := in.few != nil; few != (n > 0 && n <= maxFewTools) {
				t.Errorf("%d tools: scanned %v", n, few)
			}
			for _, name := range append(names, "A", "get_weathe", "nope") {
				if got, want := in.tool(name), tools[name]; got != want {
					t.Errorf("%d tools: tool(%q) = %v, want %v", n, name, got, want)
				}
			}
		})
	}
}

// TestUnexpectedCallMessageOfTool: the messages a tool keeps are the ones
// written for a call to it.
func TestUnexpectedCallMessageOfTool(t *testing.T) {
	for _, name := range []string{"", "get_weather", "a.b"} {
		tl, err := compileTool(&suite.Tool{Name: name})
		if err != nil {
			t.Fatal(err)
		}
		c := &response.Call{Name: name}
		for _, expected := range []int{0, 1, 2} {
			if got, want := unexpectedCallMessage(c, tl, expected, nil), unexpectedCallMessage(c, nil, expected, nil); got != want {
				t.Errorf("%q, %d expected: %q, want %q", name, expected, got, want)
			}
		}
	}
}
