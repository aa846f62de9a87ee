package bfcl

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/engine"
	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/value"
)

// agenticEngine imports one web_search question whose possible answers
// are alts under sem, and compiles it.
func agenticEngine(t *testing.T, sem Semantics, alts ...string) *engine.Engine {
	t.Helper()
	var gt []string
	for _, a := range alts {
		gt = append(gt, value.StringOf(a).String())
	}
	q := `{"id": "web_search_0", "question": [[{"role": "user", "content": "Who?"}]], "involved_classes": ["WebSearchAPI"]}`
	a := `{"id": "web_search_0", "ground_truth": [` + strings.Join(gt, ", ") + `]}`
	doc, err := Import(Input{Questions: strings.NewReader(q), QuestionsName: "q.json", Answers: strings.NewReader(a), AnswersName: "a.json"}, sem)
	if err != nil {
		t.Fatal(err)
	}
	s, err := doc.doc.Decode("s.json")
	if err != nil {
		t.Fatal(err)
	}
	e, err := engine.New(suite.ViewOf(s), engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestAgenticBoundaries scores final answers under bfcl semantics against
// what Python decides: re.search(rf"\b{re.escape(std(alt))}\b",
// std(answer)), whose \b is Unicode (each want was printed by Python 3
// with BFCL's standardize_string).
func TestAgenticBoundaries(t *testing.T) {
	tests := []struct {
		alt, answer string
		want        bool
	}{
		{"ČSSR", "It was the ČSSR.", true},
		{"ČSSR", "ČSSRs", false},
		{"ČSSR", "čssr", true},
		{"$222 million", "It cost $222 million", false}, // no word character before $ (D2)
		{"$222 million", "It cost US$222 million.", true},
		{"$222 million", "$222 million", false},
		{"Predrag Puharić", "Coach Predrag Puharić.", true},
		{"Predrag Puharić", "Predrag Puharićević", false},
		{"Ashiya, Hyōgo", "Ashiya, Hyōgo Prefecture", true},
		{"Ashiya, Hyōgo", "Ashiya Hyōgoken", false},
		{"Ashiya, Hyōgo", "ashiya hyogo", false},
		{"Hyōgo", "(Hyōgo)", true},
		{"Hyōgo", "_Hyōgo_", true},
		{"Elke Büdenbender", "Elke Büdenbenders", false},
		{"7", "-7", true},
		{"7", "7.0", false},
		{"7", "x7", false},
		{"C++", "C++ and", false},
		{"C++", "C++", false},
		{"C++", "C++x", true},
		{"--", "x", true}, // standardised to "": \b\b, any word character
		{"--", "!!", false},
		{"it's", "It's it", true},
		{"Zhang Yiming", "Zhang  Yiming", false},
		{"1.8", "18 months", true},
		{"Zhang Yiming", "ZHANG YİMİNG", false}, // İ lowers to i and a combining dot
		{"İzmir", "İzmir", true},
		{"İzmir", "izmir", false},
	}
	for _, tt := range tests {
		t.Run(tt.alt+" in "+tt.answer, func(t *testing.T) {
			e := agenticEngine(t, SemanticsBFCL, tt.alt)
			if r := e.NewScorer(context.Background()).Score(0, value.StringOf(tt.answer)); r.Pass != tt.want {
				t.Errorf("pass %v, want %v\n%s", r.Pass, tt.want, r.AppendJSON(nil))
			}
		})
	}
}

// TestAgenticLastUndecoded scores runs under bfcl semantics whose answer
// BFCL takes from the last message it does not decode as calls, not the
// last text: each want is the verdict of BFCL's _evaluate_single_agentic_entry
// (gorilla 6ea5797, the OpenAI handler's decode_execute) on the run's
// bfcl_result, printed by Python 3.11.
func TestAgenticLastUndecoded(t *testing.T) {
	const (
		user   = `{"role":"user","content":"Who?"}`
		answer = `{"role":"assistant","content":"It is Zhang Yiming."}`
		search = `{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"search","arguments":"{\"q\": \"who\"}"}}]}`
		result = `{"role":"tool","tool_call_id":"c1","content":"[]"}`
	)
	callWith := func(args string) string {
		return `{"role":"assistant","content":null,"tool_calls":[{"id":"c2","type":"function","function":{"name":"search","arguments":` + value.StringOf(args).String() + `}}]}`
	}
	tests := []struct {
		name string
		run  []string
		want bool
	}{
		{"an answer", []string{user, search, result, answer}, true},
		{"an answer, then an empty message", []string{user, answer, `{"role":"assistant","content":""}`}, false},
		{"an answer, then null content", []string{user, answer, `{"role":"assistant","content":null}`}, false},
		{"an answer beside an empty tool_calls list", []string{user, `{"role":"assistant","content":"It is Zhang Yiming.","tool_calls":[]}`}, false},
		{"an answer, then an empty tool_calls list", []string{user, answer, `{"role":"assistant","content":"","tool_calls":[]}`}, false},
		{"an answer, then a call", []string{user, answer, search, result}, true},
		{"a call with NaN naming the answer", []string{user, callWith(`{"q": "Zhang Yiming", "n": NaN}`)}, false},
		{"a call with a key twice naming the answer", []string{user, callWith(`{"q": "Zhang Yiming", "q": "x"}`)}, false},
		{"a call with a lone surrogate naming the answer", []string{user, callWith(`{"q": "Zhang Yiming \ud800"}`)}, false},
		{"a call with NaN, then an answer", []string{user, callWith(`{"q": "x", "n": NaN}`), result, answer}, true},
		{"a broken call naming the answer", []string{user, callWith(`{"q": "Zhang Yiming`)}, true},
		{"a broken call, then an answer", []string{user, callWith(`{"q": "x`), answer}, true},
		{"a broken call naming the answer, then a call", []string{user, callWith(`{"q": "Zhang Yiming`), search, result}, true},
	}
	e := agenticEngine(t, SemanticsBFCL, "Zhang Yiming")
	sc := e.NewScorer(context.Background())
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := value.Parse("[" + strings.Join(tt.run, ",") + "]")
			if err != nil {
				t.Fatal(err)
			}
			if r := sc.Score(0, resp); r.Pass != tt.want {
				t.Errorf("pass %v, want %v\n%s", r.Pass, tt.want, r.AppendJSON(nil))
			}
		})
	}
}

// TestAgenticDifferential scores testdata/agentic-differential.jsonl
// under bfcl semantics: runs generated on 2026-12-06 from every public
// mutation and shape, and novel ones, each with the verdict BFCL's own
// checker gave it (gorilla 6ea5797, Python 3.11). It holds two of each
// kind that disagreed before BFCL's reading took the last message it
// cannot decode (an empty message or tool_calls list after an answer,
// NaN and duplicate keys in a call's arguments, a single message ending
// in a broken call), one more of every kind in every shape, and of the
// plain strings holding call text or thinking, two of each kind that
// disagreed and one of each other. 122 of the first 785 failed on
// 168d68b, and the last 21's 12 before BFCL's reading took a string
// whole. All agree now.
func TestAgenticDifferential(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "agentic-differential.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	engines := map[string]*engine.Engine{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		var c struct {
			ID           string          `json:"id"`
			Alternatives []string        `json:"alternatives"`
			Response     json.RawMessage `json:"response"`
			Valid        bool            `json:"bfcl_valid"`
		}
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("line %d: %v", n+1, err)
		}
		n++
		key := strings.Join(c.Alternatives, "\x00")
		e := engines[key]
		if e == nil {
			e = agenticEngine(t, SemanticsBFCL, c.Alternatives...)
			engines[key] = e
		}
		resp, err := value.Parse(string(c.Response))
		if err != nil {
			t.Fatalf("%s: %v", c.ID, err)
		}
		if r := e.NewScorer(context.Background()).Score(0, resp); r.Pass != c.Valid {
			t.Errorf("%s: pass %v, BFCL %v\n%s", c.ID, r.Pass, c.Valid, r.AppendJSON(nil))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n < 800 {
		t.Fatalf("%d runs read, want the file's 806", n)
	}
}

// TestASCIIBoundaryFails: RE2's own \b would fail ČSSR, which is why the
// pattern writes Python's boundaries out.
func TestASCIIBoundaryFails(t *testing.T) {
	alt := bfclStandardise("ČSSR")
	if regexp.MustCompile(`\b` + regexp.QuoteMeta(alt) + `\b`).MatchString("it was the čssr") {
		t.Fatal("RE2's \\b matched before Č; the boundaries need not be written out")
	}
	if !regexp.MustCompile(bfclFinalPattern([]string{"ČSSR"})).MatchString("it was the čssr") {
		t.Error("the written-out boundaries do not match")
	}
}

// TestAgenticCallgradeSemantics scores final answers under callgrade's
// semantics: the answer of an {answer, context} object, white space and
// separators read as one space, numbers as numbers, boundaries that only
// ask for no word character next to the answer.
func TestAgenticCallgradeSemantics(t *testing.T) {
	tests := []struct {
		alts   []string
		answer string
		want   bool
	}{
		{[]string{"Zhang Yiming"}, "Zhang  Yiming", true},
		{[]string{"Zhang Yiming"}, "Zhang\u00a0Yiming", true},
		{[]string{"Zhang Yiming"}, "zhang\nyiming", true},
		{[]string{"thirty five"}, "thirty-five", true},
		{[]string{"Cross functional"}, "cross-functional", true},
		{[]string{"Dong-Sup Yoon"}, "Dong–Sup Yoon", true},
		{[]string{"Dong-Sup Yoon"}, "DongSup Yoon", true},
		{[]string{"Dong-Sup Yoon"}, "Dong Sup Yoon", true},
		{[]string{"Adaptability, Discipline, Relationships"}, "Adaptability,Discipline, Relationships", true},
		{[]string{"e-sports"}, "_e-sports_", true},
		{[]string{"Seattle"}, "Seattle-based", true},
		{[]string{"Michael"}, "Michaels", false},
		{[]string{"Acme Inc."}, "It is Acme Inc", true},
		{[]string{"Acme Inc."}, "It is Acme Inc.", true},
		{[]string{"Srikant M. Datar"}, "Srikant M Datar", true},
		{[]string{"ČSSR"}, "the ČSSR.", true},
		{[]string{"$222 million"}, "It cost $222 million", true},
		{[]string{"$222 million"}, "It cost US$222 million", false},
		{[]string{"C++"}, "It is C++.", true},
		{[]string{"7"}, "7.0", true},
		{[]string{"7"}, "-7", false},
		{[]string{"7"}, "\u22127", false},
		{[]string{"7"}, "70", false},
		{[]string{"7"}, "7.5", false},
		{[]string{"7"}, "It is 7.", true},
		{[]string{"1.82"}, "18.2", false},
		{[]string{"49.99"}, "4999", false},
		{[]string{"406200"}, "406,200", true},
		{[]string{"406,200"}, "406 200", true},
		{[]string{"406,200"}, "406200", true},
		{[]string{"2631"}, "2,631", false}, // a class number, or a year
		{[]string{"2,631"}, "2631", true},
		{[]string{"6828925"}, "6 828 925", true},
		{[]string{"03:00 PM"}, "03:00 p.m.", true},
		{[]string{"03:00 PM"}, "3:00 PM", true},
		{[]string{"Michael"}, `{'answer': 'I do not know', 'context': 'Michael'}`, false},
		{[]string{"Michael"}, "```json\n{\"answer\": \"Michael\", \"context\": \"\"}\n```", true},
		{[]string{"Michael"}, "It is not Michael.", true}, // containment: a negation passes (D6)
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.alts, "|")+" in "+tt.answer, func(t *testing.T) {
			e := agenticEngine(t, SemanticsCallgrade, tt.alts...)
			if r := e.NewScorer(context.Background()).Score(0, value.StringOf(tt.answer)); r.Pass != tt.want {
				t.Errorf("pass %v, want %v\n%s", r.Pass, tt.want, r.AppendJSON(nil))
			}
		})
	}
}

// TestAgenticImportErrors: the answers are needed, are strings, and the
// agentic questions are imported apart from the others.
func TestAgenticImportErrors(t *testing.T) {
	const ws = `{"id": "web_search_0", "question": [[{"role": "user", "content": "Who?"}]]}`
	tests := []struct {
		name, questions, answers, want string
	}{
		{"no answers", ws, "", "q.json: the web_search and memory questions need their possible answers (--answers)"},
		{"a number", ws, `{"id": "web_search_0", "ground_truth": [7]}`, "a.json:1: answer web_search_0: ground_truth[0] must be a string, got 7"},
		{"no alternative", ws, `{"id": "web_search_0", "ground_truth": []}`, "a.json:1: answer web_search_0: \"ground_truth\" must be a non-empty list of acceptable final answers, got []"},
		{"mixed", ws + "\n" + `{"id": "simple_python_0", "question": [], "function": []}`, `{"id": "web_search_0", "ground_truth": ["x"]}`,
			"q.json:2: question simple_python_0 is not a web_search or memory question, as web_search_0 is; import BFCL's agentic categories apart from the others"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := Input{Questions: strings.NewReader(tt.questions), QuestionsName: "q.json", AnswersName: "a.json"}
			if tt.answers != "" {
				in.Answers = strings.NewReader(tt.answers)
			}
			_, err := Import(in, SemanticsBFCL)
			if err == nil || err.Error() != tt.want {
				t.Errorf("err = %v\nwant %s", err, tt.want)
			}
		})
	}
}

// TestAgenticCase: the case of one question, as the suite says it.
func TestAgenticCase(t *testing.T) {
	in := func() Input {
		return Input{Questions: strings.NewReader(`{"id": "memory_0-customer-0", "question": [[{"role": "user", "content": "What is my first name?"}]], "involved_classes": ["MemoryAPI"], "scenario": "customer"}`),
			QuestionsName: "q.json", Answers: strings.NewReader(`{"id": "memory_0-customer-0", "ground_truth": ["Michael"]}`), AnswersName: "a.json"}
	}
	tests := []struct {
		sem  Semantics
		want string
	}{
		{SemanticsBFCL, `{"id":"memory_0-customer-0","calls":"any","final":{"regex":"(?:(?:^|[^\\p{L}\\p{N}_])michael(?:$|[^\\p{L}\\p{N}_]))","normalize":[{"delete":",./-_*^()"},"lower",{"replace":{"'":"\""}}]},"final_text":"bfcl"}`},
		{SemanticsCallgrade, `{"id":"memory_0-customer-0","calls":"any","final":{"regex":"(?:(?:^|[^\\p{L}\\p{N}])Michael(?:$|[^\\p{L}\\p{N}]))","normalize":["nfc",{"replace":{"’":"'","‘":"'"}},"collapse_space"],"case_insensitive":true},"final_text":"answer"}`},
	}
	for _, tt := range tests {
		doc, err := Import(in(), tt.sem)
		if err != nil {
			t.Fatal(err)
		}
		got := string(doc.JSON())
		if !strings.Contains(got, tt.want) {
			t.Errorf("%s:\n%s\nwant a case\n%s", tt.sem, got, tt.want)
		}
	}
}
