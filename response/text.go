package response

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/callgrade/callgrade/value"
)

// A text format reads the calls a model wrote out in its raw text, as an
// inference server's tool parser reads them (vLLM's and SGLang's, cited
// in each format's file). The text is the response itself, a string, or
// the content of an openai completion or message (forced only: Auto
// reads those as openai). Text around the calls is the answer's text and
// is passed over; a call that does not read is a failed call whose
// message gives its span in the text, never a call left out.

// textReader reads the calls out of one text.
type textReader struct {
	x   extraction
	src string // the text
	// at names the text in messages: "text" for a response that is a
	// string, else its path in the response.
	at  string
	out []Call
	// buf holds the one call most texts have, so that the reader's one
	// allocation (its methods are called through the format) is all.
	buf [1]Call
}

// add adds a call that read.
func (t *textReader) add(name string, args value.Value) {
	t.out = append(t.out, Call{Name: name, Args: args})
}

// fail adds a failed call for the span [from, to) of the text, which
// reason, and the parse error err when there is one, explain.
func (t *textReader) fail(name string, from, to int, reason string, err error) {
	t.out = append(t.out, Call{Name: name, Err: &ArgumentsError{Index: len(t.out), Reason: t.span(from, to) + ": " + reason, Err: err}})
}

// span names [from, to) of the text and quotes it, shortened: a call's
// text may be as long as the model made it.
func (t *textReader) span(from, to int) string {
	return t.at + "[" + strconv.Itoa(from) + ":" + strconv.Itoa(to) + "] " + strconv.Quote(shorten(t.src[from:to]))
}

// maxBytes is the size an arguments text may have.
func (x extraction) maxBytes() int {
	if x.lim.MaxBytes > 0 {
		return x.lim.MaxBytes
	}
	return value.DefaultLimits.MaxBytes
}

// maxQuote is the most of a span a message quotes.
const maxQuote = 64

// shorten keeps the start and the end of a long s, on rune boundaries.
func shorten(s string) string {
	if len(s) <= maxQuote {
		return s
	}
	head, tail := maxQuote*3/4, maxQuote/4
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	tail = len(s) - tail
	for tail < len(s) && !utf8.RuneStart(s[tail]) {
		tail++
	}
	return s[:head] + "…" + s[tail:]
}

// object parses the JSON object at [from, to); ok is false when it does
// not read, and the call has failed.
func (t *textReader) object(name string, from, to int) (o value.Value, ok bool) {
	v, err := t.x.parse(t.src[from:to])
	switch {
	case err != nil:
		// The error's offset is in the span; the message's, in the text.
		if ve, ok := err.(*value.Error); ok && ve.Offset >= 0 {
			at := *ve
			at.Offset += from
			err = &at
		}
		t.fail(name, from, to, "not a usable JSON object", err)
		return v, false
	case v.Kind() != value.Object:
		t.fail(name, from, to, "holds "+kindPhrase(v)+", not a JSON object", nil)
		return v, false
	}
	return v, true
}

// arguments reads the JSON object at [from, to) as the arguments of the
// call named name.
func (t *textReader) arguments(name string, from, to int) {
	if args, ok := t.object(name, from, to); ok {
		t.add(name, args)
	}
}

// callObject reads the JSON call object at [from, to): its name and its
// arguments, an object under the first of argKeys it has. A call object
// with a second of them is ambiguous, and fails.
func (t *textReader) callObject(from, to int, argKeys ...string) {
	o, ok := t.object("", from, to)
	if ok {
		t.call(o, from, to, "", argKeys...)
	}
}

// call reads call object o, found at [from, to) (sub, when o is an
// element there, says which).
func (t *textReader) call(o value.Value, from, to int, sub string, argKeys ...string) {
	n, ok := o.Get("name")
	switch {
	case !ok:
		t.fail("", from, to, sub+`"name" is missing`, nil)
		return
	case n.Kind() != value.String:
		t.fail("", from, to, sub+`"name" is `+kindPhrase(n)+", not a string", nil)
		return
	}
	name, key := n.Str(), ""
	var args value.Value
	for _, k := range argKeys {
		a, ok := o.Get(k)
		if !ok {
			continue
		}
		if key != "" {
			t.fail(name, from, to, sub+"has both "+strconv.Quote(key)+" and "+strconv.Quote(k), nil)
			return
		}
		args, key = a, k
	}
	switch {
	case key == "":
		t.fail(name, from, to, sub+strconv.Quote(argKeys[0])+" is missing", nil)
	case args.Kind() != value.Object:
		t.fail(name, from, to, sub+strconv.Quote(key)+" is "+kindPhrase(args)+", not an object", nil)
	default:
		t.add(name, args)
	}
}

// readText reads the calls of r, a model's text or the openai completion
// or message that holds it, in format f: nil when there are none.
func readText(f *format, r value.Value, x extraction) []Call {
	t := &textReader{x: x}
	t.out = t.buf[:0]
	if r.Kind() == value.String {
		t.read(f, r.Str(), "text")
	} else {
		t.message(f, r)
	}
	if len(t.out) == 0 {
		return nil
	}
	return t.out
}

func (t *textReader) read(f *format, s, at string) {
	t.src, t.at = s, at
	f.text(t)
}

// holdsText is an openai completion or message, whose content a forced
// text format reads: a server with no tool parser, or one that could not
// parse the calls, leaves the model's text there. A Gemini content, with
// parts, is not one: its calls are Gemini's.
func holdsText(o value.Value) bool {
	return hasChoices(o) || hasCalls(o) || (o.Has("role") || o.Has("content")) && !o.Has("parts")
}

func textPlan(o value.Value, _ extraction) plan { return plan{text: o} }

// message reads the text of completion or message o. A completion of the
// legacy completions API has the text of choices[0] as its text.
func (t *textReader) message(f *format, o value.Value) {
	if !hasChoices(o) {
		t.content(f, o, "")
		return
	}
	choice, p, ok := firstOf(o, "choices")
	switch {
	case p.bad != "":
		t.out = append(t.out, fail(len(t.out), "", p.bad))
	case !ok:
	case choice.Has("message"):
		msg, _ := choice.Get("message")
		if msg.Kind() != value.Object {
			t.out = append(t.out, fail(len(t.out), "", "choices[0].message is "+kindPhrase(msg)+", not an object"))
			return
		}
		t.content(f, msg, "choices[0].message.")
	default:
		s, ok := choice.Get("text")
		if !ok || s.Kind() != value.String {
			t.out = append(t.out, fail(len(t.out), "", "choices[0] has no message object and no text"))
			return
		}
		t.read(f, s.Str(), "choices[0].text")
	}
}

// content reads the content of message msg, found at path, whose text
// is a string or a list of text parts. Calls that the server has taken
// out already, into tool_calls or function_call, are failed calls: they
// are openai's to read, and a wrong --format must not pass.
func (t *textReader) content(f *format, msg value.Value, path string) {
	c, _ := msg.Get("content")
	switch c.Kind() {
	case value.Null:
	case value.String:
		t.read(f, c.Str(), path+"content")
	case value.Array:
		// Text parts; a block of any other kind may be a call of another
		// API's (an Anthropic tool_use), which must not vanish.
		for j, part := range c.Elems() {
			at := path + "content[" + strconv.Itoa(j) + "]"
			s, _ := part.Get("text")
			ty, _ := part.Get("type")
			switch {
			case s.Kind() == value.String && (ty.Kind() == value.Null || ty.Str() == "text"):
				t.read(f, s.Str(), at+".text")
			case ty.Str() != "refusal":
				t.out = append(t.out, fail(len(t.out), "", at+" is not a text part"))
			}
		}
	default:
		t.out = append(t.out, fail(len(t.out), "", path+"content is "+kindPhrase(c)+", not a string"))
	}
	tc, _ := msg.Get("tool_calls")
	for j := range tc.Elems() {
		t.out = append(t.out, fail(len(t.out), "", path+"tool_calls["+strconv.Itoa(j)+"] is a call the server parsed already, not "+f.about))
	}
	if fc, ok := msg.Get("function_call"); ok && fc.Kind() != value.Null {
		t.out = append(t.out, fail(len(t.out), "", path+"function_call is a call the server parsed already, not "+f.about))
	}
}

// textFormat is the format of a model's text that read reads.
func textFormat(name Format, about string, read func(t *textReader)) format {
	return format{name: name, about: about, emits: every, read: readNotText, text: read}
}

// blocks reads each block of open and close in the text with read, given
// where the block starts and where its body does and ends; a block never
// closed is a failed call.
func (t *textReader) blocks(open, close string, read func(start, body, end int)) {
	s := t.src
	for i := 0; ; {
		j := strings.Index(s[i:], open)
		if j < 0 {
			return
		}
		start := i + j
		body := start + len(open)
		end, stop := block(s, body, open, close)
		if end < 0 {
			t.fail("", start, stop, "never closed: no "+close+" follows", nil)
			i = stop
			continue
		}
		read(start, body, end)
		i = end + len(close)
	}
}

// readNotText is a text format's read, for a list given to it: a text
// format reads text, not lists of calls.
func readNotText(_ extraction, _ value.Value, at loc, i int) Call {
	return fail(i, "", at.at("")+" is an element of a list, not a model's text")
}

// The markers of the text formats: special tokens of their models, and
// tags their chat templates write.
const (
	hermesOpen  = "<tool_call>"
	hermesClose = "</tool_call>"

	qwenFunction      = "<function="
	qwenFunctionClose = "</function>"
	qwenParameter     = "<parameter="
	qwenParamClose    = "</parameter>"

	llamaPythonTag = "<|python_tag|>"

	mistralCalls  = "[TOOL_CALLS]"
	mistralArgs   = "[ARGS]"
	mistralCallID = "[CALL_ID]"

	// DeepSeek's bars and spaces are U+FF5C and U+2581, as its tokenizer
	// spells them.
	deepseekCallsBegin = "<｜tool▁calls▁begin｜>"
	deepseekCallBegin  = "<｜tool▁call▁begin｜>"
	deepseekCallEnd    = "<｜tool▁call▁end｜>"
	deepseekSep        = "<｜tool▁sep｜>"

	harmonyStart     = "<|start|>"
	harmonyChannel   = "<|channel|>"
	harmonyConstrain = "<|constrain|>"
	harmonyMessage   = "<|message|>"

	pythonStart = "<|python_start|>"
	pythonEnd   = "<|python_end|>"
)

// textMarks are the markers that make a string a text format's for Auto:
// special tokens of the model, which no answer in words has. The first
// in the text decides. A string without one is a text answer, even in
// the syntax of llama-json or pythonic, which must be forced.
var textMarks = [...]struct {
	mark string
	f    *format
}{
	{hermesOpen, &hermesFormat}, // or Qwen3-Coder's: see textFormatOf
	{mistralCalls, &mistralFormat},
	{deepseekCallsBegin, &deepseekFormat},
	{deepseekCallBegin, &deepseekFormat},
	{harmonyChannel, &harmonyFormat},
	{harmonyStart, &harmonyFormat},
	{llamaPythonTag, &llamaFormat},
	{pythonStart, &pythonicFormat},
}

// textFormatOf is the text format whose markers s has, or nil.
func textFormatOf(s string) *format {
	if !strings.ContainsAny(s, "<[") {
		return nil
	}
	var f *format
	first := len(s)
	for _, m := range textMarks {
		if i := strings.Index(s[:min(len(s), first+len(m.mark))], m.mark); i >= 0 && i < first {
			f, first = m.f, i
		}
	}
	switch {
	case f == &harmonyFormat && !strings.Contains(s[first:], harmonyMessage):
		// The header markers of harmony alone are no message; another
		// format's marker after them still decides.
		return textFormatOf(s[first+1:])
	case f == &hermesFormat && strings.HasPrefix(s[skipSpace(s, first+len(hermesOpen)):], qwenFunction):
		return &qwenCoderFormat
	}
	return f
}

// skipSpace returns the index of the first byte of s at or after i that
// is not JSON white space.
func skipSpace(s string, i int) int {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
}

// trimSpan narrows [from, to) of s to what is inside its white space.
func trimSpan(s string, from, to int) (int, int) {
	from = skipSpace(s[:to], from)
	for to > from && isSpace(s[to-1]) {
		to--
	}
	return from, to
}

// block finds the end of the block of open and close whose body starts
// at body: the index of close, or -1 and where the block stops, when
// open comes again, or the text ends, before close does.
func block(s string, body int, open, close string) (end, stop int) {
	within := len(s) // where open must not come
	c := strings.Index(s[body:], close)
	if c >= 0 {
		within = body + c
	}
	if o := strings.Index(s[body:within], open); o >= 0 {
		return -1, body + o
	}
	if c < 0 {
		return -1, len(s)
	}
	return body + c, 0
}

// jsonEnd returns the end of the JSON object or array that starts at
// s[i], found by its brackets alone (the parser judges the rest), or -1
// when the text ends before it does.
func jsonEnd(s string, i int) int {
	depth := 0
	for ; i < len(s); i++ {
		switch s[i] {
		case '"':
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				return i + 1
			}
		}
	}
	return -1
}
