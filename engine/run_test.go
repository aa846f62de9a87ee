package engine

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/suite"
	"github.com/callgrade/callgrade/value"
)

// Run over many batches, with lines out of order, unknown ids, blank lines
// and missing responses, writes what scoring each case on its own gives:
// the buffers it recycles between batches never leak one line's result
// into another's.
func TestRunManyBatches(t *testing.T) {
	const n = 20000
	var sb strings.Builder
	sb.WriteString("version: 1\ncases:\n")
	for i := range n {
		fmt.Fprintf(&sb, "  - {id: c%d, expected: {name: f, arguments: {x: v%d, pad: %q}, rules: {x: case_insensitive}}}\n", i, i, strings.Repeat("p", i%50))
	}
	e := load(t, sb.String())

	rnd := rand.New(rand.NewPCG(1, 2))
	order := rnd.Perm(n)
	// Mostly in order, with stretches shuffled.
	for i := range order {
		order[i] = i
	}
	for k := 0; k < n; k += 997 {
		j := min(k+50, n)
		rnd.Shuffle(j-k, func(a, b int) { order[k+a], order[k+b] = order[k+b], order[k+a] })
	}
	var rb strings.Builder
	var unknown []string
	want := make([]string, n)
	for li, i := range order {
		if i%101 == 7 {
			continue // no response: missing_response
		}
		x := fmt.Sprintf("V%d", i)
		if i%3 == 0 {
			x = fmt.Sprintf("w%d", i)
		}
		resp := fmt.Sprintf(`[{"name":"f","arguments":{"x":%q,"pad":%q}}]`, x, strings.Repeat("p", i%50))
		fmt.Fprintf(&rb, `{"id":"c%d","response":%s}`+"\n", i, resp)
		want[i] = string(e.Score(i, mustParse(t, resp)).AppendJSON(nil)) + "\n"
		if li%500 == 0 {
			rb.WriteString("\n")
			id := fmt.Sprintf("nope%d", li)
			fmt.Fprintf(&rb, `{"id":%q,"response":[]}`+"\n", id)
			unknown = append(unknown, string(UnknownCaseResult(id).AppendJSON(nil))+"\n")
		}
	}
	for i := range want {
		if want[i] == "" {
			want[i] = string(e.MissingResponse(i).AppendJSON(nil)) + "\n"
		}
	}
	var out bytes.Buffer
	sum, err := e.Run(context.Background(), strings.NewReader(rb.String()), &out, RunOptions{Name: "r", Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	got := out.String()
	if exp := strings.Join(want, "") + strings.Join(unknown, ""); got != exp {
		g, x := strings.Split(got, "\n"), strings.Split(exp, "\n")
		for i := range min(len(g), len(x)) {
			if g[i] != x[i] {
				t.Fatalf("line %d:\n got %s\nwant %s", i+1, g[i], x[i])
			}
		}
		t.Fatalf("got %d lines, want %d", len(g), len(x))
	}
	if sum.Cases != n || sum.Unknown != len(unknown) {
		t.Errorf("summary %+v", sum)
	}
}

// A Suite built by hand may repeat an id; the line for it then scores the
// case the index names (the last one), whatever order it comes in.
func TestRunDuplicateIDs(t *testing.T) {
	args := func(s string) value.Value {
		v, _ := value.ObjectOf(value.Member{Key: "x", Value: value.StringOf(s)})
		return v
	}
	s := &suite.Suite{Version: 1, Defaults: suite.Defaults{ExtraFields: suite.ExtraReject, Calls: suite.CallsOrdered}, Cases: []suite.Case{
		{ID: "a", Expected: []suite.Call{{Name: "f", Arguments: args("1")}}},
		{ID: "a", Expected: []suite.Call{{Name: "f", Arguments: args("2")}}},
	}}
	e, err := New(s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if _, err := e.Run(context.Background(), strings.NewReader(`{"id":"a","response":[{"name":"f","arguments":{"x":"2"}}]}`+"\n"), &out, RunOptions{}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "missing_response") || !strings.Contains(lines[1], `"pass":true`) {
		t.Errorf("got\n%s", out.String())
	}
}
