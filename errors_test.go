package callgrade_test

import (
	"errors"
	"github.com/callgrade/callgrade/internal/rulecore"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/callgrade/callgrade"
	"github.com/callgrade/callgrade/dsl"
	"github.com/callgrade/callgrade/internal/errcode"
	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/plugins"
	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/value"
)

// A suite file, one case that expects no call, with extra keys at the top
// level (top) and in the case (inCase).
func suiteYAML(top, inCase string) string {
	return top + "cases:\n  - id: a\n    expected: []\n" + inCase
}

// A suite file whose one case expects a call f(x: 1) with rules.
func ruleYAML(top, rule string) string {
	return top + "cases:\n  - id: a\n    expected:\n      name: f\n      arguments: {x: 1}\n      rules:\n        " + rule + "\n"
}

// openFiles writes files into a new directory and opens the suite of the
// first one named.
func openFiles(t *testing.T, names []string, files map[string]string) error {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	paths := make([]string, len(names))
	for i, n := range names {
		paths[i] = filepath.Join(dir, n)
	}
	g, err := callgrade.Open(paths, callgrade.Options{})
	if err == nil {
		g.Close()
	}
	return err
}

func openYAML(t *testing.T, text string) error {
	t.Helper()
	return openFiles(t, []string{"suite.yaml"}, map[string]string{"suite.yaml": text})
}

var (
	testPluginOnce sync.Once
	testPluginPath string
	testPluginErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if testPluginPath != "" {
		os.RemoveAll(filepath.Dir(testPluginPath))
	}
	os.Exit(code)
}

// testPlugin builds the plugins package's misbehaving test plugin.
func testPlugin(t *testing.T) string {
	t.Helper()
	testPluginOnce.Do(func() {
		dir, err := os.MkdirTemp("", "callgrade-codes-test")
		if err != nil {
			testPluginErr = err
			return
		}
		out := filepath.Join(dir, "testplugin")
		if runtime.GOOS == "windows" {
			out += ".exe"
		}
		b, err := exec.Command("go", "build", "-o", out, "./plugins/internal/testplugin").CombinedOutput()
		if err != nil {
			testPluginErr = errors.New(string(b))
			return
		}
		testPluginPath = out
	})
	if testPluginErr != nil {
		t.Fatalf("go build testplugin: %v", testPluginErr)
	}
	return testPluginPath
}

// compareWith starts the test plugin with args and compares expected and
// actual with its comparator eq, returning the outcome's error.
func compareWith(t *testing.T, args []string, expected, actual string) error {
	t.Helper()
	h, err := plugins.Open(map[string]suite.Plugin{"p": {Command: append([]string{testPlugin(t)}, args...)}}, plugins.Options{Logger: hclog.NewNullLogger()})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	c, err := h.Comparator("p.eq", value.Value{})
	if err != nil {
		t.Fatal(err)
	}
	e, _ := value.Parse(expected)
	a, _ := value.Parse(actual)
	return c.Compare(&rules.Input{Path: "x", Expected: e, Actual: a}).Err
}

// tooDeep nests deeper than the default limits allow.
var tooDeep = strings.Repeat("[", 300) + strings.Repeat("]", 300)

// codeTest is a code and a failing input, through the entry point a
// caller uses, that gives an error with it.
type codeTest struct {
	code callgrade.Code
	err  func(t *testing.T) error
}

// codeTests are the rows of TestCodes: each code of errcode.All at
// least once.
var codeTests = []codeTest{
	{callgrade.CodeNoSuiteFile, func(t *testing.T) error {
		_, err := callgrade.Open(nil, callgrade.Options{})
		return err
	}},
	{callgrade.CodeUnknownFormat, func(t *testing.T) error {
		return openFiles(t, []string{"suite.txt"}, map[string]string{"suite.txt": suiteYAML("", "")})
	}},
	{callgrade.CodeReadFailed, func(t *testing.T) error {
		return openFiles(t, []string{"missing.yaml"}, nil)
	}},
	{callgrade.CodeSyntaxError, func(t *testing.T) error { return openYAML(t, "cases: [\n") }},
	{callgrade.CodeSyntaxError, func(t *testing.T) error {
		return openFiles(t, []string{"s.json"}, map[string]string{"s.json": `{"cases": [}`})
	}},
	{callgrade.CodeSyntaxError, func(t *testing.T) error {
		return openFiles(t, []string{"s.toml"}, map[string]string{"s.toml": "cases = [\n"})
	}},
	{callgrade.CodeDuplicateKey, func(t *testing.T) error { return openYAML(t, suiteYAML("version: 1\nversion: 1\n", "")) }},
	{callgrade.CodeDuplicateKey, func(t *testing.T) error {
		return openFiles(t, []string{"s.json"}, map[string]string{"s.json": `{"cases": [{"id": "a", "id": "b", "expected": []}]}`})
	}},
	{callgrade.CodeUnknownKey, func(t *testing.T) error { return openYAML(t, suiteYAML("bogus: 1\n", "")) }},
	{callgrade.CodeUnknownKey, func(t *testing.T) error { return openYAML(t, ruleYAML("", "x: {bogus: 1}")) }},
	{callgrade.CodeMissingKey, func(t *testing.T) error { return openYAML(t, "cases:\n  - expected: []\n") }},
	{callgrade.CodeWrongType, func(t *testing.T) error { return openYAML(t, "cases: 3\n") }},
	{callgrade.CodeInvalidValue, func(t *testing.T) error {
		return openYAML(t, suiteYAML("defaults: {extra_fields: maybe}\n", ""))
	}},
	{callgrade.CodeConflictingKeys, func(t *testing.T) error {
		return openYAML(t, suiteYAML("tools: []\ntools_file: tools.json\n", ""))
	}},
	{callgrade.CodeDuplicateCase, func(t *testing.T) error {
		return openYAML(t, suiteYAML("", "  - id: a\n    expected: []\n"))
	}},
	{callgrade.CodeDuplicateTool, func(t *testing.T) error {
		return openYAML(t, suiteYAML("tools:\n  - type: function\n    function: {name: f}\n  - type: function\n    function: {name: f}\n", ""))
	}},
	{callgrade.CodeUnknownRuleset, func(t *testing.T) error { return openYAML(t, suiteYAML("", "    use: [nope]\n")) }},
	{callgrade.CodeLimitExceeded, func(t *testing.T) error {
		return openFiles(t, []string{"s.json"}, map[string]string{"s.json": `{"cases": [{"id": "a", "expected": [], "x": ` + tooDeep + `}]}`})
	}},
	{callgrade.CodeLimitExceeded, func(t *testing.T) error {
		_, err := value.Parse(tooDeep)
		return err
	}},
	{callgrade.CodeLimitExceeded, func(t *testing.T) error {
		_, err := dsl.NewCompiler(dsl.Options{MaxLength: 4}).Compile("actual == expected")
		return err
	}},
	{callgrade.CodeRuleCompileError, func(t *testing.T) error { return openYAML(t, ruleYAML("", `x: {regex: "("}`)) }},
	{callgrade.CodeInvalidPath, func(t *testing.T) error { return openYAML(t, ruleYAML("", `"x..y": {type: number}`)) }},
	{callgrade.CodeExpressionCompileError, func(t *testing.T) error { return openYAML(t, ruleYAML("", `x: {expr: "actual +"}`)) }},
	{callgrade.CodeExpressionRuntimeError, func(t *testing.T) error {
		e, err := dsl.NewCompiler(dsl.Options{}).Compile("actual[3] == 1")
		if err != nil {
			t.Fatal(err)
		}
		a, _ := value.Parse("[1]")
		return e.Compare(&rules.Input{Path: "x", Actual: a, Expected: a}).Err
	}},
	{callgrade.CodePluginUnavailable, func(t *testing.T) error {
		return openYAML(t, suiteYAML("plugins:\n  p: {command: [/nonexistent/callgrade-plugin]}\n", ""))
	}},
	{callgrade.CodePluginUnavailable, func(t *testing.T) error {
		return openYAML(t, suiteYAML("plugins:\n  p: {command: ["+testPlugin(t)+", -mode, exit]}\n", ""))
	}},
	{callgrade.CodePluginChecksumMismatch, func(t *testing.T) error {
		return openYAML(t, suiteYAML("plugins:\n  p: {command: ["+testPlugin(t)+"], sha256: "+strings.Repeat("ab", 32)+"}\n", ""))
	}},
	{callgrade.CodePluginProtocolError, func(t *testing.T) error {
		return compareWith(t, []string{"-mode", "wrongcount"}, "1", "1")
	}},
	{callgrade.CodePluginCrashed, func(t *testing.T) error { return compareWith(t, nil, "1", `"crash!"`) }},
	{callgrade.CodeUnknownComparator, func(t *testing.T) error {
		return openYAML(t, ruleYAML("plugins:\n  p: {command: ["+testPlugin(t)+"]}\n", "x: {plugin: p.nope}"))
	}},
}

// Each code is produced by a real failing input, through the entry point a
// caller uses, and errors.Is finds it; the messages are the same as before
// codes (the golden tests of each package pin them).
func TestCodes(t *testing.T) {
	tested := map[callgrade.Code]bool{}
	for _, tt := range codeTests {
		t.Run(string(tt.code), func(t *testing.T) {
			err := tt.err(t)
			if err == nil {
				t.Fatalf("no error; want %s", tt.code)
			}
			if !errors.Is(err, tt.code) {
				t.Fatalf("errors.Is(err, %s) is false for %v", tt.code, err)
			}
			// A suite's problems each carry their code, for a caller
			// listing them.
			var se *suite.Error
			if errors.As(err, &se) && !slices.ContainsFunc(se.Problems, func(p suite.Problem) bool { return p.Code == tt.code }) {
				t.Errorf("no problem has code %s: %+v", tt.code, se.Problems)
			}
			if errors.Is(err, callgrade.Code("no_such_code")) {
				t.Errorf("errors.Is finds a code nothing has in %v", err)
			}
		})
		tested[tt.code] = true
	}
	for _, c := range errcode.All {
		if !tested[c] {
			t.Errorf("code %s is produced by no test", c)
		}
	}
}

// A rule's errors keep their general code beside the finer one, and an
// error wrapped with %w keeps its codes.
func TestCodesNest(t *testing.T) {
	err := openYAML(t, ruleYAML("", `x: {expr: "actual +"}`))
	for _, c := range []callgrade.Code{callgrade.CodeRuleCompileError, callgrade.CodeExpressionCompileError} {
		if !errors.Is(err, c) {
			t.Errorf("errors.Is(err, %s) is false for %v", c, err)
		}
	}
	_, err = rulecore.Compile(value.StringOf("nope"), rules.Extensions{})
	if !errors.Is(err, callgrade.CodeRuleCompileError) || errors.Is(err, callgrade.CodeUnknownKey) {
		t.Errorf("an unknown shorthand: want rule_compile_error and not unknown_key, got %v", err)
	}
	wrapped := errors.Join(errors.New("loading"), openYAML(t, "cases: 3\n"))
	if !errors.Is(wrapped, callgrade.CodeWrongType) {
		t.Errorf("a wrapped suite error lost its code: %v", wrapped)
	}
}

// Every code is documented in docs/library.md, under its name.
func TestCodesDocumented(t *testing.T) {
	b, err := os.ReadFile("docs/library.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range errcode.All {
		if !strings.Contains(string(b), "`"+string(c)+"`") {
			t.Errorf("docs/library.md does not document %s", c)
		}
	}
}
