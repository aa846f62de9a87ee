package server

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/callgrade/callgrade"
	"github.com/callgrade/callgrade/internal/suite"
)

const (
	weatherSuite     = "../examples/weather/suite.yaml"
	weatherResponses = "../examples/weather/responses.jsonl"
)

// fileLoader is the recipe of callgrade serve: callgrade.Open on the
// suite's files.
func fileLoader(files ...string) Loader {
	return func() (*callgrade.Grader, error) { return callgrade.Open(files, callgrade.Options{}) }
}

// countClosed makes h count the Graders it closes.
func countClosed(h *Handler, closed *atomic.Int32) {
	h.closed = func() { closed.Add(1) }
	h.cur.Load().closed = h.closed
}

// start serves h on a loopback listener with h's own http.Server, as
// callgrade serve does, and returns its base URL.
func start(t testing.TB, h *Handler) (string, *http.Server) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := h.HTTPServer(ln.Addr().String())
	go srv.Serve(ln)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
		h.Close()
	})
	return "http://" + ln.Addr().String(), srv
}

func newHandler(t testing.TB, opts Options, files ...string) *Handler {
	t.Helper()
	if len(files) == 0 {
		files = []string{weatherSuite}
	}
	h, err := New(fileLoader(files...), opts)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

type answer struct {
	status int
	header http.Header
	body   string
}

func do(t *testing.T, method, url, token, contentType, body string) answer {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return answer{resp.StatusCode, resp.Header, string(b)}
}

// engineLines returns the results file callgrade score writes for the
// responses file, by case id.
func engineLines(t testing.TB, suiteFile, responses string) map[string]string {
	t.Helper()
	h := newHandler(t, Options{}, suiteFile)
	defer h.Close()
	l := h.acquire()
	defer l.release()
	in, err := os.Open(responses)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	var out bytes.Buffer
	if _, err := l.g.Run(context.Background(), in, &out, callgrade.RunOptions{Name: "responses"}); err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, line := range strings.SplitAfter(out.String(), "\n") {
		if line == "" {
			continue
		}
		var r struct{ ID string }
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		m[r.ID] = line
	}
	return m
}

func TestEndpoints(t *testing.T) {
	base, _ := start(t, newHandler(t, Options{}))
	score := func(id string) string {
		return `{"id": "` + id + `", "response": [{"name": "get_weather", "arguments": {"city": "Berlin"}}]}`
	}
	tests := []struct {
		name, method, path, body string
		status                   int
		contentType              string
		want                     string // a substring of the body
	}{
		{"score", "POST", "/v1/score", score("unit-left-to-its-default"), 200, "application/json", `{"id":"unit-left-to-its-default","pass":true,"score":1,`},
		{"score fails", "POST", "/v1/score", score("no-tool-needed"), 200, "application/json", `"kind":"unexpected_call"`},
		{"unknown case", "POST", "/v1/score", score("nope"), 404, "application/json", `{"error":"no case with id \"nope\""}`},
		{"bad JSON", "POST", "/v1/score", `{"id": `, 400, "application/json", `"error":"the request is not valid JSON`},
		{"no response", "POST", "/v1/score", `{"id": "no-tool-needed"}`, 400, "application/json", `no \"response\"`},
		{"id and case", "POST", "/v1/score", `{"id": "x", "case": {}, "response": []}`, 400, "application/json", `give one`},
		{"broken response, readable id", "POST", "/v1/score", `{"id": "no-tool-needed", "response": {"a": 1, "a": 2}}`, 200, "application/json", `"kind":"invalid_arguments"`},
		{"text that is not UTF-8 outside the calls", "POST", "/v1/score", `{"id": "unit-left-to-its-default", "response": {"content": "\ud83d", "tool_calls": [{"type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Berlin\"}"}}]}}`, 200, "application/json", `{"id":"unit-left-to-its-default","pass":true,"score":1,`},
		{"text that is not UTF-8 in a call", "POST", "/v1/score", "{\"id\": \"unit-left-to-its-default\", \"response\": [{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Berl\xffn\"}}]}", 200, "application/json", `"call":0,"path":"","rule":"json","message":"arguments of get_weather: call 0: the argument \"city\" holds text that is not UTF-8`},
		{"text that is not UTF-8, no response", "POST", "/v1/score", `{"id": "no-tool-needed", "note": "\udfff"}`, 400, "application/json", `no \"response\"`},
		{"text that is not UTF-8, inline case", "POST", "/v1/score", `{"case": {"id": "inline", "expected": []}, "response": [{"name": "\ud800", "arguments": {}}]}`, 400, "application/json", `not valid JSON: invalid UTF-8`},
		{"inline case, not JSON", "POST", "/v1/score", `{"case": {"id": "inline", "use": [fuzzy_city], "expected": {"name": "get_weather", "arguments": {"city": "berlin"}}}, "response": [{"name": "get_weather", "arguments": {"city": " Berlin"}}]}`, 400, "application/json", `not valid JSON`},
		{"inline case with ruleset", "POST", "/v1/score", `{"case": {"id": "inline", "use": ["fuzzy_city"], "expected": {"name": "get_weather", "arguments": {"city": "berlin"}}}, "response": [{"name": "get_weather", "arguments": {"city": " Berlin"}}]}`, 200, "application/json", `{"id":"inline","pass":true,"score":1,`},
		{"inline case uses the suite's tools", "POST", "/v1/score", `{"case": {"id": "inline", "expected": {"name": "get_weather", "arguments": {"city": "Oslo", "days": 2}}}, "response": [{"name": "get_weather", "arguments": {"city": "Oslo", "days": "2"}}]}`, 200, "application/json", `"pass":true`},
		{"inline case that does not compile", "POST", "/v1/score", `{"case": {"id": "inline", "expected": {"name": "f", "rules": {"x": {"regex": "("}}}}, "response": []}`, 400, "application/json", `inline case`},
		{"inline case with an unknown ruleset", "POST", "/v1/score", `{"case": {"id": "inline", "use": ["nope"], "expected": []}, "response": []}`, 400, "application/json", `no ruleset named`},
		{"inline tools_file", "POST", "/v1/score", `{"case": {"id": "inline", "tools_file": "/etc/passwd", "expected": []}, "response": []}`, 400, "application/json", `cannot name a tools_file`},
		{"score by GET", "GET", "/v1/score", "", 405, "application/json", `"error":"/v1/score takes POST, not GET"`},
		{"batch", "POST", "/v1/score/batch", score("unit-left-to-its-default") + "\n\n" + score("nope") + "\n", 200, "application/x-ndjson", `"kind":"unknown_case"`},
		{"cases", "GET", "/v1/cases", "", 200, "application/json", `{"id":"two-cities-any-order","expected":["get_weather","get_weather"],"calls":"unordered"}`},
		{"health", "GET", "/healthz", "", 200, "application/json", `{"status":"ok","cases":9}`},
		{"metrics", "GET", "/metrics", "", 200, "text/plain; version=0.0.4; charset=utf-8", `# TYPE callgrade_http_requests_total counter`},
		{"openapi", "GET", "/openapi.json", "", 200, "application/json", `"openapi": "3.1.0"`},
		{"unknown path", "GET", "/v2/score", "", 404, "application/json", `no such endpoint`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := do(t, tt.method, base+tt.path, "", "", tt.body)
			if a.status != tt.status {
				t.Errorf("status %d, want %d: %s", a.status, tt.status, a.body)
			}
			if ct := a.header.Get("Content-Type"); ct != tt.contentType {
				t.Errorf("Content-Type %q, want %q", ct, tt.contentType)
			}
			if !strings.Contains(a.body, tt.want) {
				t.Errorf("body lacks %s:\n%s", tt.want, a.body)
			}
		})
	}
}

// TestResultsEqualEngine: /v1/score and /v1/score/batch answer exactly the
// lines callgrade score writes for the same responses: single responses
// (weather), and agents' whole conversations scored against steps (agent).
func TestResultsEqualEngine(t *testing.T) {
	for _, ex := range []struct{ suite, responses string }{
		{weatherSuite, weatherResponses},
		{"../examples/agent/suite.yaml", "../examples/agent/responses.jsonl"},
	} {
		t.Run(filepath.Base(filepath.Dir(ex.suite)), func(t *testing.T) {
			want := engineLines(t, ex.suite, ex.responses)
			if ex.suite != weatherSuite && (!strings.Contains(want["refund-pass"], `"pass":true`) ||
				!strings.Contains(want["refund-forbidden-call"], `"kind":"forbidden_call","call":null,"step":1`)) {
				t.Fatalf("the agent example is not scored as a run:\n%s\n%s", want["refund-pass"], want["refund-forbidden-call"])
			}
			base, _ := start(t, newHandler(t, Options{}, ex.suite))
			data, err := os.ReadFile(ex.responses)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(string(data)), "\n")
			var ids []string
			for _, line := range lines {
				var r struct{ ID string }
				json.Unmarshal([]byte(line), &r)
				ids = append(ids, r.ID)
				a := do(t, "POST", base+"/v1/score", "", "application/json", line)
				if a.status != 200 || a.body != want[r.ID] {
					t.Errorf("%s: /v1/score answered %d\n%s\nwant\n%s", r.ID, a.status, a.body, want[r.ID])
				}
			}
			a := do(t, "POST", base+"/v1/score/batch", "", "application/x-ndjson", string(data))
			got := strings.SplitAfter(a.body, "\n")
			got = got[:len(got)-1]
			if len(got) != len(ids) {
				t.Fatalf("batch answered %d lines for %d:\n%s", len(got), len(ids), a.body)
			}
			for i, id := range ids {
				if got[i] != want[id] {
					t.Errorf("batch line %d:\n%s\nwant\n%s", i+1, got[i], want[id])
				}
			}
		})
	}
}

// TestBatchLines: every line that is not blank is answered, in order,
// with the error lines naming their line.
func TestBatchLines(t *testing.T) {
	base, _ := start(t, newHandler(t, Options{Workers: 3}))
	in := strings.Join([]string{
		`{"id": "no-tool-needed", "response": []}`,
		`not json`,
		``,
		`[1, 2]`,
		`{"id": 5, "response": []}`,
		`{"id": "no-tool-needed", "response": []}`,
		`{"id": "ghost", "response": []}`,
		`{"id": "city-spelled-loosely"}`,
		`{"id": "duplicate-key-never-passes", "response": NaN}`,
		`{"id": "forecast-also-fine", "response": [`,
	}, "\n")
	// Many more lines, so that several chunks are scored at once.
	var more []string
	for range 500 {
		more = append(more, `{"id": "ghost", "response": []}`)
	}
	in += "\n" + strings.Join(more, "\n") + "\n"
	a := do(t, "POST", base+"/v1/score/batch", "", "", in)
	if a.status != 200 {
		t.Fatalf("status %d: %s", a.status, a.body)
	}
	got := strings.Split(strings.TrimSuffix(a.body, "\n"), "\n")
	want := []string{
		`{"id":"no-tool-needed","pass":true,"score":1,"calls":[],"diffs":[]}`,
		`{"line":2,"error":"line 2: not a JSON response line: `,
		`{"line":4,"error":"line 4: a response line must be a JSON object with an id, not array"}`,
		// Lines are read as callgrade score reads them (engine.ScoreLine):
		// a number id is its text, and a line without "response" is the
		// case's missing_response.
		`{"id":"5","pass":false,"score":0,"calls":[],"diffs":[{"kind":"unknown_case"`,
		`{"line":6,"id":"no-tool-needed","error":"line 6: a second response for case \"no-tool-needed\" (lines 1 and 6)"}`,
		`{"id":"ghost","pass":false,"score":0,"calls":[],"diffs":[{"kind":"unknown_case"`,
		`{"id":"city-spelled-loosely","pass":false,"score":0,"calls":[{"expected":0,"actual":null,"pass":false,"score":0}],"diffs":[{"kind":"missing_response","call":null,"path":"","rule":"","message":"response line 8 has no \"response\""}]}`,
		`{"id":"duplicate-key-never-passes","pass":false,"score":0,"calls":[{"expected":0,"actual":null,"pass":false,"score":0}],"diffs":[{"kind":"invalid_arguments","call":null,"path":"","rule":"","message":"response line 9 is not valid JSON: `,
		// A line cut short is a line of a responses file, which a model's
		// output may break: scored as score scores it, not refused as a
		// single request's body is (TestScoreBodyNotJSON).
		`{"id":"forecast-also-fine","pass":false,"score":0,"alternative":0,"calls":[{"expected":0,"actual":null,"pass":false,"score":0}],"diffs":[{"kind":"invalid_arguments","call":null,"path":"","rule":"","message":"response line 10 is not valid JSON: invalid JSON at byte 42: unexpected end of input"}]}`,
	}
	if len(got) != len(want)+500 {
		t.Fatalf("%d lines, want %d:\n%s", len(got), len(want)+500, a.body)
	}
	for i, w := range want {
		if !strings.HasPrefix(got[i], w) {
			t.Errorf("line %d:\n%s\nwant a line starting\n%s", i+1, got[i], w)
		}
	}
	for i, g := range got[len(want):] {
		if !strings.HasPrefix(g, `{"id":"ghost"`) {
			t.Fatalf("line %d: %s", len(want)+i+1, g)
		}
	}
}

// TestByteOrderMark: a byte order mark at the start of a batch, or of a
// single request, is skipped, as callgrade score skips it at the start of
// a responses file (and, as it does, at the start of a later line).
func TestByteOrderMark(t *testing.T) {
	base, _ := start(t, newHandler(t, Options{}))
	want := `{"id":"no-tool-needed","pass":true,"score":1,"calls":[],"diffs":[]}`
	a := do(t, "POST", base+"/v1/score/batch", "", "", "\ufeff"+`{"id": "no-tool-needed", "response": []}`+"\n"+"\ufeff"+`{"id": "ghost", "response": []}`+"\n")
	lines := strings.Split(strings.TrimSuffix(a.body, "\n"), "\n")
	if a.status != 200 || len(lines) != 2 || lines[0] != want || !strings.HasPrefix(lines[1], `{"id":"ghost","pass":false,"score":0,"calls":[],"diffs":[{"kind":"unknown_case"`) {
		t.Errorf("batch: status %d\n%s\nwant the first line %s and ghost's unknown_case", a.status, a.body, want)
	}
	a = do(t, "POST", base+"/v1/score", "", "", "\ufeff"+`{"id": "no-tool-needed", "response": []}`)
	if a.status != 200 || strings.TrimSpace(a.body) != want {
		t.Errorf("single: status %d\n%s\nwant %s", a.status, a.body, want)
	}
}

// TestBatchAnswersLineByLine: a client that sends a line and waits for its
// answer before the next is answered, not kept waiting for a full chunk.
func TestBatchAnswersLineByLine(t *testing.T) {
	base, _ := start(t, newHandler(t, Options{}))
	pr, pw := io.Pipe()
	req, _ := http.NewRequest("POST", base+"/v1/score/batch", pr)
	lines := make(chan string, 16) // never blocks the reader, even when the test has failed
	go func() {
		defer close(lines)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return
		}
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	defer pw.Close()
	for i, id := range []string{"no-tool-needed", "ghost", "city-spelled-loosely"} {
		fmt.Fprintf(pw, `{"id": %q, "response": []}`+"\n", id)
		select {
		case got, ok := <-lines:
			if want := `{"id":"` + id + `"`; !ok || !strings.HasPrefix(got, want) {
				t.Fatalf("answer %d: %q, want a line starting %s", i+1, got, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no answer to line %d in 10s", i+1)
		}
	}
}

// A batch whose body is still coming at its deadline ends with an error
// line that says so, and a whole response; a single request whose body
// is late gets 408. Neither is cut off unanswered.
func TestBodyPastItsTime(t *testing.T) {
	base, _ := start(t, newHandler(t, Options{BatchTimeout: time.Second, Timeout: time.Second}))
	pr, pw := io.Pipe()
	defer pw.Close()
	go func() {
		fmt.Fprintf(pw, `{"id": "no-tool-needed", "response": []}`+"\n")
		time.Sleep(3 * time.Second) // past the deadline
		pw.Close()                  // bounded, whatever the server does
	}()
	req, _ := http.NewRequest("POST", base+"/v1/score/batch", pr)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatalf("the response was cut off: %v\n%s", err, body)
	}
	lines := strings.Split(strings.TrimSpace(string(body)), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], `{"id":"no-tool-needed"`) ||
		!strings.Contains(lines[1], `"error":"line 2: the batch ran out of its time (1s, --batch-timeout); lines from 2 on were not read"`) {
		t.Errorf("got %d lines:\n%s", len(lines), body)
	}

	// A body still arriving a tenth of --timeout before its end is a 408;
	// a timeout of 4s leaves that tenth 400 ms, which a loaded machine's
	// scheduling does not eat, where 1s left 100 ms and the request was
	// sometimes answered as past its whole time (503).
	base2, _ := start(t, newHandler(t, Options{Timeout: 4 * time.Second}))
	pr2, pw2 := io.Pipe()
	defer pw2.Close()
	go func() {
		fmt.Fprintf(pw2, `{"id": "no-tool-needed",`)
		time.Sleep(6 * time.Second)
		pw2.Close()
	}()
	req2, _ := http.NewRequest("POST", base2+"/v1/score", pr2)
	resp2, err := http.DefaultClient.Do(req2)
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	b2, _ := io.ReadAll(resp2.Body)
	resp2.Body.Close()
	if resp2.StatusCode != http.StatusRequestTimeout || !strings.Contains(string(b2), "did not arrive in time") {
		t.Errorf("%d %s, want 408", resp2.StatusCode, b2)
	}
}

func TestToken(t *testing.T) {
	base, _ := start(t, newHandler(t, Options{Token: "s3cret"}))
	tests := []struct {
		method, path, token string
		status              int
	}{
		{"POST", "/v1/score", "", 401},
		{"POST", "/v1/score", "wrong", 401},
		{"POST", "/v1/score", "s3cret-and-more", 401},
		{"POST", "/v1/score", "s3cret", 200},
		{"POST", "/v1/score/batch", "", 401},
		{"POST", "/v1/score/batch", "s3cret", 200},
		{"GET", "/v1/cases", "", 401},
		{"GET", "/v1/cases", "s3cret", 200},
		{"GET", "/metrics", "", 401},
		{"GET", "/metrics", "s3cret", 200},
		{"GET", "/healthz", "", 200},
		{"GET", "/openapi.json", "", 200},
	}
	for _, tt := range tests {
		a := do(t, tt.method, base+tt.path, tt.token, "", `{"id": "no-tool-needed", "response": []}`)
		if a.status != tt.status {
			t.Errorf("%s %s with %q: %d, want %d: %s", tt.method, tt.path, tt.token, a.status, tt.status, a.body)
		}
		if tt.status == 401 {
			if a.header.Get("WWW-Authenticate") == "" || a.body != `{"error":"a valid bearer token is required"}`+"\n" {
				t.Errorf("401 without a challenge or with %s", a.body)
			}
		}
	}
}

// chunked hides a reader's length, so that the request is sent chunked.
type chunked struct{ io.Reader }

func TestBodyLimit(t *testing.T) {
	base, _ := start(t, newHandler(t, Options{MaxBody: 100, MaxBatchBody: 200}))
	line := `{"id": "no-tool-needed", "response": []}` + "\n" // 41 bytes
	big := `{"id": "no-tool-needed", "response": [` + strings.Repeat(" ", 100) + `]}`
	if a := do(t, "POST", base+"/v1/score", "", "", big); a.status != 413 || a.body != `{"error":"the request body is larger than the limit of 100 bytes"}`+"\n" {
		t.Errorf("/v1/score over the limit: %d %s", a.status, a.body)
	}
	if a := do(t, "POST", base+"/v1/score", "", "", line); a.status != 200 {
		t.Errorf("/v1/score under the limit: %d %s", a.status, a.body)
	}
	if a := do(t, "POST", base+"/v1/score/batch", "", "", strings.Repeat(line, 5)); a.status != 413 {
		t.Errorf("/v1/score/batch with a Content-Length over the limit: %d %s", a.status, a.body)
	}
	// A chunked body is answered up to the limit, then with an error line.
	req, _ := http.NewRequest("POST", base+"/v1/score/batch", chunked{strings.NewReader(strings.Repeat(line, 6))})
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	got := strings.Split(strings.TrimSuffix(string(body), "\n"), "\n")
	if resp.StatusCode != 200 || len(got) != 5 || got[4] != `{"line":5,"status":413,"error":"line 5: the request body is larger than the limit of 200 bytes; lines from 5 on were not read"}` {
		t.Errorf("chunked batch over the limit: %d\n%s", resp.StatusCode, body)
	}
}

func TestReload(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "suite.yaml")
	write := func(text string) {
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("version: 1\ncases:\n  - {id: a, expected: []}\n")
	var closed atomic.Int32
	h, err := New(fileLoader(file), Options{})
	if err != nil {
		t.Fatal(err)
	}
	countClosed(h, &closed)
	base, _ := start(t, h)
	health := func() string { return do(t, "GET", base+"/healthz", "", "", "").body }

	write("version: 1\ncases:\n  - {id: a, expected: {name: f, rules: {x: {regex: \"(\"}}}}\n")
	if err := h.Reload(); err == nil || !strings.Contains(err.Error(), "regex") {
		t.Fatalf("reloading a bad suite: %v", err)
	}
	if got := health(); got != `{"status":"ok","cases":1}`+"\n" || closed.Load() != 0 {
		t.Fatalf("after a failed reload: %s, %d closed", got, closed.Load())
	}
	if a := do(t, "POST", base+"/v1/score", "", "", `{"id": "a", "response": []}`); a.status != 200 || !strings.Contains(a.body, `"pass":true`) {
		t.Fatalf("the old suite does not score after a failed reload: %d %s", a.status, a.body)
	}

	write("version: 1\ncases:\n  - {id: a, expected: []}\n  - {id: b, expected: []}\n")
	if err := h.Reload(); err != nil {
		t.Fatal(err)
	}
	if got := health(); got != `{"status":"ok","cases":2}`+"\n" || closed.Load() != 1 {
		t.Fatalf("after a reload: %s, %d closed", got, closed.Load())
	}
	m := do(t, "GET", base+"/metrics", "", "", "").body
	for _, want := range []string{`callgrade_suite_reloads_total{result="ok"} 1`, `callgrade_suite_reloads_total{result="error"} 1`, "callgrade_suite_cases 2"} {
		if !strings.Contains(m, want) {
			t.Errorf("metrics lack %s:\n%s", want, m)
		}
	}
}

// TestReloadDuringRequest: a suite replaced while a request uses it is
// closed only when that request is done.
func TestReloadDuringRequest(t *testing.T) {
	var closed atomic.Int32
	h, err := New(fileLoader(weatherSuite), Options{})
	if err != nil {
		t.Fatal(err)
	}
	countClosed(h, &closed)
	l := h.acquire()
	if err := h.Reload(); err != nil {
		t.Fatal(err)
	}
	if closed.Load() != 0 {
		t.Fatal("the suite was closed while a request used it")
	}
	l.release()
	if closed.Load() != 1 {
		t.Fatal("the replaced suite was not closed after its last request")
	}
	h.Close()
	if closed.Load() != 2 || h.acquire() != nil {
		t.Fatal("Close did not close the suite")
	}
}

// TestShutdownDuringBatch: Shutdown waits for a batch being streamed, which
// completes with every line answered.
func TestShutdownDuringBatch(t *testing.T) {
	h := newHandler(t, Options{})
	base, srv := start(t, h)
	pr, pw := io.Pipe()
	req, _ := http.NewRequest("POST", base+"/v1/score/batch", pr)
	type reply struct {
		lines []string
		err   error
	}
	got := make(chan reply, 1)
	answered := make(chan struct{})
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			got <- reply{err: err}
			return
		}
		defer resp.Body.Close()
		var r reply
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if r.lines = append(r.lines, sc.Text()); len(r.lines) == 1 {
				close(answered)
			}
		}
		r.err = sc.Err()
		got <- r
	}()
	line := `{"id": "no-tool-needed", "response": []}` + "\n"
	for range 10 {
		io.WriteString(pw, line)
	}
	// The batch is in flight when the answer to its first line arrives:
	// from then on the server counts it as active, however slow the machine.
	select {
	case <-answered:
	case r := <-got:
		t.Fatalf("the batch ended before shutdown: %d lines, %v", len(r.lines), r.err)
	case <-time.After(10 * time.Second):
		t.Fatal("no answer to the batch's first line in 10s")
	}
	shut := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		shut <- srv.Shutdown(ctx)
	}()
	time.Sleep(100 * time.Millisecond)
	select {
	case err := <-shut:
		t.Fatalf("Shutdown returned during a batch: %v", err)
	default:
	}
	// New connections are refused while the batch goes on.
	if _, err := http.Get(base + "/healthz"); err == nil {
		t.Error("a new request was served during shutdown")
	}
	for range 10 {
		io.WriteString(pw, `{"id": "ghost", "response": []}`+"\n")
	}
	pw.Close()
	r := <-got
	if r.err != nil || len(r.lines) != 20 {
		t.Fatalf("batch during shutdown: %d lines, %v", len(r.lines), r.err)
	}
	if !strings.HasPrefix(r.lines[0], `{"id":"no-tool-needed","pass":true`) || !strings.HasPrefix(r.lines[19], `{"id":"ghost","pass":false`) {
		t.Errorf("lines: %s ... %s", r.lines[0], r.lines[19])
	}
	if err := <-shut; err != nil {
		t.Errorf("Shutdown: %v", err)
	}
}

// TestMetrics: the exposition is well-formed and counts requests, codes,
// latencies and verdicts.
func TestMetrics(t *testing.T) {
	base, _ := start(t, newHandler(t, Options{}))
	do(t, "POST", base+"/v1/score", "", "", `{"id": "no-tool-needed", "response": []}`)
	do(t, "POST", base+"/v1/score", "", "", `{"id": "no-tool-needed", "response": [{"name": "f", "arguments": {}}]}`)
	do(t, "POST", base+"/v1/score", "", "", `{"id": "nope", "response": []}`)
	do(t, "POST", base+"/v1/score/batch", "", "", "{\"id\": \"no-tool-needed\", \"response\": []}\nbad\n")
	do(t, "GET", base+"/nowhere", "", "", "")
	m := do(t, "GET", base+"/metrics", "", "", "").body
	sample := regexp.MustCompile(`^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="[^"]*",?)*\})? [-+0-9.eEInf]+$`)
	typed := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSuffix(m, "\n"), "\n") {
		if name, ok := strings.CutPrefix(line, "# TYPE "); ok {
			typed[strings.Fields(name)[0]] = true
			continue
		}
		if strings.HasPrefix(line, "# HELP ") {
			continue
		}
		if !sample.MatchString(line) {
			t.Errorf("not a sample line: %q", line)
			continue
		}
		name := strings.FieldsFunc(line, func(r rune) bool { return r == '{' || r == ' ' })[0]
		base := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(name, "_bucket"), "_sum"), "_count")
		if !typed[name] && !typed[base] {
			t.Errorf("sample before its TYPE: %q", line)
		}
	}
	for _, want := range []string{
		`callgrade_http_requests_total{route="/v1/score",code="200"} 2`,
		`callgrade_http_requests_total{route="/v1/score",code="404"} 1`,
		`callgrade_http_requests_total{route="/v1/score/batch",code="200"} 1`,
		`callgrade_http_requests_total{route="other",code="404"} 1`,
		`callgrade_http_request_duration_seconds_bucket{route="/v1/score",le="+Inf"} 3`,
		`callgrade_http_request_duration_seconds_count{route="/v1/score"} 3`,
		`callgrade_verdicts_total{verdict="pass"} 2`,
		`callgrade_verdicts_total{verdict="fail"} 1`,
		`callgrade_batch_line_errors_total 1`,
		`callgrade_suite_cases 9`,
	} {
		if !strings.Contains(m, want+"\n") {
			t.Errorf("metrics lack %s:\n%s", want, m)
		}
	}
}

// TestShuttingDown: after Close the handler answers 503, as JSON.
func TestShuttingDown(t *testing.T) {
	h := newHandler(t, Options{})
	h.Close()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/healthz", nil))
	if rec.Code != 503 || !strings.Contains(rec.Body.String(), `"error"`) {
		t.Errorf("%d %s", rec.Code, rec.Body)
	}
}

func TestNewWithBadSuite(t *testing.T) {
	_, err := New(fileLoader("testdata/none.yaml"), Options{})
	var se *suite.Error
	if !errors.As(err, &se) {
		t.Fatalf("New with a missing suite: %v", err)
	}
}

// doEncoded posts body with a Content-Encoding.
func doEncoded(t *testing.T, url, encoding string, body []byte) answer {
	t.Helper()
	req, err := http.NewRequest("POST", url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Encoding", encoding)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return answer{resp.StatusCode, resp.Header, string(b)}
}

func gzipped(s string) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(s))
	zw.Close()
	return b.Bytes()
}

// A gzip-encoded request is answered as its text; the body limits hold
// for the text once decompressed, and another encoding is a 415.
func TestGzipRequests(t *testing.T) {
	data, err := os.ReadFile(weatherResponses)
	if err != nil {
		t.Fatal(err)
	}
	base, _ := start(t, newHandler(t, Options{}))
	plain := do(t, "POST", base+"/v1/score/batch", "", "", string(data))
	if a := doEncoded(t, base+"/v1/score/batch", "gzip", gzipped(string(data))); a.status != 200 || a.body != plain.body || plain.status != 200 {
		t.Errorf("gzip batch: %d\n%s\nwant %d\n%s", a.status, a.body, plain.status, plain.body)
	}
	line := `{"id": "no-tool-needed", "response": []}`
	one := do(t, "POST", base+"/v1/score", "", "", line)
	if a := doEncoded(t, base+"/v1/score", "GZIP", gzipped(line)); a.status != 200 || a.body != one.body {
		t.Errorf("gzip /v1/score: %d %s, want %d %s", a.status, a.body, one.status, one.body)
	}
	if a := doEncoded(t, base+"/v1/score", "br", []byte(line)); a.status != 415 || !strings.Contains(a.body, `unsupported Content-Encoding \"br\"`) {
		t.Errorf("brotli: %d %s, want 415", a.status, a.body)
	}
	if a := doEncoded(t, base+"/v1/score/batch", "gzip", []byte(line)); a.status != 400 || !strings.Contains(a.body, "gzip: invalid header") {
		t.Errorf("a body that is not gzip: %d %s, want 400", a.status, a.body)
	}

	// 8 KB of spaces compress to a few dozen bytes: over the limits only
	// once decompressed.
	small, _ := start(t, newHandler(t, Options{MaxBody: 1000, MaxBatchBody: 1000}))
	bomb := gzipped(`{"id": "no-tool-needed", "response": [` + strings.Repeat(" ", 8000) + `]}` + "\n")
	if a := doEncoded(t, small+"/v1/score", "gzip", bomb); a.status != 413 {
		t.Errorf("/v1/score over the limit once decompressed: %d %s", a.status, a.body)
	}
	if a := doEncoded(t, small+"/v1/score/batch", "gzip", bomb); a.status != 200 || !strings.Contains(a.body, "larger than the limit of 1000 bytes") {
		t.Errorf("/v1/score/batch over the limit once decompressed: %d %s", a.status, a.body)
	}
}

// With Options.Watch, an edit of a suite file or of a tools_file it names
// reloads the suite; an edit that does not load keeps the old suite until
// the files change again.
func TestWatch(t *testing.T) {
	dir := t.TempDir()
	suiteFile := filepath.Join(dir, "suite.yaml")
	toolsFile := filepath.Join(dir, "tools.json")
	writeSuite := func(n int) {
		t.Helper()
		var b strings.Builder
		b.WriteString("version: 1\ntools_file: tools.json\ncases:\n")
		for i := range n {
			fmt.Fprintf(&b, "  - {id: c%d, expected: []}\n", i)
		}
		if err := os.WriteFile(suiteFile, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(toolsFile, []byte(`[{"name": "f"}]`), 0o644)
	writeSuite(1)
	var logs syncBuffer
	h, err := New(fileLoader(suiteFile), Options{Watch: 10 * time.Millisecond, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	base, _ := start(t, h)
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		for i := 0; !ok(); i++ {
			if i == 200 {
				t.Fatalf("%s never happened; log:\n%s", what, logs.String())
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	cases := func() int {
		a := do(t, "GET", base+"/healthz", "", "", "")
		var hz struct{ Cases int }
		json.Unmarshal([]byte(a.body), &hz)
		return hz.Cases
	}
	reloads := func(result string) string {
		a := do(t, "GET", base+"/metrics", "", "", "")
		for _, line := range strings.Split(a.body, "\n") {
			if strings.HasPrefix(line, `callgrade_suite_reloads_total{result="`+result+`"}`) {
				return strings.Fields(line)[1]
			}
		}
		return ""
	}

	writeSuite(3)
	waitFor("a reload with 3 cases", func() bool { return cases() == 3 })

	os.WriteFile(suiteFile, []byte("version: 1\ncases: [{id: broken}]\n"), 0o644)
	waitFor("a failed reload", func() bool { return reloads("error") == "1" })
	time.Sleep(50 * time.Millisecond) // more ticks: no retry of the same files
	if n, e := cases(), reloads("error"); n != 3 || e != "1" {
		t.Errorf("after a broken edit: %d cases, %s failed reloads; want the 3 cases kept and 1", n, e)
	}

	writeSuite(2)
	waitFor("a reload with 2 cases", func() bool { return cases() == 2 })
	ok := reloads("ok")
	os.WriteFile(toolsFile, []byte(`[{"name": "f"}, {"name": "g"}]`), 0o644)
	waitFor("a reload after the tools file changed", func() bool { return reloads("ok") != ok })
	a := do(t, "GET", base+"/v1/cases", "", "", "")
	if !strings.Contains(a.body, `"g"`) {
		t.Errorf("the tools file's new tool is not served: %s", a.body)
	}
}

// TestSettled: a change reloads once it has held for a whole tick; a file
// seen half-written is not loaded, and a failed state is not retried.
func TestSettled(t *testing.T) {
	at := time.Unix(1700000000, 0)
	state := func(size int64, sec int) []fileState {
		return []fileState{{path: "suite.yaml", size: size, mod: at.Add(time.Duration(sec) * time.Second)}}
	}
	gone := []fileState{{path: "suite.yaml", missing: true}}
	tests := []struct {
		name  string
		ticks [][]fileState
		want  []bool
	}{
		{"unchanged", [][]fileState{state(10, 0), state(10, 0)}, []bool{false, false}},
		{"a change, then still", [][]fileState{state(12, 1), state(12, 1), state(12, 1)}, []bool{false, true, false}},
		// Truncated at one tick, written at the next: only the written
		// file, once still, is loaded.
		{"caught half-written", [][]fileState{state(0, 1), state(30, 1), state(30, 1)}, []bool{false, false, true}},
		{"written at every tick", [][]fileState{state(11, 1), state(12, 2), state(13, 3), state(13, 3)}, []bool{false, false, false, true}},
		{"changed and changed back", [][]fileState{state(0, 1), state(10, 0), state(10, 0)}, []bool{false, false, false}},
		{"removed", [][]fileState{gone, gone, gone}, []bool{false, true, false}},
		{"same size, new time", [][]fileState{state(10, 5), state(10, 5)}, []bool{false, true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := settled{loaded: state(10, 0), seen: state(10, 0)}
			for i, now := range tt.ticks {
				if got := w.tick(now); got != tt.want[i] {
					t.Errorf("tick %d: reload %t, want %t", i+1, got, tt.want[i])
				}
			}
		})
	}
}

// syncBuffer is a bytes.Buffer for a logger on another goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestBatchSamples: with a suite that has samples, the service reads lines
// as callgrade score does: each carries its sample, one line per (case,
// sample), and the result lines are those score writes for them.
func TestBatchSamples(t *testing.T) {
	const suiteFile, responses = "../examples/samples/suite.yaml", "../examples/samples/responses.jsonl"
	g, err := callgrade.Open([]string{suiteFile}, callgrade.Options{})
	if err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(responses)
	if err != nil {
		t.Fatal(err)
	}
	var ran bytes.Buffer
	_, err = g.Run(context.Background(), in, &ran, callgrade.RunOptions{Name: "responses"})
	in.Close()
	g.Close()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{} // by id and sample
	for _, line := range strings.SplitAfter(ran.String(), "\n") {
		var r struct {
			ID     string
			Sample *int
		}
		if line == "" {
			continue
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil || r.Sample == nil {
			t.Fatalf("score wrote %q (%v)", line, err)
		}
		want[fmt.Sprintf("%s/%d", r.ID, *r.Sample)] = line
	}

	base, _ := start(t, newHandler(t, Options{}, suiteFile))
	data, err := os.ReadFile(responses)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	a := do(t, "POST", base+"/v1/score/batch", "", "", string(data))
	got := strings.SplitAfter(a.body, "\n")
	got = got[:len(got)-1]
	if a.status != 200 || len(got) != len(lines) {
		t.Fatalf("batch answered %d with %d lines for %d:\n%s", a.status, len(got), len(lines), a.body)
	}
	for i, line := range lines {
		var r struct {
			ID     string
			Sample int
		}
		json.Unmarshal([]byte(line), &r)
		if w := want[fmt.Sprintf("%s/%d", r.ID, r.Sample)]; got[i] != w {
			t.Errorf("batch line %d:\n%s\nwant\n%s", i+1, got[i], w)
		}
		// A single request for an unknown case is a 404, not a result.
		one := do(t, "POST", base+"/v1/score", "", "application/json", line)
		if w := want[fmt.Sprintf("%s/%d", r.ID, r.Sample)]; strings.Contains(w, `"kind":"unknown_case"`) && one.status != 404 ||
			!strings.Contains(w, `"kind":"unknown_case"`) && one.body != w {
			t.Errorf("/v1/score of line %d answered %d:\n%s", i+1, one.status, one.body)
		}
	}

	// The same (case, sample) twice, a line without its sample, and one
	// out of range are error lines naming the line.
	first := lines[0]
	noSample := `{"id": "weather-berlin", "response": []}`
	outOfRange := `{"id": "weather-berlin", "sample": 3, "response": []}`
	a = do(t, "POST", base+"/v1/score/batch", "", "", strings.Join([]string{first, first, noSample, outOfRange}, "\n"))
	got = strings.Split(strings.TrimSuffix(a.body, "\n"), "\n")
	wantPrefix := []string{
		`{"id":"weather-berlin","sample":0,`,
		`{"line":2,"id":"weather-berlin","error":"line 2: a second response for case \"weather-berlin\" sample 0 (lines 1 and 2)"}`,
		`{"line":3,"error":"line 3: `,
		`{"line":4,"error":"line 4: `,
	}
	if len(got) != len(wantPrefix) {
		t.Fatalf("batch answered:\n%s", a.body)
	}
	for i, w := range wantPrefix {
		if !strings.HasPrefix(got[i], w) || i >= 2 && !strings.Contains(got[i], "sample") {
			t.Errorf("line %d:\n%s\nwant a line starting\n%s", i+1, got[i], w)
		}
	}
	if one := do(t, "POST", base+"/v1/score", "", "application/json", noSample); one.status != 400 || !strings.Contains(one.body, "sample") {
		t.Errorf("/v1/score without its sample answered %d: %s", one.status, one.body)
	}
}

// TestScoreBodyNotJSON: a /v1/score body is one JSON document. One that is
// not JSON at all (empty, cut short, with more after it, a stray
// character) is a 400 naming the byte where it stops being JSON, whatever
// its Content-Type, though an id can be read from it; one that is JSON but
// not an object is a 400 too. A body that is JSON in form whose model
// output is broken in content is scored, as score scores such a line.
func TestScoreBodyNotJSON(t *testing.T) {
	base, _ := start(t, newHandler(t, Options{}))
	const ok = `{"id": "unit-left-to-its-default", "response": [{"name": "get_weather", "arguments": {"city": "Berlin"}}]}`
	tests := []struct {
		name, contentType, body string
		status                  int
		want                    string // the whole body, or with a trailing "…" its start
	}{
		{"cut short", "application/json", ok[:len(ok)-1], 400,
			`{"error":"the request is not valid JSON: invalid JSON at byte 105: expected ',' or '}' in object, found end of input"}` + "\n"},
		{"cut short in the model output", "application/json", `{"id": "unit-left-to-its-default", "response": [{"name": "get_weather", "arguments": {"city": "Berl`, 400,
			`{"error":"the request is not valid JSON: invalid JSON at byte 94: unterminated string"}` + "\n"},
		{"text after the object", "application/json", ok + " trailing", 400,
			`{"error":"the request is not valid JSON: invalid JSON at byte 107: unexpected 't' after the value"}` + "\n"},
		{"two objects", "application/json", ok + ok, 400,
			`{"error":"the request is not valid JSON: invalid JSON at byte 106: unexpected '{' after the value"}` + "\n"},
		{"trailing comma", "application/json", `{"id": "unit-left-to-its-default", "response": [],}`, 400,
			`{"error":"the request is not valid JSON: invalid JSON at byte 50: expected a string key, found '}'"}` + "\n"},
		{"missing comma", "application/json", `{"id": "unit-left-to-its-default" "response": []}`, 400,
			`{"error":"the request is not valid JSON: invalid JSON at byte 34: expected ',' or '}' in object, found '\"'"}` + "\n"},
		{"duplicated key, then cut short", "application/json", `{"id": "no-tool-needed", "response": {"a": 1, "a": 2}`, 400,
			`{"error":"the request is not valid JSON: invalid JSON at byte 53: expected ',' or '}' in object, found end of input"}` + "\n"},
		{"NaN, then more text", "application/json", `{"id": "no-tool-needed", "response": NaN} x`, 400,
			`{"error":"the request is not valid JSON: invalid JSON at byte 42: unexpected 'x' after the value"}` + "\n"},
		{"empty", "application/json", "", 400,
			`{"error":"the request body is empty; send a JSON object with \"id\" or \"case\", and \"response\""}` + "\n"},
		{"white space", "application/json", " \r\n\t", 400,
			`{"error":"the request body is empty; send a JSON object with \"id\" or \"case\", and \"response\""}` + "\n"},
		{"an array", "application/json", `[` + ok + `]`, 400,
			`{"error":"the request must be a JSON object with \"id\" or \"case\", and \"response\""}` + "\n"},
		{"a string", "application/json", `"unit-left-to-its-default"`, 400,
			`{"error":"the request must be a JSON object with \"id\" or \"case\", and \"response\""}` + "\n"},
		{"null", "application/json", `null`, 400,
			`{"error":"the request must be a JSON object with \"id\" or \"case\", and \"response\""}` + "\n"},
		{"form-encoded", "application/x-www-form-urlencoded", `id=unit-left-to-its-default&response=%5B%5D`, 400,
			`{"error":"the request is not valid JSON: invalid JSON at byte 0: unexpected 'i'"}` + "\n"},
		// Still scored: JSON in form, the model output broken in content.
		{"duplicated key in the model output", "application/json", `{"id": "no-tool-needed", "response": {"a": 1, "a": 2}}`, 200,
			`{"id":"no-tool-needed","pass":false,"score":0,"calls":[],"diffs":[{"kind":"invalid_arguments","call":null,"path":"","rule":"","message":"response line 1 is not valid JSON: duplicate key at byte 46: key \"a\" appears twice"}]}` + "\n"},
		{"NaN in the model output", "application/json", `{"id": "no-tool-needed", "response": NaN}`, 200,
			`{"id":"no-tool-needed","pass":false,"score":0,"calls":[],"diffs":[{"kind":"invalid_arguments","call":null,"path":"","rule":"","message":"response line 1 is not valid JSON: non-finite number at byte 37: NaN and Infinity are not JSON numbers"}]}` + "\n"},
		// The Content-Type is not read: curl -d sends a form's.
		{"JSON sent as a form, as curl -d sends it", "application/x-www-form-urlencoded", ok, 200, `{"id":"unit-left-to-its-default","pass":true,…`},
		{"JSON sent as text", "text/plain", ok, 200, `{"id":"unit-left-to-its-default","pass":true,…`},
		{"JSON with a charset", "application/json; charset=utf-8", ok, 200, `{"id":"unit-left-to-its-default","pass":true,…`},
		{"no Content-Type", "", ok, 200, `{"id":"unit-left-to-its-default","pass":true,…`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := do(t, "POST", base+"/v1/score", "", tt.contentType, tt.body)
			if a.status != tt.status {
				t.Errorf("status %d, want %d", a.status, tt.status)
			}
			if ct := a.header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q", ct)
			}
			if prefix, ok := strings.CutSuffix(tt.want, "…"); ok {
				if !strings.HasPrefix(a.body, prefix) {
					t.Errorf("body\n%s\nwant one starting\n%s", a.body, prefix)
				}
			} else if a.body != tt.want {
				t.Errorf("body\n%s\nwant\n%s", a.body, tt.want)
			}
		})
	}
}

// TestBatchReadsAResponsesFile: a batch's body is read as callgrade score
// reads a responses file (results.ResponseReader): a .jsonl.gz posted as
// it is, without Content-Encoding, is its text, a byte order mark inside
// it is skipped, and a gzip header that does not read ends the batch at
// line 1 with a 400.
func TestBatchReadsAResponsesFile(t *testing.T) {
	base, _ := start(t, newHandler(t, Options{}))
	text := `{"id": "no-tool-needed", "response": []}` + "\n" + `{"id": "ghost", "response": []}` + "\n"
	plain := doEncoded(t, base+"/v1/score/batch", "identity", []byte(text))
	if plain.status != 200 || !strings.HasPrefix(plain.body, `{"id":"no-tool-needed","pass":true`) {
		t.Fatalf("plain text: status %d\n%s", plain.status, plain.body)
	}
	tests := []struct {
		name string
		body []byte
		want string // the whole answer
	}{
		{"gzip", gzipped(text), plain.body},
		{"gzip with a byte order mark", gzipped("\ufeff" + text), plain.body},
		{"gzip with a header that does not read", []byte("\x1f\x8b\x00garbage\n"), `{"line":1,"status":400,"error":"line 1: cannot read the request body from line 1 on: gzip-compressed responses: gzip: invalid header"}` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := doEncoded(t, base+"/v1/score/batch", "identity", tt.body)
			if a.status != 200 || a.body != tt.want {
				t.Errorf("status %d\n%s\nwant\n%s", a.status, a.body, tt.want)
			}
		})
	}
}
