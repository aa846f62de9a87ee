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

func isCallObject(o value.Value) bool { return o.Has("name") || o.Has("arguments") }

func callPlan(o value.Value, _ extraction) plan { return plan{one: o, hasOne: true} }

func readCallObject(x extraction, e value.Value, at loc, i int) Call {
	return readCall(e, at, "", "arguments", textOrObject, i, x)
}
