// Package schema compiles the JSON Schema of a tool's parameters for
// scoring: what the schema implies for the comparison at every path, the
// coercions it implies before validation, and validation itself.
//
// The JSON Schema library (santhosh-tekuri/jsonschema) is the authority: a
// schema it rejects does not compile, and its messages are the ones
// violations carry. For the keywords tool schemas use (types, enums,
// properties, required, items, bounds, patterns, local $refs, anyOf, oneOf,
// allOf) this package validates on its own, over value.Value: numbers by
// their exact decimal value (the library's big.Rat arithmetic panics on a
// literal such as 1e10000000 and takes tens of milliseconds on 1e999999),
// object keys in sorted order (the library's order is a map's), and without
// converting the arguments to Go maps first. A schema with any other keyword
// is validated by the library, under a recover so that no model output can
// stop a run.
package schema

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/callgrade/callgrade/value"
)

// Schema is a compiled parameters schema. It is immutable and safe for
// concurrent use.
type Schema struct {
	// fast and flat come first, held in place: they are what a
	// validation reads before anything else, for every call, and a
	// pointer to follow to them was a cache miss more.

	// fast says that every keyword the schema uses is one this package
	// validates itself; otherwise the library validates.
	fast bool
	flat flat // the schema's flat form; flat.ok is false when it has none
	root *node
	lib  *jsonschema.Schema // nil when fast
}

// types is a set of JSON Schema type names, one bit each.
type types uint8

const (
	tNull types = 1 << iota
	tBoolean
	tNumber
	tInteger
	tString
	tArray
	tObject
)

// typeOrder is the order in which the library lists types in messages.
var typeOrder = []struct {
	t    types
	name string
}{
	{tNull, "null"}, {tBoolean, "boolean"}, {tNumber, "number"}, {tInteger, "integer"},
	{tString, "string"}, {tArray, "array"}, {tObject, "object"},
}

func (t types) names() []string {
	var out []string
	for _, o := range typeOrder {
		if t&o.t != 0 {
			out = append(out, o.name)
		}
	}
	return out
}

// node is one compiled schema. Nodes form a graph: $refs point back into
// it, so a recursive schema is a cycle.
type node struct {
	never bool // the schema `false`

	types types // 0: any

	enum     []value.Value
	hasEnum  bool
	constV   value.Value
	hasConst bool

	// Number bounds, as literals; "" when absent.
	minimum, maximum, exclMin, exclMax, multipleOf string

	minLength, maxLength int // -1: absent
	pattern              *regexp.Regexp

	minItems, maxItems int // -1: absent
	uniqueItems        bool
	items              *node

	props          []prop // sorted by key
	required       []string
	sortedRequired []string // required, sorted and without repeats
	additional     *node    // additionalProperties as a schema
	noExtra        bool     // additionalProperties: false
	minProps       int      // -1: absent
	maxProps       int      // -1: absent

	ref          *node
	allOf        []*node
	anyOf, oneOf []*node

	def    value.Value
	hasDef bool

	// defOf is the default Implications gives a field of this schema:
	// its own, or the first of what it stands for; nil when none.
	// defValid says that it is valid against this schema (Known.Prove).
	defOf    *value.Value
	defValid bool
}

type prop struct {
	key string
	n   *node
}

func (n *node) prop(key string) *node {
	if len(n.props) <= 8 {
		// A tool's few properties: == looks at the lengths first, and
		// calls no comparison of the bytes but for a key of the same
		// length, where a binary search compares at every step.
		for i := range n.props {
			if n.props[i].key == key {
				return n.props[i].n
			}
		}
		return nil
	}
	lo, hi := 0, len(n.props)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if n.props[m].key < key {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(n.props) && n.props[lo].key == key {
		return n.props[lo].n
	}
	return nil
}

// Compile compiles a tool's parameters schema. name names the tool in
// errors and in the schema's location.
func Compile(name string, doc value.Value) (*Schema, error) {
	lib, err := compileLib(name, doc)
	if err != nil {
		return nil, err
	}
	c := compiler{doc: doc, byPtr: map[string]*node{}, fast: true}
	root := c.node(doc, "")
	if c.fast && hasSelfLoop(root) {
		c.fast = false // the library reports the cycle
	}
	if c.fast {
		for _, n := range c.byPtr {
			n.prepareDefault()
		}
	}
	s := &Schema{root: root, fast: c.fast}
	if !c.fast {
		// Kept only where it validates: compiled, it is kilobytes a tool
		// that a suite of thousands of tools would hold for nothing.
		s.lib = lib
	}
	if c.fast {
		s.flat.of(root)
	}
	return s, nil
}

// compileLib compiles doc with the library, which judges whether it is a
// schema at all.
func compileLib(name string, doc value.Value) (*jsonschema.Schema, error) {
	comp := jsonschema.NewCompiler()
	loc := "mem://tools/" + url.PathEscape(name) + ".json"
	if err := comp.AddResource(loc, jsonAny(doc)); err != nil {
		return nil, err
	}
	lib, err := comp.Compile(loc)
	if err != nil {
		return nil, fmt.Errorf("invalid parameters schema: %w", err)
	}
	return lib, nil
}

// compiler builds the node graph of one document.
type compiler struct {
	doc   value.Value
	byPtr map[string]*node // by JSON pointer, so that $refs share nodes
	fast  bool
}

// keywords this package validates, and annotations that validate nothing
// under the library's defaults for draft 2020-12 (format and content
// assertions are off). Any other keyword the library knows sends the
// schema to the library; keywords it does not know are ignored by both.
var supported = map[string]bool{
	"type": true, "enum": true, "const": true,
	"properties": true, "required": true, "additionalProperties": true,
	"minProperties": true, "maxProperties": true,
	"items": true, "minItems": true, "maxItems": true, "uniqueItems": true,
	"minLength": true, "maxLength": true, "pattern": true,
	"minimum": true, "maximum": true, "exclusiveMinimum": true, "exclusiveMaximum": true, "multipleOf": true,
	"$ref": true, "$defs": true, "definitions": true,
	"allOf": true, "anyOf": true, "oneOf": true,
	"default": true, "title": true, "description": true, "examples": true, "$comment": true,
	"deprecated": true, "readOnly": true, "writeOnly": true, "format": true,
	"contentEncoding": true, "contentMediaType": true, "contentSchema": true,
}

var unsupported = []string{
	"$id", "id", "$anchor", "$dynamicAnchor", "$dynamicRef", "$recursiveRef", "$recursiveAnchor", "$vocabulary",
	"not", "if", "then", "else", "dependentRequired", "dependentSchemas", "dependencies",
	"patternProperties", "propertyNames", "prefixItems", "contains", "minContains", "maxContains",
	"unevaluatedProperties", "unevaluatedItems", "additionalItems",
}

const draft2020 = "https://json-schema.org/draft/2020-12/schema"

func (c *compiler) node(v value.Value, ptr string) *node {
	if n, ok := c.byPtr[ptr]; ok {
		return n
	}
	n := &node{minLength: -1, maxLength: -1, minItems: -1, maxItems: -1, minProps: -1, maxProps: -1}
	c.byPtr[ptr] = n
	switch v.Kind() {
	case value.Bool:
		n.never = !v.Bool()
		return n
	case value.Object:
	default:
		return n // the library rejects it
	}
	for _, m := range v.Members() {
		if !supported[m.Key] {
			for _, u := range unsupported {
				if m.Key == u {
					c.fast = false
				}
			}
			if m.Key == "$schema" && !(m.Value.Kind() == value.String && strings.TrimSuffix(m.Value.Str(), "#") == draft2020) {
				c.fast = false
			}
			continue
		}
		c.keyword(n, m.Key, m.Value, ptr+"/"+escapePointer(m.Key))
	}
	return n
}

func (c *compiler) keyword(n *node, k string, v value.Value, ptr string) {
	switch k {
	case "type":
		var list []value.Value
		if v.Kind() == value.Array {
			list = v.Elems()
		} else {
			list = []value.Value{v}
		}
		for _, e := range list {
			for _, o := range typeOrder {
				if e.Str() == o.name {
					n.types |= o.t
				}
			}
		}
	case "enum":
		n.enum, n.hasEnum = v.Elems(), true
	case "const":
		n.constV, n.hasConst = v, true
	case "properties":
		for _, m := range v.Members() { // sorted by key
			n.props = append(n.props, prop{m.Key, c.node(m.Value, ptr+"/"+escapePointer(m.Key))})
		}
	case "required":
		for _, e := range v.Elems() {
			n.required = append(n.required, e.Str())
		}
		n.sortedRequired = slices.Compact(slices.Sorted(slices.Values(n.required)))
	case "additionalProperties":
		// The library lists the keys a literal false rejects in one
		// error, and validates each key against a schema, even `false`.
		if v.Kind() == value.Bool {
			n.noExtra = !v.Bool()
			return
		}
		n.additional = c.node(v, ptr)
	case "items":
		if v.Kind() == value.Array {
			c.fast = false // the tuple form of older drafts
			return
		}
		n.items = c.node(v, ptr)
	case "minProperties", "maxProperties", "minItems", "maxItems", "minLength", "maxLength":
		*n.countField(k) = c.count(v)
	case "uniqueItems":
		n.uniqueItems = v.Kind() == value.Bool && v.Bool()
	case "pattern":
		re, err := regexp.Compile(v.Str())
		if err != nil {
			c.fast = false
			return
		}
		n.pattern = re
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
		*n.numberField(k) = c.number(v)
	case "$ref":
		target, ok := c.resolve(v.Str())
		if !ok {
			c.fast = false
			return
		}
		n.ref = target
	case "allOf", "anyOf", "oneOf":
		var list []*node
		for i, e := range v.Elems() {
			list = append(list, c.node(e, ptr+"/"+strconv.Itoa(i)))
		}
		switch k {
		case "allOf":
			n.allOf = list
		case "anyOf":
			n.anyOf = list
		default:
			n.oneOf = list
		}
	case "default":
		n.def, n.hasDef = v, true
	}
}

// countField returns the field a count keyword sets.
func (n *node) countField(k string) *int {
	return map[string]*int{
		"minProperties": &n.minProps, "maxProperties": &n.maxProps,
		"minItems": &n.minItems, "maxItems": &n.maxItems,
		"minLength": &n.minLength, "maxLength": &n.maxLength,
	}[k]
}

// numberField returns the field a numeric bound keyword sets.
func (n *node) numberField(k string) *string {
	return map[string]*string{
		"minimum": &n.minimum, "maximum": &n.maximum,
		"exclusiveMinimum": &n.exclMin, "exclusiveMaximum": &n.exclMax,
		"multipleOf": &n.multipleOf,
	}[k]
}

// count reads a non-negative integer keyword (the library has checked it).
func (c *compiler) count(v value.Value) int {
	f, ok := v.Float()
	if !ok || f < 0 || f > 1<<31 {
		c.fast = false
		return -1
	}
	return int(f)
}

func (c *compiler) number(v value.Value) string {
	if v.Kind() != value.Number {
		c.fast = false // a boolean exclusiveMaximum of draft 4
		return ""
	}
	return v.Str()
}

// resolve follows a $ref that is a JSON pointer into this document.
func (c *compiler) resolve(ref string) (*node, bool) {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil, false
	}
	frag, err := url.PathUnescape(frag)
	if err != nil || (frag != "" && frag[0] != '/') {
		return nil, false // an anchor, or not a pointer
	}
	if n, ok := c.byPtr[frag]; ok {
		return n, true
	}
	v := c.doc
	if frag != "" {
		for _, tok := range strings.Split(frag[1:], "/") {
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
			switch v.Kind() {
			case value.Object:
				if v, ok = v.Get(tok); !ok {
					return nil, false
				}
			case value.Array:
				i, err := strconv.Atoi(tok)
				if err != nil || i < 0 || i >= v.Len() {
					return nil, false
				}
				v = v.Elems()[i]
			default:
				return nil, false
			}
		}
	}
	return c.node(v, frag), true
}

func escapePointer(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}

// hasSelfLoop reports whether a node can reach itself through $ref,
// allOf, anyOf and oneOf alone, validating the same instance forever.
func hasSelfLoop(root *node) bool {
	state := map[*node]uint8{} // 1: on the stack, 2: done
	var visit func(n *node) bool
	all := map[*node]bool{}
	var collect func(n *node)
	collect = func(n *node) {
		if n == nil || all[n] {
			return
		}
		all[n] = true
		for _, s := range n.successors() {
			collect(s)
		}
		for _, p := range n.props {
			collect(p.n)
		}
		collect(n.items)
		collect(n.additional)
	}
	collect(root)
	visit = func(n *node) bool {
		switch state[n] {
		case 1:
			return true
		case 2:
			return false
		}
		state[n] = 1
		for _, s := range n.successors() {
			if visit(s) {
				return true
			}
		}
		state[n] = 2
		return false
	}
	for n := range all {
		if visit(n) {
			return true
		}
	}
	return false
}

// prepareDefault finds n's default as Implications reads it, and whether
// it is valid against n.
func (n *node) prepareDefault() {
	for _, m := range standsFor(n, nil) {
		if m.hasDef {
			d := m.def
			n.defOf = &d
			break
		}
	}
	if n.defOf != nil {
		v := validator{quiet: 1}
		v.validate(n, *n.defOf, nil, nil, nil)
		n.defValid = v.failures == 0
	}
}

// successors are the nodes that validate the same instance as n.
func (n *node) successors() []*node {
	var out []*node
	if n.ref != nil {
		out = append(out, n.ref)
	}
	out = append(out, n.allOf...)
	out = append(out, n.anyOf...)
	return append(out, n.oneOf...)
}
