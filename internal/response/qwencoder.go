package response

import (
	"errors"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/internal/pycall"
	"github.com/callgrade/callgrade/value"
)

var qwenCoderFormat = textFormat(format.QwenCoder, readQwenCoder)

func readQwenCoder(t *textReader) {
	s := t.src
	t.qwenSeekers()
	fns := seeker{s: s, m: qwenFunction}
	for i := t.from; !t.full; {
		o, f := t.opens.next(i), fns.next(i)
		start := o
		if o < 0 || f >= 0 && f < o {
			start = f
		}
		switch {
		case start < 0 || !t.room(start):
			return
		case start == o:
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
	props := qwenProps(t.x.params[name])
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
	props := qwenProps(t.x.params[name])
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
	if !t.room(start) {
		return
	}
	args, err := t.x.p.Object(members) // the Parser's memory, as a JSON object's
	switch {
	case size > t.x.maxBytes():
		t.fail(name, start, end, "has arguments beyond the limits", &value.Error{Err: value.ErrTooLarge, Offset: -1, Detail: "more than " + strconv.Itoa(t.x.maxBytes()) + " bytes"})
	case err != nil:
		t.fail(name, start, end, "gives a parameter twice", err)
	case tooDeep(args, t.x.maxDepth()):
		// Each value kept to the limit, the object around them may not be.
		t.fail(name, start, end, "nests too deep", &value.Error{Err: value.ErrTooDeep, Offset: -1, Detail: "more than " + strconv.Itoa(t.x.maxDepth()) + " levels"})
	default:
		t.add(start, name, args)
	}
}

// qwenProps is where vLLM looks up the schema of a parameter of a tool
// whose parameters schema is params: its properties, or, for a schema
// without "properties", the schema itself (a tool written as a bare map
// of its parameters).
func qwenProps(params value.Value) value.Value {
	if p, ok := params.Get("properties"); ok {
		return p
	}
	return params
}

// qwenValue types the text of parameter key as vLLM's
// _convert_param_value does, from its JSON Schema in props, the
// properties of the tool's parameters:
//
//   - "null" in any case is null, whatever the parameter;
//   - with no schema (no Options.Params for the tool, or no such
//     property), no "type" in it (an anyOf, say) or a string type, the
//     text is a string;
//   - an integer type (int…, uint…, long…, short…, unsigned…) is
//     Python's int() of the text, and a number type (num…, float…)
//     float()'s, an integer when it has no fraction (see pyInt, pyFloat);
//   - a boolean type (boolean, bool, binary) is true or false in any case;
//   - any other type is the text as JSON for an object or array type
//     (object, array, arr, dict…, list…), or else as a Python literal
//     (ast.literal_eval), of whatever kind it is.
//
// Text that does not convert stays a string, as in vLLM, so that the
// schema check reports the type the model got wrong; unlike vLLM, a
// boolean that is neither true nor false stays a string too, where vLLM
// makes it false, and text vLLM's Python would convert only by reading
// digits or spaces outside ASCII stays a string: a conversion callgrade
// cannot be sure of is not made.
func (t *textReader) qwenValue(props value.Value, key, text string) value.Value {
	if strings.EqualFold(text, "null") {
		return value.Value{}
	}
	prop, ok := props.Get(key)
	if !ok || prop.Kind() != value.Object {
		return value.StringOf(text)
	}
	ty, ok := prop.Get("type")
	if !ok {
		return value.StringOf(text)
	}
	// Python's str() of a list of types, or of any type that is not a
	// string, names no type of the cases below.
	name := "[" + ty.Kind().String() + "]"
	if ty.Kind() == value.String {
		name = strings.ToLower(strings.TrimSpace(ty.Str()))
	}
	switch {
	case name == "string" || name == "str" || name == "text" || name == "varchar" || name == "char" || name == "enum":
	case hasAnyPrefix(name, "int", "uint", "long", "short", "unsigned"):
		if n, ok := pyInt(text); ok {
			return n
		}
	case hasAnyPrefix(name, "num", "float"):
		if n, ok := pyFloat(text); ok {
			return n
		}
	case name == "boolean" || name == "bool" || name == "binary":
		switch {
		case strings.EqualFold(text, "true"):
			return value.BoolOf(true)
		case strings.EqualFold(text, "false"):
			return value.BoolOf(false)
		}
	default:
		if name == "object" || name == "array" || name == "arr" || hasAnyPrefix(name, "dict", "list") {
			if v, err := t.x.parse(text); err == nil {
				return v
			}
		}
		if lit, err := pycall.Literal(text); err == nil {
			if v, err := t.x.parse(lit); err == nil {
				return v
			}
		}
	}
	return value.StringOf(text)
}

// pySpace is the white space Python's int() and float() strip, of ASCII.
const pySpace = " \t\n\v\f\r"

// maxIntDigits is the most digits Python's int() converts from text
// (sys.int_info.default_max_str_digits): past it, int() fails.
const maxIntDigits = 4300

// pyInt is Python's int() of s, in base 10: a sign, digits that single
// underscores may separate, white space around; ok is false where int()
// fails (1.0, 1e3, 0x10, inf).
func pyInt(s string) (value.Value, bool) {
	s = strings.Trim(s, pySpace)
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg, s = s[0] == '-', s[1:]
	}
	digits, ok := pyDigits(s)
	if !ok || len(digits) > maxIntDigits {
		return value.Value{}, false
	}
	digits = strings.TrimLeft(digits, "0")
	switch {
	case digits == "":
		digits = "0"
	case neg:
		digits = "-" + digits
	}
	v, err := value.NumberOf(digits)
	return v, err == nil
}

// pyDigits is s without its underscores, ok when s is decimal digits
// that single underscores may separate.
func pyDigits(s string) (string, bool) {
	if s == "" || s[0] == '_' || s[len(s)-1] == '_' || strings.Contains(s, "__") {
		return "", false
	}
	for i := 0; i < len(s); i++ {
		if (s[i] < '0' || s[i] > '9') && s[i] != '_' {
			return "", false
		}
	}
	return strings.ReplaceAll(s, "_", ""), true
}

// pyFloat is what vLLM makes of s for a number parameter: Python's
// float() of it, an integer when it has no fraction (5.0 is 5, 1e3 is
// 1000). ok is false where float() fails, and for infinities and NaN,
// which vLLM's int() of them fails on, leaving the text.
func pyFloat(s string) (value.Value, bool) {
	s = strings.Trim(s, pySpace)
	sign := ""
	if s != "" && (s[0] == '+' || s[0] == '-') {
		sign, s = s[:1], s[1:]
	}
	mant, exp, hasExp := s, "", false
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant, exp, hasExp = s[:i], s[i+1:], true
	}
	intPart, frac, hasPoint := strings.Cut(mant, ".")
	var ok bool
	clean := sign
	if intPart != "" {
		if intPart, ok = pyDigits(intPart); !ok {
			return value.Value{}, false
		}
		clean += intPart
	}
	if hasPoint {
		clean += "."
		if frac != "" {
			if frac, ok = pyDigits(frac); !ok {
				return value.Value{}, false
			}
			clean += frac
		}
	}
	if intPart == "" && frac == "" {
		return value.Value{}, false // no digits: inf, nan, "", "."
	}
	if hasExp {
		esign := ""
		if exp != "" && (exp[0] == '+' || exp[0] == '-') {
			esign, exp = exp[:1], exp[1:]
		}
		if exp, ok = pyDigits(exp); !ok {
			return value.Value{}, false
		}
		clean += "e" + esign + exp
	}
	f, err := strconv.ParseFloat(clean, 64)
	if math.IsInf(f, 0) || math.IsNaN(f) || err != nil && !errors.Is(err, strconv.ErrRange) {
		return value.Value{}, false
	}
	text := strconv.FormatFloat(f, 'g', -1, 64)
	if f == math.Trunc(f) {
		// int() of the float: its exact value, every digit.
		n, _ := new(big.Float).SetFloat64(f).Int(nil)
		text = n.String()
	}
	v, err := value.NumberOf(text)
	return v, err == nil
}

func hasAnyPrefix(s string, prefixes ...string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
