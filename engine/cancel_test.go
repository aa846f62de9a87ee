package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync/atomic"
	"testing"
	"time"
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

// A reader that fails mid-way is an InputError, and Run does not return
// before the reader's goroutine is done.
func TestRunReadError(t *testing.T) {
	e := load(t, `version: 1
cases: [{id: a, expected: {name: f, arguments: {x: 1}}}]
`)
	for range 20 {
		r := io.MultiReader(&limited{n: 3}, errReader{})
		_, err := e.Run(context.Background(), r, io.Discard, RunOptions{Name: "responses.jsonl"})
		var ie *InputError
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
