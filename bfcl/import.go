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
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/internal/suitedoc"
)

// Semantics says whose conventions an imported suite follows: one of the
// two below, the zero Semantics being SemanticsBFCL (the callgrade
// command refuses any other --semantics).
type Semantics string

// The semantics an import can have.
const (
	SemanticsBFCL      Semantics = "bfcl"      // BFCL's checker, verdict for verdict
	SemanticsCallgrade Semantics = "callgrade" // callgrade's own conventions
)

// Standardise is the normalisation BFCL's checker applies to strings:
// remove spaces and each of , . / - _ * ^, lower-case, and ' becomes ".
var bfclNormalize = suitedoc.ArrayOf(
	suitedoc.NewObject().Set("delete", suitedoc.StringOf(" ,./-_*^")),
	suitedoc.StringOf("lower"),
	suitedoc.NewObject().Set("replace", suitedoc.NewObject().Set("'", suitedoc.StringOf(`"`))))

// callgrade's strings: white space and the same punctuation are left out,
// and case is folded.
var callgradeNormalize = suitedoc.ArrayOf(suitedoc.NewObject().Set("delete", suitedoc.StringOf(" \t\n\r\f\v,./-_*^")))

// maxExpansion bounds the literal dicts one dict answer expands to.
const maxExpansion = 4096

// Input names the files an import reads, for error messages.
type Input struct {
	Questions     io.Reader
	QuestionsName string
	Answers       io.Reader // nil: no possible answers (irrelevance questions)
	AnswersName   string
}

// Import reads a BFCL question file and its possible-answer file (JSON
// Lines, as BFCL ships them) and returns the suite: one case per question,
// its id the question's, its tools the question's functions in JSON Schema,
// its expected calls the possible answers with their rules. Without an
// answers file every question must be an irrelevance question, whose case
// expects no call, or a relevance question, whose case (calls: any,
// min_calls: 1) wants at least one call and takes any. Files that do not correspond (a question without an
// answer, an answer without a question, a repeated id) are an error.
func Import(in Input, sem Semantics) (*Suite, error) {
	if sem == "" {
		sem = SemanticsBFCL
	}
	qs, err := readQuestions(in.Questions, in.QuestionsName)
	if err != nil {
		return nil, err
	}
	if isAgentic(qs[0].ID) {
		return importAgentic(qs, in, sem) // agentic.go: web_search, memory
	}
	answers := map[string]*suitedoc.Node{}
	if in.Answers != nil {
		if answers, err = readAnswers(in.Answers, in.AnswersName, qs, in.QuestionsName); err != nil {
			return nil, err
		}
	}
	s, err := suitedoc.Build("# Imported from BFCL by callgrade import bfcl.\n", in.QuestionsName, qs, func(q suitedoc.Question) (*suitedoc.Node, error) {
		return buildCase(q, answers[q.ID], in.Answers != nil, sem)
	})
	if err != nil {
		return nil, err
	}
	return &Suite{s}, nil
}

// readQuestions reads a BFCL question file: each question's "function"
// is a list of functions, or one function written without its list.
func readQuestions(r io.Reader, name string) ([]suitedoc.Question, error) {
	return suitedoc.ReadQuestions(r, name, func(id string, q *suitedoc.Node) ([]*suitedoc.Node, error) {
		f, ok := q.Get("function")
		if !ok && isAgentic(id) {
			return nil, nil // BFCL adds the functions when it runs the question
		}
		if !ok {
			return nil, fmt.Errorf("question %s has no \"function\"", id)
		}
		switch f.Kind {
		case suitedoc.Array:
			return f.Vals, nil
		case suitedoc.Object:
			return []*suitedoc.Node{f}, nil
		}
		return nil, fmt.Errorf("question %s: \"function\" must be a list of functions, got %s", id, f.KindName())
	})
}

// readAnswers reads a BFCL possible-answer file: each answer's
// "ground_truth" is a list of calls {function_name: {parameter: [acceptable
// values]}}, or one call written without its list.
func readAnswers(r io.Reader, name string, qs []suitedoc.Question, qname string) (map[string]*suitedoc.Node, error) {
	return suitedoc.ReadAnswers(r, name, qs, qname, func(id string, gt *suitedoc.Node) (*suitedoc.Node, error) {
		if gt.Kind == suitedoc.Object {
			gt = suitedoc.ArrayOf(gt)
		}
		if gt.Kind != suitedoc.Array {
			return nil, fmt.Errorf("answer %s: \"ground_truth\" must be a list of calls, got %s", id, gt.KindName())
		}
		for i, c := range gt.Vals {
			if c.Kind != suitedoc.Object || len(c.Keys) != 1 || c.Vals[0].Kind != suitedoc.Object {
				return nil, fmt.Errorf("answer %s: ground_truth[%d] must be {function_name: {parameter: [acceptable values]}}, got %s", id, i, c.Short())
			}
		}
		return gt, nil
	})
}

var idSuffix = regexp.MustCompile(`_[0-9][0-9-]*$`)

// category returns the BFCL category of a question id: the id without its
// number ("parallel_multiple_12" is in parallel_multiple). BFCL chooses
// its checker by the category's name.
func category(id string) string { return idSuffix.ReplaceAllString(id, "") }

func buildCase(q suitedoc.Question, gt *suitedoc.Node, haveAnswers bool, sem Semantics) (*suitedoc.Node, error) {
	cat := category(q.ID)
	c := suitedoc.NewObject().Set("id", suitedoc.StringOf(q.ID))
	if gt == nil && (haveAnswers || !strings.Contains(cat, "relevance")) {
		return nil, errors.New("no possible answer: pass the answers file (only irrelevance and relevance questions have none)")
	}
	// A relevance question passes with any call and fails with none
	// (BFCL's relevance checker looks at neither names nor arguments).
	relevance := gt == nil && !strings.Contains(cat, "irrelevance")
	if relevance {
		c.Set("calls", suitedoc.StringOf(string(suite.CallsAny)))
		c.Set("min_calls", suitedoc.NumberOf("1"))
	}
	if gt != nil && strings.Contains(cat, "parallel") {
		if sem == SemanticsBFCL {
			c.Set("calls", suitedoc.StringOf("greedy"))
		} else {
			c.Set("calls", suitedoc.StringOf("unordered"))
		}
	}
	funcs := map[string]*suitedoc.Node{}
	tools := suitedoc.ArrayOf()
	for _, f := range q.Funcs {
		name, _ := f.Get("name")
		if _, dup := funcs[name.Text]; !dup {
			funcs[name.Text] = f
		}
	}
	lang := languageOf(cat)
	expected := suitedoc.ArrayOf()
	if gt != nil {
		for i, call := range gt.Vals {
			ec, err := buildCall(call.Keys[0], call.Vals[0], funcs[call.Keys[0]], lang, sem)
			if err != nil {
				return nil, fmt.Errorf("ground_truth[%d] (%s): %w", i, call.Keys[0], err)
			}
			expected.Vals = append(expected.Vals, ec)
		}
	}
	for _, f := range q.Funcs {
		if relevance && sem == SemanticsBFCL {
			// BFCL never reads a relevance call's arguments: a tool
			// without parameters lets any arguments through, where its
			// schema would fail a call of the wrong types.
			f = withoutParameters(f)
		}
		var t *suitedoc.Node
		var err error
		if lang == langPython {
			t, err = mapTool(f, gt, sem)
		} else {
			// BFCL wants every Java and JavaScript value as source text,
			// and its FC handlers declare each parameter a string.
			t, err = mapTool(sourceTextFunction(f), nil, sem)
		}
		if err != nil {
			return nil, err
		}
		tools.Vals = append(tools.Vals, t)
	}
	c.Set("tools", tools)
	if !relevance {
		c.Set("expected", expected)
	}
	return c, nil
}

// withoutParameters returns function f without its parameters.
func withoutParameters(f *suitedoc.Node) *suitedoc.Node {
	out := suitedoc.NewObject()
	for i, k := range f.Keys {
		if k != "parameters" {
			out.Set(k, f.Vals[i])
		}
	}
	return out
}

// props returns a function's parameter properties, in order, and its
// required list.
func props(f *suitedoc.Node) (*suitedoc.Node, []string) {
	params, _ := f.Get("parameters")
	p, ok := params.Get("properties")
	if !ok || p.Kind != suitedoc.Object {
		p = suitedoc.NewObject()
	}
	var req []string
	if r, ok := params.Get("required"); ok && r.Kind == suitedoc.Array {
		for _, e := range r.Vals {
			if e.Kind == suitedoc.String {
				req = append(req, e.Text)
			}
		}
	}
	return p, req
}

func declType(p *suitedoc.Node) string {
	if t, ok := p.Get("type"); ok && t.Kind == suitedoc.String {
		return t.Text
	}
	return ""
}

// buildCall writes one expected call from a possible answer
// {param: [acceptable values]}; f is the function's description, nil when
// the question has none of that name; lang the language of the calls.
func buildCall(name string, answer, f *suitedoc.Node, lang language, sem Semantics) (*suitedoc.Node, error) {
	args := suitedoc.NewObject()
	args.Flow = true
	rules := suitedoc.NewObject()
	var properties *suitedoc.Node
	if f != nil {
		properties, _ = props(f)
	} else {
		properties = suitedoc.NewObject()
	}
	for i, param := range answer.Keys {
		alts := answer.Vals[i]
		if alts.Kind != suitedoc.Array {
			alts = suitedoc.ArrayOf(alts) // one acceptable value written without its list
		}
		pd, inSchema := properties.Get(param)
		decl, items := "", ""
		if inSchema {
			decl = declType(pd)
			if it, ok := pd.Get("items"); ok {
				items = declType(it)
			}
		}
		var pr paramResult
		var err error
		if lang != langPython && inSchema {
			pr, err = sourceRules(lang, decl, items, alts.Vals, sem == SemanticsCallgrade)
		} else {
			pr, err = paramRules(decl, items, alts.Vals, sem)
		}
		if err != nil {
			return nil, fmt.Errorf("parameter %s: %w", param, err)
		}
		if pr.expected != nil {
			args.Set(param, pr.expected)
		}
		base := suitedoc.EscapeKey(param)
		for _, r := range pr.rules {
			rules.Set(joinPath(base, r.path), r.rule)
		}
		if inSchema && lang == langPython {
			for _, p := range numericPaths(pd, base, false, nil) {
				if _, done := rules.Get(p); !done {
					rules.Set(p, suitedoc.NewObject().Set("numeric", suitedoc.BoolOf(false)).SetFlow())
				}
			}
		}
	}
	for i, param := range properties.Keys {
		if _, ok := answer.Get(param); !ok {
			_ = i
			rules.Set(suitedoc.EscapeKey(param), suitedoc.StringOf("exact")) // given, it is unexpected
		}
	}
	call := suitedoc.NewObject().Set("name", suitedoc.StringOf(name)).Set("arguments", args)
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

// pathRule is one PATH -> RULE entry, its path relative to the parameter.
type pathRule struct {
	path string
	rule *suitedoc.Node
}

type paramResult struct {
	expected *suitedoc.Node // nil: the expected call leaves the parameter out
	rules    []pathRule
}

func isMarker(n *suitedoc.Node) bool { return n.Kind == suitedoc.String && n.Text == "" }

// pyType is the Python type BFCL's checker sees for a JSON value.
func pyType(n *suitedoc.Node) string {
	switch n.Kind {
	case suitedoc.String:
		return "str"
	case suitedoc.Number:
		if n.IsFloat() {
			return "float"
		}
		return "int"
	case suitedoc.Bool:
		return "bool"
	case suitedoc.Array:
		return "list"
	case suitedoc.Object:
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

func typeNode(types []string) *suitedoc.Node {
	if len(types) == 1 {
		return suitedoc.StringOf(types[0])
	}
	out := suitedoc.ArrayOf()
	for _, t := range types {
		out.Vals = append(out.Vals, suitedoc.StringOf(t))
	}
	return out
}

// paramRules turns the acceptable values of one parameter into its
// expected value and rules. decl is BFCL's declared type ("" when the
// function lacks the parameter), items the declared type of its items.
func paramRules(decl, items string, alts []*suitedoc.Node, sem Semantics) (paramResult, error) {
	var res paramResult
	if decl != "" {
		if _, ok := declPy[decl]; !ok {
			return res, fmt.Errorf("unknown type %q (BFCL's python types are string, integer, float, boolean, array, tuple, dict, any; Java and JavaScript types are read in the simple_java and simple_javascript categories, docs/bfcl.md)", decl)
		}
	}
	acc, err := gather(decl, alts, sem)
	if err != nil {
		return res, err
	}
	var nonMarker []*suitedoc.Node
	for _, v := range acc.values {
		if !isMarker(v) {
			nonMarker = append(nonMarker, v)
		}
	}
	switch {
	case len(nonMarker) > 0:
		res.expected = nonMarker[0]
	case len(acc.values) > 0:
		res.expected = acc.values[0] // only "", in bfcl semantics
	}
	if res.expected == nil {
		// Nothing but "may be omitted": given, it is unexpected.
		res.rules = append(res.rules, pathRule{"", suitedoc.StringOf("exact")})
		return res, nil
	}
	res.expected = copyFlow(res.expected)
	if rule := valueRule(decl, acc, sem); len(rule.Keys) == 0 {
		res.rules = append(res.rules, pathRule{"", suitedoc.StringOf("exact")})
	} else {
		res.rules = append(res.rules, pathRule{"", rule})
	}
	if sem == SemanticsBFCL {
		res.rules = append(res.rules, bfclInnerRules(decl, items, alts, acc)...)
	}
	return res, nil
}

// acceptable is what the acceptable values of one parameter say.
type acceptable struct {
	values      []*suitedoc.Node // the literal values, each once, in order
	first       *suitedoc.Node   // the first acceptable value that is not the marker
	optional    bool             // the marker "" is among them: the parameter may be left out
	dictShaped  bool             // a dict answer among them
	listOfDicts bool             // a list of dict answers among them
}

// gather expands the acceptable values of one parameter into the literal
// values they accept.
func gather(decl string, alts []*suitedoc.Node, sem Semantics) (acceptable, error) {
	var acc acceptable
	add := func(v *suitedoc.Node) {
		for _, x := range acc.values {
			if x.Equal(v) {
				return
			}
		}
		acc.values = append(acc.values, v)
	}
	for _, a := range alts {
		if isMarker(a) {
			acc.optional = true
			if sem == SemanticsBFCL {
				add(a) // a string that standardises to "" matches it
			}
			continue
		}
		if acc.first == nil {
			acc.first = a
		}
		lits, kind, err := expand(a, sem)
		if err != nil {
			return acc, err
		}
		acc.dictShaped = acc.dictShaped || kind == 'd'
		acc.listOfDicts = acc.listOfDicts || kind == 'l'
		for _, l := range lits {
			add(l)
		}
	}
	if sem == SemanticsBFCL && acc.optional && (decl == "array" || decl == "tuple" || acc.first != nil && acc.first.Kind == suitedoc.Array) {
		add(suitedoc.ArrayOf()) // BFCL compares lists with "" read as the empty list
	}
	return acc, nil
}

// valueRule returns the rule of the parameter's value itself, on one
// line: its type in bfcl semantics, its alternatives, how its strings
// compare, whether it may be left out. No key: the value is exact.
func valueRule(decl string, acc acceptable, sem Semantics) *suitedoc.Node {
	rule := suitedoc.NewObject().SetFlow()
	if sem == SemanticsBFCL && decl != "" {
		types := []string{ruleType[declPy[decl]]}
		if decl == "float" {
			types = addType(types, "integer") // an int is made a float before the check
		}
		if acc.first != nil {
			types = addType(types, ruleType[pyType(acc.first)])
		}
		rule.Set("type", typeNode(types))
	}
	if len(acc.values) > 1 {
		rule.Set("one_of", suitedoc.ArrayOf(acc.values...))
	}
	if hasString(acc.values, 0) || decl == "string" || decl == "any" {
		switch {
		case sem == SemanticsBFCL && variable(decl, acc):
			// A variable's name: compared as it is written.
		case sem == SemanticsBFCL:
			rule.Set("normalize", bfclNormalize)
		default:
			rule.Set("normalize", callgradeNormalize).Set("case_insensitive", suitedoc.BoolOf(true))
		}
	}
	if acc.optional {
		rule.Set("optional", suitedoc.BoolOf(true))
	}
	return rule
}

// variable is BFCL's is_variable: the first acceptable value that is not
// "" is of another Python type than the declared one (a name where the
// declaration says a list, "dontcare" for an integer, null for a string).
// BFCL then takes the value for a variable and compares it with `in`,
// exactly: no string is standardised, so "-" is not the "" that may leave
// the parameter out, and "DONTCARE" is not "dontcare".
func variable(decl string, acc acceptable) bool {
	want, ok := declPy[decl]
	return ok && acc.first != nil && pyType(acc.first) != want
}

// bfclInnerRules returns the rules below the parameter's value that BFCL's
// checker implies: the type of a list's items, and no normalisation
// deeper than BFCL standardises.
func bfclInnerRules(decl, items string, alts []*suitedoc.Node, acc acceptable) []pathRule {
	var rules []pathRule
	// BFCL checks the items of a list parameter against the declared item
	// type (or the type of the answer's first item), unless an acceptable
	// value is not a list ("" among them).
	if (decl == "array" || decl == "tuple") && items != "" && !acc.optional {
		allLists := true
		var types []string
		if ip, ok := declPy[items]; ok {
			types = []string{ruleType[ip]}
		}
		for _, a := range alts {
			if a.Kind != suitedoc.Array {
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
			rules = append(rules, pathRule{"#", suitedoc.NewObject().Set("type", typeNode(types)).SetFlow()})
		}
	}
	// BFCL standardises the strings of a value and of a list's items or a
	// dict's values, nothing deeper.
	off := suitedoc.NewObject().Set("normalize", suitedoc.ArrayOf()).SetFlow()
	switch {
	case acc.listOfDicts && deeper(acc.values, 3):
		rules = append(rules, pathRule{"#.*.*", off})
	case acc.dictShaped && deeper(acc.values, 2):
		rules = append(rules, pathRule{"*.*", off})
	case !acc.listOfDicts && !acc.dictShaped && deeper(acc.values, 2):
		rules = append(rules, pathRule{"#.*", off})
	}
	return rules
}

func copyFlow(n *suitedoc.Node) *suitedoc.Node {
	c := *n
	c.Flow = true
	return &c
}

// hasString reports whether a string is among the values or their items
// and members, to two levels down.
func hasString(vs []*suitedoc.Node, depth int) bool {
	for _, v := range vs {
		if v.Kind == suitedoc.String && !(depth == 0 && isMarker(v)) || depth < 2 && hasString(v.Vals, depth+1) {
			return true
		}
	}
	return false
}

// deeper reports whether a value has a list or an object at the given
// depth (the value itself is depth 1) or below.
func deeper(vs []*suitedoc.Node, depth int) bool {
	for _, v := range vs {
		if v.Kind != suitedoc.Array && v.Kind != suitedoc.Object {
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
func expand(a *suitedoc.Node, sem Semantics) ([]*suitedoc.Node, byte, error) {
	switch {
	case a.Kind == suitedoc.Object:
		lits, err := expandDict(a, sem)
		return lits, 'd', err
	case a.Kind == suitedoc.Array && len(a.Vals) > 0 && allObjects(a.Vals):
		out := []*suitedoc.Node{suitedoc.ArrayOf()}
		for _, d := range a.Vals {
			lits, err := expandDict(d, sem)
			if err != nil {
				return nil, 0, err
			}
			var next []*suitedoc.Node
			for _, prefix := range out {
				for _, l := range lits {
					next = append(next, suitedoc.ArrayOf(append(slices.Clone(prefix.Vals), l)...))
				}
			}
			if len(next) > maxExpansion {
				return nil, 0, fmt.Errorf("a list of dicts accepts more than %d different lists", maxExpansion)
			}
			out = next
		}
		return out, 'l', nil
	}
	return []*suitedoc.Node{a}, 0, nil
}

func allObjects(vs []*suitedoc.Node) bool {
	for _, v := range vs {
		if v.Kind != suitedoc.Object {
			return false
		}
	}
	return true
}

// expandDict lists the dicts a dict answer accepts: each key takes each of
// its acceptable values, and may be left out where "" is among them (in
// bfcl semantics "" itself is then acceptable too, as BFCL compares it).
func expandDict(d *suitedoc.Node, sem Semantics) ([]*suitedoc.Node, error) {
	out := []*suitedoc.Node{suitedoc.NewObject()}
	for i, k := range d.Keys {
		acc := d.Vals[i]
		if acc.Kind != suitedoc.Array {
			acc = suitedoc.ArrayOf(acc)
		}
		var opts []*suitedoc.Node // nil entry: left out
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
		if sem == SemanticsBFCL {
			opts = withPythonTwins(opts)
		}
		if absent {
			opts = append(opts, nil)
		}
		var next []*suitedoc.Node
		for _, prefix := range out {
			for _, o := range opts {
				n := &suitedoc.Node{Kind: suitedoc.Object, Keys: slices.Clone(prefix.Keys), Vals: slices.Clone(prefix.Vals)}
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

// withPythonTwins adds to a dict key's acceptable values the values
// Python's == makes equal to them across types, which BFCL's dict checker
// meets through `in`: true is 1 and 1.0, false is 0; a number whose value
// is 0 or 1 is false or true. Below a dict, BFCL checks no type that would
// tell them apart (a parameter's own value is type-checked first).
func withPythonTwins(opts []*suitedoc.Node) []*suitedoc.Node {
	out := opts
	for _, v := range opts {
		var twin *suitedoc.Node
		switch v.Kind {
		case suitedoc.Bool:
			twin = suitedoc.NumberOf("0")
			if v.Bool {
				twin = suitedoc.NumberOf("1")
			}
		case suitedoc.Number:
			if f, err := strconv.ParseFloat(v.Text, 64); err == nil && (f == 0 || f == 1) {
				twin = suitedoc.BoolOf(f == 1)
			}
		}
		if twin == nil || slices.ContainsFunc(out, func(o *suitedoc.Node) bool { return o.Kind == twin.Kind && pyEqual(o, twin) }) {
			continue
		}
		if len(out) == len(opts) {
			out = slices.Clone(opts) // opts' array belongs to the caller
		}
		out = append(out, twin)
	}
	return out
}

// pyEqual reports whether two scalar values are equal as Python compares
// them: numbers by value, a bool as the number it is. withPythonTwins asks
// it of values of one kind, to add no twin the key already accepts.
func pyEqual(a, b *suitedoc.Node) bool {
	num := func(n *suitedoc.Node) (float64, bool) {
		switch n.Kind {
		case suitedoc.Bool:
			if n.Bool {
				return 1, true
			}
			return 0, true
		case suitedoc.Number:
			f, err := strconv.ParseFloat(n.Text, 64)
			return f, err == nil
		}
		return 0, false
	}
	x, okx := num(a)
	y, oky := num(b)
	return okx && oky && x == y
}

// numericPaths lists the paths below a parameter (prefix) where its JSON
// Schema has a number or integer type, where callgrade would read the
// schema as implying `numeric`; the import writes its own rule there.
func numericPaths(s *suitedoc.Node, prefix string, self bool, out []string) []string {
	if self {
		if t := declType(s); t == "integer" || t == "float" || t == "number" {
			out = append(out, prefix)
		}
	}
	if p, ok := s.Get("properties"); ok && p.Kind == suitedoc.Object {
		for i, k := range p.Keys {
			out = numericPaths(p.Vals[i], prefix+"."+suitedoc.EscapeKey(k), true, out)
		}
	}
	if it, ok := s.Get("items"); ok && it.Kind == suitedoc.Object {
		out = numericPaths(it, prefix+".#", true, out)
	}
	return out
}

// Suite is a suite imported from BFCL, its keys in the order a person
// reads them and its numbers as BFCL wrote them. A program scores it as
// any suite: written to a file, which callgrade.Open reads (ScoreDir does
// a whole BFCL run).
type Suite struct{ doc *suitedoc.Suite }

// JSON returns the suite as a JSON document.
func (s *Suite) JSON() []byte { return s.doc.JSON() }

// YAML returns the suite as YAML, headed by a comment that says where it
// came from, with each call's arguments and each rule on one line.
func (s *Suite) YAML() ([]byte, error) { return s.doc.YAML() }
