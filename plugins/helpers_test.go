package plugins_test

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/plugins"
	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/value"
)

// binDir holds the plugins the tests build, once per test binary.
var (
	buildMu sync.Mutex
	built   = map[string]string{}
	binDir  string
)

// build compiles the Go package pkg (relative to the module root) and
// returns the executable's path.
func build(t testing.TB, pkg string) string {
	t.Helper()
	buildMu.Lock()
	defer buildMu.Unlock()
	if p, ok := built[pkg]; ok {
		return p
	}
	if binDir == "" {
		d, err := os.MkdirTemp("", "callgrade-plugins-test")
		if err != nil {
			t.Fatal(err)
		}
		binDir = d
	}
	out := filepath.Join(binDir, filepath.Base(pkg))
	if runtime.GOOS == "windows" {
		out += ".exe"
	}
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Dir = ".."
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, b)
	}
	built[pkg] = out
	return out
}

func testPlugin(t testing.TB) string { return build(t, "./plugins/internal/testplugin") }

func sha(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// quiet is a logger that shows the plugins' lines only with -v.
func quiet(t testing.TB) hclog.Logger {
	var w io.Writer = io.Discard
	if testing.Verbose() {
		w = os.Stderr
	}
	return hclog.New(&hclog.LoggerOptions{Name: "plugin", Level: hclog.Info, Output: w})
}

func open(t testing.TB, decls map[string]suite.Plugin, opts plugins.Options) *plugins.Host {
	t.Helper()
	if opts.Logger == nil {
		opts.Logger = quiet(t)
	}
	h, err := plugins.Open(decls, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

func mustParse(t testing.TB, s string) value.Value {
	t.Helper()
	v, err := value.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func input(t testing.TB, expected, actual string) *rules.Input {
	return &rules.Input{Path: "x", Expected: mustParse(t, expected), Actual: mustParse(t, actual),
		Tool: "t", Args: mustParse(t, `{"x":`+actual+`}`), ExpectedArgs: mustParse(t, `{"x":`+expected+`}`)}
}

func TestMain(m *testing.M) {
	if os.Getenv("CALLGRADE_TEST_HOST") != "" {
		hostProcess()
		return
	}
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}
