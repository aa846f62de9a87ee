package response

import (
	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

var cohereFormat = api{
	name:   format.Cohere,
	emits:  every,
	read:   readToolCall,
	reader: single{},
}

func isCohereResponse(o value.Value) bool { return messageBeside(o, "finish_reason") }

// cohereResponsePlan reads the tool_calls of a chat response's message.
// A finish_reason of TOOL_CALL says the model called a tool: with no call
// in the message (no tool_calls, or an empty list) it is one failed call,
// never zero calls. ERROR and TIMEOUT say the generation failed: the
// response holds no answer, and is one failed call too.
func cohereResponsePlan(o value.Value, x extraction) plan {
	p := messageCallsPlan(o, x)
	fr, _ := o.Get("finish_reason")
	switch {
	case p.bad != "" || fr.Kind() != value.String:
	case fr.Str() == "ERROR" || fr.Str() == "TIMEOUT":
		return plan{bad: "finish_reason is " + fr.Str() + ": the generation failed, and the response holds no answer"}
	case fr.Str() == "TOOL_CALL" && len(p.list) == 0:
		return plan{bad: "finish_reason is TOOL_CALL, but message.tool_calls holds no call"}
	}
	return p
}

// messageBeside reports whether o is a response that holds a message
// object beside key, which tells the API (cohere, ollama) apart.
func messageBeside(o value.Value, key string) bool {
	m, ok := o.Get("message")
	return ok && m.Kind() == value.Object && o.Has(key)
}

func hasToolPlan(o value.Value) bool { return o.Has("tool_plan") }

// messageCallsPlan reads the tool_calls of a response's message (cohere,
// ollama), which the row has found to be an object.
func messageCallsPlan(o value.Value, _ extraction) plan {
	return nestedListPlan(o, "message", "message", "tool_calls", "message.tool_calls")
}

// toolCallsPlan reads the tool_calls of a message without the legacy
// function_call, which only openai has.
func toolCallsPlan(o value.Value, _ extraction) plan {
	tc, ok := o.Get("tool_calls")
	return listPlan(tc, ok, "tool_calls")
}
