// Package jsonv is what the module's packages do with a value.Value beyond
// what package value offers a comparator or a plugin: the canonical and the
// shortened JSON text, the syntax check of a request, and the words of
// messages. Package value keeps to the value, its constructors and
// accessors; each function here is written on those alone.
package jsonv

import (
	"slices"
	"strings"

	"github.com/callgrade/callgrade/internal/jsontext"
	"github.com/callgrade/callgrade/internal/number"
	"github.com/callgrade/callgrade/value"
)

// CheckSyntax returns the first place where s is not one JSON text, worded
// as value.Parse words it (an *value.Error of value.ErrSyntax, at the same
// byte), or nil when s is one value with nothing but white space around
// it. Unlike Parse it reads on past what is JSON in form but broken in
// content, as a model's output may be: a duplicated key, NaN and
// ±Infinity, text that is not UTF-8 or a lone surrogate, nesting of any
// depth. A service uses it to tell a request that is no JSON at all (cut
// short, or followed by more text) from one whose model output inside is
// broken, which is still scored, as a failed call.
func CheckSyntax(s string) *value.Error {
	off, detail, ok := jsontext.Check(s)
	if ok {
		return nil
	}
	return &value.Error{Err: value.ErrSyntax, Offset: off, Detail: detail}
}

// AppendCanonical appends the canonical JSON text of v: AppendJSON's, with
// numbers in their shortest exact spelling (number.Canonical). Two values
// have the same canonical text exactly when value.Equal holds.
func AppendCanonical(dst []byte, v value.Value) []byte {
	switch v.Kind() {
	case value.Number:
		return append(dst, number.Canonical(v.Str())...)
	case value.Array:
		dst = append(dst, '[')
		for i, e := range v.Elems() {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendCanonical(dst, e)
		}
		return append(dst, ']')
	case value.Object:
		dst = append(dst, '{')
		for i, m := range v.Members() {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = jsontext.AppendQuote(dst, m.Key)
			dst = append(dst, ':')
			dst = AppendCanonical(dst, m.Value)
		}
		return append(dst, '}')
	}
	return v.AppendJSON(dst)
}

// AppendPrefix appends the JSON text of v as AppendJSON does when it is at
// most n bytes long; a longer text is cut short past its first n bytes,
// which it appends, and then more, but not much more: a message that shows
// a value, shortened, need not write a huge one out whole first.
func AppendPrefix(dst []byte, v value.Value, n int) []byte {
	return appendPrefix(dst, v, len(dst)+n)
}

// appendPrefix appends v's JSON text, stopping once dst is longer than
// end.
func appendPrefix(dst []byte, v value.Value, end int) []byte {
	if len(dst) > end {
		return dst
	}
	switch v.Kind() {
	case value.String:
		return appendQuotePrefix(dst, v.Str(), end)
	case value.Array:
		dst = append(dst, '[')
		for i, e := range v.Elems() {
			if len(dst) > end {
				return dst
			}
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendPrefix(dst, e, end)
		}
		return append(dst, ']')
	case value.Object:
		dst = append(dst, '{')
		for i, m := range v.Members() {
			if len(dst) > end {
				return dst
			}
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendQuotePrefix(dst, m.Key, end)
			if len(dst) > end {
				return dst
			}
			dst = append(dst, ':')
			dst = appendPrefix(dst, m.Value, end)
		}
		return append(dst, '}')
	}
	return v.AppendJSON(dst)
}

// appendQuotePrefix is AppendQuote, stopping once dst is longer than end.
func appendQuotePrefix(dst []byte, s string, end int) []byte {
	// Each byte of s is at least one byte of the literal: a prefix of s
	// longer than what is left is enough, and four bytes more put past the
	// end any rune the cut breaks.
	if room := end - len(dst) + 4; room >= 0 && len(s) > room {
		return jsontext.AppendQuote(dst, s[:room])[:end+1]
	}
	return jsontext.AppendQuote(dst, s)
}

// IsInteger reports whether v is a number with an integral value, whatever
// its spelling: 5, 5.0 and 5e0 are integers, 5.5 is not.
func IsInteger(v value.Value) bool {
	return v.Kind() == value.Number && number.IsInteger(v.Str())
}

// WithArticle names the kind with its article, for messages: "null", "a
// boolean", "a number", "a string", "an array", "an object".
func WithArticle(k value.Kind) string {
	switch k {
	case value.Null:
		return "null"
	case value.Array, value.Object:
		return "an " + k.String()
	}
	if k <= value.Object {
		return "a " + k.String()
	}
	return k.String()
}

// Identical reports whether a and b are the same document as written:
// value.Equal, with each number spelt the same way too (5 and 5.0 are
// Equal, not Identical). Object keys are compared in their sorted order,
// as Equal compares them. Whatever reads a Value (its kind, its text, its
// keys and elements) finds two Identical values alike, which Equal alone
// does not promise: a rule may read how a number is written.
func Identical(a, b value.Value) bool {
	if a.Kind() != b.Kind() {
		return false
	}
	switch a.Kind() {
	case value.Null:
		return true
	case value.Bool:
		return a.Bool() == b.Bool()
	case value.Number, value.String:
		return a.Str() == b.Str()
	case value.Array:
		x, y := a.Elems(), b.Elems()
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if !Identical(x[i], y[i]) {
				return false
			}
		}
		return true
	default:
		x, y := a.Members(), b.Members()
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if x[i].Key != y[i].Key || !Identical(x[i].Value, y[i].Value) {
				return false
			}
		}
		return true
	}
}

// With returns a copy of object v with key set to x, added or replaced.
func With(v value.Value, key string, x value.Value) value.Value {
	old := v.Members()
	m := make([]value.Member, 0, len(old)+1)
	i, found := slices.BinarySearchFunc(old, key, func(m value.Member, k string) int { return strings.Compare(m.Key, k) })
	m = append(m, old[:i]...)
	m = append(m, value.Member{Key: key, Value: x})
	if found {
		i++
	}
	m = append(m, old[i:]...)
	return object(m)
}

// Without returns a copy of object v without key.
func Without(v value.Value, key string) value.Value {
	m := make([]value.Member, 0, len(v.Members()))
	for _, x := range v.Members() {
		if x.Key != key {
			m = append(m, x)
		}
	}
	return object(m)
}

// object is the object of members m, sorted by key and unique, as With
// and Without build them.
func object(m []value.Member) value.Value {
	v, err := value.ObjectOf(m...)
	if err != nil {
		panic("jsonv: members not unique: " + err.Error()) // cannot happen: m comes from an object
	}
	return v
}
