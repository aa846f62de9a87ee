package response

import (
	"strconv"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

var responsesStreamFormat = api{
	name:       format.ResponsesStream,
	typePrefix: "response.",
	reader:     &responsesStreamer,
}

var responsesStreamer = streamer{unit: "output", stop: "response.output_item.done", end: "response.completed", event: responsesEvent}

func responsesEvent(a *assembly, e value.Value, j int) {
	t, ok := e.Get("type")
	if !ok || t.Kind() != value.String {
		a.fail(j, a.where(j)+" has no type")
		return
	}
	key, alt := outputKey(e)
	switch t.Str() {
	case "response.output_item.added", "response.output_item.done":
		item, _ := e.Get("item")
		if item.Kind() != value.Object {
			a.fail(j, a.where(j)+".item is "+kindPhrase(item)+", not an object")
			return
		}
		it, ok := item.Get("type")
		call := ok && it.Kind() == value.String && it.Str() == "function_call"
		// Any other call (a custom tool's, one of a type no format reads,
		// a message holding a call) is a failed call, as in a response's
		// output; so is an item without a type. Messages, reasoning and
		// the built-in tools' items are passed over.
		other := !call && emitsTyped(item)
		if !call && !other {
			return
		}
		if alt == "" {
			id, _ := item.Get("id")
			alt = id.Str()
		}
		c := a.find(key, alt)
		if c == nil || t.Str() == "response.output_item.added" {
			c = a.begin(key, j)
			c.alt = alt
		}
		a.late(c, j)
		if n, ok := item.Get("name"); ok {
			c.setName(n, j, a, loc{"item", -1}, "name")
		}
		done := t.Str() == "response.output_item.done"
		switch {
		case other && c.bad == "" && it.Kind() == value.String:
			c.bad = a.where(j) + ".item is of type " + strconv.Quote(it.Str()) + ", not \"function_call\""
		case other && c.bad == "":
			c.bad = a.where(j) + ".item has no type"
		}
		if args, ok := item.Get("arguments"); ok {
			c.whole, c.hasWhole, c.final = args, true, done
		}
		c.closed = c.closed || done
	case "response.custom_tool_call_input.delta", "response.custom_tool_call_input.done":
		// A custom tool's input: its call, begun by its item, has failed
		// already; without one, the event is a failed call of its own.
		if c := a.streamed(key, alt, j, "response.output_item.added"); c != nil && c.bad == "" {
			c.bad = a.where(j) + " gives a custom tool's input to " + a.label(c) + ", a function_call"
		}
	case "response.function_call_arguments.delta":
		if c := a.streamed(key, alt, j, "response.output_item.added"); c != nil {
			f, _ := e.Get("delta")
			c.fragment(f, j, a, loc{}, "delta")
		}
	case "response.function_call_arguments.done":
		if c := a.streamed(key, alt, j, "response.output_item.added"); c != nil {
			a.late(c, j)
			if n, ok := e.Get("name"); ok {
				c.setName(n, j, a, loc{}, "name")
			}
			c.whole, c.hasWhole = value.Value{}, false
			if args, ok := e.Get("arguments"); ok {
				c.whole, c.hasWhole = args, true
			}
			c.final, c.closed = true, true
		}
	case "response.completed", "response.incomplete":
		// An incomplete response (its max_output_tokens reached) is read
		// as it is, as a Responses object with that status is.
		a.terminal(j)
		r, _ := e.Get("response")
		out, _ := r.Get("output")
		for k, item := range out.Elems() {
			finalItem(a, item, k, j)
		}
	case "error":
		a.reportError(j, errorText(e))
	case "response.failed":
		r, _ := e.Get("response")
		er, _ := r.Get("error")
		a.reportError(j, errorText(er))
	default:
		if isCallType(t.Str()) {
			a.foreign(e, j, "a responses stream event")
		}
	}
}

// finalItem reads item k of the output of event j, the response the
// stream ends with, which the SDK hands out as its final response. A call
// that no event streamed is a call all the same, never dropped; one that
// was streamed must be the same call there (see pending.echo).
func finalItem(a *assembly, item value.Value, k, j int) {
	at := loc{a.where(j) + ".response.output", k}
	if item.Kind() != value.Object {
		a.fail(j, at.at("")+" is "+kindPhrase(item)+", not an object")
		return
	}
	if !emitsTyped(item) {
		return // a message, reasoning, a built-in tool's call
	}
	it, _ := item.Get("type")
	wrong := ""
	switch {
	case it.Kind() != value.String:
		wrong = at.at("") + " has no type"
	case it.Str() != "function_call":
		wrong = at.at("") + " is of type " + strconv.Quote(it.Str()) + ", not \"function_call\""
	}
	key, id := strconv.Itoa(k), stringAt(item, "id")
	var c *pending
	if id != "" {
		c = a.find("", id)
	}
	if c == nil {
		c = a.find(key, "")
	}
	switch {
	case c == nil:
		c = a.begin(key, j)
		c.alt, c.closed, c.bad = id, true, wrong
		if n, ok := item.Get("name"); ok {
			c.setName(n, j, a, at, "name")
		}
		if args, ok := item.Get("arguments"); ok {
			c.whole, c.hasWhole, c.final = args, true, true
		}
	case c.skip || c.bad != "":
	case wrong != "":
		// The events streamed a function call that the response does
		// not hold as one: which it is, is in doubt.
		c.bad = wrong + ", where " + a.label(c) + " streams a function_call"
	default:
		c.echo, c.echoAt = item, at
	}
}

// outputKey is how a Responses event names its output item: by
// output_index, and by item_id.
func outputKey(e value.Value) (key, alt string) {
	i, _ := e.Get("output_index")
	id, _ := e.Get("item_id")
	return i.Str(), id.Str()
}

// streamed is the call that a fragment of event j extends, or nil when
// no begin event (named begin, for the message) started one, which makes
// the event a failed call: its fragment cannot be dropped.
func (a *assembly) streamed(key, alt string, j int, begin string) *pending {
	c := a.find(key, alt)
	if c == nil {
		a.fail(j, a.where(j)+" continues a call that no "+begin+" began")
	}
	return c
}

// errorText is the message of an error event: Anthropic's
// {"error": {"message"}}, the Responses API's {"message"}, Bedrock's
// exceptions' {"message"}.
func errorText(e value.Value) string {
	if er, ok := e.Get("error"); ok && er.Kind() == value.Object {
		e = er
	}
	m, _ := e.Get("message")
	if m.Kind() != value.String {
		return "(no message)"
	}
	return excerpt(m.Str(), 0)
}
