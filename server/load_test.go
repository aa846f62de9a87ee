package server

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The load test: loadClients concurrent clients, a suite of loadCases
// cases, batches of batchLines lines.
const (
	loadClients = 32
	loadCases   = 1000
	batchLines  = 100
)

// loadCorpus writes a suite of n weather cases under a few rules and a
// response for each, in turn in every format and right or wrong in several
// ways, and returns the two files.
func loadCorpus(b *testing.B, n int) (string, string) {
	dir := b.TempDir()
	var sb, rb strings.Builder
	sb.WriteString(`{"version": 1, "tools": [{"type": "function", "function": {"name": "get_weather", "parameters":
	  {"type": "object", "properties": {"city": {"type": "string"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
	   "days": {"type": "integer"}, "tags": {"type": "array", "items": {"type": "string"}}}, "required": ["city"]}}}],
	  "defaults": {"extra_fields": "reject"}, "cases": [`)
	for i := range n {
		if i > 0 {
			sb.WriteString(",\n")
		}
		fmt.Fprintf(&sb, `{"id": "c%d", "expected": {"name": "get_weather", "arguments": {"city": "City %d", "unit": "celsius", "days": %d, "tags": ["a", "b", "c"]},
		  "rules": {"city": {"normalize": ["trim", "lower"]}, "tags": "unordered"}}}`, i, i, i%7)
		args := fmt.Sprintf(`{\"tags\": [\"c\", \"a\", \"b\"], \"days\": %d.0, \"unit\": \"celsius\", \"city\": \" city %d\"}`, i%7, i)
		switch i % 5 {
		case 1: // the wrong city
			args = strings.Replace(args, fmt.Sprintf("city %d", i), "Paris", 1)
		case 3: // an extra argument
			args = strings.Replace(args, "{", `{\"lang\": \"de\", `, 1)
		}
		name := "get_weather"
		if i%11 == 4 {
			name = "get_forecast"
		}
		switch i % 3 {
		case 0:
			fmt.Fprintf(&rb, `{"id": "c%d", "response": {"choices": [{"message": {"tool_calls": [{"type": "function", "function": {"name": "%s", "arguments": "%s"}}]}}]}}`, i, name, args)
		case 1:
			fmt.Fprintf(&rb, `{"id": "c%d", "response": [{"name": "%s", "arguments": "%s"}]}`, i, name, args)
		default:
			fmt.Fprintf(&rb, `{"id": "c%d", "response": {"output": [{"type": "function_call", "name": "%s", "arguments": "%s"}]}}`, i, name, args)
		}
		rb.WriteString("\n")
	}
	sb.WriteString("]}\n")
	suiteFile, responses := dir+"/suite.json", dir+"/responses.jsonl"
	if err := os.WriteFile(suiteFile, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(responses, []byte(rb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	return suiteFile, responses
}

// BenchmarkLoad is the load test: loadClients clients on loopback send b.N
// requests in all, each answer is checked against the results file the
// engine writes for the same input (as callgrade score does), and the
// throughput and the p50 and p99 latencies are reported. It stops by
// itself: the number of requests is bounded by b.N.
//
//	go test ./server -run '^$' -bench Load -benchtime 20000x
func BenchmarkLoad(b *testing.B) {
	suiteFile, responses := loadCorpus(b, loadCases)
	want := engineLines(b, suiteFile, responses)
	data, err := os.ReadFile(responses)
	if err != nil {
		b.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	wants := make([]string, len(lines)) // the engine's line for each response
	for i, line := range lines {
		id := line[len(`{"id": "`):strings.Index(line, `", `)]
		if wants[i] = want[id]; wants[i] == "" {
			b.Fatalf("no engine result for %s", id)
		}
	}
	// A batch is batchLines consecutive responses, so that no case is
	// named twice in one.
	batch := func(k int) (string, string) {
		from := (k * batchLines) % len(lines)
		return strings.Join(lines[from:from+batchLines], "\n") + "\n", strings.Join(wants[from:from+batchLines], "")
	}

	h, err := New(fileLoader(suiteFile), Options{})
	if err != nil {
		b.Fatal(err)
	}
	base, _ := start(b, h)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: loadClients, MaxConnsPerHost: loadClients}}
	defer client.CloseIdleConnections()

	run := func(b *testing.B, path string, request func(k int) (string, string), perRequest int) {
		var next, errs atomic.Int64
		lat := make([][]time.Duration, loadClients)
		var wg sync.WaitGroup
		var firstErr atomic.Value
		b.ResetTimer()
		start := time.Now()
		for c := range loadClients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					k := int(next.Add(1)) - 1
					if k >= b.N {
						return
					}
					body, expect := request(k)
					t0 := time.Now()
					resp, err := client.Post(base+path, "application/json", strings.NewReader(body))
					var got []byte
					if err == nil {
						got, err = io.ReadAll(resp.Body)
						resp.Body.Close()
						if err == nil && (resp.StatusCode != 200 || string(got) != expect) {
							err = &mismatch{k, string(got)}
						}
					}
					lat[c] = append(lat[c], time.Since(t0))
					if err != nil {
						errs.Add(1)
						firstErr.CompareAndSwap(nil, err)
					}
				}
			}()
		}
		wg.Wait()
		elapsed := time.Since(start)
		b.StopTimer()
		if n := errs.Load(); n > 0 {
			b.Fatalf("%d of %d requests failed; the first: %v", n, b.N, firstErr.Load())
		}
		all := slices.Concat(lat...)
		slices.Sort(all)
		pct := func(p float64) float64 { return float64(all[int(p*float64(len(all)-1))].Microseconds()) / 1000 }
		b.ReportMetric(float64(b.N)/elapsed.Seconds(), "req/s")
		if perRequest > 1 {
			b.ReportMetric(float64(b.N*perRequest)/elapsed.Seconds(), "lines/s")
		}
		b.ReportMetric(pct(0.50), "p50-ms")
		b.ReportMetric(pct(0.99), "p99-ms")
	}
	b.Run("score", func(b *testing.B) {
		run(b, "/v1/score", func(k int) (string, string) {
			i := k % len(lines)
			return lines[i], wants[i]
		}, 1)
	})
	b.Run("batch", func(b *testing.B) {
		run(b, "/v1/score/batch", batch, batchLines)
	})
}

type mismatch struct {
	k   int
	got string
}

func (m *mismatch) Error() string { return fmt.Sprintf("request %d answered %s", m.k, m.got) }
