package response

import (
	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
	"strconv"
)

var openaiStreamFormat = api{
	name:   format.OpenAIStream,
	reader: &openaiStreamer,
}

var openaiStreamer = streamer{unit: "tool_calls index", stop: "finish_reason", end: "finish_reason", event: chunkEvent}

// chunkEvent reads one chunk.
func chunkEvent(a *assembly, e value.Value, j int) {
	cs, ok := e.Get("choices")
	if !ok {
		if er, _ := e.Get("error"); er.Kind() == value.Object {
			a.reportError(j, errorText(er)) // a server error in mid-stream
			return
		}
		a.foreign(e, j, "a chat completion chunk")
		return
	}
	if cs.Kind() != value.Array {
		a.fail(j, a.where(j)+".choices is "+kindPhrase(cs)+", not an array")
		return
	}
	// The choices of index 0, with n > 1 among others in any order: a
	// chunk without one (the usage chunk, an Azure prompt_filter_results
	// chunk) has no delta to read, and one that has two is read as the
	// SDK folds choices by index, both.
	for k, choice := range cs.Elems() {
		if choice.Kind() != value.Object {
			a.fail(j, a.where(j)+".choices["+strconv.Itoa(k)+"] is "+kindPhrase(choice)+", not an object")
			continue
		}
		if i, ok := choice.Get("index"); !ok || zeroIndex(i) {
			choiceDelta(a, choice, j)
		}
	}
}

// zeroIndex reports whether a choice's index is 0: a number of that value
// (0, 0.0, -0), or the string "0".
func zeroIndex(i value.Value) bool {
	switch i.Kind() {
	case value.Number:
		f, err := strconv.ParseFloat(i.Str(), 64)
		return err == nil && f == 0
	case value.String:
		return i.Str() == "0"
	}
	return false
}

// choiceDelta reads a chunk's choice of index 0.
func choiceDelta(a *assembly, choice value.Value, j int) {
	if m, _ := choice.Get("message"); m.Kind() == value.Object && heldCall(m) {
		// A whole message in a chunk (some gateways send one): its calls
		// must not vanish, but a chunk's calls come in its delta.
		a.fail(j, a.where(j)+".choices[0].message holds a call, in a chunk, whose calls come in its delta")
	}
	if d, _ := choice.Get("delta"); d.Kind() == value.Object {
		if tcs, ok := d.Get("tool_calls"); ok && tcs.Kind() != value.Null {
			if tcs.Kind() != value.Array {
				a.fail(j, a.where(j)+".choices[0].delta.tool_calls is "+kindPhrase(tcs)+", not an array")
			}
			for k, tc := range tcs.Elems() {
				toolCallDelta(a, tc, j, loc{"choices[0].delta.tool_calls", k})
			}
		}
		switch fc, _ := d.Get("function_call"); fc.Kind() {
		case value.Object:
			c := a.deltaCall("function_call", "", fc, j)
			functionDelta(a, c, fc, j, loc{"choices[0].delta", -1}, "function_call.name", "function_call.arguments")
		case value.Null:
		default:
			a.fail(j, a.where(j)+".choices[0].delta.function_call is "+kindPhrase(fc)+", not an object")
		}
	}
	// Some servers send an empty finish_reason in every chunk: that is
	// none, not the end.
	if fr, _ := choice.Get("finish_reason"); fr.Kind() != value.Null && (fr.Kind() != value.String || fr.Str() != "") {
		a.closeAll()
		a.terminal(j)
		if fr.Str() == "tool_calls" || fr.Str() == "function_call" {
			a.announce(j, "finish_reason "+fr.Str())
		}
	}
}

// toolCallDelta reads tc, an entry of a delta's tool_calls, at at.
func toolCallDelta(a *assembly, tc value.Value, j int, at loc) {
	if tc.Kind() != value.Object {
		a.fail(j, a.where(j)+"."+at.at("")+" is "+kindPhrase(tc)+", not an object")
		return
	}
	idx, _ := tc.Get("index")
	key := idx.Str()
	if key == "" {
		// Some servers leave the index out; the id and name rules still
		// tell their calls apart.
		key = "0"
	}
	fn, _ := tc.Get("function")
	if cu, _ := tc.Get("custom"); cu.Kind() == value.Object && fn.Kind() == value.Null {
		// A custom tool's call, as in a message's tool_calls: it fails,
		// and keeps its name.
		c := a.deltaCall(key, stringAt(tc, "id"), cu, j)
		if n, ok := cu.Get("name"); ok && !c.hasName {
			c.setName(n, j, a, at, "custom.name")
		}
		if c.bad == "" {
			c.bad = a.where(j) + "." + at.at("") + " is a custom tool's call, not a function's"
		}
		return
	}
	id := ""
	if v, _ := tc.Get("id"); v.Kind() == value.String {
		id = v.Str()
	}
	c := a.deltaCall(key, id, fn, j)
	if id != "" {
		c.id = id
	}
	if fn.Kind() != value.Object && fn.Kind() != value.Null && c.bad == "" {
		c.bad = a.where(j) + "." + at.at("function") + " is " + kindPhrase(fn) + ", not an object"
	}
	functionDelta(a, c, fn, j, at, "function.name", "function.arguments")
}

// deltaCall is the call that a fragment with id (or none) and function
// fn, under key, extends, or the call it begins.
func (a *assembly) deltaCall(key, id string, fn value.Value, j int) *pending {
	c := a.find(key, "")
	switch {
	case c == nil:
	case id != "" && c.id != "":
		if id == c.id {
			return c
		}
	default:
		if n, _ := fn.Get("name"); n.Kind() != value.String || !c.hasName || !a.complete(c) {
			return c
		}
	}
	return a.begin(key, j)
}

// complete reports whether c's arguments so far are one JSON value. A
// server may repeat the name in every delta, and each asks this: the
// arguments are read on from where the last asking stopped, and parsed
// whole only when their brackets close (once, as white space after them
// changes nothing), so that a stream costs time in proportion to its
// length.
func (a *assembly) complete(c *pending) bool {
	s := &c.scan
	s.read(c.args)
	switch {
	case len(c.args) == 0 || s.trailing:
		return false
	case s.scalar:
		// A number, true, false or null: a call whose arguments are
		// one is complete at once, and a new name begins the next. No
		// such value of a call is long; past maxScalar the text is
		// taken for one still to come, and not parsed at every delta.
		if len(c.args) > maxScalar {
			return false
		}
		_, err := (*value.Parser)(nil).Parse(string(c.args), value.Limits{})
		return err == nil
	case !s.closed:
		return false
	case s.verdict == 0:
		s.verdict = 2
		if _, err := (*value.Parser)(nil).Parse(string(c.args), value.Limits{}); err == nil {
			s.verdict = 1
		}
	}
	return s.verdict == 1
}

// maxScalar bounds the argument text that complete parses again at each
// delta when it is no object, list or string.
const maxScalar = 1 << 10

// argScan follows the brackets and strings of a call's argument text as
// its fragments come (pending.scan).
type argScan struct {
	n        int  // the bytes read
	depth    int  // the brackets open
	inStr    bool // inside a string
	esc      bool // after a backslash in one
	closed   bool // the first value has ended: a container or string at the top closed
	trailing bool // more than white space came after it, or a bracket closed that was not open
	scalar   bool // the text begins with a number, true, false or null
	started  bool
	verdict  uint8 // once closed: 0 not parsed, 1 one JSON value, 2 not
}

// read reads b from where it stopped.
func (s *argScan) read(b []byte) {
	for ; s.n < len(b) && !s.trailing; s.n++ {
		c := b[s.n]
		switch {
		case s.closed:
			if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
				s.trailing = true
			}
		case s.inStr:
			switch {
			case s.esc:
				s.esc = false
			case c == '\\':
				s.esc = true
			case c == '"':
				s.inStr = false
				s.closed = s.depth == 0
			}
		case c == '"':
			s.inStr, s.started = true, true
		case c == '{' || c == '[':
			s.depth++
			s.started = true
		case c == '}' || c == ']':
			s.depth--
			switch {
			case s.depth < 0:
				s.trailing = true
			case s.depth == 0:
				s.closed = true
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		case !s.started:
			s.scalar, s.started = true, true
		}
	}
}

// functionDelta adds to c the name and the arguments fragment of fn,
// found at at.name and at.args of event j.
func functionDelta(a *assembly, c *pending, fn value.Value, j int, at loc, name, args string) {
	a.late(c, j)
	if n, ok := fn.Get("name"); ok {
		switch {
		case !c.hasName || n.Kind() != value.String:
			c.setName(n, j, a, at, name)
		case n.Str() != c.name:
			c.name += n.Str()
		}
	}
	if f, ok := fn.Get("arguments"); ok && f.Kind() != value.Null {
		c.fragment(f, j, a, at, args)
	}
}
