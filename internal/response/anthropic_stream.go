package response

import (
	"cmp"
	"strconv"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

var anthropicStreamFormat = api{
	name: format.AnthropicStream,
	itemTypes: []string{"message_start", "content_block_start", "content_block_delta",
		"content_block_stop", "message_delta", "message_stop"},
	reader: &anthropicStreamer,
}

var anthropicStreamer = streamer{unit: "content block", stop: "content_block_stop", end: "message_stop", emptyIsObject: true, event: anthropicEvent}

func anthropicEvent(a *assembly, e value.Value, j int) {
	t, ok := e.Get("type")
	if !ok || t.Kind() != value.String {
		a.fail(j, a.where(j)+" has no type")
		return
	}
	idx, _ := e.Get("index")
	key := idx.Str()
	switch t.Str() {
	case "content_block_start":
		b, _ := e.Get("content_block")
		c := a.begin(key, j)
		bt, ok := b.Get("type")
		if !ok || bt.Kind() != value.String {
			c.bad = cmp.Or(c.bad, a.where(j)+".content_block has no type")
		} else if bt.Str() != "tool_use" {
			if !emitsTyped(b) {
				c.skip = true // text, thinking, a server tool's block
				return
			}
			// A call of another API's type, or of a type no format
			// knows (a name and an input): a failed call, as in a
			// message's content.
			c.bad = cmp.Or(c.bad, a.where(j)+".content_block is of type "+strconv.Quote(bt.Str())+", not \"tool_use\"")
		}
		n, _ := b.Get("name")
		c.setName(n, j, a, loc{"content_block", -1}, "name")
		if in, ok := b.Get("input"); ok {
			c.whole, c.hasWhole = in, true
		}
	case "content_block_delta":
		d, _ := e.Get("delta")
		if dt, _ := d.Get("type"); dt.Str() != "input_json_delta" {
			return
		}
		if c := a.streamed(key, "", j, "content_block_start"); c != nil {
			f, _ := d.Get("partial_json")
			c.fragment(f, j, a, loc{"delta", -1}, "partial_json")
		}
	case "content_block_stop":
		if c := a.find(key, ""); c != nil {
			a.late(c, j)
			c.closed = true
		}
	case "message_stop":
		a.terminal(j)
	case "message_delta":
		d, _ := e.Get("delta")
		if sr, _ := d.Get("stop_reason"); sr.Kind() == value.String && sr.Str() == "tool_use" {
			a.announce(j, "stop_reason tool_use")
		}
	case "message_start":
		// The message starts empty; a call block in it (which the SDK
		// would keep in its final message) must not vanish.
		m, _ := e.Get("message")
		c, _ := m.Get("content")
		for k, b := range c.Elems() {
			if b.Kind() == value.Object && emitsTyped(b) {
				a.fail(j, a.where(j)+".message.content["+strconv.Itoa(k)+"] is a call in a message_start, whose content a stream sends in content blocks")
				a.calls[len(a.calls)-1].name = stringAt(b, "name")
			}
		}
	case "error":
		a.reportError(j, errorText(e))
	default:
		if isCallType(t.Str()) {
			a.foreign(e, j, "a message stream event")
		}
	}
}
