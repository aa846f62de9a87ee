//go:build linux

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestScoreFullDisk: results that do not fit the file system of --out are
// exit 2 naming --out, the path the user gave, not the temporary file
// written beside it, which the user never named and which is gone by the
// time the message is read; nothing is left behind. --out is on a tmpfs of
// 64 KiB, which needs the right to mount one (root, outside most
// containers): without it the test is skipped.
func TestScoreFullDisk(t *testing.T) {
	dir := t.TempDir()
	mnt := filepath.Join(dir, "small")
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a small tmpfs: %v: %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", mnt).Run() })

	var lines strings.Builder
	for i := range 5000 { // about 600 KB of results
		fmt.Fprintf(&lines, `{"id":"stray-%d","response":[]}`+"\n", i)
	}
	resp := writeFile(t, dir, "responses.jsonl", lines.String())
	out := filepath.Join(mnt, "results.jsonl")
	r := runCLI(t, "score", "--suite", "examples/weather/suite.yaml", "--responses", resp, "--out", out, "-q")
	if r.code != 2 || !strings.Contains(r.stderr, "--out "+out+": ") || !strings.Contains(r.stderr, "no space left on device") || strings.Contains(r.stderr, ".callgrade-results-") {
		t.Errorf("exit %d, stderr %q; want 2 naming --out %s and the full disk, not the temporary file", r.code, r.stderr, out)
	}
	if left, _ := os.ReadDir(mnt); len(left) > 0 {
		t.Errorf("left %s on the full file system", left[0].Name())
	}
}
