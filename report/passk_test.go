package report

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/engine"
	"github.com/callgrade/callgrade/internal/suite"
)

// loadSamples reads testdata/samples/results.jsonl, which `callgrade
// score` wrote from the suite and responses beside it (three samples of
// each of four cases, one sample missing, one line naming no case).
func loadSamples(t testing.TB, annotate bool) []Case {
	t.Helper()
	return loadDir(t, "testdata/samples", annotate)
}

// The fixture's results are what a run writes today, and the summary read
// back from them is the run's: the same counts, tallies and estimates.
func TestSamplesSummarizeMatchesTheRun(t *testing.T) {
	s, err := suite.Load("testdata/samples/suite.yaml")
	if err != nil {
		t.Fatal(err)
	}
	e, err := engine.New(suite.ViewOf(s), engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	in, err := os.Open("testdata/samples/responses.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	var out bytes.Buffer
	run, err := e.Run(context.Background(), in, &out, engine.RunOptions{Samples: s.Samples})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile("testdata/samples/results.jsonl")
	if !bytes.Equal(out.Bytes(), want) {
		t.Errorf("a run writes other results than testdata/samples/results.jsonl (rewrite it with callgrade score):\n%s", out.String())
	}
	got := Summarize(loadSamples(t, true))
	if got.Cases != run.Cases || got.Passed != run.Passed || got.Missing != run.Missing || got.Errored != run.Errored ||
		got.Unknown != run.Unknown || got.Samples != run.Samples || got.Samples != 3 {
		t.Errorf("summary read back %+v, the run's %+v", got, run)
	}
	if len(got.PerCase) != 4 || len(got.PassK) != 1 {
		t.Fatalf("per case %v, pass@k %v", got.PerCase, got.PassK)
	}
	for i := range run.PerCase {
		if got.PerCase[i] != run.PerCase[i] {
			t.Errorf("case %d: %+v read back, %+v in the run", i, got.PerCase[i], run.PerCase[i])
		}
	}
	if got.PassK[0] != run.PassK[0] || got.PassK[0].K != 3 || got.PassK[0].PassAt != 0.75 || got.PassK[0].PassHat != 0.25 {
		t.Errorf("pass@k read back %+v, the run's %+v, want pass@3 0.75 and pass^3 0.25", got.PassK[0], run.PassK[0])
	}
	if err := SetPassK(got, []int{1, 2}); err != nil || len(got.PassK) != 2 || math.Abs(got.PassK[0].PassAt-7.0/12) > 1e-12 {
		t.Errorf("SetPassK(1, 2): %v, %+v", err, got.PassK)
	}
	if err := SetPassK(got, []int{4}); err == nil {
		t.Error("SetPassK(4) of 3 samples: no error")
	}
}

func TestSamplesGroupsByCase(t *testing.T) {
	cases := loadSamples(t, false)
	sc := samplesOf(cases)
	type want struct {
		id        string
		n, passed int
		errored   bool
		samples   []int
	}
	wants := []want{{"weather-berlin", 3, 3, false, []int{0, 1, 2}}, {"weather-paris", 3, 2, false, []int{0, 1, 2}},
		{"flights", 3, 0, true, []int{0, 1, 2}}, {"no-tool", 3, 2, false, []int{0, 1, 2}}}
	if len(sc) != len(wants) {
		t.Fatalf("%d cases, want %d", len(sc), len(wants))
	}
	for i, w := range wants {
		g := sc[i]
		var samples []int
		for _, j := range g.lines {
			if cases[j].ID != w.id {
				t.Errorf("%s: line %d is %s's", w.id, j, cases[j].ID)
			}
			samples = append(samples, cases[j].Sample)
		}
		if g.id != w.id || g.n != w.n || g.passed != w.passed || g.errored != w.errored || g.pass() != (w.n == w.passed) ||
			fmt.Sprint(samples) != fmt.Sprint(w.samples) {
			t.Errorf("case %d: %+v with samples %v, want %+v", i, g, samples, w)
		}
	}
	if samplesOf(loadFixture(t, false)) != nil {
		t.Error("a results file without samples has sampled cases")
	}
}

func TestWriteTableSamples(t *testing.T) {
	var b bytes.Buffer
	s := Summarize(loadSamples(t, true))
	if err := SetPassK(s, []int{1, 3}); err != nil {
		t.Fatal(err)
	}
	if err := WriteTable(&b, s, TableOptions{}); err != nil {
		t.Fatal(err)
	}
	golden(t, "table-samples.golden", b.Bytes())
}

func TestWriteSamples(t *testing.T) {
	var b bytes.Buffer
	if err := WriteSamples(&b, loadSamples(t, false), []int{1, 3}, TableOptions{}); err != nil {
		t.Fatal(err)
	}
	golden(t, "samples.golden", b.Bytes())
	if err := WriteSamples(&b, loadSamples(t, false), []int{4}, TableOptions{}); err == nil {
		t.Error("k = 4 of 3 samples: no error")
	}
	b.Reset()
	if err := WriteSamples(&b, loadFixture(t, false), nil, TableOptions{}); err != nil || b.Len() != 0 {
		t.Errorf("without samples: %v, %q", err, b.String())
	}
}

// JUnit XML of a run with samples: a testcase per case, not per sample,
// failing unless every sample passed (an error when a failing sample
// errored), with the samples, the passing ones, pass@k and pass^k as
// properties; each testsuite has its cases' means.
func TestWriteJUnitSamples(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJUnit(&b, loadSamples(t, true), JUnitOptions{PassK: []int{1, 3}}); err != nil {
		t.Fatal(err)
	}
	golden(t, "junit-samples.golden", b.Bytes())
	type props struct {
		List []struct {
			Name  string `xml:"name,attr"`
			Value string `xml:"value,attr"`
		} `xml:"property"`
	}
	var doc struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Errors   int `xml:"errors,attr"`
		Suites   []struct {
			Name  string `xml:"name,attr"`
			Props props  `xml:"properties"`
			Cases []struct {
				Name    string    `xml:"name,attr"`
				Props   props     `xml:"properties"`
				Failure *struct{} `xml:"failure"`
				Error   *struct{} `xml:"error"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Tests != 5 || doc.Failures != 3 || doc.Errors != 1 || len(doc.Suites) != 2 || len(doc.Suites[0].Cases) != 4 {
		t.Fatalf("tests %d failures %d errors %d, %d suites", doc.Tests, doc.Failures, doc.Errors, len(doc.Suites))
	}
	verdicts := map[string]string{"weather-berlin": "pass", "weather-paris": "failure", "flights": "error", "no-tool": "failure"}
	for _, c := range doc.Suites[0].Cases {
		got := "pass"
		if c.Failure != nil {
			got = "failure"
		}
		if c.Error != nil {
			got = "error"
		}
		if got != verdicts[c.Name] {
			t.Errorf("%s: %s, want %s", c.Name, got, verdicts[c.Name])
		}
		if len(c.Props.List) != 6 || c.Props.List[0].Name != "samples" || c.Props.List[0].Value != "3" || c.Props.List[5].Name != "pass^3" {
			t.Errorf("%s: properties %+v", c.Name, c.Props)
		}
	}
	if p := doc.Suites[0].Props.List; len(p) != 4 || p[2].Name != "pass@3" || p[2].Value != "0.75" || p[3].Value != "0.25" {
		t.Errorf("testsuite properties %+v", p)
	}
	if err := WriteJUnit(&b, loadSamples(t, true), JUnitOptions{PassK: []int{9}}); err == nil {
		t.Error("k = 9 of 3 samples: no error")
	}
}

// Comparing runs with samples compares cases by all their samples.
func TestCompareSamples(t *testing.T) {
	old := loadSamples(t, true)
	cur := loadSamples(t, true)
	// weather-berlin's sample 1 fails now (a regression); flights' samples
	// all pass now (a fix); weather-paris goes from 2 to 3 of 3 (a fix).
	for i := range cur {
		c := &cur[i]
		switch {
		case c.ID == "weather-berlin" && c.Sample == 1:
			c.Pass, c.Score, c.Diffs = false, 0, old[4].Diffs
		case c.ID == "flights", c.ID == "weather-paris":
			c.Pass, c.Score, c.Diffs = true, 1, nil
		}
	}
	cmp := Compare(old, cur)
	if !cmp.samples || len(cmp.regressed) != 1 || cmp.regressed[0].id != "weather-berlin" || len(cmp.fixed) != 2 {
		t.Fatalf("regressed %+v, fixed %+v", cmp.regressed, cmp.fixed)
	}
	r := cmp.regressed[0]
	if r.oldPassed != 3 || r.newPassed != 2 || r.oldSamples != 3 || math.Abs(r.newScore-2.0/3) > 1e-12 {
		t.Errorf("regression %+v", r)
	}
	if cmp.all.oldCases != 4 || cmp.all.oldPassed != 1 || cmp.all.newPassed != 2 {
		t.Errorf("all cases %+v: want 4 cases, 1 passing every sample before and 2 now", cmp.all)
	}
	if len(cmp.oldPassK) != 1 || cmp.oldPassK[0].PassAt != 0.75 || cmp.newPassK[0].PassAt != 1 || cmp.newPassK[0].PassHat != 0.5 {
		t.Errorf("pass@k %+v -> %+v", cmp.oldPassK, cmp.newPassK)
	}
	var b bytes.Buffer
	if err := cmp.WriteText(&b, TableOptions{}); err != nil {
		t.Fatal(err)
	}
	golden(t, "compare-samples.golden", b.Bytes())

	// Against a run without samples, a case is one sample.
	plain := loadFixture(t, true)
	if c := Compare(plain, cur); !c.samples || c.oldPassK[0].K != 1 {
		t.Errorf("compared with a run without samples: %+v", c)
	}
}

// The calls of each sample are attached to its own line.
func TestAttachResponsesSamples(t *testing.T) {
	cases := loadSamples(t, true)
	for _, c := range cases {
		if c.ID == "weather-paris" {
			city := `"Paris"`
			if c.Sample == 1 {
				city = `"paris"`
			}
			if !strings.Contains(string(c.actual), `"city":`+city) {
				t.Errorf("sample %d: actual calls %s, want city %s", c.Sample, c.actual, city)
			}
		}
		if c.ID == "flights" && c.Sample == 1 && c.actual != nil {
			t.Errorf("flights' missing sample 1 has calls %s", c.actual)
		}
	}
}
