package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/results"
)

// partialShards cuts lines before each of cuts, runs each part through
// RunPartial and returns the parts' outputs as shards.
func partialShards(t *testing.T, e *Engine, lines []string, cuts []int, samples int) []Shard {
	t.Helper()
	var shards []Shard
	prev := 0
	for k, c := range append(cuts, len(lines)) {
		var in string
		for _, l := range lines[prev:c] {
			in += l + "\n"
		}
		n := c - prev
		prev = c
		var out bytes.Buffer
		if err := e.RunPartial(context.Background(), strings.NewReader(in), &out, RunOptions{Name: "part", Samples: samples, Workers: 1 + k%3}); err != nil {
			t.Fatalf("part %d: %v", k, err)
		}
		if got := bytes.Count(out.Bytes(), []byte("\n")); got != n {
			t.Fatalf("part %d: %d partial lines for %d lines", k, got, n)
		}
		shards = append(shards, Shard{Name: fmt.Sprintf("p%d", k), R: bytes.NewReader(out.Bytes()), Size: int64(out.Len())})
	}
	return shards
}

// Merging the partial runs of any cut of the lines gives Run's results
// file and results.Summary, with samples or without.
func TestMergeIsRun(t *testing.T) {
	e := load(t, sampleSuite)
	call := func(x int) string { return fmt.Sprintf(`[{"name":"f","arguments":{"x":%d}}]`, x) }
	plain := []string{
		`{"id":"b","response":` + call(2) + `}`,
		``,
		`{"id":"zz","response":[]}`,
		`{"id":"a"}`,
		`{"id":"c","response":[{"name":"f","arguments":{"x":1,}}]}`,
		`  `,
		`{"id":"zz","response":[]}`,
	}
	sampled := []string{
		`{"id":"b","sample":1,"response":` + call(2) + `}`,
		`{"id":"a","sample":0,"response":` + call(1) + `}`,
		`{"id":"c","sample":2,"response":[]}`,
		``,
		`{"id":"a","sample":2,"response":` + call(1) + `}`,
		`{"id":"zz","sample":1,"response":[]}`,
		`{"id":"b","sample":0}`,
		`{"id":"a","sample":1,"response":` + call(1) + `}`,
		`{"id":"c","sample":0,"response":[]}`,
		`{"id":"c","sample":1,"response":` + call(1) + `,}`,
	}
	rnd := rand.New(rand.NewPCG(30, 30))
	for _, tc := range []struct {
		lines   []string
		samples int
	}{{plain, 0}, {sampled, 3}} {
		for round := range 40 {
			lines := append([]string(nil), tc.lines...)
			if round > 0 {
				rnd.Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
			}
			in := strings.Join(lines, "\n") + "\n"
			var want bytes.Buffer
			wantSum, err := e.Run(context.Background(), strings.NewReader(in), &want, RunOptions{Samples: tc.samples, PassK: []int{1}})
			if err != nil {
				t.Fatal(err)
			}
			for cut := 0; cut <= len(lines); cut++ {
				cuts := []int{cut}
				if round%2 == 1 {
					cuts = []int{rnd.IntN(cut + 1), cut}
				}
				var got bytes.Buffer
				sum, err := e.Merge(context.Background(), partialShards(t, e, lines, cuts, tc.samples), &got, RunOptions{Samples: tc.samples, PassK: []int{1}})
				if err != nil {
					t.Fatalf("cuts %v: %v", cuts, err)
				}
				if got.String() != want.String() {
					t.Fatalf("samples %d, cuts %v of\n%s\nmerged:\n%s\nwant:\n%s", tc.samples, cuts, in, got.String(), want.String())
				}
				sum.ScoreSum, wantSum.ScoreSum = 0, 0 // summed in another order
				if !reflect.DeepEqual(sum, wantSum) {
					t.Fatalf("cuts %v: summary %+v, want %+v", cuts, sum, wantSum)
				}
			}
		}
	}
}

func TestMergeSecondLine(t *testing.T) {
	e := load(t, sampleSuite)
	lines := []string{`{"id":"a","response":[]}`, `{"id":"b","response":[]}`, ``, `{"id":"a","response":[]}`}
	var out bytes.Buffer
	_, err := e.Merge(context.Background(), partialShards(t, e, lines, []int{2}, 0), &out, RunOptions{})
	var ie *results.InputError
	if !errors.As(err, &ie) || ie.Error() != `p1:2: a second response for case "a" (p0:1 and p1:2)` || out.Len() > 0 {
		t.Errorf("a case in two parts: %v, %q", err, out.String())
	}
	err = e.RunPartial(context.Background(), strings.NewReader(strings.Join(lines, "\n")), &out, RunOptions{Name: "r"})
	if err == nil || err.Error() != `r:4: a second response for case "a" (lines 1 and 4)` {
		t.Errorf("a case twice in one part: %v", err)
	}
}
