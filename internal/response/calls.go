package response

import (
	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

var callsFormat = api{
	name:   format.Calls,
	emits:  every,
	read:   readCallObject,
	reader: single{},
}

// isCallObject is a call: what has arguments, or a name without being a
// message (a role, or Gemini's parts), since a chat message may have a
// name (the itemFormat rule for one object).
func isCallObject(o value.Value) bool {
	return o.Has("arguments") || o.Has("name") && !o.Has("role") && !o.Has("parts")
}

func callPlan(o value.Value, _ extraction) plan { return plan{one: o, hasOne: true} }

func readCallObject(x extraction, e value.Value, at loc, i int) Call {
	return readCall(e, at, "", "arguments", textOrObject, i, x)
}
