package response

import (
	"cmp"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

var bedrockStreamFormat = api{
	name:   format.BedrockStream,
	reader: &bedrockStreamer,
}

var bedrockStreamer = streamer{unit: "contentBlockIndex", stop: "contentBlockStop", end: "messageStop", emptyIsObject: true, event: bedrockEvent}

// bedrockErrors are the exceptions a ConverseStream may end with.
var bedrockErrors = [...]string{
	"internalServerException", "modelStreamErrorException", "validationException",
	"throttlingException", "serviceUnavailableException",
}

func bedrockEvent(a *assembly, e value.Value, j int) {
	if ev, ok := e.Get("contentBlockStart"); ok {
		idx, _ := ev.Get("contentBlockIndex")
		start, _ := ev.Get("start")
		tu, ok := start.Get("toolUse")
		c := a.begin(idx.Str(), j)
		if !ok {
			// A start of a kind Converse may add, that names a tool, is
			// a call no format reads: it fails, never vanishes.
			for _, m := range start.Members() {
				if m.Value.Has("name") {
					c.bad = cmp.Or(c.bad, a.where(j)+".contentBlockStart.start."+clip(m.Key)+" is no toolUse, but names a tool")
					c.name = stringAt(m.Value, "name")
					return
				}
			}
			c.skip = true
			return
		}
		n, _ := tu.Get("name")
		c.setName(n, j, a, loc{"contentBlockStart.start.toolUse", -1}, "name")
		return
	}
	if ev, ok := e.Get("contentBlockDelta"); ok {
		idx, _ := ev.Get("contentBlockIndex")
		d, _ := ev.Get("delta")
		tu, ok := d.Get("toolUse")
		if !ok {
			return
		}
		if c := a.streamed(idx.Str(), "", j, "contentBlockStart"); c != nil {
			f, _ := tu.Get("input")
			c.fragment(f, j, a, loc{"contentBlockDelta.delta.toolUse", -1}, "input")
		}
		return
	}
	if ev, ok := e.Get("contentBlockStop"); ok {
		idx, _ := ev.Get("contentBlockIndex")
		if c := a.find(idx.Str(), ""); c != nil {
			a.late(c, j)
			c.closed = true
		}
		return
	}
	if ms, ok := e.Get("messageStop"); ok {
		a.terminal(j)
		if sr, _ := ms.Get("stopReason"); sr.Kind() == value.String && sr.Str() == "tool_use" {
			a.announce(j, "stopReason tool_use")
		}
		return
	}
	for _, k := range bedrockErrors {
		if ex, ok := e.Get(k); ok {
			a.reportError(j, errorText(ex))
			return
		}
	}
	if !e.Has("messageStart") && !e.Has("metadata") {
		a.foreign(e, j, "a converse stream event")
	}
}
