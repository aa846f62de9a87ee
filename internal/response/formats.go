package response

import (
	"strconv"
	"strings"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

// api is one response format that Options.Read reads: the core that every
// family of formats shares (its name, the item types that tell its lists,
// how an element of its lists is read) and the reader of its family. Each
// has a file of its own (openai.go, …) that declares its api value and
// the shapes and plans that the detection tables below name.
type api struct {
	name format.Format
	// itemTypes are the values of "type" that mark an item of this
	// format's lists; such a type decides a list's format alone, so no
	// two formats share one.
	itemTypes []string
	// typePrefix, when set, marks every "type" that starts with it as
	// this format's, as itemTypes does one by one.
	typePrefix string
	// emits reports whether object e, an element of a list in this
	// format, stands for a call, well-formed or not; the others (a text
	// block, a reasoning item) are passed over. A stream has none: its
	// reader reads its lists whole.
	emits func(e value.Value) bool
	// read reads object e, found at at, as call i.
	read func(x extraction, e value.Value, at loc, i int) Call
	// readRest reads an element of a plan's rest, the second list of
	// calls a message of this format may have.
	readRest func(x extraction, e value.Value, at loc, i int) Call
	// reader reads a whole response of the format as its family does
	// (reader.go).
	reader reader
}

// formats are the formats that Options.Read reads, in the order format.All
// lists them, and the formats of the element table.
var formats = [...]*api{
	&openaiFormat, &openaiStreamFormat,
	&responsesFormat, &responsesStreamFormat,
	&anthropicFormat, &anthropicStreamFormat,
	&geminiFormat,
	&bedrockFormat, &bedrockStreamFormat,
	&cohereFormat, &ollamaFormat, &langchainFormat, &mcpFormat,
	&callsFormat,
	&hermesFormat, &qwenCoderFormat, &llamaFormat, &mistralFormat,
	&deepseekFormat, &harmonyFormat, &pythonicFormat,
	&openaiMessagesFormat, &anthropicMessagesFormat, &geminiContentsFormat, &langchainMessagesFormat,
	&otlpFormat,
}

// shape is a row of the object table: an object that passes is of format
// and has its calls where plan says, which may read them with the
// extraction's parser and limits. plan leaves plan.f to the caller.
type shape struct {
	api  *api
	is   func(o value.Value) bool
	plan func(o value.Value, x extraction) plan
}

// objectShapes is the detection table for an object, which the package
// doc and docs/formats.md show: with Auto the first row the object passes
// decides; a forced format takes the first of its own rows that the
// object passes. The order is the result, so a new row goes where the
// objects it should claim are not taken by an earlier one, and earlier
// rows' objects are not taken by it.
//
// The stream formats have no row: a stream is a list of events, or an SSE
// transcript, never one object.
var objectShapes = [...]shape{
	{&openaiFormat, hasChoices, completionPlan},
	// A Gemini SDK's response that ran the calls itself holds them in
	// its history, not in its candidate: a conversation.
	{&geminiContentsFormat, hasAFCHistory, afcPlan},
	{&geminiFormat, hasCandidates, candidatesPlan},
	// A whole conversation, as the request or state that holds it: no
	// response has these keys, so these rows take nothing from the
	// others. A Responses input goes before the output row, which would
	// read the output alone.
	{&responsesFormat, hasInputList, inputPlan},
	{&openaiMessagesFormat, isOpenAIMessages, messagesPlan},
	{&anthropicMessagesFormat, isAnthropicMessages, messagesPlan},
	{&langchainMessagesFormat, isLangChainMessages, messagesPlan},
	{&geminiContentsFormat, hasContentsList, contentsPlan},
	{&responsesFormat, isResponsesObject, outputPlan},
	{&bedrockFormat, hasOutputObject, conversePlan},
	{&cohereFormat, isCohereResponse, cohereResponsePlan},
	{&ollamaFormat, isOllamaResponse, messageCallsPlan},
	// A LangChain message has tool_calls, a null name and, from
	// langchain-anthropic, an array content: it goes before the rows
	// that claim those.
	{&langchainFormat, isLangChainMessage, langchainPlan},
	{&mcpFormat, isJSONRPC, requestPlan},
	// A Cohere message is an openai message with a tool plan.
	{&cohereFormat, hasToolPlan, toolCallsPlan},
	{&openaiFormat, hasCalls, messagePlan},
	{&callsFormat, isCallObject, callPlan},
	{&geminiFormat, hasParts, partsPlan},
	{&geminiFormat, isCandidate, candidatePlan},
	{&bedrockFormat, isBedrockMessage, contentPlan},
	{&anthropicFormat, contentIsArray, contentPlan},
	// A trace export has resourceSpans and none of the keys above, so
	// that the responses of other formats never pay for this row.
	{&otlpFormat, isOTLPExport, tracePlan},
	{&openaiFormat, isTextMessage, messagePlan},
	// Last: the feedback on a blocked prompt claims only an object that
	// no row above reads (a conversation may carry it beside its calls).
	{&geminiFormat, hasPromptFeedback, blockedPlan},
}

// forcedShapes are rows that only a forced format tries, after its rows
// of objectShapes, so that Auto never reads an object by them: what no
// row of objectShapes takes is in no known shape. A forced conversation
// format reads any messages list by its own rules, as it reads any
// array, where Auto lets the list's messages decide which format holds
// it.
var forcedShapes = [...]shape{
	// A forced cohere or ollama takes a message shaped as openai's.
	{&cohereFormat, isMessage, toolCallsPlan},
	{&ollamaFormat, isMessage, toolCallsPlan},
	// A text format reads the content of an openai completion or
	// message, which Auto reads as openai.
	{&hermesFormat, holdsText, textPlan},
	{&qwenCoderFormat, holdsText, textPlan},
	{&llamaFormat, holdsText, textPlan},
	{&mistralFormat, holdsText, textPlan},
	{&deepseekFormat, holdsText, textPlan},
	{&harmonyFormat, holdsText, textPlan},
	{&pythonicFormat, holdsText, textPlan},
	{&openaiMessagesFormat, hasMessagesList, messagesPlan},
	{&anthropicMessagesFormat, hasMessagesList, messagesPlan},
	{&langchainMessagesFormat, hasMessagesList, messagesPlan},
}

// itemKeys is the detection table for a list element that has no string
// "type" (one that has one is decided by the formats' itemTypes): the
// first row whose key the element has (holding the string is, when set)
// decides. A weak row decides only when no element of the list decides
// by another row: a bare text part is Gemini's and Bedrock's alike.
var itemKeys = [...]struct {
	key  string
	is   string
	api  *api
	weak bool
}{
	{key: "jsonrpc", api: &mcpFormat},
	{key: "object", is: "chat.completion.chunk", api: &openaiStreamFormat},
	{key: "contentBlockStart", api: &bedrockStreamFormat},
	{key: "contentBlockDelta", api: &bedrockStreamFormat},
	{key: "contentBlockStop", api: &bedrockStreamFormat},
	{key: "messageStart", api: &bedrockStreamFormat},
	{key: "messageStop", api: &bedrockStreamFormat},
	{key: "function", api: &openaiFormat},
	{key: "functionCall", api: &geminiFormat},
	{key: "function_call", api: &geminiFormat},
	{key: "toolUse", api: &bedrockFormat},
	{key: "name", api: &callsFormat},
	{key: "arguments", api: &callsFormat},
	{key: "text", api: &geminiFormat, weak: true},
	// Gemini's code execution parts, which a parts list may hold alone.
	{key: "executableCode", api: &geminiFormat, weak: true},
	{key: "codeExecutionResult", api: &geminiFormat, weak: true},
	{key: "executable_code", api: &geminiFormat, weak: true},
	{key: "code_execution_result", api: &geminiFormat, weak: true},
}

// lookup returns the format named f, or nil.
func lookup(f format.Format) *api {
	for _, ft := range formats[:] {
		if ft.name == f {
			return ft
		}
	}
	return nil
}

// detect finds the format and the calls of r by its shape, and puts
// them in *p, which is zero. A string is a text answer unless it is an
// SSE transcript of a stream format's events.
func detect(p *plan, r value.Value, x extraction) error {
	switch r.Kind() {
	case value.Null:
		return nil
	case value.String:
		t := readTranscript(r.Str())
		if t.bad != "" {
			return &ShapeError{Found: t.bad}
		}
		if !t.ok {
			if f := textFormatOf(r.Str()); f != nil {
				p.f, p.text = f, r
				return nil
			}
			if found := encodedCalls(r.Str(), x); found != "" {
				return &ShapeError{Found: found}
			}
			return nil
		}
		evs := sseEventsFrom(t.body, t.line, x)
		for _, ev := range evs {
			if f, _ := itemFormat(ev.v); f != nil && f.isStream() {
				p.f, p.events = f, evs
				return nil
			}
		}
		return &ShapeError{Found: "an SSE transcript of " + strconv.Itoa(len(evs)) + " events, none of them of a known stream"}
	case value.Array:
		elems := r.Elems()
		if len(elems) == 0 {
			return nil
		}
		if f, _ := listFormat(elems); f != nil {
			p.listOf(f, elems, "")
			return nil
		}
	case value.Object:
		// The tables are ranged over as slices: ranging over the array
		// itself would copy all of it on every response.
		for _, s := range objectShapes[:] {
			if s.is(r) {
				*p = s.plan(r, x)
				p.f = s.api
				return nil
			}
		}
	}
	return &ShapeError{Found: Describe(r)}
}

// encodedCalls says what s, a response that is a string, is when it is
// the JSON text of a response of a known shape that holds calls: a
// response encoded twice, as a harness that stores a client's
// model_dump_json() writes it. Read as an answer in words, its calls
// would vanish and a case that expects none pass. "" when it is no such
// text: an answer in words, or JSON of no known shape (an {"answer": ...}
// object), or a bare call or list of calls, or of a shape without calls.
func encodedCalls(s string, x extraction) string {
	return encodedCallsIn(s, x, 3)
}

// callKeys are keys that only a call of some API has, for a text that
// does not read as JSON.
var callKeys = [...]string{`"tool_calls"`, `"toolCalls"`, `"function_call"`, `"functionCall"`, `"tool_use"`, `"toolUse"`}

// encodedCallsIn is encodedCalls for a text encoded up to depth times
// more: a JSON string that holds the JSON is decoded again.
func encodedCallsIn(s string, x extraction, depth int) string {
	s = strings.TrimPrefix(strings.TrimLeft(s, " \t\n\r"), "\ufeff")
	s = strings.TrimLeft(s, " \t\n\r")
	if s == "" {
		return ""
	}
	if s[0] == '"' && depth > 1 {
		if v, err := x.parse(s); err == nil && v.Kind() == value.String {
			return encodedCallsIn(v.Str(), x, depth-1)
		}
		return ""
	}
	if s[0] != '{' && s[0] != '[' {
		return ""
	}
	v, err := x.parse(s)
	if err != nil {
		// JSON lines, or JSON that does not read (NaN, a key written
		// twice): its first line may be a response, and a call's key
		// says what it is; read as words, its calls would vanish.
		if line, _, more := strings.Cut(s, "\n"); more {
			if why := encodedCallsIn(line, x, 1); why != "" {
				return why + ", on the first of several lines"
			}
		}
		for _, k := range callKeys {
			if strings.Contains(s, k) {
				return "a string that begins as JSON, does not read as JSON (" + err.Error() + "), and holds " + k + ": a response encoded twice, or broken"
			}
		}
		return ""
	}
	var p plan
	if detect(&p, v, x) != nil || p.f == nil || p.f.name == format.Calls {
		// A {"name": ..., "parameters": ...} text is llama-json's, which
		// Auto reads only when forced, like an answer that quotes JSON
		// (docs/formats.md); an API's response has keys of its own.
		return ""
	}
	calls, err := p.reader().calls(p, x, format.Auto, nil)
	if err == nil && len(calls) == 0 {
		return ""
	}
	n := strconv.Itoa(len(calls)) + " calls"
	if len(calls) == 1 {
		n = "1 call"
	}
	return "a string that holds " + string(p.f.name) + " JSON with " + n + " (a response encoded twice: decode it once more)"
}

// force reads r as format f into *p, which is zero: an object must pass
// one of f's rows; an array is read element by element, or as the events
// of f's stream; a string is a text answer, or for a stream format its
// SSE transcript.
func force(p *plan, r value.Value, f *api, x extraction) error {
	switch r.Kind() {
	case value.Null:
		p.f = f
		return nil
	case value.String:
		t := readTranscript(r.Str())
		if t.bad != "" {
			return &ShapeError{Want: f.name, Found: t.bad}
		}
		if f.isText() && !t.ok {
			p.f, p.text = f, r
			return nil
		}
		if t.ok {
			if f.isStream() {
				p.f, p.events = f, sseEventsFrom(t.body, t.line, x)
				return nil
			}
			// A recorded stream is no answer in words: read as one, the
			// calls in it would vanish, and a case expecting none pass.
			return &ShapeError{Want: f.name, Found: "an SSE transcript (a recorded stream; its stream format reads it)"}
		}
		if found := encodedCalls(r.Str(), x); found != "" {
			return &ShapeError{Want: f.name, Found: found}
		}
		p.f = f
		return nil
	case value.Array:
		elems := r.Elems()
		// (calls reads each element as a call, failing where it is none.)
		if len(elems) > 0 && !f.isStream() && f.name != format.Calls {
			// A recorded stream kept as a list of its events: read item
			// by item under f, its calls would vanish (the events are no
			// items of f) and a case that expects none pass. Its first
			// event says so, as the string of an SSE transcript does.
			if g, rank := itemFormat(elems[0]); g != nil && g != f && g.isStream() && rank == decides {
				return &ShapeError{Want: f.name, Found: "a list of " + string(g.name) + " events (a recorded stream; its stream format reads it)"}
			}
			// Gemini's streamGenerateContent chunks, whole responses,
			// which gemini's list reading (of parts, text ones passed
			// over) would pass over too.
			if elems[0].Kind() == value.Object && hasCandidates(elems[0]) {
				return &ShapeError{Want: f.name, Found: "a list of gemini responses (streamGenerateContent chunks, which callgrade does not join into one response)"}
			}
		}
		p.listOf(f, elems, "")
		return nil
	case value.Object:
		for _, s := range objectShapes[:] {
			if s.api == f && s.is(r) {
				*p = s.plan(r, x)
				p.f = f
				return nil
			}
		}
		for _, s := range forcedShapes[:] {
			if s.api == f && s.is(r) {
				*p = s.plan(r, x)
				p.f = f
				return nil
			}
		}
	}
	return &ShapeError{Want: f.name, Found: Describe(r)}
}

// listFormat is the format of the list elems, from the first element
// that says which format it belongs to; a message that a role tells
// (openai's or anthropic's) decides only when no element decides by its
// type or keys, and one that says no more than its role only when no
// message says more. rank is how the list was told.
func listFormat(elems []value.Value) (f *api, rank itemRank) {
	var best *api
	bestRank := noRank
	for _, e := range elems {
		g, r := itemFormat(e)
		switch {
		case g == nil:
		case r == decides:
			return g, r
		case r < bestRank:
			best, bestRank = g, r
		}
	}
	return best, bestRank
}

// itemRank is how surely a list element tells its list's format: the
// lowest rank among the elements decides, the first element of that rank
// winning.
type itemRank uint8

const (
	decides  itemRank = iota // a type or key of one format's items
	byRole                   // a message whose shape tells its API
	byRoleOf                 // a message that says no more than its role
	weakly                   // a key two formats share (a bare text part)
	noRank
)

// itemFormat is the format list element e says it belongs to, or nil,
// and how surely. A message (a role, or Gemini's parts) is told by its
// messageShape, before the keys of itemKeys, since a chat message may
// have a name; one with arguments is a call that also has a role.
func itemFormat(e value.Value) (f *api, rank itemRank) {
	if e.Kind() != value.Object {
		return nil, noRank
	}
	// One walk of the members for the keys that tell a message, and
	// its messageShape: every element of a list is asked
	// this.
	var s messageShape
	var hasRole, args bool
	ms := e.Members()
	for i := range ms {
		switch v := ms[i].Value; ms[i].Key {
		case "type":
			if v.Kind() == value.String {
				return typeFormat(v.Str()), decides
			}
		case "role":
			hasRole, s.role = true, v
		case "parts":
			s.parts = true
		case "arguments":
			args = true
		case "tool_calls", "tool_call_id", "function_call":
			s.openai = true
		case "content":
			s.content = v
		}
	}
	if (hasRole || s.parts) && !args {
		return s.format()
	}
	for _, k := range itemKeys[:] {
		if v, ok := e.Get(k.key); ok && (k.is == "" || v.Kind() == value.String && v.Str() == k.is) {
			if k.weak {
				return k.api, weakly
			}
			return k.api, decides
		}
	}
	return nil, noRank
}

// typeFormat is the format whose items are of type t, or nil: another
// API's item with a name (Anthropic's server_tool_use, say) must not
// make the list a calls list.
func typeFormat(t string) *api {
	for _, f := range formats[:] {
		for _, it := range f.itemTypes {
			if t == it {
				return f
			}
		}
		if f.typePrefix != "" && strings.HasPrefix(t, f.typePrefix) {
			return f
		}
	}
	return nil
}
