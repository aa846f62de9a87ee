package main

import (
	"regexp"
	"strings"
	"testing"
)

// An unknown flag names the nearest flag the command has, when one is near,
// and the command's usage follows; the exit status stays 2.
func TestUnknownFlagSuggestsAndShowsUsage(t *testing.T) {
	tests := []struct {
		args  []string
		first string // the first line of stderr
		usage string // the start of the usage that follows
	}{
		{[]string{"score", "--sute", "s.yaml"}, "callgrade: unknown flag: --sute (did you mean --suite?)", "Usage:\n  callgrade score"},
		{[]string{"score", "--respones", "r.jsonl"}, "callgrade: unknown flag: --respones (did you mean --responses?)", "Usage:\n  callgrade score"},
		{[]string{"score", "-suite", "s.yaml"}, "callgrade: unknown shorthand flag: 's' in -suite (did you mean --suite?)", "Usage:\n  callgrade score"},
		{[]string{"report", "--htm", "x.html", "r.jsonl"}, "callgrade: unknown flag: --htm (did you mean --html?)", "Usage:\n  callgrade report"},
		{[]string{"diff", "--fail-on-regresion", "a", "b"}, "callgrade: unknown flag: --fail-on-regresion (did you mean --fail-on-regression?)", "Usage:\n  callgrade diff"},
		{[]string{"score", "--wibble"}, "callgrade: unknown flag: --wibble", "Usage:\n  callgrade score"},
		{[]string{"score", "--suite"}, "callgrade: flag needs an argument: --suite", "Usage:\n  callgrade score"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			r := runCLI(t, tt.args...)
			if r.code != 2 {
				t.Errorf("exit %d, want 2", r.code)
			}
			first, rest, _ := strings.Cut(r.stderr, "\n")
			if first != tt.first {
				t.Errorf("first line %q, want %q", first, tt.first)
			}
			if !strings.HasPrefix(strings.TrimLeft(rest, "\n"), tt.usage) || !strings.Contains(rest, "Flags:\n") {
				t.Errorf("no usage after the error:\n%s", r.stderr)
			}
			if r.stdout != "" {
				t.Errorf("stdout %q, want nothing", r.stdout)
			}
		})
	}
}

// --format's help and its error list the same values, and each of them is
// accepted.
func TestFormatHelpAndErrorAgree(t *testing.T) {
	listRE := regexp.MustCompile(`want one of ([a-z, -]+)`)
	helpRE := regexp.MustCompile(`--format string +response format[a-z- ]*, one of ([a-z, -]+);`)
	for cmd, rest := range map[string][]string{
		"score":  {"--suite", "examples/weather/suite.yaml", "--responses", "examples/weather/responses.jsonl"},
		"report": {"report/testdata/results.jsonl"},
		"serve":  {"--suite", "examples/weather/suite.yaml", "--addr", "127.0.0.1:0"},
	} {
		t.Run(cmd, func(t *testing.T) {
			help := runCLI(t, cmd, "--help")
			m := helpRE.FindStringSubmatch(help.stdout)
			if m == nil {
				t.Fatalf("--help has no --format line listing the formats:\n%s", help.stdout)
			}
			inHelp := m[1]
			bad := runCLI(t, append([]string{cmd, "--format", "xml"}, rest...)...)
			m = listRE.FindStringSubmatch(bad.stderr)
			if bad.code != 2 || m == nil {
				t.Fatalf("--format xml: exit %d, stderr %q; want exit 2 and the formats listed", bad.code, bad.stderr)
			}
			if m[1] != inHelp {
				t.Errorf("--help lists %q, the error lists %q", inHelp, m[1])
			}
			if !strings.HasPrefix(inHelp, "auto, ") {
				t.Errorf("the list %q does not start with auto", inHelp)
			}
			if cmd != "score" {
				return
			}
			for _, f := range strings.Split(inHelp, ", ") {
				r := runCLI(t, "score", "--suite", "examples/weather/suite.yaml", "--responses", "examples/weather/responses.jsonl", "--quiet", "--format", f)
				if r.code != 0 {
					t.Errorf("--format %s: exit %d: %s", f, r.code, r.stderr)
				}
			}
		})
	}
}

// No flag's help shows a default that is only a marker, such as
// "(default -1)" for "not given": the help says what leaving it out means.
func TestHelpShowsNoMarkerDefaults(t *testing.T) {
	marker := regexp.MustCompile(`\(default -[0-9]|\(default ""\)`)
	for _, args := range [][]string{
		{"score"}, {"check"}, {"report"}, {"diff"}, {"serve"}, {"plugins", "describe"},
		{"import", "bfcl"}, {"import", "otlp"}, {"version"},
	} {
		r := runCLI(t, append(args, "--help")...)
		if r.code != 0 {
			t.Errorf("%s --help: exit %d: %s", strings.Join(args, " "), r.code, r.stderr)
			continue
		}
		for _, line := range strings.Split(r.stdout, "\n") {
			if marker.MatchString(line) {
				t.Errorf("%s --help: %s", strings.Join(args, " "), strings.TrimSpace(line))
			}
		}
	}
	r := runCLI(t, "score", "--help")
	if !strings.Contains(r.stdout, "(default: no threshold)") {
		t.Errorf("score --help does not say what leaving --fail-under out means:\n%s", r.stdout)
	}
}
