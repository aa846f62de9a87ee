package engine

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/value"
)

// slowEqual is a comparator that waits, as a plugin's does, and records how
// many comparisons were waiting at once.
type slowEqual struct {
	blocking          bool
	inFlight, maxSeen atomic.Int32
}

func (s *slowEqual) Blocking() bool { return s.blocking }

func (s *slowEqual) Compare(in *rules.Input) rules.Outcome {
	n := s.inFlight.Add(1)
	for {
		m := s.maxSeen.Load()
		if n <= m || s.maxSeen.CompareAndSwap(m, n) {
			break
		}
	}
	time.Sleep(2 * time.Millisecond)
	s.inFlight.Add(-1)
	return rules.Outcome{Equal: value.Equal(in.Expected, in.Actual)}
}

// TestBlockingComparatorsSeeManyComparisonsAtOnce: with a comparator that
// blocks, one worker scores many lines at once, so that a plugin can batch
// them; the results are the same as scoring line by line.
func TestBlockingComparatorsSeeManyComparisonsAtOnce(t *testing.T) {
	var sb, rb strings.Builder
	sb.WriteString("version: 1\ncases:\n")
	for i := range 200 {
		fmt.Fprintf(&sb, "  - {id: c%d, expected: {name: f, arguments: {x: %d}, rules: {x: {plugin: slow.eq}}}}\n", i, i)
		x := i
		if i%7 == 0 {
			x++ // some fail
		}
		fmt.Fprintf(&rb, `{"id":"c%d","response":[{"name":"f","arguments":{"x":%d}}]}`+"\n", i, x)
	}
	run := func(blocking bool) (string, int32) {
		cmp := &slowEqual{blocking: blocking}
		path := t.TempDir() + "/suite.yaml"
		writeTestFile(t, path, sb.String())
		s, err := suite.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		e, err := newEngine(s, Options{Extensions: rules.Extensions{Plugin: func(string, value.Value) (rules.Comparator, error) { return cmp, nil }}})
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		sum, err := e.Run(context.Background(), strings.NewReader(rb.String()), &out, RunOptions{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		if sum.Cases != 200 || sum.Failed != 29 {
			t.Fatalf("blocking=%v: %d cases, %d failed; want 200 and 29", blocking, sum.Cases, sum.Failed)
		}
		return out.String(), cmp.maxSeen.Load()
	}
	serial, one := run(false)
	atOnce, many := run(true)
	if one != 1 {
		t.Errorf("a comparator that does not block saw %d comparisons at once with one worker, want 1", one)
	}
	if many < 16 {
		t.Errorf("a blocking comparator saw at most %d comparisons at once, want many", many)
	}
	if serial != atOnce {
		t.Error("scoring lines at once changed the results")
	}
}

func writeTestFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
