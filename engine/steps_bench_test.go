package engine

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/internal/response"

	"github.com/callgrade/callgrade/internal/suite"
)

// agentSuite writes a suite of cases cases of n steps each: a find call,
// then n-1 calls that refer to its result, in_order, with never and final.
func agentSuite(tb testing.TB, dir string, cases, n int) string {
	var b strings.Builder
	b.WriteString("{\"version\":1,\"cases\":[\n")
	for c := range cases {
		if c > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"id":"c%d","calls":"in_order","never":["delete_account"],"max_calls":%d,"final":{"regex":"done"},"steps":[`, c, n+2)
		b.WriteString(`{"name":"find","arguments":{"q":"x"},"result":{"error":false,"id":{"type":"string"}}}`)
		for k := 1; k < n; k++ {
			fmt.Fprintf(&b, `,{"name":"act","arguments":{"k":%d},"rules":{"id":{"from":"find.result.id"}}}`, k)
		}
		b.WriteString("]}")
	}
	b.WriteString("]}\n")
	path := filepath.Join(dir, "suite.json")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// agentConversation is an OpenAI messages conversation of n calls that
// passes agentSuite's case.
func agentConversation(n int) string {
	var b strings.Builder
	b.WriteString(`[{"role":"user","content":"go"},{"role":"assistant","content":null,"tool_calls":[{"id":"c0","type":"function","function":{"name":"find","arguments":"{\"q\":\"x\"}"}}]},{"role":"tool","tool_call_id":"c0","content":"{\"id\":\"R-7\"}"}`)
	for k := 1; k < n; k++ {
		fmt.Fprintf(&b, `,{"role":"assistant","content":null,"tool_calls":[{"id":"c%d","type":"function","function":{"name":"act","arguments":"{\"k\":%d,\"id\":\"R-7\"}"}}]},{"role":"tool","tool_call_id":"c%d","content":"{\"ok\":true}"}`, k, k, k)
	}
	b.WriteString(`,{"role":"assistant","content":"done"}]`)
	return b.String()
}

// agentResponses writes a responses file in dir of one passing
// conversation of n calls for each of agentSuite's cases, and returns its
// path.
func agentResponses(tb testing.TB, dir string, cases, n int) string {
	path := filepath.Join(dir, "responses.jsonl")
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriter(f)
	conv := agentConversation(n)
	for c := range cases {
		fmt.Fprintf(w, "{\"id\":\"c%d\",\"response\":%s}\n", c, conv)
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	return path
}

// TestWriteAgentFiles writes BenchmarkRunFile's suite and responses for
// callgrade score to be measured on (docs/performance.md), when
// CALLGRADE_AGENT_FILES is DIR,CASES[,STEPS]:
//
//	CALLGRADE_AGENT_FILES=/tmp/agent,100000 go test -run TestWriteAgentFiles ./engine/
//	callgrade score --suite /tmp/agent/suite.json --responses /tmp/agent/responses.jsonl
func TestWriteAgentFiles(t *testing.T) {
	spec := os.Getenv("CALLGRADE_AGENT_FILES")
	if spec == "" {
		t.Skip("CALLGRADE_AGENT_FILES=DIR,CASES[,STEPS] is not set")
	}
	var dir string
	cases, n := 0, 10
	parts := strings.Split(spec, ",")
	dir = parts[0]
	if len(parts) < 2 || len(parts) > 3 {
		t.Fatalf("CALLGRADE_AGENT_FILES=%s: want DIR,CASES[,STEPS]", spec)
	}
	if _, err := fmt.Sscan(parts[1], &cases); err != nil || cases < 1 {
		t.Fatalf("CALLGRADE_AGENT_FILES=%s: cases %q", spec, parts[1])
	}
	if len(parts) == 3 {
		if _, err := fmt.Sscan(parts[2], &n); err != nil || n < 1 {
			t.Fatalf("CALLGRADE_AGENT_FILES=%s: steps %q", spec, parts[2])
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s, %s", agentSuite(t, dir, cases, n), agentResponses(t, dir, cases, n))
}

func loadAgent(tb testing.TB, cases, n int) *Engine {
	s, err := suite.Load(agentSuite(tb, tb.TempDir(), cases, n))
	if err != nil {
		tb.Fatal(err)
	}
	e, err := newEngine(s, Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return e
}

// cpuTime is the process's user and system CPU time: on a shared machine
// the wall time of a benchmark includes waiting for a core.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkScoreRun20 scores one passing run of 20 steps, already read,
// with a Scorer: the alignment, the references (each of 19 steps resolves
// find.result.id), the result rules, never, max_calls and final.
func BenchmarkScoreRun20(b *testing.B) {
	e := loadAgent(b, 1, 20)
	run, _, err := response.Options{}.Read(mustParse(b, agentConversation(20)), format.Auto)
	if err != nil {
		b.Fatal(err)
	}
	sc := e.newScorer()
	if r := sc.scoreRun(0, &run); !r.Pass {
		b.Fatalf("%s", r.AppendJSON(nil))
	}
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		sc.scoreRun(0, &run)
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

// BenchmarkScoreRun20Line is BenchmarkScoreRun20 from the responses line:
// the conversation's JSON parsed and read into a run too.
func BenchmarkScoreRun20Line(b *testing.B) {
	e := loadAgent(b, 1, 20)
	line := `{"id":"c0","response":` + agentConversation(20) + `}`
	sc := e.newScorer()
	if r, _, _, err := sc.ScoreLine(line, 1, 0); err != nil || !r.Pass {
		b.Fatalf("%v %s", err, r.AppendJSON(nil))
	}
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		sc.ScoreLine(line, 1, 0)
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

// BenchmarkRunFile scores 100,000 runs of 10 steps from a JSONL file
// through engine.Run, on every core; runs/s is the figure.
func BenchmarkRunFile(b *testing.B) {
	const cases, n = 100_000, 10
	e := loadAgent(b, cases, n)
	path := agentResponses(b, b.TempDir(), cases, n)
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		in, _ := os.Open(path)
		sum, err := e.Run(context.Background(), in, io.Discard, RunOptions{})
		in.Close()
		if err != nil || sum.Passed != cases {
			b.Fatalf("%v %+v", err, sum)
		}
	}
	b.ReportMetric(float64(cases)*float64(b.N)/b.Elapsed().Seconds(), "runs/s")
	b.ReportMetric(float64(cases)*float64(b.N)/(cpuTime()-start).Seconds(), "runs/cpu-s")
}
