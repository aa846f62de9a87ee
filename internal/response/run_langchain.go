package response

import (
	"strings"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

var langchainMessagesFormat = api{
	name: format.LangChainMessages,
	// A message's type decides a list alone: messages_to_dict's types,
	// those of the chunks, and dumpd's constructor. FunctionMessage's
	// "function" is openai's tool_calls entry type, and is left to it.
	itemTypes: []string{"human", "ai", "tool", "system", "chat", "generic", "remove", "constructor",
		"AIMessageChunk", "HumanMessageChunk", "ToolMessageChunk", "SystemMessageChunk", "ChatMessageChunk", "FunctionMessageChunk"},
	// As openai-messages: what a call entry of an AIMessage is.
	emits:  every,
	read:   readLangChainCall,
	reader: conversation{message: langchainMessages},
}

// lcPaths are the places of an AIMessage's lists in each dict form, as
// constants, so that reading them builds no strings.
var lcPaths = [...]struct{ at, toolCalls, invalid string }{
	{"", "tool_calls", "invalid_tool_calls"},
	{"data", "data.tool_calls", "data.invalid_tool_calls"},
	{"kwargs", "kwargs.tool_calls", "kwargs.invalid_tool_calls"},
}

// langchainDict unwraps a message dict: the message's fields, the form
// (an index of lcPaths) and its kind, "ai", "tool", "human", … as
// messages_to_dict writes the type.
func langchainDict(e value.Value) (msg value.Value, form int, kind string) {
	t := stringAt(e, "type")
	if t == "constructor" {
		id, _ := e.Get("id")
		path := id.Elems()
		class := ""
		if len(path) > 0 {
			class = path[len(path)-1].Str()
		}
		kw, _ := e.Get("kwargs")
		return kw, 2, classKind(class)
	}
	if d, ok := e.Get("data"); ok && !e.Has("content") && !e.Has("tool_calls") {
		return d, 1, chunkKind(t)
	}
	return e, 0, chunkKind(t)
}

// chunkKind is the kind of a chunk's type ("AIMessageChunk" is "ai"),
// and any other type as it is.
func chunkKind(t string) string {
	if strings.HasSuffix(t, "MessageChunk") {
		return classKind(strings.TrimSuffix(t, "Chunk"))
	}
	return t
}

// classKind is the kind of message class c (AIMessage, ToolMessageChunk,
// …), "" for a class that is no message.
func classKind(c string) string {
	switch strings.TrimSuffix(c, "Chunk") {
	case "AIMessage":
		return "ai"
	case "HumanMessage":
		return "human"
	case "ToolMessage":
		return "tool"
	case "SystemMessage":
		return "system"
	case "ChatMessage":
		return "chat"
	case "FunctionMessage":
		return "function"
	case "RemoveMessage":
		return "remove"
	}
	return ""
}

func langchainMessage(b *runBuilder, e value.Value) {
	if e.Kind() != value.Object {
		b.notMessage(e)
		return
	}
	m, form, kind := langchainDict(e)
	paths := &lcPaths[form]
	if m.Kind() != value.Object {
		if kind == "ai" {
			b.turn()
			b.fail("", paths.at, "is "+kindPhrase(m)+", not an object")
		} else {
			b.other()
		}
		return
	}
	switch kind {
	case "ai":
		b.turn()
		tc, ok := m.Get("tool_calls")
		switch {
		case !ok || tc.Kind() == value.Null:
		case tc.Kind() != value.Array:
			b.fail("", paths.toolCalls, "is "+kindPhrase(tc)+", not an array")
		default:
			for j, c := range tc.Elems() {
				b.call(readLangChainCall, c, loc{paths.toolCalls, j}, stringAt(c, "id"))
			}
		}
		itc, ok := m.Get("invalid_tool_calls")
		switch {
		case !ok || itc.Kind() == value.Null:
		case itc.Kind() != value.Array:
			b.fail("", paths.invalid, "is "+kindPhrase(itc)+", not an array")
		default:
			for j, c := range itc.Elems() {
				b.call(readInvalidToolCall, c, loc{paths.invalid, j}, stringAt(c, "id"))
			}
		}
		if b.n == b.first {
			kwargsCalls(b, m, paths.at)
		}
		// The content of langchain-anthropic's AIMessage repeats its
		// tool_calls as tool_use blocks: the calls are tool_calls, and
		// the content gives the text alone.
		if b.n == b.first && b.wantsText() {
			b.said(m, "content")
		}
	case "tool":
		b.other()
		c, _ := m.Get("content")
		b.result(stringAt(m, "tool_call_id"), stringAt(m, "name"), c, stringAt(m, "status") == "error")
		if heldCall(m) {
			b.failHere("a langchain message of type " + describeKind(kind))
		}
	default:
		b.other()
		if heldCall(m) {
			b.failHere("a langchain message of type " + describeKind(kind))
		}
	}
}

// describeKind names a message kind for a message.
func describeKind(kind string) string {
	if kind == "" {
		return "none that is a message's"
	}
	return `"` + kind + `"`
}

// kwargsCalls reads the provider's calls that an AIMessage m, at path at,
// keeps in additional_kwargs alone, as aiMessageAt does for one message.
func kwargsCalls(b *runBuilder, m value.Value, at string) {
	list, fc, ok := kwargsCallsOf(m)
	switch {
	case len(list) > 0:
		at = kwargsPath(at) + ".tool_calls"
		for j, c := range list {
			b.call(readInvalidToolCall, c, loc{at, j}, stringAt(c, "id"))
		}
	case ok:
		b.call(readKeptFunctionCall, fc, loc{kwargsPath(at) + ".function_call", -1}, "")
	}
}

// readKeptFunctionCall reads an openai legacy function_call that an
// AIMessage keeps in additional_kwargs.
func readKeptFunctionCall(x extraction, e value.Value, at loc, i int) Call {
	return readCall(e, at, "", "arguments", textOrObject, i, x)
}
