package plugins_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/engine"
	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/internal/testenv"
	"github.com/callgrade/callgrade/plugins"
	"github.com/callgrade/callgrade/rules"
)

// python returns a python3 that has grpcio and protobuf, preferring
// Debian's, or skips the test.
func python(t *testing.T) string {
	t.Helper()
	var tried []string
	for _, p := range []string{"/usr/bin/python3", "python3"} {
		path, err := exec.LookPath(p)
		if err != nil {
			continue
		}
		tried = append(tried, path)
		if exec.Command(path, "-c", "import grpc, google.protobuf").Run() == nil {
			return path
		}
	}
	testenv.Skipf(t, "no python3 with grpcio and protobuf (tried %v); on Debian: apt-get install python3-grpcio python3-protobuf", tried)
	return ""
}

func durationSuite(t *testing.T) *suite.Suite {
	t.Helper()
	s, err := suite.Load("../examples/plugins/duration/suite.yaml")
	if err != nil {
		t.Fatal(err)
	}
	d := s.Plugins["duration"]
	script, err := filepath.Abs("../examples/plugins/duration/plugin.py")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Command) != 1 || d.Command[0] != "./examples/plugins/duration/plugin.py" {
		t.Fatalf("the example's command changed: %v", d.Command)
	}
	d.Command = []string{python(t), script}
	s.Plugins["duration"] = d
	return s
}

func TestPythonPlugin(t *testing.T) {
	s := durationSuite(t)
	h := open(t, s.Plugins, plugins.Options{})
	if d := h.Describe(); len(d) != 1 || len(d[0].Comparators) != 1 || d[0].Comparators[0].Name != "same_duration" {
		t.Fatalf("describe: %+v", d)
	}
	tests := []struct {
		params, expected, actual string
		equal                    bool
		err                      string
	}{
		{`{}`, `"1 hour"`, `"60 minutes"`, true, ""},
		{`{}`, `"1 hour"`, `"PT1H"`, true, ""},
		{`{}`, `"1h30m"`, `"90 min"`, true, ""},
		{`{}`, `"1 hour"`, `3600`, true, ""},
		{`{"number_unit": "min"}`, `"1 hour"`, `60`, true, ""},
		{`{}`, `"1 hour"`, `"61 minutes"`, false, ""},
		{`{"tolerance_seconds": 60}`, `"1 hour"`, `"61 minutes"`, true, ""},
		{`{}`, `"1 hour"`, `"soon"`, false, ""},
		{`{}`, `"soon"`, `"1 hour"`, false, "expected value"},
	}
	for _, tt := range tests {
		c, err := h.Comparator("duration.same_duration", mustParse(t, tt.params))
		if err != nil {
			t.Fatal(err)
		}
		o := c.Compare(input(t, tt.expected, tt.actual))
		if tt.err != "" {
			wantPluginError(t, o, tt.err)
			continue
		}
		if o.Err != nil || o.Equal != tt.equal {
			t.Errorf("%s vs %s (%s): got %+v", tt.expected, tt.actual, tt.params, o)
		}
	}
	for _, params := range []string{`{"tolerance_seconds": -1}`, `{"number_unit": "fortnight"}`, `{"unit": "s"}`} {
		if _, err := h.Comparator("duration.same_duration", mustParse(t, params)); err == nil {
			t.Errorf("params %s accepted", params)
		}
	}
}

// TestPythonPluginSocket: the example listens in the directory the host
// made for it, and nothing is left once the host is closed.
func TestPythonPluginSocket(t *testing.T) {
	s := durationSuite(t)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	h, err := plugins.Open(s.Plugins, plugins.Options{Logger: quiet(t)})
	if err != nil {
		t.Fatal(err)
	}
	socks, _ := filepath.Glob(filepath.Join(tmp, "*", "plugin.sock"))
	if dirs, _ := os.ReadDir(tmp); len(dirs) != 1 || len(socks) != 1 {
		h.Close()
		t.Fatalf("in TMPDIR: %d entries, sockets %v; want the host's directory with the socket in it", len(dirs), socks)
	}
	h.Close()
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("left in TMPDIR after Close: %v", left)
	}
}

func TestPythonPluginScoresExample(t *testing.T) {
	s := durationSuite(t)
	h := open(t, s.Plugins, plugins.Options{})
	eng, err := engine.New(suite.ViewOf(s), engine.Options{Extensions: rules.Extensions{Plugin: h.Comparator}})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open("../examples/plugins/duration/responses.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out bytes.Buffer
	if _, err := eng.Run(context.Background(), f, &out, engine.RunOptions{Name: "responses.jsonl"}); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var r struct {
			ID    string
			Pass  bool
			Diffs []struct{ Message string }
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		s := r.ID + " " + map[bool]string{true: "pass", false: "fail"}[r.Pass]
		for _, d := range r.Diffs {
			s += ": " + d.Message
		}
		got = append(got, s)
	}
	want := []string{
		"hour-in-minutes pass",
		"iso-8601 pass",
		"bare-seconds pass",
		"wrong-length fail: 45s is not 2700s",
		"within-tolerance pass",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
