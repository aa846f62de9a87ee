package response

import (
	"strings"

	"github.com/callgrade/callgrade/value"
)

// isResponsesRun reports whether a Responses item list is a run rather
// than a response's output: it has a tool's output, or an input message
// (an item with a role and no type), which no output has.
func isResponsesRun(elems []value.Value) bool {
	for _, e := range elems {
		t, ok := e.Get("type")
		if ok && t.Kind() == value.String && t.Str() == "function_call_output" ||
			!ok && e.Has("role") {
			return true
		}
	}
	return false
}

// responsesItem reads one item of a Responses run. The model's items
// that follow each other (reasoning, messages, function calls, its
// built-in tools' calls) make one turn; a function_call_output answers
// the call its call_id names; a message is the run's answer only in a
// turn that makes no call. The Responses API has no error flag for a
// function's output. Items are read as in a response's output: an item
// without a type, or of another API's call type, is a failed step.
func responsesItem(b *runBuilder, e value.Value) {
	if e.Kind() != value.Object {
		b.fail("", "", "is "+kindPhrase(e)+", not an object")
		return
	}
	t, ok := e.Get("type")
	if !ok || t.Kind() != value.String {
		role := roleOf(e)
		switch {
		case !e.Has("role"):
			b.item(readOutputItem, e, "")
		case role == "assistant":
			// An input message in the short form, without its type.
			b.modelItem()
			if isCallShaped(e) || callIn(e, "content") >= 0 {
				b.fail("", "", "holds a call in another API's shape, in a responses input message")
			} else if b.n == b.first && b.wantsText() {
				b.said(e, "content")
			}
		default:
			b.other()
			b.failHeld(e, role)
		}
		return
	}
	switch ts := t.Str(); {
	case ts == "function_call":
		b.modelItem()
		b.item(readOutputItem, e, stringAt(e, "call_id"))
	case ts == "function_call_output":
		b.other()
		out, _ := e.Get("output")
		b.result(stringAt(e, "call_id"), "", out, false)
	case ts == "message":
		if r := roleOf(e); r == "assistant" || r == "" {
			b.modelItem()
		} else {
			b.other()
		}
		if holdsCall(e) {
			b.item(readOutputItem, e, "") // a message holding a call block is not Responses'
		} else if b.inTurn && b.n == b.first && b.wantsText() {
			// A message in a turn that calls is beside the call, no
			// answer, as in the other conversations.
			b.said(e, "content")
		}
	case isCallType(ts):
		b.modelItem()
		b.item(readOutputItem, e, "")
	case ts == "reasoning" || strings.HasSuffix(ts, "_call") || ts == "mcp_list_tools" || ts == "mcp_approval_request":
		b.modelItem()
	default:
		b.other()
		if heldByMessage(e) || isUnknownCall(e) {
			// Another API's message holding a call (a LangChain "ai"
			// message), or a call of a type no format knows (a name and
			// an input): read as an item, it fails, never vanishes.
			b.item(readOutputItem, e, "")
		}
	}
}
