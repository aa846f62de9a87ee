package response

import (
	"cmp"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/internal/jsonv"
	"github.com/callgrade/callgrade/internal/number"
	"github.com/callgrade/callgrade/value"
)

var otlpFormat = api{
	name:   format.OTLP,
	emits:  every,
	read:   readTraceStep,
	reader: traceFamily{},
}

// isOTLPExport is an OTLP/JSON export object, or a TracesData message.
func isOTLPExport(o value.Value) bool { return o.Has("resourceSpans") }

// traceFamily is the reader of a trace: it collects the spans of the
// export its plan found (tracePlan) and reads them as a run, or as the
// calls of the run's steps.
type traceFamily struct{}

func (traceFamily) calls(p plan, x extraction, _ format.Format, dst []Call) ([]Call, error) {
	if p.trace.Kind() == value.Object {
		t := collectTrace(p.trace, x)
		q := t.stepsPlan()
		q.f = p.f
		p = q
	}
	return p.listCalls(x, dst), nil
}

func (tf traceFamily) run(p plan, r value.Value, x extraction, want format.Format) (Run, error) {
	if p.trace.Kind() != value.Object {
		// A list forced to otlp: its elements are failed calls.
		calls, _ := tf.calls(p, x, want, nil)
		return oneTurn(&p, r, x, want, calls, turnIDs|turnAnswer), nil
	}
	t := collectTrace(p.trace, x)
	if t.bad != "" {
		return Run{Steps: []Step{{Call: fail(0, "", t.bad)}}}, nil
	}
	run := Run{Final: t.final, HasFinal: t.hasFinal, NotEvaluable: t.notEvaluable}
	if len(t.steps) > 0 {
		run.Steps = make([]Step, len(t.steps))
	}
	for i := range t.steps {
		s := &t.steps[i]
		st := Step{Call: s.call(x, i), ID: s.id, Turn: s.turn, Error: s.err, HasResult: s.hasResult, Result: s.result}
		if s.hasResult && s.resultText {
			if v, err := x.parse(s.result.Str()); err == nil {
				st.Result = v
			}
		}
		run.Steps[i] = st
	}
	return run, nil
}

// traceMark is the prefix of the plan of a trace, which no list of a
// response can have: the elements readTraceStep reads are the steps that
// stepsPlan found, and any other element is a failed call.
const traceMark = "\x00trace"

// tracePlan finds the export o, whose spans its reader collects: they are
// collected once, by the reading that needs them, not by detection.
func tracePlan(o value.Value, _ extraction) plan { return plan{trace: o} }

// stepsPlan is the plan of the calls of trace t, for ReadCalls: its steps
// as objects of readTraceStep's, {"at", "name", "arguments", "why"}. A
// trace that is not evaluable is one failed call.
func (t *trace) stepsPlan() plan {
	switch {
	case t.bad != "":
		return plan{bad: t.bad}
	case t.notEvaluable != "":
		return plan{bad: "not evaluable: " + t.notEvaluable, notEvaluable: t.notEvaluable}
	case len(t.steps) == 0:
		return plan{}
	}
	list := make([]value.Value, len(t.steps))
	for i := range t.steps {
		s := &t.steps[i]
		m := []value.Member{{Key: "at", Value: value.StringOf(s.argsAt)}, {Key: "name", Value: value.StringOf(s.name)}}
		if s.why != "" {
			m = append(m, value.Member{Key: "why", Value: value.StringOf(s.why)})
		} else {
			m = append(m, value.Member{Key: "arguments", Value: s.args})
		}
		list[i], _ = value.ObjectOf(m...)
	}
	return plan{list: list, prefix: traceMark}
}

// readTraceStep reads a step of tracePlan's.
func readTraceStep(x extraction, e value.Value, at loc, i int) Call {
	if at.prefix != traceMark {
		return fail(i, "", at.at("")+" is an element of a list: an otlp response is an OTLP/JSON export object, with resourceSpans")
	}
	str := func(k string) string {
		v, _ := e.Get(k)
		return v.Str()
	}
	s := traceStep{argsAt: str("at"), name: str("name"), why: str("why")}
	s.args, _ = e.Get("arguments")
	return s.call(x, i)
}

// traceStep is a call read from a trace, and what came of it.
type traceStep struct {
	name string
	// why, when set, fails the call: its name or arguments are missing,
	// or not recorded, or of the wrong type.
	why string
	// args are the arguments as recorded, an object or JSON text; argsAt
	// names where, for messages.
	args   value.Value
	argsAt string
	// unrecorded says why is that the arguments were not recorded, which
	// a tool span's arguments may make up for.
	unrecorded bool
	id         string
	turn       int
	result     value.Value
	hasResult  bool
	resultText bool // result is a string, JSON text or not
	err        bool
	// start, seq and part place the step: its span's start time and
	// place in the file, and its place among the span's calls.
	start     uint64
	seq, part int
	model     bool // made by a chat span, not found in a tool span
	merged    bool // a model's call that a tool span has given its result
}

func (s *traceStep) call(x extraction, i int) Call {
	if s.why != "" {
		return fail(i, s.name, s.why)
	}
	return readArgs(s.name, s.args, true, loc{s.argsAt, -1}, "", "", textOrObject, i, x)
}

func (s *traceStep) before(t *traceStep) bool {
	return cmp.Or(cmp.Compare(s.start, t.start), cmp.Compare(s.seq, t.seq), cmp.Compare(s.part, t.part)) < 0
}

// trace is what collectTrace found.
type trace struct {
	steps        []traceStep
	final        string
	hasFinal     bool
	notEvaluable string
	bad          string              // the export is malformed: one failed call
	chats, tools int                 // chat (and LLM) spans, tool spans
	n            [oiToolSpan + 1]int // spans by kind
	content      bool                // some opt-in content was recorded
	// recorded counts the model spans that record their output; silent
	// names the first that does not (and did not end in an error), of
	// nSilent such spans.
	recorded, nSilent int
	silent            string
}

// span is one span of the export.
type span struct {
	at    string // resourceSpans[i].scopeSpans[j].spans[k]
	name  string
	start uint64
	seq   int
	attrs []value.Value // the attributes, checked to be {key, value}
	o     value.Value
	k     spanKind
}

// where names the span in messages.
func (s *span) where() string {
	if s.name == "" {
		return s.at
	}
	return s.at + " (" + strconv.Quote(shorten(s.name)) + ")"
}

// attr returns the value of attribute key, its AnyValue; dup says the
// span has the key more than once, which OTLP does not allow.
func (s *span) attr(key string) (v value.Value, ok, dup bool) {
	for _, a := range s.attrs {
		k, _ := a.Get("key")
		if k.Str() != key {
			continue
		}
		if ok {
			return v, true, true
		}
		v, _ = a.Get("value")
		ok = true
	}
	return v, ok, false
}

// str returns attribute key when it is a string.
func (s *span) str(key string) string {
	v, ok, _ := s.attr(key)
	if !ok {
		return ""
	}
	sv, _ := v.Get("stringValue")
	return sv.Str()
}

// content returns attribute key decoded, for a content attribute: ok is
// false when the span does not have it (or OpenInference redacted it),
// and why says why a value it has cannot be used.
func (s *span) content(key string) (v value.Value, ok bool, why string) {
	a, ok, dup := s.attr(key)
	switch {
	case !ok:
		return v, false, ""
	case dup:
		return v, true, s.where() + " has attribute " + key + " twice"
	}
	v, err := AnyValue(a)
	switch {
	case err != "":
		return v, true, s.where() + " attribute " + key + ": " + err
	case v.Kind() == value.String && v.Str() == redacted:
		return v, false, ""
	}
	return v, true, ""
}

// redacted is what OpenInference writes in place of a value its
// configuration hides.
const redacted = "__REDACTED__"

// AnyValue decodes an OTLP/JSON AnyValue: stringValue, boolValue,
// intValue (a string or a number), doubleValue, bytesValue (its base64
// text), arrayValue and kvlistValue (an object). An AnyValue with none of
// them is null. The string, when not empty, says why it does not decode.
// The otlp importer reads a case's attribute with it.
func AnyValue(a value.Value) (value.Value, string) {
	if a.Kind() != value.Object {
		return value.Value{}, "the value is " + kindPhrase(a) + ", not an AnyValue object"
	}
	var key string
	var v value.Value
	for _, m := range a.Members() {
		switch m.Key {
		case "stringValue", "boolValue", "intValue", "doubleValue", "bytesValue", "arrayValue", "kvlistValue":
			if key != "" {
				return value.Value{}, "the AnyValue has both " + key + " and " + m.Key
			}
			key, v = m.Key, m.Value
		}
	}
	want := func(k value.Kind) string {
		return "the " + key + " is " + kindPhrase(v) + ", not " + jsonv.WithArticle(k)
	}
	switch key {
	case "":
		return value.Value{}, ""
	case "stringValue", "bytesValue":
		if v.Kind() != value.String {
			return value.Value{}, want(value.String)
		}
		return v, ""
	case "boolValue":
		if v.Kind() != value.Bool {
			return value.Value{}, want(value.Bool)
		}
		return v, ""
	case "intValue":
		if v.Kind() != value.String && v.Kind() != value.Number {
			return value.Value{}, want(value.String)
		}
		if _, err := strconv.ParseInt(v.Str(), 10, 64); err != nil {
			return value.Value{}, "the intValue " + strconv.Quote(shorten(v.Str())) + " is not a 64-bit integer"
		}
		n, _ := value.NumberOf(v.Str())
		return n, ""
	case "doubleValue":
		if v.Kind() == value.Number {
			return v, ""
		}
		if v.Kind() == value.String && number.Valid(v.Str()) {
			n, _ := value.NumberOf(v.Str())
			return n, ""
		}
		return value.Value{}, "the doubleValue is " + kindPhrase(v) + ", not a JSON number"
	}
	vals, err := anyValues(v, key)
	if err != "" {
		return value.Value{}, err
	}
	if key == "arrayValue" {
		elems := make([]value.Value, len(vals))
		for i, e := range vals {
			if elems[i], err = AnyValue(e); err != "" {
				return value.Value{}, "arrayValue.values[" + strconv.Itoa(i) + "]: " + err
			}
		}
		return value.ArrayOf(elems...), ""
	}
	members := make([]value.Member, len(vals))
	for i, kv := range vals {
		k, ok := kv.Get("key")
		if kv.Kind() != value.Object || !ok || k.Kind() != value.String {
			return value.Value{}, "kvlistValue.values[" + strconv.Itoa(i) + "] is not a key and a value"
		}
		e, _ := kv.Get("value")
		if !kv.Has("value") {
			e = value.Value{}
		} else if e, err = AnyValue(e); err != "" {
			return value.Value{}, "kvlistValue.values[" + strconv.Itoa(i) + "]: " + err
		}
		members[i] = value.Member{Key: k.Str(), Value: e}
	}
	o, oerr := value.ObjectOf(members...)
	if oerr != nil {
		msg := oerr.Error()
		var ve *value.Error
		if errors.As(oerr, &ve) && ve.Detail != "" {
			msg = ve.Detail
		}
		return value.Value{}, "kvlistValue: " + msg
	}
	return o, ""
}

// anyValues returns the values list of an arrayValue or kvlistValue v.
func anyValues(v value.Value, key string) ([]value.Value, string) {
	if v.Kind() != value.Object {
		return nil, "the " + key + " is " + kindPhrase(v) + ", not an object"
	}
	l, ok := v.Get("values")
	switch {
	case !ok || l.Kind() == value.Null:
		return nil, ""
	case l.Kind() != value.Array:
		return nil, key + ".values is " + kindPhrase(l) + ", not an array"
	}
	return l.Elems(), ""
}

// spanKind is what a span is to a run.
type spanKind uint8

const (
	otherSpan  spanKind = iota
	chatSpan            // a GenAI inference span
	toolSpan            // a GenAI execute_tool span
	llmSpan             // an OpenInference LLM span
	oiToolSpan          // an OpenInference TOOL span
)

func (s *span) kind() spanKind {
	op := s.str("gen_ai.operation.name")
	switch op {
	case "execute_tool":
		return toolSpan
	case "chat", "generate_content", "text_completion":
		return chatSpan
	case "":
	default:
		return otherSpan
	}
	switch s.str("openinference.span.kind") {
	case "LLM":
		return llmSpan
	case "TOOL":
		return oiToolSpan
	}
	// The conventions' examples leave the operation out now and then;
	// the span name starts with it.
	switch {
	case isWord(s.name, "execute_tool"):
		return toolSpan
	case isWord(s.name, "chat"), isWord(s.name, "generate_content"), isWord(s.name, "text_completion"):
		return chatSpan
	}
	if _, ok, _ := s.attr("gen_ai.output.messages"); ok {
		return chatSpan
	}
	return otherSpan
}

// isWord reports whether name is w or starts with w and a space.
func isWord(name, w string) bool {
	return strings.HasPrefix(name, w) && (len(name) == len(w) || name[len(w)] == ' ')
}

// collectTrace reads the spans of export o into steps, in order.
func collectTrace(o value.Value, x extraction) trace {
	var t trace
	spans, bad := exportSpans(o)
	if bad != "" {
		return trace{bad: bad}
	}
	slices.SortStableFunc(spans, func(a, b span) int { return cmp.Compare(a.start, b.start) })
	var tools []traceStep
	lastChat := -1
	var finalText []string
	finalOK := false
	for i := range spans {
		s := &spans[i]
		s.k = s.kind()
		t.n[s.k]++
		switch s.k {
		case chatSpan:
			lastChat = i
			finalText, finalOK = t.chat(s, x)
			t.chats++
		case llmSpan:
			lastChat = i
			finalText, finalOK = t.llm(s)
			t.chats++
		case toolSpan, oiToolSpan:
			// Made by the last model span that started before it, if its
			// own call is not found: the spans are in start order.
			st := t.tool(s)
			st.turn = max(t.chats-1, 0)
			tools = append(tools, st)
			t.tools++
		}
	}
	switch {
	case t.chats+t.tools == 0:
		t.notEvaluable = "the trace has no span of a model or a tool: no chat or execute_tool span of the GenAI semantic conventions, no LLM or TOOL span of OpenInference"
	case !t.content:
		t.notEvaluable = unrecordedMessage(&t.n)
	case t.nSilent > 0 && t.recorded > 0:
		t.notEvaluable = t.partlyRecorded()
	}
	if t.notEvaluable == "" {
		t.merge(tools)
	} else {
		// The calls' names may still be known; nothing else is.
		t.steps = append(t.steps, tools...)
	}
	slices.SortStableFunc(t.steps, func(a, b traceStep) int {
		if a.before(&b) {
			return -1
		}
		if b.before(&a) {
			return 1
		}
		return 0
	})
	// The answer is the text after the last call of the last model
	// span, unless a call that no model span shows came after it.
	if t.notEvaluable == "" && lastChat >= 0 && finalOK && len(finalText) > 0 {
		last := &spans[lastChat]
		after := false
		for i := range t.steps {
			if s := &t.steps[i]; !s.model && (s.start > last.start || s.start == last.start && s.seq > last.seq) {
				after = true
			}
		}
		if !after {
			t.final, t.hasFinal = strings.Join(finalText, ""), true
		}
	}
	return t
}

// unrecordedMessage says what a trace without content lacks: n counts
// the spans of each kind.
func unrecordedMessage(n *[oiToolSpan + 1]int) string {
	var have, lack []string
	for _, k := range []struct {
		kind       spanKind
		span, attr string
	}{
		{chatSpan, "chat span", "gen_ai.output.messages"},
		{llmSpan, "LLM span", "llm.output_messages content or tool call arguments"},
		{toolSpan, "execute_tool span", "gen_ai.tool.call.arguments"},
		{oiToolSpan, "TOOL span", "input.value"},
	} {
		if n[k.kind] > 0 {
			have = append(have, plural(n[k.kind], k.span))
			lack = append(lack, k.attr)
		}
	}
	hint := "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true, or its like, records it"
	if n[chatSpan]+n[toolSpan] == 0 {
		hint = "OpenInference records it unless OPENINFERENCE_HIDE_OUTPUTS, or its like, hides it"
	}
	return "the trace has " + andList(have, "") + " but " + andList(lack, "no ") +
		": it was recorded without the opt-in content of the calls (" + hint + ")"
}

// outputRecorded counts model span s as one that records its output, or,
// when it does not, as one whose calls the trace may not show: what names
// says it lacks. A span that ended in an error had no output to record.
func (t *trace) outputRecorded(s *span, recorded bool, lacks string) {
	switch {
	case recorded:
		t.recorded++
	case s.isError():
	default:
		if t.nSilent == 0 {
			t.silent = s.where() + " records no output (no " + lacks + ")"
		}
		t.nSilent++
	}
}

// partlyRecorded says what a trace lacks whose model spans record their
// output in part.
func (t *trace) partlyRecorded() string {
	own := "record theirs"
	if t.recorded == 1 {
		own = "records its own"
	}
	msg := t.silent + ", while " + plural(t.recorded, "other model span") + " of the trace " + own +
		": a trace recorded in part may hide calls"
	if n := t.nSilent - 1; n > 0 {
		verb := "record"
		if n == 1 {
			verb = "records"
		}
		msg += " (and " + plural(n, "more model span") + " " + verb + " none)"
	}
	return msg
}

// andList is "a, b and c", each item after prefix.
func andList(items []string, prefix string) string {
	s := prefix + items[0]
	for i, it := range items[1:] {
		if i == len(items)-2 {
			s += " and "
		} else {
			s += ", "
		}
		s += prefix + it
	}
	return s
}

// merge puts the tool spans' steps with the calls of the model spans:
// a tool span gives its result to the model's call of the same id, or,
// when either has no id, to the model's first call of its name made
// before it that has none yet. A tool span that finds no call is a call
// of its own, which no later tool span takes for its call.
//
// The model's calls are queued by id and by name, so that the pairing is
// linear: looking for each tool span's call from the first took 39 s for
// 80,000 calls without ids. The queues are in the steps' order, which is
// the order of their start (collectTrace reads the spans so): the first
// call of a queue that no span has taken is the first that may be, and
// if it was not made before the tool span, no later one was.
func (t *trace) merge(tools []traceStep) {
	byID := map[string]*stepQueue{}
	noID, withID := map[string]*stepQueue{}, map[string]*stepQueue{}
	for i := range t.steps {
		c := &t.steps[i]
		if !c.model || c.merged {
			continue
		}
		if c.id != "" {
			queueOf(byID, c.id).add(i)
			queueOf(withID, c.name).add(i)
		} else {
			queueOf(noID, c.name).add(i)
		}
	}
	for k := range tools {
		ts := &tools[k]
		m := -1
		if ts.id != "" {
			m = byID[ts.id].head(t.steps)
		}
		if m < 0 {
			// A call without an id for any span, and one with an id for
			// a span without one: the first of either.
			m = noID[ts.name].head(t.steps)
			if ts.id == "" {
				if j := withID[ts.name].head(t.steps); j >= 0 && (m < 0 || j < m) {
					m = j
				}
			}
			if m >= 0 && !t.steps[m].before(ts) {
				m = -1
			}
		}
		if m < 0 {
			t.steps = append(t.steps, *ts)
			continue
		}
		c := &t.steps[m]
		c.merged = true
		c.result, c.hasResult, c.resultText, c.err = ts.result, ts.hasResult, ts.resultText, ts.err
		if c.id == "" {
			c.id = ts.id
		}
		if c.unrecorded && ts.why == "" {
			c.args, c.argsAt, c.why, c.unrecorded = ts.args, ts.argsAt, "", false
		}
	}
}

// stepQueue is the indexes of model calls in order, and how many of them
// the pairing has passed: each is passed once, when a tool span has
// taken it.
type stepQueue struct {
	steps []int
	next  int
}

func queueOf(m map[string]*stepQueue, key string) *stepQueue {
	q := m[key]
	if q == nil {
		q = &stepQueue{}
		m[key] = q
	}
	return q
}

func (q *stepQueue) add(i int) { q.steps = append(q.steps, i) }

// head is the first call of q that no tool span has taken, or -1; a nil
// q has none.
func (q *stepQueue) head(steps []traceStep) int {
	if q == nil {
		return -1
	}
	for q.next < len(q.steps) && steps[q.steps[q.next]].merged {
		q.next++
	}
	if q.next == len(q.steps) {
		return -1
	}
	return q.steps[q.next]
}

// exportSpans returns the spans of export o in the order of the file, or
// says what in it is malformed.
func exportSpans(o value.Value) ([]span, string) {
	var spans []span
	bad := EachSpan(o, func(_, _, x value.Value, at string) string {
		s, bad := readSpan(x, at)
		if bad != "" {
			return bad
		}
		s.seq = len(spans)
		spans = append(spans, s)
		return ""
	})
	if bad != "" {
		return nil, bad
	}
	return spans, ""
}

// EachSpan calls f with each element of the spans lists of export o, in
// the file's order, with the resourceSpans and scopeSpans objects it sits
// in and its place for messages. It stops at the first problem of shape,
// the export's or one f returns, and returns it. The otlp importer
// splits an export by case with it.
func EachSpan(o value.Value, f func(rs, ss, s value.Value, at string) string) string {
	rss, bad := list(o, "resourceSpans", "")
	if bad != "" {
		return bad
	}
	for i, rs := range rss {
		at := "resourceSpans[" + strconv.Itoa(i) + "]"
		if rs.Kind() != value.Object {
			return at + " is " + kindPhrase(rs) + ", not an object"
		}
		sss, bad := list(rs, "scopeSpans", at)
		if bad != "" {
			return bad
		}
		for j, ss := range sss {
			at := at + ".scopeSpans[" + strconv.Itoa(j) + "]"
			if ss.Kind() != value.Object {
				return at + " is " + kindPhrase(ss) + ", not an object"
			}
			l, bad := list(ss, "spans", at)
			if bad != "" {
				return bad
			}
			for k, s := range l {
				if bad := f(rs, ss, s, at+".spans["+strconv.Itoa(k)+"]"); bad != "" {
					return bad
				}
			}
		}
	}
	return ""
}

// list returns the array at key of o (at names o): absent or null is
// empty.
func list(o value.Value, key, at string) ([]value.Value, string) {
	l, ok := o.Get(key)
	switch {
	case !ok || l.Kind() == value.Null:
		return nil, ""
	case l.Kind() != value.Array:
		return nil, join(at, key) + " is " + kindPhrase(l) + ", not an array"
	}
	return l.Elems(), ""
}

func readSpan(o value.Value, at string) (span, string) {
	if o.Kind() != value.Object {
		return span{}, at + " is " + kindPhrase(o) + ", not an object"
	}
	s := span{at: at, o: o}
	if n, ok := o.Get("name"); ok {
		if n.Kind() != value.String {
			return span{}, at + ".name is " + kindPhrase(n) + ", not a string"
		}
		s.name = n.Str()
	}
	if st, ok := o.Get("startTimeUnixNano"); ok && st.Kind() != value.Null {
		n, err := strconv.ParseUint(st.Str(), 10, 64)
		if err != nil || st.Kind() != value.String && st.Kind() != value.Number {
			return span{}, at + ".startTimeUnixNano is not a time in nanoseconds: " + shorten(st.String())
		}
		s.start = n
	}
	attrs, bad := list(o, "attributes", at)
	if bad != "" {
		return span{}, bad
	}
	for i, a := range attrs {
		k, ok := a.Get("key")
		if a.Kind() != value.Object || !ok || k.Kind() != value.String {
			return span{}, at + ".attributes[" + strconv.Itoa(i) + "] is not a key and a value"
		}
	}
	s.attrs = attrs
	return s, ""
}

// isError reports whether span s ended in an error: its status code is
// ERROR (2, or "STATUS_CODE_ERROR" as protojson writes it), or it has an
// error.type.
func (s *span) isError() bool {
	if _, ok, _ := s.attr("error.type"); ok {
		return true
	}
	st, _ := s.o.Get("status")
	c, _ := st.Get("code")
	return c.Str() == "2" || c.Str() == "STATUS_CODE_ERROR"
}

// statusMessage is the message of s's status.
func (s *span) statusMessage() string {
	st, _ := s.o.Get("status")
	m, _ := st.Get("message")
	return m.Str()
}

// chat reads the calls of GenAI chat span s, and returns the text after
// its last call.
func (t *trace) chat(s *span, x extraction) (text []string, ok bool) {
	const key = "gen_ai.output.messages"
	turn := t.chats
	at := s.where() + " " + key
	msgs, present, why := s.content(key)
	t.outputRecorded(s, present, key)
	if !present {
		return nil, false
	}
	t.content = true
	fails := func(why string) ([]string, bool) {
		t.steps = append(t.steps, traceStep{why: why, argsAt: at, turn: turn, start: s.start, seq: s.seq, model: true})
		return nil, false
	}
	if why != "" {
		return fails(why)
	}
	if msgs.Kind() == value.String {
		// Recorded as JSON text where structured attributes are not
		// supported, as most SDKs do.
		v, err := x.p.Parse(msgs.Str(), value.Limits{MaxBytes: len(msgs.Str()) + 1, MaxDepth: x.maxDepth() + EnvelopeDepth})
		if err != nil {
			return fails(at + " is not JSON: " + err.Error())
		}
		msgs = v
	}
	if msgs.Kind() != value.Array {
		return fails(at + " is " + kindPhrase(msgs) + ", not a list of messages")
	}
	if msgs.Len() == 0 {
		return nil, true
	}
	// Each message is a choice; the first is the answer, as choices[0].
	msg := msgs.Elems()[0]
	parts, bad := list(msg, "parts", at+"[0]")
	switch {
	case msg.Kind() != value.Object:
		return fails(at + "[0] is " + kindPhrase(msg) + ", not a message object")
	case bad != "":
		return fails(bad)
	}
	calls := false
	for j, p := range parts {
		pat := at + "[0].parts[" + strconv.Itoa(j) + "]"
		typ, _ := p.Get("type")
		switch {
		case p.Kind() != value.Object:
			t.addModel(traceStep{why: pat + " is " + kindPhrase(p) + ", not an object"}, s, turn, j)
			calls = true
		case typ.Kind() != value.String:
			if p.Has("name") || p.Has("arguments") {
				t.addModel(traceStep{why: pat + " has no type"}, s, turn, j)
				calls = true
			}
		case typ.Str() == "tool_call":
			t.addModel(toolCallPart(p, pat), s, turn, j)
			calls = true
		case typ.Str() == "text":
			if c, _ := p.Get("content"); c.Kind() == value.String {
				text = append(text, c.Str())
			}
		}
	}
	if calls {
		// Text beside a call is no answer, as in a conversation.
		return nil, true
	}
	return text, true
}

func (t *trace) addModel(st traceStep, s *span, turn, part int) {
	st.turn, st.start, st.seq, st.part, st.model = turn, s.start, s.seq, part, true
	t.steps = append(t.steps, st)
}

// toolCallPart reads a tool_call part p, at pat: arguments that are
// absent or null are none ({}).
func toolCallPart(p value.Value, pat string) traceStep {
	st := traceStep{argsAt: pat + ".arguments"}
	n, ok := p.Get("name")
	switch {
	case !ok:
		st.why = pat + ".name is missing"
	case n.Kind() != value.String:
		st.why = pat + ".name is " + kindPhrase(n) + ", not a string"
	case n.Str() == "":
		st.why = pat + ".name is empty"
	}
	st.name = n.Str()
	if id, ok := p.Get("id"); ok && (id.Kind() == value.String || id.Kind() == value.Number) {
		st.id = id.Str()
	}
	st.args, ok = p.Get("arguments")
	if !ok || st.args.Kind() == value.Null {
		st.args = emptyObject
	}
	return st
}

// oiPrefix is where OpenInference flattens the tool calls of an LLM
// span's first output message.
const oiPrefix = "llm.output_messages.0.message."

// llm reads the calls of OpenInference LLM span s, and returns its
// message's text when it has no call.
func (t *trace) llm(s *span) (text []string, ok bool) {
	turn := t.chats
	o := t.readOIOutput(s)
	t.outputRecorded(s, o.recorded, "llm.output_messages.0.message attributes")
	slices.SortFunc(o.calls, func(a, b oiCall) int { return cmp.Compare(a.m, b.m) })
	for j, c := range o.calls {
		t.addModel(c.step(s), s, turn, j)
	}
	if len(o.calls) > 0 {
		return nil, true
	}
	return o.text(), true
}

// oiOutput is what an OpenInference LLM span's attributes say of its
// first output message.
type oiOutput struct {
	calls      []oiCall
	content    value.Value // message.content
	hasContent bool        // content is a string
	contents   []oiText    // the text parts of message.contents
	recorded   bool        // some attribute of the message is recorded
	hidden     bool        // a text part is redacted
}

// oiCall is a tool call, tool_calls.M, of an OpenInference LLM span.
type oiCall struct {
	m                int
	name, args, id   value.Value
	hasName, hasArgs bool
	nameWhy, argsWhy string
	nameKey, argsKey string
}

// oiText is part K of the message's text.
type oiText struct {
	k    int
	text string
}

// readOIOutput reads the llm.output_messages attributes of s, and notes
// in t whether content was recorded.
func (t *trace) readOIOutput(s *span) oiOutput {
	var o oiOutput
	for _, a := range s.attrs {
		k, _ := a.Get("key")
		key := k.Str()
		if !strings.HasPrefix(key, "llm.output_messages.") {
			continue
		}
		av, _ := a.Get("value")
		// A call's name alone is no content: its arguments or the
		// message's text are.
		if sv, _ := av.Get("stringValue"); sv.Str() != redacted && (strings.Contains(key, ".message.content") || strings.HasSuffix(key, ".tool_call.function.arguments")) {
			t.content = true
		}
		rest, ok := strings.CutPrefix(key, oiPrefix)
		if !ok {
			continue
		}
		if sv, _ := av.Get("stringValue"); sv.Str() != redacted {
			// The first message is recorded, whatever it says: hidden,
			// OpenInference leaves it out, or redacts its text alone.
			o.recorded = true
		}
		o.read(s, key, rest)
	}
	return o
}

// read takes in attribute key of s, which is oiPrefix + rest.
func (o *oiOutput) read(s *span, key, rest string) {
	switch {
	case rest == "content":
		var ok bool
		o.content, ok, _ = s.content(key)
		o.hasContent = ok && o.content.Kind() == value.String
	case strings.HasPrefix(rest, "contents."):
		ks, field, _ := strings.Cut(rest[len("contents."):], ".")
		n, err := strconv.Atoi(ks)
		if err == nil && field == "message_content.text" && s.str(oiPrefix+"contents."+ks+".message_content.type") == "text" {
			o.contents = append(o.contents, oiText{n, s.str(key)})
			// A part of the answer hidden hides the answer.
			o.hidden = o.hidden || s.str(key) == redacted
		}
	case strings.HasPrefix(rest, "tool_calls."):
		ms, field, _ := strings.Cut(rest[len("tool_calls."):], ".")
		m, err := strconv.Atoi(ms)
		if err != nil || m < 0 {
			return
		}
		switch field {
		case "tool_call.function.name":
			c := o.call(m)
			c.name, c.hasName, c.nameWhy = s.content(key)
			c.nameKey = key
		case "tool_call.function.arguments":
			c := o.call(m)
			c.args, c.hasArgs, c.argsWhy = s.content(key)
			c.argsKey = key
		case "tool_call.id":
			c := o.call(m)
			c.id, _, _ = s.content(key)
		}
	}
}

// call returns tool call m, adding it when it is new.
func (o *oiOutput) call(m int) *oiCall {
	for i := range o.calls {
		if o.calls[i].m == m {
			return &o.calls[i]
		}
	}
	o.calls = append(o.calls, oiCall{m: m})
	return &o.calls[len(o.calls)-1]
}

// step is the call as a step of the trace, with why it cannot be scored
// when it cannot.
func (c *oiCall) step(s *span) traceStep {
	at := s.where() + " " + oiPrefix + "tool_calls." + strconv.Itoa(c.m) + ".tool_call."
	st := traceStep{name: c.name.Str(), args: c.args, argsAt: s.where() + " " + c.argsKey}
	switch {
	case c.nameWhy != "":
		st.why = c.nameWhy
	case !c.hasName:
		st.why = at + "function.name is missing"
	case c.name.Kind() != value.String:
		st.why = at + "function.name is " + kindPhrase(c.name) + ", not a string"
	case c.name.Str() == "":
		st.why = at + "function.name is empty"
	case c.argsWhy != "":
		st.why = c.argsWhy
	case !c.hasArgs:
		st.why, st.unrecorded = at+"function.arguments is not recorded", true
	}
	if c.id.Kind() == value.String || c.id.Kind() == value.Number {
		st.id = c.id.Str()
	}
	return st
}

// text is the message's text: its content, else its text parts in order,
// none when one of them is hidden.
func (o *oiOutput) text() []string {
	if o.hasContent {
		return []string{o.content.Str()}
	}
	slices.SortFunc(o.contents, func(a, b oiText) int { return cmp.Compare(a.k, b.k) })
	if o.hidden {
		return nil
	}
	var text []string
	for _, c := range o.contents {
		text = append(text, c.text)
	}
	return text
}

// tool reads the call that tool span s ran: a GenAI execute_tool span or
// an OpenInference TOOL span.
func (t *trace) tool(s *span) traceStep {
	st := traceStep{start: s.start, seq: s.seq, err: s.isError()}
	nameKey, argsKey, resultKey, idKeys := "gen_ai.tool.name", "gen_ai.tool.call.arguments", "gen_ai.tool.call.result", []string{"gen_ai.tool.call.id"}
	if s.k == oiToolSpan {
		nameKey, argsKey, resultKey, idKeys = "tool.name", "input.value", "output.value", []string{"tool.id", "tool_call.id"}
	}
	n, hasName, nameWhy := s.content(nameKey)
	if !hasName && nameKey == "gen_ai.tool.name" {
		// The span name is "execute_tool {gen_ai.tool.name}".
		if rest, ok := strings.CutPrefix(s.name, "execute_tool "); ok {
			n, hasName = value.StringOf(rest), true
		}
	}
	st.name = n.Str()
	for _, k := range idKeys {
		if id, ok, _ := s.content(k); ok && (id.Kind() == value.String || id.Kind() == value.Number) {
			st.id = id.Str()
			break
		}
	}
	args, hasArgs, argsWhy := s.content(argsKey)
	st.args, st.argsAt = args, s.where()+" attribute "+argsKey
	if hasArgs {
		t.content = true
	}
	switch {
	case nameWhy != "":
		st.why = nameWhy
	case !hasName:
		st.why = s.where() + " has no attribute " + nameKey
	case n.Kind() != value.String:
		st.why = s.where() + " attribute " + nameKey + " is " + kindPhrase(n) + ", not a string"
	case n.Str() == "":
		st.why = s.where() + " attribute " + nameKey + " is empty"
	case argsWhy != "":
		st.why = argsWhy
	case !hasArgs:
		st.why, st.unrecorded = s.where()+" attribute "+argsKey+" is not recorded", true
	}
	if r, ok, why := s.content(resultKey); ok && why == "" {
		st.result, st.hasResult, st.resultText = r, true, r.Kind() == value.String
	} else if st.err && s.statusMessage() != "" {
		st.result, st.hasResult = value.StringOf(s.statusMessage()), true
	}
	return st
}
