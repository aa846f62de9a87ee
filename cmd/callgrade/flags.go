package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/callgrade/callgrade"
)

// usageError is a mistake in a command line: main prints it, then the
// usage of the command it was made on, and exits 2.
type usageError struct {
	cmd *cobra.Command
	err error
}

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// flagError is every command's FlagErrorFunc. Cobra suggests commands for a
// mistyped command but nothing for a mistyped flag, so an unknown flag gets
// the nearest of the command's flags here; a usage error also carries the
// command, so that main shows the flags the command does have.
func flagError(cmd *cobra.Command, err error) error {
	var ne *pflag.NotExistError
	if errors.As(err, &ne) {
		typed := ne.GetSpecifiedName()
		if group := ne.GetSpecifiedShortnames(); len(group) > 1 {
			typed = group // -suite: a long flag with one dash
		}
		if near := nearestFlag(cmd.Flags(), typed); near != "" {
			err = fmt.Errorf("%w (did you mean --%s?)", err, near)
		}
	}
	return &usageError{cmd: cmd, err: err}
}

// nearestFlag returns the name of the visible flag in fs closest to typed
// by edit distance, or "" when none is close: within a third of the name's
// length (at least 1, at most 3 edits), or a flag that typed begins.
func nearestFlag(fs *pflag.FlagSet, typed string) string {
	limit := min(max(len(typed)/3, 1), 3)
	best, bestDist := "", limit+1
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		d := levenshtein(typed, f.Name)
		if len(typed) >= 3 && len(f.Name) > len(typed) && f.Name[:len(typed)] == typed {
			d = min(d, limit) // a prefix: --resp for --responses
		}
		if d < bestDist {
			best, bestDist = f.Name, d
		}
	})
	return best
}

// levenshtein returns the edit distance between a and b, in bytes (flag
// names are ASCII).
func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// formatNames returns the values --format takes, in the order its help and
// its error list them: those of callgrade.Formats, auto first.
func formatNames() []string {
	var names []string
	for _, f := range callgrade.Formats() {
		names = append(names, f.Name)
	}
	return names
}

// formatFlag defines --format on fs, its help listing formatNames. what
// says which responses it applies to. It has no default value: left out,
// the suite's formats apply (see formatChoice).
func formatFlag(fs *pflag.FlagSet, p *string, what string) {
	fs.StringVar(p, "format", "", what+", one of "+strings.Join(formatNames(), ", ")+"; auto detects each response's format. Given, auto too, it wins over the suite's formats (default: each case's format, else the suite's defaults.format, else auto)")
}

// formatChoice is what --format said: a format, and whether it was given
// at all. Given, auto included, it wins over the suite's formats (a
// case's format, defaults.format); left out, they apply.
type formatChoice struct {
	format callgrade.Format
	forced bool
}

// options returns the callgrade.Options that apply the choice.
func (c formatChoice) options() callgrade.Options {
	return callgrade.Options{Format: c.format, ForceFormat: c.forced}
}

// parseFormat reads the --format flag of cmd. Its error is a usage error,
// which names the flag and lists formatNames as the help does.
func parseFormat(cmd *cobra.Command, s string) (formatChoice, error) {
	f, err := callgrade.ParseFormat(s)
	if err != nil {
		return formatChoice{}, usageErr("--format: unknown response format %q: want one of %s", s, strings.Join(formatNames(), ", "))
	}
	return formatChoice{format: f, forced: cmd.Flags().Changed("format")}, nil
}

// onceString is a string flag that may be given once. A second value
// would silently win over the first, where a user may well mean both:
// --suite layers its files, and --responses a b would score b alone.
type onceString struct {
	p   *string
	set bool
}

func (o *onceString) Set(s string) error {
	if o.set {
		return fmt.Errorf("given twice (%q, then %q); it takes one", *o.p, s)
	}
	*o.p, o.set = s, true
	return nil
}

func (o *onceString) String() string {
	if o.p == nil {
		return ""
	}
	return *o.p
}

func (o *onceString) Type() string { return "string" }

// onceStringVar defines a string flag that may be given once.
func onceStringVar(fl *pflag.FlagSet, p *string, name, usage string) {
	fl.Var(&onceString{p: p}, name, usage)
}
