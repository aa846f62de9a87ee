package response

import (
	"slices"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

var bedrockFormat = api{
	name:   format.Bedrock,
	emits:  callLike,
	read:   readBlock,
	reader: single{},
}

// bedrockBlockKeys are the keys of Converse's ContentBlock union.
var bedrockBlockKeys = [...]string{
	"text", "toolUse", "toolResult", "reasoningContent", "image", "document",
	"video", "guardContent", "cachePoint", "citationsContent",
}

// hasOutputObject is a Converse response, whose output is a union holding
// its message; a Responses API object's output is an array.
func hasOutputObject(o value.Value) bool {
	out, ok := o.Get("output")
	return ok && out.Kind() == value.Object
}

// isBedrockMessage is a message whose content blocks are all Converse's:
// objects without a type, each with a key of the union. An Anthropic
// block always has a type, so the two never share a message.
func isBedrockMessage(o value.Value) bool {
	c, ok := o.Get("content")
	if !ok || c.Kind() != value.Array || c.Len() == 0 {
		return false
	}
	for _, b := range c.Elems() {
		if !isBedrockBlock(b) {
			return false
		}
	}
	return true
}

func isBedrockBlock(b value.Value) bool {
	if b.Kind() != value.Object || b.Has("type") {
		return false
	}
	for _, k := range bedrockBlockKeys {
		if b.Has(k) {
			return true
		}
	}
	return false
}

// conversePlan reads output.message.content.
// A stopReason of tool_use with no toolUse block is one failed call: the
// model stopped to call a tool, and the call went missing.
func conversePlan(o value.Value, _ extraction) plan {
	out, _ := o.Get("output")
	p := nestedListPlan(out, "message", "output.message", "content", "output.message.content")
	if sr, _ := o.Get("stopReason"); p.bad == "" && sr.Kind() == value.String && sr.Str() == "tool_use" &&
		!slices.ContainsFunc(p.list, func(e value.Value) bool { return e.Kind() != value.Object || callLike(e) }) {
		return plan{bad: "stopReason is tool_use, but output.message.content holds no call"}
	}
	return p
}

// readBlock reads a content block's toolUse.
func readBlock(x extraction, e value.Value, at loc, i int) Call {
	return readKeyed(x, e, at, i, "toolUse", "input", objectOnly, "a bedrock content block")
}
