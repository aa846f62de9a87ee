package response

import "github.com/callgrade/callgrade/value"

// Ollama is Ollama's /api/chat: a chat response, or its message. Its
// tool_calls entries are openai's without an id, and their arguments are
// an object, not a JSON string.
const Ollama Format = "ollama"

var ollamaFormat = format{
	name:  Ollama,
	about: "an ollama chat response or message",
	emits: every,
	read:  readOllamaToolCall,
}

// isOllamaResponse is a chat response: the message beside done, which
// Ollama writes into every response and every streamed line.
func isOllamaResponse(o value.Value) bool { return messageBeside(o, "done") }

func readOllamaToolCall(x extraction, e value.Value, at loc, i int) Call {
	return readFunction(x, e, at, i, objectOnly)
}
