package response

import (
	"errors"
	"testing"

	"github.com/callgrade/callgrade/value"
)

// formatExamples are responses of each format in each of its shapes, every
// one holding the call f({"x":1}).
var formatExamples = map[Format][]string{
	OpenAI: {
		`{"object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{\"x\":1}"}}]},"finish_reason":"tool_calls"}]}`,
		`{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{\"x\":1}"}}]}`,
		`{"role":"assistant","content":null,"function_call":{"name":"f","arguments":"{\"x\":1}"}}`,
		`[{"id":"c","type":"function","function":{"name":"f","arguments":"{\"x\":1}"}}]`,
		`[{"function":{"name":"f","arguments":"{\"x\":1}"}}]`,
	},
	Responses: {
		`{"object":"response","status":"completed","output":[{"type":"reasoning","summary":[]},{"type":"function_call","call_id":"c","name":"f","arguments":"{\"x\":1}"}]}`,
		`{"output":[{"type":"message","role":"assistant","content":[{"type":"output_text","text":"ok"}]},{"type":"function_call","name":"f","arguments":"{\"x\":1}"}]}`,
		`[{"type":"function_call","call_id":"c","name":"f","arguments":"{\"x\":1}"}]`,
		`[{"type":"reasoning","summary":[]},{"type":"function_call","name":"f","arguments":{"x":1}}]`,
	},
	Anthropic: {
		`{"type":"message","role":"assistant","content":[{"type":"text","text":"ok"},{"type":"tool_use","id":"t","name":"f","input":{"x":1}}],"stop_reason":"tool_use"}`,
		`{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"f","input":{"x":1}}]}`,
		`[{"type":"thinking","thinking":"hm","signature":"s"},{"type":"tool_use","id":"t","name":"f","input":{"x":1}}]`,
		`[{"type":"tool_use","name":"f","input":{"x":1}}]`,
	},
	Gemini: {
		`{"candidates":[{"content":{"role":"model","parts":[{"text":"ok"},{"functionCall":{"name":"f","args":{"x":1}}}]},"finishReason":"STOP"}]}`,
		`{"role":"model","parts":[{"functionCall":{"name":"f","args":{"x":1}}}]}`,
		`[{"text":"ok"},{"functionCall":{"name":"f","args":{"x":1}}}]`,
		`[{"functionCall":{"name":"f","args":{"x":1}},"thoughtSignature":"s"}]`,
	},
	Calls: {
		`{"name":"f","arguments":"{\"x\":1}"}`,
		`{"name":"f","arguments":{"x":1}}`,
		`[{"name":"f","arguments":"{\"x\":1}"}]`,
		`[{"name":"f","arguments":{"x":1}}]`,
	},
}

// Auto reads every example as its own format, and no other format reads
// a usable call out of it. Calls is the exception as the other: it reads
// any list of name and arguments, whatever the items' type says, on
// purpose.
func TestDetectionExamples(t *testing.T) {
	for _, f := range formats {
		if len(formatExamples[f.name]) == 0 {
			t.Errorf("format %s has no examples", f.name)
		}
	}
	for want, examples := range formatExamples {
		for _, ex := range examples {
			r, err := value.Parse(ex)
			if err != nil {
				t.Fatalf("bad example %s: %v", ex, err)
			}
			calls, got, err := Extract(r, Auto, value.Limits{})
			if err != nil || got != want || len(calls) != 1 ||
				calls[0].Err != nil || calls[0].Name != "f" || calls[0].Args.String() != `{"x":1}` {
				t.Errorf("%s example read as %q: %v, %v\n%s", want, got, calls, err, ex)
			}
			for _, other := range formats {
				if other.name == want || other.name == Calls {
					continue
				}
				calls, _, _ := Extract(r, other.name, value.Limits{})
				for _, c := range calls {
					if c.Err == nil {
						t.Errorf("%s example forced to %s reads a usable call %q\n%s", want, other.name, c.Name, ex)
					}
				}
			}
		}
	}
}

// The table holds together: names and item types are unique, every format
// has a shape an object can have, and Formats and ParseFormat list every
// format in the table's order.
func TestFormatTable(t *testing.T) {
	infos := Formats()
	if len(infos) != 1+len(formats) || infos[0].Name != "auto" || infos[0].Description == "" {
		t.Fatalf("Formats() = %q", infos)
	}
	types := map[string]Format{}
	for i, f := range formats {
		if infos[i+1] != (FormatInfo{string(f.name), f.about}) || f.about == "" {
			t.Errorf("Formats()[%d] = %q, want %s described", i+1, infos[i+1], f.name)
		}
		if got, err := ParseFormat(string(f.name)); got != f.name || err != nil || lookup(f.name) != f {
			t.Errorf("ParseFormat(%q) = %q, %v", f.name, got, err)
		}
		for _, it := range f.itemTypes {
			if prev, ok := types[it]; ok {
				t.Errorf("item type %q is both %s and %s", it, prev, f.name)
			}
			types[it] = f.name
		}
		rows := 0
		for _, s := range objectShapes {
			if s.format == f {
				rows++
			}
		}
		if rows == 0 {
			t.Errorf("format %s has no row in objectShapes", f.name)
		}
	}
	for _, s := range objectShapes {
		if lookup(s.format.name) != s.format {
			t.Errorf("objectShapes names %s, which formats does not list", s.format.name)
		}
	}
	for _, k := range itemKeys {
		if lookup(k.format.name) != k.format {
			t.Errorf("itemKeys names %s, which formats does not list", k.format.name)
		}
	}
	// An object no row claims is a ShapeError naming it, for every format.
	r, _ := value.Parse(`{"unknown":1}`)
	for _, f := range everyFormat() {
		var se *ShapeError
		if _, _, err := Extract(r, f, value.Limits{}); !errors.As(err, &se) {
			t.Errorf("Extract(%s) of an unknown object: %v", f, err)
		}
	}
}
