package response

import (
	"strconv"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

var anthropicMessagesFormat = api{
	name: format.AnthropicMessages,
	// As openai-messages: what a call block of an assistant message is.
	emits:  emitsTyped,
	read:   readContentBlock,
	reader: conversation{message: anthropicMessages},
}

func anthropicMessage(b *runBuilder, m value.Value) {
	if m.Kind() != value.Object {
		b.notMessage(m)
		return
	}
	switch role := roleOf(m); role {
	case "assistant":
		b.turn()
		c, _ := m.Get("content")
		if c.Kind() == value.Array {
			for j, e := range c.Elems() {
				switch {
				case e.Kind() != value.Object:
					b.fail("", "content["+strconv.Itoa(j)+"]", "is "+kindPhrase(e)+", not an object")
				case emitsTyped(e):
					b.call(readContentBlock, e, loc{"content", j}, stringAt(e, "id"))
				}
			}
		}
		for _, key := range [...]string{"tool_calls", "function_call", "parts"} {
			if v, ok := m.Get(key); ok && v.Kind() != value.Null && (v.Kind() != value.Array || v.Len() > 0) {
				b.fail("", key, "holds calls in another API's shape, in an anthropic message")
			}
		}
		if b.n == b.first && b.wantsText() {
			b.said(m, "content")
		}
	case "user":
		b.other()
		c, _ := m.Get("content")
		for j, e := range c.Elems() {
			if t := stringAt(e, "type"); t == "tool_result" {
				rc, _ := e.Get("content")
				failed, _ := e.Get("is_error")
				b.result(stringAt(e, "tool_use_id"), "", rc, failed.Kind() == value.Bool && failed.Bool())
			} else if isCallShaped(e) {
				b.fail("", "content["+strconv.Itoa(j)+"]", "is a call, in a user message")
			}
		}
		if isCallShaped(m) {
			b.failHere(roleWhat(role))
		}
	default:
		b.other()
		b.failHeld(m, role)
	}
}
