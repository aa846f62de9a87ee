package acebench

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/engine"
	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/value"
)

// testdata/data_normal_sample.json has one row per rule, its functions
// ACEBench's shapes: "parameters" or "arguments", nested objects, arrays
// with and without items, a function whose own name ends in _<digits>.
var ruleQuestions, ruleAnswers = readFile("testdata/data_normal_sample.json"), readFile("testdata/possible_answer/data_normal_sample.json")

func readFile(name string) string {
	b, err := os.ReadFile(name)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func ruleEngine(t *testing.T) *engine.Engine {
	t.Helper()
	doc, err := Import(Input{Questions: strings.NewReader(ruleQuestions), QuestionsName: "q", Answers: strings.NewReader(ruleAnswers), AnswersName: "a"})
	if err != nil {
		t.Fatal(err)
	}
	s, err := doc.doc.Decode("rules.json")
	if err != nil {
		t.Fatal(err)
	}
	e, err := engine.New(suite.ViewOf(s), engine.Options{Format: format.Pythonic})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestRules holds each rule of callgrade's semantics, with the ACEBench
// defect it departs from where it does.
func TestRules(t *testing.T) {
	e := ruleEngine(t)
	for _, tc := range []struct {
		rule, id, text string
		pass           bool
	}{
		{"gold", "scalars", `[vr_explore(area="Kyoto City", level=5, ratio=1.5, examples=True)]`, true},
		{"white space between tokens", "scalars", "[vr_explore(\n  area='Kyoto City',\n  level=5, ratio=1.5,\n  examples=True)]", true},
		{"keys in any order", "scalars", `[vr_explore(examples=True, ratio=1.5, level=5, area="Kyoto City")]`, true},
		{"string: case, spaces, punctuation", "scalars", `[vr_explore(area="kyoto-city.", level=5, ratio=1.5, examples=True)]`, true},
		{"string: a tab is white space", "scalars", `[vr_explore(area="Kyoto\tCity", level=5, ratio=1.5, examples=True)]`, true},
		{"string: superstring (defect string_substring)", "scalars", `[vr_explore(area="Kyoto City and more", level=5, ratio=1.5, examples=True)]`, false},
		{"string: truncated", "scalars", `[vr_explore(area="Kyoto", level=5, ratio=1.5, examples=True)]`, false},
		{"string: schema enum not enforced", "scalars", `[vr_explore(area="Kyoto City", level=5, ratio=1.5, examples=True)]`, true},
		{"number: 5.0 is 5", "scalars", `[vr_explore(area="Kyoto City", level=5.0, ratio=1.5, examples=True)]`, true},
		{"number: wrong integer (defect scalar_unchecked)", "scalars", `[vr_explore(area="Kyoto City", level=12, ratio=1.5, examples=True)]`, false},
		{"number: wrong float (defect scalar_unchecked)", "scalars", `[vr_explore(area="Kyoto City", level=5, ratio=3.0, examples=True)]`, false},
		{"number: sign flip", "scalars", `[vr_explore(area="Kyoto City", level=-5, ratio=1.5, examples=True)]`, false},
		{"number: as a string", "scalars", `[vr_explore(area="Kyoto City", level="5", ratio=1.5, examples=True)]`, false},
		{"boolean: flipped (defect scalar_unchecked)", "scalars", `[vr_explore(area="Kyoto City", level=5, ratio=1.5, examples=False)]`, false},
		{"boolean: \"true\" (defect bool_string)", "scalars", `[vr_explore(area="Kyoto City", level=5, ratio=1.5, examples="true")]`, false},
		{"boolean: 1 (defect int_bool_equality)", "scalars", `[vr_explore(area="Kyoto City", level=5, ratio=1.5, examples=1)]`, false},
		{"null is only null", "scalars", `[vr_explore(area=None, level=5, ratio=1.5, examples=True)]`, false},
		{"answer's parameter left out (defect omitted_param_unchecked)", "scalars", `[vr_explore(area="Kyoto City", level=5, ratio=1.5)]`, false},
		{"schema parameter the answer lacks", "scalars", `[vr_explore(area="Kyoto City", level=5, ratio=1.5, examples=True, extra="y")]`, false},
		{"unknown parameter", "scalars", `[vr_explore(area="Kyoto City", level=5, ratio=1.5, examples=True, zzz=1)]`, false},
		{"wrong function name", "scalars", `[vr_explore2(area="Kyoto City", level=5, ratio=1.5, examples=True)]`, false},
		{"function name case", "scalars", `[VR_explore(area="Kyoto City", level=5, ratio=1.5, examples=True)]`, false},
		{"no call", "scalars", `[]`, false},
		{"words", "scalars", `I cannot do that.`, false},

		{"nested gold, spaced string in an array in an object (defect whitespace_deletion)", "nested", `[plan(trip={"city": "Rome", "days": 3, "tags": ["time savings", "art"], "stops": [{"name": "Forum", "hours": 2}]}, prefs=["None"], empty=[])]`, true},
		{"nested: case in an array in an object (defect nested_str_compare)", "nested", `[plan(trip={"city": "Rome", "days": 3, "tags": ["TIME SAVINGS", "Art"], "stops": [{"name": "forum", "hours": 2.0}]}, prefs=["none"], empty=[])]`, true},
		{"nested: key order", "nested", `[plan(empty=[], prefs=["None"], trip={"stops": [{"hours": 2, "name": "Forum"}], "tags": ["time savings", "art"], "days": 3, "city": "Rome"})]`, true},
		{"nested: superstring (defect nested_str_compare)", "nested", `[plan(trip={"city": "Rome and more", "days": 3, "tags": ["time savings", "art"], "stops": [{"name": "Forum", "hours": 2}]}, prefs=["None"], empty=[])]`, false},
		{"nested: digit appended (defect nested_str_compare)", "nested", `[plan(trip={"city": "Rome", "days": 31, "tags": ["time savings", "art"], "stops": [{"name": "Forum", "hours": 2}]}, prefs=["None"], empty=[])]`, false},
		{"nested: null for a string", "nested", `[plan(trip={"city": None, "days": 3, "tags": ["time savings", "art"], "stops": [{"name": "Forum", "hours": 2}]}, prefs=["None"], empty=[])]`, false},
		{"nested: schema key the answer lacks", "nested", `[plan(trip={"city": "Rome", "days": 3, "note": "x", "tags": ["time savings", "art"], "stops": [{"name": "Forum", "hours": 2}]}, prefs=["None"], empty=[])]`, false},
		{"nested: key missing", "nested", `[plan(trip={"city": "Rome", "tags": ["time savings", "art"], "stops": [{"name": "Forum", "hours": 2}]}, prefs=["None"], empty=[])]`, false},
		{"nested: list item dropped", "nested", `[plan(trip={"city": "Rome", "days": 3, "tags": ["time savings"], "stops": [{"name": "Forum", "hours": 2}]}, prefs=["None"], empty=[])]`, false},
		{"nested: list reordered", "nested", `[plan(trip={"city": "Rome", "days": 3, "tags": ["art", "time savings"], "stops": [{"name": "Forum", "hours": 2}]}, prefs=["None"], empty=[])]`, false},
		{"array without items is any array (defect array_without_items)", "nested", `[plan(trip={"city": "Rome", "days": 3, "tags": ["time savings", "art"], "stops": [{"name": "Forum", "hours": 2}]}, prefs=["NONE"], empty=[])]`, true},
		{"empty list must be given empty (defect empty_container)", "nested", `[plan(trip={"city": "Rome", "days": 3, "tags": ["time savings", "art"], "stops": [{"name": "Forum", "hours": 2}]}, prefs=["None"], empty=["x"])]`, false},
		{"empty list left out", "nested", `[plan(trip={"city": "Rome", "days": 3, "tags": ["time savings", "art"], "stops": [{"name": "Forum", "hours": 2}]}, prefs=["None"])]`, false},

		{"name_1, name_2 in any order", "parallel", `[book(date="2024-06-26", seats=2), book(date="2024-06-24")]`, true},
		{"one call for two (defect not_one_to_one)", "parallel", `[book(date="2024-06-24 2024-06-26", seats=2), book(date="zqx")]`, false},
		{"a call dropped", "parallel", `[book(date="2024-06-24")]`, false},
		{"a call duplicated", "parallel", `[book(date="2024-06-24"), book(date="2024-06-24"), book(date="2024-06-26", seats=2)]`, false},
		{"an extra call", "parallel", `[book(date="2024-06-24"), book(date="2024-06-26", seats=2), other()]`, false},
		{"values swapped", "parallel", `[book(date="2024-06-24", seats=2), book(date="2024-06-26")]`, false},

		{"a real name ending in _2 (defect suffix_strip), required trusted to the answer (defect gold_missing_required)", "suffix", `[learning_2(topic="math")]`, true},
		{"the stripped name is another function", "suffix", `[learning(topic="math")]`, false},

		{"number items", "items", `[budget(forecasts=[5000.0, 7000.5], grid=[[1, 0], [0, 1]])]`, true},
		{"number item as a string", "items", `[budget(forecasts=["5000", 7000.5], grid=[[1, 0], [0, 1]])]`, false},
		{"number item of an item as a string", "items", `[budget(forecasts=[5000, 7000.5], grid=[["1", 0], [0, 1]])]`, false},

		{"first alternative", "alts", `[flag(on=True, why="test")]`, true},
		{"second alternative", "alts", `[flag(on=True)]`, true},
		{"neither", "alts", `[flag(on=False)]`, false},
	} {
		r, err := scoreID(e, tc.id, value.StringOf(tc.text))
		if err != nil {
			t.Fatalf("%s: %v", tc.rule, err)
		}
		if r.Pass != tc.pass {
			t.Errorf("%s: %s: pass %v, want %v; diffs %v", tc.rule, tc.text, r.Pass, tc.pass, r.Diffs)
		}
	}
}

// TestCorrespondence: the files must correspond, and the error names the
// ids and lines.
func TestCorrespondence(t *testing.T) {
	for _, tc := range []struct{ name, q, a, want string }{
		{"question without an answer", ruleQuestions, strings.SplitAfter(ruleAnswers, "\n")[0], "5 question(s) of q have no answer in a: nested (line 2), parallel (line 3)"},
		{"answer without a question", strings.SplitAfter(ruleQuestions, "\n")[0], strings.SplitAfter(ruleAnswers, "\n")[0] + `{"id": "zzz", "ground_truth": {"f": {}}}`, "1 answer(s) of a have no question in q: zzz (line 2)"},
		{"question twice", ruleQuestions + strings.SplitAfter(ruleQuestions, "\n")[0], ruleAnswers, `q:7: question id "scalars" appears twice; first on line 1`},
		{"answer twice", ruleQuestions, ruleAnswers + strings.SplitAfter(ruleAnswers, "\n")[0], `a:7: answer id "scalars" appears twice; first on line 1`},
		{"not JSON", "{", ruleAnswers, "q:1: invalid JSON"},
		{"arguments not an object", ruleQuestions, strings.Replace(ruleAnswers, `{"learning_2": {"topic": "math"}}`, `{"learning_2": ["math"]}`, 1), "the arguments of learning_2 must be an object"},
	} {
		_, err := Import(Input{Questions: strings.NewReader(tc.q), QuestionsName: "q", Answers: strings.NewReader(tc.a), AnswersName: "a"})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to contain %q", tc.name, err, tc.want)
		}
	}
}

var update = flag.Bool("update", false, "rewrite testdata/sample.yaml and sample.json")

// TestGolden imports the sample and compares the suite, YAML and JSON,
// with testdata/sample.yaml and sample.json (go test -update rewrites them).
func TestGolden(t *testing.T) {
	doc, err := Import(Input{Questions: strings.NewReader(ruleQuestions), QuestionsName: "q", Answers: strings.NewReader(ruleAnswers), AnswersName: "a"})
	if err != nil {
		t.Fatal(err)
	}
	y, err := doc.YAML()
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string][]byte{"testdata/sample.yaml": y, "testdata/sample.json": doc.JSON()} {
		if *update {
			if err := os.WriteFile(name, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s differs from the import (go test ./acebench -run TestGolden -update rewrites it):\n%s", name, got)
		}
	}
}
