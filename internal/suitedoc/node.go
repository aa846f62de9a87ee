// Package suitedoc is the document callgrade's benchmark importers (bfcl,
// acebench) build: a JSON tree that keeps what a benchmark's files and a
// suite written for people need kept, the order of object keys and the
// text of numbers, read from the benchmark's JSON Lines files and written
// as a suite in JSON or YAML. value.Value sorts object keys, which a suite
// written for people to read cannot have.
package suitedoc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// Node is a JSON value that keeps the order of object keys and the text
// of numbers (5 and 5.0 are different Python types).
type Node struct {
	Kind Kind
	Text string   // a String's text; a Number's literal
	Bool bool     // a Bool's value
	Keys []string // an Object's keys, in order
	Vals []*Node  // an Object's values, or an Array's elements
	Flow bool     // written on one line in YAML, with everything inside it
}

// Kind is the JSON kind of a Node.
type Kind uint8

// The kinds of Node. The zero Node is Null.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

// StringOf returns a String node.
func StringOf(s string) *Node { return &Node{Kind: String, Text: s} }

// NumberOf returns a Number node of a JSON number literal, kept as
// written; the literal is not checked.
func NumberOf(lit string) *Node { return &Node{Kind: Number, Text: lit} }

// BoolOf returns a Bool node.
func BoolOf(b bool) *Node { return &Node{Kind: Bool, Bool: b} }

// ArrayOf returns an Array node of the elements.
func ArrayOf(elems ...*Node) *Node { return &Node{Kind: Array, Vals: elems} }

// NewObject returns an empty Object node; Set adds its keys.
func NewObject() *Node { return &Node{Kind: Object} }

// SetFlow marks n to be written on one line in YAML, with everything
// inside it, and returns n.
func (n *Node) SetFlow() *Node { n.Flow = true; return n }

// Set adds or replaces a key of an object and returns the object.
func (n *Node) Set(key string, v *Node) *Node {
	for i, k := range n.Keys {
		if k == key {
			n.Vals[i] = v
			return n
		}
	}
	n.Keys = append(n.Keys, key)
	n.Vals = append(n.Vals, v)
	return n
}

// Get returns an object's value for key.
func (n *Node) Get(key string) (*Node, bool) {
	if n == nil || n.Kind != Object {
		return nil, false
	}
	for i, k := range n.Keys {
		if k == key {
			return n.Vals[i], true
		}
	}
	return nil, false
}

// Delete removes a key of an object, if it has it.
func (n *Node) Delete(key string) {
	for i, k := range n.Keys {
		if k == key {
			n.Keys = slices.Delete(n.Keys, i, i+1)
			n.Vals = slices.Delete(n.Vals, i, i+1)
			return
		}
	}
}

// IsFloat reports whether a Number is written as a float (with a fraction
// or an exponent), which is how Python's json module decides int or float.
func (n *Node) IsFloat() bool { return n.Kind == Number && strings.ContainsAny(n.Text, ".eE") }

// Equal reports whether two nodes are the same JSON value, key order aside
// and numbers by their text.
func (n *Node) Equal(m *Node) bool {
	if n.Kind != m.Kind || n.Text != m.Text || n.Bool != m.Bool || len(n.Vals) != len(m.Vals) {
		return false
	}
	if n.Kind == Object {
		for i, k := range n.Keys {
			v, ok := m.Get(k)
			if !ok || !n.Vals[i].Equal(v) {
				return false
			}
		}
		return true
	}
	for i := range n.Vals {
		if !n.Vals[i].Equal(m.Vals[i]) {
			return false
		}
	}
	return true
}

// KindName names n's kind for an error message: "a list", "an object".
func (n *Node) KindName() string {
	return [...]string{"null", "a boolean", "a number", "a string", "a list", "an object"}[n.Kind]
}

// Short returns n as compact JSON cut to 80 bytes, for an error message.
func (n *Node) Short() string {
	s := n.String()
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}

// Parse reads one JSON value, keeping key order and number text. A key
// written twice in one object is an error. Every error begins "invalid
// JSON".
func Parse(data []byte) (*Node, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := decode(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("invalid JSON: text after the value at byte %d", dec.InputOffset())
	}
	return n, nil
}

// token reads the next token, its error worded as Parse words them.
func token(dec *json.Decoder) (json.Token, error) {
	tok, err := dec.Token()
	if err == io.EOF {
		return nil, errors.New("invalid JSON: unexpected end of input")
	}
	if err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	return tok, nil
}

func decode(dec *json.Decoder) (*Node, error) {
	tok, err := token(dec)
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case nil:
		return &Node{}, nil
	case bool:
		return BoolOf(t), nil
	case json.Number:
		return NumberOf(string(t)), nil
	case string:
		return StringOf(t), nil
	case json.Delim:
		switch t {
		case '[':
			n := ArrayOf()
			for dec.More() {
				e, err := decode(dec)
				if err != nil {
					return nil, err
				}
				n.Vals = append(n.Vals, e)
			}
			_, err := token(dec)
			return n, err
		case '{':
			return decodeObject(dec)
		}
	}
	return nil, fmt.Errorf("invalid JSON: unexpected %v", tok)
}

// decodeObject reads the members of an object whose '{' is read.
func decodeObject(dec *json.Decoder) (*Node, error) {
	n := NewObject()
	for dec.More() {
		kt, err := token(dec)
		if err != nil {
			return nil, err
		}
		k := kt.(string)
		if _, dup := n.Get(k); dup {
			return nil, fmt.Errorf("invalid JSON: key %q appears twice in one object", k)
		}
		v, err := decode(dec)
		if err != nil {
			return nil, err
		}
		n.Keys = append(n.Keys, k)
		n.Vals = append(n.Vals, v)
	}
	_, err := token(dec)
	return n, err
}

// AppendJSON appends n as compact JSON.
func (n *Node) AppendJSON(b []byte) []byte {
	switch n.Kind {
	case Null:
		return append(b, "null"...)
	case Bool:
		return strconv.AppendBool(b, n.Bool)
	case Number:
		return append(b, n.Text...)
	case String:
		q, _ := json.Marshal(n.Text)
		return append(b, q...)
	case Array:
		b = append(b, '[')
		for i, e := range n.Vals {
			if i > 0 {
				b = append(b, ',')
			}
			b = e.AppendJSON(b)
		}
		return append(b, ']')
	}
	b = append(b, '{')
	for i, k := range n.Keys {
		if i > 0 {
			b = append(b, ',')
		}
		q, _ := json.Marshal(k)
		b = append(append(b, q...), ':')
		b = n.Vals[i].AppendJSON(b)
	}
	return append(b, '}')
}

// String returns n as compact JSON.
func (n *Node) String() string { return string(n.AppendJSON(nil)) }

// EscapeKey writes an object key as one segment of a rule PATH: a key
// that is * or # alone, or has a . or \ in it, is escaped with \.
func EscapeKey(k string) string {
	if k == "*" || k == "#" {
		return `\` + k
	}
	if !strings.ContainsAny(k, `.\`) {
		return k
	}
	var b strings.Builder
	for _, r := range k {
		if r == '.' || r == '\\' {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
