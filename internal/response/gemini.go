package response

import (
	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

var geminiFormat = api{
	name:   format.Gemini,
	emits:  callLike,
	read:   readPart,
	reader: single{},
}

func hasCandidates(o value.Value) bool { return o.Has("candidates") }

func hasParts(o value.Value) bool { return o.Has("parts") }

// hasPromptFeedback is a response without candidates that says why:
// Gemini blocked the prompt. Its row comes last, after every shape that
// could carry the key beside calls.
func hasPromptFeedback(o value.Value) bool {
	return o.Has("promptFeedback") || o.Has("prompt_feedback")
}

// blockedPlan reads a response that has no candidates, only the feedback
// on a prompt Gemini would not answer: no calls, as `candidates: []`
// beside the same feedback is (a response with no tool call is zero
// calls), where it would otherwise be in no known shape.
func blockedPlan(value.Value, extraction) plan { return plan{} }

// candidatesPlan reads candidates[0] alone.
func candidatesPlan(o value.Value, _ extraction) plan {
	cand, p, ok := firstOf(o, "candidates")
	if !ok {
		return p
	}
	if cand.Kind() != value.Object {
		return plan{bad: "candidates[0] is " + kindPhrase(cand) + ", not an object"}
	}
	return readCandidate(cand, "candidates[0].")
}

// isCandidate is a candidate on its own: a content object that holds
// parts. No openai message has an object content.
func isCandidate(o value.Value) bool {
	c, ok := o.Get("content")
	return ok && c.Kind() == value.Object && c.Has("parts")
}

func candidatePlan(o value.Value, _ extraction) plan { return readCandidate(o, "") }

// readCandidate reads a candidate, found at path (its parts at
// path+"content.parts"). A candidate without content is no calls: Gemini
// leaves it out when it blocks an answer. One that ended because the
// model's call could not be read (finishReason MALFORMED_FUNCTION_CALL or
// UNEXPECTED_TOOL_CALL, with empty content) is one failed call, as an
// openai call whose arguments do not parse is, never zero calls.
func readCandidate(cand value.Value, path string) plan {
	for _, key := range [...]string{"finishReason", "finish_reason"} {
		r, _ := cand.Get(key)
		if r.Kind() != value.String {
			continue
		}
		for _, bad := range [...]string{"MALFORMED_FUNCTION_CALL", "UNEXPECTED_TOOL_CALL"} {
			if r.Str() == bad || r.Str() == "FinishReason."+bad {
				msg := path + key + " is " + bad + ": the model's call could not be read"
				for _, mk := range [...]string{"finishMessage", "finish_message"} {
					if m, _ := cand.Get(mk); m.Kind() == value.String && m.Str() != "" {
						msg += " (" + clipText(m.Str(), 200) + ")"
						break
					}
				}
				return plan{bad: msg}
			}
		}
	}
	return nestedListPlan(cand, "content", path+"content", "parts", path+"content.parts")
}

// nestedListPlan reads the list at listKey of the object at key of o,
// found at path and listPath: an absent or null object is no calls, as a
// candidate without content is, anything else but an object is one
// failed call.
func nestedListPlan(o value.Value, key, path, listKey, listPath string) plan {
	inner, ok := o.Get(key)
	switch {
	case !ok || inner.Kind() == value.Null:
		return plan{}
	case inner.Kind() != value.Object:
		return plan{bad: path + " is " + kindPhrase(inner) + ", not an object"}
	}
	l, ok := inner.Get(listKey)
	return listPlan(l, ok, listPath)
}

func partsPlan(o value.Value, _ extraction) plan {
	parts, ok := o.Get("parts")
	return listPlan(parts, ok, "parts")
}

// readPart reads a part's functionCall, or function_call as the Python
// SDK's model_dump spells it (an openai legacy function_call, which has
// arguments, is not one). Gemini leaves args out of a call without
// arguments, so absent args are the empty object.
func readPart(x extraction, e value.Value, at loc, i int) Call {
	key, _ := partCall(e)
	return readKeyed(x, e, at, i, key, "args", optionalObject, "a gemini part")
}

// partCall is the key of part e that holds its call, functionCall or
// function_call (see readPart), and what it holds.
func partCall(e value.Value) (string, value.Value) {
	key := "functionCall"
	if fc, ok := e.Get("function_call"); ok && fc.Kind() != value.Null && !hasSome(e, key) && !fc.Has("arguments") {
		return "function_call", fc
	}
	fc, _ := e.Get(key)
	return key, fc
}

// partResult is the functionResponse of part e, or its function_response
// as the Python SDK's model_dump spells it, when functionResponse is
// absent or null; ok is false when e has neither.
func partResult(e value.Value) (fr value.Value, ok bool) {
	if fr, ok = e.Get("functionResponse"); ok && fr.Kind() != value.Null {
		return fr, true
	}
	fr, ok = e.Get("function_response")
	return fr, ok && fr.Kind() != value.Null
}

// callLike is emits for a list of untyped parts or blocks (gemini,
// bedrock), each told by a key: one without a key that marks a call (a
// text part, a thought) is passed over, but one with a call key of any
// such format, or with a type, name or function key, is a call or
// another API's call, which must not vanish silently.
// A key set to null is as absent: the Python SDKs' model_dump() writes
// every field a part does not use as null.
func callLike(e value.Value) bool {
	return hasSome(e, "functionCall") || hasSome(e, "function_call") || hasSome(e, "toolUse") || hasSome(e, "type") || hasSome(e, "name") || hasSome(e, "function") ||
		heldByMessage(e)
}

// hasSome reports whether o has key set to something other than null.
func hasSome(o value.Value, key string) bool {
	v, ok := o.Get(key)
	return ok && v.Kind() != value.Null
}

// readKeyed reads the call held at key of part or block e, whose
// arguments are at argKey; what names e in the message of one that has
// no such key.
func readKeyed(x extraction, e value.Value, at loc, i int, key, argKey string, mode argMode, what string) Call {
	c, ok := e.Get(key)
	if !ok {
		return fail(i, "", at.at("")+" is not "+what+": it has no "+key+" but a key of another API's call")
	}
	if c.Kind() != value.Object {
		return fail(i, "", at.at(key)+" is "+kindPhrase(c)+", not an object")
	}
	return readCall(c, at, key, argKey, mode, i, x)
}
