// Package response reads the tool calls out of one model response, whatever
// API produced it, so that the scorer compares structure and never text.
// Options.Read reads a response as a run: a conversation's calls with
// their results and the answer it ends with, or a single response as a
// run of one turn. Options.ReadCalls reads the calls alone, for a caller
// that reads response after response and can drop each one's calls
// before the next. NewReader opens the responses file they come in,
// compressed or not.
//
// # Detection
//
// With Auto, a response is recognised by its shape alone, and the first
// matching row wins. An object is tested against these rows, in order:
//
//	object has                                        format     calls are read from
//	choices                                           openai     choices[0].message (as below)
//	candidates and automatic_function_calling_history gemini-contents  the history, then
//	(or automaticFunctionCallingHistory), not empty   candidates[0].content, a conversation
//	candidates                                        gemini     candidates[0].content.parts
//	an input array                                    responses  input, then output: a run
//	a messages array that the list table below tells  openai-messages, anthropic-messages
//	(a list of plain messages beside a system key is  or langchain-messages: messages,
//	anthropic's; an empty one openai's)               a conversation
//	a contents array                                  gemini-contents  contents, a conversation
//	object: "response", or an output array            responses  output
//	an output object                                  bedrock    output.message.content
//	a message object and finish_reason                cohere     message.tool_calls
//	a message object and done                         ollama     message.tool_calls
//	type "ai" or "AIMessageChunk", an AIMessage
//	constructor (lc), or invalid_tool_calls           langchain  tool_calls, then invalid_tool_calls
//	jsonrpc                                           mcp        params, of a tools/call request
//	tool_plan                                         cohere     tool_calls
//	tool_calls or function_call                       openai     tool_calls, then function_call
//	arguments, or name without role or parts          calls      the object itself
//	parts                                             gemini     parts
//	a content object with parts (a candidate alone)   gemini     content.parts
//	content: blocks without a type, each with a
//	key of Converse's (text, toolUse, …)              bedrock    content
//	content that is an array                          anthropic  content
//	resourceSpans                                     otlp       an OTLP/JSON trace export: a run
//	role or content (content text or null)            openai     (a text answer: no calls)
//	promptFeedback (a blocked prompt)                 gemini     (no calls)
//	anything else                                     *ShapeError
//
// A non-empty array is read in the format of its first element that says
// which format it belongs to; elements that say nothing (not an object, or
// an object with an unknown "type") are passed over when deciding, and then
// read by that format's rules like the others. An element with only a text
// key (of those below) is a Gemini part or a Bedrock block alike, and
// decides only when no other element does. A message (an element with no
// type and a role or parts, and no arguments) decides only when no element
// decides by its type or keys, and a message that says no more than its
// role (a user's or assistant's text) only when no message says more:
//
//	element                                           format
//	type "function", or no type and a function key    openai     (a tool_calls list)
//	type "function_call", "custom_tool_call",
//	"message" or "reasoning", or a built-in tool's
//	item ("web_search_call", "mcp_call", …)           responses  (an output list)
//	type "function_call_output"                       responses  (a run)
//	type "human", "ai", "tool", "system", "chat",
//	"generic", "remove", "constructor" or a
//	chunk's ("AIMessageChunk", …)                     langchain-messages
//	no type, and parts or role "model"                gemini-contents
//	no type, a role, and tool_calls, tool_call_id or
//	function_call, or the role tool, function,
//	developer or system, or an openai content part
//	(image_url, input_audio, file, refusal)           openai-messages
//	no type, a role, and an anthropic content block
//	(tool_use, tool_result, thinking, image, …)       anthropic-messages
//	no type, a role and text alone                    openai-messages  (unless another message says more)
//	no type, a role, and content blocks without a
//	type (Bedrock Converse's)                         says nothing
//	type "tool_use", "text", "thinking" or
//	"redacted_thinking", or a server tool's block
//	("server_tool_use", "web_search_tool_result", …)  anthropic  (a content list)
//	type "tool_call" or "invalid_tool_call"           langchain  (a tool_calls list)
//	type "response.…"                                 responses-stream
//	type "message_start", "content_block_start",
//	"content_block_delta", "content_block_stop",
//	"message_delta" or "message_stop"                 anthropic-stream
//	no type, and a jsonrpc key                        mcp        (a batch)
//	no type, and object "chat.completion.chunk"       openai-stream
//	no type, and a contentBlockStart,
//	contentBlockDelta, contentBlockStop,
//	messageStart or messageStop key                   bedrock-stream
//	no type, and a functionCall or function_call key  gemini     (a parts list)
//	no type, and a toolUse key                        bedrock    (a content list)
//	no type, and a name or arguments key              calls
//	no type, and a text, executableCode or
//	codeExecutionResult key                           gemini     (unless another element decides)
//	no element says anything                          *ShapeError
//
// A string "type" decides alone: {"type": "function", "name": …,
// "arguments": …} is an openai entry without a function object, which is a
// failed call; force Calls to read such lists. A response that is null, a
// string (a plain text answer) or an empty array has zero calls, whatever
// the format; Auto then reports Auto as the format read. Numbers and
// booleans are a *ShapeError in every format.
//
// The exceptions are two kinds of string. One is an SSE transcript: every
// line blank, a comment (":…") or a field "data:", "event:", "id:" or
// "retry:", and the first data a JSON object. Its events, each its data
// parsed, decide the stream format as an array's elements do; a transcript
// whose events are of no stream is a *ShapeError. A byte order mark and a
// recorded HTTP response head (curl -i's) before it are skipped; a head
// whose status is not 2xx, or whose body is no transcript, and any other
// text before or among a stream's events (a data: line holding an event
// of a stream format) are a *ShapeError, never a text answer. The other is a model's
// raw text that holds a special token of a text format (see below); the
// first such marker in the text that starts a call of its format decides
// (one that prose names is passed over, as is the model's <think> block):
//
//	marker                                            format
//	<tool_call>, then {, [ or ```                     hermes
//	<tool_call>, then <function=                      qwen-coder
//	<|python_tag|>                                    llama-json
//	[TOOL_CALLS]                                      mistral
//	<｜tool▁calls▁begin｜> or <｜tool▁call▁begin｜>       deepseek
//	<|channel|> or <|start|>, and <|message|>         harmony
//	<|python_start|>                                  pythonic
//
// A forced format accepts an object that matches one of its own rows of the
// object table, each row read on its own (the openai text-answer row then
// also asks for no parts and content that is text or null; forced cohere
// and ollama also take an openai-shaped message, with a role or
// tool_calls and such a content; a forced text format, an openai
// completion or message whose text it reads), and any array, read element by element by that format's
// rules. A forced stream format takes an array or an SSE transcript, read
// as its events, and no object; any other forced format takes no SSE
// transcript (a *ShapeError), so that a recorded stream's calls never
// vanish into a text answer.
//
// # What counts as a call
//
// In openai, cohere, ollama, langchain and calls lists every element is a
// call. In responses and anthropic lists an object whose type is some other
// string ("message", "text", "reasoning", …) is skipped, but an element
// with no type, or with the call type of another format ("function",
// "function_call", "tool_use"), is a failed call: a call from another API
// must not vanish silently. So is a call of a kind no format reads: a
// Responses custom_tool_call, an item whose type ends in _call (shell_call;
// the built-in tools' items, web_search_call and the like, are skipped),
// and an item of a type no format knows with a name and an input. Such a
// failed call keeps its name. For the same reason a "message" item whose
// content holds a call block (an Anthropic message put in a list) is a
// failed call, not skipped. Likewise a gemini part or a bedrock block
// without functionCall or toolUse is skipped unless it has the other's
// key, or a type, name or function key. In an mcp batch, JSON-RPC
// messages other than tools/call requests are skipped; anything else is a
// failed call.
//
// LangChain's invalid_tool_calls are the calls it could not parse: each
// is a failed call, with LangChain's error and the args it was given.
//
// Only choices[0] of a chat completion and candidates[0] of a Gemini
// response are read, as a scorer reads the one answer a model gave. A
// completion with no choices, a candidate with no content (Gemini omits it
// when it blocks an answer) and content with no parts are zero calls; a
// container of the wrong type on the way to the calls (choices that is not
// an array, a choice with no message, tool_calls that is a string) is one
// failed call, so the response can never pass.
//
// Arguments are JSON text in openai, responses, cohere and calls, and are
// parsed with the caller's value.Limits; they must be exactly one JSON
// object. An arguments value that is already an object is accepted as
// well, because some SDKs decode it before the response is written out.
// Anthropic input, Gemini args, Bedrock input, Ollama arguments, LangChain
// args and MCP arguments must be objects. Gemini leaves args out of a call
// that has no arguments, and MCP arguments are optional, so there no
// arguments are the empty object; an explicit null is still an error.
//
// # Conversations
//
// A response may be a whole conversation: OpenAIMessages,
// AnthropicMessages, GeminiContents and LangChainMessages, each as a list
// or as the request or state that holds it, and a Responses run (its
// input and output items, or an item list with a function_call_output).
// ReadCalls returns the calls of all the model's turns in order, so that
// an ordinary case scores them; Read returns them as a Run's steps, each
// with:
//
//   - ID: the call's id (tool_calls id, tool_use id, call_id, a
//     functionCall's or tool_call's id), "" without one;
//   - Turn: the index of the model's message that made it, counting the
//     model's messages alone from 0 (in a Responses run, the model's items
//     that follow each other are one turn);
//   - Result: what the tool returned, paired by its id (tool_call_id,
//     tool_use_id, call_id, a functionResponse id) with the latest call of
//     that id; without an id, a result with a name (a Gemini
//     functionResponse, a legacy function message) answers the first call
//     of that name in the last turn that has none yet, and one without
//     answers by its place: the n-th result after a turn answers the
//     turn's n-th call. A result whose id no call has pairs by place only
//     with a call that has no id; a result that pairs with nothing, or
//     with a call already answered (the first result wins), is passed over.
//     Text that is JSON is parsed, within the arguments' limits (text that
//     does not parse, repeats a key or is too large stays a string); a
//     list of text blocks is their text joined with nothing between; a
//     Gemini response object, or a list of blocks without text, is kept
//     as it is;
//   - Error: the tool reported an error: Anthropic's is_error,
//     LangChain's status "error", a Gemini response with an "error" key
//     (the key Gemini's documentation asks a failed function to answer
//     with). OpenAI's chat and Responses APIs have no such flag.
//
// The Run's Final is the text of the model's last message when it comes
// after the last call and has text and no calls (in a Responses run, an
// assistant message item after the last function_call, in a turn that
// makes no call). A single response
// is a run of one turn whose Final is its text answer when it has no
// calls: an openai message's content, Anthropic's text blocks or
// Gemini's text parts joined (thoughts aside), a Responses output's
// output_text, a plain string.
//
// Each message is read by its role: the model's ("assistant", Gemini's
// "model", LangChain's "ai") for calls and text, a tool's for results
// (openai's "tool" and "function", Anthropic's tool_result blocks in a
// "user" message, Gemini's functionResponse parts, LangChain's "tool"),
// and any other is passed over, unless it holds something shaped as a
// call, which is then a failed step rather than a call that vanishes. A
// call that does not read is its step's failed call, whose message names
// the message and the place in it (messages[3].tool_calls[0].function.
// arguments). A conversation with an element that is not an object is a
// *ShapeError: its turns and pairing would be in doubt. A Responses list
// keeps the rules of its output items (a non-object item is a failed
// call).
//
// # Text
//
// A text format reads the calls a model wrote out in its raw text, as the
// tool parsers of inference servers read them: see Hermes, QwenCoder,
// LlamaJSON, Mistral, DeepSeek, Harmony and Pythonic. The text is a
// response that is a string or, when the format is forced, the content of
// an openai completion or message (Auto reads those as openai), or the
// text of a legacy completion. Text around the calls is the answer's and
// is passed over. A call that does not read (a block never closed, JSON
// that does not parse, a syntax the format does not have) is a failed
// call whose message gives its span in the text, as text[from:to], and
// quotes it; calls the server already parsed into tool_calls are failed
// calls too, since they are openai's. Every block that starts a call is
// read. The <think> blocks a text begins with are neither calls nor
// answer, and harmony's answer is its final channel's message.
// Qwen3-Coder's parameter values are text, typed by the tool's schema,
// which Options.Params gives, as vLLM types them.
//
// # Streams
//
// A stream format puts its calls together as the API's client does, from
// the events of a recorded stream, in the order the calls began: see
// OpenAIStream, ResponsesStream, AnthropicStream and BedrockStream. A call
// that never gets its stop event, or whose argument fragments do not make
// one JSON object, is a failed call whose message quotes the span or the
// fragment at fault; an event that does not read (an SSE data that is not
// JSON, say) fails the calls it leaves open, or is a failed call itself. A
// stream that ends without its terminal event (message_stop,
// response.completed, messageStop, a finish_reason) broke off, and is a
// failed call of its own, even when cut between two calls.
package response

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/internal/jsontext"
	"github.com/callgrade/callgrade/internal/jsonv"
	"github.com/callgrade/callgrade/value"
)

// Call is one tool call read from a response.
type Call struct {
	Name string
	Args value.Value // the arguments object; meaningful only when Err == nil
	Err  error       // why this call's arguments are unusable (becomes an invalid_arguments diff); nil when fine
}

// ShapeError means the response as a whole is in no shape Options.Read knows, or
// not in the shape of the format it was told to read. No call can be read
// from it, so a caller reports it against the response, not a call.
type ShapeError struct {
	Want  format.Format // the forced format; Auto when detecting
	Found string        // what the response is, e.g. "an object with keys [a b]"
	// Fits is the format detection reads the response as, when it is not
	// Want: the format to force instead. Auto when none is.
	Fits format.Format
}

// Error says what was found and what was wanted, and which format fits.
func (e *ShapeError) Error() string {
	want := "a known format"
	if d := format.Description(e.Want); d != "" {
		want = d
	}
	msg := "response is " + e.Found + ", not " + want
	if e.Fits != format.Auto {
		msg += "; it" + readsAs(e.Fits)
	}
	return msg
}

// readsAs is the end of a message about a response forced to a format
// that does not fit it, naming fits, the one that does.
func readsAs(fits format.Format) string {
	return " reads as " + string(fits) + ": use --format " + string(fits) + " or auto"
}

// fitting returns the format detection reads r as, when it is another
// than the forced f and reads some call or answer; Auto otherwise. It is
// for the messages of responses that f does not fit.
func fitting(r value.Value, f format.Format, x extraction) format.Format {
	var p plan
	if f == format.Auto || detect(&p, r, x) != nil || p.f == nil || p.f.name == f {
		return format.Auto
	}
	return p.f.name
}

// hintFitting adds to each call of calls, read from r forced to f, that
// failed for its shape (not for arguments that do not parse), the format
// detection reads r as, when it is another: a list whose elements are
// another format's (a conversation forced to openai) fails call by call,
// and each failure then says which format fits.
func hintFitting(calls []Call, r value.Value, f format.Format, x extraction) {
	if f == format.Auto {
		return
	}
	fits := format.Auto
	for i := range calls {
		ae, ok := calls[i].Err.(*ArgumentsError)
		if !ok || ae.Err != nil {
			continue
		}
		if fits == format.Auto {
			if fits = fitting(r, f, x); fits == format.Auto {
				return
			}
		}
		ae.Reason += "; the response" + readsAs(fits)
	}
}

// ArgumentsError is why one call cannot be scored: its name or arguments
// are missing, of the wrong type or do not parse, or (as the only call of
// the response) the container that should hold the calls is malformed, so
// that a broken response fails rather than passes as "no calls". When the
// arguments string
// failed to parse, Err is the *value.Error, so errors.Is(err,
// value.ErrDuplicateKey) and its siblings tell the reasons apart.
type ArgumentsError struct {
	Index  int    // the call's position among the calls of the response
	Reason string // what is wrong, and where in the response
	Err    error  // the parse error, when there is one
	// NotEvaluable, when not "", says why the response as a whole holds
	// nothing to score, as Run.NotEvaluable does: the scorer fails its
	// case as not evaluable rather than for this call.
	NotEvaluable string
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

// extraction is what reading the calls of a response needs besides the
// response. Options that a format of its own needs (say, tool schemas to
// type the parameters of calls written out as text) belong here, so that
// every format's read gets them.
type extraction struct {
	lim value.Limits
	p   *value.Parser // nil: each arguments string gets memory of its own
	// params are the tools' parameters schemas by tool name, which type
	// the parameters of calls written out as text (Options.Params).
	params map[string]value.Value
	// onMatch, when set, hears of each result a conversation pairs with
	// a call, so that a test can check the pairing against the rules.
	onMatch func(step int, m match)
	// skipResults is Options.SkipResults.
	skipResults bool
}

// maxDepth is the nesting an arguments object may have.
func (x extraction) maxDepth() int {
	if x.lim.MaxDepth > 0 {
		return x.lim.MaxDepth
	}
	return jsontext.DefaultMaxDepth
}

func (x extraction) parse(s string) (value.Value, error) { return x.p.Parse(s, x.lim) }

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

// extract reads the calls of r, into dst when it has room (see
// Options.Calls).
func extract(r value.Value, f format.Format, x extraction, dst []Call) ([]Call, format.Format, error) {
	if f == format.Calls && r.Kind() == value.Array {
		// BFCL's responses are all read so: a list of call objects, each
		// element a call, which needs no plan, reader or emits to find.
		// FuzzCallList holds it to the general route.
		calls := readCallList(r.Elems(), &x, dst)
		for i := range calls {
			if calls[i].Err != nil {
				hintFitting(calls, r, f, x)
				break
			}
		}
		return calls, f, nil
	}
	return extractPlanned(r, f, x, dst)
}

// readCallList reads elems, a list forced to the calls format, as
// plan.listCalls reads it: every element is a call, which fails when it
// is not an object.
func readCallList(elems []value.Value, x *extraction, dst []Call) []Call {
	if len(elems) == 0 {
		return nil
	}
	calls := dst[:0]
	if cap(calls) < len(elems) {
		calls = make([]Call, len(elems))
	} else {
		// readCall writes each call whole, so the last response's calls
		// need no clearing.
		calls = calls[:len(elems)]
	}
	for i, e := range elems {
		calls[i] = readListed(e, i, x)
	}
	return calls
}

// readListed is readCall of e, the i-th element of a calls list. A call
// whose name is a string and whose arguments are a string (as BFCL's
// are) is read here, its keys compared with constants; any other goes
// to readCall.
func readListed(e value.Value, i int, x *extraction) Call {
	var n, a value.Value
	var hasName, hasArgs bool
	if ms := e.Members(); len(ms) == 2 && ms[0].Key == "arguments" && ms[1].Key == "name" {
		// The call of two members, in the order of an object's sorted
		// keys: most are.
		a, n, hasArgs, hasName = ms[0].Value, ms[1].Value, true, true
	} else {
		for _, m := range ms {
			switch m.Key {
			case "name":
				n, hasName = m.Value, true
			case "arguments":
				a, hasArgs = m.Value, true
			}
		}
	}
	if !hasName || !hasArgs || n.Kind() != value.String || a.Kind() != value.String {
		return readCall(e, loc{"", i}, "", "arguments", textOrObject, i, *x)
	}
	v, err := x.parse(a.Str())
	if err == nil && v.Kind() == value.Object {
		return Call{Name: n.Str(), Args: v}
	}
	return parsedArgs(n.Str(), v, err, loc{"", i}, "", "arguments", i)
}

// extractPlanned is extract by the general route: the plan of where r's
// calls are, and its format's reader.
func extractPlanned(r value.Value, f format.Format, x extraction, dst []Call) ([]Call, format.Format, error) {
	var p plan
	if err := planFor(&p, r, f, x); err != nil {
		return nil, f, err
	}
	calls, err := p.reader().calls(p, x, f, dst)
	if err != nil {
		return nil, f, err
	}
	hintFitting(calls, r, f, x)
	return calls, p.name(), nil
}

// planFor finds where the calls of r are, read as f, and puts them in
// *p, which is zero. The plan is filled in place, not returned: it is
// some two hundred bytes, which each return would copy again.
func planFor(p *plan, r value.Value, f format.Format, x extraction) error {
	if f == format.Auto {
		return detect(p, r, x)
	}
	if ft := lookup(f); ft != nil {
		err := force(p, r, ft, x)
		if se, ok := err.(*ShapeError); ok {
			se.Fits = fitting(r, f, x)
		}
		return err
	}
	return format.Error(f)
}

// listCalls reads the calls of p's list, each element by the format's
// emits and read (and rest by readRest), into dst when it has room: the
// reading that the families share.
func (p *plan) listCalls(x extraction, dst []Call) []Call {
	// Two passes over the same elements, so that the result is allocated
	// once at its exact size.
	n := p.count()
	if n == 0 {
		return nil
	}
	calls := dst[:0]
	if cap(calls) < n {
		calls = make([]Call, n)
	} else {
		calls = calls[:n]
		// fill writes each call whole; cleared anyway, a call it missed
		// would be empty, never the last response's
		clear(calls)
	}
	p.fill(calls, x)
	return calls
}

// plan is where the calls of a response are, found without allocating.
type plan struct {
	f *api // nil: Auto, and no calls
	// list are the elements read by f's rules, or a conversation's
	// messages (conv); prefix is their path in the response, for
	// messages.
	list   []value.Value
	prefix string
	// one is a call object of name and arguments read after list: an
	// openai message's legacy function_call or a single calls object.
	one     value.Value
	hasOne  bool
	onePath string
	// oneMode is what one's arguments may be: an MCP request's params
	// may leave them out.
	oneMode argMode
	// rest is a second list read after list by f.readRest: the calls
	// LangChain could not parse, which are failed calls; or the
	// messages of a conversation read after list, the output of a
	// Responses run after its input.
	rest       []value.Value
	restPrefix string
	// conv says the response is a whole conversation: list and rest are
	// its messages, read in order by the format's conversation reader
	// (run_conv.go). The messages are kept in the fields a response's
	// calls use, which a conversation does not, so that a plan, which
	// is passed by value on every response's path, need not grow or
	// point to memory of its own. moreOne says that rest is the one
	// message at restPrefix.
	conv, moreOne bool
	// emptyList says an openai message holds a tool_calls list with
	// nothing in it, which BFCL's reading takes for a message of no
	// calls and no text (singleBFCL).
	emptyList bool
	// events are the events of an SSE transcript, for a stream format;
	// a JSON array of events is list.
	events []event
	// bad, when set, says which container on the way to the calls has the
	// wrong type; the response is then one failed call. notEvaluable,
	// when set with it, says that the response holds nothing to score
	// (a trace recorded without its calls' content), and why.
	bad, notEvaluable string
	// text is what a text format reads its calls out of: the model's
	// text, or the completion or message whose content it is.
	text value.Value
	// trace is the OTLP export the response is, for a trace's reader;
	// null for any other response.
	trace value.Value
}

func (p *plan) name() format.Format {
	if p.f == nil {
		return format.Auto
	}
	return p.f.name
}

// listOf makes p, which is zero, read elems, a list of format f found at
// path: a conversation when f reads them (every list of a conversation
// format, a Responses list that holds a tool's output or an input
// message), else item by item. It sets the fields it needs rather than
// building a whole plan to copy into p.
func (p *plan) listOf(f *api, elems []value.Value, path string) {
	p.f = f
	if c, ok := f.reader.(conversation); ok && (c.isRun == nil || c.isRun(elems)) {
		p.conv = true
	}
	p.list, p.prefix = elems, path
}

// listPlan reads the list l found at path: absent or null is no calls,
// anything but an array is one failed call.
func listPlan(l value.Value, present bool, path string) plan {
	switch {
	case !present || l.Kind() == value.Null:
		return plan{}
	case l.Kind() != value.Array:
		return plan{bad: path + " is " + kindPhrase(l) + ", not an array"}
	}
	return plan{list: l.Elems(), prefix: path}
}

// firstOf returns the first element of the list at key of o, the one
// answer a scorer reads of the several a response may hold (choices,
// candidates). Without one, ok is false and p is the plan: no calls for
// an empty list, one failed call for anything but a list.
func firstOf(o value.Value, key string) (e value.Value, p plan, ok bool) {
	l, _ := o.Get(key)
	switch {
	case l.Kind() != value.Array:
		return value.Value{}, plan{bad: key + " is " + kindPhrase(l) + ", not an array"}, false
	case l.Len() == 0:
		return value.Value{}, plan{}, false
	}
	return l.Elems()[0], plan{}, true
}

func (p *plan) count() int {
	if p.bad != "" {
		return 1
	}
	n := 0
	for _, e := range p.list {
		if e.Kind() != value.Object || p.f.emits(e) {
			n++
		}
	}
	if p.hasOne {
		n++
	}
	return n + len(p.rest)
}

func (p *plan) fill(out []Call, x extraction) {
	if p.bad != "" {
		out[0] = Call{Err: &ArgumentsError{Index: 0, Reason: p.bad, NotEvaluable: p.notEvaluable}}
		return
	}
	i := 0
	for j, e := range p.list {
		at := loc{p.prefix, j}
		switch {
		case e.Kind() != value.Object:
			out[i] = fail(i, "", at.at("")+" is "+kindPhrase(e)+", not an object")
		case !p.f.emits(e):
			continue
		default:
			out[i] = p.f.read(x, e, at, i)
		}
		i++
	}
	if p.hasOne {
		out[i] = readCall(p.one, loc{p.onePath, -1}, "", "arguments", p.oneMode, i, x)
		i++
	}
	for j, e := range p.rest {
		out[i] = p.f.readRest(x, e, loc{p.restPrefix, j}, i)
		i++
	}
}

// every is emits for a format whose lists hold nothing but calls.
func every(value.Value) bool { return true }

// emitsTyped is emits for a list of typed items (responses, anthropic):
// an item whose type is some other string is passed over, but one with
// no type, or with a call type of any format, is a failed call, since a
// call from another API must not vanish silently. So is a "message" item
// whose content holds a call block, which a Responses output message
// never does.
func emitsTyped(e value.Value) bool {
	t, ok := e.Get("type")
	return !ok || t.Kind() != value.String || isUnknownCall(e) ||
		(t.Str() == "message" && holdsCall(e)) || heldByMessage(e)
}

// heldByMessage reports whether e is a message of some API (a role, parts,
// tool_calls, or LangChain's data or kwargs) that holds a call: a list of such
// messages read under a format it is not of (--format gemini on a
// conversation) must not lose its calls.
func heldByMessage(e value.Value) bool {
	if !e.Has("role") && !e.Has("parts") && !e.Has("data") && !e.Has("kwargs") && !e.Has("tool_calls") {
		return false
	}
	if heldCall(e) {
		return true
	}
	for _, k := range [...]string{"data", "kwargs"} {
		if d, ok := e.Get(k); ok && d.Kind() == value.Object && heldCall(d) {
			return true
		}
	}
	return false
}

func holdsCall(e value.Value) bool {
	c, _ := e.Get("content")
	for _, b := range c.Elems() {
		if t, ok := b.Get("type"); ok && t.Kind() == value.String && isCallType(t.Str()) {
			return true
		}
	}
	return false
}

// isCallType reports whether t is the type of a call item in a typed
// format: openai's tool_calls entries, responses' output items,
// anthropic's content blocks.
func isCallType(t string) bool {
	// custom_tool_call is a Responses call of a custom (free-form) tool:
	// not a function call, but a call the model made to the caller's
	// tool, which must fail rather than vanish; the built-in tools' calls
	// (web_search_call, …) run on the provider's side and are passed over.
	// Any other type that ends in _call (shell_call, apply_patch_call, a
	// LangChain tool_call) is a call of a kind no format here reads, which
	// fails for the same reason.
	switch t {
	case "function_call", "tool_use", "function", "custom_tool_call":
		return true
	}
	return strings.HasSuffix(t, "_call") && !slices.Contains(responsesBuiltins, t)
}

// isUnknownCall reports whether e, an item of a typed list, is a call of
// a type that no format knows: an Anthropic-style block with a name and an
// input, or an item whose type ends in _call (see isCallType). Such an
// item fails; passed over, a call would vanish.
func isUnknownCall(e value.Value) bool {
	t, ok := e.Get("type")
	if !ok || t.Kind() != value.String {
		return false
	}
	return isCallType(t.Str()) || e.Has("name") && e.Has("input") && !knownType(t.Str())
}

// itemTypes and typePrefixes are the item types of every format
// (api.itemTypes, api.typePrefix), for knownType; they are filled in
// init, since the formats' tables refer to the functions that read them.
var (
	itemTypes    = map[string]bool{}
	typePrefixes []string
)

func init() {
	for _, f := range formats {
		for _, t := range f.itemTypes {
			itemTypes[t] = true
		}
		if f.typePrefix != "" {
			typePrefixes = append(typePrefixes, f.typePrefix)
		}
	}
}

// knownType reports whether t is the type of an item of some format.
func knownType(t string) bool {
	if itemTypes[t] {
		return true
	}
	for _, p := range typePrefixes {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// typedCall fails an item of a typed list whose type is missing or not
// want, the format's call type; emitsTyped lets only those and calls
// through. A call of another type keeps its name, when it has one, so
// that a never entry or an unexpected call names the tool it called, as
// for a streamed one.
func typedCall(e value.Value, want string, at loc, i int) (Call, bool) {
	t, ok := e.Get("type")
	if !ok || t.Kind() != value.String {
		return fail(i, "", at.at("")+" has no type"), false
	}
	if t.Str() != want {
		return fail(i, stringAt(e, "name"), at.at("")+" is of type "+strconv.Quote(t.Str())+", not "+strconv.Quote(want)), false
	}
	return Call{}, true
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

// message is l.at(join(parts...)) + tail, written into one buffer: a
// failed call's message took a string for each join, and one more for
// the whole.
func (l loc) message(tail string, parts ...string) string {
	var buf [128]byte
	return string(append(l.appendAt(buf[:0], parts...), tail...))
}

// appendAt appends l.at of parts joined, each "" left out as join
// leaves it, to b.
func (l loc) appendAt(b []byte, parts ...string) []byte {
	start := len(b)
	b = append(b, l.prefix...)
	if l.index >= 0 {
		b = strconv.AppendInt(append(b, '['), int64(l.index), 10)
		b = append(b, ']')
	}
	for _, p := range parts {
		if p == "" {
			continue
		}
		if len(b) > start {
			b = append(b, '.')
		}
		b = append(b, p...)
	}
	return b
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

// readCall reads the name and the arguments of call object o, found at
// at.sub.
func readCall(o value.Value, at loc, sub, argKey string, mode argMode, i int, x extraction) Call {
	if o.Kind() != value.Object {
		return fail(i, "", at.at(sub)+" is "+kindPhrase(o)+", not an object")
	}
	// One walk of the members finds both: a call object is small, and
	// each lookup would walk them.
	var n, a value.Value
	var hasName, hasArgs bool
	for _, m := range o.Members() {
		if m.Key == "name" {
			n, hasName = m.Value, true
		}
		if m.Key == argKey {
			a, hasArgs = m.Value, true
		}
	}
	if !hasName {
		return fail(i, "", at.at(join(sub, "name"))+" is missing")
	}
	if n.Kind() != value.String {
		return fail(i, "", at.at(join(sub, "name"))+" is "+kindPhrase(n)+", not a string")
	}
	if a.Kind() == value.String && mode == textOrObject {
		// Arguments as JSON text, the common call, read without
		// readArgs's ten parameters: as its case of a string.
		v, err := x.parse(a.Str())
		if err == nil && v.Kind() == value.Object {
			return Call{Name: n.Str(), Args: v}
		}
		return parsedArgs(n.Str(), v, err, at, sub, argKey, i)
	}
	return readArgs(n.Str(), a, hasArgs, at, sub, argKey, mode, i, x)
}

// readArgs reads a, the arguments of the call named name, found at
// at.sub.key; present says whether the call has them at all. The path
// comes in parts so that it is put together only for a message.
func readArgs(name string, a value.Value, present bool, at loc, sub, key string, mode argMode, i int, x extraction) Call {
	switch {
	case (!present || a.Kind() == value.Null) && mode == optionalObject:
		// Null is as absent: the Python SDKs' model_dump() writes a call
		// without arguments so.
		return Call{Name: name, Args: emptyObject}
	case !present:
		return fail(i, name, at.at(join(sub, key))+" is missing")
	case a.Kind() == value.Object:
		// An object (anthropic input, gemini args) came with the response
		// line, whose own limit is looser: hold it to the arguments limit
		// as if it had been a string.
		if d := x.maxDepth(); tooDeep(a, d) {
			return Call{Name: name, Err: &ArgumentsError{Index: i,
				Reason: at.at(join(sub, key)) + " is not a usable JSON object",
				Err:    &value.Error{Err: value.ErrTooDeep, Detail: "more than " + strconv.Itoa(d) + " levels"}}}
		}
		return Call{Name: name, Args: a}
	case a.Kind() == value.String && mode == textOrObject:
		v, err := x.parse(a.Str())
		return parsedArgs(name, v, err, at, sub, key, i)
	case mode == textOrObject:
		return fail(i, name, at.at(join(sub, key))+" is "+kindPhrase(a)+", not a JSON string or object")
	}
	return fail(i, name, at.at(join(sub, key))+" is "+kindPhrase(a)+", not an object")
}

// parsedArgs is the call named name whose arguments string, at
// at.sub.key, parsed as v or failed with err.
func parsedArgs(name string, v value.Value, err error, at loc, sub, key string, i int) Call {
	if err != nil {
		return Call{Name: name, Err: &ArgumentsError{Index: i,
			Reason: at.message(" is not a usable JSON object", sub, key), Err: err}}
	}
	if v.Kind() != value.Object {
		return fail(i, name, at.message(" holds "+kindPhrase(v)+", not a JSON object", sub, key))
	}
	return Call{Name: name, Args: v}
}

var emptyObject, _ = value.ObjectOf()

func fail(i int, name, reason string) Call {
	return Call{Name: name, Err: &ArgumentsError{Index: i, Reason: reason}}
}

func kindPhrase(v value.Value) string { return jsonv.WithArticle(v.Kind()) }

// maxKeys bounds the keys a ShapeError lists, so that a huge object does not
// make a huge message.
const maxKeys = 10

// maxKeyLen bounds each key a ShapeError lists, for the same reason.
const maxKeyLen = 40

func clip(k string) string { return clipText(k, maxKeyLen) }

// clipText cuts s to at most n bytes, at a rune's start, marking the cut.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

// maxExcerpt bounds the bytes of a response that a message quotes.
const maxExcerpt = 60

// excerpt quotes s, or at most maxExcerpt bytes of it around byte at,
// marking what it leaves out with "…".
func excerpt(s string, at int) string {
	if len(s) <= maxExcerpt {
		return strconv.Quote(s)
	}
	from := min(max(at-maxExcerpt/2, 0), len(s)-maxExcerpt)
	for from > 0 && !utf8.RuneStart(s[from]) {
		from--
	}
	to := min(from+maxExcerpt, len(s))
	for to < len(s) && !utf8.RuneStart(s[to]) {
		to++
	}
	q := strconv.Quote(s[from:to])
	if from > 0 {
		q = "…" + q
	}
	if to < len(s) {
		q += "…"
	}
	return q
}

// Describe says what a response that fits no format is, as a
// *ShapeError says it: its kind, or an object's keys.
func Describe(r value.Value) string {
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
