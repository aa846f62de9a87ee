package bfcl

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/engine"
	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/internal/testenv"
	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/value"
)

// shared is BFCL's data and the candidates with BFCL's verdicts, in the
// project's shared data beside the repository, which a clone lacks: the
// tests that read it skip without it (needShared).
const shared = "../../shared/bfcl"

// needShared skips t, saying how to get the data, when the file name
// under shared cannot be opened; otherwise it returns it open.
func needShared(t testing.TB, name string) *os.File {
	t.Helper()
	f, err := os.Open(filepath.Join(shared, name))
	if err != nil {
		testenv.Skipf(t, "%v: this test needs BFCL's data and verdicts from the project's shared data, ../shared beside the repository; check the project's shared folder out there to run it", err)
	}
	return f
}

var categories = []string{"simple_python", "multiple", "parallel", "parallel_multiple"}

type candidate struct {
	ID         string          `json:"id"`
	QuestionID string          `json:"question_id"`
	Category   string          `json:"category"`
	Mutation   string          `json:"mutation"`
	Response   json.RawMessage `json:"response"`
	Valid      bool            `json:"bfcl_valid"`
	Intended   *string         `json:"intended"`
}

// importEngine imports one category under sem, with its possible
// answers where BFCL ships them (live_irrelevance, live_relevance and the
// agentic categories' possible answers aside, every category has them),
// and compiles it to read responses in format ("" detects each one's).
func importEngine(t testing.TB, cat string, sem Semantics, format format.Format) *engine.Engine {
	t.Helper()
	q := needShared(t, filepath.Join("data", "BFCL_v4_"+cat+".json"))
	defer q.Close()
	in := Input{Questions: q, QuestionsName: cat}
	if a, err := os.Open(filepath.Join(shared, "data", "possible_answer", "BFCL_v4_"+cat+".json")); err == nil {
		defer a.Close()
		in.Answers, in.AnswersName = a, cat+" answers"
	}
	doc, err := Import(in, sem)
	if err != nil {
		t.Fatal(err)
	}
	s, err := doc.doc.Decode(cat + ".json")
	if err != nil {
		t.Fatal(err)
	}
	e, err := engine.New(suite.ViewOf(s), engine.Options{Format: format})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func readCandidates(t testing.TB) []candidate { return readCandidateFile(t, "candidates.jsonl") }

// readCandidateFile reads the candidates of the shared file name: all of
// them, or those of cats when some are given (then at least one).
func readCandidateFile(t testing.TB, name string, cats ...string) []candidate {
	t.Helper()
	f := needShared(t, name)
	defer f.Close()
	var out []candidate
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var c candidate
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		if len(cats) == 0 || slices.Contains(cats, c.Category) {
			out = append(out, c)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(cats) > 0 && len(out) == 0 {
		t.Fatalf("no candidate of %v in %s", cats, name)
	}
	return out
}

// scoreCandidate scores c's response against its question's case in e.
func scoreCandidate(t testing.TB, e *engine.Engine, c candidate) *results.Result {
	t.Helper()
	resp, err := value.Parse(string(c.Response))
	if err != nil {
		t.Fatal(err)
	}
	r, err := scoreID(e, c.QuestionID, resp)
	if err != nil {
		t.Fatalf("%s: %v", c.ID, err)
	}
	return r
}

// verdicts scores every candidate under sem and returns its pass by id.
func verdicts(t testing.TB, cands []candidate, sem Semantics) map[string]bool {
	t.Helper()
	out := make(map[string]bool, len(cands))
	for _, cat := range categories {
		e := importEngine(t, cat, sem, format.Calls)
		for _, c := range cands {
			if c.Category == cat {
				out[c.ID] = scoreCandidate(t, e, c).Pass
			}
		}
	}
	return out
}

// TestAgreesWithBFCL imports every category of BFCL's data under bfcl
// semantics and checks that every candidate gets BFCL's verdict.
func TestAgreesWithBFCL(t *testing.T) {
	cands := readCandidates(t)
	got := verdicts(t, cands, SemanticsBFCL)
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

// TestCallgradeSemanticsDifferences scores every candidate under both
// semantics and checks the table of differences in docs/bfcl.md: each
// difference is in callgrade's favour by `intended` or on a convention
// (ambiguous), or of a real model output in a class the table names, and
// the counts by mutation are the table's.
func TestCallgradeSemanticsDifferences(t *testing.T) {
	cands := readCandidates(t)
	cg := verdicts(t, cands, SemanticsCallgrade)
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
	checkDocumentedCounts(t, "## Verdicts that change, by mutation", "\n## ", counts)
}

// scoreID scores resp against the case with the given id, with a Scorer
// of its own so that each result is kept.
func scoreID(e *engine.Engine, id string, resp value.Value) (*results.Result, error) {
	i, ok := e.Lookup(id)
	if !ok {
		return nil, fmt.Errorf("no case with id %q", id)
	}
	return e.NewScorer(context.Background()).Score(i, resp), nil
}

// checkDocumentedCounts checks that the verdicts that change by mutation,
// counts, are the table in docs/bfcl.md under heading, which ends where
// end starts: a row for each mutation, with its count.
func checkDocumentedCounts(t *testing.T, heading, end string, counts map[string]int) {
	t.Helper()
	doc, err := os.ReadFile("../docs/bfcl.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, found := strings.Cut(string(doc), heading)
	if !found {
		t.Fatalf("docs/bfcl.md has no heading %q", heading)
	}
	table, _, _ = strings.Cut(table, end)
	row := regexp.MustCompile("^\\| `([a-z_:0-9]+)` \\| ([0-9]+) \\|")
	documented := map[string]int{}
	for _, line := range strings.Split(table, "\n") {
		if m := row.FindStringSubmatch(line); m != nil {
			documented[m[1]], _ = strconv.Atoi(m[2])
		}
	}
	var lines []string
	for m, n := range counts {
		lines = append(lines, fmt.Sprintf("| `%s` | %d |", m, n))
		if documented[m] != n {
			t.Errorf("mutation %s: %d verdicts change, docs/bfcl.md says %d", m, n, documented[m])
		}
	}
	for m, n := range documented {
		if _, ok := counts[m]; !ok {
			t.Errorf("docs/bfcl.md: mutation %s changes %d verdicts, the test counts none", m, n)
		}
	}
	if t.Failed() {
		sort.Strings(lines)
		t.Logf("the counts:\n%s", strings.Join(lines, "\n"))
	}
}
