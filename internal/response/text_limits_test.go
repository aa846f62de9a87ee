package response

import (
	"errors"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/internal/jsontext"
	"github.com/callgrade/callgrade/value"
)

// nested is a JSON object of depth levels, the innermost {}.
func nested(depth int) string {
	return strings.Repeat(`{"a":`, depth-1) + "{}" + strings.Repeat("}", depth-1)
}

// pyNested is nested's arguments as Python keyword arguments: the call's
// arguments are the first level, a's dict the second.
func pyNested(depth int) string {
	return "a=" + strings.Repeat(`{"a":`, depth-2) + "{}" + strings.Repeat("}", depth-2)
}

// textWith writes a call of f whose arguments are args (a JSON object)
// in each text format, and in the calls format.
var textWith = []struct {
	f  format.Format
	in func(args string) string
}{
	{format.Calls, func(a string) string { return `[{"name": "f", "arguments": ` + a + `}]` }},
	{format.Calls, func(a string) string { return `[{"name": "f", "arguments": ` + quote(a) + `}]` }},
	{format.Hermes, func(a string) string { return quote(`<tool_call>{"name": "f", "arguments": ` + a + `}</tool_call>`) }},
	{format.LlamaJSON, func(a string) string { return quote(`<|python_tag|>{"name": "f", "parameters": ` + a + `}`) }},
	{format.Mistral, func(a string) string { return quote(`[TOOL_CALLS][{"name": "f", "arguments": ` + a + `}]`) }},
	{format.Mistral, func(a string) string { return quote(`[TOOL_CALLS]{"name": "f", "arguments": ` + a + `}`) }},
	{format.Mistral, func(a string) string { return quote(`[TOOL_CALLS]f[ARGS]` + a) }},
	{format.DeepSeek, func(a string) string {
		return quote(`<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f<｜tool▁sep｜>` + a + `<｜tool▁call▁end｜>`)
	}},
	{format.Harmony, func(a string) string {
		return quote(`<|channel|>commentary to=functions.f <|constrain|>json<|message|>` + a + `<|call|>`)
	}},
}

// The arguments object is the first level of the depth limit whatever
// format wraps it: 256 levels of arguments pass in every text format as
// in calls, 257 fail.
func TestTextArgumentsDepth(t *testing.T) {
	for _, depth := range []int{256, 257} {
		pass := depth <= jsontext.DefaultMaxDepth
		for _, w := range textWith {
			line := w.in(nested(depth))
			r, err := (*value.Parser)(nil).Parse(line, value.Limits{MaxDepth: 256 + 64})
			if err != nil {
				t.Fatal(err)
			}
			checkLimit(t, r, w.f, Options{}, depth, pass, value.ErrTooDeep)
		}
		py := value.StringOf("[f(" + pyNested(depth) + ")]")
		checkLimit(t, py, format.Pythonic, Options{}, depth, pass, value.ErrTooDeep)
		params, _ := value.Parse(`{"properties": {"a": {"type": "object"}}}`)
		qwen := value.StringOf("<tool_call>\n<function=f>\n<parameter=a>\n" + nested(depth-1) + "\n</parameter>\n</function>\n</tool_call>")
		checkLimit(t, qwen, format.QwenCoder, Options{Params: map[string]value.Value{"f": params}}, depth, pass, value.ErrTooDeep)
	}
}

// The arguments' text is held to one size limit in every format: the
// text of the arguments object, whatever the format writes around it, or
// for Qwen3-Coder its parameters, summed, and for Python the
// parenthesised arguments.
func TestTextArgumentsSize(t *testing.T) {
	const max = 100
	lim := value.Limits{MaxBytes: max}
	for _, size := range []int{max, max + 1} {
		pass := size <= max
		args := `{"a": "` + strings.Repeat("x", size-len(`{"a": ""}`)) + `"}`
		for _, w := range textWith {
			r, err := value.Parse(w.in(args))
			if err != nil {
				t.Fatal(err)
			}
			checkLimit(t, r, w.f, Options{Limits: lim}, size, pass, value.ErrTooLarge)
		}
		py := value.StringOf(`[f(a="` + strings.Repeat("x", size-len(`(a="")`)) + `")]`)
		checkLimit(t, py, format.Pythonic, Options{Limits: lim}, size, pass, value.ErrTooLarge)
		params := "<parameter=a>" + strings.Repeat("x", size-len("<parameter=a></parameter><parameter=b>y</parameter>")) + "</parameter><parameter=b>y</parameter>"
		for _, qwen := range []string{
			"<tool_call><function=f>" + params + "</function></tool_call>",
			// A "<" in a value: the careful reading, not the quick one.
			"<tool_call><function=f>" + strings.Replace(params, ">y<", "><<", 1) + "</function></tool_call>",
			"<function=f>" + params + "</function>",
		} {
			checkLimit(t, value.StringOf(qwen), format.QwenCoder, Options{Limits: lim}, size, pass, value.ErrTooLarge)
		}
	}
}

func checkLimit(t *testing.T, r value.Value, f format.Format, o Options, n int, pass bool, want error) {
	t.Helper()
	if f == format.Calls && r.Kind() == value.Array {
		// An object in place of the string is bounded by the line alone.
		if a, _ := r.Elems()[0].Get("arguments"); a.Kind() == value.Object && want == value.ErrTooLarge {
			return
		}
	}
	calls, _, err := o.ReadCalls(r, f)
	switch {
	case err != nil || len(calls) != 1:
		t.Errorf("%s, %d: %v, %v", f, n, calls, err)
	case pass && calls[0].Err != nil:
		t.Errorf("%s, %d: want a call, got %v", f, n, calls[0].Err)
	case !pass && !errors.Is(calls[0].Err, want):
		t.Errorf("%s, %d: want %v, got %v", f, n, want, calls[0].Err)
	}
}

// jsonMember finds each member's and element's text in JSON that parses,
// whatever its keys are spelled with and its strings hold: the size limit
// measures the arguments by it.
func TestJSONMember(t *testing.T) {
	for _, in := range []string{
		`{"name": "f", "arguments": {"x": "}", "y": [1, {"z": "]"}]}}`,
		` { "a\u0072guments" : { } , "name":"\"}" , "n" : -1.5e3 , "t":true,"u" : null } `,
		`{"k\"ey": [ ], "arguments": "{\"x\": 1}", "e": {}}`,
		`[ {"name": "f", "arguments": {"s": "[TOOL_CALLS]"}} , 5, "x", [ ], {"arguments":{"a":[]}} ]`,
	} {
		v, err := value.Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		if v.Kind() == value.Array {
			for j, e := range v.Elems() {
				from, to, ok := jsonMember(in, 0, len(in), j, "")
				got, err := value.Parse(in[from:to])
				if !ok || err != nil || !value.Equal(got, e) {
					t.Errorf("%s element %d: [%d:%d] %v", in, j, from, to, ok)
				}
			}
			if _, _, ok := jsonMember(in, 0, len(in), len(v.Elems()), ""); ok {
				t.Errorf("%s: an element past the end", in)
			}
			continue
		}
		for _, m := range v.Members() {
			from, to, ok := jsonMember(in, 0, len(in), -1, m.Key)
			got, err := value.Parse(in[from:to])
			if !ok || err != nil || !value.Equal(got, m.Value) {
				t.Errorf("%s member %q: [%d:%d] %v", in, m.Key, from, to, ok)
			}
		}
		if _, _, ok := jsonMember(in, 0, len(in), -1, "absent"); ok {
			t.Errorf("%s: an absent member", in)
		}
	}
}
