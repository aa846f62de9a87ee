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
	// One walk of the members finds what the reader reads; an absent
	// member reads as null, as it does through a lookup.
	var role, content, toolCalls, functionCall, toolCallID, name value.Value
	// plain counts the members a message can hold without holding a
	// call (its role, content, tool_call_id and name): a message of
	// these alone, whose content is no list, needs no failHeld.
	plain := 0
	ms := m.Members()
	for _, e := range ms {
		switch e.Key {
		case "role":
			role = e.Value
			plain++
		case "content":
			content = e.Value
			plain++
		case "tool_calls":
			toolCalls = e.Value
		case "function_call":
			functionCall = e.Value
		case "tool_call_id":
			toolCallID = e.Value
			plain++
		case "name":
			name = e.Value
			plain++
		}
	}
	// A message that cannot hold a call is spared heldCall's walk;
	// FuzzShapeProbes checks that heldCall finds none in such a one.
	mayHold := plain < len(ms) || content.Kind() == value.Array
	switch role := textOf(role); role {
	case "assistant":
		b.turn()
		openaiCalls(b, toolCalls, functionCall)
		// A content part in another API's call shape would be a call
		// this format does not read.
		for j, e := range content.Elems() {
			if isCallShaped(e) {
				b.fail("", "content["+strconv.Itoa(j)+"]", "is a call in another API's shape, in an openai message")
			}
		}
		if b.n == b.first && b.wantsText() {
			b.saidIn(content)
			// BFCL's OpenAI handler takes a message's calls whenever it
			// has a tool_calls list, so an empty one is a message of no
			// calls and no text: it ends BFCL's run without an answer.
			b.cur.emptyList = toolCalls.Kind() == value.Array
		}
	case "tool":
		b.other()
		b.result(textOf(toolCallID), textOf(name), content, false)
		if mayHold {
			b.failHeld(m, role) // a result is no place for a call, which must not vanish
		}
	case "function":
		b.other()
		b.result("", textOf(name), content, false)
		if mayHold {
			b.failHeld(m, role)
		}
	default:
		b.other()
		if mayHold {
			b.failHeld(m, role)
		}
	}
}

// openaiCalls reads an assistant message's tool_calls, then its legacy
// function_call, as messageAt does for a single message.
func openaiCalls(b *runBuilder, tc, fc value.Value) {
	switch tc.Kind() {
	case value.Null:
	case value.Array:
		for j, e := range tc.Elems() {
			b.call(readToolCall, e, loc{"tool_calls", j}, stringAt(e, "id"))
		}
	default:
		b.fail("", "tool_calls", "is "+kindPhrase(tc)+", not an array")
	}
	if fc.Kind() != value.Null {
		b.call(readLegacyCall, fc, loc{"function_call", -1}, "")
	}
}

// textOf is the text of v when it is a string, else "".
func textOf(v value.Value) string {
	if v.Kind() != value.String {
		return ""
	}
	return v.Str()
}

// readLegacyCall reads an openai message's function_call.
func readLegacyCall(x extraction, e value.Value, at loc, i int) Call {
	return readCall(e, at, "", "arguments", textOrObject, i, x)
}
