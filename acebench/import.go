// Package acebench imports ACEBench's "normal" categories: its question
// and possible-answer files become a callgrade suite, one case per
// question row, scored under callgrade's own conventions.
//
// ACEBench's checker has defects that callgrade does not reproduce
// (docs/acebench.md lists them, with the gold answers ACEBench itself
// rejects); the suite agrees with ACEBench wherever ACEBench is right.
package acebench

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/callgrade/callgrade/suite"
	"github.com/callgrade/callgrade/value"
)

// Semantics says whose conventions an imported suite follows. Only
// callgrade's are offered: ACEBench's defects are documented, not
// mimicked.
type Semantics string

// SemanticsCallgrade is callgrade's own conventions.
const SemanticsCallgrade Semantics = "callgrade"

// ParseSemantics checks a --semantics value; "" is SemanticsCallgrade.
func ParseSemantics(s string) (Semantics, error) {
	switch Semantics(s) {
	case "", SemanticsCallgrade:
		return SemanticsCallgrade, nil
	case "acebench":
		return "", fmt.Errorf("semantics %q is not offered: ACEBench's checker has defects that callgrade documents (docs/acebench.md) instead of reproducing; want callgrade", s)
	}
	return "", fmt.Errorf("unknown semantics %q; want callgrade", s)
}

// deleted are the characters a string comparison leaves out: white space
// and the punctuation ACEBench's standardisation deletes.
const deleted = " \t\n\r\f\v,./-_*^"

// Input names the files an import reads, for error messages.
type Input struct {
	Questions     io.Reader
	QuestionsName string
	Answers       io.Reader
	AnswersName   string
}

type question struct {
	id    string
	line  int
	funcs []*node
}

// Import reads an ACEBench question file and its possible-answer file
// (JSON Lines, data_all/data_<lang>/data_<category>.json and
// possible_answer/data_<category>.json) and returns the suite: one case
// per question row, its tools the row's functions, its expected calls the
// answer's, unordered, with the other answers of a list answer as
// alternatives. Files that do not correspond (a question without an
// answer, an answer without a question, a repeated id) are an error.
func Import(in Input, sem Semantics) (*Suite, error) {
	if _, err := ParseSemantics(string(sem)); err != nil {
		return nil, err
	}
	if in.Questions == nil || in.Answers == nil {
		return nil, fmt.Errorf("an import needs both the questions and the answers")
	}
	qs, err := readQuestions(in.Questions, in.QuestionsName)
	if err != nil {
		return nil, err
	}
	answers, err := readAnswers(in.Answers, in.AnswersName, qs, in.QuestionsName)
	if err != nil {
		return nil, err
	}
	cases := arr()
	for _, q := range qs {
		c, err := buildCase(q, answers[q.id])
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
		if !ok || f.Kind != kindArray {
			return fmt.Errorf("question %s: want \"function\", a list of functions", id)
		}
		for i, fn := range f.Vals {
			if _, err := stringField(fn, "name"); err != nil {
				return fmt.Errorf("question %s: function %d: %w", id, i, err)
			}
		}
		qs = append(qs, question{id: id, line: line, funcs: f.Vals})
		return nil
	})
	if err == nil && len(qs) == 0 {
		err = fmt.Errorf("%s: no questions", name)
	}
	return qs, err
}

// readAnswers returns each question's answers: one or more whole
// alternative answers, each {key: {parameter: value}}.
func readAnswers(r io.Reader, name string, qs []question, qname string) (map[string][]*node, error) {
	answers := map[string][]*node{}
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
		alts := []*node{gt}
		if gt.Kind == kindArray {
			alts = gt.Vals
		}
		if len(alts) == 0 {
			return fmt.Errorf("answer %s: \"ground_truth\" is an empty list", id)
		}
		for i, a := range alts {
			if a.Kind != kindObject {
				return fmt.Errorf("answer %s: ground_truth[%d] must be {function: {parameter: value}}, got %s", id, i, short(a))
			}
			for j, v := range a.Vals {
				if v.Kind != kindObject {
					return fmt.Errorf("answer %s: the arguments of %s must be an object, got %s", id, a.Keys[j], short(v))
				}
			}
		}
		if !known[id] {
			orphans = append(orphans, fmt.Sprintf("%s (line %d)", id, line))
		}
		answers[id] = alts
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

var keySuffix = regexp.MustCompile(`_[0-9]+$`)

// callName returns the function an answer key calls: the function of that
// exact name, else the key without its _<digits> suffix (name_1, name_2
// for one function called twice).
func callName(key string, funcs map[string]*node) string {
	if _, ok := funcs[key]; ok {
		return key
	}
	if s := keySuffix.ReplaceAllString(key, ""); s != key {
		if _, ok := funcs[s]; ok {
			return s
		}
	}
	return key
}

// schemaOf returns a function's parameter schema: "parameters", else
// "arguments", else nil.
func schemaOf(f *node) *node {
	for _, k := range []string{"parameters", "arguments"} {
		if s, ok := f.Get(k); ok && s.Kind == kindObject {
			return s
		}
	}
	return nil
}

func buildCase(q question, alts []*node) (*node, error) {
	funcs := map[string]*node{}
	var order []string
	for _, f := range q.funcs {
		name, _ := f.Get("name")
		if _, dup := funcs[name.Text]; !dup {
			funcs[name.Text] = f
			order = append(order, name.Text)
		}
	}
	// every answer's calls, each with the function it calls
	calls := make([][]*node, len(alts))
	used := map[string][]*node{} // function -> the arguments the answers give it
	for i, a := range alts {
		for j, key := range a.Keys {
			name := callName(key, funcs)
			args := a.Vals[j]
			used[name] = append(used[name], args)
			calls[i] = append(calls[i], buildCall(name, args, funcs[name]))
		}
	}
	tools := arr()
	for _, name := range order {
		tools.Vals = append(tools.Vals, mapTool(funcs[name], used[name]))
	}
	c := obj().Set("id", str(q.id)).Set("calls", str("unordered")).Set("tools", tools)
	c.Set("expected", arr(calls[0]...))
	if len(calls) > 1 {
		more := arr()
		for _, cs := range calls[1:] {
			more.Vals = append(more.Vals, arr(cs...))
		}
		c.Set("alternatives", more)
	}
	return c, nil
}

// buildCall writes one expected call. Every parameter the answer names
// is compared with strings normalised (white space and , . / - _ * ^
// deleted, case folded) and numbers by exact value, at every depth; every
// field the function's schema has, at every depth, gets an explicit rule,
// so that the schema's "not required" does not make a field the answer
// leaves out optional: given, it is an extra field.
func buildCall(name string, args, f *node) *node {
	a := *args
	a.Flow = true
	rules := obj()
	for i, p := range args.Keys {
		r := flow(obj())
		if hasString(args.Vals[i]) {
			r.Set("normalize", arr(flow(obj().Set("delete", str(deleted))))).Set("case_insensitive", boolNode(true))
		}
		rules.Set(escapeKey(p), r.Set("numeric", boolNode(false)))
	}
	if s := schemaOf(f); s != nil {
		for _, p := range schemaPaths(s, "", nil, 0) {
			if _, done := rules.Get(p); !done {
				rules.Set(p, flow(obj().Set("numeric", boolNode(false))))
			}
		}
	}
	call := obj().Set("name", str(name)).Set("arguments", &a)
	if len(rules.Keys) > 0 {
		call.Set("rules", rules)
	}
	return call
}

// hasString reports whether a value holds a string at any depth: only
// then does the string rule have anything to compare.
func hasString(n *node) bool {
	if n.Kind == kindString {
		return true
	}
	for _, v := range n.Vals {
		if hasString(v) {
			return true
		}
	}
	return false
}

func flow(n *node) *node { n.Flow = true; return n }

// schemaPaths lists the rule paths of every field a schema describes:
// its properties at every depth, an array's items as "#".
func schemaPaths(s *node, prefix string, out []string, depth int) []string {
	if depth > 32 {
		return out
	}
	if p, ok := s.Get("properties"); ok && p.Kind == kindObject {
		for i, k := range p.Keys {
			path := escapeKey(k)
			if prefix != "" {
				path = prefix + "." + path
			}
			out = append(out, path)
			out = schemaPaths(p.Vals[i], path, out, depth+1)
		}
	}
	if it, ok := s.Get("items"); ok && it.Kind == kindObject && prefix != "" {
		out = schemaPaths(it, prefix+".#", out, depth+1)
	}
	return out
}

// escapeKey writes an object key as one rule path segment.
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

// Suite is a suite imported from ACEBench, its keys in the order a person
// reads them.
type Suite struct{ doc *node }

// JSON returns the suite as a JSON document.
func (s *Suite) JSON() []byte { return append(s.doc.AppendJSON(nil), '\n') }

// YAML returns the suite as YAML, headed by a comment that says where it
// came from.
func (s *Suite) YAML() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("# Imported from ACEBench by callgrade import acebench.\n")
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

// Decode returns the suite as package suite reads it; name is the file
// name its errors use.
func (s *Suite) Decode(name string) (*suite.Suite, error) {
	v, err := value.Parse(string(s.doc.AppendJSON(nil)))
	if err != nil {
		return nil, err
	}
	return suite.FromValue(name, v)
}
