package report

import (
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/callgrade/callgrade/engine"
	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/results"
)

var update = flag.Bool("update", false, "rewrite the golden files (and the screenshot) under testdata")

// loadFixture reads testdata/results.jsonl, which `callgrade score` wrote
// from testdata/suite.yaml and testdata/responses.jsonl; annotate adds the
// suite and the responses.
func loadFixture(t testing.TB, annotate bool) []Case {
	t.Helper()
	return loadDir(t, "testdata", annotate)
}

// loadDir reads dir/results.jsonl; annotate adds dir/suite.yaml and
// dir/responses.jsonl, from which it was written.
func loadDir(t testing.TB, dir string, annotate bool) []Case {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cases, err := ReadResults(f, "results.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if annotate {
		s, err := suite.Load(filepath.Join(dir, "suite.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		Annotate(cases, s)
		r, err := os.Open(filepath.Join(dir, "responses.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		if err := AttachResponses(cases, r, format.Auto); err != nil {
			t.Fatal(err)
		}
	}
	return cases
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./report -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the output (go test ./report -update rewrites it):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

func TestWriteTable(t *testing.T) {
	tests := []struct {
		golden   string
		annotate bool
		color    bool
	}{
		{"table.golden", true, false},
		{"table-color.golden", true, true},
		{"table-no-suite.golden", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteTable(&b, Summarize(loadFixture(t, tt.annotate)), TableOptions{Color: tt.color}); err != nil {
				t.Fatal(err)
			}
			if hasEscape := strings.Contains(b.String(), "\x1b["); hasEscape != tt.color {
				t.Errorf("colour codes present = %v, want %v", hasEscape, tt.color)
			}
			golden(t, tt.golden, b.Bytes())
		})
	}
}

func TestSummarizeMatchesTheRun(t *testing.T) {
	s := Summarize(loadFixture(t, true))
	want := engine.Summary{Cases: 10, Passed: 3, Failed: 7, Missing: 1, Errored: 2, Unknown: 1}
	if s.Cases != want.Cases || s.Passed != want.Passed || s.Failed != want.Failed || s.Missing != want.Missing ||
		s.Errored != want.Errored || s.Unknown != want.Unknown {
		t.Errorf("summary %+v, want %+v", *s, want)
	}
	if got := s.ByTool["get_weather"]; got == nil || got.Cases != 4 || got.Passed != 1 {
		t.Errorf("get_weather tally %+v, want 4 cases, 1 passed", got)
	}
}

// writeJUnitTest is the JUnit XML a fixture's report should give: its
// testsuites, in order, with their counts, and parts of the messages of
// some cases' failures and errors.
type writeJUnitTest struct {
	name       string
	annotate   bool
	suites     []string // testsuite names in order
	tests      []int
	failures   []int
	errors     []int
	failureFor map[string]string // case id -> a part of its failure message
	errorFor   map[string]string // case id -> a part of its error message
}

// writeJUnitTests are the rows of TestWriteJUnit: the fixture with its
// suite and without.
var writeJUnitTests = []writeJUnitTest{
	{"with suite", true, []string{"testdata/suite.yaml", "responses that name no case"}, []int{10, 1}, []int{5, 1}, []int{2, 0},
		map[string]string{"weather-wrong-unit": "mismatch unit: ", "flights-nested": "filters.max_price", "stranger": "unknown_case"},
		map[string]string{"email-broken-json": "invalid_arguments", "email-missing": "missing_response"}},
	{"without suite", false, []string{"callgrade", "responses that name no case"}, []int{10, 1}, []int{5, 1}, []int{2, 0},
		map[string]string{"two-calls": "missing_call"},
		map[string]string{"email-missing": "missing_response"}},
}

// parsedJUnit is what TestWriteJUnit reads back of WriteJUnit's XML.
type parsedJUnit struct {
	XMLName  xml.Name `xml:"testsuites"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Errors   int      `xml:"errors,attr"`
	Suites   []struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Errors   int    `xml:"errors,attr"`
		Cases    []struct {
			Name      string         `xml:"name,attr"`
			Classname string         `xml:"classname,attr"`
			Failure   *parsedProblem `xml:"failure"`
			Error     *parsedProblem `xml:"error"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

// parsedProblem is a <failure> or an <error> of a parsedJUnit testcase.
type parsedProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// TestWriteJUnit: the XML has the testsuites, counts, and failure and
// error elements of the report, and its counts agree with its elements.
func TestWriteJUnit(t *testing.T) {
	for _, tt := range writeJUnitTests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteJUnit(&b, loadFixture(t, tt.annotate), JUnitOptions{}); err != nil {
				t.Fatal(err)
			}
			var doc parsedJUnit
			if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
				t.Fatalf("not XML: %v\n%s", err, b.String())
			}
			if len(doc.Suites) != len(tt.suites) {
				t.Fatalf("%d testsuites, want %d", len(doc.Suites), len(tt.suites))
			}
			check := func(kind, id string, p *parsedProblem, want map[string]string) {
				if p.Message == "" || p.Type == "" {
					t.Errorf("%s: %s without message or type", id, kind)
				}
				if w, ok := want[id]; ok && (!strings.Contains(p.Message, w) || p.Type != w && kind == "error") {
					t.Errorf("%s: %s type %q message %q, want %q in it", id, kind, p.Type, p.Message, w)
				}
			}
			total, failed, errored := 0, 0, 0
			for i, s := range doc.Suites {
				if s.Name != tt.suites[i] || s.Tests != tt.tests[i] || s.Failures != tt.failures[i] || s.Errors != tt.errors[i] {
					t.Errorf("testsuite %d: %q tests=%d failures=%d errors=%d, want %q %d %d %d",
						i, s.Name, s.Tests, s.Failures, s.Errors, tt.suites[i], tt.tests[i], tt.failures[i], tt.errors[i])
				}
				if len(s.Cases) != s.Tests {
					t.Errorf("testsuite %q says tests=%d but has %d testcases", s.Name, s.Tests, len(s.Cases))
				}
				nf, ne := 0, 0
				for _, c := range s.Cases {
					if c.Name == "" || c.Classname == "" {
						t.Errorf("testcase without name or classname: %+v", c)
					}
					if c.Failure != nil && c.Error != nil {
						t.Errorf("%s: both a failure and an error", c.Name)
					}
					if _, ok := tt.errorFor[c.Name]; ok && c.Error == nil {
						t.Errorf("%s: errored, but no <error>", c.Name)
					}
					if c.Failure != nil {
						nf++
						check("failure", c.Name, c.Failure, tt.failureFor)
					}
					if c.Error != nil {
						ne++
						check("error", c.Name, c.Error, tt.errorFor)
					}
				}
				if nf != s.Failures || ne != s.Errors {
					t.Errorf("testsuite %q says failures=%d errors=%d but has %d failure and %d error elements", s.Name, s.Failures, s.Errors, nf, ne)
				}
				total += s.Tests
				failed += s.Failures
				errored += s.Errors
			}
			if doc.Tests != total || doc.Failures != failed || doc.Errors != errored {
				t.Errorf("testsuites tests=%d failures=%d errors=%d, want the sums %d %d %d", doc.Tests, doc.Failures, doc.Errors, total, failed, errored)
			}
		})
	}
}

func TestCompare(t *testing.T) {
	c := func(id, tool string, pass bool) Case {
		k := Case{Result: engine.Result{ID: id, Tool: tool, Pass: pass}, Expected: []byte("[]")}
		if !pass {
			k.Diffs = []engine.Diff{{Kind: results.Mismatch, Path: "x"}}
		}
		return k
	}
	tests := []struct {
		name                string
		old, new            []Case
		regressed, fixed    []string
		added, removed      []string
		worstTool           string
		worstDelta, allDiff float64
	}{
		{"no change", []Case{c("a", "f", true), c("b", "g", false)}, []Case{c("a", "f", true), c("b", "g", false)},
			nil, nil, nil, nil, "f", 0, 0},
		{"one regressed one fixed", []Case{c("a", "f", true), c("b", "g", false), c("c", "f", true)},
			[]Case{c("a", "f", false), c("b", "g", true), c("c", "f", true)},
			[]string{"a"}, []string{"b"}, nil, nil, "f", -0.5, 0},
		{"added and removed", []Case{c("a", "f", true), c("gone", "f", true)}, []Case{c("a", "f", true), c("new", "g", false)},
			nil, nil, []string{"new"}, []string{"gone"}, "f", 0, -0.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Compare(tt.old, tt.new)
			ids := func(ch []Change) []string {
				var out []string
				for _, x := range ch {
					out = append(out, x.ID)
				}
				return out
			}
			eq := func(what string, a, b []string) {
				if strings.Join(a, ",") != strings.Join(b, ",") {
					t.Errorf("%s %v, want %v", what, a, b)
				}
			}
			eq("regressed", ids(got.Regressed), tt.regressed)
			eq("fixed", ids(got.Fixed), tt.fixed)
			eq("added", got.Added, tt.added)
			eq("removed", got.Removed, tt.removed)
			if len(got.ByTool) == 0 || got.ByTool[0].Tool != tt.worstTool || got.ByTool[0].Delta() != tt.worstDelta {
				t.Errorf("worst tool %+v, want %s with %v", got.ByTool, tt.worstTool, tt.worstDelta)
			}
			if d := got.All.Delta(); d != tt.allDiff {
				t.Errorf("overall change %v, want %v", d, tt.allDiff)
			}
			var b bytes.Buffer
			if err := got.WriteText(&b, TableOptions{}); err != nil {
				t.Fatal(err)
			}
			for _, id := range tt.regressed {
				if !strings.Contains(b.String(), "regressed (passed before, fail now):\n  "+id) {
					t.Errorf("text does not list %s as regressed:\n%s", id, b.String())
				}
			}
		})
	}
}

func TestReadResultsErrors(t *testing.T) {
	const good = `{"id":"a","pass":true,"score":1,"calls":[],"diffs":[]}` + "\n"
	tests := []struct{ name, text, want string }{
		{"not json", good + "nope\n", `r.jsonl:2: not a results line: invalid JSON`},
		{"not an object", good + "[1]\n", `r.jsonl:2: not a results line: a list, not an object`},
		{"null", "null\n", `r.jsonl:1: not a results line: null, not an object`},
		{"responses line", `{"id":"a","response":[]}` + "\n", `r.jsonl:1: not a results line: no "pass" (is this a responses file?)`},
		{"no id", `{"pass":true,"score":1,"calls":[],"diffs":[]}` + "\n", `r.jsonl:1: not a results line: no "id"`},
		{"empty id", `{"id":"","pass":true,"score":1,"calls":[],"diffs":[]}` + "\n", `r.jsonl:1: not a results line: "id" is empty`},
		{"number id", `{"id":7,"pass":true,"score":1,"calls":[],"diffs":[]}` + "\n", `r.jsonl:1: not a results line: "id" is a number, not a string`},
		{"pass a string", `{"id":"a","pass":"yes","score":1,"calls":[],"diffs":[]}` + "\n", `"pass" is a string, not a bool`},
		{"no score", `{"id":"a","pass":true,"calls":[],"diffs":[]}` + "\n", `r.jsonl:1: not a results line: no "score"`},
		{"score null", `{"id":"a","pass":true,"score":null,"calls":[],"diffs":[]}` + "\n", `"score" is null, not a number`},
		{"no calls", `{"id":"a","pass":true,"score":1,"diffs":[]}` + "\n", `r.jsonl:1: not a results line: no "calls"`},
		{"diffs an object", `{"id":"a","pass":true,"score":1,"calls":[],"diffs":{}}` + "\n", `"diffs" is an object, not a list`},
		{"a diff not an object", `{"id":"a","pass":true,"score":1,"calls":[],"diffs":[1]}` + "\n", `r.jsonl:1: not a results line: "diffs" is a number, not an object`},
		{"a kind not a string", `{"id":"a","pass":true,"score":1,"calls":[],"diffs":[{"kind":3}]}` + "\n", `"diffs.kind" is a number, not a string`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadResults(strings.NewReader(tt.text), "r.jsonl")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
			var le *results.LineError
			if !errors.As(err, &le) || le.File != "r.jsonl" || le.Line == 0 {
				t.Errorf("error %#v is not a *results.LineError naming r.jsonl and a line", err)
			}
		})
	}
	if _, err := ReadResults(strings.NewReader(good+"\n"+strings.Replace(good, `"a"`, `"b"`, 1)), "r.jsonl"); err != nil {
		t.Errorf("results lines with a blank line between: %v", err)
	}
	// A second line for a case, or for a sample of one, is refused; the
	// lines of responses that name no case may repeat their id.
	unknown := string(unknownCase("zz").AppendJSON(nil)) + "\n"
	sample := func(k int) string {
		return fmt.Sprintf(`{"id":"s","sample":%d,"pass":true,"score":1,"calls":[],"diffs":[]}`+"\n", k)
	}
	for _, tt := range []struct{ text, want string }{
		{good + unknown + good, `r.jsonl:3: not a results line: a second line for case "a" (the first is line 1)`},
		{sample(0) + sample(1) + sample(1), `r.jsonl:3: not a results line: a second line for sample 1 of case "s" (the first is line 2)`},
		{good + unknown + unknown + sample(0) + sample(1), ""},
	} {
		_, err := ReadResults(strings.NewReader(tt.text), "r.jsonl")
		if tt.want == "" && err != nil || tt.want != "" && (err == nil || err.Error() != tt.want) {
			t.Errorf("%q: error %v, want %q", tt.text, err, tt.want)
		}
	}
}

// A response may have the id "": score writes its unknown_case line with
// it, and what score writes reads back.
func TestReadResultsUnknownEmptyID(t *testing.T) {
	r := unknownCase("")
	cases, err := ReadResults(bytes.NewReader(append(r.AppendJSON(nil), '\n')), "r.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 1 || !cases[0].Unknown || cases[0].ID != "" {
		t.Errorf("read as %+v, want one unknown case with the id \"\"", cases)
	}
}

// AttachResponses reads responses files as scoring does: gzip-compressed or
// not, with or without a byte order mark, ids as strings or as numbers.
func TestAttachResponsesReadsWhatScoringReads(t *testing.T) {
	const text = "\xef\xbb\xbf" + `{"id":"a","response":[{"name":"f","arguments":{"x":1}}]}` + "\n" +
		`{"id":17,"response":[{"name":"g","arguments":"{\"y\":2}"}]}` + "\n"
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	zw.Write([]byte(text))
	zw.Close()
	for name, in := range map[string]string{"plain": text, "gzip": zipped.String()} {
		cases := []Case{{Result: engine.Result{ID: "a"}}, {Result: engine.Result{ID: "17"}}}
		if err := AttachResponses(cases, strings.NewReader(in), format.Auto); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want := []string{`[{"name":"f","arguments":{"x":1}}]`, `[{"name":"g","arguments":{"y":2}}]`}
		for i, c := range cases {
			if string(c.Actual) != want[i] {
				t.Errorf("%s: case %s: Actual %s, want %s", name, c.ID, c.Actual, want[i])
			}
		}
	}
	if err := AttachResponses([]Case{{Result: engine.Result{ID: "a"}}}, strings.NewReader("\x1f\x8b\x08"), format.Auto); err == nil {
		t.Error("a broken gzip header: no error")
	}
}

// What a terminal would act on (ESC, CR, LF, BEL, C1, bidi marks, bytes
// that are not UTF-8) is written escaped in every text table: a model's
// argument name is a diff's path, and a suite's ids and tool names are
// anyone's, and neither may clear a screen or forge a line of a report.
func TestTextIsPrintable(t *testing.T) {
	evil := "x\x1b[2J\x1b]0;pwn\a\r\nFAKE\u202e\u0085\xff"
	const want = `x\x1b[2J\x1b]0;pwn\x07\x0d\x0aFAKE\u202e\x85\xff`
	if got := printable(evil); got != want {
		t.Fatalf("printable = %s, want %s", got, want)
	}
	for _, s := range []string{"plain", "Straße ✓ 😀", ""} {
		if got := printable(s); got != s {
			t.Errorf("printable(%q) = %q, want it unchanged", s, got)
		}
	}
	old := []Case{{Result: engine.Result{ID: evil, Tool: evil, Pass: true}, Expected: []byte("[]")}}
	nw := []Case{{Result: engine.Result{ID: evil, Tool: evil, Diffs: []engine.Diff{{Kind: results.UnexpectedArgument, Path: evil}}}, Expected: []byte("[]")}}
	var b bytes.Buffer
	if err := Compare(old, nw).WriteText(&b, TableOptions{}); err != nil {
		t.Fatal(err)
	}
	s := &engine.Summary{Cases: 1, ByTool: map[string]*results.Tally{evil: {Cases: 1}}}
	if err := WriteTable(&b, s, TableOptions{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.ContainsAny(out, "\x1b\a\r\u202e\u0085") || strings.Contains(out, "\nFAKE") || !utf8.ValidString(out) {
		t.Errorf("the text carries what a terminal acts on:\n%q", out)
	}
	if strings.Count(out, want) != 4 { // tool rows of both tables, the id and the path
		t.Errorf("want the escaped text 4 times:\n%s", out)
	}
}

// unknownCase is the result callgrade score writes for a response whose id
// names no case.
func unknownCase(id string) *results.Result {
	return &results.Result{ID: id, Diffs: []results.Diff{{Kind: results.UnknownCase,
		Message: fmt.Sprintf("the responses name case %q, which the suite does not have", id), Call: -1}}}
}
