package engine

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/results"
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
		want[i] = string(e.newScorer().Score(i, mustParse(t, resp)).AppendJSON(nil)) + "\n"
		if li%500 == 0 {
			rb.WriteString("\n")
			id := fmt.Sprintf("nope%d", li)
			fmt.Fprintf(&rb, `{"id":%q,"response":[]}`+"\n", id)
			unknown = append(unknown, string(unknownCase(id).AppendJSON(nil))+"\n")
		}
	}
	for i := range want {
		if want[i] == "" {
			want[i] = string(e.newScorer().scoreMissing(i).AppendJSON(nil)) + "\n"
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

// Lines longer than the reader's buffer (1 MiB), just under, at and past
// it and several times it, arrive whole and unchanged: each scores as it
// does on its own, and the short lines around them too.
func TestRunLongLines(t *testing.T) {
	sizes := []int{10, 1<<20 - 100, 1 << 20, 1<<20 + 100, 3<<20 + 7, 20}
	var sb strings.Builder
	sb.WriteString("version: 1\ncases:\n")
	for i := range sizes {
		fmt.Fprintf(&sb, "  - {id: c%d, expected: {name: f, arguments: {x: v%d}, rules: {pad: ignore}}}\n", i, i)
	}
	e := load(t, sb.String())
	var rb, want strings.Builder
	for i, n := range sizes {
		// A pad of counted text, not one repeated byte, so that a part of
		// the line put in the wrong place cannot read the same.
		var pad strings.Builder
		for k := 0; pad.Len() < n; k++ {
			fmt.Fprintf(&pad, "%08d", k)
		}
		resp := fmt.Sprintf(`[{"name":"f","arguments":{"pad":%q,"x":"v%d"}}]`, pad.String()[:n], i)
		fmt.Fprintf(&rb, `{"id":"c%d","response":%s}`+"\n", i, resp)
		r := e.newScorer().Score(i, mustParse(t, resp))
		if !r.Pass {
			t.Fatalf("c%d does not pass on its own: %s", i, r.AppendJSON(nil))
		}
		want.Write(r.AppendJSON(nil))
		want.WriteByte('\n')
	}
	var out bytes.Buffer
	if _, err := e.Run(context.Background(), strings.NewReader(rb.String()), &out, RunOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != want.String() {
		t.Errorf("got\n%s\nwant\n%s", got, want.String())
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
	e, err := newEngine(s, Options{})
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

// spyWriter notes whether dir held a file while results were written.
type spyWriter struct {
	bytes.Buffer
	dir  string
	seen bool
}

func (w *spyWriter) Write(p []byte) (int, error) {
	if ents, _ := os.ReadDir(w.dir); len(ents) > 0 {
		w.seen = true
	}
	return w.Buffer.Write(p)
}

// The results of responses that name no case go to a temporary file once
// there are more than fit in memory, come out after the cases' in line
// order all the same, and the file is gone when Run returns. Where no
// temporary file can be made they stay in memory, with the same results.
func TestRunSpillsLaterLines(t *testing.T) {
	t.Run("spilled", func(t *testing.T) {
		tmp := t.TempDir()
		if w := runLaterLines(t, tmp); !w.seen {
			t.Errorf("the later lines never went to a temporary file in %s", tmp)
		}
		if ents, _ := os.ReadDir(tmp); len(ents) > 0 {
			t.Errorf("Run left %s in the temporary directory", ents[0].Name())
		}
	})
	t.Run("no temporary directory", func(t *testing.T) {
		runLaterLines(t, filepath.Join(t.TempDir(), "missing"))
	})
}

// runLaterLines runs twice spillAt bytes of results of unknown ids, with
// TMPDIR set to tmp, and checks the results.
func runLaterLines(t *testing.T, tmp string) *spyWriter {
	t.Setenv("TMPDIR", tmp)
	e := load(t, "version: 1\ncases:\n  - {id: a, expected: {name: f, arguments: {x: 1}}}\n  - {id: b, expected: {name: f, arguments: {x: 2}}}\n")
	var rb strings.Builder
	var later []string
	size := 0
	for i := 0; size < 2*spillAt; i++ {
		id := fmt.Sprintf("stray-%07d", i)
		fmt.Fprintf(&rb, `{"id":%q,"response":[]}`+"\n", id)
		r := string(unknownCase(id).AppendJSON(nil)) + "\n"
		later = append(later, r)
		size += len(r)
		if i == 1000 {
			rb.WriteString(`{"id":"b","response":[{"name":"f","arguments":{"x":2}}]}` + "\n")
		}
	}
	w := &spyWriter{dir: tmp}
	sum, err := e.Run(context.Background(), strings.NewReader(rb.String()), w, RunOptions{Name: "r", Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	want := string(e.newScorer().scoreMissing(0).AppendJSON(nil)) + "\n" +
		string(e.newScorer().Score(1, mustParse(t, `[{"name":"f","arguments":{"x":2}}]`)).AppendJSON(nil)) + "\n" +
		strings.Join(later, "")
	if got := w.String(); got != want {
		g, x := strings.Split(got, "\n"), strings.Split(want, "\n")
		for i := range min(len(g), len(x)) {
			if g[i] != x[i] {
				t.Fatalf("line %d:\n got %s\nwant %s", i+1, g[i], x[i])
			}
		}
		t.Fatalf("got %d lines, want %d", len(g), len(x))
	}
	if sum.Unknown != len(later) || sum.Missing != 1 {
		t.Errorf("summary: %d unknown, %d missing; want %d and 1", sum.Unknown, sum.Missing, len(later))
	}
	return w
}

// TestRunCountsMissingResponses: the summary counts every case with a
// missing_response, those with no line and those whose line has no
// response, whichever worker scored them.
func TestRunCountsMissingResponses(t *testing.T) {
	e := load(t, "version: 1\ncases:\n  - {id: a, expected: []}\n  - {id: b, expected: []}\n  - {id: c, expected: []}\n  - {id: d, expected: []}\n")
	for _, workers := range []int{1, 3} {
		in := `{"id":"a","response":[]}` + "\n" + `{"id":"d"}` + "\n" + `{"id":"c","response":null}` + "\n"
		sum, err := e.Run(context.Background(), strings.NewReader(in), io.Discard, RunOptions{Name: "r", Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		// b has no line, d no response; c's null response is zero calls.
		if sum.Missing != 2 || sum.ByKind[results.MissingResponse] != 2 || sum.Passed != 2 {
			t.Errorf("%d workers: %d missing, %d missing_response diffs, %d passed; want 2, 2 and 2", workers, sum.Missing, sum.ByKind[results.MissingResponse], sum.Passed)
		}
	}
}

// Arguments given as an object nested past the limit (256 levels) fail
// that call, whatever the wrappers around them add to the line's depth,
// and the response's other calls are still scored (docs/formats.md).
func TestScoreLineDeepObjectArguments(t *testing.T) {
	e := load(t, `version: 1
cases:
  - id: t
    expected: [{name: f, arguments: {x: 1}}, {name: g, arguments: {y: 2}}]
`)
	deep := strings.Repeat(`{"a":`, 257) + "1" + strings.Repeat("}", 257)
	for name, resp := range map[string]string{
		"gemini": `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"f","args":{"x":1,"d":` + deep + `}}},` +
			`{"functionCall":{"name":"g","args":{"y":2}}}]}}]}`,
		"openai object arguments": `{"choices":[{"message":{"role":"assistant","tool_calls":[{"type":"function","function":{"name":"f","arguments":{"x":1,"d":` + deep + `}}},` +
			`{"type":"function","function":{"name":"g","arguments":{"y":2}}}]}}]}`,
		"anthropic": `{"type":"message","role":"assistant","content":[{"type":"tool_use","name":"f","input":{"x":1,"d":` + deep + `}},{"type":"tool_use","name":"g","input":{"y":2}}]}`,
		"bedrock": `{"output":{"message":{"role":"assistant","content":[{"toolUse":{"toolUseId":"1","name":"f","input":{"x":1,"d":` + deep + `}}},` +
			`{"toolUse":{"toolUseId":"2","name":"g","input":{"y":2}}}]}}}`,
	} {
		t.Run(name, func(t *testing.T) {
			r, _, _, err := e.newScorer().ScoreLine(`{"id":"t","response":`+resp+`}`, 1, 0)
			if err != nil {
				t.Fatal(err)
			}
			line := string(r.AppendJSON(nil))
			if r.Pass || r.Score != 0.5 || len(r.Diffs) != 1 || r.Diffs[0].Kind != results.InvalidArguments || r.Diffs[0].Call != 0 ||
				!strings.Contains(r.Diffs[0].Message, "nesting too deep") {
				t.Errorf("want call 0 failed as too deep and call 1 passing, score 0.5\n%s", line)
			}
		})
	}
}

// OnResponse is handed each line read whole that names a case, with its
// text, from however many workers, in a run and in a partial run; not a
// blank line, one for no case, nor one too long to read.
func TestRunOnResponse(t *testing.T) {
	e := load(t, "version: 1\ncases:\n  - {id: a, expected: []}\n  - {id: b, expected: []}\n  - {id: c, expected: []}\n")
	long := `{"id":"c","response":"` + strings.Repeat("x", 200) + `"}`
	in := `{"id":"a","response":[]}` + "\n\n" + `{"id":"nope","response":[]}` + "\n" + `{"id":"b"}` + "\n" + long + "\n"
	for _, partial := range []bool{false, true} {
		for _, workers := range []int{1, 3} {
			var mu sync.Mutex
			var got []string
			opts := RunOptions{Name: "r", Workers: workers, MaxLineBytes: 100, OnResponse: func(l *results.ResponseLine, r *results.Result) {
				mu.Lock()
				got = append(got, fmt.Sprintf("%s %v %s %v", l.ID, l.HasResponse, strings.Clone(l.Text), r.Pass))
				mu.Unlock()
			}}
			var err error
			if partial {
				err = e.RunPartial(context.Background(), strings.NewReader(in), io.Discard, opts)
			} else {
				_, err = e.Run(context.Background(), strings.NewReader(in), io.Discard, opts)
			}
			if err != nil {
				t.Fatal(err)
			}
			slices.Sort(got)
			want := []string{`a true {"id":"a","response":[]} true`, `b false {"id":"b"} false`}
			if !slices.Equal(got, want) {
				t.Errorf("partial %v, %d workers: handed %q, want %q", partial, workers, got, want)
			}
		}
	}
}
