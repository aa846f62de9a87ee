package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/value"
)

// endlessLines is a responses stream that never ends: line after line for
// the suite's one case id and unknown ones, counting its reads.
type endlessLines struct {
	reads  atomic.Int64
	cancel func() // called once, after the given number of reads
	after  int64
	n      int
}

func (r *endlessLines) Read(p []byte) (int, error) {
	if k := r.reads.Add(1); k == r.after {
		r.cancel()
	}
	var b []byte
	for len(b) < min(len(p), 4096)-64 {
		b = fmt.Appendf(b, `{"id":"u%d","response":[{"name":"f","arguments":{"x":1}}]}`+"\n", r.n)
		r.n++
	}
	return copy(p, b), nil
}

// TestRunCancelled cancels runs mid-way: Run returns the context's error,
// and it has stopped reading the caller's reader when it does (under
// -race, the reader's goroutine and Run share nothing unsynchronised).
func TestRunCancelled(t *testing.T) {
	e := load(t, `version: 1
cases: [{id: a, expected: {name: f, arguments: {x: 1}}}]
`)
	for i := range 50 {
		ctx, cancel := context.WithCancel(context.Background())
		r := &endlessLines{cancel: cancel, after: int64(1 + i%7)}
		_, err := e.Run(ctx, r, io.Discard, RunOptions{Name: "responses.jsonl", Workers: 1 + i%3})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("run %d: err = %v, want context.Canceled", i, err)
		}
		n := r.reads.Load()
		time.Sleep(time.Millisecond)
		if m := r.reads.Load(); m != n {
			t.Fatalf("run %d: %d reads after Run returned", i, m-n)
		}
		cancel()
	}
}

// A reader that fails mid-way is a results.InputError, and Run does not return
// before the reader's goroutine is done.
func TestRunReadError(t *testing.T) {
	e := load(t, `version: 1
cases: [{id: a, expected: {name: f, arguments: {x: 1}}}]
`)
	for range 20 {
		r := io.MultiReader(&limited{n: 3}, errReader{})
		_, err := e.Run(context.Background(), r, io.Discard, RunOptions{Name: "responses.jsonl"})
		var ie *results.InputError
		if !errors.As(err, &ie) || !errors.Is(err, errBroken) {
			t.Fatalf("err = %v", err)
		}
	}
}

var errBroken = errors.New("broken pipe")

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errBroken }

// limited is endlessLines for n reads.
type limited struct {
	n int
	l endlessLines
}

func (r *limited) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	r.n--
	r.l.cancel = func() {}
	return r.l.Read(p)
}

// ctxComparator counts its comparisons and notes the context of each.
type ctxComparator struct {
	n    int
	ctxs []context.Context
}

func (c *ctxComparator) Compare(in *rules.Input) rules.Outcome {
	c.n++
	c.ctxs = append(c.ctxs, in.Ctx)
	return rules.Outcome{Equal: value.Equal(in.Expected, in.Actual)}
}

// A Scorer's context reaches every comparison (a plugin's waits on it),
// in a case's calls and in a run's never and final; once it is done, the
// pairs of an unordered case are no longer weighed.
func TestScorerContext(t *testing.T) {
	cmp := &ctxComparator{}
	ext := rules.Extensions{Plugin: func(string, value.Value) (rules.Comparator, error) { return cmp, nil }}
	var sb strings.Builder
	sb.WriteString("version: 1\ncases:\n  - id: many\n    calls: unordered\n    expected:\n")
	var resp []string
	for i := range 30 {
		fmt.Fprintf(&sb, "      - {name: f, arguments: {x: %d}, rules: {x: {plugin: p.eq}}}\n", i)
		resp = append(resp, fmt.Sprintf(`{"name":"f","arguments":{"x":%d}}`, 29-i))
	}
	sb.WriteString(`  - id: run
    steps: [{name: f, arguments: {x: 1}, rules: {x: {plugin: p.eq}}}]
    never: [{name: g, arguments: {y: 1}, rules: {y: {plugin: p.eq}}}]
    final: {plugin: p.eq}
`)
	e := loadWith(t, sb.String(), Options{Extensions: ext})
	many := `{"id":"many","response":[` + strings.Join(resp, ",") + `]}`
	run := `{"id":"run","response":[{"role":"assistant","content":null,"tool_calls":[` +
		`{"id":"c1","type":"function","function":{"name":"f","arguments":"{\"x\": 1}"}},` +
		`{"id":"c2","type":"function","function":{"name":"g","arguments":"{\"y\": 1}"}}]},` +
		`{"role":"tool","tool_call_id":"c1","content":"ok"},{"role":"tool","tool_call_id":"c2","content":"ok"},` +
		`{"role":"assistant","content":"done"}]}`

	ctx, cancel := context.WithCancel(context.Background())
	sc := e.newScorer()
	sc.setContext(ctx)
	if r, _, _, err := sc.ScoreLine(many, 1, 0); err != nil || !r.Pass {
		t.Fatalf("%v %+v", err, r)
	}
	weighed := cmp.n
	if _, _, _, err := sc.ScoreLine(run, 2, 0); err != nil {
		t.Fatal(err)
	}
	if cmp.n < weighed+3 {
		t.Errorf("the run's calls, never and final were compared %d times, want 3 or more", cmp.n-weighed)
	}
	for i, c := range cmp.ctxs {
		if c != ctx {
			t.Fatalf("comparison %d had the context %v", i, c)
		}
	}

	cancel()
	cmp.n = 0
	sc.ScoreLine(many, 1, 0)
	if cmp.n > 30 || weighed < 100 {
		t.Errorf("cancelled: %d comparisons, %d before", cmp.n, weighed)
	}
	sc.setContext(nil)
	cmp.n, cmp.ctxs = 0, nil
	if r, _, _, _ := sc.ScoreLine(many, 1, 0); !r.Pass || cmp.n != weighed || cmp.ctxs[0] != nil {
		t.Errorf("without a context: pass %v, %d comparisons, want %d", r.Pass, cmp.n, weighed)
	}
}
