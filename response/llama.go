package response

import "strings"

// LlamaJSON is the raw text of Llama 3.1 to 3.3 (and Llama 4) models
// calling tools in JSON, as the JSON-based tool calling of their model
// cards asks: the answer is the call, {"name": …, "parameters": {…}}
// ("arguments" is read too), perhaps after <|python_tag|>, several calls
// separated by ";". It is read as vLLM's llama3_json tool parser streams
// it (vllm/entrypoints/openai/tool_parsers/llama_tool_parser.py): the
// calls begin the text, or follow its <|python_tag|>, and a text that
// begins otherwise is a text answer, JSON further on included (so that
// a Hermes or Mistral text forced to this format does not pass). After
// the calls, text (an <|eom_id|>, say) is passed over. What follows
// <|python_tag|> or a ";" must be a JSON call: Llama's built-in tools,
// which write Python there, are failed calls.
const LlamaJSON Format = "llama-json"

var llamaFormat = textFormat(LlamaJSON, `a Llama 3 model's text of {"name": …, "parameters": {…}} calls`, readLlama)

func readLlama(t *textReader) {
	s := t.src
	i, must := skipSpace(s, 0), false // must: a call must come next
	if k := strings.Index(s, llamaPythonTag); k >= 0 {
		i, must = skipSpace(s, k+len(llamaPythonTag)), true
	}
	for {
		if i == len(s) || s[i] != '{' {
			if must {
				t.fail("", i, len(s), `not a JSON call {"name": …, "parameters": {…}}`, nil)
			}
			return
		}
		end := jsonEnd(s, i)
		if end < 0 {
			t.fail("", i, len(s), "never closed: the text ends inside the JSON object", nil)
			return
		}
		t.callObject(i, end, "parameters", "arguments")
		i = skipSpace(s, end)
		must = i < len(s) && s[i] == ';'
		if must {
			i = skipSpace(s, i+1)
		}
	}
}
