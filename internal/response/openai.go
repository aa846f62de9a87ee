package response

import (
	"strconv"
	"strings"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

var openaiFormat = api{
	name:      format.OpenAI,
	itemTypes: []string{"function"},
	emits:     every,
	read:      readToolCall,
	reader:    single{},
}

func hasChoices(o value.Value) bool { return o.Has("choices") }

func hasCalls(o value.Value) bool { return o.Has("tool_calls") || o.Has("function_call") }

// isTextMessage is a message without calls: a plain answer, whose content
// is text or null. Auto tries it last, after the rows that claim parts and
// an array content; the test says so itself for a forced openai. No
// openai message has an object content: such an object is in no known
// shape, lest what it holds (a Gemini candidate's calls) vanish.
func isTextMessage(o value.Value) bool {
	return (o.Has("role") || o.Has("content")) && !o.Has("parts") && textContent(o)
}

// textContent reports whether o's content, if any, is text or null, as an
// openai message's is, or a list of openai's assistant content parts,
// text and refusal, which hold no call of any API.
func textContent(o value.Value) bool {
	c, ok := o.Get("content")
	if !ok || c.Kind() == value.String || c.Kind() == value.Null {
		return true
	}
	if c.Kind() != value.Array || c.Len() == 0 {
		return false
	}
	for _, e := range c.Elems() {
		switch stringAt(e, "type") {
		case "text", "refusal":
		default:
			return false
		}
	}
	return true
}

// completionPlan reads the message of choices[0].
func completionPlan(o value.Value, _ extraction) plan {
	choice, p, ok := firstOf(o, "choices")
	if !ok {
		return p
	}
	msg, ok := choice.Get("message")
	if !ok || msg.Kind() != value.Object {
		return plan{bad: "choices[0] has no message object"}
	}
	p = messageAt(msg, "choices[0].message.tool_calls", "choices[0].message.function_call")
	// A finish_reason that says the model called a tool, with no call in
	// the message: one went missing, and is a failed call.
	fr, ok := choice.Get("finish_reason")
	if !ok {
		fr, _ = choice.Get("finishReason")
	}
	if p.bad == "" && len(p.list) == 0 && !p.hasOne &&
		fr.Kind() == value.String && (fr.Str() == "tool_calls" || fr.Str() == "function_call") {
		return plan{bad: "choices[0].finish_reason is " + fr.Str() + ", but the message holds no call"}
	}
	return p
}

func messagePlan(o value.Value, _ extraction) plan {
	return messageAt(o, "tool_calls", "function_call")
}

// messageAt reads an openai message's tool_calls, then its legacy
// function_call; the paths are constants so that the happy path does not
// build strings.
func messageAt(msg value.Value, tcPath, fcPath string) plan {
	tc, ok := msg.Get("tool_calls")
	if !ok {
		// The Azure OpenAI JavaScript SDK spells the message's keys in
		// camel case: its calls are calls all the same.
		if tc, ok = msg.Get("toolCalls"); ok {
			tcPath = strings.TrimSuffix(tcPath, "tool_calls") + "toolCalls"
		}
	}
	p := listPlan(tc, ok, tcPath)
	if p.bad != "" {
		return p
	}
	p.emptyList = tc.Kind() == value.Array && tc.Len() == 0
	fc, ok := msg.Get("function_call")
	if !ok {
		if fc, ok = msg.Get("functionCall"); ok {
			fcPath = strings.TrimSuffix(fcPath, "function_call") + "functionCall"
		}
	}
	if ok && fc.Kind() != value.Null {
		p.one, p.hasOne, p.onePath = fc, true, fcPath
	}
	if len(p.list) == 0 && !p.hasOne {
		// A content part in another API's call shape (a tool_use block)
		// is a call this format does not read, which must not vanish,
		// as in a conversation's openai message.
		c, _ := msg.Get("content")
		if j := callAt(c); j >= 0 {
			return plan{bad: strings.TrimSuffix(tcPath, "tool_calls") + "content[" + strconv.Itoa(j) + "] is a call in another API's shape, in an openai message"}
		}
	}
	return p
}

// readToolCall reads a tool_calls entry, whose call is its function.
func readToolCall(x extraction, e value.Value, at loc, i int) Call {
	return readFunction(x, e, at, i, textOrObject)
}

// isMessage is an openai-shaped message, for a format forced on one: an
// Anthropic message (an array content) or a Gemini content (parts) is
// not one, lest its calls vanish.
func isMessage(o value.Value) bool {
	return (o.Has("role") || o.Has("tool_calls")) && !o.Has("parts") && textContent(o)
}

// readFunction reads a tool_calls entry of openai's shape, whose
// arguments mode allows.
func readFunction(x extraction, e value.Value, at loc, i int, mode argMode) Call {
	fn, ok := e.Get("function")
	if !ok {
		if cu, _ := e.Get("custom"); cu.Kind() == value.Object {
			// A custom tool's call (type "custom"): no function's, but
			// a call, which keeps its name.
			return fail(i, stringAt(cu, "name"), at.at("")+" is a custom tool's call, not a function's")
		}
	}
	if !ok || fn.Kind() != value.Object {
		return fail(i, "", at.at("")+" has no function object")
	}
	return readCall(fn, at, "function", "arguments", mode, i, x)
}
