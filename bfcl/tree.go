package bfcl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Node is a JSON value that keeps what BFCL's files and callgrade's suites
// need kept: the order of object keys and the text of numbers (5 and 5.0
// are different Python types).
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

// The kinds of Node.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

// Str, Num, Arr and Obj build Nodes.
func Str(s string) *Node       { return &Node{Kind: String, Text: s} }
func Num(lit string) *Node     { return &Node{Kind: Number, Text: lit} }
func BoolNode(b bool) *Node    { return &Node{Kind: Bool, Bool: b} }
func Arr(elems ...*Node) *Node { return &Node{Kind: Array, Vals: elems} }
func Obj() *Node               { return &Node{Kind: Object} }
func NullNode() *Node          { return &Node{Kind: Null} }

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

// ParseJSON reads one JSON value, keeping key order and number text. A
// key written twice in one object is an error.
func ParseJSON(data []byte) (*Node, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := decodeNode(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("invalid JSON: text after the value at byte %d", dec.InputOffset())
	}
	return n, nil
}

func decodeNode(dec *json.Decoder) (*Node, error) {
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			return nil, errors.New("invalid JSON: unexpected end of input")
		}
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	switch t := tok.(type) {
	case nil:
		return NullNode(), nil
	case bool:
		return BoolNode(t), nil
	case json.Number:
		return Num(string(t)), nil
	case string:
		return Str(t), nil
	case json.Delim:
		switch t {
		case '[':
			n := Arr()
			for dec.More() {
				e, err := decodeNode(dec)
				if err != nil {
					return nil, err
				}
				n.Vals = append(n.Vals, e)
			}
			_, err := dec.Token()
			return n, err
		case '{':
			n := Obj()
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, fmt.Errorf("invalid JSON: %w", err)
				}
				k := kt.(string)
				if _, dup := n.Get(k); dup {
					return nil, fmt.Errorf("invalid JSON: key %q appears twice in one object", k)
				}
				v, err := decodeNode(dec)
				if err != nil {
					return nil, err
				}
				n.Keys = append(n.Keys, k)
				n.Vals = append(n.Vals, v)
			}
			_, err := dec.Token()
			return n, err
		}
	}
	return nil, fmt.Errorf("invalid JSON: unexpected %v", tok)
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

// yamlNode converts n to a YAML node; flow says whether to write it on one
// line.
func (n *Node) yamlNode(flow bool) *yaml.Node {
	flow = flow || n.Flow
	switch n.Kind {
	case Null:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	case Bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(n.Bool)}
	case Number:
		tag := "!!int"
		if n.IsFloat() {
			tag = "!!float"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: n.Text}
	case String:
		y := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: n.Text}
		return y
	case Array:
		y := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		if flow {
			y.Style = yaml.FlowStyle
		}
		for _, e := range n.Vals {
			y.Content = append(y.Content, e.yamlNode(flow))
		}
		return y
	}
	y := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	if flow {
		y.Style = yaml.FlowStyle
	}
	for i, k := range n.Keys {
		y.Content = append(y.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k}, n.Vals[i].yamlNode(flow))
	}
	return y
}
