package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/callgrade/callgrade"
	"github.com/callgrade/callgrade/bfcl"
)

// localResults is bfcl/testdata/local's results file of a Qwen3-Coder
// model, whose calls are raw text; localQuestions are its questions.
const (
	localResults   = "bfcl/testdata/local/BFCL_v4_parallel_result.json"
	localQuestions = "bfcl/testdata/local/questions.json"
	localAnswers   = "bfcl/testdata/local/answers.json"
)

// TestImportBFCLLocalResults: import bfcl --results reads a local model's
// text by its markers, types Qwen3-Coder's values with --questions, and
// the cases then pass; without the questions the values are strings, and
// fail.
func TestImportBFCLLocalResults(t *testing.T) {
	dir := t.TempDir()
	suite, typed, untyped := filepath.Join(dir, "suite.yaml"), filepath.Join(dir, "typed.jsonl"), filepath.Join(dir, "untyped.jsonl")
	r := runCLI(t, "import", "bfcl", "--questions", localQuestions, "--answers", localAnswers, "--out", suite,
		"--results", localResults, "--responses-out", typed)
	if r.code != 0 || strings.Contains(r.stderr, "warning") {
		t.Fatalf("import exit %d: %s", r.code, r.stderr)
	}
	data, err := os.ReadFile(typed)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"id":"parallel_0","response":[{"name":"spotify.play","arguments":{"artist":"Taylor Swift","duration":20}},{"name":"spotify.play","arguments":{"artist":"Maroon 5","duration":15}}]}`; !strings.HasPrefix(string(data), want+"\n") {
		t.Errorf("responses:\n%s\nwant them to begin with\n%s", data, want)
	}
	// --questions without --out: only the types.
	if r := runCLI(t, "import", "bfcl", "--questions", localQuestions, "--results", localResults, "--responses-out", typed+"2"); r.code != 0 {
		t.Fatalf("import --questions --results exit %d: %s", r.code, r.stderr)
	} else if again, _ := os.ReadFile(typed + "2"); string(again) != string(data) {
		t.Errorf("--questions without --out wrote\n%s\nwant\n%s", again, data)
	}
	if r := runCLI(t, "import", "bfcl", "--results", localResults, "--responses-out", untyped); r.code != 0 {
		t.Fatalf("import exit %d: %s", r.code, r.stderr)
	}

	for _, tt := range []struct {
		responses string
		pass      int
	}{{typed, 3}, {untyped, 0}} {
		r := runCLI(t, "score", "--suite", suite, "--responses", tt.responses, "--format", "calls", "--quiet")
		if r.code != 0 {
			t.Fatalf("score exit %d: %s", r.code, r.stderr)
		}
		pass := 0
		for _, l := range resultLines(t, r.stdout) {
			if l["pass"] == true {
				pass++
			}
		}
		if pass != tt.pass {
			t.Errorf("%s: %d cases pass, want %d:\n%s", filepath.Base(tt.responses), pass, tt.pass, r.stdout)
		}
	}
}

// TestImportBFCLTextFormat: --text-format reads every string result in
// one text format; a call that does not read in it is a warning and a
// call that fails as invalid_arguments. An unknown name is a usage error
// that lists the text formats, and writes nothing.
func TestImportBFCLTextFormat(t *testing.T) {
	dir := t.TempDir()
	results := writeFile(t, dir, "result.json",
		`{"id": "simple_python_1", "result": "{\"name\": \"math.factorial\", \"parameters\": {\"number\": 5}}"}`+"\n"+
			`{"id": "simple_python_0", "result": "<tool_call>\n{\"name\": \"calculate_triangle_area\", \"arguments\": {\"base\": 10, \"height\": 5}}\n</tool_call>"}`+"\n"+
			`{"id": "parallel_0", "result": "<tool_call>\n<function=spotify.play>\n<parameter=artist>\nMaroon 5\n</parameter>\n</function>\n</tool_call>"}`+"\n")
	out := filepath.Join(dir, "responses.jsonl")
	hermes := `{"id":"simple_python_0","response":[{"name":"calculate_triangle_area","arguments":{"base":10,"height":5}}]}`

	for _, tt := range []struct {
		format string
		want   []string // the response lines, each a prefix
		warn   string   // the one result warned of
	}{
		// By markers: Llama's JSON without <|python_tag|> is no Python,
		// and fails; the Hermes and Qwen3-Coder blocks read.
		{"auto", []string{`{"id":"simple_python_1","response":[{"name":"","arguments":"\"{\\\"name\\\"`, hermes,
			`{"id":"parallel_0","response":[{"name":"spotify.play","arguments":{"artist":"Maroon 5"}}]}`},
			"line 1: result simple_python_1: line 1, column 1"},
		// llama-json reads the JSON call; a text that does not begin with
		// one is an answer, no call.
		{"llama-json", []string{`{"id":"simple_python_1","response":[{"name":"math.factorial","arguments":{"number":5}}]}`,
			`{"id":"simple_python_0","response":[]}`, `{"id":"parallel_0","response":[]}`}, ""},
		// hermes reads its block; Qwen3-Coder's is no JSON in it.
		{"HERMES", []string{`{"id":"simple_python_1","response":[]}`, hermes,
			`{"id":"parallel_0","response":[{"name":"","arguments":"hermes: call 0: text[12:`},
			"line 3: result parallel_0: hermes: call 0: text[12:"},
	} {
		r := runCLI(t, "import", "bfcl", "--results", results, "--responses-out", out, "--text-format", tt.format)
		if r.code != 0 {
			t.Fatalf("--text-format %s: exit %d: %s", tt.format, r.code, r.stderr)
		}
		if n := strings.Count(r.stderr, "warning: "); tt.warn == "" && n != 0 || tt.warn != "" && (n != 1 || !strings.Contains(r.stderr, "warning: "+results+" "+tt.warn)) {
			t.Errorf("--text-format %s: stderr\n%s\nwant a warning of %q alone", tt.format, r.stderr, tt.warn)
		}
		data, _ := os.ReadFile(out)
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		if len(lines) != len(tt.want) {
			t.Fatalf("--text-format %s: responses\n%s", tt.format, data)
		}
		for i, w := range tt.want {
			if !strings.HasPrefix(lines[i], w) {
				t.Errorf("--text-format %s: response %d\n%s\nwant it to begin with\n%s", tt.format, i+1, lines[i], w)
			}
		}
	}

	os.Remove(out)
	for _, args := range [][]string{
		{"--results", results, "--responses-out", out, "--text-format", "xml"},
		{"--results", results, "--responses-out", out, "--text-format", "openai"},
	} {
		r := runCLI(t, append([]string{"import", "bfcl"}, args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, "--text-format: unknown text format") ||
			!strings.Contains(r.stderr, "hermes, qwen-coder, llama-json, mistral, deepseek, harmony, pythonic") {
			t.Errorf("%v: exit %d, want 2 and the text formats listed:\n%s", args, r.code, r.stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v wrote %s", args, out)
		}
	}
	r := runCLI(t, "import", "bfcl", "--questions", localQuestions, "--out", filepath.Join(dir, "s.yaml"), "--text-format", "hermes")
	if r.code != 2 || !strings.Contains(r.stderr, "--text-format needs --results") {
		t.Errorf("--text-format without --results: exit %d:\n%s", r.code, r.stderr)
	}
	if !strings.Contains(runCLI(t, "import", "bfcl", "--help").stdout, "--text-format string") {
		t.Error("import bfcl --help does not show --text-format")
	}
}

// TestParseTextFormat: --text-format takes the text formats, in any case,
// and auto; any other name, a format that is not a text format among
// them, is an error that lists them, worded as bfcl.ConvertResults words
// a format it does not take.
func TestParseTextFormat(t *testing.T) {
	formats := textFormats()
	if strings.Join(formats, ", ") != "hermes, qwen-coder, llama-json, mistral, deepseek, harmony, pythonic" {
		t.Errorf("text formats %q", formats)
	}
	for _, f := range formats {
		if got, err := parseTextFormat(strings.ToUpper(f)); err != nil || string(got) != f {
			t.Errorf("parseTextFormat(%q) = %q, %v", strings.ToUpper(f), got, err)
		}
	}
	for _, s := range []string{"", "auto", "AUTO"} {
		if got, err := parseTextFormat(s); err != nil || got != "" {
			t.Errorf("parseTextFormat(%q) = %q, %v; want auto", s, got, err)
		}
	}
	for _, s := range []string{"xml", "openai", "calls"} {
		_, err := parseTextFormat(s)
		_, _, cerr := bfcl.ConvertResults(strings.NewReader(""), "r.json", io.Discard, bfcl.ResultOptions{Format: callgrade.Format(s)})
		if err == nil || cerr == nil || err.Error() != cerr.Error() ||
			!strings.Contains(err.Error(), "hermes, qwen-coder, llama-json, mistral, deepseek, harmony, pythonic") {
			t.Errorf("parseTextFormat(%q) error = %v, bfcl's %v: want the same, listing the text formats", s, err, cerr)
		}
	}
}

// TestParseSemantics: --semantics of import bfcl and bfcl score takes bfcl
// (the default) and callgrade; import acebench takes callgrade alone and
// refuses acebench with the reason.
func TestParseSemantics(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want bfcl.Semantics
		err  string
	}{
		{"", bfcl.SemanticsBFCL, ""},
		{"bfcl", bfcl.SemanticsBFCL, ""},
		{"callgrade", bfcl.SemanticsCallgrade, ""},
		{"BFCL", "", `unknown semantics "BFCL"; want bfcl or callgrade`},
		{"acebench", "", `unknown semantics "acebench"; want bfcl or callgrade`},
	} {
		got, err := parseBFCLSemantics(tt.in)
		if got != tt.want || tt.err == "" && err != nil || tt.err != "" && (err == nil || err.Error() != tt.err) {
			t.Errorf("parseBFCLSemantics(%q) = %q, %v; want %q, %q", tt.in, got, err, tt.want, tt.err)
		}
	}
	for _, tt := range []struct{ in, err string }{
		{"", ""},
		{"callgrade", ""},
		{"acebench", `semantics "acebench" is not offered: ACEBench's checker has defects that callgrade documents (docs/acebench.md) instead of reproducing; want callgrade`},
		{"bfcl", `unknown semantics "bfcl"; want callgrade`},
	} {
		err := parseACEBenchSemantics(tt.in)
		if tt.err == "" && err != nil || tt.err != "" && (err == nil || err.Error() != tt.err) {
			t.Errorf("parseACEBenchSemantics(%q) = %v; want %q", tt.in, err, tt.err)
		}
	}
}
