package response

import "github.com/callgrade/callgrade/value"

// Calls is callgrade's own: {"name": …, "arguments": …} or a list of
// them, for a harness that has already taken the calls out of whatever
// its model returned.
const Calls Format = "calls"

var callsFormat = format{
	name:  Calls,
	about: "a call object or list of calls",
	emits: every,
	read:  readCallObject,
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
