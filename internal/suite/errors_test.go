package suite

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/value"
)

// want is one problem a test expects: its exact Loc and part of its message.
type want struct {
	loc Loc
	msg string
}

// checkProblems checks that err is an *Error holding exactly the wanted
// problems, in any order.
func checkProblems(t *testing.T, err error, wants []want) {
	t.Helper()
	var se *Error
	if !errors.As(err, &se) {
		t.Fatalf("err = %v (%T), want *Error", err, err)
	}
	used := make([]bool, len(se.Problems))
	for _, w := range wants {
		found := false
		for i, p := range se.Problems {
			if !used[i] && p.Loc == w.loc && strings.Contains(p.Msg, w.msg) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			t.Errorf("missing problem %s: ...%s...", w.loc, w.msg)
		}
	}
	for i, p := range se.Problems {
		if !used[i] {
			t.Errorf("unexpected problem %#v", p)
		}
	}
	if t.Failed() {
		t.Logf("all problems:\n%s", se.Error())
	}
}

func TestErrors(t *testing.T) {
	for _, tests := range [][]errorTest{topErrors, defaultsErrors, caseErrors, toolErrors, layeringErrors, syntaxErrors} {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				paths := tt.paths
				if paths == nil {
					paths = []string{"s.yaml"}
				}
				// With an error, what decoded may come back too
				// (TestLoadReturnsWhatDecodedWithTheProblems); only the
				// problems matter here.
				_, err := load(tt.files, paths)
				if tt.want == nil {
					if err != nil {
						t.Fatalf("unexpected error: %v", err)
					}
					return
				}
				checkProblems(t, err, tt.want)
			})
		}
	}
}

// errorTest is one suite and the problems loading it finds.
type errorTest struct {
	name  string
	files memFiles
	paths []string // default: s.yaml
	want  []want
}

// yamlSuite is the suite s.yaml holding src.
func yamlSuite(src string) memFiles { return memFiles{"s.yaml": []byte(src)} }

// topErrors are the problems of the top level: its keys, its version,
// and what a suite file is.
var topErrors = []errorTest{
	{"unknown top-level key", yamlSuite("versoin: 1\n"),
		nil, []want{{Loc{File: "s.yaml", Key: "versoin"}, "unknown key; want one of version, tools"}}},
	{"version 2", yamlSuite("version: 2\n"),
		nil, []want{{Loc{File: "s.yaml", Key: "version"}, "unsupported version 2"}}},
	{"version as a string", yamlSuite("version: \"1\"\n"),
		nil, []want{{Loc{File: "s.yaml", Key: "version"}, "must be the number 1, not a string"}}},
	{"version 1.0 is 1", yamlSuite("version: 1.0\n"), nil, nil},
	{"top level not a mapping", yamlSuite("- a\n- b\n"),
		nil, []want{{Loc{File: "s.yaml"}, "a suite must be a mapping, not a list"}}},
	{"json top level not an object", memFiles{"s.json": []byte("[1]")},
		[]string{"s.json"}, []want{{Loc{File: "s.json"}, "a suite must be an object, not a list"}}},
	{"unknown extension", memFiles{"s.txt": nil},
		[]string{"s.txt"}, []want{{Loc{File: "s.txt"}, "unknown suite format"}}},
}

// defaultsErrors are the problems of defaults, rulesets and plugins.
var defaultsErrors = []errorTest{
	{"defaults", yamlSuite("defaults:\n  extra_fields: maybe\n  calls: sometimes\n  null_is_missing: \"yes\"\n  callz: x\n  rules: [a]\n"),
		nil, []want{
			{Loc{File: "s.yaml", Key: "defaults.extra_fields"}, `must be reject or allow, not "maybe"`},
			{Loc{File: "s.yaml", Key: "defaults.calls"}, `must be ordered, unordered, superset, subset, in_order, greedy or any, not "sometimes"`},
			{Loc{File: "s.yaml", Key: "defaults.null_is_missing"}, "must be true or false, not a string"},
			{Loc{File: "s.yaml", Key: "defaults.callz"}, "unknown key; want one of extra_fields, calls, null_is_missing, format, rules"},
			{Loc{File: "s.yaml", Key: "defaults.rules"}, "must be an object of PATH: RULE, not a list"},
		}},
	{"defaults not an object", yamlSuite("defaults: reject\n"),
		nil, []want{{Loc{File: "s.yaml", Key: "defaults"}, "must be an object, not a string"}}},
	{"rulesets", yamlSuite("rulesets:\n  a: {city: 5, ok: exact}\n  b: [x]\n"),
		nil, []want{
			{Loc{File: "s.yaml", Key: "rulesets.a.city"}, "must be a rule (a string or an object), not a number"},
			{Loc{File: "s.yaml", Key: "rulesets.b"}, "must be an object of PATH: RULE, not a list"},
		}},
	{"plugins", yamlSuite("plugins:\n  geo: {cmd: x, sha256: abc, timeout: soon}\n  a.b: {command: x}\n  q: {command: \"'open\"}\n  e: {command: []}\n  n: {command: [a, 5], timeout: -1s}\n"),
		nil, []want{
			{Loc{File: "s.yaml", Key: "plugins.geo.cmd"}, "unknown key; want one of command, sha256, timeout"},
			{Loc{File: "s.yaml", Key: "plugins.geo.command"}, "required key is missing"},
			{Loc{File: "s.yaml", Key: "plugins.geo.sha256"}, `must be 64 hex digits, not "abc"`},
			{Loc{File: "s.yaml", Key: "plugins.geo.timeout"}, `must be a positive duration such as 2s or 500ms, not "soon"`},
			{Loc{File: "s.yaml", Key: "plugins.a.b"}, "a plugin name must be non-empty and have no dot"},
			{Loc{File: "s.yaml", Key: "plugins.q.command"}, "unterminated single quote"},
			{Loc{File: "s.yaml", Key: "plugins.e.command"}, "the command is empty"},
			{Loc{File: "s.yaml", Key: "plugins.n.command[1]"}, "must be a string, not a number"},
			{Loc{File: "s.yaml", Key: "plugins.n.timeout"}, "must be a positive duration"},
		}},
}

// caseErrors are the problems of the cases, their expected calls, rules,
// assert and alternatives.
var caseErrors = []errorTest{
	{"cases not a list", yamlSuite("cases: {id: a}\n"),
		nil, []want{{Loc{File: "s.yaml", Key: "cases"}, "must be a list of cases, not an object"}}},
	{"case not an object", yamlSuite("cases: [a]\n"),
		nil, []want{{Loc{File: "s.yaml", Key: "cases[0]"}, "must be a case object, not a string"}}},
	{"case keys", yamlSuite(`cases:
  - expected: []
  - {id: "", expected: []}
  - {id: b, expect: [], extra_fields: sure, calls: all, null_is_missing: 1}
  - {id: c, expected: null}
  - {id: [x], expected: []}
`), nil, []want{
		{Loc{File: "s.yaml", Key: "cases[0].id"}, "required key is missing"},
		{Loc{File: "s.yaml", Key: "cases[1].id"}, "must not be empty"},
		{Loc{File: "s.yaml", Key: "cases[2].expect", Case: "b"}, "unknown key; want one of id, tools"},
		{Loc{File: "s.yaml", Key: "cases[2].expected", Case: "b"}, "required key is missing; write [] for a case that expects no call"},
		{Loc{File: "s.yaml", Key: "cases[2].extra_fields", Case: "b"}, `must be reject or allow, not "sure"`},
		{Loc{File: "s.yaml", Key: "cases[2].calls", Case: "b"}, `not "all"`},
		{Loc{File: "s.yaml", Key: "cases[2].null_is_missing", Case: "b"}, "must be true or false, not a number"},
		{Loc{File: "s.yaml", Key: "cases[3].expected", Case: "c"}, "write [] for a case that expects no call"},
		{Loc{File: "s.yaml", Key: "cases[4].id"}, "must be a string, not a list"},
	}},
	{"expected calls", yamlSuite(`cases:
  - id: a
    expected: get_weather
  - id: b
    expected: {arguments: {}}
  - id: c
    expected:
      - {name: f, args: {}}
      - {name: g, arguments: "{\"city\": 1}"}
      - {name: ""}
      - 5
`), nil, []want{
		{Loc{File: "s.yaml", Key: "cases[0].expected", Case: "a"}, "must be a call or a list of calls, not a string"},
		{Loc{File: "s.yaml", Key: "cases[1].expected[0].name", Case: "b"}, "required key is missing"},
		{Loc{File: "s.yaml", Key: "cases[2].expected[0].args", Case: "c"}, "unknown key; want one of name, arguments, rules, assert"},
		{Loc{File: "s.yaml", Key: "cases[2].expected[1].arguments", Case: "c"}, "must be an object, not a string"},
		{Loc{File: "s.yaml", Key: "cases[2].expected[2].name", Case: "c"}, "must be a tool name, not a string"},
		{Loc{File: "s.yaml", Key: "cases[2].expected[3]", Case: "c"}, "must be a call object, not a number"},
	}},
	{"rules and assert", yamlSuite(`rulesets: {fuzzy: {city: exact}}
cases:
  - id: a
    use: [fuzzy, nope, 3]
    expected:
      - {name: f}
      - {name: f}
      - {name: f}
      - name: f
        rules: {cabins: 5, ok: unordered, obj: {tolerance: 0.5}}
        assert: ["x > 1", 7, ""]
  - id: b
    use: missing
    expected: {name: f, rules: [unordered], assert: {x: 1}}
`), nil, []want{
		{Loc{File: "s.yaml", Key: "cases[0].use[1]", Case: "a"}, `no ruleset named "nope"`},
		{Loc{File: "s.yaml", Key: "cases[0].use[2]", Case: "a"}, "must be a ruleset name, not a number"},
		{Loc{File: "s.yaml", Key: "cases[0].expected[3].rules.cabins", Case: "a"}, "must be a rule (a string or an object), not a number"},
		{Loc{File: "s.yaml", Key: "cases[0].expected[3].assert[1]", Case: "a"}, "must be a non-empty expression string, not a number"},
		{Loc{File: "s.yaml", Key: "cases[0].expected[3].assert[2]", Case: "a"}, "must be a non-empty expression string"},
		{Loc{File: "s.yaml", Key: "cases[1].use", Case: "b"}, `no ruleset named "missing"`},
		{Loc{File: "s.yaml", Key: "cases[1].expected[0].rules", Case: "b"}, "must be an object of PATH: RULE, not a list"},
		{Loc{File: "s.yaml", Key: "cases[1].expected[0].assert", Case: "b"}, "must be a list of expressions, not an object"},
	}},
	{"alternatives", yamlSuite(`cases:
  - id: a
    expected: []
    alternatives: {name: f}
  - id: b
    expected: []
    alternatives:
      - [{name: f}, {arguments: {}}]
      - {name: g, extra: 1}
      - 5
`), nil, []want{
		{Loc{File: "s.yaml", Key: "cases[0].alternatives", Case: "a"}, "must be a list of alternatives"},
		{Loc{File: "s.yaml", Key: "cases[1].alternatives[0][1].name", Case: "b"}, "required key is missing"},
		{Loc{File: "s.yaml", Key: "cases[1].alternatives[1][0].extra", Case: "b"}, "unknown key"},
		{Loc{File: "s.yaml", Key: "cases[1].alternatives[2]", Case: "b"}, "must be a call or a list of calls, not a number"},
	}},
}

// toolErrors are the problems of tools and tools_file.
var toolErrors = []errorTest{
	{"tools", yamlSuite(`tools:
  - {type: function, function: {description: no name}}
  - {name: a, foo: 1}
  - {type: tool, name: b}
  - {name: c, parameters: [x]}
  - {name: c}
  - 5
  - {type: function, function: {name: d}, extra: 1}
cases:
  - id: x
    tools: [{name: e, strict: true}]
    expected: []
  - id: y
    tools: {name: e}
    expected: []
`), nil, []want{
		{Loc{File: "s.yaml", Key: "tools[0].function.name"}, "required key is missing"},
		{Loc{File: "s.yaml", Key: "tools[1].foo"}, "unknown key; want one of name, description, parameters"},
		{Loc{File: "s.yaml", Key: "tools[2].type"}, "must be function"},
		{Loc{File: "s.yaml", Key: "tools[3].parameters"}, "must be a JSON Schema object, not a list"},
		{Loc{File: "s.yaml", Key: "tools[4]"}, `duplicate tool "c"`},
		{Loc{File: "s.yaml", Key: "tools[5]"}, "must be a tool object, not a number"},
		{Loc{File: "s.yaml", Key: "tools[6].extra"}, "unknown key; want one of type, function"},
		{Loc{File: "s.yaml", Key: "cases[0].tools[0].strict", Case: "x"}, "unknown key"},
		{Loc{File: "s.yaml", Key: "cases[1].tools", Case: "y"}, "must be a list of tools, not an object"},
	}},
	{"tools_file", memFiles{
		"dir/s.yaml":   []byte("tools_file: missing.json\ncases:\n  - {id: a, tools_file: bad.json, expected: []}\n  - {id: b, tools_file: bad.json, expected: []}\n  - {id: c, tools: [], tools_file: t.yaml, expected: []}\n  - {id: d, tools_file: t.txt, expected: []}\n  - {id: e, tools_file: obj.yaml, expected: []}\n"),
		"dir/bad.json": []byte(`[{"name": "ok"}, {"type": "function", "function": {"name": 5}}]`),
		"dir/obj.yaml": []byte("name: f\n"),
	}, []string{"dir/s.yaml"}, []want{
		{Loc{File: "dir/s.yaml", Key: "tools_file"}, "cannot read tools file dir/missing.json: open: file does not exist"},
		{Loc{File: "dir/bad.json", Key: "[1].function.name", Case: "a"}, "must be a non-empty string, not a number"},
		{Loc{File: "dir/s.yaml", Key: "cases[2].tools_file", Case: "c"}, "tools and tools_file are both set"},
		{Loc{File: "dir/s.yaml", Key: "cases[3].tools_file", Case: "d"}, "a tools file must be .json, .yaml or .yml"},
		{Loc{File: "dir/obj.yaml", Case: "e"}, "a tools file must hold a list of tools, not an object"},
	}},
	{"tools and tools_file at the top", memFiles{"s.yaml": []byte("tools: []\ntools_file: t.json\n"), "t.json": []byte("[]")},
		nil, []want{{Loc{File: "s.yaml", Key: "tools_file"}, "tools and tools_file are both set"}}},
}

// layeringErrors are the problems of several files layered.
var layeringErrors = []errorTest{
	{"duplicate ids across files", memFiles{
		"a.yaml": []byte("cases:\n  - {id: x, expected: []}\n  - {id: y, expected: []}\n  - {id: z, expected: []}\n"),
		"b.json": []byte(`{"cases": [{"id": "z", "expected": []}, {"id": "x", "expected": []}]}`),
	}, []string{"a.yaml", "b.json"}, []want{
		{Loc{File: "b.json", Key: "cases[0].id", Case: "z"}, `duplicate case id "z"; first at a.yaml: cases[2]`},
		{Loc{File: "b.json", Key: "cases[1].id", Case: "x"}, `duplicate case id "x"; first at a.yaml: cases[0]`},
	}},
	{"the file that set a key is named", memFiles{
		"a.yaml": []byte("defaults: {calls: ordered, extra_fields: allow}\nplugins: {geo: {command: x}}\n"),
		"b.json": []byte(`{"defaults": {"calls": "random"}, "plugins": {"geo": {"timeout": "later"}}, "rulesets": {"r": {"p": 1}}}`),
	}, []string{"a.yaml", "b.json"}, []want{
		{Loc{File: "b.json", Key: "defaults.calls"}, `not "random"`},
		{Loc{File: "b.json", Key: "plugins.geo.timeout"}, `not "later"`},
		{Loc{File: "b.json", Key: "rulesets.r.p"}, "not a number"},
	}},
	{"a broken file hides no other file's problems", memFiles{
		"a.yaml": []byte("cases: [\n"),
		"b.yaml": []byte("cases: [{id: b, use: [from_a], expected: [], extra: 1}]\n"),
	}, []string{"a.yaml", "b.yaml", "c.yaml"}, []want{
		{Loc{File: "a.yaml", Line: 1, Column: 8}, "invalid YAML: [ is not closed by the end of the file"},
		{Loc{File: "c.yaml"}, "open: file does not exist"},
		// use: [from_a] is not reported: the ruleset may be in a.yaml.
		{Loc{File: "b.yaml", Key: "cases[0].extra", Case: "b"}, "unknown key"},
	}},
}

// syntaxErrors are the problems of YAML, JSON and TOML syntax and values.
var syntaxErrors = []errorTest{
	{"yaml duplicate keys", yamlSuite("version: 1\ncases:\n  - id: a\n    expected: []\n    id: b\nversion: 1\n"),
		nil, []want{
			{Loc{File: "s.yaml", Key: "cases[0].id", Case: "a", Line: 5, Column: 5}, `duplicate key "id" (first at line 3)`},
			{Loc{File: "s.yaml", Key: "version", Line: 6, Column: 1}, `duplicate key "version" (first at line 1)`},
		}},
	{"yaml duplicate key and the rest of the file", yamlSuite("version: 1\ncases:\n  - {id: a, expected: [], bogus: 1}\n  - {id: b, expected: {name: f, arguments: {y: 1, y: 2}}}\n"),
		nil, []want{
			{Loc{File: "s.yaml", Key: "cases[1].expected.arguments.y", Case: "b", Line: 4, Column: 51}, `duplicate key "y" (first at line 4)`},
			{Loc{File: "s.yaml", Key: "cases[0].bogus", Case: "a"}, "unknown key"},
		}},
	{"yaml bad numbers and tags", yamlSuite("cases:\n  - id: a\n    expected: {name: f, arguments: {x: .inf, y: 017, z: !!int abc, w: !custom 1}}\n"),
		nil, []want{
			{Loc{File: "s.yaml", Key: "cases[0].expected.arguments.x", Case: "a", Line: 3, Column: 40}, "the number .inf has no JSON spelling"},
			{Loc{File: "s.yaml", Key: "cases[0].expected.arguments.y", Case: "a", Line: 3, Column: 49}, "ambiguous number 017"},
			{Loc{File: "s.yaml", Key: "cases[0].expected.arguments.z", Case: "a", Line: 3, Column: 57}, `invalid number "abc"`},
			{Loc{File: "s.yaml", Key: "cases[0].expected.arguments.w", Case: "a", Line: 3, Column: 71}, "unsupported tag !custom"},
		}},
	{"yaml alias bomb", yamlSuite(`a: &a [x, x, x, x, x, x, x, x, x, x]
b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]
c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]
d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]
e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]
f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]
g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]
`), nil, []want{{Loc{File: "s.yaml", Key: "g[2]", Line: 7, Column: 16}, "aliases expand the document to more than 4003190 values"}}},
	{"yaml alias cycle", yamlSuite("a: &a\n  b: *a\n"),
		nil, []want{{Loc{File: "s.yaml", Key: "a.b", Line: 2, Column: 6}, "alias *a refers to a value that contains it"}}},
	{"yaml merge of a scalar", yamlSuite("a: &a 5\nb: {<<: *a}\n"),
		nil, []want{{Loc{File: "s.yaml", Key: "b", Line: 2, Column: 9}, "a merge key (<<) needs a mapping"}}},
	{"yaml two documents", yamlSuite("version: 1\n---\nversion: 1\n"),
		nil, []want{{Loc{File: "s.yaml", Line: 2, Column: 1}, "a suite file holds one YAML document"}}},
	{"yaml syntax", yamlSuite("cases:\n  - id: a\n   bad: [\n"),
		nil, []want{{Loc{File: "s.yaml", Line: 3, Column: 4}, "invalid YAML: did not find expected '-' indicator"}}},
	{"json duplicate keys", memFiles{"s.json": []byte("{\n  \"cases\": [\n    {\"id\": \"a\", \"expected\": [], \"id\": \"b\"}\n  ]\n}\n")},
		[]string{"s.json"}, []want{{Loc{File: "s.json", Key: "cases[0]", Case: "a", Line: 3, Column: 33}, `duplicate key: key "id" appears twice`}}},
	{"json duplicate top-level keys", memFiles{"s.json": []byte("{\"cases\": [],\n \"cases\": []}")},
		[]string{"s.json"}, []want{{Loc{File: "s.json", Line: 2, Column: 2}, `duplicate key: key "cases" appears twice`}}},
	{"json syntax in a case", memFiles{"s.json": []byte("{\"cases\": [\n{\"id\": \"a\", \"expected\": []},\n{\"id\": \"b\" \"expected\": []}\n]}")},
		[]string{"s.json"}, []want{{Loc{File: "s.json", Key: "cases[1]", Case: "b", Line: 3, Column: 12}, "invalid JSON: expected ',' or '}' in object"}}},
	{"json syntax at the top", memFiles{"s.json": []byte("{\"version\": 1,\n\"cases\": []\n")},
		[]string{"s.json"}, []want{{Loc{File: "s.json", Line: 3, Column: 1}, "invalid JSON"}}},
	{"json NaN", memFiles{"s.json": []byte(`{"cases": [{"id": "a", "expected": {"name": "f", "arguments": {"x": NaN}}}]}`)},
		[]string{"s.json"}, []want{{Loc{File: "s.json", Key: "cases[0]", Case: "a", Line: 1, Column: 69}, "non-finite number"}}},
	{"json: every broken case", memFiles{"s.json": []byte("{\"cases\": [\n{\"id\": \"a\", \"expected\": {\"name\": \"f\", \"arguments\": {\"x\": 1, \"x\": 2}}},\n{\"id\": \"b\", \"expected\": []},\n{\"id\": 7, \"id\": 8, \"expected\": []}\n]}")},
		[]string{"s.json"}, []want{
			{Loc{File: "s.json", Key: "cases[0]", Case: "a", Line: 2, Column: 61}, `duplicate key: key "x" appears twice`},
			{Loc{File: "s.json", Key: "cases[2]", Case: "7", Line: 4, Column: 11}, `duplicate key: key "id" appears twice`},
		}},
	{"toml syntax", memFiles{"s.toml": []byte("version = 1\n[defaults\n")},
		[]string{"s.toml"}, []want{{Loc{File: "s.toml", Line: 2, Column: 10}, "invalid TOML"}}},
	{"toml duplicate keys", memFiles{"s.toml": []byte("version = 1\nversion = 1\n")},
		[]string{"s.toml"}, []want{{Loc{File: "s.toml", Key: "version", Line: 2, Column: 1}, "invalid TOML: key version is already defined"}}},
	{"toml duplicate keys inline", memFiles{"s.toml": []byte("[[cases]]\nid = \"a\"\nexpected = {name = \"f\", arguments = {v = 1, v = 2}}\n")},
		[]string{"s.toml"}, []want{{Loc{File: "s.toml", Key: "cases[0].expected.arguments.v", Case: "a", Line: 3, Column: 45}, "invalid TOML: key v is already defined"}}},
	{"toml table twice", memFiles{"s.toml": []byte("[defaults]\ncalls = \"ordered\"\n\n[defaults]\nextra_fields = \"allow\"\n")},
		[]string{"s.toml"}, []want{{Loc{File: "s.toml", Key: "defaults", Line: 4, Column: 2}, "invalid TOML: table defaults already exists"}}},
	{"toml table a dotted key defined", memFiles{"s.toml": []byte("[[cases]]\nid = \"a\"\n[cases.expected]\nname = \"f\"\narguments.x = 1\n[cases.expected.arguments]\ny = 2\n")},
		[]string{"s.toml"}, []want{{Loc{File: "s.toml", Key: "cases[0].expected.arguments", Case: "a", Line: 6, Column: 17}, "invalid TOML: table arguments already exists"}}},
	{"toml float beyond float64", memFiles{"s.toml": []byte("[[cases]]\nid = \"a\"\n[cases.expected]\nname = \"f\"\narguments = {x = 1e400}\n")},
		[]string{"s.toml"}, []want{{Loc{File: "s.toml", Key: "cases[0].expected.arguments", Case: "a", Line: 5, Column: 18}, "value out of range"}}},
	{"toml non-finite", memFiles{"s.toml": []byte("[[cases]]\nid = \"a\"\nexpected = {name = \"f\", arguments = {x = inf}}\n")},
		[]string{"s.toml"}, []want{{Loc{File: "s.toml", Key: "cases[0].expected.arguments.x", Case: "a", Line: 3, Column: 42}, "no JSON spelling"}}},
	{"toml non-finite values, each at its place", memFiles{"s.toml": []byte("[[cases]]\nid = \"a\"\nexpected = {name = \"f\"}\n[cases.arguments]\nb = inf\na = -inf\nc = [1, nan]\n")},
		[]string{"s.toml"}, []want{
			{Loc{File: "s.toml", Key: "cases[0].arguments.b", Case: "a", Line: 5, Column: 5}, "no JSON spelling"},
			{Loc{File: "s.toml", Key: "cases[0].arguments.a", Case: "a", Line: 6, Column: 5}, "no JSON spelling"},
			{Loc{File: "s.toml", Key: "cases[0].arguments.c[1]", Case: "a", Line: 7, Column: 9}, "no JSON spelling"},
		}},
	{"toml non-finite under a dotted key", memFiles{"s.toml": []byte("[[cases]]\nid = \"a\"\nexpected = {name = \"f\", arguments = {\"a.b\" = nan}}\n")},
		[]string{"s.toml"}, []want{{Loc{File: "s.toml", Key: `cases[0].expected.arguments.a\.b`, Case: "a", Line: 3, Column: 46}, "no JSON spelling"}}},
	// As deep as JSON allows, no deeper: the key paths of a document
	// nested 100,000 deep took 22 GB.
	{"toml too deep", memFiles{"s.toml": []byte("[[cases]]\nid = \"a\"\nexpected = {name = \"f\"}\nx = " + strings.Repeat("[", 300) + strings.Repeat("]", 300) + "\n")},
		[]string{"s.toml"}, []want{{Loc{File: "s.toml", Key: "cases[0].x", Line: 4, Column: 1}, "nesting too deep: more than 256 levels"}}},
	{"toml dotted key too deep", memFiles{"s.toml": []byte("[defaults]\n" + strings.Repeat("a.", 300) + "b = 1\n")},
		[]string{"s.toml"}, []want{{Loc{File: "s.toml", Key: "a.a.a.a.a.a.a.a…", Line: 2, Column: 601}, "nesting too deep"}}},
	{"toml nan in an array of a table's case", memFiles{"s.toml": []byte("[[cases]]\nid = \"a\"\n[[cases]]\nid = \"b\"\n[[cases.expected]]\nname = \"f\"\n[cases.expected.arguments]\nx = [1.5, nan]\n")},
		[]string{"s.toml"}, []want{{Loc{File: "s.toml", Key: "cases[1].expected[0].arguments.x[1]", Case: "b", Line: 8, Column: 11}, "no JSON spelling"}}},
	{"toml inf outside the cases", memFiles{"s.toml": []byte("[defaults.rules.x]\ntolerance = -inf\n")},
		[]string{"s.toml"}, []want{{Loc{File: "s.toml", Key: "defaults.rules.x.tolerance", Line: 2, Column: 13}, "no JSON spelling"}}},
}

// TestYAMLSyntaxErrorPositions checks that a YAML syntax error names the
// line and column of the character at fault, or, for something left open,
// of where it opens; yaml.v3's own text names the enclosing block's line.
func TestYAMLSyntaxErrorPositions(t *testing.T) {
	tests := []struct {
		name      string
		src       string
		line, col int
		msg       string
	}{
		{"unclosed double quote", "cases:\n  - id: \"a\n    expected: []\n", 2, 9, `invalid YAML: " is not closed by the end of the file`},
		{"unclosed single quote", "cases:\n  - id: 'a\n    expected: []\n", 2, 9, `invalid YAML: ' is not closed by the end of the file`},
		{"unclosed [ before the next key", "cases:\n  - id: a\n    expected: [1, 2\n  - id: b\n", 3, 15,
			`invalid YAML: [ is not closed: did not find expected ',' or ']' at line 4, column 7`},
		{"unclosed { before the next key", "cases:\n  - id: a\n    expected: {name: f\n  - id: b\n", 3, 15,
			`invalid YAML: { is not closed: did not find expected ',' or '}' at line 4, column 7`},
		{"unclosed [ at the end", "cases:\n  - id: a\n    expected: [1, 2\n", 3, 15, "invalid YAML: [ is not closed by the end of the file"},
		{"empty unclosed [", "cases: [\n", 1, 8, "invalid YAML: [ is not closed by the end of the file"},
		{"missing comma in a long flow list", "tools: [\n  {name: a},\n  {name: b}\n  {name: c},\n]\n", 4, 3,
			"invalid YAML: did not find expected ',' or ']' (while parsing a flow sequence at line 1, column 8)"},
		{"wrong closing bracket", "a: [1, 2}\n", 1, 9, "invalid YAML: did not find expected ',' or ']'"},
		{"tab indenting a key", "cases:\n  - id: a\n\texpected: []\n", 3, 1, "invalid YAML: found a tab character that violates indentation"},
		{"tab indenting a mapping", "cases:\n  - id: a\n    expected:\n\t  name: f\n", 4, 1, "invalid YAML: found a tab character that violates indentation"},
		{"key indented too little", "cases:\n  - id: a\n   expected: []\n", 3, 4, "invalid YAML: did not find expected '-' indicator"},
		{"key indented too far", "cases:\n  - id: a\n     expected: []\n", 3, 14, "invalid YAML: mapping values are not allowed in this context"},
		{"a: b: c", "cases:\n  - id: a: b\n    expected: []\n", 2, 10, "invalid YAML: mapping values are not allowed in this context"},
		{"stray list item in a mapping", "cases:\n  - id: a\n    expected: []\n    - id: b\n", 4, 5,
			"invalid YAML: did not find expected key (while parsing a block mapping at line 2, column 5)"},
		{"stray ]", "cases:\n  - id: a\n    expected: []]\n", 3, 17, "invalid YAML: did not find expected key"},
		{"text after a quoted scalar", "a: \"x\" y\n", 1, 8, "invalid YAML: did not find expected key"},
		{"bad block scalar indicator", "cases:\n  - id: a\n    expected: |x\n      foo\n", 3, 16, "invalid YAML: did not find expected comment or line break"},
		{"two chomping indicators", "cases:\n  - id: a\n    expected: >-+\n      foo\n", 3, 17, "invalid YAML: did not find expected comment or line break"},
		{"zero indentation indicator", "a: |0\n  y\n", 1, 5, "invalid YAML: found an indentation indicator equal to 0"},
		{"key without a colon", "a: b\nc\nd: e\n", 2, 1, "invalid YAML: could not find expected ':' after this key"},
		{"reserved indicator", "a: @foo\n", 1, 4, "invalid YAML: found character that cannot start any token"},
		{"unknown alias", "a: &x 1\nb: *y\n", 2, 4, "invalid YAML: unknown anchor 'y' referenced"},
		{"invalid UTF-8", "a: b\nc: \xff\n", 2, 4, "invalid YAML: invalid leading UTF-8 octet"},
		{"syntax error in a second document", "a: 1\n---\nb: [\n", 3, 4, "invalid YAML: [ is not closed by the end of the file"},
		{"duplicate key", "cases:\n  - id: a\n    expected: []\n    id: b\n", 4, 5, `duplicate key "id" (first at line 2)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := load(memFiles{"s.yaml": []byte(tt.src)}, []string{"s.yaml"})
			var se *Error
			if !errors.As(err, &se) || len(se.Problems) != 1 {
				t.Fatalf("err = %v, want one problem", err)
			}
			p := se.Problems[0]
			// Where it is found is the test; what it is a part of,
			// TestErrors's.
			p.Loc.Key, p.Loc.Case = "", ""
			if want := (Loc{File: "s.yaml", Line: tt.line, Column: tt.col}); p.Loc != want || !strings.Contains(p.Msg, tt.msg) {
				t.Errorf("got  %s\nwant %s: %s...", p, want, tt.msg)
			}
		})
	}
}

func TestErrorsAllReported(t *testing.T) {
	// Several problems in several files, all in one *Error.
	_, err := Load(filepath.Join("testdata", "errors", "a.yaml"), filepath.Join("testdata", "errors", "b.json"), filepath.Join("testdata", "errors", "missing.toml"))
	a, b, m := filepath.Join("testdata", "errors", "a.yaml"), filepath.Join("testdata", "errors", "b.json"), filepath.Join("testdata", "errors", "missing.toml")
	checkProblems(t, err, []want{
		{Loc{File: m}, "open: no such file or directory"},
		{Loc{File: a, Key: "defaults.calls"}, `not "sometimes"`},
		{Loc{File: a, Key: "cases[0].expected[0].rules.cabins", Case: "flights"}, "must be a rule"},
		{Loc{File: a, Key: "cases[1].expected", Case: "no-expected"}, "required key is missing"},
		{Loc{File: b, Key: "cases[0].id", Case: "flights"}, `duplicate case id "flights"; first at ` + a + ": cases[0]"},
		{Loc{File: b, Key: "cases[1].extra_fields", Case: "fuzzy"}, `not "sometimes"`},
		// use: [fuzzy_cty] is not checked: missing.toml could have defined it.
	})
	if !errors.Is(err, fs.ErrNotExist) {
		t.Error("errors.Is(err, fs.ErrNotExist) is false")
	}
	wantText := m + ": open: no such file or directory\n"
	if !strings.HasPrefix(err.Error(), wantText) {
		t.Errorf("Error() = %q, want it to start with %q", err.Error(), wantText)
	}
}

func TestSyntaxErrorUnwraps(t *testing.T) {
	_, err := load(memFiles{"s.json": []byte(`{"a": 1, "a": 2}`)}, []string{"s.json"})
	var ve *value.Error
	if !errors.As(err, &ve) || !errors.Is(err, value.ErrDuplicateKey) {
		t.Errorf("err = %v; want it to wrap a *value.Error for a duplicate key", err)
	}
}

func TestNoPaths(t *testing.T) {
	_, err := Load()
	checkProblems(t, err, []want{{Loc{}, "no suite file given"}})
}

func TestFormatKey(t *testing.T) {
	_, err := load(memFiles{"s.yaml": []byte(`version: 1
defaults: {format: hermez}
cases:
  - {id: a, format: 5, expected: []}
  - {id: b, format: Anthropic, expected: []}
`)}, []string{"s.yaml"})
	var se *Error
	if !errors.As(err, &se) || len(se.Problems) != 2 {
		t.Fatalf("err = %v", err)
	}
	if got := se.Problems[0].String(); !strings.HasPrefix(got, "s.yaml: defaults.format: ") || !strings.Contains(got, "hermez") {
		t.Errorf("problem 0 = %q", got)
	}
	if got := se.Problems[1].String(); !strings.HasPrefix(got, "s.yaml: cases[0].format (case a): ") {
		t.Errorf("problem 1 = %q", got)
	}
}
