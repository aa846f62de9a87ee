package plugins_test

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/plugins"
)

// copyExecutable copies the file at src to dst, mode 0755.
func copyExecutable(t *testing.T, src, dst string) {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// swapIn replaces path, by a rename as a writer that swaps files does,
// with a script that leaves a mark and fails to start.
func swapIn(t *testing.T, path, marker string) {
	t.Helper()
	next := path + ".next"
	if err := os.WriteFile(next, []byte("#!/bin/sh\necho swapped > "+marker+"\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(next, path); err != nil {
		t.Fatal(err)
	}
}

// exe returns the executable that process pid runs (Linux).
func exe(t *testing.T, pid int) string {
	t.Helper()
	p, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/exe")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// With sha256, the process runs the bytes that were hashed: a private copy
// of the command, which a writer who swaps the command's file afterwards
// does not reach, at a restart either; the copy is removed at Close.
func TestChecksumRunsTheCheckedBytes(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	dir := t.TempDir()
	orig := filepath.Join(dir, "plugin")
	copyExecutable(t, testPlugin(t), orig)
	marker := filepath.Join(dir, "marker")
	pidfile := filepath.Join(dir, "pid")
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	h := open(t, map[string]suite.Plugin{"p": {Command: []string{orig, "-pidfile", pidfile}, SHA256: sha(t, orig)}},
		plugins.Backoff(plugins.Options{}, time.Millisecond))
	wantEqual(t, compare(t, h, "p.eq", `1`, `1`), true)

	first := exe(t, readPid(t, pidfile))
	if first == orig || !strings.HasPrefix(first, tmp+"/") {
		t.Fatalf("the plugin runs %s; want a private copy in %s, not %s", first, tmp, orig)
	}
	if fi, err := os.Stat(filepath.Dir(first)); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("the copy's directory: %v, %v; want mode 0700", fi.Mode(), err)
	}
	if sha(t, first) != sha(t, testPlugin(t)) {
		t.Error("the copy is not the checked file")
	}

	// Swapped after the check: the restart after a crash runs the copy.
	swapIn(t, orig, marker)
	wantPluginError(t, compare(t, h, "p.eq", `1`, `"crash!"`), "crashed")
	wantEqual(t, compare(t, h, "p.eq", `1`, `1`), true)
	if again := exe(t, readPid(t, pidfile)); again != first {
		t.Errorf("the restarted plugin runs %s, want %s", again, first)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the swapped-in file ran")
	}
	h.Close()
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("left in TMPDIR after Close: %v", left)
	}
}

// A file swapped between the check and the first start is not what
// starts (plugins.SetChecked runs between the two).
func TestChecksumFileSwappedBeforeStart(t *testing.T) {
	dir := t.TempDir()
	orig := filepath.Join(dir, "plugin")
	copyExecutable(t, testPlugin(t), orig)
	marker := filepath.Join(dir, "marker")
	var opts plugins.Options
	swapped := false
	plugins.SetChecked(&opts, func(path string) {
		if path == orig {
			swapIn(t, orig, marker)
			swapped = true
		}
	})
	h := open(t, map[string]suite.Plugin{"p": {Command: []string{orig}, SHA256: sha(t, orig)}}, opts)
	if !swapped {
		t.Fatal("the hook did not run")
	}
	wantEqual(t, compare(t, h, "p.eq", `1`, `1`), true)
	if _, err := os.Stat(marker); err == nil {
		t.Error("the swapped-in file ran")
	}
}

// A script checked by its sha256 runs from its private copy, and still
// finds the files beside it (the example reads its generated modules from
// gen/, next to __file__).
func TestChecksumOfPythonScript(t *testing.T) {
	if python(t) != "/usr/bin/python3" {
		t.Skip("the example's #! line names /usr/bin/python3, which lacks grpcio or protobuf")
	}
	script, err := filepath.Abs("../examples/plugins/duration/plugin.py")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	h := open(t, map[string]suite.Plugin{"duration": {Command: []string{script}, SHA256: sha(t, script)}}, plugins.Options{})
	wantEqual(t, compare(t, h, "duration.same_duration", `"1 hour"`, `"60 minutes"`), true)
	h.Close()
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("left in TMPDIR after Close: %v", left)
	}
}
