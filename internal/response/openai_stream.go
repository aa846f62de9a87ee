package response

import (
	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

var openaiStreamFormat = api{
	name:   format.OpenAIStream,
	reader: &openaiStreamer,
}

var openaiStreamer = streamer{unit: "tool_calls index", stop: "finish_reason", end: "finish_reason", event: chunkEvent}

// chunkEvent reads one chunk.
func chunkEvent(a *assembly, e value.Value, j int) {
	cs, ok := e.Get("choices")
	if !ok {
		if er, _ := e.Get("error"); er.Kind() == value.Object {
			a.reportError(j, errorText(er)) // a server error in mid-stream
			return
		}
		a.foreign(e, j, "a chat completion chunk")
		return
	}
	if cs.Kind() != value.Array {
		a.fail(j, a.where(j)+".choices is "+kindPhrase(cs)+", not an array")
		return
	}
	choice, ok := firstChoice(cs.Elems())
	if !ok {
		return
	}
	if m, _ := choice.Get("message"); m.Kind() == value.Object && heldCall(m) {
		// A whole message in a chunk (some gateways send one): its calls
		// must not vanish, but a chunk's calls come in its delta.
		a.fail(j, a.where(j)+".choices[0].message holds a call, in a chunk, whose calls come in its delta")
	}
	if d, _ := choice.Get("delta"); d.Kind() == value.Object {
		if tcs, ok := d.Get("tool_calls"); ok && tcs.Kind() != value.Null {
			if tcs.Kind() != value.Array {
				a.fail(j, a.where(j)+".choices[0].delta.tool_calls is "+kindPhrase(tcs)+", not an array")
			}
			for k, tc := range tcs.Elems() {
				toolCallDelta(a, tc, j, loc{"choices[0].delta.tool_calls", k})
			}
		}
		if fc, _ := d.Get("function_call"); fc.Kind() == value.Object {
			c := a.deltaCall("function_call", "", fc, j)
			functionDelta(a, c, fc, j, loc{"choices[0].delta", -1}, "function_call.name", "function_call.arguments")
		}
	}
	// Some servers send an empty finish_reason in every chunk: that is
	// none, not the end.
	if fr, _ := choice.Get("finish_reason"); fr.Kind() != value.Null && (fr.Kind() != value.String || fr.Str() != "") {
		a.closeAll()
		a.terminal(j)
		if fr.Str() == "tool_calls" || fr.Str() == "function_call" {
			a.announce(j, "finish_reason "+fr.Str())
		}
	}
}

// firstChoice is the choice of index 0 among a chunk's choices, which
// with n > 1 come in any order; a chunk without one (the usage chunk,
// an Azure prompt_filter_results chunk) has no delta to read.
func firstChoice(cs []value.Value) (value.Value, bool) {
	for _, c := range cs {
		if i, ok := c.Get("index"); !ok || i.Str() == "0" {
			return c, c.Kind() == value.Object
		}
	}
	return value.Value{}, false
}

// toolCallDelta reads tc, an entry of a delta's tool_calls, at at.
func toolCallDelta(a *assembly, tc value.Value, j int, at loc) {
	if tc.Kind() != value.Object {
		a.fail(j, a.where(j)+"."+at.at("")+" is "+kindPhrase(tc)+", not an object")
		return
	}
	idx, _ := tc.Get("index")
	key := idx.Str()
	if key == "" {
		// Some servers leave the index out; the id and name rules still
		// tell their calls apart.
		key = "0"
	}
	fn, _ := tc.Get("function")
	if cu, _ := tc.Get("custom"); cu.Kind() == value.Object && fn.Kind() == value.Null {
		// A custom tool's call, as in a message's tool_calls: it fails,
		// and keeps its name.
		c := a.deltaCall(key, stringAt(tc, "id"), cu, j)
		if n, ok := cu.Get("name"); ok && !c.hasName {
			c.setName(n, j, a, at, "custom.name")
		}
		if c.bad == "" {
			c.bad = a.where(j) + "." + at.at("") + " is a custom tool's call, not a function's"
		}
		return
	}
	id := ""
	if v, _ := tc.Get("id"); v.Kind() == value.String {
		id = v.Str()
	}
	c := a.deltaCall(key, id, fn, j)
	if id != "" {
		c.id = id
	}
	if fn.Kind() != value.Object && fn.Kind() != value.Null && c.bad == "" {
		c.bad = a.where(j) + "." + at.at("function") + " is " + kindPhrase(fn) + ", not an object"
	}
	functionDelta(a, c, fn, j, at, "function.name", "function.arguments")
}

// deltaCall is the call that a fragment with id (or none) and function
// fn, under key, extends, or the call it begins.
func (a *assembly) deltaCall(key, id string, fn value.Value, j int) *pending {
	c := a.find(key, "")
	switch {
	case c == nil:
	case id != "" && c.id != "":
		if id == c.id {
			return c
		}
	default:
		if n, _ := fn.Get("name"); n.Kind() != value.String || !c.hasName || !a.complete(c) {
			return c
		}
	}
	return a.begin(key, j)
}

// complete reports whether c's arguments so far are one JSON value.
func (a *assembly) complete(c *pending) bool {
	_, err := (*value.Parser)(nil).Parse(string(c.args), value.Limits{})
	return len(c.args) > 0 && err == nil
}

// functionDelta adds to c the name and the arguments fragment of fn,
// found at at.name and at.args of event j.
func functionDelta(a *assembly, c *pending, fn value.Value, j int, at loc, name, args string) {
	a.late(c, j)
	if n, ok := fn.Get("name"); ok {
		switch {
		case !c.hasName || n.Kind() != value.String:
			c.setName(n, j, a, at, name)
		case n.Str() != c.name:
			c.name += n.Str()
		}
	}
	if f, ok := fn.Get("arguments"); ok && f.Kind() != value.Null {
		c.fragment(f, j, a, at, args)
	}
}
