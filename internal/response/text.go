package response

import (
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/internal/jsontext"
	"github.com/callgrade/callgrade/internal/pycall"
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
	x extraction
	// scan reads the calls of the text in its format (textFamily.read).
	scan func(t *textReader)
	src  string // the text
	// from is where the text after the model's reasoning starts: the
	// readers look for calls from there on (see reasoningEnd).
	from int
	// at names the text in messages: "text" for a response that is a
	// string, else its path in the response.
	at  string
	out []Call
	// msg is fail's buffer, and errs the rest of a slab of errors.
	msg  []byte
	errs []ArgumentsError
	// opens, closes and fnCloses find Qwen3-Coder's markers.
	opens, closes, fnCloses seeker
	// full says the response has yielded MaxTextCalls calls, and the
	// failed call that says so: the readers stop.
	full bool
	// buf holds the one call most texts have, so that the reader's one
	// allocation (its methods are called through the format) is all.
	buf [1]Call
	// kept says the reader is kept for the next text (textReaders), and
	// with it pcalls, the Python calls of its last text (pythonCalls).
	kept   bool
	pcalls []pycall.Call
}

// keptPyCalls is the most Python calls' room a kept reader keeps for the
// next text: far more than a model's answer holds, far less than the
// MaxTextCalls a hostile text may fill.
const keptPyCalls = 256

// keptCalls is the room of pcalls, cleared, that a kept reader keeps for
// its next text: none past keptPyCalls (a text of thousands of calls does
// not make the pool hold their room for good).
func keptCalls(pcalls []pycall.Call) []pycall.Call {
	if cap(pcalls) > keptPyCalls {
		return nil
	}
	clear(pcalls)
	return pcalls[:0]
}

// textReaders keep readers for the next text read into a caller's calls
// (readText): a reader escapes, its methods being called through the
// format, and would otherwise cost each response read as text an
// allocation most of the size of all its others.
var textReaders = sync.Pool{New: func() any { return new(textReader) }}

// MaxTextCalls is the most calls that the text of one response yields.
// Past them, the rest of the text is not read: one more failed call, for
// the span from where the next call starts to the end of the text, says
// so. A model's text may hold a call every few bytes (a marker written
// over and over), each one a Call, and a failed one its message: 8 MiB
// of "<tool_call>" held 760,000 failed calls, 340 MB of them. A response
// so capped has a failed call, and so fails its case, as it would with
// every call read; its score counts the MaxTextCalls+1 calls it has.
const MaxTextCalls = 10000

// room reports whether the text may yield one more call, which starts at
// from; when it may not, the failed call that says so is added, once.
func (t *textReader) room(from int) bool {
	switch {
	case t.full:
		return false
	case len(t.out) < MaxTextCalls:
		return true
	}
	t.full = true
	t.failed("", from, len(t.src), "not read", &value.Error{Err: value.ErrTooLarge, Offset: -1,
		Detail: "more than " + strconv.Itoa(MaxTextCalls) + " calls in one response's text"})
	return false
}

// add adds a call that read, written from from on.
func (t *textReader) add(from int, name string, args value.Value) {
	if t.room(from) {
		t.out = append(t.out, Call{Name: name, Args: args})
	}
}

// fail adds a failed call for the span [from, to) of the text, which
// reason, and the parse error err when there is one, explain. A text may
// hold a failed call every few bytes (a marker written over and over),
// so a failure makes one allocation of its own, its message: its error
// comes from a slab.
func (t *textReader) fail(name string, from, to int, reason string, err error) {
	if t.room(from) {
		t.failed(name, from, to, reason, err)
	}
}

// failed is fail, whatever room the response has.
func (t *textReader) failed(name string, from, to int, reason string, err error) {
	t.msg = append(t.appendSpan(t.msg[:0], from, to), ": "...)
	t.msg = append(t.msg, reason...)
	if len(t.errs) == 0 {
		t.errs = make([]ArgumentsError, min(256, 1+2*len(t.out)))
	}
	e := &t.errs[0]
	t.errs = t.errs[1:]
	*e = ArgumentsError{Index: len(t.out), Reason: string(t.msg), Err: err}
	t.out = append(t.out, Call{Name: name, Err: e})
}

// appendSpan appends to b the name of [from, to) of the text and its
// quotation, shortened: a call's text may be as long as the model made
// it.
func (t *textReader) appendSpan(b []byte, from, to int) []byte {
	b = append(b, t.at...)
	b = append(b, '[')
	b = strconv.AppendInt(b, int64(from), 10)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(to), 10)
	b = append(b, "] "...)
	s := t.src[from:to]
	head, tail, short := shortened(s)
	if !short {
		return strconv.AppendQuote(b, s)
	}
	// The quoted head and tail, one quotation with "…" between them.
	b = strconv.AppendQuote(b, head)
	b = append(b[:len(b)-1], "…"...)
	n := len(b)
	b = strconv.AppendQuote(b, tail)
	copy(b[n:], b[n+1:])
	return b[:len(b)-1]
}

// maxBytes is the size an arguments text may have.
func (x extraction) maxBytes() int {
	if x.lim.MaxBytes > 0 {
		return x.lim.MaxBytes
	}
	return jsontext.DefaultMaxBytes
}

// maxQuote is the most of a span a message quotes.
const maxQuote = 64

// shorten keeps the start and the end of a long s, on rune boundaries.
func shorten(s string) string {
	head, tail, short := shortened(s)
	if !short {
		return s
	}
	return head + "…" + tail
}

// shortened is the start and the end of s that shorten keeps, short
// false when s is short enough to keep whole.
func shortened(s string) (head, tail string, short bool) {
	if len(s) <= maxQuote {
		return s, "", false
	}
	h, k := maxQuote*3/4, maxQuote/4
	for h > 0 && !utf8.RuneStart(s[h]) {
		h--
	}
	k = len(s) - k
	for k < len(s) && !utf8.RuneStart(s[k]) {
		k++
	}
	return s[:h], s[k:], true
}

// object parses the JSON object at [from, to); ok is false when it does
// not read, and the call has failed. wrap is how many levels of JSON the
// format writes around the arguments there (a call object is one, a list
// of them two): the arguments are held to the depth limit as the other
// formats hold them, their own object the first level whatever wraps it,
// and to the size limit by their own text (see call).
func (t *textReader) object(name string, from, to, wrap int) (o value.Value, ok bool) {
	if !t.room(from) {
		return o, false
	}
	lim := t.x.lim
	if wrap > 0 {
		lim.MaxDepth = t.x.maxDepth() + wrap
		lim.MaxBytes = max(t.x.maxBytes(), to-from)
	}
	v, err := t.x.p.Parse(t.src[from:to], lim)
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
	if args, ok := t.object(name, from, to, 0); ok {
		t.add(from, name, args)
	}
}

// callObject reads the JSON call object at [from, to): its name and its
// arguments, an object under the first of argKeys it has. A call object
// with a second of them is ambiguous, and fails.
func (t *textReader) callObject(from, to int, argKeys ...string) {
	o, ok := t.object("", from, to, 1)
	if ok {
		t.call(o, from, to, -1, "", argKeys...)
	}
}

// call reads call object o, found at [from, to), or element elem of the
// list there (sub says which, for messages).
func (t *textReader) call(o value.Value, from, to, elem int, sub string, argKeys ...string) {
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
	case to-from > t.x.maxBytes() && t.tooLarge(from, to, elem, key):
		t.fail(name, from, to, sub+strconv.Quote(key)+" is beyond the limits", &value.Error{Err: value.ErrTooLarge, Offset: -1, Detail: "more than " + strconv.Itoa(t.x.maxBytes()) + " bytes"})
	default:
		t.add(from, name, args)
	}
}

// tooLarge reports whether the text of member key of the call object
// at [from, to) (of its element elem, when it is a list) is longer than
// the arguments may be. The JSON there has parsed.
func (t *textReader) tooLarge(from, to, elem int, key string) bool {
	if elem >= 0 {
		var ok bool
		if from, to, ok = jsonMember(t.src, from, to, elem, ""); !ok {
			return false
		}
	}
	from, to, ok := jsonMember(t.src, from, to, -1, key)
	return ok && to-from > t.x.maxBytes()
}

// jsonMember finds the value, in the JSON object or array at [from, to)
// of s (JSON that parses), of member key, or of element elem when it is
// not negative: its span, ok false when there is none.
func jsonMember(s string, from, to, elem int, key string) (vFrom, vTo int, ok bool) {
	i := skipSpace(s, from) + 1 // past the { or [
	for n := 0; ; n++ {
		i = skipSpace(s[:to], i)
		if i >= to || s[i] == '}' || s[i] == ']' {
			return 0, 0, false
		}
		match := elem == n
		if elem < 0 {
			// A key: its text, unescaped when it has to be.
			k := i + 1
			for k < to && s[k] != '"' {
				if s[k] == '\\' {
					k++
				}
				k++
			}
			name := s[i+1 : k]
			if strings.IndexByte(name, '\\') >= 0 {
				v, _ := value.Parse(s[i : k+1])
				name = v.Str()
			}
			match = name == key
			i = skipSpace(s, k+1) + 1 // past the :
			i = skipSpace(s, i)
		}
		end := i
		switch s[i] {
		case '{', '[':
			end, _ = jsonEnd(s, i)
		case '"':
			for end++; s[end] != '"'; end++ {
				if s[end] == '\\' {
					end++
				}
			}
			end++
		default:
			for end < to && s[end] != ',' && s[end] != '}' && s[end] != ']' && !isSpace(s[end]) {
				end++
			}
		}
		if end < 0 {
			return 0, 0, false
		}
		if match {
			return i, end, true
		}
		i = skipSpace(s, end) + 1 // past the , (or the closing bracket)
	}
}

// readText reads the calls of r, a model's text or the openai completion
// or message that holds it, in format f, whose reader read is: nil when
// there are none. The calls go into dst when it has room (see
// Options.Calls).
func readText(f *api, read func(t *textReader), r value.Value, x extraction, dst []Call) []Call {
	var t *textReader
	if cap(dst) > 0 {
		// The calls have a home of their own: the reader, some five
		// hundred bytes, is one kept from the last text.
		t = textReaders.Get().(*textReader)
		*t = textReader{x: x, scan: read, out: dst[:0], kept: true, pcalls: t.pcalls}
		defer func() {
			*t = textReader{pcalls: keptCalls(t.pcalls)} // holds nothing of this text
			textReaders.Put(t)
		}()
	} else {
		t = &textReader{x: x, scan: read}
		t.out = t.buf[:0]
	}
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

func (t *textReader) read(f *api, s, at string) {
	t.src, t.at = s, at
	t.from, _ = reasoningEnd(s)
	t.scan(t)
}

// textAnswer is the final answer that text s holds, read in text format
// f (nil for a string Auto reads as a text answer): the text after the
// model's reasoning, and for harmony the final channel's message; ""
// when the model was cut off while thinking, and wrote no answer.
func textAnswer(f *api, s string) string {
	from, cut := reasoningEnd(s)
	switch {
	case cut:
		return ""
	case f == &harmonyFormat:
		return harmonyFinal(s, from)
	case from > 0:
		return s[skipSpace(s, from):]
	}
	return s
}

// The tags around a reasoning model's thinking (DeepSeek R1, Qwen3, and
// the models after their templates).
const (
	thinkOpen  = "<think>"
	thinkClose = "</think>"
)

// reasoningEnd returns where the text after the model's reasoning
// starts: after the <think>…</think> blocks the text begins with (white
// space around them allowed), each ended by its first </think>, as the
// inference servers' reasoning parsers split them off. What is written
// there is thinking: no call and no answer. cut says the text ends inside
// a <think> never closed, a model cut off while thinking, which has
// written no answer; its calls are still read (from is where that
// <think> starts), since the reasoning has no end that would bound them.
// A <think> further on, after an answer's text, is the answer's text.
func reasoningEnd(s string) (from int, cut bool) {
	for {
		i := skipSpace(s, from)
		if !strings.HasPrefix(s[i:], thinkOpen) {
			return from, false
		}
		e := strings.Index(s[i+len(thinkOpen):], thinkClose)
		if e < 0 {
			return from, true
		}
		from = i + len(thinkOpen) + e + len(thinkClose)
	}
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
func (t *textReader) message(f *api, o value.Value) {
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
func (t *textReader) content(f *api, msg value.Value, path string) {
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
		t.out = append(t.out, fail(len(t.out), "", path+"tool_calls["+strconv.Itoa(j)+"] is a call the server parsed already, not "+format.Description(f.name)))
	}
	if fc, ok := msg.Get("function_call"); ok && fc.Kind() != value.Null {
		t.out = append(t.out, fail(len(t.out), "", path+"function_call is a call the server parsed already, not "+format.Description(f.name)))
	}
}

// textFamily is the reader of a model's text: read reads the calls
// written out in it. A list holds no text, and its elements are failed
// calls (readNotText).
type textFamily struct {
	read func(t *textReader)
}

func (tf textFamily) calls(p plan, x extraction, _ format.Format, dst []Call) ([]Call, error) {
	if p.text.Kind() != value.Null {
		return readText(p.f, tf.read, p.text, x, dst), nil
	}
	return p.listCalls(x, dst), nil
}

func (tf textFamily) run(p plan, r value.Value, x extraction, want format.Format) (Run, error) {
	calls, _ := tf.calls(p, x, want, nil)
	run := oneTurn(&p, r, x, want, calls, turnAnswer|turnText)
	if p.text.Kind() == value.String {
		// BFCL's FC decoder reads no call out of a text: to its agentic
		// checker the whole text is the answer, calls and thinking too.
		run.end = finalEnd{bfcl: true, text: p.text.Str()}
	}
	return run, nil
}

// isText reports whether f is a text format.
func (f *api) isText() bool {
	_, ok := f.reader.(textFamily)
	return ok
}

// textFormat is the format of a model's text that read reads.
func textFormat(name format.Format, read func(t *textReader)) api {
	return api{name: name, emits: every, read: readNotText, reader: textFamily{read}}
}

// blocks reads each block of open and close in the text with read, given
// where the block starts and where its body does and ends; a block never
// closed is a failed call. jsonAt, when not nil, says where the JSON
// object in a body starting at body begins (-1: none): a close inside
// its strings does not end the block, which ends at the first close
// after the object (and, for a fenced block, its "```").
// before, when not nil, hears where each block starts before it is read.
func (t *textReader) blocks(open, close string, jsonAt func(body int) int, read func(start, body, end int), before func(start int)) {
	s := t.src
	opens, closes := seeker{s: s, m: open}, seeker{s: s, m: close}
	unclosed := "never closed: no " + close + " follows"
	for i := t.from; !t.full; {
		start := opens.next(i)
		if start < 0 {
			return
		}
		if before != nil {
			before(start)
		}
		if !t.room(start) {
			return
		}
		body := start + len(open)
		end, stop := -1, 0
		if jsonAt != nil {
			end = jsonBlockEnd(s, jsonAt(body), close)
		}
		if end < 0 {
			end, stop = block(s, body, &opens, &closes)
		}
		if end < 0 {
			t.fail("", start, stop, unclosed, nil)
			i = stop
			continue
		}
		read(start, body, end)
		i = end + len(close)
	}
}

// jsonBlockEnd returns the index of the close that follows the JSON
// object at i (and a "```" that ends its fence), or -1 when there is
// none there.
func jsonBlockEnd(s string, i int, close string) int {
	if i < 0 || i >= len(s) || s[i] != '{' {
		return -1
	}
	e, _ := jsonEnd(s, i)
	if e < 0 {
		return -1
	}
	k := skipSpace(s, e)
	if strings.HasPrefix(s[k:], "```") {
		k = skipSpace(s, k+len("```"))
	}
	if !strings.HasPrefix(s[k:], close) {
		return -1
	}
	return k
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
	deepseekCallsEnd   = "<｜tool▁calls▁end｜>"
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
// in the text that starts a call of its format decides (see startsCall);
// one that does not, as prose that names the token, is passed over. A
// string without one is a text answer, even in the syntax of llama-json
// or pythonic, which must be forced.
var textMarks = [...]struct {
	mark string
	f    *api
}{
	{hermesOpen, &hermesFormat}, // or Qwen3-Coder's: see markStarts
	{mistralCalls, &mistralFormat},
	{deepseekCallsBegin, &deepseekFormat},
	{deepseekCallBegin, &deepseekFormat},
	{harmonyChannel, &harmonyFormat},
	{harmonyStart, &harmonyFormat},
	{llamaPythonTag, &llamaFormat},
	{pythonStart, &pythonicFormat},
}

// textFormatOf is the text format whose markers s has, or nil. The
// model's reasoning (see reasoningEnd) is passed over: a marker written
// while thinking starts no call.
func textFormatOf(s string) *api {
	if !strings.ContainsAny(s, "<[") {
		return nil
	}
	from, _ := reasoningEnd(s)
	var marks [len(textMarks)]seeker
	for i := range marks {
		marks[i] = seeker{s: s, m: textMarks[i].mark}
	}
	message := seeker{s: s, m: harmonyMessage}
	// Without a <|message|>, no harmony marker decides: they are passed
	// over at once rather than one by one.
	harmony := message.next(from) >= 0
	for i := from; ; {
		first, at := -1, len(s)
		for k := range marks {
			if !harmony && textMarks[k].f == &harmonyFormat {
				continue
			}
			if j := marks[k].next(i); j >= 0 && j < at {
				first, at = k, j
			}
		}
		if first < 0 {
			return nil
		}
		if f := markStarts(s, at, first, &message); f != nil {
			return f
		}
		i = at + 1
	}
}

// markStarts is the format whose call the marker textMarks[k], at i in
// s, starts, or nil when it starts none: what follows it must be the
// format's, or nothing (a call cut off at its start is a failed call of
// the format). message finds harmony's <|message|>, which a harmony
// header must reach.
func markStarts(s string, i, k int, message *seeker) *api {
	m := textMarks[k]
	after := i + len(m.mark)
	j := skipSpace(s, after)
	if m.f == &harmonyFormat {
		if message.next(after) < 0 {
			return nil
		}
		return m.f
	}
	if endsHere(s, j) {
		return m.f
	}
	switch m.mark {
	case hermesOpen:
		switch {
		// A list or a fenced block is no call of hermes, but it is a
		// model's attempt at one after its special token: read as hermes,
		// it fails, where as a text answer its calls would vanish.
		case s[j] == '{' || s[j] == '[' || strings.HasPrefix(s[j:], "```") || strings.HasPrefix(s[j:], hermesClose):
			return m.f
		case strings.HasPrefix(s[j:], qwenFunction):
			return &qwenCoderFormat
		}
	case mistralCalls:
		if s[j] == '[' || s[j] == '{' {
			return m.f
		}
		// NAME[ARGS]…, NAME[CALL_ID]…, or NAME{…}: a name of one word.
		n := j
		for n < len(s) && s[n] != '[' && s[n] != '{' && !isSpace(s[n]) {
			n++
		}
		if n > j && n < len(s) && (s[n] == '{' || strings.HasPrefix(s[n:], mistralArgs) || strings.HasPrefix(s[n:], mistralCallID)) {
			return m.f
		}
	case deepseekCallsBegin:
		if strings.HasPrefix(s[j:], deepseekCallBegin) || strings.HasPrefix(s[j:], deepseekCallsEnd) {
			return m.f
		}
	case deepseekCallBegin:
		// A name (or V3's "function"), then the separator.
		n := j
		for n < len(s) && s[n] != '<' && s[n] != '\n' {
			n++
		}
		if strings.HasPrefix(s[n:], deepseekSep) {
			return m.f
		}
	case llamaPythonTag:
		// JSON calls, or the Python of Llama's built-in tools.
		if s[j] == '{' || startsCall(s[j:]) {
			return m.f
		}
	case pythonStart:
		if s[j] == '[' || startsCall(s[j:]) || strings.HasPrefix(s[j:], pythonEnd) {
			return m.f
		}
	}
	return nil
}

// endOfTurn are the tokens that end a model's turn, which a text may
// keep after its calls: Llama's, Qwen's (ChatML), Mistral's and Llama
// 4's.
var endOfTurn = [...]string{"<|eot_id|>", "<|eom_id|>", "<|im_end|>", "</s>", "<|eot|>", "<|end_of_text|>", "<｜end▁of▁sentence｜>"}

// endsHere reports whether nothing but white space and end-of-turn
// tokens follows i in s.
func endsHere(s string, i int) bool {
	return skipEnd(s, i) == len(s)
}

// skipEnd returns the index of the first byte at or after i that is not
// white space or in an end-of-turn token.
func skipEnd(s string, i int) int {
	for {
		i = skipSpace(s, i)
		if i == len(s) || s[i] != '<' {
			return i
		}
		k := i
		for _, tok := range endOfTurn {
			if strings.HasPrefix(s[i:], tok) {
				i += len(tok)
				break
			}
		}
		if k == i {
			return i
		}
	}
}

// trimEnd returns to, moved back over the white space and end-of-turn
// tokens that end s[from:to].
func trimEnd(s string, from, to int) int {
	for {
		for to > from && isSpace(s[to-1]) {
			to--
		}
		k := to
		for _, tok := range endOfTurn {
			if strings.HasSuffix(s[from:to], tok) {
				to -= len(tok)
				break
			}
		}
		if k == to {
			return to
		}
	}
}

// seeker finds a marker in a text front to back: asked for the first
// occurrence at or after i, for an i that only grows, it looks at each
// byte of the text once, however often it is asked.
type seeker struct {
	s, m string
	// at is the occurrence found last (-1: none), by a search that began
	// at searched; valid is whether there has been one.
	at, searched int
	valid        bool
}

// next returns the index of the first occurrence of the marker at or
// after i, or -1.
func (k *seeker) next(i int) int {
	if k.valid && i >= k.searched && (k.at < 0 || k.at >= i) {
		return k.at
	}
	k.valid, k.searched = true, i
	if j := strings.Index(k.s[i:], k.m); j >= 0 {
		k.at = i + j
	} else {
		k.at = -1
	}
	return k.at
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
// open comes again, or the text ends, before close does. opens and
// closes find the markers.
func block(s string, body int, opens, closes *seeker) (end, stop int) {
	c, o := closes.next(body), opens.next(body)
	switch {
	case o >= 0 && (c < 0 || o < c):
		return -1, o
	case c < 0:
		return -1, len(s)
	}
	return c, 0
}

// jsonEnd returns the end of the JSON object or array that starts at
// s[i], found by its brackets and strings alone (the parser judges the
// rest); or -1 and where it stops: at the end of the text, or at a
// marker no JSON has outside its strings (a "<", Mistral's
// [TOOL_CALLS]), where the text has gone on to something else.
func jsonEnd(s string, i int) (end, stop int) {
	depth := 0
	for ; i < len(s); i++ {
		switch s[i] {
		case '"':
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' {
					i++
				}
			}
			if i >= len(s) {
				return -1, len(s)
			}
		case '{':
			depth++
		case '[':
			if strings.HasPrefix(s[i:], mistralCalls) {
				return -1, i
			}
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				return i + 1, 0
			}
		case '<':
			return -1, i
		}
	}
	return -1, len(s)
}
