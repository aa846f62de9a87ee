// Package acebench imports ACEBench's "normal" categories: its question
// and possible-answer files become a callgrade suite, one case per
// question row, scored under callgrade's own conventions.
//
// ACEBench's checker has defects that callgrade does not reproduce
// (docs/acebench.md lists them, with the gold answers ACEBench itself
// rejects); the suite agrees with ACEBench wherever ACEBench is right.
package acebench

import (
	"fmt"
	"io"
	"regexp"

	"github.com/callgrade/callgrade/internal/suitedoc"
)

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

// Import reads an ACEBench question file and its possible-answer file
// (JSON Lines, data_all/data_<lang>/data_<category>.json and
// possible_answer/data_<category>.json) and returns the suite: one case
// per question row, its tools the row's functions, its expected calls the
// answer's, unordered, with the other answers of a list answer as
// alternatives. Files that do not correspond (a question without an
// answer, an answer without a question, a repeated id) are an error. The
// suite follows callgrade's own conventions, the only ones offered:
// ACEBench's defects are documented, not mimicked.
func Import(in Input) (*Suite, error) {
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
	s, err := suitedoc.Build("# Imported from ACEBench by callgrade import acebench.\n", in.QuestionsName, qs, func(q suitedoc.Question) (*suitedoc.Node, error) {
		return buildCase(q, answers[q.ID])
	})
	if err != nil {
		return nil, err
	}
	return &Suite{s}, nil
}

// readQuestions reads an ACEBench question file: each question's
// "function" is a list of functions.
func readQuestions(r io.Reader, name string) ([]suitedoc.Question, error) {
	return suitedoc.ReadQuestions(r, name, func(id string, q *suitedoc.Node) ([]*suitedoc.Node, error) {
		f, ok := q.Get("function")
		if !ok || f.Kind != suitedoc.Array {
			return nil, fmt.Errorf("question %s: want \"function\", a list of functions", id)
		}
		return f.Vals, nil
	})
}

// readAnswers returns each question's answers: one or more whole
// alternative answers, each {key: {parameter: value}}.
func readAnswers(r io.Reader, name string, qs []suitedoc.Question, qname string) (map[string][]*suitedoc.Node, error) {
	return suitedoc.ReadAnswers(r, name, qs, qname, func(id string, gt *suitedoc.Node) ([]*suitedoc.Node, error) {
		alts := []*suitedoc.Node{gt}
		if gt.Kind == suitedoc.Array {
			alts = gt.Vals
		}
		if len(alts) == 0 {
			return nil, fmt.Errorf("answer %s: \"ground_truth\" is an empty list", id)
		}
		for i, a := range alts {
			if a.Kind != suitedoc.Object {
				return nil, fmt.Errorf("answer %s: ground_truth[%d] must be {function: {parameter: value}}, got %s", id, i, a.Short())
			}
			for j, v := range a.Vals {
				if v.Kind != suitedoc.Object {
					return nil, fmt.Errorf("answer %s: the arguments of %s must be an object, got %s", id, a.Keys[j], v.Short())
				}
			}
		}
		return alts, nil
	})
}

var keySuffix = regexp.MustCompile(`_[0-9]+$`)

// callName returns the function an answer key calls: the function of that
// exact name, else the key without its _<digits> suffix (name_1, name_2
// for one function called twice).
func callName(key string, funcs map[string]*suitedoc.Node) string {
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
func schemaOf(f *suitedoc.Node) *suitedoc.Node {
	for _, k := range []string{"parameters", "arguments"} {
		if s, ok := f.Get(k); ok && s.Kind == suitedoc.Object {
			return s
		}
	}
	return nil
}

func buildCase(q suitedoc.Question, alts []*suitedoc.Node) (*suitedoc.Node, error) {
	funcs := map[string]*suitedoc.Node{}
	var order []string
	for _, f := range q.Funcs {
		name, _ := f.Get("name")
		if _, dup := funcs[name.Text]; !dup {
			funcs[name.Text] = f
			order = append(order, name.Text)
		}
	}
	// every answer's calls, each with the function it calls
	calls := make([][]*suitedoc.Node, len(alts))
	used := map[string][]*suitedoc.Node{} // function -> the arguments the answers give it
	for i, a := range alts {
		for j, key := range a.Keys {
			name := callName(key, funcs)
			args := a.Vals[j]
			used[name] = append(used[name], args)
			calls[i] = append(calls[i], buildCall(name, args, funcs[name]))
		}
	}
	tools := suitedoc.ArrayOf()
	for _, name := range order {
		tools.Vals = append(tools.Vals, mapTool(funcs[name], used[name]))
	}
	c := suitedoc.NewObject().Set("id", suitedoc.StringOf(q.ID)).Set("calls", suitedoc.StringOf("unordered")).Set("tools", tools)
	c.Set("expected", suitedoc.ArrayOf(calls[0]...))
	if len(calls) > 1 {
		more := suitedoc.ArrayOf()
		for _, cs := range calls[1:] {
			more.Vals = append(more.Vals, suitedoc.ArrayOf(cs...))
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
func buildCall(name string, args, f *suitedoc.Node) *suitedoc.Node {
	a := *args
	a.Flow = true
	rules := suitedoc.NewObject()
	for i, p := range args.Keys {
		r := suitedoc.NewObject().SetFlow()
		if hasString(args.Vals[i]) {
			r.Set("normalize", suitedoc.ArrayOf(suitedoc.NewObject().Set("delete", suitedoc.StringOf(deleted)).SetFlow())).Set("case_insensitive", suitedoc.BoolOf(true))
		}
		rules.Set(suitedoc.EscapeKey(p), r.Set("numeric", suitedoc.BoolOf(false)))
	}
	if s := schemaOf(f); s != nil {
		for _, p := range schemaPaths(s, "", nil, 0) {
			if _, done := rules.Get(p); !done {
				rules.Set(p, suitedoc.NewObject().Set("numeric", suitedoc.BoolOf(false)).SetFlow())
			}
		}
	}
	call := suitedoc.NewObject().Set("name", suitedoc.StringOf(name)).Set("arguments", &a)
	if len(rules.Keys) > 0 {
		call.Set("rules", rules)
	}
	return call
}

// hasString reports whether a value holds a string at any depth: only
// then does the string rule have anything to compare.
func hasString(n *suitedoc.Node) bool {
	if n.Kind == suitedoc.String {
		return true
	}
	for _, v := range n.Vals {
		if hasString(v) {
			return true
		}
	}
	return false
}

// schemaPaths lists the rule paths of every field a schema describes:
// its properties at every depth, an array's items as "#" (the items and
// what they hold).
func schemaPaths(s *suitedoc.Node, prefix string, out []string, depth int) []string {
	if depth > 32 {
		return out
	}
	if p, ok := s.Get("properties"); ok && p.Kind == suitedoc.Object {
		for i, k := range p.Keys {
			path := suitedoc.EscapeKey(k)
			if prefix != "" {
				path = prefix + "." + path
			}
			out = append(out, path)
			out = schemaPaths(p.Vals[i], path, out, depth+1)
		}
	}
	if it, ok := s.Get("items"); ok && it.Kind == suitedoc.Object && prefix != "" {
		// The items themselves too: a number-typed item would otherwise
		// keep the numeric comparison its schema implies, and take "5000"
		// for 5000.
		out = append(out, prefix+".#")
		out = schemaPaths(it, prefix+".#", out, depth+1)
	}
	return out
}

// Suite is a suite imported from ACEBench, its keys in the order a person
// reads them. A program scores it as any suite: written to a file, which
// callgrade.Open reads.
type Suite struct{ doc *suitedoc.Suite }

// JSON returns the suite as a JSON document.
func (s *Suite) JSON() []byte { return s.doc.JSON() }

// YAML returns the suite as YAML, headed by a comment that says where it
// came from.
func (s *Suite) YAML() ([]byte, error) { return s.doc.YAML() }
