package bfcl

import (
	"testing"
)

var agenticCategories = []string{"web_search", "memory"}

// agenticVerdicts imports web_search and memory under sem and scores
// every candidate, its format detected from its shape, as
// bfcl-agreement-agentic does; it returns each pass by candidate id.
func agenticVerdicts(t *testing.T, cands []candidate, sem Semantics) map[string]bool {
	t.Helper()
	out := make(map[string]bool, len(cands))
	for _, cat := range agenticCategories {
		e := importEngine(t, cat, sem, "")
		for _, c := range cands {
			if c.Category == cat {
				out[c.ID] = scoreCandidate(t, e, c).Pass
			}
		}
	}
	return out
}

// TestAgenticAgreesWithBFCL: under bfcl semantics every agentic candidate
// gets BFCL's verdict.
func TestAgenticAgreesWithBFCL(t *testing.T) {
	cands := readCandidateFile(t, "candidates-agentic.jsonl")
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
	cands := readCandidateFile(t, "candidates-agentic.jsonl")
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
