package main

import (
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
			r := callgrade(t, tt.args...)
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
