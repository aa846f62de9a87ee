package response

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

// Options are what reading a response may need besides the response and
// its format. The zero Options read with value.DefaultLimits, memory of
// their own for each response, and no tools' schemas.
type Options struct {
	// Limits bound the parsing of arguments; the zero value means
	// value's defaults.
	Limits value.Limits
	// Parser, when set, parses the arguments strings into memory that it
	// hands out again after its Reset, so that reading response after
	// response reuses memory instead of allocating it: the calls' Args
	// are then valid only until that Reset, as everything it parses.
	Parser *value.Parser
	// Params maps a tool's name to the JSON Schema of its parameters (an
	// object schema with properties). Qwen3-Coder's text writes every
	// parameter's value as plain text, which is typed from the schema of
	// the parameter: a number's "5" is 5. Without one, values are strings.
	Params map[string]value.Value
	// Calls, when it has room for the calls of a response, is where
	// ReadCalls puts them (what it holds is overwritten), so that reading
	// response after response into the slice the last ReadCalls returned
	// allocates nothing; the calls are then valid until that slice is
	// used again. Without room, ReadCalls allocates, as it does without.
	Calls []Call
	// Steps is to Read what Calls is to ReadCalls: when it has room for
	// the steps of a conversation, Read puts them there (what it holds
	// is overwritten), and they are valid until that slice is used
	// again. A scorer that reads run after run into the Steps of the
	// last saves an allocation a run, of memory the collector must scan.
	Steps []Step
	// InvalidUTF8 says that strings in the response may not be UTF-8, as
	// when its line was read with value.Parser.ParseKeepInvalidUTF8
	// because a model's output broke the encoding: every call whose name
	// or arguments hold such a string is then failed as an arguments
	// string that is not UTF-8 is, and only that call.
	InvalidUTF8 bool
	// SkipResults says that no one reads the tools' results of the run
	// Read returns: each result still finds its call (a step's HasResult
	// and Error are set), but its content is not read, and Result stays
	// the zero Value. A case that judges the final answer alone needs
	// no result, and parsing each as JSON was a sixth of reading a run.
	SkipResults bool
}

// Read reads r, a response in format f (format.Auto detects it by its
// shape), as a run, and returns it with the format it was read as. A
// conversation (a format whose responses are whole conversations:
// openai-messages, anthropic-messages, gemini-contents,
// langchain-messages, and a Responses run) gives each of its calls as a
// step, in order, with the result its tool gave back, its turn and the
// answer the model ended with; so does a trace (see the package doc). A
// response of any other format is a run of one turn: its calls with
// their ids and no results, and its text answer as Final when it has no
// calls. The steps' calls are the calls ReadCalls returns for r.
//
// Every problem with one call (a missing name, arguments of the wrong
// type or that do not parse) is a Call with Err set, in that call's
// place, with Name filled in when it is known. Read itself fails only
// when nothing in r can be read as calls (a *ShapeError), or when f is
// not a known Format; the format returned with an error is f. Args
// shares memory with r.
func (o Options) Read(r value.Value, f format.Format) (Run, format.Format, error) {
	var run Run
	got, err := readRunInto(r, f, extraction{lim: o.Limits, p: o.Parser, params: o.Params, skipResults: o.SkipResults}, o.Steps, &run)
	if o.InvalidUTF8 {
		for i := range run.Steps {
			failInvalidUTF8(&run.Steps[i].Call, i)
		}
	}
	return run, got, err
}

// ReadCalls returns the calls of r in order, the calls of the steps of
// the run that Read returns, and the format r was read as, with Read's
// errors; nil when r has no calls. It reads no more than the calls, into
// o.Calls when that has room: the scorer's loop over a responses file
// reads a response's calls so without allocating.
func (o Options) ReadCalls(r value.Value, f format.Format) ([]Call, format.Format, error) {
	calls, got, err := extract(r, f, extraction{lim: o.Limits, p: o.Parser, params: o.Params}, o.Calls)
	if o.InvalidUTF8 {
		for i := range calls {
			failInvalidUTF8(&calls[i], i)
		}
	}
	return calls, got, err
}

// failInvalidUTF8 fails c, the i-th call, when its name or its arguments
// hold a string that is not UTF-8 (Options.InvalidUTF8). An arguments
// string was parsed strictly and so failed already; arguments that came
// as an object, or from text, are looked through here.
func failInvalidUTF8(c *Call, i int) {
	if c.Err != nil {
		return
	}
	var where string
	if !utf8.ValidString(c.Name) {
		where = "the call's name holds"
	} else if path, ok := invalidUTF8(c.Args, ""); !ok {
		return
	} else if path == "" {
		where = "the arguments hold"
	} else {
		where = "the argument " + strconv.Quote(path) + " holds"
	}
	c.Err = &ArgumentsError{Index: i, Reason: where + " text that is not UTF-8",
		Err: &value.Error{Err: value.ErrInvalidUTF8, Offset: -1}}
}

// invalidUTF8 returns the path below at of the first key or string in v
// that is not UTF-8, and whether there is one.
func invalidUTF8(v value.Value, at string) (string, bool) {
	switch v.Kind() {
	case value.String:
		return at, !utf8.ValidString(v.Str())
	case value.Array:
		for j, e := range v.Elems() {
			if p, ok := invalidUTF8(e, at+"["+strconv.Itoa(j)+"]"); ok {
				return p, true
			}
		}
	case value.Object:
		for _, m := range v.Members() {
			k := join(at, strings.ToValidUTF8(m.Key, "\uFFFD"))
			if !utf8.ValidString(m.Key) {
				return k, true
			}
			if p, ok := invalidUTF8(m.Value, k); ok {
				return p, true
			}
		}
	}
	return "", false
}

// EnvelopeDepth is the nesting that a response line's wrappers may add
// around a call's arguments (a Gemini part's functionCall sits eight
// levels down its line, a conversation's deeper): a line is parsed with
// this much more than the arguments' own limit, so that arguments given
// as an object past that limit fail their call, as a string would, and
// not the whole line.
const EnvelopeDepth = 64
