// Package bfcl imports the Berkeley Function Calling Leaderboard (BFCL):
// its question and possible-answer files become a callgrade suite, and its
// result files of model outputs become a responses file.
//
// Two semantics are offered. SemanticsBFCL reproduces the verdicts of
// BFCL's AST checker, quirks included, with the ordinary rule vocabulary
// (one_of, optional, normalisers, the type property) and the greedy call
// matching mode. SemanticsCallgrade writes the same suite under
// callgrade's own conventions. docs/bfcl.md lists every difference.
package bfcl

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/callgrade/callgrade/suite"
	"github.com/callgrade/callgrade/value"
)

// Semantics says whose conventions an imported suite follows.
type Semantics string

// The semantics an import can have.
const (
	SemanticsBFCL      Semantics = "bfcl"      // BFCL's checker, verdict for verdict
	SemanticsCallgrade Semantics = "callgrade" // callgrade's own conventions
)

// ParseSemantics checks a --semantics value; "" is SemanticsBFCL.
func ParseSemantics(s string) (Semantics, error) {
	switch Semantics(s) {
	case "", SemanticsBFCL:
		return SemanticsBFCL, nil
	case SemanticsCallgrade:
		return SemanticsCallgrade, nil
	}
	return "", fmt.Errorf("unknown semantics %q; want bfcl or callgrade", s)
}

// Standardise is the normalisation BFCL's checker applies to strings:
// remove spaces and each of , . / - _ * ^, lower-case, and ' becomes ".
var bfclNormalize = arr(obj().Set("delete", str(" ,./-_*^")), str("lower"), obj().Set("replace", obj().Set("'", str(`"`))))

// callgrade's strings: white space and the same punctuation are left out,
// and case is folded.
var callgradeNormalize = arr(obj().Set("delete", str(" \t\n\r\f\v,./-_*^")))

// maxExpansion bounds the literal dicts one dict answer expands to.
const maxExpansion = 4096

// Input names the files an import reads, for error messages.
type Input struct {
	Questions     io.Reader
	QuestionsName string
	Answers       io.Reader // nil: no possible answers (irrelevance questions)
	AnswersName   string
}

// question is one line of a question file.
type question struct {
	id    string
	line  int
	funcs []*node // {name, description, parameters}
}

// Import reads a BFCL question file and its possible-answer file (JSON
// Lines, as BFCL ships them) and returns the suite: one case per question,
// its id the question's, its tools the question's functions in JSON Schema,
// its expected calls the possible answers with their rules. Without an
// answers file every question must be an irrelevance question, whose case
// expects no call. Files that do not correspond (a question without an
// answer, an answer without a question, a repeated id) are an error.
func Import(in Input, sem Semantics) (*Suite, error) {
	if sem == "" {
		sem = SemanticsBFCL
	}
	qs, err := readQuestions(in.Questions, in.QuestionsName)
	if err != nil {
		return nil, err
	}
	answers := map[string]*node{}
	if in.Answers != nil {
		if answers, err = readAnswers(in.Answers, in.AnswersName, qs, in.QuestionsName); err != nil {
			return nil, err
		}
	}
	cases := arr()
	for _, q := range qs {
		c, err := buildCase(q, answers[q.id], in.Answers != nil, sem)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: question %s: %w", in.QuestionsName, q.line, q.id, err)
		}
		cases.Vals = append(cases.Vals, c)
	}
	return &Suite{doc: obj().Set("version", num("1")).Set("cases", cases)}, nil
}

// jsonLines calls fn for each non-blank line of r with its number.
func jsonLines(r io.Reader, name string, fn func(n *node, line int) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 64<<20)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		n, err := parseJSON(b)
		if err != nil {
			return fmt.Errorf("%s:%d: %w", name, line, err)
		}
		if n.Kind != kindObject {
			return fmt.Errorf("%s:%d: want a JSON object, got %s", name, line, kindName(n))
		}
		if err := fn(n, line); err != nil {
			return fmt.Errorf("%s:%d: %w", name, line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

func readQuestions(r io.Reader, name string) ([]question, error) {
	var qs []question
	seen := map[string]int{}
	err := jsonLines(r, name, func(n *node, line int) error {
		id, err := stringField(n, "id")
		if err != nil {
			return err
		}
		if first, dup := seen[id]; dup {
			return fmt.Errorf("question id %q appears twice; first on line %d", id, first)
		}
		seen[id] = line
		f, ok := n.Get("function")
		if !ok {
			return fmt.Errorf("question %s has no \"function\"", id)
		}
		q := question{id: id, line: line}
		switch f.Kind {
		case kindArray:
			q.funcs = f.Vals
		case kindObject:
			q.funcs = []*node{f}
		default:
			return fmt.Errorf("question %s: \"function\" must be a list of functions, got %s", id, kindName(f))
		}
		for i, fn := range q.funcs {
			if _, err := stringField(fn, "name"); err != nil {
				return fmt.Errorf("question %s: function %d: %w", id, i, err)
			}
		}
		qs = append(qs, q)
		return nil
	})
	if err == nil && len(qs) == 0 {
		err = fmt.Errorf("%s: no questions", name)
	}
	return qs, err
}

func readAnswers(r io.Reader, name string, qs []question, qname string) (map[string]*node, error) {
	answers := map[string]*node{}
	lines := map[string]int{}
	known := map[string]bool{}
	for _, q := range qs {
		known[q.id] = true
	}
	var orphans []string
	err := jsonLines(r, name, func(n *node, line int) error {
		id, err := stringField(n, "id")
		if err != nil {
			return err
		}
		if first, dup := lines[id]; dup {
			return fmt.Errorf("answer id %q appears twice; first on line %d", id, first)
		}
		lines[id] = line
		gt, ok := n.Get("ground_truth")
		if !ok {
			return fmt.Errorf("answer %s has no \"ground_truth\"", id)
		}
		if gt.Kind == kindObject {
			gt = arr(gt)
		}
		if gt.Kind != kindArray {
			return fmt.Errorf("answer %s: \"ground_truth\" must be a list of calls, got %s", id, kindName(gt))
		}
		for i, c := range gt.Vals {
			if c.Kind != kindObject || len(c.Keys) != 1 || c.Vals[0].Kind != kindObject {
				return fmt.Errorf("answer %s: ground_truth[%d] must be {function_name: {parameter: [acceptable values]}}, got %s", id, i, short(c))
			}
		}
		if !known[id] {
			orphans = append(orphans, fmt.Sprintf("%s (line %d)", id, line))
		}
		answers[id] = gt
		return nil
	})
	if err != nil {
		return nil, err
	}
	var missing []string
	for _, q := range qs {
		if _, ok := answers[q.id]; !ok {
			missing = append(missing, fmt.Sprintf("%s (line %d)", q.id, q.line))
		}
	}
	if len(missing) > 0 || len(orphans) > 0 {
		var parts []string
		if len(missing) > 0 {
			parts = append(parts, fmt.Sprintf("%d question(s) of %s have no answer in %s: %s", len(missing), qname, name, list(missing)))
		}
		if len(orphans) > 0 {
			parts = append(parts, fmt.Sprintf("%d answer(s) of %s have no question in %s: %s", len(orphans), name, qname, list(orphans)))
		}
		return nil, fmt.Errorf("the questions and answers do not correspond (%d questions, %d answers): %s",
			len(qs), len(answers), strings.Join(parts, "; "))
	}
	return answers, nil
}

func list(s []string) string {
	if len(s) > 5 {
		return strings.Join(s[:5], ", ") + fmt.Sprintf(" and %d more", len(s)-5)
	}
	return strings.Join(s, ", ")
}

func stringField(n *node, key string) (string, error) {
	v, ok := n.Get(key)
	if !ok || v.Kind != kindString || v.Text == "" {
		return "", fmt.Errorf("want a non-empty string %q", key)
	}
	return v.Text, nil
}

var idSuffix = regexp.MustCompile(`_[0-9][0-9-]*$`)

// category returns the BFCL category of a question id: the id without its
// number ("parallel_multiple_12" is in parallel_multiple). BFCL chooses
// its checker by the category's name.
func category(id string) string { return idSuffix.ReplaceAllString(id, "") }

func buildCase(q question, gt *node, haveAnswers bool, sem Semantics) (*node, error) {
	cat := category(q.id)
	c := obj().Set("id", str(q.id))
	if gt == nil {
		if !haveAnswers && strings.Contains(cat, "relevance") && !strings.Contains(cat, "irrelevance") {
			return nil, errors.New("a relevance question passes with any call and fails with none, which no suite can say yet (docs/bfcl.md)")
		}
		if haveAnswers || !strings.Contains(cat, "irrelevance") {
			return nil, errors.New("no possible answer: pass the answers file (only irrelevance questions have none)")
		}
	}
	if gt != nil && strings.Contains(cat, "parallel") {
		if sem == SemanticsBFCL {
			c.Set("calls", str("greedy"))
		} else {
			c.Set("calls", str("unordered"))
		}
	}
	funcs := map[string]*node{}
	tools := arr()
	for _, f := range q.funcs {
		name, _ := f.Get("name")
		if _, dup := funcs[name.Text]; !dup {
			funcs[name.Text] = f
		}
	}
	expected := arr()
	if gt != nil {
		for i, call := range gt.Vals {
			ec, err := buildCall(call.Keys[0], call.Vals[0], funcs[call.Keys[0]], sem)
			if err != nil {
				return nil, fmt.Errorf("ground_truth[%d] (%s): %w", i, call.Keys[0], err)
			}
			expected.Vals = append(expected.Vals, ec)
		}
	}
	for _, f := range q.funcs {
		t, err := mapTool(f, gt, sem)
		if err != nil {
			return nil, err
		}
		tools.Vals = append(tools.Vals, t)
	}
	c.Set("tools", tools)
	c.Set("expected", expected)
	return c, nil
}

// props returns a function's parameter properties, in order, and its
// required list.
func props(f *node) (*node, []string) {
	params, _ := f.Get("parameters")
	p, ok := params.Get("properties")
	if !ok || p.Kind != kindObject {
		p = obj()
	}
	var req []string
	if r, ok := params.Get("required"); ok && r.Kind == kindArray {
		for _, e := range r.Vals {
			if e.Kind == kindString {
				req = append(req, e.Text)
			}
		}
	}
	return p, req
}

func declType(p *node) string {
	if t, ok := p.Get("type"); ok && t.Kind == kindString {
		return t.Text
	}
	return ""
}

// buildCall writes one expected call from a possible answer
// {param: [acceptable values]}; f is the function's description, nil when
// the question has none of that name.
func buildCall(name string, answer, f *node, sem Semantics) (*node, error) {
	args := obj()
	args.Flow = true
	rules := obj()
	var properties *node
	if f != nil {
		properties, _ = props(f)
	} else {
		properties = obj()
	}
	for i, param := range answer.Keys {
		alts := answer.Vals[i]
		if alts.Kind != kindArray {
			alts = arr(alts) // one acceptable value written without its list
		}
		pd, inSchema := properties.Get(param)
		decl, items := "", ""
		if inSchema {
			decl = declType(pd)
			if it, ok := pd.Get("items"); ok {
				items = declType(it)
			}
		}
		pr, err := paramRules(decl, items, alts.Vals, sem)
		if err != nil {
			return nil, fmt.Errorf("parameter %s: %w", param, err)
		}
		if pr.expected != nil {
			args.Set(param, pr.expected)
		}
		base := escapeKey(param)
		for _, r := range pr.rules {
			rules.Set(joinPath(base, r.path), r.rule)
		}
		if inSchema {
			for _, p := range numericPaths(pd, base, false, nil) {
				if _, done := rules.Get(p); !done {
					rules.Set(p, flow(obj().Set("numeric", boolNode(false))))
				}
			}
		}
	}
	for i, param := range properties.Keys {
		if _, ok := answer.Get(param); !ok {
			_ = i
			rules.Set(escapeKey(param), str("exact")) // given, it is unexpected
		}
	}
	call := obj().Set("name", str(name)).Set("arguments", args)
	if len(rules.Keys) > 0 {
		call.Set("rules", rules)
	}
	return call, nil
}

func joinPath(base, rel string) string {
	if rel == "" {
		return base
	}
	return base + "." + rel
}

func flow(n *node) *node { n.Flow = true; return n }

// pathRule is one PATH -> RULE entry, its path relative to the parameter.
type pathRule struct {
	path string
	rule *node
}

type paramResult struct {
	expected *node // nil: the expected call leaves the parameter out
	rules    []pathRule
}

func isMarker(n *node) bool { return n.Kind == kindString && n.Text == "" }

// pyType is the Python type BFCL's checker sees for a JSON value.
func pyType(n *node) string {
	switch n.Kind {
	case kindString:
		return "str"
	case kindNumber:
		if n.IsFloat() {
			return "float"
		}
		return "int"
	case kindBool:
		return "bool"
	case kindArray:
		return "list"
	case kindObject:
		return "dict"
	}
	return "NoneType"
}

// declPy is the Python type BFCL checks a declared type against.
var declPy = map[string]string{
	"string": "str", "integer": "int", "float": "float", "boolean": "bool",
	"array": "list", "tuple": "list", "dict": "dict", "any": "str",
}

// ruleType names a Python type in the vocabulary of the type property.
var ruleType = map[string]string{
	"str": "string", "int": "integer", "float": "float", "bool": "boolean",
	"list": "array", "dict": "object", "NoneType": "null",
}

func addType(types []string, t string) []string {
	if t == "" || slices.Contains(types, t) {
		return types
	}
	return append(types, t)
}

func typeNode(types []string) *node {
	if len(types) == 1 {
		return str(types[0])
	}
	out := arr()
	for _, t := range types {
		out.Vals = append(out.Vals, str(t))
	}
	return out
}

// paramRules turns the acceptable values of one parameter into its
// expected value and rules. decl is BFCL's declared type ("" when the
// function lacks the parameter), items the declared type of its items.
func paramRules(decl, items string, alts []*node, sem Semantics) (paramResult, error) {
	var res paramResult
	if decl != "" {
		if _, ok := declPy[decl]; !ok {
			return res, fmt.Errorf("unknown type %q (BFCL's python types are string, integer, float, boolean, array, tuple, dict, any; its Java and JavaScript categories are not imported yet, docs/bfcl.md)", decl)
		}
	}
	optional := false
	var first *node // the first acceptable value that is not the marker
	var values []*node
	add := func(v *node) {
		for _, x := range values {
			if x.Equal(v) {
				return
			}
		}
		values = append(values, v)
	}
	dictShaped, listOfDicts := false, false
	for _, a := range alts {
		if isMarker(a) {
			optional = true
			if sem == SemanticsBFCL {
				add(a) // a string that standardises to "" matches it
			}
			continue
		}
		if first == nil {
			first = a
		}
		lits, kind, err := expand(a, sem)
		if err != nil {
			return res, err
		}
		dictShaped = dictShaped || kind == 'd'
		listOfDicts = listOfDicts || kind == 'l'
		for _, l := range lits {
			add(l)
		}
	}
	if sem == SemanticsBFCL && optional && (decl == "array" || decl == "tuple" || first != nil && first.Kind == kindArray) {
		add(arr()) // BFCL compares lists with "" read as the empty list
	}

	rule := obj()
	rule.Flow = true
	if sem == SemanticsBFCL && decl != "" {
		dp := declPy[decl]
		types := []string{ruleType[dp]}
		if decl == "float" {
			types = addType(types, "integer") // an int is made a float before the check
		}
		if first != nil {
			types = addType(types, ruleType[pyType(first)])
		}
		rule.Set("type", typeNode(types))
	}
	var nonMarker []*node
	for _, v := range values {
		if !isMarker(v) {
			nonMarker = append(nonMarker, v)
		}
	}
	switch {
	case len(nonMarker) > 0:
		res.expected = nonMarker[0]
	case len(values) > 0:
		res.expected = values[0] // only "", in bfcl semantics
	}
	if res.expected == nil {
		// Nothing but "may be omitted": given, it is unexpected.
		res.rules = append(res.rules, pathRule{"", str("exact")})
		return res, nil
	}
	res.expected = copyFlow(res.expected)
	if len(values) > 1 {
		oneOf := arr(values...)
		rule.Set("one_of", oneOf)
	}
	if hasString(values, 0) || decl == "string" || decl == "any" {
		if sem == SemanticsBFCL {
			rule.Set("normalize", bfclNormalize)
		} else {
			rule.Set("normalize", callgradeNormalize).Set("case_insensitive", boolNode(true))
		}
	}
	if optional {
		rule.Set("optional", boolNode(true))
	}
	if len(rule.Keys) == 0 {
		res.rules = append(res.rules, pathRule{"", str("exact")})
	} else {
		res.rules = append(res.rules, pathRule{"", rule})
	}
	if sem != SemanticsBFCL {
		return res, nil
	}

	// BFCL checks the items of a list parameter against the declared item
	// type (or the type of the answer's first item), unless an acceptable
	// value is not a list ("" among them).
	if (decl == "array" || decl == "tuple") && items != "" && !optional {
		allLists := true
		var types []string
		if ip, ok := declPy[items]; ok {
			types = []string{ruleType[ip]}
		}
		for _, a := range alts {
			if a.Kind != kindArray {
				allLists = false
				break
			}
			for _, e := range a.Vals {
				if !isMarker(e) {
					types = addType(types, ruleType[pyType(e)])
					break
				}
			}
		}
		if allLists && len(types) > 0 {
			res.rules = append(res.rules, pathRule{"#", flow(obj().Set("type", typeNode(types)))})
		}
	}
	// BFCL standardises the strings of a value and of a list's items or a
	// dict's values, nothing deeper.
	off := flow(obj().Set("normalize", arr()))
	switch {
	case listOfDicts && deeper(values, 3):
		res.rules = append(res.rules, pathRule{"#.*.*", off})
	case dictShaped && deeper(values, 2):
		res.rules = append(res.rules, pathRule{"*.*", off})
	case !listOfDicts && !dictShaped && deeper(values, 2):
		res.rules = append(res.rules, pathRule{"#.*", off})
	}
	return res, nil
}

func copyFlow(n *node) *node {
	c := *n
	c.Flow = true
	return &c
}

// hasString reports whether a string is among the values or their items
// and members, to two levels down.
func hasString(vs []*node, depth int) bool {
	for _, v := range vs {
		if v.Kind == kindString && !(depth == 0 && isMarker(v)) || depth < 2 && hasString(v.Vals, depth+1) {
			return true
		}
	}
	return false
}

// deeper reports whether a value has a list or an object at the given
// depth (the value itself is depth 1) or below.
func deeper(vs []*node, depth int) bool {
	for _, v := range vs {
		if v.Kind != kindArray && v.Kind != kindObject {
			continue
		}
		if depth <= 1 || deeper(v.Vals, depth-1) {
			return true
		}
	}
	return false
}

// expand turns one acceptable value into the literal values it stands
// for: a dict answer {key: [acceptable values]} into every dict it accepts
// (kind 'd'), a list of dict answers into every list (kind 'l'), anything
// else into itself.
func expand(a *node, sem Semantics) ([]*node, byte, error) {
	switch {
	case a.Kind == kindObject:
		lits, err := expandDict(a, sem)
		return lits, 'd', err
	case a.Kind == kindArray && len(a.Vals) > 0 && allObjects(a.Vals):
		out := []*node{arr()}
		for _, d := range a.Vals {
			lits, err := expandDict(d, sem)
			if err != nil {
				return nil, 0, err
			}
			var next []*node
			for _, prefix := range out {
				for _, l := range lits {
					next = append(next, arr(append(slices.Clone(prefix.Vals), l)...))
				}
			}
			if len(next) > maxExpansion {
				return nil, 0, fmt.Errorf("a list of dicts accepts more than %d different lists", maxExpansion)
			}
			out = next
		}
		return out, 'l', nil
	}
	return []*node{a}, 0, nil
}

func allObjects(vs []*node) bool {
	for _, v := range vs {
		if v.Kind != kindObject {
			return false
		}
	}
	return true
}

// expandDict lists the dicts a dict answer accepts: each key takes each of
// its acceptable values, and may be left out where "" is among them (in
// bfcl semantics "" itself is then acceptable too, as BFCL compares it).
func expandDict(d *node, sem Semantics) ([]*node, error) {
	out := []*node{obj()}
	for i, k := range d.Keys {
		acc := d.Vals[i]
		if acc.Kind != kindArray {
			acc = arr(acc)
		}
		var opts []*node // nil entry: left out
		absent := false
		for _, v := range acc.Vals {
			if isMarker(v) {
				absent = true
				if sem != SemanticsBFCL {
					continue
				}
			}
			opts = append(opts, v)
		}
		if absent {
			opts = append(opts, nil)
		}
		var next []*node
		for _, prefix := range out {
			for _, o := range opts {
				n := &node{Kind: kindObject, Keys: slices.Clone(prefix.Keys), Vals: slices.Clone(prefix.Vals)}
				if o != nil {
					n.Keys = append(n.Keys, k)
					n.Vals = append(n.Vals, o)
				}
				next = append(next, n)
			}
		}
		if len(next) > maxExpansion {
			return nil, fmt.Errorf("a dict accepts more than %d different dicts", maxExpansion)
		}
		out = next
	}
	return out, nil
}

// numericPaths lists the paths below a parameter (prefix) where its JSON
// Schema has a number or integer type, where callgrade would read the
// schema as implying `numeric`; the import writes its own rule there.
func numericPaths(s *node, prefix string, self bool, out []string) []string {
	if self {
		if t := declType(s); t == "integer" || t == "float" || t == "number" {
			out = append(out, prefix)
		}
	}
	if p, ok := s.Get("properties"); ok && p.Kind == kindObject {
		for i, k := range p.Keys {
			out = numericPaths(p.Vals[i], prefix+"."+escapeKey(k), true, out)
		}
	}
	if it, ok := s.Get("items"); ok && it.Kind == kindObject {
		out = numericPaths(it, prefix+".#", true, out)
	}
	return out
}

// escapeKey writes an object key as one PATH segment.
func escapeKey(k string) string {
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

func kindName(n *node) string {
	return [...]string{"null", "a boolean", "a number", "a string", "a list", "an object"}[n.Kind]
}

func short(n *node) string {
	s := n.String()
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}

// Suite is a suite imported from BFCL, its keys in the order a person
// reads them and its numbers as BFCL wrote them.
type Suite struct{ doc *node }

// JSON returns the suite as a JSON document.
func (s *Suite) JSON() []byte { return append(s.doc.AppendJSON(nil), '\n') }

// YAML returns the suite as YAML, headed by a comment that says where it
// came from, with each call's arguments and each rule on one line.
func (s *Suite) YAML() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("# Imported from BFCL by callgrade import bfcl.\n")
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(s.doc.yamlNode(false)); err != nil {
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
	v, err := value.Parse(string(s.doc.AppendJSON(nil)))
	if err != nil {
		return nil, err
	}
	return suite.FromValue(name, v)
}
