package response

import (
	"strconv"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

var openaiMessagesFormat = api{
	name: format.OpenAIMessages,
	// A conversation format reads its lists message by message, never
	// item by item; emits and read say what a call entry of its
	// assistant messages is.
	emits:  every,
	read:   readToolCall,
	reader: conversation{message: openaiMessages},
}

func openaiMessage(b *runBuilder, m value.Value) {
	if m.Kind() != value.Object {
		b.notMessage(m)
		return
	}
	switch role := roleOf(m); role {
	case "assistant":
		b.turn()
		openaiCalls(b, m)
		// A content part in another API's call shape would be a call
		// this format does not read.
		c, _ := m.Get("content")
		for j, e := range c.Elems() {
			if isCallShaped(e) {
				b.fail("", "content["+strconv.Itoa(j)+"]", "is a call in another API's shape, in an openai message")
			}
		}
		if b.n == b.first && b.wantsText() {
			b.said(m, "content")
		}
	case "tool":
		b.other()
		c, _ := m.Get("content")
		b.result(stringAt(m, "tool_call_id"), stringAt(m, "name"), c, false)
		b.failHeld(m, role) // a result is no place for a call, which must not vanish
	case "function":
		b.other()
		c, _ := m.Get("content")
		b.result("", stringAt(m, "name"), c, false)
		b.failHeld(m, role)
	default:
		b.other()
		b.failHeld(m, role)
	}
}

// openaiCalls reads an assistant message's tool_calls, then its legacy
// function_call, as messageAt does for a single message.
func openaiCalls(b *runBuilder, m value.Value) {
	tc, ok := m.Get("tool_calls")
	switch {
	case !ok || tc.Kind() == value.Null:
	case tc.Kind() != value.Array:
		b.fail("", "tool_calls", "is "+kindPhrase(tc)+", not an array")
	default:
		for j, e := range tc.Elems() {
			b.call(readToolCall, e, loc{"tool_calls", j}, stringAt(e, "id"))
		}
	}
	if fc, ok := m.Get("function_call"); ok && fc.Kind() != value.Null {
		b.call(readLegacyCall, fc, loc{"function_call", -1}, "")
	}
}

// readLegacyCall reads an openai message's function_call.
func readLegacyCall(x extraction, e value.Value, at loc, i int) Call {
	return readCall(e, at, "", "arguments", textOrObject, i, x)
}
