package format

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for in, want := range map[string]Format{
		"": Auto, "auto": Auto, "AUTO": Auto, "openai": OpenAI, "OpenAI": OpenAI,
		"responses": Responses, "anthropic": Anthropic, "gemini": Gemini, "calls": Calls,
		"openai-stream": OpenAIStream, "Responses-Stream": ResponsesStream, "anthropic-stream": AnthropicStream,
		"bedrock": Bedrock, "bedrock-stream": BedrockStream, "cohere": Cohere, "ollama": Ollama,
		"LangChain": LangChain, "mcp": MCP,
	} {
		got, err := Parse(in)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %q, %v, want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"xml", "open ai", " openai"} {
		if _, err := Parse(in); err == nil || !strings.Contains(err.Error(), "auto, openai, openai-stream, responses, responses-stream, anthropic, anthropic-stream, gemini, bedrock, bedrock-stream, cohere, ollama, langchain, mcp, calls") {
			t.Errorf("Parse(%q) error = %v", in, err)
		}
	}
}
