package response

import (
	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

var responsesFormat = api{
	name: format.Responses,
	// The built-in tools' items are passed over, but they tell an output
	// list that holds nothing else.
	itemTypes: append([]string{"function_call", "message", "reasoning", "function_call_output", "custom_tool_call",
		"mcp_list_tools", "mcp_approval_request"}, responsesBuiltins...),
	emits: emitsTyped,
	read:  readOutputItem,
	// A list with a tool's output, or a request's input, is a run
	// (run_responses.go).
	reader: conversation{message: responsesItems, isRun: isResponsesRun},
}

// responsesBuiltins are the items of the Responses API's built-in tools
// whose type ends in _call, the calls that are passed over; any other
// type ending in _call is a call this package does not read, which fails
// (isCallType).
var responsesBuiltins = []string{"web_search_call", "file_search_call", "computer_call", "image_generation_call",
	"code_interpreter_call", "local_shell_call", "mcp_call"}

func isResponsesObject(o value.Value) bool {
	if t, ok := o.Get("object"); ok && t.Kind() == value.String && t.Str() == "response" {
		return true
	}
	out, ok := o.Get("output")
	return ok && out.Kind() == value.Array
}

// outputPlan reads the output of a Responses object. One whose status
// says the model gave no answer (failed, cancelled, or not run yet) is one
// failed call, quoting its error: its empty output is no answer with zero
// calls.
func outputPlan(o value.Value, _ extraction) plan {
	if st, _ := o.Get("status"); st.Kind() == value.String {
		switch st.Str() {
		case "failed", "cancelled", "queued", "in_progress":
			msg := "status is " + st.Str() + ": the response holds no answer"
			if er, _ := o.Get("error"); er.Kind() == value.Object {
				msg += "; its error: " + errorText(er)
			}
			return plan{bad: msg}
		}
	}
	out, ok := o.Get("output")
	return listPlan(out, ok, "output")
}

func readOutputItem(x extraction, e value.Value, at loc, i int) Call {
	if c, ok := typedCall(e, "function_call", at, i); !ok {
		return c
	}
	return readCall(e, at, "", "arguments", textOrObject, i, x)
}
