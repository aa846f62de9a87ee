package response

import (
	"strings"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

// Run is what an agent did over a whole conversation: the calls its model
// made, in the order it made them, each with the result its tool gave
// back, and the answer it ended with. A single response is a run of one
// turn whose calls have no results.
type Run struct {
	Steps []Step
	// Final is the text of the last assistant message that comes after
	// the run's last call (its answer); HasFinal says there is one.
	Final    string
	HasFinal bool
	// end is what a reading of the final answer other than Final needs
	// (ReadAs): the final message's first text block, or the message of
	// calls the run ends in.
	end finalEnd
	// NotEvaluable, when not "", says why the run cannot be scored: a
	// trace recorded without the opt-in content of its calls. Such a run
	// fails its case; it never passes for want of evidence.
	NotEvaluable string
}

// Step is one call of a run, and what came of it.
type Step struct {
	Call
	// ID is the call's id as the run gives it ("" when none), by which a
	// tool's result finds its call.
	ID string
	// Turn counts the assistant messages before the one that made the
	// call, from 0.
	Turn int
	// Result is what the tool returned: its content parsed as JSON when it
	// is JSON text, else the text; meaningful only when HasResult.
	Result    value.Value
	HasResult bool
	// Error says the tool reported an error (Anthropic's is_error,
	// LangChain's status "error", a span's error status).
	Error bool
}

// Calls returns the run's calls, in order.
func (r *Run) Calls() []Call {
	if len(r.Steps) == 0 {
		return nil
	}
	out := make([]Call, len(r.Steps))
	for i := range r.Steps {
		out[i] = r.Steps[i].Call
	}
	return out
}

// readRunInto reads r as a run (Options.Read) into *run, which is zero
// and stays so on an error: a run is some hundred and fifty bytes, which
// each return on the way would copy again. A conversation's steps go
// into mem when it has room (Options.Steps); mem is no field of x, which
// is copied on every call down the way.
func readRunInto(r value.Value, f format.Format, x extraction, mem []Step, run *Run) (format.Format, error) {
	var p plan
	if err := planFor(&p, r, f, x); err != nil {
		return f, err
	}
	if c, ok := p.conversation(); ok {
		if err := c.runPlan(&p, r, x, f, mem, run); err != nil {
			return f, err
		}
		return p.name(), nil
	}
	got, err := p.reader().run(p, r, x, f)
	if err != nil {
		return f, err
	}
	*run = got
	return p.name(), nil
}

// conversation is p's reader when it is a conversation's.
func (p *plan) conversation() (conversation, bool) {
	if p.f == nil {
		return conversation{}, false
	}
	c, ok := p.f.reader.(conversation)
	return c, ok
}

// ids gives the steps read from p's list the ids of their calls, as
// count and fill walk the list (a stream's or a text's calls have none,
// and their readers do not ask).
func (p *plan) ids(steps []Step) {
	if p.bad != "" || p.f == nil {
		return
	}
	i := 0
	for _, e := range p.list {
		switch {
		case e.Kind() != value.Object:
		case !p.f.emits(e):
			continue
		default:
			steps[i].ID = callID(p.f, e)
		}
		i++
	}
	if p.hasOne {
		i++
	}
	for _, e := range p.rest {
		steps[i].ID = stringAt(e, "id")
		i++
	}
}

// callID is the id of call entry e of format f, "" when it has none.
func callID(f *api, e value.Value) string {
	switch f {
	case &geminiFormat:
		_, fc := partCall(e)
		return stringAt(fc, "id")
	case &bedrockFormat:
		tu, _ := e.Get("toolUse")
		return stringAt(tu, "toolUseId")
	case &responsesFormat:
		return stringAt(e, "call_id")
	case &mcpFormat, &callsFormat:
		// An MCP id is the request's, not the call's.
		return ""
	}
	return stringAt(e, "id")
}

// maxAnswerDepth bounds how deep answerText looks for the message of a
// response; the wrappers it unwraps are a few levels at most.
const maxAnswerDepth = 4

// answerText is the text answer of a single response: a string itself,
// or the text of the message the response holds (choices[0].message, a
// candidate's content, a Converse output's message, a Cohere or Ollama
// message, a LangChain dict's fields), which is its content string or
// its text blocks or parts joined, or the output_text of a Responses
// output's messages. It follows the wrappers that detection reads the
// calls of, so it finds the message where the calls would be. first is
// the first text block when split says there are several, for ReadAs.
func answerText(v value.Value, depth int) (text, first string, split bool) {
	if depth > maxAnswerDepth {
		return "", "", false
	}
	switch v.Kind() {
	case value.String:
		return v.Str(), "", false
	case value.Array:
		var b strings.Builder
		s, first, n := joinBlocks(v)
		for _, e := range v.Elems() {
			if stringAt(e, "type") == "message" && roleOf(e) == "assistant" {
				b.WriteString(messageText(e, "content"))
			}
		}
		if b.Len() > 0 {
			// A Responses output's messages: one answer in pieces.
			return s + b.String(), "", false
		}
		return s, first, n > 1
	case value.Object:
	default:
		return "", "", false
	}
	for _, key := range [...]string{"choices", "candidates"} {
		if l, ok := v.Get(key); ok {
			first, _, ok := firstOf(v, key)
			if !ok || l.Kind() != value.Array {
				return "", "", false
			}
			if key == "candidates" {
				c, _ := first.Get("content")
				return answerText(c, depth+1)
			}
			if m, ok := first.Get("message"); ok {
				return answerText(m, depth+1)
			}
			return stringAt(first, "text"), "", false // a legacy completion
		}
	}
	if out, ok := v.Get("output"); ok {
		if out.Kind() == value.Object {
			out, _ = out.Get("message")
		}
		return answerText(out, depth+1)
	}
	if m, ok := v.Get("message"); ok && m.Kind() == value.Object {
		return answerText(m, depth+1)
	}
	if inner, form, _ := langchainDict(v); form > 0 {
		return answerText(inner, depth+1)
	}
	if parts, ok := v.Get("parts"); ok {
		s, first, n := joinBlocks(parts)
		return s, first, n > 1
	}
	return messageTexts(v, "content")
}
