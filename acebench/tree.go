package acebench

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

// node is a JSON value that keeps the order of object keys and the text
// of numbers, so that an imported suite reads as ACEBench wrote it.
type node struct {
	Kind kind
	Text string   // a String's text; a Number's literal
	Bool bool     // a Bool's value
	Keys []string // an Object's keys, in order
	Vals []*node  // an Object's values, or an Array's elements
	Flow bool     // written on one line in YAML
}

type kind uint8

const (
	kindNull kind = iota
	kindBool
	kindNumber
	kindString
	kindArray
	kindObject
)

func str(s string) *node       { return &node{Kind: kindString, Text: s} }
func num(lit string) *node     { return &node{Kind: kindNumber, Text: lit} }
func boolNode(b bool) *node    { return &node{Kind: kindBool, Bool: b} }
func arr(elems ...*node) *node { return &node{Kind: kindArray, Vals: elems} }
func obj() *node               { return &node{Kind: kindObject} }

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

// isInteger reports whether a Number is written without fraction or
// exponent, or with a zero fraction ("5.0"): a value JSON Schema's
// integer admits.
func (n *node) isInteger() bool {
	if n.Kind != kindNumber {
		return false
	}
	if !strings.ContainsAny(n.Text, ".eE") {
		return true
	}
	f, err := strconv.ParseFloat(n.Text, 64)
	return err == nil && f == float64(int64(f))
}

func parseJSON(data []byte) (*node, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := decodeNode(dec)
	if err != nil {
		if !strings.HasPrefix(err.Error(), "invalid JSON") {
			err = fmt.Errorf("invalid JSON: %w", err)
		}
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("invalid JSON: more than one value")
	}
	return n, nil
}

func decodeNode(dec *json.Decoder) (*node, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	switch t := tok.(type) {
	case nil:
		return &node{Kind: kindNull}, nil
	case bool:
		return boolNode(t), nil
	case json.Number:
		return num(t.String()), nil
	case string:
		return str(t), nil
	case json.Delim:
		switch t {
		case '[':
			a := arr()
			for dec.More() {
				e, err := decodeNode(dec)
				if err != nil {
					return nil, err
				}
				a.Vals = append(a.Vals, e)
			}
			_, err := dec.Token()
			return a, err
		case '{':
			o := obj()
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, fmt.Errorf("invalid JSON: %w", err)
				}
				v, err := decodeNode(dec)
				if err != nil {
					return nil, err
				}
				k := kt.(string)
				if _, dup := o.Get(k); dup {
					return nil, fmt.Errorf("invalid JSON: key %q twice in one object", k)
				}
				o.Keys = append(o.Keys, k)
				o.Vals = append(o.Vals, v)
			}
			_, err := dec.Token()
			return o, err
		}
	}
	return nil, fmt.Errorf("invalid JSON: unexpected %v", tok)
}

// AppendJSON appends the node as compact JSON.
func (n *node) AppendJSON(b []byte) []byte {
	switch n.Kind {
	case kindNull:
		return append(b, "null"...)
	case kindBool:
		return strconv.AppendBool(b, n.Bool)
	case kindNumber:
		return append(b, n.Text...)
	case kindString:
		s, _ := json.Marshal(n.Text)
		return append(b, s...)
	case kindArray:
		b = append(b, '[')
		for i, v := range n.Vals {
			if i > 0 {
				b = append(b, ',')
			}
			b = v.AppendJSON(b)
		}
		return append(b, ']')
	}
	b = append(b, '{')
	for i, k := range n.Keys {
		if i > 0 {
			b = append(b, ',')
		}
		s, _ := json.Marshal(k)
		b = append(b, s...)
		b = append(b, ':')
		b = n.Vals[i].AppendJSON(b)
	}
	return append(b, '}')
}

func (n *node) String() string { return string(n.AppendJSON(nil)) }

// yaml11Bool are the plain words YAML 1.1 reads as booleans; callgrade
// reads YAML 1.2, where they are strings, but a suite is quoted for every
// reader.
var yaml11Bool = map[string]bool{"y": true, "n": true, "yes": true, "no": true, "on": true, "off": true}

// yamlNode returns the node for yaml.v3's encoder; flow writes it and
// everything inside it on one line.
func (n *node) yamlNode(flow bool) *yaml.Node {
	flow = flow || n.Flow
	var style yaml.Style
	if flow {
		style = yaml.FlowStyle
	}
	switch n.Kind {
	case kindNull:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	case kindBool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(n.Bool)}
	case kindNumber:
		tag := "!!int"
		if strings.ContainsAny(n.Text, ".eE") {
			tag = "!!float"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: n.Text}
	case kindString:
		y := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: n.Text}
		if yaml11Bool[strings.ToLower(n.Text)] {
			y.Style = yaml.DoubleQuotedStyle // a YAML 1.1 reader would take it for a boolean
		}
		return y
	case kindArray:
		y := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: style}
		for _, v := range n.Vals {
			y.Content = append(y.Content, v.yamlNode(flow))
		}
		return y
	}
	y := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: style}
	for i, k := range n.Keys {
		y.Content = append(y.Content, str(k).yamlNode(flow), n.Vals[i].yamlNode(flow))
	}
	return y
}
