// Package testenv is for tests that need something a machine may lack: a
// browser, a Python package, a command.
package testenv

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Skipf skips t, as t.Skipf does, because something it needs is absent;
// the message says what, and how to install it.
//
// A skip's message alone is not enough: go test ./... shows it only with
// -v, because in package-list mode the go command discards everything a
// passing test binary writes. So, unless the run is verbose, Skipf also
// writes one line, "callgrade: skipped PKG.TestName: MESSAGE", past the go
// command's buffer: to the go command's own standard output when that is a
// terminal or a pipe (Linux, through /proc), else to /dev/tty, else nowhere.
// The line then appears once per skipped test run, among go test's "ok"
// lines, in a terminal or a CI log alike. A verbose run (-v, and -json,
// which runs the binary verbosely) prints the skip itself, so the notice
// would only repeat it, and would break -json's one JSON object per line.
// A cached result replays no notice, as it replays no output without -v.
func Skipf(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if !testing.Verbose() {
		notify("callgrade: skipped " + pkgName() + "." + t.Name() + ": " + msg + "\n")
	}
	t.Skip(msg)
}

// pkgName is the test binary's package name: go test names the binary
// PKG.test.
func pkgName() string {
	base := strings.TrimSuffix(filepath.Base(os.Args[0]), ".exe")
	return strings.TrimSuffix(base, ".test")
}

// notify writes line to the first output that takes it.
func notify(line string) {
	for _, path := range outputs() {
		f := openOutput(path)
		if f == nil {
			continue
		}
		_, err := f.WriteString(line)
		f.Close()
		if err == nil {
			return
		}
	}
}

// outputs are the files notify tries, in order: the parent's standard
// output (the go command's, under go test) first, so that the notice goes
// where go test's output goes (a pipe to tee or to a CI log, not only the
// screen), then the terminal.
func outputs() []string {
	return []string{fmt.Sprintf("/proc/%d/fd/1", os.Getppid()), "/dev/tty"}
}
