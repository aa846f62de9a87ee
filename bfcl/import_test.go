package bfcl

import (
	"context"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/engine"
	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/internal/suitedoc"
	"github.com/callgrade/callgrade/value"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func TestMapType(t *testing.T) {
	tests := []struct {
		bfcl, want string
		ok         bool
	}{
		{"string", "string", true}, {"integer", "integer", true}, {"float", "number", true},
		{"boolean", "boolean", true}, {"array", "array", true}, {"tuple", "array", true},
		{"dict", "object", true}, {"any", "", true}, {"number", "number", true}, {"object", "object", true},
		{"String", "", false}, {"char", "", false}, {"", "", false},
	}
	for _, tt := range tests {
		got, ok := mapType(tt.bfcl)
		if got != tt.want || ok != tt.ok {
			t.Errorf("mapType(%q) = %q, %v; want %q, %v", tt.bfcl, got, ok, tt.want, tt.ok)
		}
	}
	s, err := suitedoc.Parse([]byte(`{"type": "dict", "properties": {"a": {"type": "tuple", "items": {"type": "float"}}, "b": {"type": "any", "enum": [1]}, "c": {"type": "dict", "properties": {"d": {"type": "float", "maximum": 3}}}}, "required": ["a"]}`))
	if err != nil {
		t.Fatal(err)
	}
	m, err := paramsSchema(s)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"object","properties":{"a":{"type":"array","items":{"type":"number"}},"b":{},"c":{"type":"object","properties":{"d":{"type":"number"}}}},"required":["a"]}`
	if m.String() != want {
		t.Errorf("paramsSchema = %s\nwant %s", m, want)
	}
	bad, _ := suitedoc.Parse([]byte(`{"type": "dict", "properties": {"a": {"type": "String"}}}`))
	if _, err := paramsSchema(bad); err == nil || !strings.Contains(err.Error(), `parameters.properties.a.type: unknown type "String"`) {
		t.Errorf("paramsSchema of an unknown type: %v", err)
	}
}

func importText(t *testing.T, questions, answers string, sem Semantics) (*Suite, error) {
	t.Helper()
	in := Input{Questions: strings.NewReader(questions), QuestionsName: "q.json"}
	if answers != "" {
		in.Answers, in.AnswersName = strings.NewReader(answers), "a.json"
	}
	return Import(in, sem)
}

func TestMismatchedFiles(t *testing.T) {
	q := `{"id": "simple_0", "function": [{"name": "f", "parameters": {"type": "dict", "properties": {}}}]}
{"id": "simple_1", "function": [{"name": "f", "parameters": {"type": "dict", "properties": {}}}]}
`
	a0 := `{"id": "simple_0", "ground_truth": [{"f": {}}]}` + "\n"
	a1 := `{"id": "simple_1", "ground_truth": [{"f": {}}]}` + "\n"
	tests := []struct{ questions, answers, want string }{
		{q, a0, "1 question(s) of q.json have no answer in a.json: simple_1 (line 2)"},
		{q, a0 + a1 + `{"id": "simple_9", "ground_truth": []}`, "1 answer(s) of a.json have no question in q.json: simple_9 (line 3)"},
		{q, a0 + a0, `a.json:2: answer id "simple_0" appears twice; first on line 1`},
		{q + q, a0 + a1, `q.json:3: question id "simple_0" appears twice; first on line 1`},
		{q, "{not json\n", "a.json:1: invalid JSON"},
		{q, `{"id": "simple_0", "ground_truth": [{"f": [1]}]}`, "must be {function_name: {parameter: [acceptable values]}}"},
		{q, "", "question simple_0: no possible answer: pass the answers file"},
		{"", a0, "q.json: no questions"},
		{`{"id": "x_0", "function": [{"name": "f", "parameters": {"type": "dict", "properties": {"a": {"type": "char"}}}}]}`,
			`{"id": "x_0", "ground_truth": [{"f": {"a": ["c"]}}]}`, `unknown type "char"`},
	}
	for _, tt := range tests {
		_, err := importText(t, tt.questions, tt.answers, SemanticsBFCL)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("error %v, want one saying %q", err, tt.want)
		}
	}
	// Irrelevance questions need no answers: their cases expect no call.
	s, err := importText(t, `{"id": "irrelevance_4", "function": [{"name": "f", "parameters": {"type": "dict", "properties": {}}}]}`, "", SemanticsBFCL)
	if err != nil {
		t.Fatal(err)
	}
	cases, _ := s.doc.Doc.Get("cases")
	if exp, _ := cases.Vals[0].Get("expected"); exp.String() != "[]" {
		t.Errorf("irrelevance case expects %s", exp)
	}
}

// TestGolden imports a small pair of files in both semantics and compares
// the suites with testdata/*.golden.yaml (go test -update rewrites them).
// The answers cover each BFCL type, the "" marker, alternatives, a dict
// answer, a parameter the answer leaves out, and parallel calls.
func TestGolden(t *testing.T) {
	q, _ := os.ReadFile("testdata/questions.json")
	a, _ := os.ReadFile("testdata/answers.json")
	for _, sem := range []Semantics{SemanticsBFCL, SemanticsCallgrade} {
		s, err := importText(t, string(q), string(a), sem)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.YAML()
		if err != nil {
			t.Fatal(err)
		}
		path0 := t.TempDir() + "/suite.yaml"
		os.WriteFile(path0, got, 0o644)
		st, err := suite.Load(path0)
		if err == nil {
			_, err = engine.New(suite.ViewOf(st), engine.Options{})
		}
		if err != nil {
			t.Errorf("%s semantics: the suite does not load: %v", sem, err)
		}
		path := "testdata/" + string(sem) + ".golden.yaml"
		if *update {
			os.WriteFile(path, got, 0o644)
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s semantics: the suite differs from %s (go test ./bfcl -run Golden -update):\n%s", sem, path, got)
		}
	}
}

// BFCL's dict_checker reads a dict parameter against the answer alone: in
// bfcl semantics a parameter's schema keeps no default, and nothing below
// it says which keys an object has (a declared key the answer leaves out is
// unexpected, a default never fills a missing key).
func TestBFCLOpenSchema(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"type":"number","default":1.0}`, `{"type":"number"}`},
		{`{"type":"object","properties":{"k":{"type":"string","default":"a"}},"required":["k"]}`, `{"type":"object"}`},
		{`{"type":"array","items":{"type":"object","properties":{"k":{}},"default":{}}}`, `{"type":"array","items":{"type":"object"}}`},
		{`{"type":"string"}`, `{"type":"string"}`},
	} {
		n, err := suitedoc.Parse([]byte(tc.in))
		if err != nil {
			t.Fatal(err)
		}
		bfclOpenSchema(n)
		if got := n.String(); got != tc.want {
			t.Errorf("bfclOpenSchema(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// Java and JavaScript types are read only in their categories, and a
// type BFCL's converters do not handle is an error that says so.
func TestImportSourceTypeErrors(t *testing.T) {
	for _, tc := range []struct{ name, questions, answers, want string }{
		{"a Java type in a python category", `{"id":"simple_python_1","function":[{"name":"f","parameters":{"type":"dict","properties":{"m":{"type":"HashMap"}}}}]}`,
			`{"id":"simple_python_1","ground_truth":[{"f":{"m":["x"]}}]}`, `unknown type "HashMap"`},
		{"a type BFCL does not know", `{"id":"simple_java_1","function":[{"name":"f","parameters":{"type":"dict","properties":{"m":{"type":"Vector"}}}}]}`,
			`{"id":"simple_java_1","ground_truth":[{"f":{"m":["x"]}}]}`, `unknown Java type "Vector"`},
		{"a type BFCL cannot convert", `{"id":"simple_java_1","function":[{"name":"f","parameters":{"type":"dict","properties":{"m":{"type":"Set"}}}}]}`,
			`{"id":"simple_java_1","ground_truth":[{"f":{"m":["x"]}}]}`, `Java type "Set": BFCL's checker cannot convert it`},
		{"a JavaScript array of arrays", `{"id":"simple_javascript_1","function":[{"name":"f","parameters":{"type":"dict","properties":{"s":{"type":"array","items":{"type":"array"}}}}}]}`,
			`{"id":"simple_javascript_1","ground_truth":[{"f":{"s":[[[1]]]}}]}`, `JavaScript array of "array"`},
	} {
		in := Input{Questions: strings.NewReader(tc.questions), QuestionsName: "q.json"}
		if tc.answers != "" {
			in.Answers, in.AnswersName = strings.NewReader(tc.answers), "a.json"
		}
		_, err := Import(in, SemanticsBFCL)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Import error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

// TestVariableComparedAsWritten scores arguments for parameters whose
// first acceptable value is of another Python type than the declared one,
// which BFCL takes for a variable and compares with `in`, unstandardised.
// Each want is the verdict of BFCL's ast_checker (gorilla 6ea5797) on the
// same call, printed by Python 3.11.
func TestVariableComparedAsWritten(t *testing.T) {
	q := `{"id": "live_simple_0-0-0", "question": [[{"role": "user", "content": "q"}]], "function": [{"name": "f", "description": "d", "parameters": {"type": "dict", "properties": {` +
		`"year": {"type": "integer"}, "time": {"type": "string"}, "city": {"type": "string"}}, "required": ["city"]}}]}`
	a := `{"id": "live_simple_0-0-0", "ground_truth": [{"f": {"year": ["", "dontcare"], "time": ["", null], "city": ["San Francisco", ""]}}]}`
	doc, err := Import(Input{Questions: strings.NewReader(q), QuestionsName: "q.json", Answers: strings.NewReader(a), AnswersName: "a.json"}, SemanticsBFCL)
	if err != nil {
		t.Fatal(err)
	}
	e := callsEngine(t, doc)
	tests := []struct {
		args string
		want bool
	}{
		{`{"city": "San Francisco", "year": "dontcare"}`, true},
		{`{"city": "San Francisco", "year": "DONTCARE"}`, false},
		{`{"city": "San Francisco", "year": "dont care"}`, false},
		{`{"city": "San Francisco", "year": "-"}`, false},
		{`{"city": "San Francisco", "year": ""}`, true},
		{`{"city": "San Francisco", "year": 2020}`, false},
		{`{"city": "San Francisco", "time": "-"}`, false},
		{`{"city": "San Francisco", "time": ""}`, true},
		{`{"city": "San Francisco", "time": null}`, true},
		{`{"city": "San Francisco", "time": "10:00"}`, false},
		// Not a variable: city's strings are standardised as ever.
		{`{"city": "san francisco"}`, true},
		{`{"city": "-"}`, true},
	}
	sc := e.NewScorer(context.Background())
	for _, tt := range tests {
		resp, err := value.Parse(`[{"name": "f", "arguments": ` + value.StringOf(tt.args).String() + `}]`)
		if err != nil {
			t.Fatal(err)
		}
		if r := sc.Score(0, resp); r.Pass != tt.want {
			t.Errorf("%s: pass %v, BFCL %v\n%s", tt.args, r.Pass, tt.want, r.AppendJSON(nil))
		}
	}
}

// TestDictValuesComparedAsPython: BFCL's dict checker looks a dict's
// values up with Python's `in`, where true == 1 and false == 0.0, and
// checks no type below the parameter; a parameter's own value is
// type-checked first, so there a bool is no integer. callgrade's
// semantics keep the types apart everywhere.
func TestDictValuesComparedAsPython(t *testing.T) {
	q := `{"id": "live_simple_0-0-0", "question": [[{"role": "user", "content": "q"}]], "function": [{"name": "f", "description": "d", "parameters": {"type": "dict", "properties": {` +
		`"body": {"type": "dict"}, "rows": {"type": "array", "items": {"type": "dict"}}, "n": {"type": "integer"}}, "required": ["body"]}}]}`
	a := `{"id": "live_simple_0-0-0", "ground_truth": [{"f": {"body": [{"on": [true], "off": [false], "one": [1], "zero": [0.0], "two": [2], "word": ["1"], "opt": ["", 1]}], ` +
		`"rows": ["", [{"x": [0]}]], "n": ["", 1]}}]}`
	tests := []struct {
		args     string
		bfcl, cg bool
	}{
		{`{"body": {"on": true, "off": false, "one": 1, "zero": 0, "two": 2, "word": "1"}}`, true, true},
		{`{"body": {"on": 1, "off": 0, "one": true, "zero": false, "two": 2, "word": "1"}}`, true, false},
		{`{"body": {"on": 1.0, "off": -0.0, "one": 1e0, "zero": 0.0, "two": 2, "word": "1"}}`, true, false},
		{`{"body": {"on": true, "off": false, "one": 1, "zero": 0, "two": 2, "word": "1", "opt": true}}`, true, false},
		{`{"body": {"on": 2, "off": false, "one": 1, "zero": 0, "two": 2, "word": "1"}}`, false, false},
		{`{"body": {"on": "true", "off": false, "one": 1, "zero": 0, "two": 2, "word": "1"}}`, false, false},
		{`{"body": {"on": true, "off": false, "one": 1, "zero": 0, "two": true, "word": "1"}}`, false, false},
		{`{"body": {"on": true, "off": false, "one": 1, "zero": 0, "two": 2, "word": true}}`, false, false},
		{`{"body": {"on": true, "off": false, "one": 1, "zero": null, "two": 2, "word": "1"}}`, false, false},
		{`{"body": {"on": true, "off": false, "one": 1, "zero": 0, "two": 2, "word": "1"}, "rows": [{"x": false}]}`, true, false},
		{`{"body": {"on": true, "off": false, "one": 1, "zero": 0, "two": 2, "word": "1"}, "rows": [{"x": true}]}`, false, false},
		// The parameter itself: type-checked, so true is no integer.
		{`{"body": {"on": true, "off": false, "one": 1, "zero": 0, "two": 2, "word": "1"}, "n": true}`, false, false},
	}
	for _, sem := range []Semantics{SemanticsBFCL, SemanticsCallgrade} {
		doc, err := Import(Input{Questions: strings.NewReader(q), QuestionsName: "q.json", Answers: strings.NewReader(a), AnswersName: "a.json"}, sem)
		if err != nil {
			t.Fatal(err)
		}
		sc := callsEngine(t, doc).NewScorer(context.Background())
		for _, tt := range tests {
			resp, err := value.Parse(`[{"name": "f", "arguments": ` + value.StringOf(tt.args).String() + `}]`)
			if err != nil {
				t.Fatal(err)
			}
			want := tt.bfcl
			if sem == SemanticsCallgrade {
				want = tt.cg
			}
			if r := sc.Score(0, resp); r.Pass != want {
				t.Errorf("%s semantics, %s: pass %v, want %v\n%s", sem, tt.args, r.Pass, want, r.AppendJSON(nil))
			}
		}
	}
}
