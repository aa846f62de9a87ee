package response

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

// A conversation is read by one pass of its format's message reader over
// its messages in order. The reader tells a runBuilder what each message
// is (the model's turn, a tool's result, anything else) and hands it the
// calls, results and text; the builder numbers the steps, keeps the
// turns and pairs each result with its call. The builder lives on the
// stack and holds the first steps of a run itself, so that a run of a
// few steps is read in one walk of its messages and costs one
// allocation, its steps at their exact size. A run of more steps, or
// calls read without room for them, are counted by one walk of the whole
// conversation when the builder's room runs out, so that their memory is
// taken once, at its exact size.
//
// A result is paired, in this order:
//
//  1. by its id (tool_call_id, tool_use_id, call_id, a functionResponse
//     id), with the latest call of that id, since some servers number
//     their calls afresh each turn;
//  2. without an id, or with one that no call has, by its place: a result
//     with a name (a Gemini functionResponse, a legacy openai function
//     message) answers the first call of that name in the last turn that
//     has no result yet, and a result without one answers the n-th call
//     of the last turn when it is the n-th result since that turn. A
//     result whose id matches no call pairs by place only with a call
//     that has no id, for it answers a call the run does not show;
//  3. a result that pairs with no call, or with one that already has a
//     result (the first result wins), is passed over: it says nothing
//     about the calls the run shows.

// conversation is the reader of a format of whole conversations: it
// reads the messages of a list in order, one by one.
type conversation struct {
	// message is the reader of one message of the list: its calls,
	// results and text. It is named, not a function value, so that the
	// builder handed to it stays on the stack.
	message messageReader
	// isRun, when set, says which of the format's lists are
	// conversations; without it every list is one. A list that is none
	// is read element by element, as a single response's.
	isRun func(elems []value.Value) bool
}

func (c conversation) calls(p plan, x extraction, want format.Format, dst []Call) ([]Call, error) {
	if p.conv && p.bad == "" {
		return readConversation(&p, x, want, dst)
	}
	return p.listCalls(x, dst), nil
}

func (c conversation) run(p plan, r value.Value, x extraction, want format.Format) (Run, error) {
	var run Run
	err := c.runPlan(&p, r, x, want, nil, &run)
	return run, err
}

// runPlan is run with the plan in place and the run put in *run, which
// is zero, its steps in mem when it has room: readRunInto calls it
// directly, since the reader interface takes the plan, some two hundred
// bytes, by value and a conversation is most runs.
func (c conversation) runPlan(p *plan, r value.Value, x extraction, want format.Format, mem []Step, run *Run) error {
	if !p.conv && p.list != nil && p.bad == "" && (c.isRun == nil || !c.isRun(p.list)) {
		// A Responses output list reads alike item by item and as a
		// run, which also gives the turn's text.
		p.conv = true
	}
	if p.conv && p.bad == "" {
		return runConversation(p, x, want, mem, run)
	}
	*run = oneTurn(p, r, x, want, p.listCalls(x, nil), turnIDs|turnAnswer)
	singleBFCL(p, r, run)
	return nil
}

// messageReader names a format's reader of one message (readMessage).
type messageReader uint8

const (
	openaiMessages messageReader = iota
	anthropicMessages
	geminiContents
	langchainMessages
	responsesItems
)

// buildMode is what a pass over a conversation gathers.
type buildMode uint8

const (
	counting  buildMode = iota // the number of steps only
	callsOnly                  // the calls, for ReadCalls
	wholeRun                   // steps with results, turns and the final answer
)

// smallRun is the number of steps a builder holds in small before it
// counts the run's steps and takes memory for all of them; most runs
// make a few calls.
const smallRun = 4

// runBuilder gathers the steps of a conversation as its format's message
// reader walks the messages.
type runBuilder struct {
	x    extraction
	f    *api
	conv messages      // the conversation, which count walks
	want format.Format // the format asked for, which a ShapeError names
	mode buildMode
	// at is the message being read: the calls' messages name it.
	at loc

	n     int    // steps so far
	calls []Call // callsOnly: the calls so far
	// small holds the steps of a whole run until there are more than
	// smallRun; then big holds them all (step). It is mem's first steps
	// when mem has room for them, else memory of its own, taken at the
	// first step: an array in the builder would be cleared with it, for
	// every run, steps or none.
	small []Step
	big   []Step
	mem   []Step // memory for big or the run's steps (Options.Steps)

	turns  int  // the model's turns begun so far
	inTurn bool // the message or item being read is the model's
	// first and end bound the steps of the last turn; after counts the
	// results read since it began, for pairing by place.
	first, end, after int

	final    string
	hasFinal bool
	// last is the last model message BFCL's agentic checker would read
	// as the answer, as far as the turns closed so far go (closeTurn),
	// for Run.ReadAs; cur is what the turn being read holds toward it.
	last finalEnd
	cur  turnNotes

	// ids indexes the steps by id once a run has many, so that pairing
	// stays linear however long the run.
	ids map[string]int
	// names queues the last turn's steps by name once it has many (its
	// bounds namesFirst and namesEnd), so that results paired by name
	// stay linear too: a Gemini turn of 100,000 calls without ids took
	// 10 s, each result looking from the turn's start.
	names                *nameQueues
	namesFirst, namesEnd int
	err                  error
}

// nameQueues are a turn's steps of each name, in order, and how many of
// each the pairing has passed.
type nameQueues struct {
	steps map[string][]int
	next  map[string]int
}

// match is how a result was paired with a step, for tests.
type match struct {
	id, name string
	// first and end bound the last turn when the result came; ord is
	// the result's place among those read since.
	first, end, ord int
}

// manyIDs is the number of steps past which results find their call
// through a map rather than by looking back.
const manyIDs = 32

// messages are where a conversation's messages are, as its plan says:
// its turns, and then more, read in the same way.
type messages struct {
	turns, more         []value.Value
	turnsPath, morePath string
	moreOne             bool // more is the one message at morePath
}

// messagesOf is the messages of conversation p.
func messagesOf(p *plan) messages {
	return messages{turns: p.list, turnsPath: p.prefix, more: p.rest, morePath: p.restPrefix, moreOne: p.moreOne}
}

// readConversation returns the calls of the conversation p, into dst
// when it has room (see Options.Calls).
func readConversation(p *plan, x extraction, want format.Format, dst []Call) ([]Call, error) {
	b := runBuilder{x: x, f: p.f, conv: messagesOf(p), want: want, mode: callsOnly, calls: dst[:0]}
	b.walk()
	if b.err != nil || b.n == 0 {
		return nil, b.err
	}
	return b.calls, nil
}

// runConversation puts the conversation p, as a run, in *run, which is
// zero and stays so on an error, its steps in mem when it has room.
func runConversation(p *plan, x extraction, want format.Format, mem []Step, run *Run) error {
	var b runBuilder
	b.x, b.f, b.conv, b.want, b.mode, b.mem = x, p.f, messagesOf(p), want, wholeRun, mem
	b.walk()
	if b.err != nil {
		return b.err
	}
	b.closeTurn()
	steps := b.big
	if steps == nil && b.n > 0 {
		// In mem when it had room, and with all of small's room, which
		// a caller keeps to read the next run into (Options.Steps).
		steps = b.small[:b.n]
	}
	run.Steps, run.Final, run.HasFinal = steps, b.final, b.hasFinal
	run.end = b.last
	run.end.bfcl = true
	return nil
}

func (b *runBuilder) walk() {
	read := b.f.reader.(conversation).message
	conv := &b.conv
	for i, m := range conv.turns {
		b.at = loc{conv.turnsPath, i}
		readMessage(read, b, m)
		if b.err != nil {
			return
		}
	}
	for i, m := range conv.more {
		b.at = loc{conv.morePath, i}
		if conv.moreOne {
			b.at.index = -1
		}
		readMessage(read, b, m)
		if b.err != nil {
			return
		}
	}
}

// readMessage reads message m with reader read. The readers are called
// directly, not through function values, which would move the builder to
// the heap.
func readMessage(read messageReader, b *runBuilder, m value.Value) {
	switch read {
	case openaiMessages:
		openaiMessage(b, m)
	case anthropicMessages:
		anthropicMessage(b, m)
	case geminiContents:
		geminiContent(b, m)
	case langchainMessages:
		langchainMessage(b, m)
	case responsesItems:
		responsesItem(b, m)
	}
}

// count is the number of steps of the whole conversation: a walk that
// reads nothing but where the calls are.
func (b *runBuilder) count() int {
	c := runBuilder{x: b.x, f: b.f, conv: b.conv, want: b.want, mode: counting}
	c.walk()
	return c.n
}

// newSteps returns n steps, in b.mem when it has room: each of them is
// written whole before it is read, so what the memory held does not
// matter.
func (b *runBuilder) newSteps(n int) []Step {
	if n <= cap(b.mem) {
		return b.mem[:n]
	}
	return make([]Step, n)
}

// step is the k-th step of a whole run so far.
func (b *runBuilder) step(k int) *Step {
	if b.big != nil {
		return &b.big[k]
	}
	return &b.small[k]
}

// notMessage ends the read: a conversation is a list of objects, and an
// element that is none leaves the turns and the pairing in doubt.
func (b *runBuilder) notMessage(m value.Value) {
	b.err = &ShapeError{Want: b.want, Found: "a conversation whose element " + b.at.at("") + " is " + kindPhrase(m) + ", not a message object"}
}

// turn begins a turn of the model: an assistant message.
func (b *runBuilder) turn() {
	b.closeTurn()
	b.cur = turnNotes{open: b.mode == wholeRun}
	b.turns++
	b.first, b.end, b.after = b.n, b.n, 0
	b.inTurn = true
}

// modelItem marks an item of the model's (a Responses function call,
// reasoning or message), which begins a turn unless the item before was
// the model's too.
func (b *runBuilder) modelItem() {
	if !b.inTurn {
		b.turn()
	}
}

// other marks a message or item that is not the model's: the user's, a
// tool's, a system prompt, one of unknown role.
func (b *runBuilder) other() { b.inTurn = false }

// wantsText says whether the text of the model's messages is wanted:
// only a whole run has a final answer.
func (b *runBuilder) wantsText() bool { return b.mode == wholeRun }

// readFunc reads a call entry e of a message, found at at, as call i: a
// format's read.
type readFunc func(x extraction, e value.Value, at loc, i int) Call

// call reads the call entry e, found at at within the message being
// read, as the next step, with the call's id.
func (b *runBuilder) call(read readFunc, e value.Value, at loc, id string) {
	if b.mode == counting {
		b.n++
		return
	}
	c := read(b.x, e, at, b.n)
	b.noteCall(&c, e)
	if ae, ok := c.Err.(*ArgumentsError); ok {
		// The reader names the place within the message; put the
		// message's place before it.
		ae.Reason = b.at.message("", ae.Reason)
	}
	b.add(c, id)
}

// item reads e, the item being read, as the next step: an item of a
// Responses list is a call itself.
func (b *runBuilder) item(read readFunc, e value.Value, id string) {
	if b.mode == counting {
		b.n++
		return
	}
	c := read(b.x, e, b.at, b.n)
	b.noteCall(&c, e)
	b.add(c, id)
}

// fail adds a failed step: the thing at sub of the message being read
// is what why says. name is the call's, when known.
func (b *runBuilder) fail(name, sub, why string) {
	if b.mode == counting {
		b.n++
		return
	}
	b.add(fail(b.n, name, b.at.at(sub)+" "+why), "")
}

func (b *runBuilder) add(c Call, id string) {
	turn := b.turns
	if b.inTurn {
		turn--
	}
	switch {
	case b.mode == callsOnly:
		if len(b.calls) == cap(b.calls) {
			b.calls = slices.Grow(b.calls, max(b.count()-b.n, 1))
		}
		b.calls = append(b.calls, c)
	case b.big == nil && b.n < smallRun:
		if b.small == nil {
			b.small = b.newSteps(smallRun)
		}
		b.small[b.n] = Step{Call: c, ID: id, Turn: turn}
	default:
		if b.big == nil {
			// Into mem, when it has room, which small may be already.
			b.big = b.newSteps(max(b.count(), smallRun+1))[:smallRun]
			copy(b.big, b.small)
		}
		b.big = append(b.big, Step{Call: c, ID: id, Turn: turn})
	}
	if b.ids != nil && id != "" {
		b.ids[id] = b.n
	}
	b.n++
	if b.inTurn {
		b.end = b.n
	}
	b.final, b.hasFinal = "", false
}

// said records the text the model wrote in message or item m (its
// content at key), which has no calls: the run's answer, unless a call
// follows.
func (b *runBuilder) said(m value.Value, key string) {
	c, _ := m.Get(key)
	b.saidIn(c)
}

// saidIn is said of content c, the message's content itself.
func (b *runBuilder) saidIn(c value.Value) {
	text, first, split := contentTexts(c)
	if text != "" {
		b.final, b.hasFinal = text, true
	}
	b.cur.text, b.cur.first, b.cur.split = text, first, split
}

// turnNotes is what a turn of the model holds that BFCL's agentic
// checker looks at when it picks a run's answer (closeTurn).
type turnNotes struct {
	open   bool // a turn of a whole run is being read
	calls  int  // the calls noted
	broken bool // one of them does not decode as BFCL decodes it (bfclDecodes)
	// emptyList says the message has a tool_calls list with nothing in
	// it, which BFCL's OpenAI handler reads as no calls and no text.
	emptyList bool
	// text is what the model wrote, when the turn has no call; first
	// and split are contentTexts'.
	text, first string
	split       bool
	name        string      // the first call's name
	call        value.Value // the first call's entry, as the response wrote it
}

// noteCall notes call c of the model's turn being read, read from entry
// e: the turn's first call, and whether BFCL could decode it, as
// ReadAs(FinalBFCL) reads a run whose answer is such a turn.
func (b *runBuilder) noteCall(c *Call, e value.Value) {
	t := &b.cur
	if !t.open {
		return
	}
	if t.calls == 0 {
		t.name, t.call = c.Name, e
	}
	t.calls++
	if c.Err != nil && !bfclDecodes(c.Err, e) {
		t.broken = true
	}
}

// closeTurn ends the turn being read, as BFCL's agentic checker reads
// the model's messages: each one it cannot decode as calls, or that
// decodes to none, becomes the answer, and a message of calls it decodes
// leaves the answer as it was. So an empty message after an answer
// takes its place, and one that calls a tool does not.
func (b *runBuilder) closeTurn() {
	t := &b.cur
	if !t.open {
		return
	}
	t.open = false
	switch {
	case t.broken:
		b.last = finalEnd{broken: true, name: t.name, call: t.call}
	case t.calls > 0:
	case t.emptyList:
		b.last = finalEnd{}
	default:
		b.last = finalEnd{text: t.text, first: t.first, split: t.split}
	}
}

// bfclDecodes reports whether BFCL decodes a call whose arguments err
// says callgrade cannot use: Python's json.loads takes NaN and Infinity,
// a key written twice (the last one counts) and a lone surrogate escape,
// which callgrade rejects. entry is the call's entry, whose arguments
// text tells an escape from bytes that are not UTF-8.
func bfclDecodes(err error, entry value.Value) bool {
	switch {
	case errors.Is(err, value.ErrNonFinite), errors.Is(err, value.ErrDuplicateKey):
		return true
	case errors.Is(err, value.ErrInvalidUTF8):
		return utf8.ValidString(rawArguments(entry))
	}
	return false
}

// result pairs a tool's result with its call (see the top of this file).
// id and name are the result's, "" when it has none; content is what the
// tool returned, read by resultValue; failed says the tool reported an
// error.
func (b *runBuilder) result(id, name string, content value.Value, failed bool) {
	if b.mode != wholeRun {
		return
	}
	ord := b.after
	b.after++
	k := -1
	if id != "" {
		k = b.byID(id)
	}
	if k < 0 {
		if name != "" {
			k = b.byName(name)
		} else if j := b.first + ord; j < b.end {
			k = j
		}
		if k >= 0 && id != "" && b.step(k).ID != "" {
			k = -1 // it answers a call the run does not show
		}
	}
	if k < 0 || b.step(k).HasResult {
		return
	}
	s := b.step(k)
	s.HasResult, s.Error = true, failed
	if !b.x.skipResults {
		s.Result = b.resultValue(content)
	}
	if b.x.onMatch != nil {
		b.x.onMatch(k, match{id: id, name: name, first: b.first, end: b.end, ord: ord})
	}
}

// byID is the latest step whose id is id, or -1.
func (b *runBuilder) byID(id string) int {
	if b.ids == nil && b.n > manyIDs {
		b.ids = make(map[string]int, b.n)
		for i := range b.n {
			if s := b.step(i).ID; s != "" {
				b.ids[s] = i
			}
		}
	}
	if b.ids != nil {
		if k, ok := b.ids[id]; ok {
			return k
		}
		return -1
	}
	for k := b.n - 1; k >= 0; k-- {
		if b.step(k).ID == id {
			return k
		}
	}
	return -1
}

// byName is the first step of the last turn named name that has no
// result yet, or -1.
func (b *runBuilder) byName(name string) int {
	if b.end-b.first <= manyIDs {
		for k := b.first; k < b.end; k++ {
			if s := b.step(k); !s.HasResult && s.Err == nil && s.Name == name {
				return k
			}
		}
		return -1
	}
	if b.names == nil || b.namesFirst != b.first {
		b.names = &nameQueues{steps: map[string][]int{}, next: map[string]int{}}
		b.namesFirst, b.namesEnd = b.first, b.first
	}
	// The turn's steps since the queues were last brought up to date,
	// each queued once.
	for k := b.namesEnd; k < b.end; k++ {
		if s := b.step(k); s.Err == nil {
			b.names.steps[s.Name] = append(b.names.steps[s.Name], k)
		}
	}
	b.namesEnd = b.end
	// A step passed here has its result, now or from an earlier pairing
	// by id or by place, which never takes it back.
	steps, i := b.names.steps[name], b.names.next[name]
	for i < len(steps) && b.step(steps[i]).HasResult {
		i++
	}
	b.names.next[name] = i
	if i == len(steps) {
		return -1
	}
	return steps[i]
}

// resultValue is a tool's result: JSON text parsed, other text as a
// string, a list of text blocks as their text joined, and anything else
// (Gemini's response object, a list of images) as it is.
func (b *runBuilder) resultValue(c value.Value) value.Value {
	switch c.Kind() {
	case value.String:
		return b.jsonOrText(c.Str())
	case value.Array:
		if s, ok := joinText(c); ok {
			return b.jsonOrText(s)
		}
	}
	return c
}

// jsonOrText parses s when it is JSON text, within the arguments' limits:
// a tool's result that is too large or repeats a key stays text, as it is
// no usable JSON.
func (b *runBuilder) jsonOrText(s string) value.Value {
	if mayBeJSON(s) {
		if v, err := b.x.parse(s); err == nil {
			return v
		}
	}
	return value.StringOf(s)
}

// mayBeJSON reports whether s may be JSON text by its first byte that is
// not white space, so that a tool's prose is not parsed in vain.
func mayBeJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case ' ', '\t', '\n', '\r':
		case '{', '[', '"', '-', 't', 'f', 'n':
			return true
		default:
			return c >= '0' && c <= '9'
		}
	}
	return false
}

// joinText is the text of content list l, its text blocks (typed text,
// output_text or input_text, an untyped block's text, a plain string)
// put together with nothing between them, as Anthropic's citations split
// one answer into consecutive blocks and LangChain's text joins them; ok
// is false when l has no text.
func joinText(l value.Value) (s string, ok bool) {
	s, _, n := joinBlocks(l)
	return s, n > 0
}

// joinBlocks is joinText's text, the first text block and the number of
// text blocks.
func joinBlocks(l value.Value) (s, first string, n int) {
	var sb strings.Builder
	for _, e := range l.Elems() {
		t, is := blockText(e)
		if !is {
			continue
		}
		switch n {
		case 0:
			s, first = t, t
		case 1:
			sb.WriteString(s)
			fallthrough
		default:
			sb.WriteString(t)
		}
		n++
	}
	if n > 1 {
		s = sb.String()
	}
	return s, first, n
}

// blockText is the text of a content block or part, if it is text.
func blockText(e value.Value) (string, bool) {
	if e.Kind() == value.String {
		return e.Str(), true
	}
	t, typed := e.Get("type")
	if typed {
		switch t.Str() {
		case "text", "output_text", "input_text":
		default:
			return "", false
		}
	}
	if th, _ := e.Get("thought"); th.Kind() == value.Bool && th.Bool() {
		return "", false // a Gemini thought is not the answer
	}
	x, ok := e.Get("text")
	if !ok || x.Kind() != value.String {
		return "", false
	}
	return x.Str(), true
}

// messageText is the text of a message's content: a string, or its text
// blocks joined.
func messageText(m value.Value, key string) string {
	s, _, _ := messageTexts(m, key)
	return s
}

// messageTexts is messageText's text, and the first text block when split
// says the content has several.
func messageTexts(m value.Value, key string) (text, first string, split bool) {
	c, _ := m.Get(key)
	return contentTexts(c)
}

// contentTexts is messageTexts of content c itself.
func contentTexts(c value.Value) (text, first string, split bool) {
	switch c.Kind() {
	case value.String:
		return c.Str(), "", false
	case value.Array:
		s, first, n := joinBlocks(c)
		return s, first, n > 1
	}
	return "", "", false
}

// roleOf is m's role, "" when it has none that is a string.
func roleOf(m value.Value) string {
	r, _ := m.Get("role")
	if r.Kind() != value.String {
		return ""
	}
	return r.Str()
}

// stringAt is the string at key of o, "" when it is not one.
func stringAt(o value.Value, key string) string {
	v, _ := o.Get(key)
	if v.Kind() != value.String {
		return ""
	}
	return v.Str()
}

// heldCall reports whether message m, which its reader does not read
// for calls (it is not the model's, or its role is unknown), holds
// something shaped as a call of some API: such a message is a failed
// step, since a call must not vanish because it sits where no call
// should. It is shaped as a call itself, or an element of its content or
// parts is.
func heldCall(m value.Value) bool { return callShaped(m, true) }

// callIn is the index of the first element of the list at key of m that
// is shaped as a call, or -1.
func callIn(m value.Value, key string) int {
	l, _ := m.Get(key)
	return callAt(l)
}

// callAt is the index of the first element of list l that is shaped as
// a call, or -1.
func callAt(l value.Value) int {
	for i, e := range l.Elems() {
		if isCallShaped(e) {
			return i
		}
	}
	return -1
}

// isCallShaped reports whether e is a call, or holds calls, in the shape
// of some API: a call type, a key that holds a call (function,
// functionCall, toolUse, function_call), a non-empty tool_calls, or a
// name with arguments.
func isCallShaped(e value.Value) bool { return callShaped(e, false) }

// callShaped is isCallShaped(e), or with held heldCall(e).
func callShaped(e value.Value, held bool) bool {
	if e.Kind() != value.Object {
		return false
	}
	// One walk of the members, each compared with constants: a message
	// is asked this for itself and each of its blocks, and a lookup a
	// key would walk the members again.
	var name, args bool
	ms := e.Members()
	for i := range ms {
		switch v := ms[i].Value; ms[i].Key {
		case "type":
			if v.Kind() == value.String {
				switch v.Str() {
				case "function_call", "tool_use", "function", "tool_call", "invalid_tool_call":
					return true
				}
				if isUnknownCall(e) {
					return true // a call of a type no format reads (shell_call, …)
				}
			}
		case "function", "functionCall", "toolUse", "function_call":
			if v.Kind() != value.Null {
				return true
			}
		case "tool_calls":
			if v.Kind() != value.Null && (v.Kind() != value.Array || v.Len() > 0) {
				return true
			}
		case "name":
			name = true
		case "arguments":
			args = true
		case "content", "parts":
			if held && callAt(v) >= 0 {
				return true
			}
		}
	}
	return name && args
}

// failHeld fails message m, not read for calls, when it holds one; role
// is its role, which the failure names.
func (b *runBuilder) failHeld(m value.Value, role string) {
	if heldCall(m) {
		b.failHere(roleWhat(role))
	}
}

// failHere fails the message being read, which holds a call though it is
// what says.
func (b *runBuilder) failHere(what string) {
	b.fail("", "", "holds a call, but is "+what+", whose calls are not read")
}

// roleWhat names a message by its role, for a message.
func roleWhat(role string) string {
	if role == "" {
		return "a message without a role"
	}
	return "a message of role " + strconv.Quote(role)
}

// messageShape is what the format of a message is told by, found in one
// walk of its members (every element of a conversation is asked its
// format while the format is detected): whether it has parts, whether
// it has one of openai's keys tool_calls, tool_call_id and
// function_call, its role and its content (null when absent).
type messageShape struct {
	parts, openai bool
	role, content value.Value
}

// format is the conversation format of a message of shape s, and how
// surely (itemFormat's ranks): Gemini's parts; openai's
// tool_calls, tool_call_id, function_call, its roles tool, function,
// developer and system, and its content parts; Anthropic's content
// blocks; a user or assistant message of text alone says only that it
// is a chat message, which is openai's unless another message says more.
// A message whose content blocks have no type (Bedrock Converse's) is no
// message of these formats.
func (s *messageShape) format() (*api, itemRank) {
	switch {
	case s.parts:
		return &geminiContentsFormat, byRole
	case s.openai:
		return &openaiMessagesFormat, byRole
	}
	if s.role.Kind() == value.String {
		switch s.role.Str() {
		case "tool", "function", "developer", "system":
			return &openaiMessagesFormat, byRole
		case "model":
			return &geminiContentsFormat, byRole
		}
	}
	for _, blk := range s.content.Elems() {
		if blk.Kind() != value.Object {
			continue
		}
		t, ok := blk.Get("type")
		if !ok || t.Kind() != value.String {
			return nil, noRank
		}
		switch t.Str() {
		case "tool_use", "tool_result", "thinking", "redacted_thinking", "image", "document", "server_tool_use":
			return &anthropicMessagesFormat, byRole
		case "image_url", "input_audio", "file", "refusal":
			return &openaiMessagesFormat, byRole
		}
	}
	return &openaiMessagesFormat, byRoleOf
}

// messagesFormat is the format of the conversation at messages of o, a
// request or an agent's state, or nil. Anthropic's request has its
// system prompt beside the messages, where openai's is one of them, so a
// list of plain messages with a system key is Anthropic's.
func messagesFormat(o value.Value) *api {
	l, ok := o.Get("messages")
	if !ok || l.Kind() != value.Array {
		return nil
	}
	f, rank := listFormat(l.Elems())
	switch {
	case f == nil && l.Len() > 0:
		return nil
	case (f == nil || rank == byRoleOf) && o.Has("system"):
		return &anthropicMessagesFormat
	case f == nil:
		return &openaiMessagesFormat
	}
	return f
}

func isOpenAIMessages(o value.Value) bool    { return messagesFormat(o) == &openaiMessagesFormat }
func isAnthropicMessages(o value.Value) bool { return messagesFormat(o) == &anthropicMessagesFormat }
func isLangChainMessages(o value.Value) bool { return messagesFormat(o) == &langchainMessagesFormat }

func hasMessagesList(o value.Value) bool { return hasList(o, "messages") }
func hasContentsList(o value.Value) bool { return hasList(o, "contents") }

// hasInputList is a Responses request, or a run: its input list, and
// perhaps its output.
func hasInputList(o value.Value) bool { return hasList(o, "input") }

func hasList(o value.Value, key string) bool {
	l, ok := o.Get(key)
	return ok && l.Kind() == value.Array
}

func messagesPlan(o value.Value, _ extraction) plan {
	if k := answerBeside(o, ""); k != "" {
		return answerBesidePlan("messages", k)
	}
	l, _ := o.Get("messages")
	return plan{conv: true, list: l.Elems(), prefix: "messages"}
}

func contentsPlan(o value.Value, _ extraction) plan {
	if k := answerBeside(o, ""); k != "" {
		return answerBesidePlan("contents", k)
	}
	l, _ := o.Get("contents")
	return plan{conv: true, list: l.Elems(), prefix: "contents"}
}

// answerKeys are the keys under which a log record keeps the model's
// answer beside the request that asked for it.
var answerKeys = [...]string{"response", "completion", "result", "reply", "output"}

// answerBeside is the first key of answerKeys but skip that holds an
// object or a list beside a request's conversation, or "": read as the
// conversation alone, such a record would pass over the answer's calls,
// and a case that forbids them would pass.
func answerBeside(o value.Value, skip string) string {
	for _, k := range answerKeys {
		if k == skip {
			continue
		}
		if v, ok := o.Get(k); ok && (v.Kind() == value.Object || v.Kind() == value.Array) {
			return k
		}
	}
	return ""
}

func answerBesidePlan(conv, key string) plan {
	return plan{bad: conv + " is a request's conversation, and " + key + " beside it holds an answer that reading the conversation would pass over: give the answer alone as the response, or append its message to " + conv}
}

// inputPlan reads a Responses input and then its output, the items the
// model added.
func inputPlan(o value.Value, _ extraction) plan {
	if k := answerBeside(o, "output"); k != "" {
		return answerBesidePlan("input", k)
	}
	in, _ := o.Get("input")
	out, ok := o.Get("output")
	if ok && out.Kind() != value.Array && out.Kind() != value.Null {
		return plan{bad: "output is " + kindPhrase(out) + ", not an array"}
	}
	return plan{conv: true, list: in.Elems(), prefix: "input", rest: out.Elems(), restPrefix: "output"}
}
