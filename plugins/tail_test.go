package plugins

import (
	"strings"
	"testing"
)

// What a crash's message quotes of the plugin's stderr: its last lines,
// without the SDK's debug log however it is spaced, and a Go panic's
// reason ahead of its stack frames.
func TestTailLast(t *testing.T) {
	frames := strings.Repeat("main.compare(...)\n\t/src/plugin/main.go:40 +0x1d\n", 40)
	for _, tc := range []struct{ name, stderr, want string }{
		{"lines", "starting\nImportError: no module named foo\n", "starting | ImportError: no module named foo"},
		{"go sdk log", `{"@level":"debug","@message":"plugin address"}` + "\nFATAL: db lost\n", "FATAL: db lost"},
		{"python sdk log", "FATAL: db lost\n" + `{"@level": "debug", "@message": "serving"}` + "\n", "FATAL: db lost"},
		{"a log line at level error stays", `{"@level": "error", "@message": "db lost"}` + "\n", `{"@level": "error", "@message": "db lost"}`},
		{"panic", "panic: runtime error: index out of range [3] with length 2\n\ngoroutine 7 [running]:\n" + frames + "exit status 2\n",
			"panic: runtime error: index out of range [3] with length 2 | … | /src/plugin/main.go:40 +0x1d | exit status 2"},
		{"panic among the last", "panic: boom\nexit status 2\n", "panic: boom | exit status 2"},
	} {
		var tl tail
		tl.Write([]byte(tc.stderr))
		if got := tl.last(3); got != tc.want {
			t.Errorf("%s: got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}
