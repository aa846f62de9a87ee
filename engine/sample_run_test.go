package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/value"
)

const sampleSuite = `version: 1
cases:
  - {id: a, expected: {name: f, arguments: {x: 1}}}
  - {id: b, expected: {name: f, arguments: {x: 2}}}
  - {id: c, expected: []}
`

// withSample is the results line of r with "sample": k after its id, as a
// run with samples writes it.
func withSample(r *results.Result, k int) string {
	r.Sample, r.Sampled = k, true
	return string(r.AppendJSON(nil)) + "\n"
}

// A run with samples writes a line per case and sample, in the order of
// the cases and then of the samples, whatever the order of the lines; a
// sample without a line is a missing_response of that sample; the summary
// counts lines, and per case the passing samples and the estimates.
func TestRunWithSamples(t *testing.T) {
	e := load(t, sampleSuite)
	call := func(x int) string { return fmt.Sprintf(`[{"name":"f","arguments":{"x":%d}}]`, x) }
	// a: 3 of 3 pass; b: 1 of 3 (sample 2 has no line); c: 2 of 3.
	lines := []string{
		`{"id":"b","sample":1,"response":` + call(2) + `}`,
		`{"id":"a","sample":0,"response":` + call(1) + `}`,
		`{"id":"c","sample":2,"response":[]}`,
		`{"id":"a","sample":2,"response":` + call(1) + `}`,
		`{"id":"zz","sample":1,"response":[]}`,
		`{"id":"b","sample":0,"response":` + call(3) + `}`,
		`{"id":"a","sample":1,"response":` + call(1) + `}`,
		`{"id":"c","sample":0,"response":[]}`,
		`{"id":"c","sample":1,"response":` + call(1) + `}`,
	}
	want := withSample(e.newScorer().Score(0, mustParse(t, call(1))), 0) +
		withSample(e.newScorer().Score(0, mustParse(t, call(1))), 1) +
		withSample(e.newScorer().Score(0, mustParse(t, call(1))), 2) +
		withSample(e.newScorer().Score(1, mustParse(t, call(3))), 0) +
		withSample(e.newScorer().Score(1, mustParse(t, call(2))), 1)
	missing := e.newScorer().scoreMissing(1)
	missing.Diffs[0].Message = "the responses have no line for sample 2 of this case"
	want += withSample(missing, 2) +
		withSample(e.newScorer().Score(2, mustParse(t, `[]`)), 0) +
		withSample(e.newScorer().Score(2, mustParse(t, call(1))), 1) +
		withSample(e.newScorer().Score(2, mustParse(t, `[]`)), 2) +
		withSample(unknownCase("zz"), 1)
	for _, workers := range []int{1, 3} {
		var out bytes.Buffer
		sum, err := e.Run(context.Background(), strings.NewReader(strings.Join(lines, "\n")), &out, RunOptions{Name: "r", Workers: workers, Samples: 3, PassK: []int{3, 1, 2}})
		if err != nil {
			t.Fatal(err)
		}
		if out.String() != want {
			t.Errorf("workers %d: got\n%s\nwant\n%s", workers, out.String(), want)
		}
		if sum.Cases != 9 || sum.Passed != 6 || sum.Failed != 3 || sum.Missing != 1 || sum.Errored != 1 || sum.Unknown != 1 || sum.Samples != 3 {
			t.Errorf("summary %+v", sum)
		}
		wantPer := []results.SampleTally{{ID: "a", N: 3, Passed: 3}, {ID: "b", N: 3, Passed: 1}, {ID: "c", N: 3, Passed: 2}}
		if fmt.Sprint(sum.PerCase) != fmt.Sprint(wantPer) {
			t.Errorf("PerCase = %v, want %v", sum.PerCase, wantPer)
		}
		wantK := []results.Estimate{
			{K: 1, PassAt: 2.0 / 3, PassHat: 2.0 / 3},
			{K: 2, PassAt: (1 + 2.0/3 + 1) / 3, PassHat: (1 + 0 + 1.0/3) / 3},
			{K: 3, PassAt: (1 + 1 + 1) / 3.0, PassHat: 1 / 3.0},
		}
		for i, w := range wantK {
			g := sum.PassK[i]
			if g.K != w.K || math.Abs(g.PassAt-w.PassAt) > 1e-12 || math.Abs(g.PassHat-w.PassHat) > 1e-12 {
				t.Errorf("PassK[%d] = %+v, want %+v", i, g, w)
			}
		}
	}
}

// Without samples nothing changes: no "sample" in the results, no
// per-case figures, and a "sample" on a line is not read.
func TestRunWithoutSamplesIgnoresTheKey(t *testing.T) {
	e := load(t, sampleSuite)
	var out bytes.Buffer
	sum, err := e.Run(context.Background(), strings.NewReader(`{"id":"c","sample":7,"response":[]}`), &out, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), `"sample"`) || sum.Samples != 0 || sum.PerCase != nil || sum.PassK != nil {
		t.Errorf("a run without samples wrote %s, summary %+v", out.String(), sum)
	}
}

func TestRunSampleErrors(t *testing.T) {
	e := load(t, sampleSuite)
	ok := `{"id":"a","sample":0,"response":[]}`
	tests := []struct {
		name    string
		lines   []string
		samples int
		line    int
		msg     string
	}{
		{"no sample", []string{ok, `{"id":"a","response":[]}`}, 2, 2,
			`r:2: the line has no "sample"; with 2 samples per case, each line needs one, from 0 to 1`},
		{"out of range", []string{`{"id":"a","sample":2,"response":[]}`}, 2, 1,
			`r:1: "sample" must be an integer from 0 to 1 (2 samples per case), not 2`},
		{"negative", []string{`{"id":"a","sample":-1,"response":[]}`}, 2, 1, `not -1`},
		{"fraction", []string{`{"id":"a","sample":1.0,"response":[]}`}, 2, 1, `not 1.0`},
		{"exponent", []string{`{"id":"a","sample":1e0,"response":[]}`}, 2, 1, `not 1e0`},
		{"string", []string{`{"id":"a","sample":"1","response":[]}`}, 2, 1, `not "1"`},
		{"null", []string{`{"id":"a","sample":null,"response":[]}`}, 2, 1, `not null`},
		{"long", []string{`{"id":"a","sample":"` + strings.Repeat("x", 60) + `","response":[]}`}, 2, 1, `not "` + strings.Repeat("x", 36) + `...`},
		{"unknown case needs one too", []string{`{"id":"nope","response":[]}`}, 2, 1, `has no "sample"`},
		{"a broken line needs one", []string{`{"id":"a","response":[{"name":"f","arguments":{"x":NaN}}]}`}, 2, 1, `has no "sample"`},
		{"a broken line's is checked", []string{`{"id":"a","sample":5,"response":[{"name":"f","arguments":{"x":NaN}}]}`}, 2, 1, `not 5`},
		{"same case and sample twice", []string{ok, `{"id":"b","sample":0,"response":[]}`, ok}, 2, 3,
			`r:3: a second response for case "a" sample 0 (lines 1 and 3)`},
		{"without samples, the key hints", []string{ok, `{"id":"a","sample":1,"response":[]}`}, 0, 2,
			`r:2: a second response for case "a" (lines 1 and 2); the lines carry "sample": for several samples per case, say how many with samples: in the suite or --samples`},
		{"without samples, a plain second line", []string{`{"id":"a","response":[]}`, `{"id":"a","response":[]}`}, 0, 2,
			`r:2: a second response for case "a" (lines 1 and 2)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			_, err := e.Run(context.Background(), strings.NewReader(strings.Join(tt.lines, "\n")), &out, RunOptions{Name: "r", Samples: tt.samples})
			var ie *results.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("err = %v, want an *InputError", err)
			}
			if ie.Line != tt.line || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("err = %q (line %d), want line %d and %q", err, ie.Line, tt.line, tt.msg)
			}
			if strings.HasSuffix(tt.msg, "(lines 1 and 2)") && strings.HasSuffix(err.Error(), "--samples") {
				t.Errorf("a plain second line got the hint: %v", err)
			}
		})
	}
}

func TestRunSampleOptions(t *testing.T) {
	e := load(t, sampleSuite)
	for _, opts := range []RunOptions{
		{Samples: suite.MaxSamples + 1}, {Samples: 3, PassK: []int{4}}, {Samples: 3, PassK: []int{0}},
	} {
		if _, err := e.Run(context.Background(), strings.NewReader(""), &bytes.Buffer{}, opts); err == nil {
			t.Errorf("Run with %+v: no error", opts)
		}
	}
	// PassK without samples is not read.
	if _, err := e.Run(context.Background(), strings.NewReader(""), &bytes.Buffer{}, RunOptions{PassK: []int{9}}); err != nil {
		t.Errorf("PassK without samples: %v", err)
	}
}

// Samples 0 reads the suite's `samples:`; a negative Samples turns them
// off, one line per case, as it is without samples.
func TestRunSamplesOfSuite(t *testing.T) {
	e := load(t, strings.Replace(sampleSuite, "version: 1\n", "version: 1\nsamples: 2\n", 1))
	for _, tt := range []struct {
		samples, want int
	}{{0, 2}, {-1, 0}, {3, 3}} {
		var w bytes.Buffer
		sum, err := e.Run(context.Background(), strings.NewReader(""), &w, RunOptions{Samples: tt.samples})
		if err != nil {
			t.Fatalf("Samples %d: %v", tt.samples, err)
		}
		if sum.Samples != tt.want || sum.Cases != 3*max(tt.want, 1) {
			t.Errorf("Samples %d: %d samples, %d result lines; want %d samples", tt.samples, sum.Samples, sum.Cases, tt.want)
		}
	}
}

// Over many batches, on several workers, in an order that mixes cases and
// samples, a run with samples writes what scoring each line on its own
// gives, in case and sample order; the blocking path agrees.
func TestRunSamplesManyBatches(t *testing.T) {
	const cases, samples = 3000, 4
	var sb strings.Builder
	sb.WriteString("version: 1\ncases:\n")
	for i := range cases {
		fmt.Fprintf(&sb, "  - {id: c%d, expected: {name: f, arguments: {x: v%d, pad: %q}, rules: {x: {plugin: p.eq}}}}\n", i, i, strings.Repeat("p", i%40))
	}
	rnd := rand.New(rand.NewPCG(3, 4))
	order := rnd.Perm(cases * samples)
	var rb strings.Builder
	want := make([]string, cases*samples)
	passed := make([]int, cases)
	for _, slot := range order {
		i, k := slot/samples, slot%samples
		if (i+k)%97 == 5 {
			continue // missing
		}
		x := fmt.Sprintf("v%d", i)
		if rnd.IntN(3) == 0 {
			x = "wrong"
		} else {
			passed[i]++
		}
		fmt.Fprintf(&rb, `{"sample":%d,"id":"c%d","response":[{"name":"f","arguments":{"x":%q,"pad":%q}}]}`+"\n", k, i, x, strings.Repeat("p", i%40))
		want[slot] = fmt.Sprintf(`[{"name":"f","arguments":{"x":%q,"pad":%q}}]`, x, strings.Repeat("p", i%40))
	}
	path := t.TempDir() + "/suite.yaml"
	writeTestFile(t, path, sb.String())
	s, err := suite.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	compile := func(cmp rules.Comparator) *Engine {
		e, err := newEngine(s, Options{Extensions: rules.Extensions{Plugin: func(string, value.Value) (rules.Comparator, error) { return cmp, nil }}})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	e := compile(equalComparator{})
	var exp strings.Builder
	for slot, resp := range want {
		i, k := slot/samples, slot%samples
		var r *results.Result
		if resp == "" {
			r = e.newScorer().scoreMissing(i)
			r.Diffs[0].Message = fmt.Sprintf("the responses have no line for sample %d of this case", k)
		} else {
			r = e.newScorer().Score(i, mustParse(t, resp))
		}
		exp.WriteString(withSample(r, k))
	}
	for _, blocking := range []bool{false, true} {
		if blocking {
			e = compile(&slowEqual{blocking: true})
		}
		var out bytes.Buffer
		sum, err := e.Run(context.Background(), strings.NewReader(rb.String()), &out, RunOptions{Workers: 3, Samples: samples})
		if err != nil {
			t.Fatal(err)
		}
		if got := out.String(); got != exp.String() {
			g, x := strings.Split(got, "\n"), strings.Split(exp.String(), "\n")
			for i := range min(len(g), len(x)) {
				if g[i] != x[i] {
					t.Fatalf("blocking=%v: line %d:\n got %s\nwant %s", blocking, i+1, g[i], x[i])
				}
			}
			t.Fatalf("blocking=%v: got %d lines, want %d", blocking, len(g), len(x))
		}
		for i, c := range sum.PerCase {
			if c.N != samples || c.Passed != passed[i] || c.ID != fmt.Sprintf("c%d", i) {
				t.Fatalf("blocking=%v: PerCase[%d] = %+v, want %d passed", blocking, i, c, passed[i])
			}
		}
		if len(sum.PassK) != 1 || sum.PassK[0].K != samples {
			t.Errorf("PassK = %+v, want k = %d alone", sum.PassK, samples)
		}
	}
}

// equalComparator compares with value.Equal, without waiting.
type equalComparator struct{}

func (equalComparator) Compare(in *rules.Input) rules.Outcome {
	return rules.Outcome{Equal: value.Equal(in.Expected, in.Actual)}
}
