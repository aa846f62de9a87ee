package suite

import (
	"bytes"
	"flag"
	"github.com/callgrade/callgrade/internal/rulecore"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/value"
)

var update = flag.Bool("update", false, "rewrite docs/suite.schema.json")

const schemaFile = "../../docs/suite.schema.json"

// TestSchemaFile holds docs/suite.schema.json to what Schema generates
// now; go generate ./suite (or this test with -update) rewrites it.
func TestSchemaFile(t *testing.T) {
	want := Schema()
	if *update {
		if err := os.WriteFile(schemaFile, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is not what suite.Schema generates: run go generate ./suite (go test ./suite -run TestSchemaFile -update)", schemaFile)
	}
}

// suiteSchema compiles Schema with the validator a user's editor would
// stand for.
func suiteSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(Schema()))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	const url = "mem:///suite.schema.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// docOf parses a suite file as Load's parsers do (YAML anchors and merge
// keys resolved, TOML's values in their JSON spelling) and returns it as
// the JSON value a schema validates.
func docOf(t testing.TB, name string, b []byte) any {
	t.Helper()
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	var v value.Value
	switch formatOf(name) {
	case formatJSON:
		var err error
		if v, err = parseJSON(string(b), 0); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	case formatYAML:
		var probs []Problem
		if v, probs = parseYAML(name, b); len(probs) > 0 {
			t.Fatalf("%s: %v", name, probs)
		}
	case formatTOML:
		f := &file{name: name}
		members, err := (&tomlParser{f: f}).parse(b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		switch {
		case f.hasBad:
			members = append(members, value.Member{Key: "cases", Value: f.notList})
		case f.vals != nil:
			members = append(members, value.Member{Key: "cases", Value: value.ArrayOf(f.vals...)})
		}
		if v, err = value.ObjectOf(members...); err != nil {
			t.Fatal(err)
		}
	default:
		t.Fatalf("%s: not a suite file", name)
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(v.String()))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return doc
}

// TestSchemaExamples: every example suite names the schema on its first
// line, as editors read it, loads, and validates against it.
func TestSchemaExamples(t *testing.T) {
	s := suiteSchema(t)
	n := 0
	err := filepath.WalkDir("../../examples", func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		ext := filepath.Ext(path)
		if strings.TrimSuffix(e.Name(), ext) != "suite" || formatOf(path) == formatUnknown {
			return nil
		}
		n++
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if formatOf(path) == formatYAML {
			rel, err := filepath.Rel(filepath.Dir(path), schemaFile)
			if err != nil {
				return err
			}
			want := "# yaml-language-server: $schema=" + filepath.ToSlash(rel)
			if first, _, _ := strings.Cut(string(b), "\n"); first != want {
				t.Errorf("%s: the first line is %q, want %q", path, first, want)
			}
		}
		if _, err := Load(path); err != nil {
			t.Errorf("%s does not load: %v", path, err)
		}
		if err := s.Validate(docOf(t, path, b)); err != nil {
			t.Errorf("%s: the schema rejects it: %v", path, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("found no example suite")
	}
}

// TestSchemaRejectsUnknownKeys: a key the loader (or, in a rule object,
// rulecore.Compile, which the engine and `callgrade check` run on every
// rule) rejects as unknown, the schema rejects too, at every level; and
// the same suite without it both accept.
func TestSchemaRejectsUnknownKeys(t *testing.T) {
	s := suiteSchema(t)
	// Each suite is YAML in flow style; X is where the unknown key goes.
	tests := []struct {
		name, suite string
		rule        bool // the key is in a rule object, which rulecore.Compile rejects
	}{
		{"top level", `{version: 1 X, cases: []}`, false},
		{"defaults", `{defaults: {calls: unordered X}}`, false},
		{"plugin", `{plugins: {geo: {command: [geo] X}}}`, false},
		{"bare tool", `{tools: [{name: f, parameters: {type: object} X}]}`, false},
		{"chat API tool", `{tools: [{type: function, function: {name: f} X}]}`, false},
		{"chat API function", `{tools: [{type: function, function: {name: f, strict: true X}}]}`, false},
		{"Responses API tool", `{tools: [{type: function, name: f, strict: true X}]}`, false},
		{"case", `{cases: [{id: a, expected: [] X}]}`, false},
		{"case tool", `{cases: [{id: a, expected: [], tools: [{name: f X}]}]}`, false},
		{"expected call", `{cases: [{id: a, expected: {name: f X}}]}`, false},
		{"expected list", `{cases: [{id: a, expected: [{name: f, arguments: {x: 1} X}]}]}`, false},
		{"alternative", `{cases: [{id: a, expected: [], alternatives: [[{name: f X}]]}]}`, false},
		{"step", `{cases: [{id: a, steps: [{name: f, result: {id: exact} X}]}]}`, false},
		{"one step", `{cases: [{id: a, steps: {name: f X}}]}`, false},
		{"never", `{cases: [{id: a, steps: [], never: [{name: f X}]}]}`, false},
		{"rule in a call", `{cases: [{id: a, expected: {name: f, rules: {x: {numeric: true X}}}}]}`, true},
		{"rule in defaults", `{defaults: {rules: {x: {tolerance: 0.5 X}}}, cases: [{id: a, expected: []}]}`, true},
		{"rule in a ruleset", `{rulesets: {r: {x: {ignore: true X}}}, cases: [{id: a, use: r, expected: []}]}`, true},
		{"rule in a step result", `{cases: [{id: a, steps: [{name: f, result: {id: {regex: "^o" X}}}]}]}`, true},
		{"final", `{cases: [{id: a, steps: [], final: {regex: done X}}]}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, bad := range []bool{false, true} {
				text := strings.Replace(tt.suite, " X", "", 1)
				if bad {
					text = strings.Replace(tt.suite, " X", ", bogus: 1", 1)
				}
				loadErr := loadAndCompile(t, text)
				schemaErr := s.Validate(docOf(t, "s.yaml", []byte(text)))
				switch {
				case !bad && loadErr != nil:
					t.Errorf("%s: the loader rejects it: %v", text, loadErr)
				case !bad && schemaErr != nil:
					t.Errorf("%s: the schema rejects it: %v", text, schemaErr)
				case bad && (loadErr == nil || !strings.Contains(loadErr.Error(), "unknown")):
					t.Errorf("%s: the loader does not reject the unknown key: %v", text, loadErr)
				case bad && schemaErr == nil:
					t.Errorf("%s: the loader rejects it (%v), the schema does not", text, loadErr)
				}
			}
		})
	}
}

// loadAndCompile loads a one-file YAML suite and compiles each of its
// rules, as the engine does: the error of the first that fails.
func loadAndCompile(t *testing.T, text string) error {
	t.Helper()
	st, err := LoadFS(fstest.MapFS{"s.yaml": {Data: []byte(text)}}, "s.yaml")
	if err != nil {
		return err
	}
	var all RuleSet
	all = append(all, st.Defaults.Rules...)
	for _, rs := range st.Rulesets {
		all = append(all, rs...)
	}
	var finals []value.Value
	for _, c := range st.Cases {
		for _, call := range c.Expected {
			all = append(all, call.Rules...)
		}
		for _, alt := range c.Alternatives {
			for _, call := range alt {
				all = append(all, call.Rules...)
			}
		}
		if c.Run != nil {
			for _, s := range c.Run.Steps {
				all = append(all, s.Rules...)
				all = append(all, s.Result...)
			}
			if c.Run.Final.Kind() != value.Null {
				finals = append(finals, c.Run.Final)
			}
		}
	}
	for _, r := range all {
		finals = append(finals, r.Rule)
	}
	for _, r := range finals {
		if _, err := rulecore.Compile(r, rules.Extensions{}); err != nil {
			return err
		}
	}
	return nil
}

// TestSchemaAcceptsTestdata: every suite the loader accepts among the
// repository's files under testdata, the seeds of this package's fuzz
// targets and the YAML blocks of docs/*.md, the schema accepts too. This
// is what keeps the schema from drifting from the loader in what it lets
// through; TestSchemaRejectsUnknownKeys keeps it closed where the loader
// is.
func TestSchemaAcceptsTestdata(t *testing.T) {
	s := suiteSchema(t)
	checked := map[string]int{}
	check := func(kind, label, name string, b []byte, loadErr error) {
		if loadErr != nil {
			return // not a suite, or one made to fail
		}
		checked[kind]++
		if err := s.Validate(docOf(t, name, b)); err != nil {
			t.Errorf("%s loads, but the schema rejects it: %v", label, err)
		}
	}
	err := filepath.WalkDir("..", func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			switch e.Name() {
			case ".git", "node_modules":
				return filepath.SkipDir
			}
			return nil
		}
		slash := filepath.ToSlash(path)
		if !strings.Contains(slash, "/testdata/") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if dir := filepath.Base(filepath.Dir(path)); strings.Contains(slash, "/testdata/fuzz/") && formatOf(path) == formatUnknown {
			// A fuzz seed of a suite: go test fuzz v1, then its bytes.
			name := map[string]string{"FuzzLoadYAML": "s.yaml", "FuzzFromJSON": "s.json", "FuzzLoadTOML": "s.toml"}[dir]
			_, lit, ok := strings.Cut(string(b), "[]byte(")
			data, err := strconv.Unquote(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(lit), ")")))
			if name == "" || !ok || err != nil {
				return nil
			}
			_, loadErr := LoadFS(fstest.MapFS{name: {Data: []byte(data)}}, name)
			check("fuzz seeds", slash+" (as "+name+")", name, []byte(data), loadErr)
			return nil
		}
		if formatOf(path) == formatUnknown || len(b) > 1<<20 {
			return nil
		}
		_, loadErr := Load(path)
		check("testdata files", path, path, b, loadErr)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	docs, _ := filepath.Glob("../../docs/*.md")
	for _, f := range docs {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, block := range strings.Split(string(b), "```yaml\n")[1:] {
			block, _, _ = strings.Cut(block, "```")
			_, loadErr := LoadFS(fstest.MapFS{"s.yaml": {Data: []byte(block)}}, "s.yaml")
			check("docs blocks", f+" yaml block "+strconv.Itoa(i+1), "s.yaml", []byte(block), loadErr)
		}
	}
	t.Logf("suites that load and validate: %v", checked)
	if checked["testdata files"] < 5 || checked["fuzz seeds"] < 3 {
		t.Errorf("only %v suites load; the walk is looking in the wrong place", checked)
	}
}

// TestSchemaGuards: generating fails, rather than writing a schema that
// drifted, when a decoder table names a key the generator has no schema
// for or the other way round, and the rule names it reads from
// rulecore.Compile are the ones docs/rules.md lists.
func TestSchemaGuards(t *testing.T) {
	panics := func(name string, f func()) {
		t.Helper()
		defer func() {
			if recover() == nil {
				t.Errorf("%s: no panic", name)
			}
		}()
		f()
	}
	panics("a key without a schema", func() { closed("t", keyList("a, b"), map[string]any{"a": obj{}}) })
	panics("a schema without a key", func() { closed("t", keyList("a"), map[string]any{"a": obj{}, "b": obj{}}) })
	panics("no list to read", func() { nameList("unknown rule property", "the properties are ", "") })

	props, shorthands := ruleNames()
	for _, want := range []string{"exact", "regex", "one_of", "from", "params", "extra_fields"} {
		if !slices.Contains(props, want) {
			t.Errorf("rule properties %v lack %s", props, want)
		}
	}
	if want := []string{"exact", "numeric", "case_insensitive", "unordered", "ignore", "optional"}; !slices.Equal(shorthands, want) {
		t.Errorf("shorthands %v, want %v", shorthands, want)
	}
}
