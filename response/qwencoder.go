package response

import (
	"strconv"
	"strings"

	"github.com/callgrade/callgrade/internal/pycall"
	"github.com/callgrade/callgrade/value"
)

// QwenCoder is the raw text of Qwen3-Coder models, whose chat template
// writes a call's parameters as XML, each value as plain text:
//
//	<tool_call>
//	<function=get_weather>
//	<parameter=city>
//	Berlin
//	</parameter>
//	<parameter=days>
//	3
//	</parameter>
//	</function>
//	</tool_call>
//
// It is read as vLLM's qwen3_coder tool parser reads it
// (vllm/entrypoints/openai/tool_parsers/qwen3coder_tool_parser.py, after
// the parser Qwen ships with the model): the value loses one newline at
// each end and is typed from the parameter's JSON Schema (Options.Params;
// see qwenValue); a bare <function=…> block, which vLLM reads in a text
// without <tool_call>, is read wherever it stands. Unlike vLLM, a <tool_call>,
// <function=…> or <parameter=…> never closed, text between parameters,
// and a parameter given twice fail the call.
const QwenCoder Format = "qwen-coder"

var qwenCoderFormat = textFormat(QwenCoder, "a model's text with <tool_call><function=…><parameter=…> blocks (Qwen3-Coder)", readQwenCoder)

func readQwenCoder(t *textReader) {
	s := t.src
	t.qwenSeekers()
	fns := seeker{s: s, m: qwenFunction}
	for i := t.from; ; {
		o, f := t.opens.next(i), fns.next(i)
		switch {
		case o < 0 && f < 0:
			return
		case o >= 0 && (f < 0 || o < f):
			var ok bool
			if i, ok = t.qwenQuick(o); !ok {
				i = t.qwenBlock(o)
			}
		default:
			// A bare <function=…> block, which vLLM reads in a text
			// without <tool_call>: before or after a <tool_call>, it is
			// a call all the same.
			i = t.qwenFunction(f, len(s))
		}
	}
}

// qwenSeekers readies the seekers of the text's <tool_call>,
// </tool_call> and </function>, once.
func (t *textReader) qwenSeekers() {
	if t.opens.s != t.src || t.opens.m != hermesOpen {
		t.opens = seeker{s: t.src, m: hermesOpen}
		t.closes = seeker{s: t.src, m: hermesClose}
		t.fnCloses = seeker{s: t.src, m: qwenFunctionClose}
	}
}

// qwenQuick reads the <tool_call> at start in one pass, when it is as
// the template writes it: one function, and values without a "<". For
// anything else ok is false, and nothing read: qwenBlock, which looks for
// the ends of the blocks first, reads it and says what is wrong. A value
// with a "<" may hold an end tag, which ends the block there as in vLLM.
func (t *textReader) qwenQuick(start int) (next int, ok bool) {
	s := t.src
	k := skipSpace(s, start+len(hermesOpen))
	if !strings.HasPrefix(s[k:], qwenFunction) {
		return 0, false
	}
	fn := k
	nameAt := k + len(qwenFunction)
	gt := strings.IndexByte(s[nameAt:], '>')
	if gt < 0 {
		return 0, false
	}
	name := strings.TrimSpace(s[nameAt : nameAt+gt])
	if name == "" || strings.IndexByte(name, '<') >= 0 {
		return 0, false
	}
	var room [8]value.Member
	members := room[:0]
	props, _ := t.x.params[name].Get("properties")
	for k = skipSpace(s, nameAt+gt+1); !strings.HasPrefix(s[k:], qwenFunctionClose); k = skipSpace(s, k) {
		if !strings.HasPrefix(s[k:], qwenParameter) {
			return 0, false
		}
		keyAt := k + len(qwenParameter)
		pgt := strings.IndexByte(s[keyAt:], '>')
		if pgt < 0 {
			return 0, false
		}
		valueAt := keyAt + pgt + 1
		lt := strings.IndexByte(s[valueAt:], '<')
		if lt < 0 || !strings.HasPrefix(s[valueAt+lt:], qwenParamClose) || strings.IndexByte(s[keyAt:keyAt+pgt], '<') >= 0 {
			return 0, false
		}
		members = append(members, t.qwenParam(props, s[keyAt:keyAt+pgt], s[valueAt:valueAt+lt]))
		k = valueAt + lt + len(qwenParamClose)
	}
	end := k + len(qwenFunctionClose)
	size := k - (nameAt + gt + 1)
	k = skipSpace(s, end)
	if !strings.HasPrefix(s[k:], hermesClose) {
		return 0, false
	}
	t.qwenCall(name, fn, end, members, size)
	return k + len(hermesClose), true
}

// qwenBlock reads the <tool_call> block at start, and returns where the
// text goes on.
func (t *textReader) qwenBlock(start int) int {
	t.qwenSeekers()
	body := start + len(hermesOpen)
	end, stop := block(t.src, body, &t.opens, &t.closes)
	if end < 0 {
		t.fail("", start, stop, "never closed: no "+hermesClose+" follows", nil)
		return stop
	}
	t.qwenToolCall(start, body, end)
	return end + len(hermesClose)
}

// qwenToolCall reads the <tool_call> block at start, whose body is
// [body, end).
func (t *textReader) qwenToolCall(start, body, end int) {
	s := t.src
	n := len(t.out)
	for k := skipSpace(s, body); k < end; k = skipSpace(s, k) {
		if !strings.HasPrefix(s[k:], qwenFunction) {
			t.fail("", k, end, "not a "+qwenFunction+"…> block", nil)
			break
		}
		k = t.qwenFunction(k, end)
	}
	if len(t.out) == n {
		t.fail("", start, end+len(hermesClose), "holds no "+qwenFunction+"…> block", nil)
	}
}

// qwenFunction reads the <function=NAME>…</function> block at start,
// which must end before limit, and returns where the text goes on.
func (t *textReader) qwenFunction(start, limit int) int {
	s := t.src[:limit]
	nameAt := start + len(qwenFunction)
	t.qwenSeekers()
	end := t.fnCloses.next(nameAt)
	if end < 0 || end+len(qwenFunctionClose) > limit {
		t.fail("", start, limit, "never closed: no "+qwenFunctionClose+" follows", nil)
		return limit
	}
	next := end + len(qwenFunctionClose)
	gt := strings.IndexByte(s[nameAt:end], '>')
	if gt < 0 {
		t.fail("", start, next, "has no '>' after the function's name", nil)
		return next
	}
	name := strings.TrimSpace(s[nameAt : nameAt+gt])
	if name == "" {
		t.fail("", start, next, "names no function", nil)
		return next
	}
	var room [8]value.Member // ObjectOf copies them
	members := room[:0]
	props, _ := t.x.params[name].Get("properties")
	for k := skipSpace(s, nameAt+gt+1); k < end; k = skipSpace(s, k) {
		if !strings.HasPrefix(s[k:], qwenParameter) {
			t.fail(name, k, end, "not a "+qwenParameter+"…> block", nil)
			return next
		}
		keyAt := k + len(qwenParameter)
		pc := strings.Index(s[keyAt:end], qwenParamClose)
		if pc < 0 {
			t.fail(name, k, end, "never closed: no "+qwenParamClose+" follows", nil)
			return next
		}
		pgt := strings.IndexByte(s[keyAt:keyAt+pc], '>')
		if pgt < 0 {
			t.fail(name, k, keyAt+pc+len(qwenParamClose), "has no '>' after the parameter's name", nil)
			return next
		}
		members = append(members, t.qwenParam(props, s[keyAt:keyAt+pgt], s[keyAt+pgt+1:keyAt+pc]))
		k = keyAt + pc + len(qwenParamClose)
	}
	t.qwenCall(name, start, next, members, end-(nameAt+gt+1))
	return next
}

// qwenParam is the parameter whose key and value are written key and
// text, of a tool whose parameters' properties are props.
func (t *textReader) qwenParam(props value.Value, key, text string) value.Member {
	key = strings.TrimSpace(key)
	// The template puts each value on lines of its own.
	text = strings.TrimPrefix(text, "\n")
	text = strings.TrimSuffix(text, "\n")
	return value.Member{Key: key, Value: t.qwenValue(props, key, text)}
}

// qwenCall adds the call of name, written at [start, end), whose
// parameters are members, written in size bytes: the arguments' text,
// held to the size limit as a JSON format's arguments are.
func (t *textReader) qwenCall(name string, start, end int, members []value.Member, size int) {
	args, err := t.x.p.Object(members) // the Parser's memory, as a JSON object's
	switch {
	case size > t.x.maxBytes():
		t.fail(name, start, end, "has arguments beyond the limits", &value.Error{Reason: value.ReasonTooLarge, Offset: -1, Detail: "more than " + strconv.Itoa(t.x.maxBytes()) + " bytes"})
	case err != nil:
		t.fail(name, start, end, "gives a parameter twice", err)
	case tooDeep(args, t.x.maxDepth()):
		// Each value kept to the limit, the object around them may not be.
		t.fail(name, start, end, "nests too deep", &value.Error{Reason: value.ReasonTooDeep, Offset: -1, Detail: "more than " + strconv.Itoa(t.x.maxDepth()) + " levels"})
	default:
		t.add(name, args)
	}
}

// qwenValue types the text of parameter key as its JSON Schema in props,
// the properties of the tool's parameters, says: with no schema (no
// Options.Params for the tool, or no such property) it is a string, as
// in vLLM, and so is a string parameter's. Otherwise each type the schema
// allows is tried, the string last: null is "null" in any case (as in
// vLLM, which reads it so for every type but a string's), a boolean is
// true or false in any case, an integer or a number is a JSON number (or
// a Python one), an object or an array is JSON text (or a Python
// literal, as vLLM falls back to ast.literal_eval). Text that is none of
// the types stays a string, so that the schema check reports the type
// the model got wrong, where vLLM would make a bad boolean false.
func (t *textReader) qwenValue(props value.Value, key, text string) value.Value {
	prop, ok := props.Get(key)
	if !ok || prop.Kind() != value.Object {
		return value.StringOf(text)
	}
	types := typesOf(prop)
	if types == 0 {
		return value.StringOf(text)
	}
	trimmed := strings.TrimSpace(text)
	switch {
	case strings.EqualFold(trimmed, "null"):
		return value.NullValue()
	case types&typeBoolean != 0 && strings.EqualFold(trimmed, "true"):
		return value.BoolOf(true)
	case types&typeBoolean != 0 && strings.EqualFold(trimmed, "false"):
		return value.BoolOf(false)
	case types&typeNumber != 0 && value.IsNumber(trimmed):
		v, _ := value.NumberOf(trimmed)
		return v
	}
	for _, k := range [...]struct {
		set  typeSet
		kind value.Kind
	}{{typeNumber, value.Number}, {typeObject, value.Object}, {typeArray, value.Array}} {
		if types&k.set != 0 {
			if v, ok := t.literal(trimmed, k.kind); ok {
				return v
			}
		}
	}
	return value.StringOf(text)
}

// typesOf is the types schema s allows, by its "type" or, without one,
// the types of its anyOf and oneOf.
func typesOf(s value.Value) typeSet {
	var ts typeSet
	ts.of(s)
	if ts == 0 && !s.Has("type") {
		for _, alt := range [...]string{"anyOf", "oneOf"} {
			l, _ := s.Get(alt)
			for _, e := range l.Elems() {
				ts.of(e)
			}
		}
	}
	return ts
}

// literal reads s as a JSON value of kind k, or else as a Python literal
// of that kind.
func (t *textReader) literal(s string, k value.Kind) (value.Value, bool) {
	if v, err := t.x.parse(s); err == nil {
		return v, v.Kind() == k
	}
	lit, err := pycall.Literal(s)
	if err != nil {
		return value.Value{}, false
	}
	v, err := t.x.parse(lit)
	return v, err == nil && v.Kind() == k
}

// typeSet is the JSON Schema types a parameter allows, of those that
// type a value written as text; a string, or no type, is none of them.
type typeSet uint8

const (
	typeNull typeSet = 1 << iota
	typeBoolean
	typeNumber // integer or number
	typeObject
	typeArray
)

// of adds the types of schema s's "type", a name or a list of names.
func (ts *typeSet) of(s value.Value) {
	ty, _ := s.Get("type")
	if ty.Kind() == value.String {
		ts.add(ty.Str())
	}
	for _, e := range ty.Elems() {
		ts.add(e.Str())
	}
}

// add adds the type named name. vLLM's parser also knows the names of
// other type systems (float, int32, dict, list, …): a tool written for it
// may use them, so they are read as it reads them.
func (ts *typeSet) add(name string) {
	switch name {
	case "string":
		return
	case "integer", "number":
		*ts |= typeNumber
		return
	case "boolean":
		*ts |= typeBoolean
		return
	case "object":
		*ts |= typeObject
		return
	case "array":
		*ts |= typeArray
		return
	case "null":
		*ts |= typeNull
		return
	}
	name = strings.ToLower(name)
	switch {
	case name == "null":
		*ts |= typeNull
	case name == "boolean" || name == "bool" || name == "binary":
		*ts |= typeBoolean
	case hasAnyPrefix(name, "int", "uint", "long", "short", "unsigned", "num", "float"):
		*ts |= typeNumber
	case name == "object" || strings.HasPrefix(name, "dict"):
		*ts |= typeObject
	case name == "array" || name == "arr" || strings.HasPrefix(name, "list"):
		*ts |= typeArray
	}
}

func hasAnyPrefix(s string, prefixes ...string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
