package response

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

var hermesFormat = textFormat(Hermes, "a model's text with <tool_call>{…}</tool_call> blocks (Hermes, Qwen)", readHermes)

func readHermes(t *textReader) {
	t.blocks(hermesOpen, hermesClose, func(body int) int { return skipSpace(t.src, body) }, func(_, body, end int) {
		from, to := trimSpan(t.src, body, end)
		t.callObject(from, to, "arguments")
	}, nil)
}
