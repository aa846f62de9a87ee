package response

import (
	"strconv"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

var geminiContentsFormat = api{
	name: format.GeminiContents,
	// As openai-messages: what a call part of the model's content is.
	emits:  callLike,
	read:   readPart,
	reader: conversation{message: geminiContents},
}

func geminiContent(b *runBuilder, m value.Value) {
	if m.Kind() != value.Object {
		b.notMessage(m)
		return
	}
	role := roleOf(m)
	if role == "" && callIn(m, "parts") >= 0 {
		// Gemini lets a single turn leave the role out; a content that
		// calls a function is the model's whatever it says.
		role = "model"
	}
	switch role {
	case "model":
		b.turn()
		parts, ok := m.Get("parts")
		switch {
		case !ok || parts.Kind() == value.Null:
		case parts.Kind() != value.Array:
			b.fail("", "parts", "is "+kindPhrase(parts)+", not an array")
		default:
			for j, e := range parts.Elems() {
				switch {
				case e.Kind() != value.Object:
					b.fail("", "parts["+strconv.Itoa(j)+"]", "is "+kindPhrase(e)+", not an object")
				case callLike(e):
					_, fc := partCall(e)
					b.call(readPart, e, loc{"parts", j}, stringAt(fc, "id"))
				}
			}
		}
		for _, key := range [...]string{"tool_calls", "function_call", "content"} {
			if callIn(m, key) >= 0 || key != "content" && m.Has(key) {
				b.fail("", key, "holds calls in another API's shape, in a gemini content")
			}
		}
		if b.n == b.first && b.wantsText() {
			b.said(m, "parts")
		}
	case "user", "function", "tool", "":
		// Gemini's own examples answer a call in a user content; older
		// ones use the role function.
		b.other()
		parts, _ := m.Get("parts")
		for j, e := range parts.Elems() {
			if fr, ok := partResult(e); ok && fr.Kind() == value.Object {
				resp, _ := fr.Get("response")
				b.result(stringAt(fr, "id"), stringAt(fr, "name"), resp, geminiFailed(resp))
			}
			if isCallShaped(e) {
				// A call beside a result in one part is still a call.
				b.fail("", "parts["+strconv.Itoa(j)+"]", "is a call, in a content of role "+strconv.Quote(role))
			}
		}
		if isCallShaped(m) || callIn(m, "content") >= 0 {
			b.failHere(roleWhat(role))
		}
	default:
		b.other()
		b.failHeld(m, role)
	}
}

// geminiFailed reports whether a functionResponse's response says the
// function failed: it has an "error" that is not null or false, as a
// function that returns {"output": …, "error": null} did not fail.
func geminiFailed(resp value.Value) bool {
	e, ok := resp.Get("error")
	return ok && e.Kind() != value.Null && (e.Kind() != value.Bool || e.Bool())
}

// The keys of a Gemini SDK's response that ran the model's calls itself
// (automatic function calling): the conversation up to the last
// functionResponse, whose calls candidates[0] does not show. The Python
// SDK's model_dump spells it in snake case, its JSON and the JS SDK in
// camel case.
var afcKeys = [...]string{"automatic_function_calling_history", "automaticFunctionCallingHistory"}

// afcHistory is the automatic function calling history of Gemini
// response o and its key; key is "" when o has none (absent, null or
// empty: the SDK ran no call).
func afcHistory(o value.Value) (h value.Value, key string) {
	for _, k := range afcKeys {
		if h, ok := o.Get(k); ok && h.Kind() != value.Null && (h.Kind() != value.Array || h.Len() > 0) {
			return h, k
		}
	}
	return value.Value{}, ""
}

// hasAFCHistory is a Gemini response whose SDK ran the model's calls: its
// run is the history, then candidates[0]'s content, so that the calls the
// SDK ran never vanish behind a final answer.
func hasAFCHistory(o value.Value) bool {
	_, key := afcHistory(o)
	return key != "" && o.Has("candidates")
}

// afcPlan reads such a response as a conversation: the history's
// contents, then candidates[0].content, the model's last turn. A
// candidate that fails as readCandidate says fails the response.
func afcPlan(o value.Value, _ extraction) plan {
	h, key := afcHistory(o)
	if h.Kind() != value.Array {
		return plan{bad: key + " is " + kindPhrase(h) + ", not an array"}
	}
	p := plan{conv: true, list: h.Elems(), prefix: key}
	cand, bad, ok := firstOf(o, "candidates")
	switch {
	case bad.bad != "":
		return bad
	case !ok:
		return p
	case cand.Kind() != value.Object:
		return plan{bad: "candidates[0] is " + kindPhrase(cand) + ", not an object"}
	}
	if rc := readCandidate(cand, "candidates[0]."); rc.bad != "" {
		return rc
	}
	if c, _ := cand.Get("content"); c.Kind() == value.Object {
		p.rest, p.restPrefix, p.moreOne = []value.Value{c}, "candidates[0].content", true
	}
	return p
}
