package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/callgrade/callgrade"
)

type mergeFlags struct {
	suites    []string
	out       string
	failUnder float64
	quiet     bool
	junit     string
	html      string
	samples   int
	passK     []int
}

func newMergeCmd() *cobra.Command {
	var f mergeFlags
	cmd := &cobra.Command{
		Use:   "merge --suite SUITE [--out FILE] SHARD...",
		Short: "Merge the output of partial runs (score --partial) into one results file",
		Long: `Merge reads the output of callgrade score --partial over the parts of a
responses file, given in the order of the file (a part's output may be the
output of several partial runs concatenated), and writes the results file
that callgrade score writes over the whole file, byte for byte: one line per
case (and sample) in the order of the suite, missing_response for the cases
no part answered, then the lines of the ids that name no case. The summary,
--junit, --html and --fail-under are score's too. See docs/scale.md.

Exit status: as score's. 2 also when two parts (or one) have a line for the
same case, or case and sample: the message names the case and both places.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMerge(cmd, args, &f)
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&f.suites, "suite", nil, "the suite the parts were scored against (repeat to layer files, as score)")
	onceStringVar(fl, &f.out, "out", "results file (default, or -: standard output)")
	fl.Float64Var(&f.failUnder, "fail-under", 0, "exit 1 when the pass rate (0 to 1) is below this (default: no threshold)")
	fl.BoolVarP(&f.quiet, "quiet", "q", false, "print no summary (warnings still)")
	onceStringVar(fl, &f.junit, "junit", "also write the results as JUnit XML to this file")
	onceStringVar(fl, &f.html, "html", "also write the HTML report to this file")
	fl.IntVar(&f.samples, "samples", 0, `response lines per case, as the parts were scored with (default: the suite's samples:)`)
	passKFlag(fl, &f.passK)
	cmd.MarkFlagRequired("suite")
	return cmd
}

func runMerge(cmd *cobra.Command, shards []string, f *mergeFlags) error {
	// As in score: every signal that can be caught removes the temporary
	// file and exits 128+signal.
	ctx, stop := notifyStop(cmd.Context())
	defer stop()
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	if cmd.Flags().Changed("fail-under") && !(f.failUnder >= 0 && f.failUnder <= 1) {
		return usageErr("--fail-under takes a pass rate from 0 to 1, got %v", f.failUnder)
	}
	f.out = outputFile(f.out)
	if err := checkOutputs(append(append([]string{}, shards...), f.suites...), "out", f.out, "junit", f.junit, "html", f.html); err != nil {
		return err
	}
	c, err := callgrade.OpenMerger(f.suites, callgrade.Options{})
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	defer c.Close()
	stderr := cmd.ErrOrStderr()
	printWarnings(stderr, c.Warnings())
	samples := c.Suite().Samples()
	if cmd.Flags().Changed("samples") {
		samples = f.samples
	}
	if err := checkSamples(samples, f.passK); err != nil {
		return err
	}

	if err := shardsOnce(shards); err != nil {
		return &exitError{code: 2, err: err}
	}
	in := make([]callgrade.Shard, len(shards))
	for i, name := range shards {
		sh, closeIt, err := openShard(name)
		if err != nil {
			return &exitError{code: 2, err: err}
		}
		defer closeIt()
		in[i] = sh
	}

	out := outputTarget(f.out)
	replace := out != "" && isFileOrAbsent(out)
	dir := os.TempDir()
	if replace {
		dir = filepath.Dir(out)
	}
	tmp, err := os.CreateTemp(dir, ".callgrade-results-*")
	if err != nil {
		if replace {
			err = outputErr("out", f.out, err)
		}
		return &exitError{code: 2, err: err}
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	sum, err := c.Merge(ctx, in, tmp, callgrade.RunOptions{Samples: graderSamples(samples), PassK: f.passK})
	if err != nil && ctx.Err() != nil && cmd.Context().Err() == nil {
		return &exitError{code: stopStatus(ctx), err: errors.New(interruptedBy(ctx))}
	}
	if err != nil {
		return &exitError{code: 2, err: tmpErr(err, tmp.Name(), f.out)}
	}
	defer watchSignals(ctx, tmp, cmd.ErrOrStderr())()
	if f.junit != "" || f.html != "" {
		sf := &scoreFlags{responses: "-", junit: f.junit, html: f.html, passK: f.passK}
		if err := writeScoreReports(tmp, c, sf, nil); err != nil {
			return &exitError{code: 2, err: err}
		}
	}
	return publishResults(cmd, tmp, out, replace, f.out, f.quiet, sum, f.failUnder)
}

// shardsOnce refuses a part given twice (by two names of one file, too):
// its cases would be second responses, named at the same place twice.
func shardsOnce(shards []string) error {
	type part struct {
		fi os.FileInfo
		n  int
	}
	var seen []part
	for i, name := range shards {
		if name == "-" {
			continue
		}
		fi, err := os.Stat(name)
		if err != nil {
			continue // openShard says why
		}
		for _, prev := range seen {
			if os.SameFile(prev.fi, fi) {
				return fmt.Errorf("%s is given twice (parts %d and %d); give each part once", name, prev.n, i+1)
			}
		}
		seen = append(seen, part{fi, i + 1})
	}
	return nil
}

// openShard opens a partial run's output for merge, which reads it twice:
// a regular file as it is, anything else ("-" for standard input, a pipe)
// copied into a temporary file first.
func openShard(name string) (callgrade.Shard, func(), error) {
	var src *os.File
	if name == "-" {
		src = os.Stdin
	} else {
		f, err := os.Open(name)
		if err != nil {
			return callgrade.Shard{}, nil, err
		}
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			return callgrade.Shard{Name: name, R: f, Size: fi.Size()}, func() { f.Close() }, nil
		}
		defer f.Close()
		src = f
	}
	tmp, err := os.CreateTemp("", ".callgrade-shard-*")
	if err != nil {
		return callgrade.Shard{}, nil, err
	}
	os.Remove(tmp.Name()) // open until merge ends, then gone
	size, err := io.Copy(tmp, src)
	if err != nil {
		tmp.Close()
		return callgrade.Shard{}, nil, fmt.Errorf("%s: %w", name, err)
	}
	if name == "-" {
		name = "<stdin>"
	}
	return callgrade.Shard{Name: name, R: tmp, Size: size}, func() { tmp.Close() }, nil
}
