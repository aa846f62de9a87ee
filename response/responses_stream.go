package response

import "github.com/callgrade/callgrade/value"

// ResponsesStream is a streamed Responses API response: its events
// (type "response.…") as a JSON array, or their SSE transcript. A call
// begins with response.output_item.added of a function_call item, takes
// the fragments of response.function_call_arguments.delta, and ends with
// response.function_call_arguments.done or response.output_item.done,
// whose whole arguments win over the fragments, as in the SDK, which
// keeps the done item. Events name a call by output_index, or item_id.
const ResponsesStream Format = "responses-stream"

var responsesStreamFormat = format{
	name:       ResponsesStream,
	about:      "an openai responses stream, as events or SSE",
	typePrefix: "response.",
	stream:     &responsesStreamer,
}

var responsesStreamer = streamer{unit: "output", stop: "response.output_item.done", event: responsesEvent}

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
		if it, _ := item.Get("type"); it.Str() != "function_call" {
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
		if n, ok := item.Get("name"); ok {
			c.setName(n, j, a, loc{"item", -1}, "name")
		}
		done := t.Str() == "response.output_item.done"
		if args, ok := item.Get("arguments"); ok {
			c.whole, c.hasWhole, c.final = args, true, done
		}
		c.closed = c.closed || done
	case "response.function_call_arguments.delta":
		if c := a.streamed(key, alt, j, "response.output_item.added"); c != nil {
			f, _ := e.Get("delta")
			c.fragment(f, j, a, loc{}, "delta")
		}
	case "response.function_call_arguments.done":
		if c := a.streamed(key, alt, j, "response.output_item.added"); c != nil {
			if n, ok := e.Get("name"); ok {
				c.setName(n, j, a, loc{}, "name")
			}
			c.whole, c.hasWhole = value.Value{}, false
			if args, ok := e.Get("arguments"); ok {
				c.whole, c.hasWhole = args, true
			}
			c.final, c.closed = true, true
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
