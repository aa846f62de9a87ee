package engine

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/internal/response"
	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/value"
)

// fuzzRun reads a run from bytes: each pair of bytes is a call to one of
// four tools with an argument x of one of four values.
func fuzzRun(data []byte) *response.Run {
	run := &response.Run{}
	for i := 0; i+1 < len(data) && len(run.Steps) < 8; i += 2 {
		args, _ := value.ObjectOf(value.Member{Key: "x", Value: value.Int(int64(data[i+1] % 4))})
		run.Steps = append(run.Steps, response.Step{Call: response.Call{Name: string(rune('a' + data[i]%4)), Args: args}, Turn: i / 2})
	}
	return run
}

// stepsOf writes a run's calls as the steps of a case.
func stepsOf(run *response.Run) string {
	var parts []string
	for _, st := range run.Steps {
		x, _ := st.Args.Get("x")
		parts = append(parts, `{"name":"`+st.Name+`","arguments":{"x":`+x.Str()+`}}`)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// FuzzAlign scores runs against the steps of another run in every mode:
// no panic, a score in [0, 1], a run against its own steps passes with 1,
// ScoreRun under ordered and in_order agrees with bruteScoreRun, and
// alignWeights agrees with the brute force on the pair weights.
func FuzzAlign(f *testing.F) {
	f.Add([]byte{0, 1, 1, 2}, []byte{2, 0, 0, 1, 1, 2})
	f.Add([]byte{}, []byte{0, 0})
	f.Add([]byte{0, 0, 0, 0, 0, 0}, []byte{0, 0, 0, 1, 0, 0})
	f.Fuzz(func(t *testing.T, exp, act []byte) {
		want, got := fuzzRun(exp), fuzzRun(act)
		for _, mode := range []string{"ordered", "in_order", "unordered", "superset", "subset", "greedy"} {
			e := loadJSON(t, `{"cases":[{"id":"t","calls":"`+mode+`","steps":`+stepsOf(want)+`}]}`)
			r := e.newScorer().scoreRun(0, got)
			if !(r.Score >= 0 && r.Score <= 1) || r.Pass != (len(r.Diffs) == 0) || r.Pass && r.Score != 1 {
				t.Fatalf("%s: %s", mode, r.AppendJSON(nil))
			}
			if self := e.newScorer().scoreRun(0, want); !self.Pass || self.Score != 1 {
				t.Fatalf("%s: a run against its own steps: %s", mode, self.AppendJSON(nil))
			}
			if (mode == "ordered" || mode == "in_order") && len(want.Steps) <= 6 && len(got.Steps) <= 6 {
				calls, score, pass := bruteScoreRun(e, 0, got, suite.CallMatch(mode))
				if !slices.Equal(r.Calls, calls) || r.Score != score || r.Pass != pass {
					t.Fatalf("%s: brute force %v %v %+v\n%s", mode, pass, score, calls, r.AppendJSON(nil))
				}
			}
		}
		n, m := len(want.Steps), len(got.Steps)
		if n > 6 || m > 6 {
			return
		}
		weight := func(a, b int) float64 {
			if want.Steps[a].Name != got.Steps[b].Name {
				return -1
			}
			w := 1e-7
			if value.Equal(want.Steps[a].Args, got.Steps[b].Args) {
				w += 1 + 1e-6
			}
			return w
		}
		pairs := make([]int, n)
		sum := alignWeights(n, m, weight, make([]float64, (n+1)*(m+1)), pairs)
		bp, bs := bruteAlign(n, m, weight)
		if math.Abs(sum-bs) > alignEps || !slices.Equal(pairs, bp) {
			t.Fatalf("align %v (%v), brute force %v (%v)", pairs, sum, bp, bs)
		}
	})
}

// loadJSON compiles a suite written as JSON.
func loadJSON(t testing.TB, doc string) *Engine {
	t.Helper()
	v, err := value.Parse(doc)
	if err != nil {
		t.Fatal(err)
	}
	s, err := suite.FromValue("suite.json", v)
	if err != nil {
		t.Fatal(err)
	}
	e, err := newEngine(s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return e
}
