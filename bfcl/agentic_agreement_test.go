package bfcl

import (
	"bufio"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/callgrade/callgrade"
	"github.com/callgrade/callgrade/value"
)

var agenticCategories = []string{"web_search", "memory"}

func readAgenticCandidates(t *testing.T) []candidate {
	t.Helper()
	f := needShared(t, "candidates-agentic.jsonl")
	defer f.Close()
	var out []candidate
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var c candidate
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// agenticVerdicts imports web_search and memory under sem and scores
// every candidate, its format detected from its shape, as
// bfcl-agreement-agentic does; it returns each pass by candidate id.
func agenticVerdicts(t *testing.T, cands []candidate, sem Semantics) map[string]bool {
	t.Helper()
	out := make(map[string]bool, len(cands))
	for _, cat := range agenticCategories {
		q := needShared(t, filepath.Join("data", "BFCL_v4_"+cat+".json"))
		a := needShared(t, filepath.Join("data", "possible_answer", "BFCL_v4_"+cat+".json"))
		doc, err := Import(Input{Questions: q, QuestionsName: cat, Answers: a, AnswersName: cat + " answers"}, sem)
		q.Close()
		a.Close()
		if err != nil {
			t.Fatal(err)
		}
		s, err := doc.Decode(cat + ".json")
		if err != nil {
			t.Fatal(err)
		}
		g, err := callgrade.New(s, callgrade.Options{})
		if err != nil {
			t.Fatal(err)
		}
		e := g.Engine()
		for _, c := range cands {
			if c.Category != cat {
				continue
			}
			resp, err := value.Parse(string(c.Response))
			if err != nil {
				t.Fatal(err)
			}
			r, err := scoreID(e, c.QuestionID, resp)
			if err != nil {
				t.Fatalf("%s: %v", c.ID, err)
			}
			out[c.ID] = r.Pass
		}
		g.Close()
	}
	return out
}

// TestAgenticAgreesWithBFCL: under bfcl semantics every agentic candidate
// gets BFCL's verdict.
func TestAgenticAgreesWithBFCL(t *testing.T) {
	cands := readAgenticCandidates(t)
	got := agenticVerdicts(t, cands, SemanticsBFCL)
	bad := 0
	for _, c := range cands {
		if got[c.ID] != c.Valid {
			if bad++; bad <= 10 {
				t.Errorf("%s (%s): callgrade %v, BFCL %v", c.ID, c.Mutation, got[c.ID], c.Valid)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d verdicts differ from BFCL's", bad, len(cands))
	}
}

// TestAgenticCallgradeDifferences: under callgrade's semantics each
// verdict that differs from BFCL's is in callgrade's favour by
// `intended`, or on a convention (ambiguous), or of a real model output;
// and the counts by mutation are docs/bfcl.md's table.
func TestAgenticCallgradeDifferences(t *testing.T) {
	cands := readAgenticCandidates(t)
	cg := agenticVerdicts(t, cands, SemanticsCallgrade)
	counts := map[string]int{}
	for _, c := range cands {
		if cg[c.ID] == c.Valid {
			continue
		}
		counts[c.Mutation]++
		switch {
		case c.Intended == nil: // a real model output: the table accounts for it
		case *c.Intended == "ambiguous":
		case *c.Intended == "accept" && cg[c.ID], *c.Intended == "reject" && !cg[c.ID]:
		default:
			t.Errorf("%s (%s): callgrade semantics says %v against intended %s", c.ID, c.Mutation, cg[c.ID], *c.Intended)
		}
	}
	checkDocumentedCounts(t, "### Agentic verdicts that change, by mutation", "\n#", counts)
}
