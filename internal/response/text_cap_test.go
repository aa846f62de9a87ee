package response

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

// capTexts write calls, or failed calls, of each text format: head,
// then unit n times, the last one tail when there is one; each unit is
// one call.
var capTexts = []struct {
	name             string
	f                format.Format
	head, unit, tail string
	list             bool // the units are one list's calls: the span starts at the list
	forced           bool // Auto reads the text as no text format's
}{
	{name: "hermes", f: format.Hermes, unit: `<tool_call>{"name":"f","arguments":{}}</tool_call>`},
	{name: "hermes-failed", f: format.Hermes, unit: `<tool_call>{}</tool_call>`},
	{name: "hermes-unclosed", f: format.Hermes, unit: `<tool_call>`},
	{name: "qwen", f: format.QwenCoder, unit: `<tool_call><function=f></function></tool_call>`},
	{name: "qwen-failed", f: format.QwenCoder, unit: `<tool_call></tool_call>`},
	{name: "qwen-bare", f: format.QwenCoder, unit: `<function=f></function>`, forced: true},
	{name: "llama-tag", f: format.LlamaJSON, unit: `<|python_tag|>{"name":"f","parameters":{}}`},
	{name: "llama-chain", f: format.LlamaJSON, unit: `{"name":"f","parameters":{}};`, tail: `{"name":"f","parameters":{}}`, forced: true},
	{name: "llama-failed", f: format.LlamaJSON, unit: `<|python_tag|>`},
	{name: "mistral", f: format.Mistral, unit: `[TOOL_CALLS]f[ARGS]{}`},
	{name: "mistral-failed", f: format.Mistral, unit: `[TOOL_CALLS]`},
	{name: "mistral-list", f: format.Mistral, head: `[TOOL_CALLS][`, unit: `{"name":"f","arguments":{}},`, tail: `{"name":"f","arguments":{}}]`, list: true},
	{name: "deepseek", f: format.DeepSeek, unit: `<｜tool▁call▁begin｜>f<｜tool▁sep｜>{}<｜tool▁call▁end｜>`},
	{name: "deepseek-empty", f: format.DeepSeek, unit: `<｜tool▁calls▁begin｜>`},
	{name: "deepseek-unclosed", f: format.DeepSeek, unit: `<｜tool▁call▁begin｜>`},
	{name: "harmony", f: format.Harmony, unit: `<|start|>assistant<|channel|>commentary to=functions.f<|message|>{}<|call|>`},
	{name: "harmony-failed", f: format.Harmony, unit: `<|start|>assistant<|channel|>commentary to=functions.f`, forced: true},
	{name: "pythonic", f: format.Pythonic, unit: `<|python_start|>f()<|python_end|>`},
	{name: "pythonic-failed", f: format.Pythonic, unit: `<|python_start|>[f(`},
	{name: "pythonic-list", f: format.Pythonic, head: `[`, unit: `f(), `, tail: `f()]`, forced: true},
}

// A response's text yields at most MaxTextCalls calls: past them, one
// failed call, beyond the limits, spans the rest of the text from where
// the next call starts, in every format and under Auto. A text of
// MaxTextCalls calls yields them all.
func TestTextCallsCapped(t *testing.T) {
	for _, c := range capTexts {
		// The text of n calls, the tail the last of them.
		text := func(n int) string {
			if c.tail == "" {
				return c.head + strings.Repeat(c.unit, n)
			}
			return c.head + strings.Repeat(c.unit, n-1) + c.tail
		}
		for _, f := range []format.Format{c.f, format.Auto} {
			if f == format.Auto && c.forced {
				continue
			}
			calls, _, err := readCalls(value.StringOf(text(MaxTextCalls)), f, value.Limits{})
			if err != nil || len(calls) != MaxTextCalls {
				t.Errorf("%s/%s, %d calls: got %d, %v", c.name, f, MaxTextCalls, len(calls), err)
				continue
			}
			if last := calls[len(calls)-1]; last.Err != nil && errors.Is(last.Err, value.ErrTooLarge) {
				t.Errorf("%s/%s, %d calls: the last is %v", c.name, f, MaxTextCalls, last.Err)
			}
			for _, n := range []int{MaxTextCalls + 1, MaxTextCalls + 1000} {
				s := text(n)
				calls, _, err := readCalls(value.StringOf(s), f, value.Limits{})
				if err != nil || len(calls) != MaxTextCalls+1 {
					t.Errorf("%s/%s, %d calls: got %d, %v", c.name, f, n, len(calls), err)
					continue
				}
				at := len(c.head) + MaxTextCalls*len(c.unit)
				if c.list {
					at = strings.IndexByte(s, '[')
					if c.f == format.Mistral {
						at = len(mistralCalls)
					}
				}
				want := "call " + strconv.Itoa(MaxTextCalls) + ": text[" + strconv.Itoa(at) + ":" + strconv.Itoa(len(s)) + "] "
				last := calls[MaxTextCalls]
				if last.Err == nil || !errors.Is(last.Err, value.ErrTooLarge) || !strings.HasPrefix(last.Err.Error(), want) || !strings.Contains(last.Err.Error(), "not read") {
					t.Errorf("%s/%s, %d calls: the last is %v, want %s…", c.name, f, n, last.Err, want)
				}
			}
		}
	}
}
