package engine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/internal/response"
	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/value"
)

// randomRunCase writes a case of up to 6 steps to the tools a, b and c,
// each with arguments x and maybe y of 0 or 1, some with y given by a
// reference to the last call to a (whose weight then depends on where
// the call is), and a run of up to 6 calls, half of them copies of a step,
// some changed, with an extra argument now and then: pairs that pass,
// that half match, that fail, ties.
func randomRunCase(rng *rand.Rand) (steps string, run *response.Run) {
	tools := []string{"a", "b", "c"}
	n, m := rng.IntN(7), rng.IntN(7)
	type call struct {
		name string
		args []value.Member
	}
	exp := make([]call, n)
	parts := make([]string, n)
	for a := range exp {
		c := call{name: tools[rng.IntN(3)]}
		c.args = append(c.args, value.Member{Key: "x", Value: value.Int(int64(rng.IntN(2)))})
		var rules string
		switch rng.IntN(5) {
		case 0:
			rules = `,"rules":{"y":{"from":"a.arguments.x"}}`
		case 1, 2:
			c.args = append(c.args, value.Member{Key: "y", Value: value.Int(int64(rng.IntN(2)))})
		}
		exp[a] = c
		obj, _ := value.ObjectOf(c.args...)
		parts[a] = fmt.Sprintf(`{"name":%q,"arguments":%s%s}`, c.name, obj.AppendJSON(nil), rules)
	}
	run = &response.Run{}
	for b := range m {
		var c call
		if n > 0 && rng.IntN(2) == 0 {
			c = exp[rng.IntN(n)]
			c.args = slices.Clone(c.args)
			if rng.IntN(3) == 0 {
				k := rng.IntN(len(c.args))
				c.args[k].Value = value.Int(int64(rng.IntN(2)))
			}
		} else {
			c.name = tools[rng.IntN(3)]
			c.args = []value.Member{{Key: "x", Value: value.Int(int64(rng.IntN(2)))}}
			if rng.IntN(2) == 0 {
				c.args = append(c.args, value.Member{Key: "y", Value: value.Int(int64(rng.IntN(2)))})
			}
		}
		if rng.IntN(8) == 0 {
			c.args = append(c.args, value.Member{Key: "z", Value: value.Int(1)})
		}
		args, _ := value.ObjectOf(c.args...)
		run.Steps = append(run.Steps, response.Step{Call: response.Call{Name: c.name, Args: args}, Turn: b})
	}
	return "[" + strings.Join(parts, ",") + "]", run
}

// bruteScoreRun is what ScoreRun must give for a case of steps under
// `ordered` or `in_order`, found the slow way: every monotone alignment of
// same-name pairs, each pair weighed by the engine's own verdict (its
// score, then 1e-6 for a pass, then 1e-7 for the agreeing names), the
// largest sum taken, the first in bruteAlign's order among equal ones;
// then the calls of the result line, the score and the verdict as
// docs/trajectories.md says.
func bruteScoreRun(e *Engine, i int, run *response.Run, mode suite.CallMatch) (calls []results.CallResult, score float64, pass bool) {
	exp := e.cases[i].expected
	rv := newRunView(run, true, nil)
	defer rv.release()
	n, m := len(exp), len(rv.calls)
	verd := make([]verdict, n*m)
	weight := func(a, b int) float64 {
		if exp[a].name != rv.calls[b].Name {
			return -1
		}
		v := verd[a*m+b]
		w := v.score + 1e-7
		if v.pass {
			w += 1e-6
		}
		return w
	}
	for a := range n {
		for b := range m {
			if exp[a].name == rv.calls[b].Name {
				verd[a*m+b] = e.weigh(&exp[a], &rv.calls[b], rv, b, nil, false)
			}
		}
	}
	pairs, _ := bruteAlign(n, m, weight)
	pass = true
	var sum float64
	taken := make([]bool, m)
	for a, b := range pairs {
		if b < 0 {
			calls = append(calls, results.CallResult{Expected: a, Actual: -1})
			pass = false
			continue
		}
		v := verd[a*m+b]
		calls = append(calls, results.CallResult{Expected: a, Actual: b, Pass: v.pass, Score: v.score})
		pass = pass && v.pass
		sum += v.score
		taken[b] = true
	}
	den := n
	if mode == suite.CallsOrdered || n == 0 {
		// Nothing is tolerated (in_order tolerates calls besides the
		// expected ones, but besides none there are none to tolerate).
		for b := range m {
			if !taken[b] {
				calls = append(calls, results.CallResult{Expected: -1, Actual: b})
				pass = false
			}
		}
		den = max(n, m)
	}
	score = 1
	if den > 0 {
		score = sum / float64(den)
	}
	return calls, score, pass
}

// TestScoreRunAgainstBruteForce holds ScoreRun under `ordered` and
// `in_order`, the fast path ("every step finds a passing call after the
// previous one's") and the dynamic programme alike, to bruteScoreRun on
// small random runs: the same pairs, pair scores, score and verdict.
func TestScoreRunAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 7))
	iters := 8000
	if testing.Short() {
		iters = 300
	}
	modes := []suite.CallMatch{suite.CallsOrdered, suite.CallsInOrder}
	fast, passed := 0, 0
	// The cases go in suites of a batch each, both modes of each, so that
	// a suite compiles once per batch, not once per run.
	const batch = 250
	for start := 0; start < iters; start += batch {
		var cases []string
		var runs []*response.Run
		var stepsOf []string
		for range min(batch, iters-start) {
			steps, run := randomRunCase(rng)
			for _, mode := range modes {
				cases = append(cases, fmt.Sprintf(`{"id":"t%d","calls":%q,"steps":%s}`, len(cases), mode, steps))
			}
			runs, stepsOf = append(runs, run), append(stepsOf, steps)
		}
		e := loadJSON(t, `{"cases":[`+strings.Join(cases, ",")+`]}`)
		sc := e.newScorer()
		for i := range cases {
			run, mode := runs[i/2], modes[i%2]
			r := sc.scoreRun(i, run)
			calls, score, pass := bruteScoreRun(e, i, run, mode)
			if !slices.Equal(r.Calls, calls) || r.Score != score || r.Pass != pass || r.Pass != (len(r.Diffs) == 0) {
				t.Fatalf("run %d, %s, steps %s, run %s:\n got %v %v %+v\nwant %v %v %+v\n%s",
					start+i/2, mode, stepsOf[i/2], runText(run), r.Pass, r.Score, r.Calls, pass, score, calls, r.AppendJSON(nil))
			}
			if pass {
				passed++
			}
			if n := len(e.cases[i].expected); n > 0 && len(r.Calls) >= n && allPassed(r.Calls[:n]) {
				fast++
			}
		}
	}
	t.Logf("%d runs, %d with every step passing, %d passing", 2*iters, fast, passed)
	// The runs must reach both paths, and fail and pass.
	if fast < iters/20 || passed < iters/20 || passed > iters*2-iters/5 {
		t.Errorf("%d runs of %d with every step passing, %d passing: the generator no longer covers both paths", fast, 2*iters, passed)
	}
}

func allPassed(calls []results.CallResult) bool {
	for _, c := range calls {
		if !c.Pass {
			return false
		}
	}
	return true
}

func runText(run *response.Run) string {
	var parts []string
	for _, st := range run.Steps {
		parts = append(parts, st.Name+st.Args.String())
	}
	return "[" + strings.Join(parts, " ") + "]"
}
