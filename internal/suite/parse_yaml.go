package suite

import (
	"bytes"
	"errors"
	"io"
	"math/big"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/callgrade/callgrade/internal/errcode"
	"github.com/callgrade/callgrade/value"
)

// yamlParser reads YAML suite files. It converts the
// yaml.v3 node tree itself, so that numbers keep the text they were
// written with and a key written twice is an error.
type yamlParser struct{ f *file }

// parse reads a YAML suite file's top level but its cases, which go to
// the file, out of band.
func (p *yamlParser) parse(b []byte) ([]value.Member, error) {
	doc, probs := parseYAML(p.f.name, b)
	if len(probs) > 0 {
		if !allDuplicateKeys(probs) || doc.Kind() != value.Object {
			return nil, &Error{Problems: probs}
		}
		// A key written twice is reported, and its first value kept:
		// the rest of the file is checked too, as a JSON suite's cases
		// are around one that does not parse.
		p.f.probs = probs
	}
	switch doc.Kind() {
	case value.Null: // an empty file
		return nil, nil
	case value.Object:
	default:
		return nil, &Error{Problems: []Problem{{Loc: Loc{File: p.f.name}, Msg: "a suite must be a mapping, not " + kindName(doc), Code: errcode.WrongType}}}
	}
	return splitCases(p.f, doc), nil
}

// duplicateKey begins the message of a key written twice.
const duplicateKey = "duplicate key "

// allDuplicateKeys reports whether probs are all keys written twice, the
// one problem of reading a YAML file that does not stop its check: the
// first value is kept. One with an underlying error is from merging (<<),
// which loses the mapping.
func allDuplicateKeys(probs []Problem) bool {
	for _, pr := range probs {
		if pr.Code != errcode.DuplicateKey || pr.Err != nil {
			return false
		}
	}
	return true
}

// splitCases gives the file the `cases` of doc and returns the rest of its
// members, which the loader layers over the earlier files'.
func splitCases(f *file, doc value.Value) []value.Member {
	rest := make([]value.Member, 0, doc.Len())
	for _, m := range doc.Members() {
		if m.Key == "cases" {
			f.setCases(m.Value)
			continue
		}
		rest = append(rest, m)
	}
	return rest
}

// parseYAML parses one YAML document into a Value. An empty input is Null.
func parseYAML(name string, b []byte) (value.Value, []Problem) {
	dec := yaml.NewDecoder(bytes.NewReader(b))
	var root yaml.Node
	if err := dec.Decode(&root); err != nil {
		if errors.Is(err, io.EOF) {
			return value.Value{}, nil
		}
		return value.Value{}, []Problem{yamlSyntaxProblem(name, b, dec, err)}
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		if err != nil {
			return value.Value{}, []Problem{yamlSyntaxProblem(name, b, dec, err)}
		}
		return value.Value{}, []Problem{{Loc: Loc{File: name, Line: extra.Line, Column: extra.Column}, Msg: "a suite file holds one YAML document, this is a second one", Code: errcode.SyntaxError}}
	}
	c := yamlConv{file: name, memo: map[*yaml.Node]value.Value{}, sizes: map[*yaml.Node]int{},
		active: map[*yaml.Node]bool{}, budget: maxExpanded + 10*len(b)}
	v := c.node(&root)
	for i := range c.probs {
		c.probs[i].Loc.Case = yamlCaseID(&root, c.probs[i].Loc.Key)
	}
	return v, c.probs
}

// yamlCaseID is the id of the case whose part key names ("cases[3].…")
// in the YAML document root, as tomlCaseID is for TOML.
func yamlCaseID(root *yaml.Node, key string) string {
	i, ok := caseIndex(key)
	if !ok || len(root.Content) == 0 {
		return ""
	}
	cases := yamlGet(root.Content[0], "cases")
	if cases == nil || cases.Kind != yaml.SequenceNode || i >= len(cases.Content) {
		return ""
	}
	if id := yamlGet(cases.Content[i], "id"); id != nil && id.Kind == yaml.ScalarNode {
		return id.Value
	}
	return ""
}

// yamlGet is the value of the first key k of mapping n, or nil.
func yamlGet(n *yaml.Node, k string) *yaml.Node {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for j := 0; j+1 < len(n.Content); j += 2 {
		if n.Content[j].Value == k {
			return n.Content[j+1]
		}
	}
	return nil
}

// yamlSyntaxProblem turns the error of a failed dec.Decode of src into a
// problem at the line and column of the fault. yaml.v3's error text names a
// line only, often that of the enclosing block rather than the fault's (and
// for some errors counted from 0), so the position comes from the state the
// parser stopped in; the text's line is the fallback.
func yamlSyntaxProblem(name string, src []byte, dec *yaml.Decoder, err error) Problem {
	f, ok := yamlFaultOf(dec)
	if !ok {
		return yamlTextProblem(name, err)
	}
	switch f.kind {
	case yamlReaderError:
		loc := Loc{File: name}
		if f.offset >= 0 && f.offset <= len(src) {
			loc.Line, loc.Column = lineCol(string(src), f.offset)
		}
		return Problem{Loc: loc, Msg: "invalid YAML: " + f.problem, Code: errcode.SyntaxError, Err: err}
	case yamlScannerError, yamlParserError:
		loc, msg := f.locate(src)
		loc.File = name
		return Problem{Loc: loc, Msg: "invalid YAML: " + msg, Code: errcode.SyntaxError, Err: err}
	case yamlNoError:
		// yaml.v3's own check (an alias naming no anchor) failed on the
		// event it was handling.
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		return Problem{Loc: Loc{File: name, Line: f.event.line + 1, Column: f.event.column + 1}, Msg: "invalid YAML: " + msg, Code: errcode.SyntaxError, Err: err}
	}
	return yamlTextProblem(name, err)
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): `)

// yamlTextProblem turns a yaml.v3 error into a problem with the line its
// text names, for an error whose position the parser's state does not give.
func yamlTextProblem(name string, err error) Problem {
	msg := err.Error()
	loc := Loc{File: name}
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		loc.Line, _ = strconv.Atoi(m[1])
		msg = msg[len(m[0]):]
	} else {
		msg = strings.TrimPrefix(msg, "yaml: ")
	}
	return Problem{Loc: loc, Msg: "invalid YAML: " + msg, Code: errcode.SyntaxError, Err: err}
}

// The kinds of yaml.v3's parser errors (its yaml_error_type_t).
const (
	yamlNoError      = 0
	yamlReaderError  = 2
	yamlScannerError = 3
	yamlParserError  = 4
)

// yamlMark is a position as yaml.v3 counts it: in characters, from 0.
type yamlMark struct{ index, line, column int }

// yamlFault is the state a yaml.v3 parser stopped in at a syntax error.
type yamlFault struct {
	kind      int    // one of the yaml*Error kinds
	problem   string // what is wrong
	problemAt yamlMark
	context   string // what the parser was reading, if it says
	contextAt yamlMark
	offset    int        // a reader error's byte offset
	open      []yamlMark // where each collection being parsed starts, innermost last
	event     yamlMark   // where the event being handled starts
}

// yamlFaultOf reads the state dec's parser stopped in. yaml.v3 exposes no
// position for a syntax error but the line in its text, so the unexported
// fields, which keep their libyaml names, are read by reflection (which may
// read them, not write them). If a later yaml.v3 renames one, ok is false
// and the caller falls back to the error's text.
func yamlFaultOf(dec *yaml.Decoder) (f yamlFault, ok bool) {
	defer func() {
		if recover() != nil { // a field is missing or has another type
			f, ok = yamlFault{}, false
		}
	}()
	p := reflect.ValueOf(dec).Elem().FieldByName("parser").Elem()
	y := p.FieldByName("parser")
	mark := func(v reflect.Value) yamlMark {
		return yamlMark{int(v.FieldByName("index").Int()), int(v.FieldByName("line").Int()), int(v.FieldByName("column").Int())}
	}
	f.kind = int(y.FieldByName("error").Int())
	f.problem = y.FieldByName("problem").String()
	f.problemAt = mark(y.FieldByName("problem_mark"))
	f.context = y.FieldByName("context").String()
	f.contextAt = mark(y.FieldByName("context_mark"))
	f.offset = int(y.FieldByName("problem_offset").Int())
	marks := y.FieldByName("marks")
	for i := range marks.Len() {
		f.open = append(f.open, mark(marks.Index(i)))
	}
	f.event = mark(p.FieldByName("event").FieldByName("start_mark"))
	return f, true
}

// locate returns the position of a scanner or parser error in src and its
// message. The position is where the parser found the problem, which is
// the offending character, except for faults the parser finds only further
// on: a quote or bracket left open is reported where it opens, with where
// the parser noticed in the message, and a key without its colon where
// the key starts.
func (f yamlFault) locate(src []byte) (Loc, string) {
	at := func(m yamlMark) Loc { return Loc{Line: m.line + 1, Column: m.column + 1} }
	where := func(m yamlMark) string {
		return "line " + strconv.Itoa(m.line+1) + ", column " + strconv.Itoa(m.column+1)
	}
	atEnd := f.problemAt.index >= utf8.RuneCount(src)
	if opener, ok := f.leftOpen(src, atEnd); ok {
		msg := string(charAt(src, opener.index)) + " is not closed"
		if atEnd {
			return at(opener), msg + " by the end of the file"
		}
		return at(opener), msg + ": " + f.problem + " at " + where(f.problemAt)
	}
	if f.context == "while scanning a simple key" {
		return at(f.contextAt), f.problem + " after this key"
	}
	msg := f.problem
	if f.problem == "found character that cannot start any token" && charAt(src, f.problemAt.index) == '\t' {
		// The scanner's generic words for a tab that starts a line; these
		// are the ones it has for a tab after text, and they say what is
		// wrong.
		msg = "found a tab character that violates indentation"
	}
	if f.context != "" && f.contextAt != f.problemAt {
		msg += " (" + f.context + " at " + where(f.contextAt) + ")"
	}
	return at(f.problemAt), msg
}

// leftOpen returns the quote or bracket whose not being closed is the
// fault: one still open at the end of the input, or a flow collection that
// a later line indented no deeper than its own line interrupts (inside a
// block, YAML wants a flow collection's lines indented deeper).
func (f yamlFault) leftOpen(src []byte, atEnd bool) (yamlMark, bool) {
	switch f.context {
	case "while scanning a quoted scalar":
		if c := charAt(src, f.contextAt.index); atEnd && (c == '"' || c == '\'') {
			return f.contextAt, true
		}
		return yamlMark{}, false
	case "while parsing a flow sequence", "while parsing a flow mapping":
		if c := charAt(src, f.contextAt.index); c != '[' && c != '{' {
			return yamlMark{}, false
		}
		if atEnd || f.problemAt.line > f.contextAt.line && indentAt(src, f.problemAt.index) <= indentAt(src, f.contextAt.index) {
			return f.contextAt, true
		}
		return yamlMark{}, false
	}
	if atEnd { // the parser gave up on an empty entry: the innermost [ or {
		for i := len(f.open) - 1; i >= 0; i-- {
			if c := charAt(src, f.open[i].index); c == '[' || c == '{' {
				return f.open[i], true
			}
		}
	}
	return yamlMark{}, false
}

// charAt returns the character at the index-th character of src, or -1.
func charAt(src []byte, index int) rune {
	for i, n := 0, 0; i < len(src); n++ {
		r, size := utf8.DecodeRune(src[i:])
		if n == index {
			return r
		}
		i += size
	}
	return -1
}

// indentAt returns how many spaces begin the line holding the index-th
// character of src.
func indentAt(src []byte, index int) int {
	start, i := 0, 0
	for n := 0; i < len(src) && n < index; n++ {
		if src[i] == '\n' || src[i] == '\r' {
			start = i + 1
		}
		_, size := utf8.DecodeRune(src[i:])
		i += size
	}
	k := start
	for k < len(src) && src[k] == ' ' {
		k++
	}
	return k - start
}

// maxExpanded is the values aliases may expand a YAML document to, beside
// ten a byte of it. It was 10,000, which refused a 100 KB suite of 1,000
// cases each with tools: *tools (40 tools), 21 MB written out; a document
// of a few hundred bytes expanded to 3.3 million values loads in 0.05 s
// and scores in 0.26 s at 52 MB, the values being shared.
const maxExpanded = 4_000_000

// yamlConv converts a yaml.v3 node tree to a Value.
type yamlConv struct {
	file   string
	probs  []Problem
	memo   map[*yaml.Node]value.Value // anchored nodes already converted
	sizes  map[*yaml.Node]int         // and how many nodes each expands to
	active map[*yaml.Node]bool        // anchored nodes being converted

	// Values share what aliases point to, but whoever walks the tree later
	// sees every alias expanded: budget bounds the expanded size, so that a
	// few lines of nested aliases cannot make a tree of billions of nodes.
	budget   int
	expanded int
	overrun  bool

	// at is the key path of the node being converted, as a Problem's
	// Key names it: "cases", "[0]", "expected", ….
	at []string
}

func (c *yamlConv) fail(n *yaml.Node, code errcode.Code, msg string) {
	c.probs = append(c.probs, Problem{Loc: Loc{File: c.file, Line: n.Line, Column: n.Column, Key: c.key()}, Msg: msg, Code: code})
}

// key is the key path of the node being converted.
func (c *yamlConv) key() string {
	var b strings.Builder
	for _, s := range c.at {
		if b.Len() > 0 && !strings.HasPrefix(s, "[") {
			b.WriteByte('.')
		}
		b.WriteString(s)
	}
	return b.String()
}

func (c *yamlConv) node(n *yaml.Node) value.Value {
	if n.Kind == yaml.AliasNode {
		return c.alias(n)
	}
	if !c.spend(n, 1) {
		return value.Value{}
	}
	if n.Anchor == "" {
		return c.convert(n)
	}
	c.active[n] = true
	before := c.expanded
	v := c.convert(n)
	delete(c.active, n)
	c.memo[n] = v
	c.sizes[n] = c.expanded - before + 1
	return v
}

// spend counts k more nodes of the expanded tree and reports whether the
// budget allows them.
func (c *yamlConv) spend(n *yaml.Node, k int) bool {
	c.expanded += k
	if c.expanded <= c.budget {
		return true
	}
	if !c.overrun {
		c.overrun = true
		c.fail(n, errcode.LimitExceeded, "aliases expand the document to more than "+strconv.Itoa(c.budget)+" values")
	}
	return false
}

// alias returns the value of the anchored node an alias names. Each
// anchored node is converted once and shared, so aliases cannot blow up.
func (c *yamlConv) alias(n *yaml.Node) value.Value {
	t := n.Alias
	if t == nil {
		c.fail(n, errcode.SyntaxError, "unknown alias")
		return value.Value{}
	}
	if v, ok := c.memo[t]; ok {
		if !c.spend(n, c.sizes[t]) {
			return value.Value{}
		}
		return v
	}
	if c.active[t] {
		c.fail(n, errcode.SyntaxError, "alias *"+n.Value+" refers to a value that contains it")
		return value.Value{}
	}
	return c.node(t)
}

func (c *yamlConv) convert(n *yaml.Node) value.Value {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return value.Value{}
		}
		return c.node(n.Content[0])
	case yaml.SequenceNode:
		if t := n.ShortTag(); t != "!!seq" {
			c.fail(n, errcode.SyntaxError, "unsupported tag "+t+" on a sequence")
		}
		arr := make([]value.Value, len(n.Content))
		for i, e := range n.Content {
			c.at = append(c.at, "["+strconv.Itoa(i)+"]")
			arr[i] = c.node(e)
			c.at = c.at[:len(c.at)-1]
		}
		return value.ArrayOf(arr...)
	case yaml.MappingNode:
		return c.mapping(n)
	case yaml.ScalarNode:
		return c.scalar(n)
	}
	c.fail(n, errcode.SyntaxError, "unsupported YAML node")
	return value.Value{}
}

func (c *yamlConv) mapping(n *yaml.Node) value.Value {
	if t := n.ShortTag(); t != "!!map" {
		c.fail(n, errcode.SyntaxError, "unsupported tag "+t+" on a mapping")
	}
	members := make([]value.Member, 0, len(n.Content)/2)
	var lines map[string]int // key -> line, for large mappings
	if len(n.Content) > 32 {
		lines = make(map[string]int, len(n.Content)/2)
	}
	var merged []value.Member
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn, vn := n.Content[i], n.Content[i+1]
		k := kn
		if k.Kind == yaml.AliasNode && k.Alias != nil {
			k = k.Alias
		}
		if k.Kind != yaml.ScalarNode {
			c.fail(kn, errcode.SyntaxError, "a mapping key must be a scalar")
			continue
		}
		if k.ShortTag() == "!!merge" {
			merged = append(merged, c.mergeSource(vn)...)
			continue
		}
		key := k.Value
		first := 0
		if lines != nil {
			first = lines[key]
			if first == 0 {
				lines[key] = kn.Line
			}
		} else {
			for j := 0; j < i; j += 2 {
				if pk := n.Content[j]; pk.Value == key && pk.Kind == yaml.ScalarNode && pk.ShortTag() != "!!merge" {
					first = pk.Line
					break
				}
			}
		}
		c.at = append(c.at, key)
		if first != 0 {
			c.fail(kn, errcode.DuplicateKey, duplicateKey+strconv.Quote(key)+" (first at line "+strconv.Itoa(first)+")")
		} else {
			members = append(members, value.Member{Key: key, Value: c.node(vn)})
		}
		c.at = c.at[:len(c.at)-1]
	}
	// Merged keys (<<) fill in what the mapping does not say itself; among
	// several merged mappings the first that has a key wins.
	if len(merged) > 0 {
		own := make(map[string]bool, len(members))
		for _, m := range members {
			own[m.Key] = true
		}
		for _, m := range merged {
			if !own[m.Key] {
				members = append(members, m)
			}
		}
	}
	v, err := value.ObjectOf(members...)
	if err != nil {
		// Two merge keys bringing in one key: the mapping is lost, so the
		// problem keeps its error, which tells it from a key written twice.
		c.fail(n, errcode.Of(err), err.Error())
		c.probs[len(c.probs)-1].Err = err
	}
	return v
}

// mergeSource returns the members a merge key (<<) brings in: a mapping or
// a sequence of mappings, the first mapping that has a key winning.
func (c *yamlConv) mergeSource(n *yaml.Node) []value.Member {
	var out []value.Member
	seen := map[string]bool{}
	add := func(v value.Value) {
		for _, m := range v.Members() {
			if !seen[m.Key] {
				seen[m.Key] = true
				out = append(out, m)
			}
		}
	}
	switch v := c.node(n); v.Kind() {
	case value.Object:
		add(v)
	case value.Array:
		for _, e := range v.Elems() {
			if e.Kind() != value.Object {
				c.fail(n, errcode.SyntaxError, "a merge key (<<) needs a mapping or a sequence of mappings")
				return out
			}
			add(e)
		}
	default:
		c.fail(n, errcode.SyntaxError, "a merge key (<<) needs a mapping or a sequence of mappings")
	}
	return out
}

func (c *yamlConv) scalar(n *yaml.Node) value.Value {
	switch tag := scalarTag(n); tag {
	case "!!str", "!!timestamp", "!!binary":
		// A timestamp stays the text it was written as; binary stays base64.
		return value.StringOf(n.Value)
	case "!!null":
		if n.Tag != "" && n.Tag != "!" && !isYAMLNull(n.Value) {
			c.fail(n, errcode.InvalidValue, "cannot read "+strconv.Quote(n.Value)+" as !!null")
		}
		return value.Value{}
	case "!!bool":
		switch n.Value {
		case "true", "True", "TRUE":
			return value.BoolOf(true)
		case "false", "False", "FALSE":
			return value.BoolOf(false)
		}
		c.fail(n, errcode.InvalidValue, "cannot read "+strconv.Quote(n.Value)+" as !!bool")
		return value.Value{}
	case "!!int", "!!float":
		text, err := yamlNumber(n.Value, tag == "!!int")
		if err != "" {
			c.fail(n, errcode.InvalidValue, err)
			return value.Value{}
		}
		v, verr := value.NumberOf(text)
		if verr != nil {
			c.fail(n, errcode.InvalidValue, "invalid number "+strconv.Quote(n.Value))
		}
		return v
	default:
		c.fail(n, errcode.SyntaxError, "unsupported tag "+tag)
		return value.Value{}
	}
}

// scalarTag returns the tag of a scalar node. yaml.v3 resolves a plain
// scalar by parsing it into an int64, uint64 or float64 and calls it a
// string when the number does not fit one; here numbers keep their text,
// so such a scalar is the number it spells, as it is in a JSON suite.
func scalarTag(n *yaml.Node) string {
	const notPlain = yaml.TaggedStyle | yaml.DoubleQuotedStyle | yaml.SingleQuotedStyle | yaml.LiteralStyle | yaml.FoldedStyle
	tag := n.ShortTag()
	if tag == "!!str" && n.Style&notPlain == 0 {
		if t := outOfRangeTag(n.Value); t != "" {
			return t
		}
	}
	return tag
}

// yamlFloat is the float syntax yaml.v3 resolves, underscores removed.
var yamlFloat = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)

// outOfRangeTag returns !!int or !!float when yaml.v3 would resolve s as
// that but for the range of the Go type it parses into, and "" otherwise.
// It makes the same attempts as yaml.v3's resolver, in the same order, so
// that a scalar is a number exactly when the resolver would read it as
// one if it had no limits: only a range error separates the two.
func outOfRangeTag(s string) string {
	tooBig := func(err error) bool { return errors.Is(err, strconv.ErrRange) }
	if s == "" {
		return ""
	}
	switch c := s[0]; {
	case c == '.':
		if _, err := strconv.ParseFloat(s, 64); tooBig(err) {
			return "!!float"
		}
		return ""
	case c != '+' && c != '-' && (c < '0' || c > '9'):
		return ""
	}
	plain := strings.ReplaceAll(s, "_", "")
	// Base 0 covers the resolver's 0x, 0o and 0b forms, signed or not. An
	// int64 overflow is enough: a number that fits a uint64 the resolver
	// took already.
	if _, err := strconv.ParseInt(plain, 0, 64); tooBig(err) {
		return "!!int"
	}
	if yamlFloat.MatchString(plain) {
		if _, err := strconv.ParseFloat(plain, 64); tooBig(err) {
			return "!!float"
		}
	}
	return ""
}

func isYAMLNull(s string) bool {
	switch s {
	case "", "~", "null", "Null", "NULL":
		return true
	}
	return false
}

// yamlNumber returns the JSON literal of a YAML number, keeping its text
// when it is one already, so that no digit is lost: 9007199254740993 and
// 0.30000000000000004 stay as written. YAML-only spellings are rewritten
// with the same value: 0x1F, 0o17 and 0b101 as decimal, 1_000 as 1000, +5
// as 5, .5 as 0.5, 5. as 5.0. NaN and infinities have no JSON spelling and
// are an error, as is a decimal integer with a leading zero (017), which
// YAML 1.1 reads as octal and YAML 1.2 as decimal.
func yamlNumber(text string, isInt bool) (string, string) {
	if _, err := value.NumberOf(text); err == nil {
		if isInt && strings.ContainsAny(text, ".eE") {
			return "", "invalid integer " + strconv.Quote(text)
		}
		return text, ""
	}
	s := strings.ReplaceAll(text, "_", "")
	neg := false
	switch {
	case strings.HasPrefix(s, "-"):
		neg, s = true, s[1:]
	case strings.HasPrefix(s, "+"):
		s = s[1:]
	}
	switch strings.ToLower(s) {
	case ".inf", ".nan":
		return "", "the number " + text + " has no JSON spelling (NaN and infinities are not allowed)"
	}
	sign := ""
	if neg {
		sign = "-"
	}
	if len(s) > 2 && s[0] == '0' && strings.ContainsRune("xXoObB", rune(s[1])) {
		var z big.Int
		if _, ok := z.SetString(s, 0); !ok {
			return "", "invalid number " + strconv.Quote(text)
		}
		if neg {
			z.Neg(&z)
		}
		return z.String(), ""
	}
	// Decimal: digits, an optional fraction and an optional exponent.
	intPart, frac, exp, e := s, "", "", "e"
	if k := strings.IndexAny(intPart, "eE"); k >= 0 {
		intPart, exp, e = intPart[:k], intPart[k+1:], intPart[k:k+1]
		if exp == "" {
			return "", "invalid number " + strconv.Quote(text)
		}
	}
	hasPoint := false
	if k := strings.IndexByte(intPart, '.'); k >= 0 {
		intPart, frac, hasPoint = intPart[:k], intPart[k+1:], true
	}
	if !digits(intPart) || !digits(frac) || intPart+frac == "" {
		return "", "invalid number " + strconv.Quote(text)
	}
	if exp != "" {
		if d := strings.TrimPrefix(strings.TrimPrefix(exp, "+"), "-"); d == "" || !digits(d) {
			return "", "invalid number " + strconv.Quote(text)
		}
	}
	if len(intPart) > 1 && intPart[0] == '0' && !hasPoint && exp == "" {
		return "", "ambiguous number " + text + ": write it without the leading zero, or as 0o" + strings.TrimLeft(intPart, "0") + " for octal"
	}
	if isInt && (hasPoint || exp != "") {
		return "", "invalid integer " + strconv.Quote(text)
	}
	intPart = strings.TrimLeft(intPart, "0")
	if intPart == "" {
		intPart = "0"
	}
	out := sign + intPart
	if hasPoint {
		if frac == "" {
			frac = "0"
		}
		out += "." + frac
	}
	if exp != "" {
		out += e + exp
	}
	return out, ""
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
