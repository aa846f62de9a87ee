package server

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	pluginOnce sync.Once
	pluginBin  string
	pluginErr  error
)

// testPlugin builds plugins/internal/testplugin once per test binary: its
// comparator "eq" answers "slow!" after a minute, or at once when the
// comparison is cancelled, appending a line to the file of -cancelled.
func testPlugin(t *testing.T) string {
	t.Helper()
	pluginOnce.Do(func() {
		dir, err := os.MkdirTemp("", "callgrade-server-test")
		if err != nil {
			pluginErr = err
			return
		}
		pluginBin = filepath.Join(dir, "testplugin")
		cmd := exec.Command("go", "build", "-o", pluginBin, "./plugins/internal/testplugin")
		cmd.Dir = ".."
		if b, err := cmd.CombinedOutput(); err != nil {
			pluginErr = fmt.Errorf("go build: %v\n%s", err, b)
		}
	})
	if pluginErr != nil {
		t.Fatal(pluginErr)
	}
	return pluginBin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if pluginBin != "" {
		os.RemoveAll(filepath.Dir(pluginBin))
	}
	os.Exit(code)
}

// slowSuite compares x with the test plugin: "slow!" keeps it a minute
// unless cancelled.
const slowSuite = `version: 1
plugins:
  slow:
    command: [%q, -cancelled, %q]
    timeout: 1m
defaults:
  rules:
    x: {plugin: slow.eq}
cases:
  - id: slow
    expected: {name: f, arguments: {x: "a"}}
`

// slowHandler serves slowSuite with opts; cancelled is the file the
// plugin writes a line to for each comparison cancelled.
func slowHandler(t *testing.T, opts Options) (h *Handler, cancelled string) {
	bin := testPlugin(t)
	dir := t.TempDir()
	cancelled = filepath.Join(dir, "cancelled")
	file := filepath.Join(dir, "suite.yaml")
	if err := os.WriteFile(file, fmt.Appendf(nil, slowSuite, bin, cancelled), 0o644); err != nil {
		t.Fatal(err)
	}
	return newHandler(t, opts, file), cancelled
}

// waitFor polls cond for up to 10 seconds.
func waitFor(cond func() bool) bool {
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return cond()
}

// client gives up after 10 seconds, so that a server that never answers
// fails a test instead of hanging it.
var client = &http.Client{Timeout: 10 * time.Second}

// post posts body with client.
func post(t *testing.T, url, body string) (answer, time.Duration) {
	t.Helper()
	start := time.Now()
	resp, err := client.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatalf("no answer in %v: %v", time.Since(start).Round(time.Millisecond), err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return answer{resp.StatusCode, resp.Header, string(b)}, time.Since(start)
}

// A request past --timeout is answered 503 within a second of its
// deadline, whatever its work is waiting for; the work is stopped (the
// plugin's comparison is cancelled, and the request's goroutines end),
// and the metrics count a 503.
func TestTimeoutStopsTheWork(t *testing.T) {
	h, cancelled := slowHandler(t, Options{Timeout: time.Second})
	base, _ := start(t, h)
	fast := `{"id": "slow", "response": [{"name": "f", "arguments": {"x": "a"}}]}`
	if a, _ := post(t, base+"/v1/score", fast); a.status != 200 || !strings.Contains(a.body, `"pass":true`) {
		t.Fatalf("%d %s", a.status, a.body)
	}
	client.CloseIdleConnections()
	time.Sleep(200 * time.Millisecond) // the connection's goroutines end
	baseline := runtime.NumGoroutine()

	slow := `{"id": "slow", "response": [{"name": "f", "arguments": {"x": "slow!"}}]}`
	a, took := post(t, base+"/v1/score", slow)
	if a.status != 503 || a.header.Get("Content-Type") != "application/json" ||
		a.body != `{"error":"the request took longer than the limit of 1s (--timeout); its work was stopped"}`+"\n" {
		t.Errorf("%d %s %s", a.status, a.header.Get("Content-Type"), a.body)
	}
	if took > 2*time.Second {
		t.Errorf("answered after %v, more than a second past the deadline", took)
	}
	t.Logf("answered %d after %v", a.status, took.Round(time.Millisecond))
	if !waitFor(func() bool { b, _ := os.ReadFile(cancelled); return string(b) == "cancelled\n" }) {
		b, _ := os.ReadFile(cancelled)
		t.Errorf("the plugin's comparison was not cancelled: %q", b)
	}
	client.CloseIdleConnections()
	if !waitFor(func() bool { return runtime.NumGoroutine() <= baseline }) {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines, %d before the request:\n%s", runtime.NumGoroutine(), baseline, buf[:runtime.Stack(buf, true)])
	}
	m := do(t, "GET", base+"/metrics", "", "", "").body
	for _, want := range []string{
		`callgrade_http_requests_total{route="/v1/score",code="200"} 1`,
		`callgrade_http_requests_total{route="/v1/score",code="503"} 1`,
	} {
		if !strings.Contains(m, want+"\n") {
			t.Errorf("metrics lack %s:\n%s", want, m)
		}
	}
}

// A batch past --batch-timeout while it is being scored ends, within a
// second of its deadline, with an error line with the status 503 naming
// the first line not answered; its work stops as a single request's does.
func TestBatchTimeoutStopsTheWork(t *testing.T) {
	h, cancelled := slowHandler(t, Options{BatchTimeout: 2 * time.Second})
	base, _ := start(t, h)
	fast := `{"id": "slow", "response": [{"name": "f", "arguments": {"x": "a"}}]}` + "\n"
	if a, _ := post(t, base+"/v1/score/batch", fast); a.status != 200 || !strings.Contains(a.body, `"pass":true`) {
		t.Fatalf("%d %s", a.status, a.body)
	}
	client.CloseIdleConnections()
	time.Sleep(200 * time.Millisecond)
	baseline := runtime.NumGoroutine()

	slow := `{"id": "slow", "response": [{"name": "f", "arguments": {"x": "slow!"}}]}` + "\n"
	a, took := post(t, base+"/v1/score/batch", slow+fast)
	if want := `{"line":1,"status":503,"error":"line 1: the batch ran out of its time (2s, --batch-timeout) while being scored; lines from 1 on were not answered"}` + "\n"; a.status != 200 || a.body != want {
		t.Errorf("%d %s\nwant %s", a.status, a.body, want)
	}
	if took > 3*time.Second {
		t.Errorf("answered after %v, more than a second past the deadline", took)
	}
	t.Logf("ended after %v", took.Round(time.Millisecond))
	if !waitFor(func() bool { b, _ := os.ReadFile(cancelled); return string(b) == "cancelled\n" }) {
		b, _ := os.ReadFile(cancelled)
		t.Errorf("the plugin's comparison was not cancelled: %q", b)
	}
	client.CloseIdleConnections()
	if !waitFor(func() bool { return runtime.NumGoroutine() <= baseline }) {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines, %d before the request:\n%s", runtime.NumGoroutine(), baseline, buf[:runtime.Stack(buf, true)])
	}
}
