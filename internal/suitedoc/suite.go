package suitedoc

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/value"
)

// Suite is an imported suite: its document, keys in the order a person
// reads them, and the comment its YAML begins with.
type Suite struct {
	Doc    *Node
	Header string // one comment line, "# ..." and its newline
}

// Build returns the suite of one case per question, in order, each what
// build makes of it, headed by header. An error of build is the
// question's: the error says so with the question file's name qname, the
// question's line and its id.
func Build(header, qname string, qs []Question, build func(Question) (*Node, error)) (*Suite, error) {
	cases := ArrayOf()
	for _, q := range qs {
		c, err := build(q)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: question %s: %w", qname, q.Line, q.ID, err)
		}
		cases.Vals = append(cases.Vals, c)
	}
	return &Suite{Doc: NewObject().Set("version", NumberOf("1")).Set("cases", cases), Header: header}, nil
}

// JSON returns the suite as a JSON document.
func (s *Suite) JSON() []byte { return append(s.Doc.AppendJSON(nil), '\n') }

// YAML returns the suite as YAML, headed by its comment, with every node
// marked Flow on one line.
func (s *Suite) YAML() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(s.Header)
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(s.Doc.yamlNode(false)); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Decode returns the suite as package suite reads it, for a program that
// scores it in process instead of writing a file; name is the file name
// its errors use.
func (s *Suite) Decode(name string) (*suite.Suite, error) {
	v, err := value.Parse(string(s.Doc.AppendJSON(nil)))
	if err != nil {
		return nil, err
	}
	return suite.FromValue(name, v)
}

// yaml11Bool are the plain words, case folded, that YAML 1.1 reads as
// booleans and YAML 1.2 as strings. yaml.v3, which writes the suite and
// which package suite reads it with, follows YAML 1.2 here and would
// write them plain; a YAML 1.1 reader (PyYAML, for one) would then read
// the string "no" as false. Quoted, every reader reads the string. The
// other YAML 1.1 spellings of a boolean or null (true, False, NULL, ~, the
// empty string) are YAML 1.2's too, and yaml.v3 quotes them itself.
var yaml11Bool = map[string]bool{"y": true, "n": true, "yes": true, "no": true, "on": true, "off": true}

// yamlNode returns n as a node for yaml.v3's encoder; flow writes it and
// everything inside it on one line.
func (n *Node) yamlNode(flow bool) *yaml.Node {
	flow = flow || n.Flow
	var style yaml.Style
	if flow {
		style = yaml.FlowStyle
	}
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
		return yamlString(n.Text)
	case Array:
		y := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: style}
		for _, e := range n.Vals {
			y.Content = append(y.Content, e.yamlNode(flow))
		}
		return y
	}
	y := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: style}
	for i, k := range n.Keys {
		y.Content = append(y.Content, yamlString(k), n.Vals[i].yamlNode(flow))
	}
	return y
}

// yamlString returns a string scalar, a key or a value, quoted where a
// YAML 1.1 reader would take it for a boolean.
func yamlString(s string) *yaml.Node {
	y := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if yaml11Bool[strings.ToLower(s)] {
		y.Style = yaml.DoubleQuotedStyle
	}
	return y
}
