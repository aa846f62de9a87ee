package bfcl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// node is a JSON value that keeps what BFCL's files and callgrade's suites
// need kept: the order of object keys and the text of numbers (5 and 5.0
// are different Python types). value.Value sorts object keys, which a suite
// written for people to read cannot have.
type node struct {
	Kind kind
	Text string   // a String's text; a Number's literal
	Bool bool     // a Bool's value
	Keys []string // an Object's keys, in order
	Vals []*node  // an Object's values, or an Array's elements
	Flow bool     // written on one line in YAML, with everything inside it
}

// kind is the JSON kind of a node.
type kind uint8

// The kinds of node.
const (
	kindNull kind = iota
	kindBool
	kindNumber
	kindString
	kindArray
	kindObject
)

// str, num, boolNode, arr, obj and nullNode build nodes.
func str(s string) *node       { return &node{Kind: kindString, Text: s} }
func num(lit string) *node     { return &node{Kind: kindNumber, Text: lit} }
func boolNode(b bool) *node    { return &node{Kind: kindBool, Bool: b} }
func arr(elems ...*node) *node { return &node{Kind: kindArray, Vals: elems} }
func obj() *node               { return &node{Kind: kindObject} }
func nullNode() *node          { return &node{Kind: kindNull} }

// Set adds or replaces a key of an object and returns the object.
func (n *node) Set(key string, v *node) *node {
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
func (n *node) Get(key string) (*node, bool) {
	if n == nil || n.Kind != kindObject {
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
func (n *node) IsFloat() bool { return n.Kind == kindNumber && strings.ContainsAny(n.Text, ".eE") }

// Equal reports whether two nodes are the same JSON value, key order aside
// and numbers by their text.
func (n *node) Equal(m *node) bool {
	if n.Kind != m.Kind || n.Text != m.Text || n.Bool != m.Bool || len(n.Vals) != len(m.Vals) {
		return false
	}
	if n.Kind == kindObject {
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

// parseJSON reads one JSON value, keeping key order and number text. A
// key written twice in one object is an error.
func parseJSON(data []byte) (*node, error) {
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

func decodeNode(dec *json.Decoder) (*node, error) {
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			return nil, errors.New("invalid JSON: unexpected end of input")
		}
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	switch t := tok.(type) {
	case nil:
		return nullNode(), nil
	case bool:
		return boolNode(t), nil
	case json.Number:
		return num(string(t)), nil
	case string:
		return str(t), nil
	case json.Delim:
		switch t {
		case '[':
			n := arr()
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
			n := obj()
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
func (n *node) AppendJSON(b []byte) []byte {
	switch n.Kind {
	case kindNull:
		return append(b, "null"...)
	case kindBool:
		return strconv.AppendBool(b, n.Bool)
	case kindNumber:
		return append(b, n.Text...)
	case kindString:
		q, _ := json.Marshal(n.Text)
		return append(b, q...)
	case kindArray:
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
func (n *node) String() string { return string(n.AppendJSON(nil)) }

// yamlNode converts n to a YAML node; flow says whether to write it on one
// line.
func (n *node) yamlNode(flow bool) *yaml.Node {
	flow = flow || n.Flow
	switch n.Kind {
	case kindNull:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	case kindBool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(n.Bool)}
	case kindNumber:
		tag := "!!int"
		if n.IsFloat() {
			tag = "!!float"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: n.Text}
	case kindString:
		y := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: n.Text}
		return y
	case kindArray:
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

// Delete removes a key of an object, if it has it.
func (n *node) Delete(key string) {
	for i, k := range n.Keys {
		if k == key {
			n.Keys = slices.Delete(n.Keys, i, i+1)
			n.Vals = slices.Delete(n.Vals, i, i+1)
			return
		}
	}
}
