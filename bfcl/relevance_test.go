package bfcl

import (
	"strings"
	"testing"

	"github.com/callgrade/callgrade/engine"
	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/value"
)

// callsEngine compiles an imported suite, reading responses in the calls
// format as bfcl-agreement-live does.
func callsEngine(t *testing.T, s *Suite) *engine.Engine {
	t.Helper()
	st, err := s.doc.Decode("imported.json")
	if err != nil {
		t.Fatal(err)
	}
	e, err := engine.New(suite.ViewOf(st), engine.Options{Format: format.Calls})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestImportRelevance: a relevance question, which has no answer, imports
// as a case in calls mode any that wants at least one call, in both
// semantics; in bfcl semantics its tools have no parameters, since BFCL
// never reads a relevance call's arguments.
func TestImportRelevance(t *testing.T) {
	q := `{"id": "live_relevance_3-3-0", "function": [{"name": "fetch_weather", "parameters": {"type": "dict", "required": ["lat"], "properties": {"lat": {"type": "float"}}}}]}`
	tests := []struct {
		response  string
		bfcl, cg  bool
		diffKinds string // of the callgrade semantics' verdict
	}{
		{`[{"name": "fetch_weather", "arguments": "{\"lat\": 48.8}"}]`, true, true, ""},
		{`[{"name": "fetch_weather", "arguments": "{\"lat\": 1}"}, {"name": "fetch_weather", "arguments": "{\"lat\": 2}"}]`, true, true, ""},
		// BFCL looks at neither names nor arguments (CHECKER_NOTES N11).
		{`[{"name": "not_offered", "arguments": "{}"}]`, true, true, ""},
		{`[{"name": "fetch_weather", "arguments": "{}"}]`, true, false, "schema"},
		{`[{"name": "fetch_weather", "arguments": "{\"lat\": \"north\"}"}]`, true, false, "schema"},
		// No call: an empty output, a text answer, an undecodable output.
		{`[]`, false, false, "missing_call"},
		{`null`, false, false, "missing_call"},
		{`"The weather is fine."`, false, false, "missing_call"},
		// [{}] is no call for BFCL; here a call without a name, which
		// fails as it is and does not count.
		{`[{}]`, false, false, "invalid_arguments missing_call"},
		{`[{"name": "", "arguments": "{}"}]`, false, false, "missing_call"},
		{`[{"name": "fetch_weather", "arguments": "{\"lat\": "}]`, false, false, "invalid_arguments"},
	}
	engines := map[Semantics]*engine.Engine{}
	for _, sem := range []Semantics{SemanticsBFCL, SemanticsCallgrade} {
		s, err := importText(t, q, "", sem)
		if err != nil {
			t.Fatalf("%s semantics: %v", sem, err)
		}
		y, err := s.YAML()
		if err != nil {
			t.Fatal(err)
		}
		text := string(y)
		for _, want := range []string{"calls: any\n", "min_calls: 1\n"} {
			if !strings.Contains(text, want) {
				t.Errorf("%s semantics: no %q in\n%s", sem, want, text)
			}
		}
		if strings.Contains(text, "expected") {
			t.Errorf("%s semantics: the case names expected calls:\n%s", sem, text)
		}
		if has := strings.Contains(text, "parameters"); has != (sem == SemanticsCallgrade) {
			t.Errorf("%s semantics: parameters in the tools %v:\n%s", sem, has, text)
		}
		engines[sem] = callsEngine(t, s)
	}
	for _, tt := range tests {
		resp, err := value.Parse(tt.response)
		if err != nil {
			t.Fatal(err)
		}
		for sem, want := range map[Semantics]bool{SemanticsBFCL: tt.bfcl, SemanticsCallgrade: tt.cg} {
			r, err := scoreID(engines[sem], "live_relevance_3-3-0", resp)
			if err != nil {
				t.Fatal(err)
			}
			var ks []string
			for _, d := range r.Diffs {
				ks = append(ks, string(d.Kind))
			}
			if r.Pass != want || r.Score != map[bool]float64{true: 1, false: 0}[want] {
				t.Errorf("%s semantics, %s: pass %v, score %v, want %v: %s", sem, tt.response, r.Pass, r.Score, want, r.AppendJSON(nil))
			}
			if sem == SemanticsCallgrade && strings.Join(ks, " ") != tt.diffKinds {
				t.Errorf("%s: diffs %v, want %s", tt.response, ks, tt.diffKinds)
			}
		}
	}
}

// TestRelevanceAgreement scores the live_relevance candidates of the
// shared data: every verdict is BFCL's in bfcl semantics, and in callgrade
// semantics only the calls of the wrong types or without the required
// arguments differ (docs/bfcl.md), where the candidates' authors call
// BFCL's verdict a convention (ambiguous).
func TestRelevanceAgreement(t *testing.T) {
	cands := readCandidateFile(t, "candidates-live.jsonl", "live_relevance")
	for _, sem := range []Semantics{SemanticsBFCL, SemanticsCallgrade} {
		e := importEngine(t, "live_relevance", sem, format.Calls)
		differ := map[string]int{}
		for _, c := range cands {
			if r := scoreCandidate(t, e, c); r.Pass != c.Valid {
				differ[c.Mutation]++
				if sem == SemanticsBFCL || c.Intended == nil || *c.Intended != "ambiguous" {
					t.Errorf("%s semantics, %s: callgrade %v, BFCL %v: %s", sem, c.ID, r.Pass, c.Valid, r.AppendJSON(nil))
				}
			}
		}
		for m := range differ {
			if m != "call_wrong_type" && m != "call_no_arguments" {
				t.Errorf("%s semantics: verdicts of %s differ from BFCL's", sem, m)
			}
		}
		t.Logf("%s semantics: %d candidates, differences by mutation %v", sem, len(cands), differ)
	}
}
