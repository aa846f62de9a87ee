package response

import (
	"slices"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

var anthropicFormat = api{
	name: format.Anthropic,
	// The server tools' blocks (web search, web fetch, code execution,
	// the MCP connector) are passed over, as text is, but they tell a
	// content list that holds nothing else.
	itemTypes: []string{"tool_use", "text", "thinking", "redacted_thinking",
		"server_tool_use", "web_search_tool_result", "web_fetch_tool_result", "code_execution_tool_result",
		"bash_code_execution_tool_result", "text_editor_code_execution_tool_result",
		"mcp_tool_use", "mcp_tool_result", "container_upload"},
	emits:  emitsTyped,
	read:   readContentBlock,
	reader: single{},
}

func contentIsArray(o value.Value) bool {
	c, ok := o.Get("content")
	return ok && c.Kind() == value.Array
}

// contentPlan reads a message's content. A stop_reason of tool_use says
// the model stopped to call a tool: a content with no call block is then
// one failed call, never zero calls.
func contentPlan(o value.Value, _ extraction) plan {
	c, _ := o.Get("content")
	if sr, _ := o.Get("stop_reason"); sr.Kind() == value.String && sr.Str() == "tool_use" && !slices.ContainsFunc(c.Elems(), emitsTypedOrNot) {
		return plan{bad: "stop_reason is tool_use, but content holds no call"}
	}
	return plan{list: c.Elems(), prefix: "content"}
}

// emitsTypedOrNot reports whether e, an element of a typed list, is read
// as a call: an object that emitsTyped lets through, or no object.
func emitsTypedOrNot(e value.Value) bool { return e.Kind() != value.Object || emitsTyped(e) }

func readContentBlock(x extraction, e value.Value, at loc, i int) Call {
	if c, ok := typedCall(e, "tool_use", at, i); !ok {
		return c
	}
	return readCall(e, at, "", "input", objectOnly, i, x)
}
