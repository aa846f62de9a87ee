// Package response reads the tool calls out of one model response, whatever
// API produced it, so that the scorer compares structure and never text.
// NewReader opens the responses file they come in, compressed or not.
// ExtractWith reads with a value.Parser, for a caller that reads response
// after response and can drop each one's calls before the next.
//
// # Detection
//
// With Auto, a response is recognised by its shape alone, and the first
// matching row wins. An object is tested against these rows, in order:
//
//	object has                                        format     calls are read from
//	choices                                           openai     choices[0].message (as below)
//	candidates                                        gemini     candidates[0].content.parts
//	object: "response", or an output array            responses  output
//	tool_calls or function_call                       openai     tool_calls, then function_call
//	name or arguments                                 calls      the object itself
//	parts                                             gemini     parts
//	content that is an array                          anthropic  content
//	role or content (content not an array)            openai     (a text answer: no calls)
//	anything else                                     *ShapeError
//
// A non-empty array is read in the format of its first element that says
// which format it belongs to; elements that say nothing (not an object, or
// an object with an unknown "type") are passed over when deciding, and then
// read by that format's rules like the others:
//
//	element                                           format
//	type "function", or no type and a function key    openai     (a tool_calls list)
//	type "function_call", "message" or "reasoning"    responses  (an output list)
//	type "tool_use", "text", "thinking" or
//	"redacted_thinking"                               anthropic  (a content list)
//	no type, and a functionCall or text key           gemini     (a parts list)
//	no type, and a name or arguments key              calls
//	no element says anything                          *ShapeError
//
// A string "type" decides alone: {"type": "function", "name": …,
// "arguments": …} is an openai entry without a function object, which is a
// failed call; force Calls to read such lists. A response that is null, a
// string (a plain text answer) or an empty array has zero calls, whatever
// the format; Auto then reports Auto as the format read. Numbers and
// booleans are a *ShapeError in every format.
//
// A forced format accepts an object that matches one of its own rows of the
// object table, each row read on its own (the openai text-answer row then
// also asks for no parts and content that is not an array), and any array,
// read element by element by that format's rules.
//
// # What counts as a call
//
// In openai and calls lists every element is a call. In responses and
// anthropic lists an object whose type is some other string ("message",
// "text", "reasoning", …) is skipped, but an element with no type, or with
// the call type of another format ("function", "function_call",
// "tool_use"), is a failed call: a call from another API must not vanish
// silently. For the same reason a "message" item whose content holds a call
// block (an Anthropic message put in a list) is a failed call, not skipped.
// Likewise a gemini part without functionCall is skipped unless it has a
// type, name or function key.
//
// Only choices[0] of a chat completion and candidates[0] of a Gemini
// response are read, as a scorer reads the one answer a model gave. A
// completion with no choices, a candidate with no content (Gemini omits it
// when it blocks an answer) and content with no parts are zero calls; a
// container of the wrong type on the way to the calls (choices that is not
// an array, a choice with no message, tool_calls that is a string) is one
// failed call, so the response can never pass.
//
// Arguments are JSON text in openai, responses and calls, and are parsed
// with the caller's value.Limits; they must be exactly one JSON object. An
// arguments value that is already an object is accepted as well, because
// some SDKs decode it before the response is written out. Anthropic input
// and Gemini args must be objects. Gemini leaves args out of a call that has
// no arguments, so a functionCall without args has the empty object as its
// arguments; an explicit null is still an error.
package response

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/callgrade/callgrade/value"
)

// Format names a response API whose tool calls Extract can read.
type Format string

// The formats Extract knows. Auto is the zero value, so an unset format
// detects.
const (
	Auto      Format = ""          // detect by shape
	OpenAI    Format = "openai"    // chat completion, its message, or its tool_calls list
	Responses Format = "responses" // Responses API object or its output list
	Anthropic Format = "anthropic" // Messages API message or its content list
	Gemini    Format = "gemini"    // generateContent response, its content, or its parts list
	Calls     Format = "calls"     // {"name", "arguments"} or a list of them
)

var formats = [...]Format{OpenAI, Responses, Anthropic, Gemini, Calls}

// ParseFormat reads a --format value. It ignores case, because a user who
// types "OpenAI" means openai.
func ParseFormat(s string) (Format, error) {
	if s == "" || strings.EqualFold(s, "auto") {
		return Auto, nil
	}
	for _, f := range formats {
		if strings.EqualFold(s, string(f)) {
			return f, nil
		}
	}
	return Auto, unknownFormat(s)
}

type formatError string

func (e formatError) Error() string {
	return "unknown response format " + strconv.Quote(string(e)) +
		": want one of auto, openai, responses, anthropic, gemini, calls"
}

func unknownFormat(s string) error { return formatError(s) }

// Call is one tool call read from a response.
type Call struct {
	Name string
	Args value.Value // the arguments object; meaningful only when Err == nil
	Err  error       // why this call's arguments are unusable (becomes an invalid_arguments diff); nil when fine
}

// ShapeError means the response as a whole is in no shape Extract knows, or
// not in the shape of the format it was told to read. No call can be read
// from it, so a caller reports it against the response, not a call.
type ShapeError struct {
	Want  Format // the forced format; Auto when detecting
	Found string // what the response is, e.g. "an object with keys [a b]"
}

// Error says what was found and what was wanted.
func (e *ShapeError) Error() string {
	return "response is " + e.Found + ", not " + wantPhrase(e.Want)
}

func wantPhrase(f Format) string {
	switch f {
	case OpenAI:
		return "an openai chat completion, message or tool_calls list"
	case Responses:
		return "an openai responses object or output list"
	case Anthropic:
		return "an anthropic message or content list"
	case Gemini:
		return "a gemini response, content or parts list"
	case Calls:
		return "a call object or list of calls"
	}
	return "a known format"
}

// ArgumentsError is why one call cannot be scored: its name or arguments
// are missing, of the wrong type or do not parse, or (as the only call of
// the response) the container that should hold the calls is malformed, so
// that a broken response fails rather than passes as "no calls". When the
// arguments string
// failed to parse, Err is the *value.Error, so errors.Is(err,
// value.ErrDuplicateKey) and its siblings tell the reasons apart.
type ArgumentsError struct {
	Index  int    // the call's position in the list Extract returned
	Reason string // what is wrong, and where in the response
	Err    error  // the parse error, when there is one
}

// Error returns the call's index, the reason and the parse error.
func (e *ArgumentsError) Error() string {
	msg := "call " + strconv.Itoa(e.Index) + ": " + e.Reason
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Unwrap returns the parse error, so that errors.Is sees value's sentinels.
func (e *ArgumentsError) Unwrap() error { return e.Err }

// Extract returns the calls of r in order, and the format it was read as.
// An error means r has no known shape (or not the forced format's shape).
//
// Every problem with one call (a missing name, arguments of the wrong type
// or that do not parse) is a Call with Err set, in that call's place, with
// Name filled in when it is known; Extract itself fails only when nothing
// in r can be read as calls, or when f is not a known Format; the format
// returned with an error is f. The result is nil when r has no calls. lim
// bounds the parsing of arguments strings; its zero value means
// value.DefaultLimits. Args shares memory with r.
func Extract(r value.Value, f Format, lim value.Limits) ([]Call, Format, error) {
	return extract(r, f, argParser{lim: lim})
}

// ExtractWith is Extract parsing the arguments strings with p, so that
// reading response after response reuses memory instead of allocating
// it. The calls' Args are then valid only until p's next Reset, as
// everything p parses. A nil p makes it Extract.
func ExtractWith(p *value.Parser, r value.Value, f Format, lim value.Limits) ([]Call, Format, error) {
	return extract(r, f, argParser{lim: lim, p: p})
}

// argParser parses arguments strings: each into memory of its own, or
// with p's.
type argParser struct {
	lim value.Limits
	p   *value.Parser
}

// maxDepth is the nesting an arguments object may have.
func (ap argParser) maxDepth() int {
	if ap.lim.MaxDepth > 0 {
		return ap.lim.MaxDepth
	}
	return value.DefaultLimits.MaxDepth
}

// tooDeep reports whether v nests deeper than max levels, v itself being
// the first; it stops as soon as it knows.
func tooDeep(v value.Value, max int) bool {
	if max <= 0 {
		return true
	}
	switch v.Kind() {
	case value.Object:
		for _, m := range v.Members() {
			if k := m.Value.Kind(); (k == value.Object || k == value.Array) && tooDeep(m.Value, max-1) {
				return true
			}
		}
	case value.Array:
		for _, e := range v.Elems() {
			if k := e.Kind(); (k == value.Object || k == value.Array) && tooDeep(e, max-1) {
				return true
			}
		}
	}
	return false
}

func (ap argParser) parse(s string) (value.Value, error) { return ap.p.Parse(s, ap.lim) }

func extract(r value.Value, f Format, lim argParser) ([]Call, Format, error) {
	var p plan
	var err error
	switch f {
	case Auto:
		p, err = detect(r)
	case OpenAI, Responses, Anthropic, Gemini, Calls:
		p, err = force(r, f)
	default:
		return nil, f, unknownFormat(string(f))
	}
	if err != nil {
		return nil, f, err
	}
	// Two passes over the same elements, so that the result is allocated
	// once at its exact size.
	n := p.count()
	if n == 0 {
		return nil, p.f, nil
	}
	calls := make([]Call, n)
	p.fill(calls, lim)
	return calls, p.f, nil
}

// plan is where the calls of a response are, found without allocating.
type plan struct {
	f      Format
	list   []value.Value // elements read by f's rules
	prefix string        // path of list in the response, for messages
	// one is a call object read after list: an openai message's legacy
	// function_call or a single calls object.
	one     value.Value
	hasOne  bool
	onePath string
	// bad, when set, says which container on the way to the calls has the
	// wrong type; the response is then one failed call.
	bad string
}

func detect(r value.Value) (plan, error) {
	switch r.Kind() {
	case value.Null, value.String:
		return plan{f: Auto}, nil
	case value.Array:
		elems := r.Elems()
		if len(elems) == 0 {
			return plan{f: Auto}, nil
		}
		for _, e := range elems {
			if f := elemFormat(e); f != Auto {
				return plan{f: f, list: elems}, nil
			}
		}
		return plan{}, &ShapeError{Found: describe(r)}
	case value.Object:
		f := objectFormat(r)
		if f == Auto {
			return plan{}, &ShapeError{Found: describe(r)}
		}
		return objectPlan(r, f), nil
	}
	return plan{}, &ShapeError{Found: describe(r)}
}

func force(r value.Value, f Format) (plan, error) {
	switch r.Kind() {
	case value.Null, value.String:
		return plan{f: f}, nil
	case value.Array:
		return plan{f: f, list: r.Elems()}, nil
	case value.Object:
		if fits(r, f) {
			return objectPlan(r, f), nil
		}
	}
	return plan{}, &ShapeError{Want: f, Found: describe(r)}
}

// objectFormat is the object table of the package doc.
func objectFormat(o value.Value) Format {
	switch {
	case o.Has("choices"):
		return OpenAI
	case o.Has("candidates"):
		return Gemini
	case isResponsesObject(o):
		return Responses
	case o.Has("tool_calls") || o.Has("function_call"):
		return OpenAI
	case o.Has("name") || o.Has("arguments"):
		return Calls
	case o.Has("parts"):
		return Gemini
	case contentIsArray(o):
		return Anthropic
	case o.Has("role") || o.Has("content"):
		return OpenAI
	}
	return Auto
}

// fits reports whether object o has one of f's shapes.
func fits(o value.Value, f Format) bool {
	switch f {
	case OpenAI:
		return o.Has("choices") || o.Has("tool_calls") || o.Has("function_call") ||
			((o.Has("role") || o.Has("content")) && !o.Has("parts") && !contentIsArray(o))
	case Responses:
		return isResponsesObject(o)
	case Anthropic:
		return contentIsArray(o)
	case Gemini:
		return o.Has("candidates") || o.Has("parts")
	}
	return o.Has("name") || o.Has("arguments") // Calls
}

func isResponsesObject(o value.Value) bool {
	if t, ok := o.Get("object"); ok && t.Kind() == value.String && t.Str() == "response" {
		return true
	}
	out, ok := o.Get("output")
	return ok && out.Kind() == value.Array
}

func contentIsArray(o value.Value) bool {
	c, ok := o.Get("content")
	return ok && c.Kind() == value.Array
}

// elemFormat is the element table of the package doc; Auto when e does not
// say.
func elemFormat(e value.Value) Format {
	if e.Kind() != value.Object {
		return Auto
	}
	if t, ok := e.Get("type"); ok && t.Kind() == value.String {
		switch t.Str() {
		case "function":
			return OpenAI
		case "function_call", "message", "reasoning":
			return Responses
		case "tool_use", "text", "thinking", "redacted_thinking":
			return Anthropic
		}
		// Another API's item with a name (Anthropic's server_tool_use, say)
		// must not make the list a calls list.
		return Auto
	}
	switch {
	case e.Has("function"):
		return OpenAI
	case e.Has("functionCall"):
		return Gemini
	case e.Has("name") || e.Has("arguments"):
		return Calls
	case e.Has("text"):
		return Gemini
	}
	return Auto
}

// objectPlan finds the calls of object o, which fits f.
func objectPlan(o value.Value, f Format) plan {
	switch f {
	case OpenAI:
		if choices, ok := o.Get("choices"); ok {
			return completionPlan(choices)
		}
		return messagePlan(o, "tool_calls", "function_call")
	case Responses:
		out, ok := o.Get("output")
		return listPlan(Responses, out, ok, "output")
	case Anthropic:
		c, _ := o.Get("content")
		return plan{f: Anthropic, list: c.Elems(), prefix: "content"}
	case Gemini:
		if cands, ok := o.Get("candidates"); ok {
			return candidatesPlan(cands)
		}
		parts, ok := o.Get("parts")
		return listPlan(Gemini, parts, ok, "parts")
	}
	return plan{f: Calls, one: o, hasOne: true}
}

// listPlan reads the list l found at path: absent or null is no calls,
// anything but an array is one failed call.
func listPlan(f Format, l value.Value, present bool, path string) plan {
	switch {
	case !present || l.Kind() == value.Null:
		return plan{f: f}
	case l.Kind() != value.Array:
		return plan{f: f, bad: path + " is " + kindPhrase(l) + ", not an array"}
	}
	return plan{f: f, list: l.Elems(), prefix: path}
}

func completionPlan(choices value.Value) plan {
	switch {
	case choices.Kind() != value.Array:
		return plan{f: OpenAI, bad: "choices is " + kindPhrase(choices) + ", not an array"}
	case choices.Len() == 0:
		return plan{f: OpenAI}
	}
	msg, ok := choices.Elems()[0].Get("message")
	if !ok || msg.Kind() != value.Object {
		return plan{f: OpenAI, bad: "choices[0] has no message object"}
	}
	return messagePlan(msg, "choices[0].message.tool_calls", "choices[0].message.function_call")
}

// messagePlan reads an openai message; the paths are constants so that
// the happy path does not build strings.
func messagePlan(msg value.Value, tcPath, fcPath string) plan {
	tc, ok := msg.Get("tool_calls")
	p := listPlan(OpenAI, tc, ok, tcPath)
	if p.bad != "" {
		return p
	}
	if fc, ok := msg.Get("function_call"); ok && fc.Kind() != value.Null {
		p.one, p.hasOne, p.onePath = fc, true, fcPath
	}
	return p
}

func candidatesPlan(cands value.Value) plan {
	switch {
	case cands.Kind() != value.Array:
		return plan{f: Gemini, bad: "candidates is " + kindPhrase(cands) + ", not an array"}
	case cands.Len() == 0:
		return plan{f: Gemini}
	}
	cand := cands.Elems()[0]
	if cand.Kind() != value.Object {
		return plan{f: Gemini, bad: "candidates[0] is " + kindPhrase(cand) + ", not an object"}
	}
	content, ok := cand.Get("content")
	switch {
	case !ok || content.Kind() == value.Null:
		return plan{f: Gemini}
	case content.Kind() != value.Object:
		return plan{f: Gemini, bad: "candidates[0].content is " + kindPhrase(content) + ", not an object"}
	}
	parts, ok := content.Get("parts")
	return listPlan(Gemini, parts, ok, "candidates[0].content.parts")
}

func (p *plan) count() int {
	if p.bad != "" {
		return 1
	}
	n := 0
	for _, e := range p.list {
		if emits(p.f, e) {
			n++
		}
	}
	if p.hasOne {
		n++
	}
	return n
}

func (p *plan) fill(out []Call, lim argParser) {
	if p.bad != "" {
		out[0] = Call{Err: &ArgumentsError{Index: 0, Reason: p.bad}}
		return
	}
	i := 0
	for j, e := range p.list {
		if !emits(p.f, e) {
			continue
		}
		out[i] = readElem(p.f, e, loc{p.prefix, j}, i, lim)
		i++
	}
	if p.hasOne {
		out[i] = readCall(p.one, loc{p.onePath, -1}, "", "arguments", textOrObject, i, lim)
	}
}

// emits reports whether element e of a list in format f stands for a call,
// well-formed or not.
func emits(f Format, e value.Value) bool {
	if e.Kind() != value.Object {
		return true
	}
	switch f {
	case Responses, Anthropic:
		t, ok := e.Get("type")
		return !ok || t.Kind() != value.String || isCallType(t.Str()) ||
			(t.Str() == "message" && holdsCall(e))
	case Gemini:
		return e.Has("functionCall") || e.Has("type") || e.Has("name") || e.Has("function")
	}
	return true
}

// holdsCall reports whether a message item's content holds a call block,
// which a Responses output message never does.
func holdsCall(e value.Value) bool {
	c, _ := e.Get("content")
	for _, b := range c.Elems() {
		if t, ok := b.Get("type"); ok && t.Kind() == value.String && isCallType(t.Str()) {
			return true
		}
	}
	return false
}

func isCallType(t string) bool {
	return t == "function_call" || t == "tool_use" || t == "function"
}

// loc is a place in the response, for messages; it becomes text only when
// a call fails.
type loc struct {
	prefix string
	index  int // -1: prefix names the place alone
}

func (l loc) at(sub string) string {
	s := l.prefix
	if l.index >= 0 {
		s += "[" + strconv.Itoa(l.index) + "]"
	}
	return join(s, sub)
}

func join(path, sub string) string {
	switch {
	case sub == "":
		return path
	case path == "":
		return sub
	}
	return path + "." + sub
}

// argMode is what a format allows as arguments.
type argMode uint8

const (
	textOrObject   argMode = iota // JSON text holding an object, or an object
	objectOnly                    // an object
	optionalObject                // an object, absent meaning {}
)

func readElem(f Format, e value.Value, at loc, i int, lim argParser) Call {
	if e.Kind() != value.Object {
		return fail(i, "", at.at("")+" is "+kindPhrase(e)+", not an object")
	}
	switch f {
	case OpenAI:
		fn, ok := e.Get("function")
		if !ok || fn.Kind() != value.Object {
			return fail(i, "", at.at("")+" has no function object")
		}
		return readCall(fn, at, "function", "arguments", textOrObject, i, lim)
	case Responses:
		if r := wrongType(e, "function_call", at, i); r != nil {
			return *r
		}
		return readCall(e, at, "", "arguments", textOrObject, i, lim)
	case Anthropic:
		if r := wrongType(e, "tool_use", at, i); r != nil {
			return *r
		}
		return readCall(e, at, "", "input", objectOnly, i, lim)
	case Gemini:
		fc, ok := e.Get("functionCall")
		if !ok {
			return fail(i, "", at.at("")+" is not a gemini part: it has no functionCall but a type, name or function key")
		}
		if fc.Kind() != value.Object {
			return fail(i, "", at.at("functionCall")+" is "+kindPhrase(fc)+", not an object")
		}
		return readCall(fc, at, "functionCall", "args", optionalObject, i, lim)
	}
	return readCall(e, at, "", "arguments", textOrObject, i, lim)
}

// wrongType fails an element of a typed list (responses, anthropic) whose
// type is missing or another format's call type; emits let only those and
// want through.
func wrongType(e value.Value, want string, at loc, i int) *Call {
	t, ok := e.Get("type")
	if !ok || t.Kind() != value.String {
		c := fail(i, "", at.at("")+" has no type")
		return &c
	}
	if t.Str() != want {
		c := fail(i, "", at.at("")+" is of type "+strconv.Quote(t.Str())+", not "+strconv.Quote(want))
		return &c
	}
	return nil
}

// readCall reads the name and the arguments of call object o, found at
// at.sub.
func readCall(o value.Value, at loc, sub, argKey string, mode argMode, i int, lim argParser) Call {
	if o.Kind() != value.Object {
		return fail(i, "", at.at(sub)+" is "+kindPhrase(o)+", not an object")
	}
	n, ok := o.Get("name")
	if !ok {
		return fail(i, "", at.at(join(sub, "name"))+" is missing")
	}
	if n.Kind() != value.String {
		return fail(i, "", at.at(join(sub, "name"))+" is "+kindPhrase(n)+", not a string")
	}
	name := n.Str()
	a, ok := o.Get(argKey)
	switch {
	case !ok && mode == optionalObject:
		return Call{Name: name, Args: emptyObject}
	case !ok:
		return fail(i, name, at.at(join(sub, argKey))+" is missing")
	case a.Kind() == value.Object:
		// An object (anthropic input, gemini args) came with the response
		// line, whose own limit is looser: hold it to the arguments limit
		// as if it had been a string.
		if d := lim.maxDepth(); tooDeep(a, d) {
			return Call{Name: name, Err: &ArgumentsError{Index: i,
				Reason: at.at(join(sub, argKey)) + " is not a usable JSON object",
				Err:    &value.Error{Reason: value.ReasonTooDeep, Detail: "more than " + strconv.Itoa(d) + " levels"}}}
		}
		return Call{Name: name, Args: a}
	case a.Kind() == value.String && mode == textOrObject:
		v, err := lim.parse(a.Str())
		if err != nil {
			return Call{Name: name, Err: &ArgumentsError{Index: i,
				Reason: at.at(join(sub, argKey)) + " is not a usable JSON object", Err: err}}
		}
		if v.Kind() != value.Object {
			return fail(i, name, at.at(join(sub, argKey))+" holds "+kindPhrase(v)+", not a JSON object")
		}
		return Call{Name: name, Args: v}
	case mode == textOrObject:
		return fail(i, name, at.at(join(sub, argKey))+" is "+kindPhrase(a)+", not a JSON string or object")
	}
	return fail(i, name, at.at(join(sub, argKey))+" is "+kindPhrase(a)+", not an object")
}

var emptyObject, _ = value.ObjectOf()

func fail(i int, name, reason string) Call {
	return Call{Name: name, Err: &ArgumentsError{Index: i, Reason: reason}}
}

func kindPhrase(v value.Value) string {
	switch v.Kind() {
	case value.Null:
		return "null"
	case value.Bool:
		return "a boolean"
	case value.Number:
		return "a number"
	case value.String:
		return "a string"
	case value.Array:
		return "an array"
	}
	return "an object"
}

// maxKeys bounds the keys a ShapeError lists, so that a huge object does not
// make a huge message.
const maxKeys = 10

// maxKeyLen bounds each key a ShapeError lists, for the same reason.
const maxKeyLen = 40

func clip(k string) string {
	if len(k) <= maxKeyLen {
		return k
	}
	i := maxKeyLen
	for i > 0 && !utf8.RuneStart(k[i]) {
		i--
	}
	return k[:i] + "…"
}

// describe says what a response that fits no format is.
func describe(r value.Value) string {
	switch r.Kind() {
	case value.Object:
		m := r.Members()
		if len(m) == 0 {
			return "an empty object"
		}
		var b strings.Builder
		b.WriteString("an object with keys [")
		for i, x := range m {
			if i == maxKeys {
				b.WriteString(" …")
				break
			}
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(clip(x.Key))
		}
		b.WriteByte(']')
		return b.String()
	case value.Array:
		return "an array of " + strconv.Itoa(r.Len()) + " elements, none of them a call or an item of a known format"
	}
	return kindPhrase(r)
}
