package response

import "github.com/callgrade/callgrade/value"

// Gemini is the generateContent API: a response, its content, or its
// parts list.
const Gemini Format = "gemini"

var geminiFormat = format{
	name:  Gemini,
	about: "a gemini response, content or parts list",
	emits: emitsPart,
	read:  readPart,
}

func hasCandidates(o value.Value) bool { return o.Has("candidates") }

func hasParts(o value.Value) bool { return o.Has("parts") }

// candidatesPlan reads candidates[0] alone. A candidate without content is
// no calls: Gemini leaves it out when it blocks an answer.
func candidatesPlan(o value.Value) plan {
	cand, p, ok := firstOf(o, "candidates")
	if !ok {
		return p
	}
	if cand.Kind() != value.Object {
		return plan{bad: "candidates[0] is " + kindPhrase(cand) + ", not an object"}
	}
	content, ok := cand.Get("content")
	switch {
	case !ok || content.Kind() == value.Null:
		return plan{}
	case content.Kind() != value.Object:
		return plan{bad: "candidates[0].content is " + kindPhrase(content) + ", not an object"}
	}
	parts, ok := content.Get("parts")
	return listPlan(parts, ok, "candidates[0].content.parts")
}

func partsPlan(o value.Value) plan {
	parts, ok := o.Get("parts")
	return listPlan(parts, ok, "parts")
}

// emitsPart passes over a part without functionCall (text, a thought),
// unless a type, name or function key says it is another API's call,
// which must not vanish silently.
func emitsPart(e value.Value) bool {
	return e.Has("functionCall") || e.Has("type") || e.Has("name") || e.Has("function")
}

// readPart reads a part's functionCall. Gemini leaves args out of a call
// without arguments, so absent args are the empty object.
func readPart(x extraction, e value.Value, at loc, i int) Call {
	fc, ok := e.Get("functionCall")
	if !ok {
		return fail(i, "", at.at("")+" is not a gemini part: it has no functionCall but a type, name or function key")
	}
	if fc.Kind() != value.Object {
		return fail(i, "", at.at("functionCall")+" is "+kindPhrase(fc)+", not an object")
	}
	return readCall(fc, at, "functionCall", "args", optionalObject, i, x)
}
