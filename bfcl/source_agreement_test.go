package bfcl

import (
	"bufio"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/value"
)

// readLiveCandidates returns the candidates of the shared live file in
// the given categories.
func readLiveCandidates(t *testing.T, cats ...string) []candidate {
	t.Helper()
	f := needShared(t, "candidates-live.jsonl")
	defer f.Close()
	var out []candidate
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var c candidate
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		for _, cat := range cats {
			if c.Category == cat {
				out = append(out, c)
			}
		}
	}
	if len(out) == 0 {
		t.Fatalf("no candidate of %v", cats)
	}
	return out
}

// sourceDiffers scores the candidates of one Java or JavaScript category
// under sem and returns, by mutation, the ids whose verdict is not BFCL's.
func sourceDiffers(t *testing.T, cat string, cands []candidate, sem Semantics) map[string][]string {
	t.Helper()
	e := importEngine(t, cat, sem)
	out := map[string][]string{}
	for _, c := range cands {
		if c.Category != cat {
			continue
		}
		resp, err := value.Parse(string(c.Response))
		if err != nil {
			t.Fatal(err)
		}
		r, err := e.ScoreID(c.QuestionID, resp)
		if err != nil {
			t.Fatalf("%s: %v", c.ID, err)
		}
		if r.Pass != c.Valid {
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
	cands := readLiveCandidates(t, cats...)
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

var _ = filepath.Join

// TestSourceCallgradeDifferences scores the simple_java and
// simple_javascript candidates under callgrade semantics and lists, by
// mutation, the verdicts that differ from BFCL's.
func TestSourceCallgradeDifferences(t *testing.T) {
	cats := []string{"simple_java", "simple_javascript"}
	cands := readLiveCandidates(t, cats...)
	for _, cat := range cats {
		differ := sourceDiffers(t, cat, cands, SemanticsCallgrade)
		for m, ds := range differ {
			t.Logf("%s, %s: %d\n%s", cat, m, len(ds), strings.Join(ds, "\n"))
		}
	}
}
