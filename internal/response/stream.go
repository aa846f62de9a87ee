package response

import (
	"errors"
	"strconv"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

// A recorded stream is read as a client reads it: each event begins,
// extends or ends a call, which a stream names by a key of its own (a
// content block index, an output index). The calls come out in the order
// they began. A call that never gets its stop event, or whose argument
// fragments do not make one JSON object, is a failed call whose message
// shows the fragment or the span at fault; so is an event that does not
// read, which fails the calls it leaves open, or stands for a failed call
// of its own when none is. Nothing a stream holds is dropped silently.
//
// A stream ends with its terminal event (Anthropic's message_stop, the
// Responses API's response.completed or response.incomplete, Bedrock's
// messageStop, a chat completion chunk with a finish_reason). One that
// ends without it broke off, even between two calls: what it holds is no
// whole answer, so it is a failed call of its own. A call still open at
// the terminal event fails, and so does one that an event after it
// begins or extends: what follows the end is no part of the answer.

// streamer is how one API streams its calls.
type streamer struct {
	// unit names what a key counts ("content block"), for messages.
	unit string
	// stop names the event that ends a call, for the message of a call
	// that never gets one.
	stop string
	// end names the terminal event of the stream, for the message of a
	// stream that ends without one.
	end string
	// emptyIsObject says that a call whose arguments came as no fragment
	// at all has the empty object as arguments: Anthropic and Bedrock
	// send no input for a tool without parameters, where openai's
	// arguments are text, which must not be empty.
	emptyIsObject bool
	// event reads object e, event j of the stream.
	event func(a *assembly, e value.Value, j int)
}

// event is one event of a recorded stream: an element of a JSON array, or
// the data of one SSE event.
type event struct {
	v    value.Value
	line int    // SSE: the line its data begins on; 0 in a JSON array
	err  error  // SSE: its data is not JSON
	data string // SSE: the data that is not JSON, for the message
	done bool   // SSE: the data is [DONE], which ends a stream and says nothing
}

// offset is where in its data ev's parse error is, or 0.
func (ev event) offset() int {
	off, _ := errOffset(ev.err)
	return off
}

// pending is a call being put together.
type pending struct {
	key, alt string // the names the stream's events give it: an index, an item id
	id       string // the call's id, when the stream gives one
	name     string
	hasName  bool
	skip     bool   // a block that is not a call (text, thinking): its events are passed over
	args     []byte // the argument fragments so far
	frags    []frag
	// whole holds arguments given whole: at the end (Responses' done
	// events, which win over the fragments as they do in the SDK) when
	// final is set, at the start (Anthropic's input) otherwise, which only
	// counts when no fragment comes.
	whole    value.Value
	hasWhole bool
	final    bool
	closed   bool
	start    int    // the event that began it
	bad      string // why it cannot be read, found on the way
	// echo is the call as the response a stream ends with gives it
	// again (the Responses API's response.completed), found at echoAt:
	// its name and arguments must be those the events put together.
	echo   value.Value
	echoAt loc
	scan   argScan // how far complete has read args
}

// frag is where an argument fragment begins in pending.args, and the
// event it came in.
type frag struct{ off, ev int }

// assembly is a stream being read.
type assembly struct {
	s      *streamer
	events []event
	prefix string // the path of a JSON array of events in the response
	calls  []*pending
	// note is the first error the stream reported, at event noteAt, for
	// the message of a call it leaves unfinished.
	note   string
	noteAt int
	// ended is 1 + the index of the stream's terminal event; 0 until it
	// comes.
	ended int
	// announced says that an event (at announcedAt) gives the reason the
	// model stopped as a call (stop_reason tool_use): a stream with no
	// call at all is then a failed call.
	announced   string
	announcedAt int
}

// announce notes that event j says the model stopped to call a tool, as
// what says.
func (a *assembly) announce(j int, what string) {
	if a.announced == "" {
		a.announced, a.announcedAt = what, j
	}
}

// terminal notes that event j ends the stream: a call still open fails,
// and what comes after fails the calls it touches (late).
func (a *assembly) terminal(j int) {
	if a.ended > 0 {
		return
	}
	a.ended = j + 1
	for _, c := range a.calls {
		if !c.closed && !c.skip && c.bad == "" {
			c.bad = a.label(c) + " is still open at the stream's end, " + a.where(j) + ", before its " + a.s.stop
		}
	}
}

// late fails call c when event j, which begins, extends or ends it,
// comes after the stream's terminal event.
func (a *assembly) late(c *pending, j int) {
	if a.ended == 0 || j < a.ended || c.skip || c.bad != "" {
		return
	}
	c.bad = a.where(j) + " touches " + a.label(c) + " after the stream's end, " + a.where(a.ended-1)
}

// reportError notes the error that event j reports. A call the stream
// leaves unfinished quotes it; with none, it is a failed call of its own
// (see assemble): a stream that ends in an error gave no answer, and a
// case that expects no call must not pass on it.
func (a *assembly) reportError(j int, msg string) {
	if a.note == "" {
		a.note, a.noteAt = msg, j
	}
}

// isStream reports whether f is a stream format.
func (f *api) isStream() bool {
	_, ok := f.reader.(*streamer)
	return ok
}

// calls is a stream's reader: its calls are put together from its
// events.
func (s *streamer) calls(p plan, x extraction, _ format.Format, _ []Call) ([]Call, error) {
	return s.assemble(&p, x), nil
}

// run reads a stream as a run of one turn. Its text comes in deltas,
// which are not put together: it has no Final.
func (s *streamer) run(p plan, r value.Value, x extraction, want format.Format) (Run, error) {
	return oneTurn(&p, r, x, want, s.assemble(&p, x), 0), nil
}

// assemble reads the events of p, a JSON array or an SSE transcript, into
// the calls they stream, nil when there are none.
func (s *streamer) assemble(p *plan, x extraction) []Call {
	a := assembly{s: s, events: p.events, prefix: p.prefix}
	if a.events == nil {
		a.events = make([]event, len(p.list))
		for j, e := range p.list {
			a.events[j] = event{v: e}
		}
	}
	for j, ev := range a.events {
		switch {
		case ev.done:
		case ev.err != nil:
			a.unreadable(j, a.where(j)+" is not JSON, "+excerpt(ev.data, ev.offset())+": "+ev.err.Error())
		case ev.v.Kind() != value.Object:
			a.unreadable(j, a.where(j)+" is "+kindPhrase(ev.v)+", not an object")
		default:
			s.event(&a, ev.v, j)
		}
	}
	n, open := 0, false
	for _, c := range a.calls {
		if !c.skip {
			n++
			open = open || !c.closed && c.bad == ""
		}
	}
	if a.note != "" && !open {
		a.fail(a.noteAt, a.where(a.noteAt)+" reports an error, and the stream gives no answer: "+a.note)
		n++
	}
	if a.announced != "" && n == 0 {
		// The model stopped to call a tool, and no call came: one went
		// missing, and zero calls would pass for an answer.
		a.fail(a.announcedAt, a.where(a.announcedAt)+" says "+a.announced+", but the stream holds no call")
		n++
	}
	// An error is the end of a stream that broke off; without one, a
	// stream cut between two calls, or before any, still lacks its end,
	// and a case must not pass on what it holds: unless a call fails
	// already, the missing end is a failed call of its own.
	cut := a.note == "" && a.ended == 0 && len(a.events) > 0
	if n == 0 && !cut {
		return nil
	}
	out := make([]Call, 0, n+1)
	for _, c := range a.calls {
		if !c.skip {
			out = append(out, a.call(c, len(out), x))
			cut = cut && out[len(out)-1].Err == nil
		}
	}
	if cut {
		last := len(a.events) - 1
		out = append(out, fail(len(out), "", "the stream ends at "+a.where(last)+" without its "+s.end+
			": it broke off, and what it holds is no whole answer"))
	}
	return out
}

// where names event j: its place in the array, or its line in the
// transcript.
func (a *assembly) where(j int) string {
	if l := a.events[j].line; l > 0 {
		return "the event at line " + strconv.Itoa(l)
	}
	return loc{a.prefix, j}.at("")
}

// begin starts a call (or a block to pass over) that event j names key.
// One begun after the stream's end fails (a block that is not a call
// is passed over all the same).
func (a *assembly) begin(key string, j int) *pending {
	c := &pending{key: key, start: j}
	a.calls = append(a.calls, c)
	if a.ended > 0 && j >= a.ended {
		c.bad = a.label(c) + " begins after the stream's end, " + a.where(a.ended-1)
	}
	return c
}

// find returns the last call named key, or, with key empty, alt; nil when
// no event has begun one.
func (a *assembly) find(key, alt string) *pending {
	for i := len(a.calls) - 1; i >= 0; i-- {
		c := a.calls[i]
		if key != "" && c.key == key || key == "" && alt != "" && c.alt == alt {
			return c
		}
	}
	return nil
}

// fail makes event j a failed call of its own: one that extends a call no
// event began, or another API's call among the events.
func (a *assembly) fail(j int, reason string) {
	a.calls = append(a.calls, &pending{start: j, closed: true, bad: reason})
}

// unreadable fails the calls that event j, which does not read, leaves
// open, since it may have held their fragments; with none open it is a
// failed call itself.
func (a *assembly) unreadable(j int, reason string) {
	open := false
	for _, c := range a.calls {
		if !c.closed && !c.skip {
			open = true
			if c.bad == "" {
				c.bad = a.label(c) + " is still open when " + reason
			}
		}
	}
	if !open {
		a.fail(j, reason)
	}
}

// fragment appends f, the string (or not) at at.sub of event j, to c's
// arguments.
func (c *pending) fragment(f value.Value, j int, a *assembly, at loc, sub string) {
	a.late(c, j)
	switch {
	case c.skip || c.bad != "":
	case f.Kind() != value.String:
		c.bad = a.where(j) + "." + at.at(sub) + " is " + kindPhrase(f) + ", not a string"
	case f.Str() != "":
		c.frags = append(c.frags, frag{len(c.args), j})
		c.args = append(c.args, f.Str()...)
	}
}

// setName gives c its name, n at at.sub of event j.
func (c *pending) setName(n value.Value, j int, a *assembly, at loc, sub string) {
	switch {
	case n.Kind() == value.String:
		c.name, c.hasName = n.Str(), true
	case n.Kind() != value.Null && c.bad == "":
		c.bad = a.where(j) + "." + at.at(sub) + " is " + kindPhrase(n) + ", not a string"
	}
}

// call is c as call i.
func (a *assembly) call(c *pending, i int, x extraction) Call {
	out := a.assembled(c, i, x)
	if out.Err != nil || c.echo.Kind() != value.Object {
		return out
	}
	// The events and the final response disagree: which is the call is
	// in doubt, and a call in doubt does not pass.
	if n, ok := c.echo.Get("name"); ok && (n.Kind() != value.String || n.Str() != out.Name) {
		other := kindPhrase(n)
		if n.Kind() == value.String {
			other = excerpt(n.Str(), 0)
		}
		return fail(i, out.Name, a.label(c)+" is named "+excerpt(out.Name, 0)+", and "+c.echoAt.at("name")+" "+other)
	}
	if args, ok := c.echo.Get("arguments"); ok {
		e := readArgs(out.Name, args, true, c.echoAt, "", "arguments", textOrObject, i, x)
		if e.Err != nil {
			return e
		}
		if !value.Equal(e.Args, out.Args) {
			return fail(i, out.Name, a.label(c)+": the arguments streamed differ from those of "+c.echoAt.at(""))
		}
	}
	return out
}

// assembled is c as call i, put together from its events.
func (a *assembly) assembled(c *pending, i int, x extraction) Call {
	switch {
	case c.bad != "":
		return fail(i, c.name, c.bad)
	case !c.hasName:
		return fail(i, "", a.label(c)+" has no name")
	case !c.closed:
		return fail(i, c.name, a.label(c)+" ends with the stream, before its "+a.s.stop+"; "+a.soFar(c))
	case c.hasWhole && (c.final || len(c.args) == 0):
		return readArgs(c.name, c.whole, true, loc{a.label(c), -1}, "", "arguments", textOrObject, i, x)
	case len(c.args) == 0 && a.s.emptyIsObject:
		return Call{Name: c.name, Args: emptyObject}
	}
	v, err := x.parse(string(c.args))
	if err != nil {
		return Call{Name: c.name, Err: &ArgumentsError{Index: i, Err: err,
			Reason: a.label(c) + ": the arguments put together from " + a.fragments(c, err) + " are not a usable JSON object"}}
	}
	if v.Kind() != value.Object {
		return fail(i, c.name, a.label(c)+": the arguments put together hold "+kindPhrase(v)+", not a JSON object")
	}
	return Call{Name: c.name, Args: v}
}

// label names call c in a message: the event that began it and the key
// the stream gave it.
func (a *assembly) label(c *pending) string {
	key := c.key
	if key == "" {
		key = c.alt
	}
	return a.where(c.start) + " (" + a.s.unit + " " + key + ")"
}

// soFar says what arguments an unfinished call had when the stream ended.
func (a *assembly) soFar(c *pending) string {
	s := "no arguments came"
	if len(c.args) > 0 {
		s = "the arguments so far, from " + plural(len(c.frags), "fragment") + ", end in " + excerpt(string(c.args), len(c.args))
	}
	if a.note != "" {
		s += "; the stream reported an error: " + a.note
	}
	return s
}

// fragments says how many fragments c's arguments came in and, for a
// parse error err, which of them it is in.
func (a *assembly) fragments(c *pending, err error) string {
	s := plural(len(c.frags), "fragment")
	off, ok := errOffset(err)
	if !ok || len(c.frags) == 0 {
		return s
	}
	k := 0
	for k+1 < len(c.frags) && c.frags[k+1].off <= off {
		k++
	}
	end := len(c.args)
	if k+1 < len(c.frags) {
		end = c.frags[k+1].off
	}
	f := c.frags[k]
	return s + " (the error is in fragment " + strconv.Itoa(k+1) + ", of " + a.where(f.ev) + ": " +
		excerpt(string(c.args[f.off:end]), off-f.off) + ")"
}

// errOffset is the byte at which parse error err was found, if it says.
func errOffset(err error) (int, bool) {
	var ve *value.Error
	if errors.As(err, &ve) && ve.Offset >= 0 {
		return ve.Offset, true
	}
	return 0, false
}

// closeAll ends every call begun so far.
func (a *assembly) closeAll() {
	for _, c := range a.calls {
		c.closed = true
	}
}

// looksLikeCall reports whether e, an element among a stream's events
// that is none of them, is a call of some API, which must fail rather
// than vanish.
func looksLikeCall(e value.Value) bool {
	if t, ok := e.Get("type"); ok && t.Kind() == value.String && (isCallType(t.Str()) || t.Str() == "tool_call") {
		return true
	}
	return e.Has("name") || e.Has("function") || e.Has("functionCall") || e.Has("toolUse") || e.Has("arguments")
}

// foreign fails event j, which is not one of the stream's (what), when
// it looks like a call.
func (a *assembly) foreign(e value.Value, j int, what string) {
	if looksLikeCall(e) {
		a.fail(j, a.where(j)+" is not "+what+" but looks like a call")
	}
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
