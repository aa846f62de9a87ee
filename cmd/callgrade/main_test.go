package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/callgrade/callgrade/internal/testenv"
)

// bin is the callgrade binary built once for these tests: the CLI is tested
// as users run it, as a process.
var bin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "callgrade-cli-test")
	if err != nil {
		panic(err)
	}
	bin = filepath.Join(dir, "callgrade")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		panic("building callgrade: " + err.Error())
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

type run struct {
	stdout, stderr string
	code           int
}

func runCLI(t *testing.T, args ...string) run {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = "../.." // the repository root, so paths read as in the README
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return run{out.String(), errb.String(), code}
}

// startCLI starts cmd, a run of the built binary, from the repository
// root, and returns the buffer its standard error fills as it runs (read
// it after cmd.Wait).
func startCLI(t *testing.T, cmd *exec.Cmd) *bytes.Buffer {
	t.Helper()
	cmd.Dir = "../.."
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return &errb
}

func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func resultLines(t *testing.T, text string) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("result line is not JSON: %v: %s", err, sc.Text())
		}
		out = append(out, m)
	}
	return out
}

func TestScoreBundledExample(t *testing.T) {
	r := runCLI(t, "score", "--suite", "examples/weather/suite.yaml", "--responses", "examples/weather/responses.jsonl")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	want := map[string]bool{
		"key-order-and-number-spelling": true, "unit-left-to-its-default": true, "city-spelled-loosely": true,
		"flights-with-rules": true, "wrong-tool-mentioning-berlin": false, "duplicate-key-never-passes": false,
		"two-cities-any-order": true, "forecast-also-fine": true, "no-tool-needed": true,
	}
	lines := resultLines(t, r.stdout)
	if len(lines) != len(want) {
		t.Fatalf("%d result lines, want %d:\n%s", len(lines), len(want), r.stdout)
	}
	for _, l := range lines {
		id := l["id"].(string)
		if l["pass"] != want[id] {
			t.Errorf("%s: pass = %v, want %v: %v", id, l["pass"], want[id], l["diffs"])
		}
	}
	if !regexp.MustCompile(`all cases +9 +7 +2 +1 +77\.8%`).MatchString(r.stderr) || !strings.Contains(r.stderr, "\ntool ") {
		t.Errorf("summary on stderr lacks totals or the by-tool table:\n%s", r.stderr)
	}
}

func TestScoreOutFileAndFailUnder(t *testing.T) {
	out := filepath.Join(t.TempDir(), "results.jsonl")
	r := runCLI(t, "score", "--suite", "examples/weather/suite.yaml", "--responses", "examples/weather/responses.jsonl",
		"--out", out, "--fail-under", "0.9", "--quiet")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (7 of 9 pass, under 0.9): %s", r.code, r.stderr)
	}
	if r.stdout != "" {
		t.Errorf("stdout should be empty with --out, got %q", r.stdout)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(resultLines(t, string(data))); n != 9 {
		t.Errorf("%d lines in --out, want 9", n)
	}
	r = runCLI(t, "score", "--suite", "examples/weather/suite.yaml", "--responses", "examples/weather/responses.jsonl",
		"--out", out, "--fail-under", "0.7", "--quiet")
	if r.code != 0 {
		t.Errorf("exit %d with --fail-under 0.7, want 0: %s", r.code, r.stderr)
	}
}

// A run of no cases has a pass rate of 0 (docs/scoring.md): a gate above
// 0 fails it, and one at 0 does not.
func TestScoreNoCasesFailUnder(t *testing.T) {
	dir := t.TempDir()
	suite := writeFile(t, dir, "suite.yaml", "version: 1\ncases: []\n")
	resp := writeFile(t, dir, "responses.jsonl", "")
	for v, code := range map[string]int{"0.5": 1, "0": 0} {
		if r := runCLI(t, "score", "--suite", suite, "--responses", resp, "--fail-under", v, "-q"); r.code != code {
			t.Errorf("--fail-under %s on no cases: exit %d, want %d: %s", v, r.code, code, r.stderr)
		}
	}
}

// --workers takes a number of goroutines, 0 meaning one per core (the
// default): a negative one is a usage error, where it ran as 0.
func TestScoreWorkersRange(t *testing.T) {
	args := []string{"score", "--suite", "examples/weather/suite.yaml", "--responses", "examples/weather/responses.jsonl", "--out", filepath.Join(t.TempDir(), "r.jsonl"), "-q"}
	for v, code := range map[string]int{"-5": 2, "-1": 2, "0": 0, "1": 0} {
		r := runCLI(t, append(args, "--workers", v)...)
		if r.code != code || code == 2 && !strings.Contains(r.stderr, "--workers takes a number of goroutines, or 0 for one per core, got "+v) {
			t.Errorf("--workers %s: exit %d, want %d: %s", v, r.code, code, r.stderr)
		}
	}
}

// --fail-under takes a pass rate: anything else, NaN included (which no
// rate is below, so it would never fail a run), is a usage error.
func TestScoreFailUnderRange(t *testing.T) {
	args := []string{"score", "--suite", "examples/weather/suite.yaml", "--responses", "examples/weather/responses.jsonl", "--out", filepath.Join(t.TempDir(), "r.jsonl"), "-q"}
	for _, v := range []string{"NaN", "-inf", "+Inf", "1.5", "-0.5", "-1"} {
		r := runCLI(t, append(args, "--fail-under", v)...)
		if r.code != 2 || !strings.Contains(r.stderr, "--fail-under takes a pass rate from 0 to 1") {
			t.Errorf("--fail-under %s: exit %d, want 2 naming the flag: %s", v, r.code, r.stderr)
		}
	}
	for v, code := range map[string]int{"0": 0, "1": 1} {
		if r := runCLI(t, append(args, "--fail-under", v)...); r.code != code {
			t.Errorf("--fail-under %s: exit %d, want %d: %s", v, r.code, code, r.stderr)
		}
	}
}

// A signal that stops a run (SIGINT, SIGTERM, SIGHUP, SIGQUIT) exits with
// 128 and its number, as a shell gives, not 2 with "context canceled" as if
// the input were bad; nothing is written to --out and the temporary
// results file beside it is removed (SIGHUP and SIGQUIT left it, killing
// the process). The responses come from a pipe kept open, so the run is
// still going when the signal comes.
func TestScoreInterrupted(t *testing.T) {
	for _, tt := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}, {syscall.SIGHUP, 129}, {syscall.SIGQUIT, 131}} {
		dir := t.TempDir()
		out := filepath.Join(dir, "r.jsonl")
		cmd := exec.Command(bin, "score", "--suite", "examples/weather/suite.yaml", "--responses", "-", "--out", out, "-q")
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		errb := startCLI(t, cmd)
		io.WriteString(stdin, `{"id":"weather-berlin","response":[]}`+"\n")
		// The run has begun once its temporary results file exists (the
		// signals are caught from just after): wait for it, boundedly.
		for range 500 {
			if m, _ := filepath.Glob(filepath.Join(dir, ".callgrade-results-*")); len(m) > 0 {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		time.Sleep(200 * time.Millisecond)
		cmd.Process.Signal(tt.sig)
		// Bounded: a command that waits for its input to end gets it.
		timer := time.AfterFunc(10*time.Second, func() { stdin.Close() })
		err = cmd.Wait()
		timer.Stop()
		stdin.Close()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != tt.code || !strings.Contains(errb.String(), "interrupted: no results written") {
			t.Errorf("%v: %v, stderr %q; want exit %d saying it was interrupted", tt.sig, err, errb.String(), tt.code)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: --out was written", tt.sig)
		}
		if m, _ := filepath.Glob(filepath.Join(dir, ".callgrade-results-*")); len(m) > 0 {
			t.Errorf("%v: left %s beside --out", tt.sig, filepath.Base(m[0]))
		}
	}
}

// scoreToPipe starts score on results well past a pipe's buffer (20,000
// unknown ids), writing them to out, with $TMPDIR the directory tmp; with
// merge, score --partial writes them to a part first, and merge writes
// them out.
func scoreToPipe(t *testing.T, merge bool) (cmd *exec.Cmd, out io.ReadCloser, errb *bytes.Buffer, tmp string) {
	t.Helper()
	dir := t.TempDir()
	tmp = t.TempDir()
	var lines strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&lines, `{"id":"stray-%d","response":[]}`+"\n", i)
	}
	resp := writeFile(t, dir, "responses.jsonl", lines.String())
	const suite = "examples/weather/suite.yaml"
	cmd = exec.Command(bin, "score", "--suite", suite, "--responses", resp, "-q")
	if merge {
		part := filepath.Join(dir, "a.partial")
		if r := runCLI(t, "score", "--partial", "--suite", suite, "--responses", resp, "--out", part); r.code != 0 {
			t.Fatalf("score --partial: exit %d: %s", r.code, r.stderr)
		}
		cmd = exec.Command(bin, "merge", "--suite", suite, "-q", part)
	}
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	return cmd, out, startCLI(t, cmd), tmp
}

// TestScoreInterruptedWhilePublishing: a signal that comes once the run
// has scored (or merged), while its results wait on a reader of standard
// output that has stopped reading, still stops it with the signal's
// status; it was ignored, and the run went on for as long as the reader
// slept, then exited 0.
func TestScoreInterruptedWhilePublishing(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT to send here")
	}
	t.Run("score", func(t *testing.T) { interruptWhilePublishing(t, false) })
	t.Run("merge", func(t *testing.T) { interruptWhilePublishing(t, true) })
}

func interruptWhilePublishing(t *testing.T, merge bool) {
	cmd, out, errb, tmp := scoreToPipe(t, merge)
	// The first line comes once the run has scored and is copying its
	// results out; then the reader stops reading, and the copy blocks.
	r := bufio.NewReader(out)
	if first, err := r.ReadString('\n'); err != nil || !strings.HasPrefix(first, `{"id":`) {
		t.Fatalf("first line %q, %v", first, err)
	}
	time.Sleep(100 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	// Bounded: a command that waits for its reader gets one after 10 s.
	timer := time.AfterFunc(10*time.Second, func() { io.Copy(io.Discard, r) })
	err := cmd.Wait()
	timer.Stop()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 || !strings.Contains(errb.String(), "interrupted") {
		t.Errorf("%v, stderr %q; want exit 130 saying it was interrupted", err, errb.String())
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("left %s in $TMPDIR", left[0].Name())
	}
}

// TestScoreReaderGoesAway: results piped to a reader that stops early
// (| head -1) end the command quietly with the shell's status for SIGPIPE,
// 141, and the temporary results file is removed, where a death by
// SIGPIPE left it in $TMPDIR every time.
func TestScoreReaderGoesAway(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGPIPE here")
	}
	cmd, out, errb, tmp := scoreToPipe(t, false)
	first, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.HasPrefix(first, `{"id":`) {
		t.Fatalf("first line %q, %v", first, err)
	}
	out.Close()
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 141 || errb.String() != "" {
		t.Errorf("%v, stderr %q; want exit 141 and nothing said", err, errb.String())
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("left %s in $TMPDIR", left[0].Name())
	}
}

func TestScoreExit2NamesFileAndKey(t *testing.T) {
	dir := t.TempDir()
	resp := writeFile(t, dir, "responses.jsonl", `{"id":"a","response":[]}`+"\n")
	tests := []struct {
		name, suite string
		want        []string
	}{
		{"unknown key", "version: 1\ncases:\n  - id: a\n    expectd: []\n", []string{"suite.yaml", "cases[0]", "expectd"}},
		{"bad regex", "version: 1\ncases:\n  - id: a\n    expected: {name: f, arguments: {x: 1}, rules: {x: {regex: \"(\"}}}\n",
			[]string{"suite.yaml", "cases[0].expected[0].rules.x", "a"}},
		{"bad path", "version: 1\ncases:\n  - id: a\n    expected: {name: f, arguments: {x: 1}, rules: {\"x..y\": exact}}\n",
			[]string{"suite.yaml", "cases[0].expected[0].rules", "a"}},
		{"shape and rule problems together", "version: 1\ncases:\n  - {id: a, expectd: []}\n  - id: b\n    expected: {name: f, arguments: {x: 1}, rules: {x: {regex: \"(\"}}}\n",
			[]string{"cases[0].expectd", "cases[1].expected[0].rules.x", "(case b)", "regex"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := writeFile(t, dir, "suite.yaml", tt.suite)
			out := filepath.Join(dir, "out.jsonl")
			os.Remove(out)
			r := runCLI(t, "score", "--suite", s, "--responses", resp, "--out", out)
			if r.code != 2 {
				t.Fatalf("exit %d, want 2: %s", r.code, r.stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr does not name %q:\n%s", w, r.stderr)
				}
			}
			if _, err := os.Stat(out); err == nil {
				t.Error("exit 2 left a results file")
			}
		})
	}
}

func TestScoreBadResponsesLine(t *testing.T) {
	dir := t.TempDir()
	s := writeFile(t, dir, "suite.yaml", "version: 1\ncases:\n  - {id: a, expected: []}\n  - {id: b, expected: []}\n")
	resp := writeFile(t, dir, "responses.jsonl", `{"id":"a","response":[]}`+"\n"+`this is not json`+"\n")
	r := runCLI(t, "score", "--suite", s, "--responses", resp)
	if r.code != 2 || !strings.Contains(r.stderr, "responses.jsonl:2") {
		t.Fatalf("exit %d, want 2 naming responses.jsonl:2: %s", r.code, r.stderr)
	}
	if r.stdout != "" {
		t.Errorf("exit 2 wrote results to stdout: %q", r.stdout)
	}
}

func TestScoreEveryCaseGetsALine(t *testing.T) {
	dir := t.TempDir()
	s := writeFile(t, dir, "suite.yaml", "version: 1\ncases:\n  - {id: a, expected: []}\n  - {id: b, expected: []}\n  - {id: c, expected: []}\n")
	// c answered first, b not at all, a stranger answered, a's line broken by the model.
	resp := writeFile(t, dir, "responses.jsonl", `{"id":"c","response":[]}`+"\n"+`{"id":"zz","response":[]}`+"\n"+`{"id":"a","response":{"name":"f","arguments":{"x":NaN}}}`+"\n")
	r := runCLI(t, "score", "--suite", s, "--responses", resp)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	lines := resultLines(t, r.stdout)
	var ids []string
	for _, l := range lines {
		ids = append(ids, l["id"].(string))
	}
	if strings.Join(ids, ",") != "a,b,c,zz" {
		t.Fatalf("ids in order %v, want a,b,c (the suite's order) then zz", ids)
	}
	kind := func(i int) string { return lines[i]["diffs"].([]any)[0].(map[string]any)["kind"].(string) }
	for i, want := range map[int]string{0: "invalid_arguments", 1: "missing_response", 3: "unknown_case"} {
		if got := kind(i); got != want {
			t.Errorf("%s: kind %s, want %s", ids[i], got, want)
		}
	}
	if lines[2]["pass"] != true {
		t.Errorf("c should pass: %v", lines[2])
	}
}

// TestVersion builds callgrade from a clean git checkout of this module's
// code, then as a release would (-ldflags -X main.version) from the same
// checkout with a change, and checks that `version` names the commit:
// its revision (git's HEAD), its time, and -dirty when the tree had changes;
// --version prints the same.
// The checkout is a fresh repository of one commit at a known time, so that
// both the clean and the dirty case are checked wherever the test runs,
// whatever state the working tree is in.
func TestVersion(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		testenv.Skipf(t, "git is absent (apt-get install git): a binary is stamped with its commit only when built in a git checkout")
	}
	repo := t.TempDir()
	copyModule(t, "../..", repo)
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=callgrade test", "-c", "user.email=test@example.invalid",
			"-c", "commit.gpgsign=false", "-c", "core.hooksPath=/dev/null"}, args...)...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE=2001-02-03T04:05:06Z", "GIT_COMMITTER_DATE=2001-02-03T04:05:06Z")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "callgrade at a known time")
	head := git("rev-parse", "HEAD")
	const commitTime = "2001-02-03T04:05:06Z"

	bins := t.TempDir()
	build := func(name string, flags ...string) (string, error) {
		out := filepath.Join(bins, name)
		// GOFLAGS may hold -buildvcs=false; a flag on the command line wins.
		cmd := exec.Command("go", append(append([]string{"build", "-o", out}, flags...), "./cmd/callgrade")...)
		cmd.Dir = repo
		if msg, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("go build %v: %w\n%s", flags, err, msg)
		}
		return out, nil
	}
	// The unstamped build does not care about the tree: it runs alongside.
	var unstamped string
	var unstampedErr error
	done := make(chan bool)
	go func() { unstamped, unstampedErr = build("unstamped", "-buildvcs=false"); close(done) }()
	clean, err := build("clean", "-buildvcs=true")
	<-done
	if err = errors.Join(err, unstampedErr); err != nil {
		t.Fatal(err)
	}
	writeFile(t, repo, "CHANGED", "a change not committed\n")
	release, err := build("release", "-buildvcs=true", "-ldflags", "-X main.version=v9.8.7")
	if err != nil {
		t.Fatal(err)
	}

	tests := []struct{ name, bin, want string }{
		{"clean checkout", clean, "callgrade v0.0.0-20010203040506-" + head[:12] + " (revision " + head + ", " + commitTime + ")"},
		{"-ldflags -X main.version, changed checkout", release, "callgrade v9.8.7 (revision " + head + "-dirty, " + commitTime + ")"},
		{"-buildvcs=false", unstamped, "callgrade (devel)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, arg := range []string{"version", "--version"} {
				out, err := exec.Command(tt.bin, arg).Output()
				if err != nil {
					t.Fatalf("%s: %v", arg, err)
				}
				if string(out) != tt.want+"\n" {
					t.Errorf("%s prints %q, want %q", arg, out, tt.want+"\n")
				}
			}
		})
	}
}

// copyModule copies what building the module needs (go.mod, go.sum, the
// non-test Go files and embedded files) from src to dst, leaving out VCS
// data, built binaries, tests and test data.
func copyModule(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			switch d.Name() {
			case ".git", "bin", "testdata", "examples", "node_modules":
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		// A linked worktree's .git is a file that points at its repository:
		// copied, it would make the new repository that one.
		if !d.Type().IsRegular() || strings.HasSuffix(path, "_test.go") || d.Name() == ".git" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestScoreOutToDevice: --out /dev/null (or a pipe) is written into, never
// replaced by a rename, which would put a regular file where the device was.
func TestScoreOutToDevice(t *testing.T) {
	before, err := os.Stat(os.DevNull)
	if err != nil {
		t.Skip(err)
	}
	r := runCLI(t, "score", "--suite", "examples/weather/suite.yaml", "--responses", "examples/weather/responses.jsonl",
		"--out", os.DevNull, "--quiet")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	after, err := os.Stat(os.DevNull)
	if err != nil || after.Mode() != before.Mode() {
		t.Fatalf("%s changed from %v to %v (%v)", os.DevNull, before.Mode(), after.Mode(), err)
	}
}

// --out through a symbolic link writes the file it points to and keeps
// the link; a file replaced keeps its permissions, and a new one gets the
// umask's, as a shell's > gives them (not a fixed 0644).
func TestScoreOutLinkAndMode(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no symbolic links and umask here")
	}
	dir := t.TempDir()
	target := writeFile(t, dir, "target.jsonl", "old\n")
	if err := os.Chmod(target, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink("target.jsonl", link); err != nil {
		t.Fatal(err)
	}
	score := []string{"score", "--suite", "examples/weather/suite.yaml", "--responses", "examples/weather/responses.jsonl", "--quiet"}
	if r := runCLI(t, append(score, "--out", link)...); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", fi.Mode(), err)
	}
	data, _ := os.ReadFile(target)
	if n := len(resultLines(t, string(data))); n != 9 {
		t.Errorf("the link's target holds %d result lines, want 9: %.60q", n, data)
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o600 {
		t.Errorf("the replaced file's mode is %v, want -rw-------", fi.Mode().Perm())
	}
	// A new file under umask 077, set for the child process by a shell.
	fresh := filepath.Join(dir, "fresh.jsonl")
	cmd := exec.Command("sh", append([]string{"-c", `umask 077 && exec "$0" "$@"`, bin}, append(score, "--out", fresh)...)...)
	cmd.Dir = "../.."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if fi, err := os.Stat(fresh); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("a new file under umask 077 has mode %v (%v), want -rw-------", fi.Mode().Perm(), err)
	}
}

// An output that is an input, or another output, would lose it: exit 2
// before anything is written, the input untouched. A flag that takes one
// file, given twice, is a usage error rather than the last value winning.
func TestScoreOutputsNeverOverwriteInputs(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile("../../examples/weather/responses.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	resp := writeFile(t, dir, "responses.jsonl", string(data))
	// A copy of the suite, so that a regression overwrites nothing kept.
	suiteText, err := os.ReadFile("../../examples/weather/suite.yaml")
	if err != nil {
		t.Fatal(err)
	}
	suite := writeFile(t, dir, "suite.yaml", string(suiteText))
	out := filepath.Join(dir, "out.jsonl")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"--out the responses", []string{"--out", resp}, "--out " + resp + ": is " + resp + ", an input"},
		{"--out the suite by another path", []string{"--out", filepath.Join(dir, ".", "suite.yaml")}, "an input; writing it would lose it"},
		{"--junit the responses by another path", []string{"--junit", filepath.Join(dir, ".", "..", filepath.Base(dir), "responses.jsonl")}, "an input"},
		{"--junit the --out file", []string{"--out", out, "--junit", out}, "--junit " + out + ": is also --out's file"},
		{"--responses twice", []string{"--responses", resp}, `"--responses" flag: given twice`},
		{"--out twice", []string{"--out", out, "--out", out + "2"}, `"--out" flag: given twice`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runCLI(t, append([]string{"score", "--suite", suite, "--responses", resp, "--quiet"}, tc.args...)...)
			if r.code != 2 || !strings.Contains(r.stderr, tc.want) || r.stdout != "" {
				t.Errorf("exit %d, stderr %q; want exit 2 saying %q", r.code, r.stderr, tc.want)
			}
			if got, _ := os.ReadFile(resp); string(got) != string(data) {
				t.Error("the responses file changed")
			}
			if got, _ := os.ReadFile(suite); string(got) != string(suiteText) {
				t.Error("the suite changed")
			}
			if _, err := os.Stat(out); err == nil {
				t.Error("--out was written")
			}
		})
	}
}

// A gzip-compressed responses file scores as its text does, from a file
// and from stdin; a truncated one is exit 2 naming the file.
func TestScoreGzipResponses(t *testing.T) {
	plain, err := os.ReadFile("../../examples/weather/responses.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	zw.Write(plain)
	zw.Close()
	dir := t.TempDir()
	gz := writeFile(t, dir, "responses.jsonl.gz", zipped.String())
	want := runCLI(t, "score", "--suite", "examples/weather/suite.yaml", "--responses", "examples/weather/responses.jsonl", "--quiet")
	got := runCLI(t, "score", "--suite", "examples/weather/suite.yaml", "--responses", gz, "--quiet")
	if got.code != 0 || got.stdout != want.stdout || want.stdout == "" {
		t.Errorf("from %s: exit %d, results differ from the plain file's:\n%s\n%s", gz, got.code, got.stdout, got.stderr)
	}
	cmd := exec.Command(bin, "score", "--suite", "examples/weather/suite.yaml", "--responses", "-", "--quiet")
	cmd.Dir = "../.."
	cmd.Stdin = bytes.NewReader(zipped.Bytes())
	if out, err := cmd.Output(); err != nil || string(out) != want.stdout {
		t.Errorf("from stdin: %v, results differ from the plain file's:\n%s", err, out)
	}
	cut := writeFile(t, dir, "cut.jsonl.gz", zipped.String()[:zipped.Len()/2])
	r := runCLI(t, "score", "--suite", "examples/weather/suite.yaml", "--responses", cut)
	if r.code != 2 || !strings.Contains(r.stderr, "cut.jsonl.gz") || r.stdout != "" {
		t.Errorf("truncated gzip: exit %d, stdout %q, stderr %s; want exit 2 naming the file and no results", r.code, r.stdout, r.stderr)
	}
}

// An output file in a directory that does not exist is exit 2 naming the
// path the user gave (not the temporary file written beside it), before
// anything is written.
func TestOutputIntoMissingDirectory(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "out", "missing")
	notDir := writeFile(t, dir, "file", "")
	score := []string{"score", "--suite", "examples/weather/suite.yaml", "--responses", "examples/weather/responses.jsonl", "--quiet"}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"score --out", append(score, "--out", missing+"/res.jsonl"),
			"--out " + missing + "/res.jsonl: directory " + missing + " does not exist"},
		{"score --out under a file", append(score, "--out", notDir+"/res.jsonl"),
			"--out " + notDir + "/res.jsonl: " + notDir + " is not a directory"},
		{"score --out a directory", append(score, "--out", dir),
			"--out " + dir + ": is a directory"},
		{"score --junit", append(score, "--out", filepath.Join(dir, "res.jsonl"), "--junit", missing+"/j.xml"),
			"--junit " + missing + "/j.xml: directory " + missing + " does not exist"},
		{"score --html", append(score, "--html", missing+"/r.html"),
			"--html " + missing + "/r.html: directory " + missing + " does not exist"},
		{"report --junit", []string{"report", "report/testdata/results.jsonl", "--junit", missing + "/j.xml"},
			"--junit " + missing + "/j.xml: directory " + missing + " does not exist"},
		{"import --responses-out", []string{"import", "bfcl", "--results", "examples/bfcl/BFCL_v4_simple_python_result.json", "--responses-out", missing + "/r.jsonl"},
			"--responses-out " + missing + "/r.jsonl: directory " + missing + " does not exist"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCLI(t, tt.args...)
			if want := "callgrade: " + tt.want + "\n"; r.code != 2 || r.stderr != want {
				t.Errorf("exit %d, stderr %q; want exit 2 and %q", r.code, r.stderr, want)
			}
			if r.stdout != "" {
				t.Errorf("stdout %q, want nothing", r.stdout)
			}
			if _, err := os.Stat(filepath.Join(dir, "res.jsonl")); err == nil {
				t.Error("results were written")
			}
		})
	}
}
