package engine

import (
	"testing"

	"github.com/callgrade/callgrade/results"
)

// FuzzSampleLine: for any line and number of samples, scoring it either
// fails with a *results.InputError naming the line, or gives a result that
// carries a sample in range, whose results line reads back with it.
// (That the two readers of "sample" agree is results' FuzzSampleReaders.)
func FuzzSampleLine(f *testing.F) {
	for _, seed := range []string{
		`{"id":"a","sample":0,"response":[{"name":"f","arguments":{"x":1}}]}`,
		`{"id":"a","sample":2,"response":[]}`,
		`{"id":"b","sample":1}`,
		`{"id":"nope","sample":0,"response":[]}`,
		`{"id":"a","response":[]}`,
		`{"id":"a","sample":"1","response":[]}`,
		`{"id":"a","sample":1.0,"response":[]}`,
		`{"id":"a","sample":-0,"response":[]}`,
		`{"id":"a","sample":01,"response":[]}`,
		`{"id":"a","sample":1,"sample":0,"response":[]}`,
		`{"id":"a","sample":1,"response":[{"name":"f","arguments":{"x":NaN}}]}`,
		`{"sample":1,"id":7,"response":null}`,
	} {
		f.Add(seed, 3)
	}
	e := load(f, sampleSuite)
	sc := e.newScorer()
	f.Fuzz(func(t *testing.T, line string, samples int) {
		samples = 1 + (samples%8+8)%8
		r, i, k, err := sc.ScoreLine(line, 4, samples)
		if err != nil {
			ie, ok := err.(*results.InputError)
			if !ok || ie.Line != 4 {
				t.Fatalf("error %v (%T) does not name line 4", err, err)
			}
		} else {
			if !r.Sampled || r.Sample != k || k < 0 || k >= samples || i < -1 || i >= len(e.cases) {
				t.Fatalf("case %d sample %d, result sample %d (%v) of %d", i, k, r.Sample, r.Sampled, samples)
			}
			var back results.Result
			if err := back.UnmarshalJSON(r.AppendJSON(nil)); err != nil || !back.Sampled || back.Sample != k {
				t.Fatalf("results line %s reads back as sample %d (%v), %v", r.AppendJSON(nil), back.Sample, back.Sampled, err)
			}
		}
	})
}
