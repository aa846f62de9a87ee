// Package value is callgrade's canonical JSON value: the one tree that the
// parser builds, the rules compare and the results file prints.
//
// A Value keeps what a string comparison would lose and what a float64 would
// blur: each number's exact decimal text, the presence of every key, and
// strict types. Object members are kept sorted by key, so equality and lookup
// do not depend on the order a model wrote them in; duplicate keys are
// rejected when parsing, never resolved silently.
package value

import (
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/callgrade/callgrade/internal/jsontext"
	"github.com/callgrade/callgrade/internal/number"
)

// Kind is the JSON type of a Value.
type Kind uint8

// The kinds of JSON value. The zero Value is Null.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

var kindNames = [...]string{"null", "boolean", "number", "string", "array", "object"}

// String returns the JSON name of the kind, as JSON Schema spells it.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Value is an immutable JSON value; the zero Value is null. Copying a Value
// is cheap and shares its elements; nothing in this package modifies a
// Value after it is built.
//
// A Value is three words: a suite's expected arguments and every parsed
// response are trees of them, so their size is most of the memory a large
// run holds and most of what the collector scans. p and n are, by kind:
// String, the decoded text; Number, the literal as written; Array, the
// elements; Object, the members, sorted by Key, keys unique.
type Value struct {
	p    unsafe.Pointer // String, Number: *byte; Array: *Value; Object: *Member
	n    int            // the length of the text, elements or members
	kind Kind
	b    bool
}

func textValue(k Kind, s string) Value {
	return Value{kind: k, p: unsafe.Pointer(unsafe.StringData(s)), n: len(s)}
}

func arrayValue(a []Value) Value {
	return Value{kind: Array, p: unsafe.Pointer(unsafe.SliceData(a)), n: len(a)}
}

func objectValue(m []Member) Value {
	return Value{kind: Object, p: unsafe.Pointer(unsafe.SliceData(m)), n: len(m)}
}

// str returns the text of a String or a Number, "" for other kinds.
func (v Value) str() string {
	if v.kind != String && v.kind != Number {
		return ""
	}
	return unsafe.String((*byte)(v.p), v.n)
}

// elems returns the elements of an Array, nil for other kinds.
func (v Value) elems() []Value {
	if v.kind != Array {
		return nil
	}
	return unsafe.Slice((*Value)(v.p), v.n)
}

// members returns the members of an Object, nil for other kinds.
func (v Value) members() []Member {
	if v.kind != Object {
		return nil
	}
	return unsafe.Slice((*Member)(v.p), v.n)
}

// Member is one key of an object and its value.
type Member struct {
	Key   string
	Value Value
}

// BoolOf returns a JSON boolean.
func BoolOf(b bool) Value { return Value{kind: Bool, b: b} }

// StringOf returns a JSON string holding s. s should be valid UTF-8.
func StringOf(s string) Value { return textValue(String, s) }

// NumberOf returns a JSON number written as text, which must be a JSON
// number literal (such as "5", "-0.25" or "1e400"); the text is kept exactly.
func NumberOf(text string) (Value, error) {
	if n := number.Scan(text, 0); n != len(text) || n == 0 {
		off := n // scanNumber gives minus the offset of the first bad byte
		if off < 0 {
			off = -off
		}
		return Value{}, &Error{Err: ErrSyntax, Offset: off, Detail: "invalid number literal " + strconv.Quote(text)}
	}
	return textValue(Number, text), nil
}

// Int returns a JSON number holding i.
func Int(i int64) Value { return textValue(Number, strconv.FormatInt(i, 10)) }

// ArrayOf returns a JSON array of the given elements. It keeps elems.
func ArrayOf(elems ...Value) Value { return arrayValue(elems) }

// ObjectOf returns a JSON object of the given members, in any order. A key
// given twice is an error, as it is when parsing.
func ObjectOf(members ...Member) (Value, error) {
	return objectOf(slices.Clone(members))
}

// objectOf is ObjectOf keeping m, which it sorts.
func objectOf(m []Member) (Value, error) {
	sortMembers(m)
	for i := 1; i < len(m); i++ {
		if m[i].Key == m[i-1].Key {
			return Value{}, &Error{Err: ErrDuplicateKey, Offset: -1, Detail: "duplicate key " + strconv.Quote(m[i].Key)}
		}
	}
	return objectValue(m), nil
}

// Kind returns the JSON type of v.
func (v Value) Kind() Kind { return v.kind }

// IsNull reports whether v is the JSON null.
func (v Value) IsNull() bool { return v.kind == Null }

// Bool returns the value of a boolean; false for other kinds.
func (v Value) Bool() bool { return v.b }

// Str returns the text of a string, or the literal of a number as written;
// "" for other kinds.
func (v Value) Str() string { return v.str() }

// Float returns a number as the nearest float64. It is for tolerances and
// expressions only: equality never goes through it.
func (v Value) Float() (float64, bool) {
	if v.kind != Number {
		return 0, false
	}
	f, err := strconv.ParseFloat(v.str(), 64)
	if err != nil && f == 0 { // out of range gives ±Inf with an error; keep it
		return 0, false
	}
	return f, true
}

// Len returns the number of elements of an array or members of an object.
func (v Value) Len() int {
	if v.kind == Array || v.kind == Object {
		return v.n
	}
	return 0
}

// Elems returns the elements of an array. The slice must not be modified.
func (v Value) Elems() []Value { return v.elems() }

// Members returns the members of an object sorted by key. The slice must not
// be modified.
func (v Value) Members() []Member { return v.members() }

// Get returns the member of an object named key.
func (v Value) Get(key string) (Value, bool) {
	if v.kind != Object {
		return Value{}, false
	}
	if v.n > 8 {
		return v.search(key)
	}
	// Most objects are small and looked through in order.
	for i := range v.n {
		m := (*Member)(unsafe.Add(v.p, uintptr(i)*unsafe.Sizeof(Member{})))
		if m.Key == key {
			return m.Value, true
		}
	}
	return Value{}, false
}

// search is Get in an object of more than a few members, by bisection.
func (v Value) search(key string) (Value, bool) {
	m := v.members()
	i, ok := slices.BinarySearchFunc(m, key, func(m Member, k string) int { return strings.Compare(m.Key, k) })
	if !ok {
		return Value{}, false
	}
	return m[i].Value, true
}

// Has reports whether an object has a member named key.
func (v Value) Has(key string) bool {
	_, ok := v.Get(key)
	return ok
}

// String returns v as compact JSON text.
func (v Value) String() string { return string(v.AppendJSON(nil)) }

// MarshalJSON returns v as compact JSON text, so that a Value can sit inside
// structs written with encoding/json.
func (v Value) MarshalJSON() ([]byte, error) { return v.AppendJSON(nil), nil }

// AppendJSON appends v as compact JSON to dst: keys sorted, numbers as
// written, strings escaped as encoding/json does without HTML escaping.
func (v Value) AppendJSON(dst []byte) []byte { return v.appendJSON(dst) }

func (v Value) appendJSON(dst []byte) []byte {
	switch v.kind {
	case Null:
		return append(dst, "null"...)
	case Bool:
		if v.b {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	case Number:
		return append(dst, v.str()...)
	case String:
		return jsontext.AppendQuote(dst, v.str())
	case Array:
		dst = append(dst, '[')
		for i, e := range v.elems() {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = e.appendJSON(dst)
		}
		return append(dst, ']')
	default:
		dst = append(dst, '{')
		for i, m := range v.members() {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = jsontext.AppendQuote(dst, m.Key)
			dst = append(dst, ':')
			dst = m.Value.appendJSON(dst)
		}
		return append(dst, '}')
	}
}

// sortMembers sorts by key; insertion sort (shifting, not swapping, the
// wide Member structs) for the small objects that tool arguments almost
// always are, the standard sort beyond.
func sortMembers(m []Member) {
	if len(m) > 12 {
		slices.SortFunc(m, func(a, b Member) int { return strings.Compare(a.Key, b.Key) })
		return
	}
	for i := 1; i < len(m); i++ {
		if !keyLess(m[i].Key, m[i-1].Key) {
			continue
		}
		x := m[i]
		j := i
		for j > 0 && keyLess(x.Key, m[j-1].Key) {
			j--
		}
		copy(m[j+1:i+1], m[j:i])
		m[j] = x
	}
}

// keyLess is a < b. The keys of one object mostly differ in their first
// byte, which decides inline; only keys that share it take the call into
// the runtime's comparison.
func keyLess(a, b string) bool {
	if a != "" && b != "" && a[0] != b[0] {
		return a[0] < b[0]
	}
	return a < b
}
