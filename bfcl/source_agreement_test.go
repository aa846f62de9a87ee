package bfcl

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/internal/format"
)

// sourceDiffers scores the candidates of one Java or JavaScript category
// under sem and returns, by mutation, the ids whose verdict is not BFCL's.
func sourceDiffers(t *testing.T, cat string, cands []candidate, sem Semantics) map[string][]string {
	t.Helper()
	e := importEngine(t, cat, sem, format.Calls)
	out := map[string][]string{}
	for _, c := range cands {
		if c.Category != cat {
			continue
		}
		if r := scoreCandidate(t, e, c); r.Pass != c.Valid {
			out[c.Mutation] = append(out[c.Mutation], fmt.Sprintf("%s: callgrade %v, BFCL %v: %s", c.ID, r.Pass, c.Valid, r.AppendJSON(nil)))
		}
	}
	return out
}

// TestSourceAgreement scores the simple_java and simple_javascript
// candidates of the shared data under bfcl semantics: every verdict is
// BFCL's.
func TestSourceAgreement(t *testing.T) {
	cats := []string{"simple_java", "simple_javascript"}
	cands := readCandidateFile(t, "candidates-live.jsonl", cats...)
	for _, cat := range cats {
		differ := sourceDiffers(t, cat, cands, SemanticsBFCL)
		var ms []string
		for m := range differ {
			ms = append(ms, m)
		}
		sort.Strings(ms)
		for _, m := range ms {
			t.Errorf("%s, %s: %d verdicts differ from BFCL's:\n%s", cat, m, len(differ[m]), strings.Join(differ[m], "\n"))
		}
	}
}

// TestSourceCallgradeDifferences scores the simple_java and
// simple_javascript candidates under callgrade semantics and checks the
// table of docs/bfcl.md: each verdict that is not BFCL's is in callgrade's
// favour by intended, or on a convention (ambiguous), or a real model
// output, and the counts by mutation are the table's.
func TestSourceCallgradeDifferences(t *testing.T) {
	cats := []string{"simple_java", "simple_javascript"}
	cands := readCandidateFile(t, "candidates-live.jsonl", cats...)
	byID := map[string]candidate{}
	for _, c := range cands {
		byID[c.ID] = c
	}
	counts := map[string]int{}
	for _, cat := range cats {
		for m, ds := range sourceDiffers(t, cat, cands, SemanticsCallgrade) {
			counts[m] += len(ds)
			for _, d := range ds {
				id, _, _ := strings.Cut(d, ": callgrade")
				c := byID[id]
				switch {
				case c.Intended == nil, *c.Intended == "ambiguous":
				case *c.Intended == "accept" && !c.Valid, *c.Intended == "reject" && c.Valid:
				default:
					t.Errorf("callgrade semantics against intended %s: %s", *c.Intended, d)
				}
			}
		}
	}
	checkDocumentedCounts(t, "### Java and JavaScript under callgrade semantics", "\n#", counts)
}
