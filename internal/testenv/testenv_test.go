package testenv_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/internal/testenv"
)

const helperEnv = "CALLGRADE_TESTENV_HELPER"

// TestHelperSkip is the test the go commands of TestSkipfNotice run: it
// skips as a test whose dependency is absent does.
func TestHelperSkip(t *testing.T) {
	if os.Getenv(helperEnv) == "" {
		return // only run by TestSkipfNotice
	}
	testenv.Skipf(t, "frobnicator is absent (apt-get install %s)", "frobnicator")
}

// TestSkipfNotice runs `go test` on this package in package-list mode, as
// `go test ./...` does, and checks where the skip notice lands: once on the
// go command's output when the output is not verbose, and not at all with
// -v (which prints the skip itself) or -json (whose output must stay JSON).
func TestSkipfNotice(t *testing.T) {
	if os.Getenv(helperEnv) != "" {
		return
	}
	if runtime.GOOS != "linux" {
		t.Skip("the go command's output is found through /proc on Linux only")
	}
	const notice = "callgrade: skipped testenv.TestHelperSkip: frobnicator is absent (apt-get install frobnicator)\n"
	tests := []struct {
		name  string
		flags []string
		check func(t *testing.T, out string)
	}{
		{"default", nil, func(t *testing.T, out string) {
			if strings.Count(out, "frobnicator is absent") != 1 || !strings.Contains(out, notice) {
				t.Errorf("want the notice %q exactly once in:\n%s", notice, out)
			}
		}},
		{"-v", []string{"-v"}, func(t *testing.T, out string) {
			if strings.Contains(out, "callgrade: skipped") || strings.Count(out, "frobnicator is absent") != 1 {
				t.Errorf("want the skip message once, from -v, and no notice, in:\n%s", out)
			}
		}},
		{"-json", []string{"-json"}, func(t *testing.T, out string) {
			sc := bufio.NewScanner(strings.NewReader(out))
			for sc.Scan() {
				if !json.Valid(sc.Bytes()) {
					t.Errorf("a line of -json output is not JSON: %q", sc.Text())
				}
			}
			if strings.Contains(out, "callgrade: skipped") {
				t.Errorf("the notice is in the -json output:\n%s", out)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			args := append([]string{"test", "-count=1", "-run", "^TestHelperSkip$"}, tt.flags...)
			cmd := exec.Command("go", append(args, ".")...)
			cmd.Env = append(os.Environ(), helperEnv+"=1")
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			if err := cmd.Run(); err != nil {
				t.Fatalf("go %v: %v\n%s%s", args, err, out.Bytes(), errb.Bytes())
			}
			tt.check(t, out.String())
			if strings.Contains(errb.String(), "frobnicator") {
				t.Errorf("the notice went to the go command's stderr:\n%s", errb.Bytes())
			}
		})
	}
}
