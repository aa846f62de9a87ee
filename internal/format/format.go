// Package format names the response formats that callgrade reads: the
// Format type, its values, the table that Parse and All read, and what a
// response in each format is; and the FinalReading of a run's final
// answer that a case may ask for. It imports nothing of the module, so
// that a package that only names formats or readings (the suite's
// decoder, a help text) does not depend on package response, which holds
// how each format is read.
package format

import (
	"strconv"
	"strings"
)

// Format names a response API whose tool calls package response can read;
// All lists them.
type Format string

// Auto, the zero Format, detects the format of each response by its
// shape, so an unset format detects.
const Auto Format = ""

// autoName is how a user spells Auto.
const autoName = "auto"

// OpenAI is the Chat Completions API: a chat completion, its message, or
// its tool_calls list.
const OpenAI Format = "openai"

// OpenAIStream is a streamed chat completion: its chat.completion.chunk
// objects as a JSON array, or the SSE transcript they came in. The calls
// are put together from choices[0].delta.tool_calls: the fragments of
// function.arguments are joined by index, and a chunk with a
// finish_reason ends them all.
//
// The openai SDKs key a call by its index alone, and would join two
// calls that a server sends under one index (some vLLM and SGLang
// versions, Ollama's OpenAI API and gateways that translate from other
// APIs put every call at index 0). Here a fragment begins a new call on
// an index already in use when it has an id other than the call's, or,
// without the call's id, a function.name while the call's arguments are
// already a complete JSON value, as smolagents and similar clients do. A
// later name for a call whose arguments are not complete is appended, as
// the SDKs append it, unless it repeats the name.
const OpenAIStream Format = "openai-stream"

// Responses is OpenAI's Responses API: a response object or its output
// list.
const Responses Format = "responses"

// ResponsesStream is a streamed Responses API response: its events
// (type "response.…") as a JSON array, or their SSE transcript. A call
// begins with response.output_item.added of a function_call item, takes
// the fragments of response.function_call_arguments.delta, and ends with
// response.function_call_arguments.done or response.output_item.done,
// whose whole arguments win over the fragments, as in the SDK, which
// keeps the done item. Events name a call by output_index, or item_id.
// An item of any other call (a custom_tool_call, a type ending in _call
// that no format reads) is a failed call that keeps its name, as in a
// response's output.
const ResponsesStream Format = "responses-stream"

// Anthropic is the Messages API: a message or its content list.
const Anthropic Format = "anthropic"

// AnthropicStream is a streamed Messages API message: its events as a
// JSON array, or their SSE transcript. A call begins with a
// content_block_start of a tool_use block, takes the partial_json of each
// input_json_delta for its index, and ends with content_block_stop. As in
// the SDK, a block that gets no fragment keeps the input it started with,
// {} for a tool without parameters. A block of another call type, or of
// a type no format knows that has a name and an input, is a failed call
// that keeps its name, as in a message's content.
const AnthropicStream Format = "anthropic-stream"

// Gemini is the generateContent API: a response, its content, or its
// parts list.
const Gemini Format = "gemini"

// Bedrock is Amazon Bedrock's Converse API: a Converse response, its
// message, or the message's content list. Its content blocks have no
// type: a block is told by its one key (text, toolUse, …).
const Bedrock Format = "bedrock"

// BedrockStream is a streamed Converse response (ConverseStream): its
// events as a JSON array, as boto3 and the other AWS SDKs hand them out
// ({"contentBlockStart": {…}}, one key an event), or an SSE transcript of
// them. A call begins with a contentBlockStart whose start is a toolUse
// {toolUseId, name}, takes the toolUse.input fragments of each
// contentBlockDelta for its contentBlockIndex, and ends with
// contentBlockStop. A text block has no start; its deltas are passed
// over.
const BedrockStream Format = "bedrock-stream"

// Cohere is Cohere's v2 Chat API: a chat response, or its message. The
// message's tool_calls are openai's entries, arguments a JSON string;
// what tells it apart is the response around it (a finish_reason such
// as TOOL_CALL beside the message) or the message's tool_plan. A
// finish_reason of TOOL_CALL with no call, or of ERROR or TIMEOUT, is
// one failed call.
const Cohere Format = "cohere"

// Ollama is Ollama's /api/chat: a chat response, or its message. Its
// tool_calls entries are openai's without an id, and their arguments are
// an object, not a JSON string.
const Ollama Format = "ollama"

// LangChain is LangChain's AIMessage written out as a dict: the message's
// own fields (type "ai"), the {"type": "ai", "data": …} of
// messages_to_dict, the {"lc": 1, "type": "constructor", …} of dumpd, or
// its tool_calls list. Its calls are tool_calls ({name, args, id}, args an
// object), then invalid_tool_calls: the calls LangChain could not parse,
// each a failed call.
const LangChain Format = "langchain"

// MCP is the Model Context Protocol's tools/call request, a JSON-RPC 2.0
// message whose params are the call: {"jsonrpc": "2.0", "id": …,
// "method": "tools/call", "params": {"name": …, "arguments": {…}}}, or a
// batch (list) of such messages. arguments is an object, and optional.
const MCP Format = "mcp"

// Calls is callgrade's own: {"name": …, "arguments": …} or a list of
// them, for a harness that has already taken the calls out of whatever
// its model returned.
const Calls Format = "calls"

// Hermes is the raw text of Hermes and Qwen models (Hermes 2 Pro and 3,
// Qwen 2.5, Qwen 3 and the models trained on their templates): each call
// a JSON object {"name": …, "arguments": {…}} between <tool_call> and
// </tool_call>, several in one message, with the answer's text around
// them. It is read as vLLM's hermes tool parser reads it
// (vllm/entrypoints/openai/tool_parsers/hermes_tool_parser.py), except
// that a <tool_call> never closed is a failed call: vLLM takes a last
// block left open at the end of the text, which a truncated answer
// leaves too, and that the block is read as JSON: a </tool_call> in a
// string of the arguments does not end it, where vLLM's regular
// expression would cut the call there and lose it.
const Hermes Format = "hermes"

// QwenCoder is the raw text of Qwen3-Coder models, whose chat template
// writes a call's parameters as XML, each value as plain text:
//
//	<tool_call>
//	<function=get_weather>
//	<parameter=city>
//	Berlin
//	</parameter>
//	<parameter=days>
//	3
//	</parameter>
//	</function>
//	</tool_call>
//
// It is read as vLLM's qwen3_coder tool parser reads it
// (vllm/entrypoints/openai/tool_parsers/qwen3coder_tool_parser.py, after
// the parser Qwen ships with the model): the value loses one newline at
// each end and is typed from the parameter's JSON Schema (the tools' schemas a
// caller gives package response); a bare <function=…> block, which vLLM reads in a text
// without <tool_call>, is read wherever it stands. Unlike vLLM, a <tool_call>,
// <function=…> or <parameter=…> never closed, text between parameters,
// and a parameter given twice fail the call.
const QwenCoder Format = "qwen-coder"

// LlamaJSON is the raw text of Llama 3.1 to 3.3 (and Llama 4) models
// calling tools in JSON, as the JSON-based tool calling of their model
// cards asks: the answer is the call, {"name": …, "parameters": {…}}
// ("arguments" is read too), perhaps after <|python_tag|>, several calls
// separated by ";". It is read as vLLM's llama3_json tool parser streams
// it (vllm/entrypoints/openai/tool_parsers/llama_tool_parser.py): the
// calls begin the text, or follow its <|python_tag|>, and a text that
// begins otherwise is a text answer, JSON further on included (so that
// a Hermes or Mistral text forced to this format does not pass), and so
// is JSON that is no call ({"answer": 42}, without "name"). After the
// calls, text (an <|eom_id|>, say) is passed over. What follows each
// <|python_tag|> or a ";" must be a JSON call: Llama's built-in tools,
// which write Python there, are failed calls.
const LlamaJSON Format = "llama-json"

// Mistral is the raw text of Mistral models, each call after a
// [TOOL_CALLS] token, in the two forms mistral-common decodes
// (src/mistral_common/tokens/tokenizers/tools.py): tokenizers v2 to v7
// write a JSON list of calls, [TOOL_CALLS][{"name": …, "arguments": {…}}],
// and v11 on write the name and the arguments apart,
// [TOOL_CALLS]NAME[ARGS]{…}, or [TOOL_CALLS]NAME[CALL_ID]ID[ARGS]{…}.
// [ARGS] may be missing, as in text decoded without control tokens,
// which vLLM's mistral tool parser reads too. Text before the first
// [TOOL_CALLS], and after a call's JSON, is the answer's text.
const Mistral Format = "mistral"

// DeepSeek is the raw text of DeepSeek V3 and R1, and of V3.1, with the
// special tokens of their chat templates left in. V3 and R1 write each
// call as its type, the name and a fenced JSON block:
//
//	<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather
//	```json
//	{"city": "Berlin"}
//	```<｜tool▁call▁end｜><｜tool▁calls▁end｜>
//
// and V3.1 the name and the JSON alone:
// <｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Berlin"}<｜tool▁call▁end｜>.
// Both are read as vLLM's deepseek_v3 and deepseek_v31 tool parsers read
// them (vllm/entrypoints/openai/tool_parsers/deepseekv3_tool_parser.py,
// deepseekv31_tool_parser.py), told apart by what follows the separator:
// a JSON object is V3.1's. A call never closed by <｜tool▁call▁end｜> fails.
const DeepSeek Format = "deepseek"

// Harmony is the raw text of gpt-oss models, in OpenAI's harmony format
// (github.com/openai/harmony, docs/format.md, "Receiving tool calls"): a
// call is an assistant message whose header names its recipient,
//
//	<|channel|>analysis<|message|>Need the weather.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"location":"Tokyo"}<|call|>
//
// the to= in the channel section, as here, or in the role section
// (<|start|>assistant to=functions.get_weather<|channel|>commentary …).
// The text may begin inside the header of the first message, whose
// <|start|>assistant ends the prompt, and may end without the <|call|>
// that stopped the model. A header is read as openai-harmony's parser
// reads it; the call's name is its recipient without "functions.", and
// its arguments are the message, a JSON object. A recipient outside
// functions (browser.search, python: built-in tools) is a call too, under
// its whole name, where vLLM's parser leaves it out: a call that the
// suite does not expect must not vanish. Messages of other roles (a
// tool's output) are not the model's calls.
const Harmony Format = "harmony"

// Pythonic is a model's text of calls in Python syntax, a list
// [get_weather(city="Berlin"), get_time(tz="CET")] or one call, as
// Llama 3.2 and 4 write them (and BFCL's prompting models): read as
// vLLM's pythonic and llama4_pythonic tool parsers read it
// (vllm/entrypoints/openai/tool_parsers/pythonic_tool_parser.py), by the
// parser callgrade import bfcl uses. Llama 4's <|python_start|> and
// <|python_end|> around the calls are passed over; each such block holds
// calls, however many the text has, and one that holds none is a failed
// call. Without them, a text that begins with neither "[" nor name( is a
// text answer; anything else that does not read fails from the call it
// is in on, the calls before it kept. End-of-turn tokens after the calls
// (<|eot|>, <|eot_id|>) are passed over.
const Pythonic Format = "pythonic"

// OpenAIMessages is a conversation in the Chat Completions API's shape:
// its messages list, or the request or agent state that holds it as
// messages. The assistant messages' tool_calls (then a legacy
// function_call) are the calls; a tool message answers the call its
// tool_call_id names, a legacy function message the call its name names.
// OpenAI has no error flag for a tool's result.
const OpenAIMessages Format = "openai-messages"

// AnthropicMessages is a conversation in the Messages API's shape: its
// messages list, or the request that holds it as messages beside its
// system prompt. The assistant messages' tool_use blocks are the calls; a
// user message's tool_result block answers the call its tool_use_id
// names, and is_error: true says the tool failed.
const AnthropicMessages Format = "anthropic-messages"

// GeminiContents is a conversation in the generateContent API's shape:
// its contents list, or the request that holds it as contents. The parts
// of the model's contents (role "model") are the calls, as functionCall;
// a functionResponse part answers the call its id names or, without one,
// the first call of its name in the model's last turn that has no result
// yet. Gemini's documentation asks a failed function to answer with an
// "error" key in its response, so a response that has one is the tool's
// error (one whose "error" is null or false says there is none); the
// result is the whole response object. A part may be spelt in
// snake case, as the Python SDK's model_dump writes it: function_call and
// function_response read as functionCall and functionResponse do.
const GeminiContents Format = "gemini-contents"

// LangChainMessages is a conversation of LangChain messages written out
// as dicts, each in any of the forms the langchain format reads for an
// AIMessage: the message's own fields (model_dump), messages_to_dict's
// {"type": …, "data": …}, or dumpd's {"lc": 1, "type": "constructor",
// "id": […, "ToolMessage"], "kwargs": …}; or a LangGraph state that
// holds them as messages. An AIMessage's tool_calls, then its
// invalid_tool_calls (failed calls), are the calls; a ToolMessage
// answers the call its tool_call_id names, and its status "error" says
// the tool failed.
const LangChainMessages Format = "langchain-messages"

// OTLP is a trace of an agent's run, as an OpenTelemetry collector's file
// exporter writes it: one OTLP/JSON export object, {"resourceSpans":
// [{"resource": …, "scopeSpans": [{"scope": …, "spans": […]}]}]}, read by
// the GenAI semantic conventions or OpenInference's.
//
// The calls are the tool_call parts of the first output message of each
// chat span (gen_ai.output.messages; gen_ai.operation.name chat,
// generate_content or text_completion), and the flattened
// llm.output_messages.0.message.tool_calls.M.tool_call.* attributes of
// OpenInference's LLM spans. An execute_tool span (gen_ai.tool.name,
// gen_ai.tool.call.id, gen_ai.tool.call.arguments, gen_ai.tool.call.result)
// or an OpenInference TOOL span (tool.name, input.value, output.value)
// gives the result of the call with its id; one whose call no chat span
// shows is a call of its own. Steps come in the order of the spans'
// start times, ties in the order of the file.
//
// Arguments are a JSON string or a structured value (a kvlistValue is an
// object). The conventions make the content opt-in: a trace that has chat
// or tool spans but none of their content is not evaluable
// (a run's NotEvaluable), and so is one in which some model span records its
// output and another does not (it may hide calls), unless that one ended
// in an error; read for its calls, such a trace gives one failed call, so that it
// never passes for want of evidence. Text beside a call is no answer.
// Package otlp makes a responses file of a collector's export, one
// response per case.
const OTLP Format = "otlp"

// FinalReading says which text of a run is its final answer: a case's
// final_text (docs/trajectories.md).
type FinalReading string

// The readings of a run's final answer.
const (
	// FinalJoined is a run's Final: the text of the last assistant message after
	// the run's last call, its text blocks or parts joined with nothing
	// between them. A run that ends in a call has none.
	FinalJoined FinalReading = "joined"
	// FinalAnswer is a run's Final, or when Final is an object with an "answer"
	// key (JSON or a Python dict literal, alone or in a code fence: the
	// {'answer': ..., 'context': ...} that BFCL's agentic prompt asks
	// for), that answer: a string as it is, another value as its JSON.
	FinalAnswer FinalReading = "answer"
	// FinalBFCL is the final answer as BFCL's agentic checker reads it
	// (docs/bfcl.md): of a final message with several text blocks or
	// parts, the first; a run whose last message makes calls of which
	// one has arguments that cannot be read (they do not parse, or are
	// no object) ends in that message, which is its answer and no call,
	// read as the Python repr of the message's first call,
	// {'NAME': 'ARGUMENTS TEXT'}.
	FinalBFCL FinalReading = "bfcl"
)

// table is every Format but Auto, in the order All lists them, with what
// a response in it is and whether it is a model's raw text.
var table = [...]struct {
	f     Format
	about string
	text  bool
}{
	{OpenAI, "an openai chat completion, message or tool_calls list", false},
	{OpenAIStream, "an openai chat completion stream, as chunks or SSE", false},
	{Responses, "an openai responses object or output list", false},
	{ResponsesStream, "an openai responses stream, as events or SSE", false},
	{Anthropic, "an anthropic message or content list", false},
	{AnthropicStream, "an anthropic message stream, as events or SSE", false},
	{Gemini, "a gemini response, content or parts list", false},
	{Bedrock, "a bedrock converse response, message or content list", false},
	{BedrockStream, "a bedrock converse stream, as events or SSE", false},
	{Cohere, "a cohere v2 chat response or message", false},
	{Ollama, "an ollama chat response or message", false},
	{LangChain, "a langchain AIMessage or its tool_calls list", false},
	{MCP, "an mcp tools/call request or batch of them", false},
	{Calls, "a call object or list of calls", false},
	{Hermes, "a model's text with <tool_call>{…}</tool_call> blocks (Hermes, Qwen)", true},
	{QwenCoder, "a model's text with <tool_call><function=…><parameter=…> blocks (Qwen3-Coder)", true},
	{LlamaJSON, `a Llama 3 model's text of {"name": …, "parameters": {…}} calls`, true},
	{Mistral, "a Mistral model's text with [TOOL_CALLS] calls", true},
	{DeepSeek, "a DeepSeek model's text with <｜tool▁call▁begin｜> calls", true},
	{Harmony, "a gpt-oss model's text in the harmony format", true},
	{Pythonic, "a model's text of Python calls [f(a=1), …]", true},
	{OpenAIMessages, "an openai chat messages list, or a request or state that holds one", false},
	{AnthropicMessages, "an anthropic messages list, or a request that holds one", false},
	{GeminiContents, "a gemini contents list, or a request that holds one", false},
	{LangChainMessages, "a list of langchain messages as dicts, or a state that holds one", false},
	{OTLP, "an OTLP/JSON trace export (resourceSpans) of GenAI or OpenInference spans", false},
}

// Parse reads a --format value. It ignores case, because a user who
// types "OpenAI" means openai.
func Parse(s string) (Format, error) {
	if s == "" || strings.EqualFold(s, autoName) {
		return Auto, nil
	}
	for _, e := range table[:] {
		if strings.EqualFold(s, string(e.f)) {
			return e.f, nil
		}
	}
	return Auto, Error(s)
}

// Info is one value that Parse accepts, described for a help text or a
// document that lists them.
type Info struct {
	Name        string // as Parse reads it: "auto" or a Format
	Description string // what a response in the format is, in one line
	// Text says the format reads a model's raw text (hermes, …): the
	// formats a caller holding such text, and no API response, chooses
	// among.
	Text bool
}

// All returns auto and then every Format, in the order in which help
// texts and documents list them. The slice is the caller's.
func All() []Info {
	out := make([]Info, 0, 1+len(table))
	out = append(out, Info{Name: autoName, Description: "any of these, told apart by its shape"})
	for _, e := range table[:] {
		out = append(out, Info{Name: string(e.f), Description: e.about, Text: e.text})
	}
	return out
}

// Description is what a response in format f is, in one line: the
// description All gives, and the end of a message about a response that
// is not in f ("response is …, not an anthropic message or content
// list"). It is "" for Auto and for a name that is no Format. It is a
// function, not a method, so that the root's alias of Format carries
// no more than the type.
func Description(f Format) string {
	for _, e := range table[:] {
		if e.f == f {
			return e.about
		}
	}
	return ""
}

// Error is the error of a format name that Parse does not know: its
// message lists the names it does.
type Error string

// Error names the unknown format and lists the known ones.
func (e Error) Error() string {
	var b strings.Builder
	b.WriteString("unknown response format " + strconv.Quote(string(e)) + ": want one of ")
	for i, f := range All() {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(f.Name)
	}
	return b.String()
}
