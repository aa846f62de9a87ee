package response

import (
	"strconv"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

var langchainFormat = api{
	name:      format.LangChain,
	itemTypes: []string{"tool_call", "invalid_tool_call"},
	emits:     every,
	read:      readLangChainCall,
	readRest:  readInvalidToolCall,
	reader:    single{},
}

// isLangChainMessage is an AIMessage (or chunk) in any of its dict forms;
// a dict with invalid_tool_calls is one whatever its type says, since no
// other API has them.
func isLangChainMessage(o value.Value) bool {
	if t, ok := o.Get("type"); ok && t.Kind() == value.String {
		switch t.Str() {
		case "ai", "AIMessageChunk":
			return true
		case "constructor":
			return isAIConstructor(o)
		}
	}
	return o.Has("invalid_tool_calls")
}

// isAIConstructor is dumpd's form of an AIMessage: its id is the class
// path, ["langchain", "schema", "messages", "AIMessage"] in Python and
// ["langchain_core", "messages", "AIMessageChunk"] in JS, say.
func isAIConstructor(o value.Value) bool {
	id, _ := o.Get("id")
	path := id.Elems()
	if !o.Has("lc") || len(path) == 0 {
		return false
	}
	last := path[len(path)-1].Str()
	return last == "AIMessage" || last == "AIMessageChunk"
}

// langchainPlan reads tool_calls, then invalid_tool_calls, of the message
// or of the dict that holds it. The paths are constants so that the happy
// path does not build strings.
func langchainPlan(o value.Value, _ extraction) plan {
	if kw, ok := o.Get("kwargs"); ok && isAIConstructor(o) {
		return aiMessageAt(kw, "kwargs", "kwargs.tool_calls", "kwargs.invalid_tool_calls")
	}
	if d, ok := o.Get("data"); ok && !o.Has("tool_calls") {
		return aiMessageAt(d, "data", "data.tool_calls", "data.invalid_tool_calls")
	}
	return aiMessageAt(o, "", "tool_calls", "invalid_tool_calls")
}

func aiMessageAt(msg value.Value, path, tcPath, invalidPath string) plan {
	if msg.Kind() != value.Object {
		return plan{bad: path + " is " + kindPhrase(msg) + ", not an object"}
	}
	tc, ok := msg.Get("tool_calls")
	p := listPlan(tc, ok, tcPath)
	if p.bad != "" {
		return p
	}
	itc, ok := msg.Get("invalid_tool_calls")
	q := listPlan(itc, ok, invalidPath)
	if q.bad != "" {
		return q
	}
	p.rest, p.restPrefix = q.list, q.prefix
	if len(p.list) == 0 && len(p.rest) == 0 {
		// LangChain keeps the provider's own calls in additional_kwargs,
		// and some of its versions and models leave them there alone,
		// tool_calls empty: ChatOpenAI bound with functions= puts a
		// function_call there and nowhere else. Read, they count, where
		// the message would otherwise hold no call.
		list, fc, ok := kwargsCallsOf(msg)
		at := kwargsPath(path)
		switch {
		case len(list) > 0:
			p.rest, p.restPrefix = list, at+".tool_calls"
		case ok:
			p.one, p.hasOne, p.onePath = fc, true, at+".function_call"
		}
	}
	return p
}

// kwargsCallsOf is what an AIMessage msg keeps of the provider's calls in
// its additional_kwargs: the tool_calls list when it is not empty, else
// the legacy function_call (ok) when it is not null.
func kwargsCallsOf(msg value.Value) (list []value.Value, fc value.Value, ok bool) {
	ak, _ := msg.Get("additional_kwargs")
	if tc, _ := ak.Get("tool_calls"); tc.Kind() == value.Array && tc.Len() > 0 {
		return tc.Elems(), value.Value{}, false
	}
	fc, ok = ak.Get("function_call")
	return nil, fc, ok && fc.Kind() != value.Null
}

// kwargsPath is the path of additional_kwargs in a message at path.
func kwargsPath(path string) string {
	if path == "" {
		return "additional_kwargs"
	}
	return path + ".additional_kwargs"
}

// readLangChainCall reads a ToolCall, whose type LangChain may leave out.
func readLangChainCall(x extraction, e value.Value, at loc, i int) Call {
	if t, ok := e.Get("type"); ok {
		if t.Kind() == value.String && t.Str() == "invalid_tool_call" {
			return readInvalidToolCall(x, e, at, i)
		}
		if t.Kind() != value.String || t.Str() != "tool_call" {
			return fail(i, "", at.at("type")+" is "+describeType(t)+`, not "tool_call"`)
		}
	}
	return readCall(e, at, "", "args", objectOnly, i, x)
}

// readInvalidToolCall reads an InvalidToolCall as the failed call it is,
// with LangChain's error and the args it could not parse, so that the
// call counts instead of vanishing; or an openai tool call that
// additional_kwargs held alone (aiMessageAt).
func readInvalidToolCall(x extraction, e value.Value, at loc, i int) Call {
	if e.Kind() != value.Object {
		return fail(i, "", at.at("")+" is "+kindPhrase(e)+", not an object")
	}
	if e.Has("function") {
		// A provider's call kept in additional_kwargs (aiMessageAt),
		// which is openai's.
		return readToolCall(x, e, at, i)
	}
	n, _ := e.Get("name")
	name := ""
	if n.Kind() == value.String {
		name = n.Str()
	}
	reason := at.at("") + " is a call langchain could not read"
	if er, _ := e.Get("error"); er.Kind() == value.String && er.Str() != "" {
		reason += ": " + excerpt(er.Str(), 0)
	}
	a, _ := e.Get("args")
	if a.Kind() != value.String {
		return fail(i, name, reason+"; its args are "+kindPhrase(a))
	}
	reason += "; its args are " + excerpt(a.Str(), len(a.Str()))
	_, err := x.parse(a.Str())
	return Call{Name: name, Err: &ArgumentsError{Index: i, Reason: reason, Err: err}}
}

// describeType names a type value for a message: the string quoted,
// anything else by its kind.
func describeType(t value.Value) string {
	if t.Kind() == value.String {
		return strconv.Quote(t.Str())
	}
	return kindPhrase(t)
}
