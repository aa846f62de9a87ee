package response

import "github.com/callgrade/callgrade/value"

// Options are what Extract may need besides a response and its format.
// The zero Options read as Extract does.
type Options struct {
	// Limits bound the parsing of arguments; the zero value means
	// value.DefaultLimits.
	Limits value.Limits
	// Parser, when set, parses the arguments into memory that it hands
	// out again after its Reset, as ExtractWith does.
	Parser *value.Parser
	// Params maps a tool's name to the JSON Schema of its parameters (an
	// object schema with properties). Qwen3-Coder's text writes every
	// parameter's value as plain text, which is typed from the schema of
	// the parameter: a number's "5" is 5. Without one, values are strings.
	Params map[string]value.Value
	// Calls, when it has room for the calls of a response, is where
	// Extract puts them (what it holds is overwritten), so that reading
	// response after response into the slice the last Extract returned
	// allocates nothing; the calls are then valid until that slice is
	// used again. Without room, Extract allocates, as it does without.
	Calls []Call
}

// Extract is Extract with the options o.
func (o Options) Extract(r value.Value, f Format) ([]Call, Format, error) {
	return extract(r, f, extraction{lim: o.Limits, p: o.Parser, params: o.Params}, o.Calls)
}

// EnvelopeDepth is the nesting that a response line's wrappers may add
// around a call's arguments (a Gemini part's functionCall sits eight
// levels down its line, a conversation's deeper): a line is parsed with
// this much more than the arguments' own limit, so that arguments given
// as an object past that limit fail their call, as a string would, and
// not the whole line.
const EnvelopeDepth = 64
