package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// runWith runs the built binary as runCLI does, from the repository root,
// in this process's environment without its CALLGRADE_ variables (a
// developer's own would change what is tested) and with env added.
func runWith(t *testing.T, env []string, args ...string) run {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = "../.."
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, envPrefix) {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, env...)
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

// weatherArgs score the bundled example, whose pass rate is 7 of 9
// (77.8%): --fail-under 0.5 passes, 0.9 fails.
const weatherArgs = "--suite examples/weather/suite.yaml --responses examples/weather/responses.jsonl"

// TestConfigPrecedence: each layer wins over the one before: the flag's
// default < the config file's top level < its command section <
// CALLGRADE_* < the command line; and a run configured so scores as the
// same run given by flags.
func TestConfigPrecedence(t *testing.T) {
	base := runWith(t, nil, strings.Fields("score "+weatherArgs)...)
	if base.code != 0 || base.stdout == "" {
		t.Fatalf("score exited %d:\n%s", base.code, base.stderr)
	}
	tests := []struct {
		name string
		ext  string // of the config file; "" for none
		file string // FILE in it, and in env and args, is the file's path
		env  []string
		args string // after score
		code int
		note string // what stderr must contain; "" for nothing of the configuration
	}{
		{"file", ".yaml", "fail-under: 0.9", nil, "--config FILE " + weatherArgs,
			1, "(--fail-under is set by FILE: fail-under)"},
		{"section over the top level", ".yaml", "fail-under: 0.9\nscore:\n  fail-under: 0.5\n", nil, "--config FILE " + weatherArgs, 0, ""},
		{"section over the top level, failing", ".yaml", "fail-under: 0.5\nscore:\n  fail-under: 0.9\n", nil, "--config FILE " + weatherArgs,
			1, "(--fail-under is set by FILE: score.fail-under)"},
		{"variable over file", ".yaml", "score:\n  fail-under: 0.5\n", []string{"CALLGRADE_FAIL_UNDER=0.9"}, "--config FILE " + weatherArgs,
			1, "(--fail-under is set by CALLGRADE_FAIL_UNDER)"},
		{"variable over file, passing", ".yaml", "score:\n  fail-under: 0.9\n", []string{"CALLGRADE_FAIL_UNDER=0.5"}, "--config FILE " + weatherArgs, 0, ""},
		{"flag over variable", "", "", []string{"CALLGRADE_FAIL_UNDER=0.9"}, weatherArgs + " --fail-under 0.5", 0, ""},
		{"flag over variable and file", ".yaml", "score:\n  fail-under: 0.9\n", []string{"CALLGRADE_FAIL_UNDER=0.9"}, "--config FILE " + weatherArgs + " --fail-under 0.5", 0, ""},
		{"flag over file, failing, says nothing of the file", ".yaml", "score:\n  fail-under: 0.5\n", nil, "--config FILE " + weatherArgs + " --fail-under 0.9", 1, ""},
		{"an empty variable is unset", ".yaml", "score:\n  fail-under: 0.9\n", []string{"CALLGRADE_FAIL_UNDER="}, "--config FILE " + weatherArgs,
			1, "(--fail-under is set by FILE: score.fail-under)"},
		{"the file gives the suite and the responses", ".yaml",
			"score:\n  suite: [examples/weather/suite.yaml]\n  responses: examples/weather/responses.jsonl\n  fail-under: 0.9\n", nil, "--config FILE",
			1, "(--fail-under is set by FILE: score.fail-under)"},
		{"a variable gives the suite", "", "", []string{"CALLGRADE_SUITE=examples/weather/suite.yaml"}, "--responses examples/weather/responses.jsonl", 0, ""},
		{"CALLGRADE_CONFIG", ".yaml", "score:\n  fail-under: 0.9\n", []string{"CALLGRADE_CONFIG=FILE"}, weatherArgs,
			1, "(--fail-under is set by FILE: score.fail-under)"},
		{"--config '' reads none", "", "", []string{"CALLGRADE_CONFIG=no-such.yaml"}, "--config= " + weatherArgs, 0, ""},
		{"--config over CALLGRADE_CONFIG", ".yaml", "score:\n  fail-under: 0.5\n", []string{"CALLGRADE_CONFIG=no-such.yaml"}, "--config FILE " + weatherArgs, 0, ""},
		{"JSON, whose integers are floats", ".json", `{"score": {"max-line-bytes": 1048576, "workers": 2, "fail-under": 0.9}}`, nil, "--config FILE " + weatherArgs,
			1, "(--fail-under is set by FILE: score.fail-under)"},
		{"TOML", ".toml", "quiet = false\n[score]\nfail-under = 0.9\nworkers = 2\n", nil, "--config FILE " + weatherArgs,
			1, "(--fail-under is set by FILE: score.fail-under)"},
		{"other commands' variables and switches that are no flag are left alone", "", "",
			[]string{"CALLGRADE_TOKEN=t", "CALLGRADE_ADDR=nowhere", "CALLGRADE_REQUIRE_CHROMIUM=1", "CALLGRADE_PLUGIN=x", "CALLGRADE_NO_SUCH_FLAG=1", "CALLGRADE_workers=many"},
			weatherArgs, 0, ""},
		{"other commands' sections are left alone", ".yaml", "serve:\n  timeout: 1s\n  suite: [nowhere.yaml]\nmerge:\n  fail-under: 0.9\n", nil, "--config FILE " + weatherArgs, 0, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := ""
			if tc.ext != "" {
				path = writeFile(t, t.TempDir(), "callgrade"+tc.ext, tc.file)
			}
			env := make([]string, len(tc.env))
			for i, kv := range tc.env {
				env[i] = strings.ReplaceAll(kv, "FILE", path)
			}
			r := runWith(t, env, append([]string{"score"}, strings.Fields(strings.ReplaceAll(tc.args, "FILE", path))...)...)
			if r.code != tc.code {
				t.Fatalf("exit %d, want %d:\n%s", r.code, tc.code, r.stderr)
			}
			if r.stdout != base.stdout {
				t.Errorf("the results differ from the same run given by flags:\n%s\nwant\n%s", r.stdout, base.stdout)
			}
			note := strings.ReplaceAll(tc.note, "FILE", path)
			if tc.note == "" && strings.Contains(r.stderr, "is set by") || !strings.Contains(r.stderr, note) {
				t.Errorf("stderr:\n%s\nwant it to say %q", r.stderr, note)
			}
		})
	}
}

// TestConfigQuietFromAVariable: a boolean flag from a variable, here the
// summary --quiet leaves out.
func TestConfigQuietFromAVariable(t *testing.T) {
	for _, tc := range []struct {
		env   string
		quiet bool
	}{{"CALLGRADE_QUIET=true", true}, {"CALLGRADE_QUIET=false", false}, {"CALLGRADE_QUIET=", false}} {
		r := runWith(t, []string{tc.env}, strings.Fields("score "+weatherArgs)...)
		if r.code != 0 || (r.stderr == "") != tc.quiet {
			t.Errorf("%s: exit %d, stderr:\n%s\nwant it empty: %v", tc.env, r.code, r.stderr, tc.quiet)
		}
	}
}

// TestConfigErrors: a mistake in the config file or a variable is exit
// status 2 before anything is read or written, its message naming the
// file and the key, or the variable.
func TestConfigErrors(t *testing.T) {
	tests := []struct {
		name string
		ext  string // of the config file; "" for none
		file string
		env  []string
		args string // FILE is the config file's path
		want string // standard error's first line, … for any text; FILE is the config file's path
	}{
		{"unknown key at the top level", ".yaml", "workerz: 2\n", nil, "score --config FILE " + weatherArgs,
			"callgrade: FILE: workerz: unknown key; want a flag of a callgrade command, or a command's section (did you mean workers?)"},
		{"unknown key in a section", ".yaml", "score:\n  fail_under: 0.9\n", nil, "score --config FILE " + weatherArgs,
			"callgrade: FILE: score.fail_under: unknown key; want a flag of callgrade score (did you mean fail-under?)"},
		{"unknown key in another command's section", ".yaml", "serve:\n  adr: 127.0.0.1:0\n", nil, "score --config FILE " + weatherArgs,
			"callgrade: FILE: serve.adr: unknown key; want a flag of callgrade serve (did you mean addr?)"},
		// A value of another command's section is checked too, as that
		// command would read it.
		{"bad value in another command's section", ".yaml", "serve:\n  timeout: banana\n", nil, "score --config FILE " + weatherArgs,
			`callgrade: FILE: serve.timeout: invalid argument "banana" for "--timeout" flag: time: invalid duration "banana"`},
		{"a list for one value in another command's section", ".json", `{"serve": {"addr": ["a", "b"]}}`, nil, "score --config FILE " + weatherArgs,
			"callgrade: FILE: serve.addr: --addr takes one value, not a list"},
		{"bad number in another command's section", ".toml", "[serve]\nmax-body = \"lots\"\n", nil, "score --config FILE " + weatherArgs,
			`callgrade: FILE: serve.max-body: invalid argument "lots" for "--max-body" flag: …`},
		{"unknown key under a command with commands", ".toml", "[import]\nsemantic = \"bfcl\"\n", nil, "score --config FILE " + weatherArgs,
			"callgrade: FILE: import.semantic: unknown key; want a flag of callgrade import or of a command under it, or its section (did you mean semantics?)"},
		{"a flag of another command in a section", ".yaml", "score:\n  addr: 127.0.0.1:0\n", nil, "score --config FILE " + weatherArgs,
			"callgrade: FILE: score.addr: unknown key; want a flag of callgrade score"},
		{"a value for a section", ".yaml", "score: 2\n", nil, "score --config FILE " + weatherArgs,
			"callgrade: FILE: score: want a section of callgrade score's flags, not a value"},
		{"the root's flags are not keys", ".yaml", "config: other.yaml\n", nil, "score --config FILE " + weatherArgs,
			"callgrade: FILE: config: unknown key; want a flag of a callgrade command, or a command's section"},
		{"bad value in the file", ".yaml", "score:\n  workers: many\n", nil, "score --config FILE " + weatherArgs,
			`callgrade: FILE: score.workers: invalid argument "many" for "--workers" flag: strconv.ParseInt: parsing "many": invalid syntax`},
		{"bad value at the top level", ".json", `{"quiet": "loud"}`, nil, "score --config FILE " + weatherArgs,
			`callgrade: FILE: quiet: invalid argument "loud" for "-q, --quiet" flag: strconv.ParseBool: parsing "loud": invalid syntax`},
		{"bad value in a variable", "", "", []string{"CALLGRADE_WORKERS=many"}, "score " + weatherArgs,
			`callgrade: CALLGRADE_WORKERS: invalid argument "many" for "--workers" flag: strconv.ParseInt: parsing "many": invalid syntax`},
		{"bad size in a variable", "", "", []string{"CALLGRADE_MAX_LINE_BYTES=lots"}, "score " + weatherArgs,
			`callgrade: CALLGRADE_MAX_LINE_BYTES: invalid argument "lots" for "--max-line-bytes" flag: …`},
		{"a list for one value", ".yaml", "score:\n  workers: [1, 2]\n", nil, "score --config FILE " + weatherArgs,
			"callgrade: FILE: score.workers: --workers takes one value, not a list"},
		{"a map for a value", ".yaml", "score:\n  workers: {n: 1}\n", nil, "score --config FILE " + weatherArgs,
			"callgrade: FILE: score.workers: --workers takes a value, not a map"},
		{"no value", ".yaml", "score:\n  workers:\n", nil, "score --config FILE " + weatherArgs,
			"callgrade: FILE: score.workers: --workers has no value"},
		{"missing --config file", "", "", nil, "score --config no-such.yaml " + weatherArgs,
			"callgrade: --config no-such.yaml: open no-such.yaml: no such file or directory"},
		{"missing CALLGRADE_CONFIG file", "", "", []string{"CALLGRADE_CONFIG=no-such.yaml"}, "score " + weatherArgs,
			"callgrade: CALLGRADE_CONFIG=no-such.yaml: open no-such.yaml: no such file or directory"},
		{"unknown format", ".ini", "workers = 2\n", nil, "score --config FILE " + weatherArgs,
			"callgrade: --config FILE: unknown config file format: want a .yaml, .yml, .json or .toml file"},
		{"a file that does not parse", ".yaml", "score: [\n", nil, "score --config FILE " + weatherArgs,
			"callgrade: FILE: yaml: line 1: did not find expected node content"},
		{"checked for a command with no flags", ".yaml", "workerz: 2\n", nil, "version --config FILE",
			"callgrade: FILE: workerz: unknown key; want a flag of a callgrade command, or a command's section (did you mean workers?)"},
		{"a value the command refuses says where it came from", ".yaml", "score:\n  fail-under: 2\n", nil, "score --config FILE " + weatherArgs,
			"callgrade: --fail-under takes a pass rate from 0 to 1, got 2 (--fail-under is set by FILE: score.fail-under)"},
		{"and from a variable", "", "", []string{"CALLGRADE_FORMAT=nope"}, "score " + weatherArgs,
			`callgrade: --format: unknown response format "nope": want one of …(--format is set by CALLGRADE_FORMAT)`},
		{"in a nested section", ".yaml", "import:\n  bfcl:\n    semantics: nope\n", nil, "import bfcl --config FILE --questions q.jsonl --out s.yaml",
			`callgrade: --semantics: unknown semantics "nope"; want bfcl or callgrade (--semantics is set by FILE: import.bfcl.semantics)`},
		{"in its parent's section", ".yaml", "import:\n  semantics: nope\n", nil, "import bfcl --config FILE --questions q.jsonl --out s.yaml",
			`callgrade: --semantics: unknown semantics "nope"; want bfcl or callgrade (--semantics is set by FILE: import.semantics)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := ""
			if tc.ext != "" {
				path = writeFile(t, t.TempDir(), "callgrade"+tc.ext, tc.file)
			}
			r := runWith(t, tc.env, strings.Fields(strings.ReplaceAll(tc.args, "FILE", path))...)
			first, _, _ := strings.Cut(r.stderr, "\n")
			want := strings.ReplaceAll(tc.want, "FILE", path)
			begin, end, _ := strings.Cut(want, "…")
			if r.code != 2 || !strings.HasPrefix(first, begin) || !strings.HasSuffix(first, end) || len(first) < len(begin)+len(end) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit 2 and the line %q", r.code, r.stderr, want)
			}
			if r.stdout != "" {
				t.Errorf("wrote to stdout on exit 2:\n%s", r.stdout)
			}
		})
	}
}

// TestConfigCoversEveryFlag: every flag of every command is a key of the
// config file, at the top level and in the command's section, found by
// walking the commands; nothing else is.
func TestConfigCoversEveryFlag(t *testing.T) {
	root, cfg := newRoot()
	n := 0
	for cmd := range cfg.commands {
		path := strings.Fields(cmd.CommandPath())[1:]
		for name, f := range cfg.ownFlags(cmd) {
			// A value the flag reads: in a section, it is checked too.
			var v any = f.DefValue
			if _, many := f.Value.(pflag.SliceValue); many {
				v = []any{} // a list's default is written "[]"
			}
			sec := map[string]any{name: v}
			for i := len(path) - 1; i >= 0; i-- {
				sec = map[string]any{path[i]: sec}
			}
			for _, m := range []map[string]any{{name: "x"}, sec} {
				if err := cfg.check("c.yaml", m, root, ""); err != nil {
					t.Errorf("callgrade %s --%s: %v", strings.Join(path, " "), name, err)
				}
			}
			n++
		}
	}
	// score alone has 14; every command has a few.
	if n < 40 {
		t.Errorf("found %d flags; the walk is missing commands", n)
	}
	for _, m := range []map[string]any{{"help": true}, {"version": true}, {"config": "c.yaml"}, {"score": map[string]any{"addr": "x"}}} {
		if err := cfg.check("c.yaml", m, root, ""); err == nil {
			t.Errorf("%v: no error, want an unknown key", m)
		}
	}
}

// TestConfigDocsBlocks: the config files docs/configuration.md shows are
// ones callgrade reads.
func TestConfigDocsBlocks(t *testing.T) {
	data, err := os.ReadFile("../../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```(yaml|json|toml)\n(.*?)```").FindAllStringSubmatch(string(data), -1)
	if len(blocks) < 2 {
		t.Fatalf("found %d config blocks in docs/configuration.md", len(blocks))
	}
	for i, b := range blocks {
		path := writeFile(t, t.TempDir(), "callgrade."+b[1], b[2])
		if r := runWith(t, nil, "version", "--config", path); r.code != 0 {
			t.Errorf("block %d (%s): exit %d:\n%s", i+1, b[1], r.code, r.stderr)
		}
	}
	if r := runWith(t, nil, "score", "--config", filepath.Join("examples", "weather", "callgrade.yaml"), "--out", os.DevNull); r.code != 0 {
		t.Errorf("examples/weather/callgrade.yaml: exit %d:\n%s", r.code, r.stderr)
	}
}
