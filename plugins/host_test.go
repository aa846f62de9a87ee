package plugins_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/callgrade/callgrade/internal/errcode"
	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/plugins"
	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/value"
)

func TestOpenErrors(t *testing.T) {
	tp := testPlugin(t)
	dir := t.TempDir()
	notExec := filepath.Join(dir, "not-exec")
	if err := os.WriteFile(notExec, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	pidfile := filepath.Join(dir, "pid")
	loc := suite.Loc{File: "suite.yaml", Key: "plugins.p"}
	tests := []struct {
		name string
		decl suite.Plugin
		want []string
		code errcode.Code
	}{
		{"missing", suite.Plugin{Command: []string{filepath.Join(dir, "nope")}},
			[]string{"plugin p", "nope", "no such file"}, errcode.PluginUnavailable},
		{"missing, relative", suite.Plugin{Command: []string{"./bin/callgrade-no-such-plugin"}},
			[]string{"plugin p", "no such file", "a relative command is looked up from the working directory, /"}, errcode.PluginUnavailable},
		{"missing in PATH", suite.Plugin{Command: []string{"callgrade-no-such-plugin"}},
			[]string{"plugin p", "callgrade-no-such-plugin", "not found"}, errcode.PluginUnavailable},
		{"not executable", suite.Plugin{Command: []string{notExec}},
			[]string{"plugin p", "not-exec", "not executable"}, errcode.PluginUnavailable},
		{"checksum mismatch", suite.Plugin{Command: []string{tp, "-pidfile", pidfile}, SHA256: strings.Repeat("ab", 32)},
			[]string{"plugin p", "sha256", "not started"}, errcode.PluginChecksumMismatch},
		{"bad checksum", suite.Plugin{Command: []string{tp}, SHA256: "xyz"},
			[]string{"sha256 \"xyz\" is not 64 hex digits"}, errcode.InvalidValue},
		{"exits at start", suite.Plugin{Command: []string{tp, "-mode", "exit"}},
			[]string{"plugin p", "-mode exit", "does not start"}, errcode.PluginUnavailable},
		// A plugin that dies answering Describe: its own last words end
		// the message, not the broken connection's.
		{"exits at Describe", suite.Plugin{Command: []string{tp, "-mode", "describe-exit"}},
			[]string{"plugin p", "describe: ", "exit status 3", "its stderr ends: FATAL: cannot open model file /x.db"}, errcode.PluginProtocolError},
		{"bad timeout", suite.Plugin{Command: []string{tp}, Timeout: "soon"},
			[]string{"timeout \"soon\""}, errcode.InvalidValue},
		{"no command", suite.Plugin{}, []string{"no command"}, errcode.MissingKey},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.decl.Loc = loc
			h, err := plugins.Open(map[string]suite.Plugin{"p": tt.decl}, plugins.Options{Logger: quiet(t)})
			if err == nil {
				h.Close()
				t.Fatal("no error")
			}
			var se *suite.Error
			if !errors.As(err, &se) || len(se.Problems) != 1 || se.Problems[0].Loc != loc {
				t.Fatalf("want one *suite.Error problem at %v, got %#v", loc, err)
			}
			if se.Problems[0].Code != tt.code || !errors.Is(err, tt.code) {
				t.Errorf("code %q, want %q", se.Problems[0].Code, tt.code)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "suite.yaml: plugins.p: ") {
				t.Errorf("message does not start with the location: %s", msg)
			}
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("message %q lacks %q", msg, w)
				}
			}
		})
	}
	if _, err := os.Stat(pidfile); err == nil {
		t.Error("the plugin with the wrong checksum was started")
	}
}

func TestOpenReportsEveryPlugin(t *testing.T) {
	_, err := plugins.Open(map[string]suite.Plugin{
		"a": {Command: []string{"/nonexistent/a"}, Loc: suite.Loc{Key: "plugins.a"}},
		"b": {Command: []string{"/nonexistent/b"}, Loc: suite.Loc{Key: "plugins.b"}},
		"c": {Command: []string{testPlugin(t)}},
	}, plugins.Options{Logger: quiet(t)})
	var se *suite.Error
	if !errors.As(err, &se) || len(se.Problems) != 2 {
		t.Fatalf("want 2 problems, got %v", err)
	}
}

func TestChecksumMatch(t *testing.T) {
	tp := testPlugin(t)
	h := open(t, map[string]suite.Plugin{"p": {Command: []string{tp}, SHA256: strings.ToUpper(sha(t, tp))}}, plugins.Options{})
	c, err := h.Comparator("p.eq", value.Value{})
	if err != nil {
		t.Fatal(err)
	}
	if o := c.Compare(input(t, `1`, `1.0`)); !o.Equal || o.Err != nil {
		t.Fatalf("got %+v", o)
	}
}

func TestComparatorRefs(t *testing.T) {
	h := open(t, map[string]suite.Plugin{
		"geo":  {Command: []string{build(t, "./examples/plugins/geo")}},
		"test": {Command: []string{testPlugin(t)}},
	}, plugins.Options{})
	tests := []struct {
		ref, params string
		want        string       // "" for no error
		code        errcode.Code // the error's
	}{
		{"geo.within_km", `{"km": 5}`, "", ""},
		{"geo.within_km", `{"km": 5.5}`, "", ""},
		{"test.eq", `null`, "", ""},
		{"test.eq", `{"anything": [1]}`, "", ""},
		{"geo.within_km", `null`, "missing property 'km'", errcode.InvalidValue},
		{"geo.within_km", `{"km": "5"}`, "at /km", errcode.InvalidValue},
		{"geo.within_km", `{"km": 5, "miles": 3}`, "miles", errcode.InvalidValue},
		{"geo.within_km", `[1]`, "params must be an object", errcode.WrongType},
		{"geo.within_mi", `{}`, `plugin geo has no comparator "within_mi" (it has within_km)`, errcode.UnknownComparator},
		{"nope.within_km", `{}`, `no plugin "nope"`, errcode.UnknownComparator},
		{"geo", `{}`, "not of the form plugin.comparator", errcode.InvalidValue},
	}
	for _, tt := range tests {
		t.Run(tt.ref+" "+tt.params, func(t *testing.T) {
			_, err := h.Comparator(tt.ref, mustParse(t, tt.params))
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("unexpected error %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("want error containing %q, got %v", tt.want, err)
			case tt.want != "" && errcode.Of(err) != tt.code:
				t.Fatalf("code %q, want %q", errcode.Of(err), tt.code)
			}
		})
	}
}

func TestDescribe(t *testing.T) {
	geo := build(t, "./examples/plugins/geo")
	h := open(t, map[string]suite.Plugin{"geo": {Command: []string{geo}}}, plugins.Options{})
	d := h.Describe()
	if len(d) != 1 || d[0].Name != "geo" || len(d[0].Comparators) != 1 {
		t.Fatalf("got %+v", d)
	}
	c := d[0].Comparators[0]
	if c.Name != "within_km" || !strings.Contains(c.Doc, "km") || !strings.Contains(c.ParamsSchema, `"required":["km"]`) {
		t.Fatalf("got %+v", c)
	}
}

// compare runs one comparison with a short-lived comparator.
func compare(t *testing.T, h *plugins.Host, ref, expected, actual string) rules.Outcome {
	t.Helper()
	c, err := h.Comparator(ref, value.Value{})
	if err != nil {
		t.Fatal(err)
	}
	return c.Compare(input(t, expected, actual))
}

func wantPluginError(t *testing.T, o rules.Outcome, substr string) {
	t.Helper()
	if o.Err == nil || o.ErrKind != results.PluginError || !strings.Contains(o.Err.Error(), substr) {
		t.Fatalf("want a plugin_error containing %q, got %+v", substr, o)
	}
}

func wantEqual(t *testing.T, o rules.Outcome, equal bool) {
	t.Helper()
	if o.Err != nil || o.Equal != equal {
		t.Fatalf("want Equal=%v, got %+v", equal, o)
	}
}

func TestFaults(t *testing.T) {
	tp := testPlugin(t)
	tests := []struct {
		name    string
		args    []string
		timeout string
		actual  string
		want    string
		after   bool // whether a later comparison succeeds
	}{
		{"crash", nil, "", `"crash!"`, "crashed", true},
		{"hang", nil, "300ms", `"hang!"`, "no answer within 300ms", true},
		{"wrong count", []string{"-mode", "wrongcount"}, "", `1`, "answered 2 results for 1 comparison", false},
		{"garbage", []string{"-mode", "garbage"}, "", `1`, "unmarshal", false},
		{"answer too large", nil, "", `"huge!"`, "larger than max", true},
		// The plugin's own UNAVAILABLE is its answer, not a crash: the
		// process is kept (three restarts would give it up).
		{"unavailable", []string{"-mode", "unavailable"}, "", `"unavailable!"`, "plugin bad: back end down", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := open(t, map[string]suite.Plugin{
				"bad":  {Command: append([]string{tp}, tt.args...), Timeout: tt.timeout},
				"good": {Command: []string{tp}},
			}, plugins.Backoff(plugins.Options{}, 10*time.Millisecond))
			// The good plugin's comparisons, running meanwhile, are not
			// affected.
			var wg sync.WaitGroup
			stop := make(chan struct{})
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					select {
					case <-stop:
						return
					default:
					}
					wantEqual(t, compare(t, h, "good.eq", `"a"`, `"a"`), true)
				}
			}()
			wantPluginError(t, compare(t, h, "bad.eq", `1`, tt.actual), tt.want)
			if tt.after {
				wantEqual(t, compare(t, h, "bad.eq", `1`, `1`), true)
				wantEqual(t, compare(t, h, "bad.eq", `1`, `2`), false)
			}
			close(stop)
			wg.Wait()
		})
	}
}

func TestCrashFailsOnlyItsComparison(t *testing.T) {
	t.Run("crash", func(t *testing.T) { failsAlone(t, `"crash!"`, "crashed") })
	// An answer over 16 MiB is refused, not read (go-plugin takes 2 GiB),
	// and only the comparison whose answer it is fails.
	t.Run("answer too large", func(t *testing.T) { failsAlone(t, `"huge!"`, "larger than max") })
}

// failsAlone sends a comparison of actual value bad, which fails with a
// plugin_error that says want, in one batch with five others, which do
// not fail.
func failsAlone(t *testing.T, bad, want string) {
	tp := testPlugin(t)
	// A long linger puts the comparisons sent together into one batch.
	h := open(t, map[string]suite.Plugin{"p": {Command: []string{tp}}},
		plugins.Backoff(plugins.Batching(plugins.Options{}, 3, 0, 50*time.Millisecond), time.Millisecond))
	c, err := h.Comparator("p.eq", value.Value{})
	if err != nil {
		t.Fatal(err)
	}
	actual := []string{bad, `1`, `1`, `1`, `1`, `1`}
	outs := make([]rules.Outcome, len(actual))
	var wg sync.WaitGroup
	for i, a := range actual {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i] = c.Compare(input(t, `1`, a))
		}()
		if i == 0 {
			time.Sleep(5 * time.Millisecond) // the crashing one goes first
		}
	}
	wg.Wait()
	failed := 0
	for _, o := range outs {
		if o.Err != nil {
			failed++
			if o.ErrKind != results.PluginError || !strings.Contains(o.Err.Error(), want) {
				t.Errorf("got %+v", o)
			}
		} else if !o.Equal {
			t.Errorf("got %+v", o)
		}
	}
	// The bad comparison fails, again when it is sent alone; the others
	// sent with it are answered (by the restarted plugin, after a crash),
	// and so is the next.
	if failed != 1 || outs[0].Err == nil {
		t.Errorf("%d comparisons failed, the first %v; want the first alone", failed, outs[0].Err)
	}
	wantEqual(t, c.Compare(input(t, `1`, `1`)), true)
}

// A plugin's message is cut to 4 KiB at a character's start, so that a
// result line is not as long as the plugin's answer.
func TestLongMessageIsCut(t *testing.T) {
	h := open(t, map[string]suite.Plugin{"p": {Command: []string{testPlugin(t)}}}, plugins.Options{})
	o := compare(t, h, "p.eq", `1`, `"long!"`)
	if o.Equal || o.Err != nil || len(o.Message) > 4<<10+40 || !strings.HasSuffix(o.Message, "é… (102400 bytes, cut)") {
		t.Errorf("got equal=%v err=%v, a message of %d bytes ending %q", o.Equal, o.Err, len(o.Message), o.Message[max(0, len(o.Message)-40):])
	}
}

func TestRestartsAreBounded(t *testing.T) {
	tp := testPlugin(t)
	h := open(t, map[string]suite.Plugin{"p": {Command: []string{tp}}},
		plugins.Backoff(plugins.Options{MaxRestarts: 2}, time.Millisecond))
	for i := range 3 {
		wantPluginError(t, compare(t, h, "p.eq", `1`, `"crash!"`), "crashed")
		if i < 2 {
			wantEqual(t, compare(t, h, "p.eq", `1`, `1`), true)
		}
	}
	start := time.Now()
	o := compare(t, h, "p.eq", `1`, `1`)
	wantPluginError(t, o, "restarted 2 times in 10m0s, the most allowed")
	if !errors.Is(o.Err, errcode.PluginCrashed) {
		t.Errorf("a plugin restarted the most allowed: want plugin_crashed, got %v", o.Err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("a dead plugin's comparison took %v", d)
	}
}

// Restarts older than the window no longer count: a long-lived host keeps
// a plugin that crashes now and then, and still gives up on one that
// crashes again and again.
func TestRestartWindowForgetsOldRestarts(t *testing.T) {
	tp := testPlugin(t)
	const window = 300 * time.Millisecond
	// The clock moves only when the test moves it: a restart's start on a
	// loaded machine may take longer than the window, and the real clock
	// would then forget the restart the last crash must count.
	var clock atomic.Int64
	opts := plugins.Backoff(plugins.Options{MaxRestarts: 1, RestartWindow: window}, time.Millisecond)
	plugins.SetClock(&opts, func() time.Time { return time.Unix(0, clock.Load()) })
	h := open(t, map[string]suite.Plugin{"p": {Command: []string{tp}}}, opts)
	for range 2 {
		wantPluginError(t, compare(t, h, "p.eq", `1`, `"crash!"`), "crashed")
		wantEqual(t, compare(t, h, "p.eq", `1`, `1`), true)
		clock.Add(int64(window))
	}
	wantPluginError(t, compare(t, h, "p.eq", `1`, `"crash!"`), "crashed")
	wantEqual(t, compare(t, h, "p.eq", `1`, `1`), true)
	clock.Add(int64(window - 1))
	wantPluginError(t, compare(t, h, "p.eq", `1`, `"crash!"`), "crashed")
	wantPluginError(t, compare(t, h, "p.eq", `1`, `1`), "restarted once in 300ms, the most allowed")
	// Given up on, it is tried again once the restart it was given up for
	// leaves the window, not before: a few requests that crash it do not
	// fail a long-lived serve's plugin rules until a reload.
	clock.Add(1)
	wantEqual(t, compare(t, h, "p.eq", `1`, `1`), true)
	// That try is a restart: a crash at once gives it up again, until the
	// window has passed.
	wantPluginError(t, compare(t, h, "p.eq", `1`, `"crash!"`), "crashed")
	wantPluginError(t, compare(t, h, "p.eq", `1`, `1`), "the most allowed")
	clock.Add(int64(window - 1))
	wantPluginError(t, compare(t, h, "p.eq", `1`, `1`), "the most allowed")
	clock.Add(1)
	wantEqual(t, compare(t, h, "p.eq", `1`, `1`), true)
}

// TestCrashLeavesNoSocket: the sockets of crashed and closed plugins are
// gone once the host is closed.
func TestCrashLeavesNoSocket(t *testing.T) {
	tp := testPlugin(t)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // the host's and the plugin's
	h, err := plugins.Open(map[string]suite.Plugin{"p": {Command: []string{tp}}},
		plugins.Backoff(plugins.Options{Logger: quiet(t)}, time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		wantPluginError(t, compare(t, h, "p.eq", `1`, `"crash!"`), "crashed")
		wantEqual(t, compare(t, h, "p.eq", `1`, `1`), true)
	}
	h.Close()
	// The crashed processes are killed (and their directories removed)
	// on goroutines of their own: wait for them, boundedly.
	var left []os.DirEntry
	for range 100 {
		if left, err = os.ReadDir(tmp); err != nil || len(left) == 0 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range left {
		t.Errorf("left in TMPDIR: %s", e.Name())
	}
}

// endsSoon reports whether process pid is gone, or a zombie (a killed
// orphan waits for whoever reaps orphans here), within 5s.
func endsSoon(pid int) bool {
	for range 250 {
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			return true
		}
		if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
			// pid (comm) S ...: the state follows the last ')'.
			if i := bytes.LastIndexByte(b, ')'); i >= 0 && i+2 < len(b) && b[i+2] == 'Z' {
				return true
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

// A plugin that stops answering altogether (frozen: not even go-plugin's
// shutdown request gets an answer) is killed when it is replaced, not
// left running beside its successor with its socket's directory.
func TestFrozenPluginIsKilled(t *testing.T) {
	tp := testPlugin(t)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	pidfile := filepath.Join(t.TempDir(), "pid")
	h := open(t, map[string]suite.Plugin{"p": {Command: []string{tp, "-pidfile", pidfile}, Timeout: "300ms"}},
		plugins.Backoff(plugins.Options{}, time.Millisecond))
	wantEqual(t, compare(t, h, "p.eq", `1`, `1`), true)
	b, err := os.ReadFile(pidfile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(string(b))
	// Stopped whole, as one stuck holding a lock (a Python plugin in a
	// regex) is: it answers nothing more, its shutdown request included.
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	// The comparison it never answers is sent again to its successor,
	// which does: the freeze was not the value's doing.
	wantEqual(t, compare(t, h, "p.eq", `1`, `1`), true)
	wantEqual(t, compare(t, h, "p.eq", `1`, `1`), true)
	if !endsSoon(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("the frozen plugin (pid %d) still runs after it was replaced", pid)
	}
	h.Close()
	if left, err := os.ReadDir(tmp); err != nil || len(left) != 0 {
		t.Errorf("left in TMPDIR: %v %v", left, err)
	}
}

// A plugin started through a wrapper script that does not exec it (the
// script's child holds the plugin's output open) and never shakes hands
// fails to start within StartTimeout, and leaves nothing running. What a
// plugin wrote to stderr before failing is in the error.
func TestStartFailuresEndWhole(t *testing.T) {
	dir := t.TempDir()
	pidfile := filepath.Join(dir, "pid")
	hang := filepath.Join(dir, "hang.sh")
	if err := os.WriteFile(hang, []byte("#!/bin/sh\nsleep 60 &\necho $! > "+pidfile+"\nwait\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	wantNoStart(t, hang, 5*time.Second)
	b, _ := os.ReadFile(pidfile)
	switch pid, _ := strconv.Atoi(strings.TrimSpace(string(b))); {
	case pid <= 0:
		t.Errorf("the wrapper did not start its child (pidfile %q)", b)
	case !endsSoon(pid):
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("the wrapper's child (pid %d) still runs", pid)
	}

	says := filepath.Join(dir, "says.sh")
	if err := os.WriteFile(says, []byte("#!/bin/sh\necho 'FATAL: cannot open model file /x.db' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := plugins.Open(map[string]suite.Plugin{"p": {Command: []string{says}}}, plugins.Options{Logger: quiet(t)})
	if err == nil || !strings.Contains(err.Error(), "its stderr ends: FATAL: cannot open model file /x.db") {
		t.Errorf("got %v, want the plugin's own words", err)
	}
}

// wantNoStart opens a plugin whose command fails to start within a start
// timeout of 500ms, and wants Open to say so within bound.
func wantNoStart(t *testing.T, command string, bound time.Duration) {
	t.Helper()
	start := time.Now()
	_, err := plugins.Open(map[string]suite.Plugin{"p": {Command: []string{command}}},
		plugins.Options{Logger: quiet(t), StartTimeout: 500 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "does not start") {
		t.Errorf("got %v, want a failure to start", err)
	}
	if d := time.Since(start); d > bound {
		t.Errorf("Open returned after %v; the start timeout is 500ms", d)
	}
}

// A process the plugin starts in a session of its own (setsid), out of
// reach of the process group's kill, holds the plugin's stdout and stderr
// open while it runs, and go-plugin waits for their end: neither a
// plugin that fails to start nor the end of a run may wait for it.
func TestOutputHeldOutsideTheGroup(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid")
	}
	tp := testPlugin(t)
	dir := t.TempDir()
	script := func(name, then string) (path, pidfile string) {
		path, pidfile = filepath.Join(dir, name+".sh"), filepath.Join(dir, name+".pid")
		body := "#!/bin/sh\nsetsid sleep 60 &\necho $! > " + pidfile + "\n" + then + "\n"
		if err := os.WriteFile(path, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
		return path, pidfile
	}
	reap := func(pidfile string) {
		b, _ := os.ReadFile(pidfile)
		if pid, _ := strconv.Atoi(strings.TrimSpace(string(b))); pid > 0 {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}

	fails, failsPid := script("fails", "exit 1")
	t.Cleanup(func() { reap(failsPid) })
	wantNoStart(t, fails, 6*time.Second)

	works, worksPid := script("works", "exec "+tp)
	t.Cleanup(func() { reap(worksPid) })
	h := open(t, map[string]suite.Plugin{"p": {Command: []string{works}}}, plugins.Options{})
	wantEqual(t, compare(t, h, "p.eq", `1`, `1`), true)
	start := time.Now()
	h.Close()
	if d := time.Since(start); d > 12*time.Second {
		t.Errorf("Close returned after %v", d)
	}
}

func TestBatchesManyConcurrentCallers(t *testing.T) {
	tp := testPlugin(t)
	// Small batches by bytes: 40 KiB values split a 200-item queue into many.
	h := open(t, map[string]suite.Plugin{"p": {Command: []string{tp}}},
		plugins.Batching(plugins.Options{}, 0, 256<<10, 0))
	c, err := h.Comparator("p.eq", value.Value{})
	if err != nil {
		t.Fatal(err)
	}
	big := strconv.Quote(strings.Repeat("x", 40<<10))
	var wg sync.WaitGroup
	errs := make(chan error, 2000)
	for i := range 2000 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e, a := strconv.Itoa(i), strconv.Itoa(i+i%2)
			if i%10 == 0 {
				e, a = big, big
			}
			o := c.Compare(input(t, e, a))
			if o.Err != nil || o.Equal != (e == a) {
				errs <- fmt.Errorf("%d: got %+v", i, o)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// One value over the limit is a plugin_error, not a failed batch.
	huge := strconv.Quote(strings.Repeat("x", 300<<10))
	wantPluginError(t, c.Compare(input(t, huge, huge)), "exceeds")
}

func TestClose(t *testing.T) {
	tp := testPlugin(t)
	pidfile := filepath.Join(t.TempDir(), "pid")
	h, err := plugins.Open(map[string]suite.Plugin{"p": {Command: []string{tp, "-pidfile", pidfile}}}, plugins.Options{Logger: quiet(t)})
	if err != nil {
		t.Fatal(err)
	}
	c, err := h.Comparator("p.eq", value.Value{})
	if err != nil {
		t.Fatal(err)
	}
	pid := readPid(t, pidfile)
	h.Close()
	h.Close()
	waitGone(t, pid, 5*time.Second)
	wantPluginError(t, c.Compare(input(t, `1`, `1`)), "host closed")
}

func TestBlocking(t *testing.T) {
	h := open(t, map[string]suite.Plugin{"p": {Command: []string{testPlugin(t)}}}, plugins.Options{})
	c, err := h.Comparator("p.eq", value.Value{})
	if err != nil {
		t.Fatal(err)
	}
	b, ok := c.(interface{ Blocking() bool })
	if !ok || !b.Blocking() {
		t.Fatal("a plugin comparator does not report Blocking() true")
	}
}
