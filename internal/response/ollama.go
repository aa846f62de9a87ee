package response

import (
	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

var ollamaFormat = api{
	name:   format.Ollama,
	emits:  every,
	read:   readOllamaToolCall,
	reader: single{},
}

// isOllamaResponse is a chat response: the message beside done, which
// Ollama writes into every response and every streamed line.
func isOllamaResponse(o value.Value) bool { return messageBeside(o, "done") }

func readOllamaToolCall(x extraction, e value.Value, at loc, i int) Call {
	return readFunction(x, e, at, i, objectOnly)
}
