package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/callgrade/callgrade/internal/testenv"
)

// TestPGOScript runs scripts/pgo.sh, which docs/performance.md shows, with
// its benchmarks run once each, into a temporary file, and checks that
// what it writes is a CPU profile: the command that renews default.pgo
// must keep working.
func TestPGOScript(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the benchmarks of three packages")
	}
	if _, err := os.Stat("../../../shared/bench/gen_corpus.py"); err != nil {
		testenv.Skipf(t, "%v: scripts/pgo.sh needs the project's shared data (BFCL's data, the corpus generator), ../shared beside the repository; check the project's shared folder out there to run it", err)
	}
	out := filepath.Join(t.TempDir(), "default.pgo")
	cmd := exec.Command("bash", "../../scripts/pgo.sh", out)
	cmd.Env = append(os.Environ(), "PGO_BENCHTIME=1x")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("scripts/pgo.sh: %v\n%s", err, b)
	}
	top, err := exec.Command("go", "tool", "pprof", "-top", out).CombinedOutput()
	if err != nil {
		t.Fatalf("go tool pprof -top %s: %v\n%s", out, err, top)
	}
	for _, fn := range []string{"engine.(*Engine).evaluate", "value.(*parser).object"} {
		if !bytes.Contains(top, []byte(fn)) {
			t.Errorf("the profile has no samples in %s:\n%s", fn, top)
		}
	}
}
