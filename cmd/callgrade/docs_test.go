package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/internal/testenv"
)

// TestDocumentedCommandsWork runs every command that README.md and
// docs/*.md show in a sh block, as written, with sh from the repository
// root: a command in the docs that does not work is a bug.
//
// They run in readerEnv, where `callgrade` is the binary TestMain built. A
// comment `# exits N` on a line sets the exit status it must have;
// otherwise 0.
// Commands run by CI itself or too slow to repeat here are listed in
// notRunHere, so that a new kind of command has to be looked at.
func TestDocumentedCommandsWork(t *testing.T) {
	// curl: serve_test.go runs docs/service.md's against the server it starts.
	// time bin/floor: needs the corpus bench-vs-seed generates; internal/floor's test runs the program.
	// bash scripts/pgo.sh: it rewrites the committed profile; pgo_test.go runs it into a temporary file.
	// go tool pprof: it reads a profile that a go test command above it (not run here) writes.
	// python3 integrations/python/…, node integrations/npm/…: the Python and npm tests build the packages (.ci/python.sh, .ci/npm.sh).
	notRunHere := []string{"go test", "bash .ci/run", "python3 ../shared/bin/", "benchstat", "curl ", "time bin/floor ", "bash scripts/pgo.sh", "go tool pprof ",
		"python3 integrations/python/build_wheel.py ", "node integrations/npm/build.mjs "}
	env := readerEnv(t)
	exitsRE := regexp.MustCompile(`#.*\bexits (\d+)`)
	files, _ := filepath.Glob("../../docs/*.md")
	files = append([]string{"../../README.md"}, files...)
	// A command that reads the project's shared data (../shared beside the
	// checkout, which a clone lacks) runs only where it is, and so does a
	// later one that reads what such a command writes.
	_, err := os.Stat("../../../shared")
	haveShared := err == nil
	var unrun []string
	ran := 0
	// Pages whose commands need another toolchain are checked by that
	// toolchain's tests, which CI runs (.ci/python.sh, .ci/npm.sh): the
	// Python test runs python.md's commands as written; the npm test
	// installs the packages as promptfoo.md says and runs its config.
	runElsewhere := map[string]string{
		"python.md":    "integrations/python/tests/test_docs.py",
		"promptfoo.md": "integrations/npm/test/promptfoo.test.mjs",
	}
	for _, f := range files {
		if by, ok := runElsewhere[filepath.Base(f)]; ok {
			if _, err := os.Stat(filepath.Join("../..", by)); err != nil {
				t.Errorf("%s: its commands are said to be run by %s: %v", f, by, err)
			}
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var unwritten []string // what the commands not run would have written
		for _, line := range shCommands(string(data)) {
			// A command may begin with variables, which sh sets for it
			// (CALLGRADE_FAIL_UNDER=0.9 callgrade score ...):
			// what it is, is what follows them.
			cmd := leadingVars.ReplaceAllString(line, "")
			switch {
			case strings.HasPrefix(cmd, "go run ./cmd/callgrade"):
				t.Errorf("%s: %q: show `callgrade ...`: go run exits 1 whenever the program fails, hiding exit status 2", f, cmd)
				continue
			case strings.HasPrefix(cmd, "callgrade serve "):
				continue // runs until stopped: serve_test.go runs it
			}
			if hasAnyPrefix(cmd, notRunHere) {
				continue
			}
			if !haveShared && (strings.Contains(cmd, "../shared/") || containsAny(cmd, unwritten)) {
				unrun = append(unrun, filepath.Base(f)+": "+cmd)
				unwritten = append(unwritten, outputsOf(cmd)...)
				continue
			}
			if !hasAnyPrefix(cmd, []string{"callgrade ", "bin/callgrade ", "go install ", "go build ", "export PATH="}) {
				t.Errorf("%s: sh block command %q is neither run by this test nor listed as run elsewhere", f, cmd)
				continue
			}
			want := 0
			if m := exitsRE.FindStringSubmatch(cmd); m != nil {
				want, _ = strconv.Atoi(m[1])
			}
			code, out := runSh(t, env, line)
			ran++
			if code != want {
				t.Errorf("%s: %q exited %d, want %d:\n%s", f, line, code, want, out)
			}
		}
	}
	if ran == 0 {
		t.Fatal("found no callgrade command in the docs")
	}
	if len(unrun) > 0 {
		t.Run("shared data", func(t *testing.T) {
			testenv.Skipf(t, "%d documented commands need the project's shared data at ../shared beside the repository (BFCL's data), which this checkout lacks: check out the project's shared folder beside it to run them:\n%s",
				len(unrun), strings.Join(unrun, "\n"))
		})
	}
}

// leadingVars matches the variable assignments a command line begins with.
var leadingVars = regexp.MustCompile(`^(?:[A-Z][A-Z0-9_]*=\S*\s+)+`)

// outputsOf returns the files a documented command writes: the values of
// its --out and --responses-out ("-" is standard output, no file).
func outputsOf(cmd string) []string {
	var out []string
	fields := strings.Fields(cmd)
	for i, f := range fields {
		if (f == "--out" || f == "--responses-out") && i+1 < len(fields) && fields[i+1] != "-" {
			out = append(out, fields[i+1])
		}
	}
	return out
}

// containsAny reports whether s contains any of subs.
func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// readerEnv is the environment documented commands run in: `callgrade`
// is found on PATH, where the binary TestMain built comes first, as `go
// install ./cmd/callgrade` gives the reader; GOPATH is a temporary
// directory, so that `go install` and `$(go env GOPATH)` work as for the
// reader without touching this machine's bin directory.
func readerEnv(t *testing.T) []string {
	t.Helper()
	modcache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	return append(os.Environ(),
		"PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"GOPATH="+t.TempDir(), "GOBIN=", "GOMODCACHE="+strings.TrimSpace(string(modcache)))
}

// runSh runs cmd with sh from the repository root in env, and returns its
// exit status and its output, stdout and stderr together.
func runSh(t *testing.T, env []string, cmd string) (int, []byte) {
	t.Helper()
	sh := exec.Command("sh", "-c", cmd)
	sh.Dir = "../.."
	sh.Env = env
	var out bytes.Buffer
	sh.Stdout, sh.Stderr = &out, &out
	err := sh.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), out.Bytes()
	} else if err != nil {
		t.Fatal(err)
	}
	return 0, out.Bytes()
}

// TestExampleSuiteCommands runs the commands the example suites' opening
// comments show, from the repository root as they say: with the built
// binary, as the README does, never `go run ./cmd/callgrade`, which exits
// 1 whenever the program fails and so hides exit status 2.
func TestExampleSuiteCommands(t *testing.T) {
	env := readerEnv(t)
	label := regexp.MustCompile(`^[A-Z][a-z ]*:\s+`)
	suites, _ := filepath.Glob("../../examples/*/suite.yaml")
	more, _ := filepath.Glob("../../examples/*/*/suite.yaml")
	suites = append(suites, more...)
	ran := 0
	for _, path := range suites {
		name, _ := filepath.Rel("../..", path)
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var cmds []string
			for _, line := range strings.Split(string(data), "\n") {
				text, ok := strings.CutPrefix(line, "#")
				if !ok {
					break // the opening comment ends
				}
				text = label.ReplaceAllString(strings.TrimSpace(text), "")
				switch {
				case strings.HasPrefix(text, "go run ./cmd/callgrade"):
					t.Errorf("%q: show `callgrade ...`, as the README does: go run exits 1 whenever the program fails, hiding exit status 2", text)
				case strings.HasPrefix(text, "callgrade "), strings.HasPrefix(text, "go build "):
					cmds = append(cmds, text)
				}
			}
			if strings.Contains(name, "duration") && exec.Command("/usr/bin/python3", "-c", "import grpc, google.protobuf").Run() != nil {
				testenv.Skipf(t, "the Python plugin needs /usr/bin/python3 with grpcio and protobuf (apt-get install python3-grpcio python3-protobuf)")
			}
			for _, cmd := range cmds {
				if code, out := runSh(t, env, cmd); code != 0 {
					t.Errorf("%q exited %d:\n%s", cmd, code, out)
				}
				ran++
			}
		})
	}
	if ran == 0 {
		t.Fatal("found no command in the example suites' comments")
	}
}

// TestREADMELeadsWithInstallScoreAndTest: the README's first commands are
// the ones a new reader types: install the command, score the bundled
// example with it, run the tests (the command CI's .ci/run runs too).
func TestREADMELeadsWithInstallScoreAndTest(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, _ := strings.Cut(string(data), "```sh\n")
	block, _, _ = strings.Cut(block, "```")
	lines := strings.Split(strings.TrimSpace(block), "\n")
	if len(lines) < 3 || lines[0] != "go install ./cmd/callgrade" ||
		!strings.HasPrefix(lines[len(lines)-2], "callgrade score --suite examples/") || lines[len(lines)-1] != "go test ./..." {
		t.Errorf("the README's first sh block is\n%s\nwant go install ./cmd/callgrade, then callgrade score on an example, then go test ./...", block)
	}
	ci, err := os.ReadFile("../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^go test \./\.\.\.$`).Match(ci) {
		t.Error(".ci/run no longer runs the README's test command, go test ./...")
	}
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// shCommands returns the lines of ```sh blocks, with continuation lines joined.
func shCommands(md string) []string {
	var out []string
	in := false
	cur := ""
	for _, line := range strings.Split(md, "\n") {
		switch {
		case strings.HasPrefix(line, "```sh"):
			in = true
		case strings.HasPrefix(line, "```"):
			in = false
		case in:
			line = strings.TrimSpace(line)
			if strings.HasSuffix(line, "\\") {
				cur += strings.TrimSuffix(line, "\\") + " "
				continue
			}
			line = strings.TrimSpace(cur + line)
			cur = ""
			if line != "" && !strings.HasPrefix(line, "#") {
				out = append(out, line)
			}
		}
	}
	return out
}
