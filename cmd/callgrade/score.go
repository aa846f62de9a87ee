package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/callgrade/callgrade"
	"github.com/callgrade/callgrade/report"
)

type scoreFlags struct {
	suites    []string
	responses string
	out       string
	format    string
	failUnder float64
	workers   int
	quiet     bool
	junit     string
	html      string
	samples   int
	passK     []int
	partial   bool
	maxLine   int
}

func newScoreCmd() *cobra.Command {
	var f scoreFlags
	cmd := &cobra.Command{
		Use:   "score --suite SUITE --responses RESPONSES [--out FILE]",
		Short: "Score a responses file against a suite",
		Long: `Score reads a suite (YAML, JSON or TOML; several --suite files are layered)
and a JSON Lines responses file, and writes one result line per case.

With --samples N (or samples: N in the suite) each case has N response
lines, told apart by "sample" (0 to N-1): one result line is written per
case and sample, and the summary adds pass@k and pass^k (--pass-k).

What check warns of (an expected call naming a tool the case's tools do not
define, a reference that can never resolve, ...) is printed first on stderr,
once, in check's words, and the suite is scored all the same.

Exit status: 0 when every case was scored, whatever passed; 1 when
--fail-under is given and the pass rate is below it (with samples, the
share of passing result lines); 2 when the suite or the responses could not
be read. Nothing is written to --out or stdout on exit 2, nor when a
signal stops the run: SIGINT (Ctrl-C) exits 130, SIGHUP 129, SIGQUIT 131
and SIGTERM 143, 128 and the signal's number as the shell gives, and the
temporary results file beside --out is removed.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runScore(cmd, &f)
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&f.suites, "suite", nil, "suite file (repeat to layer files; later ones override earlier ones)")
	onceStringVar(fl, &f.responses, "responses", `responses file, JSON Lines, gzip-compressed or not ("-" for standard input)`)
	onceStringVar(fl, &f.out, "out", "results file (default, or -: standard output)")
	formatFlag(fl, &f.format, "response format")
	fl.Float64Var(&f.failUnder, "fail-under", 0, "exit 1 when the pass rate (0 to 1) is below this (default: no threshold)")
	fl.IntVar(&f.workers, "workers", 0, "goroutines that score (default: one per core)")
	fl.BoolVarP(&f.quiet, "quiet", "q", false, "print no summary and no progress bar (warnings still)")
	onceStringVar(fl, &f.junit, "junit", "also write the results as JUnit XML to this file")
	onceStringVar(fl, &f.html, "html", "also write the HTML report to this file")
	fl.IntVar(&f.samples, "samples", 0, `response lines per case, told apart by "sample" from 0 (default: the suite's samples:; 0 for one line per case)`)
	passKFlag(fl, &f.passK)
	fl.BoolVar(&f.partial, "partial", false, "score a part of the responses for callgrade merge: one line per response line, in input order, no missing_response lines (docs/scale.md)")
	maxLineFlag(fl, &f.maxLine)
	cmd.MarkFlagRequired("suite")
	cmd.MarkFlagRequired("responses")
	return cmd
}

// interruptGrace is how long an interrupted run may take to stop by
// itself before the command exits without it.
const interruptGrace = 2 * time.Second

// interrupted is what an interrupted run says, by either way it ends.
const interrupted = "interrupted: no results written"

func usageErr(format string, a ...any) error {
	return &exitError{code: 2, err: fmt.Errorf(format, a...)}
}

func runScore(cmd *cobra.Command, f *scoreFlags) error {
	// Scoring allocates many short-lived values and keeps few: trading some
	// memory for less collector work is the right default for a batch job.
	debug.SetGCPercent(400)

	// Signals are heard from the start, so that one that comes while the
	// suite loads is an interrupt too (exit 128+signal), not a death by signal;
	// and a reader that goes away (| head) makes writing fail with EPIPE,
	// which exits quietly after the temporary file is removed, where
	// SIGPIPE would kill the process and leave it.
	ctx, stop := notifyStop(cmd.Context())
	defer stop()
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)

	format, err := parseFormat(cmd, f.format)
	if err != nil {
		return err
	}
	// Written so that NaN, which every comparison fails, is refused too:
	// it would never fail a run.
	if cmd.Flags().Changed("fail-under") && !(f.failUnder >= 0 && f.failUnder <= 1) {
		return usageErr("--fail-under takes a pass rate from 0 to 1, got %v", f.failUnder)
	}
	if f.workers < 0 {
		return usageErr("--workers takes a number of goroutines, or 0 for one per core, got %d", f.workers)
	}
	f.out = outputFile(f.out)
	if err := checkOutputs(append([]string{f.responses}, f.suites...), "out", f.out, "junit", f.junit, "html", f.html); err != nil {
		return err
	}
	c, err := open(f.suites, format.options())
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	defer c.Close()
	// What check warns of, said once before the run, in check's words:
	// a suite that cannot be what its author meant still scores.
	printWarnings(cmd.ErrOrStderr(), c.Warnings())
	samples := c.Suite().Samples()
	if cmd.Flags().Changed("samples") {
		samples = f.samples
	}
	if err := checkSamples(samples, f.passK); err != nil {
		return err
	}
	if f.partial {
		return runPartial(ctx, cmd, f, c, samples)
	}

	stderr := cmd.ErrOrStderr()
	in, name, bar, closeIn, err := openResponses(f, stderr)
	if err != nil {
		return err
	}
	defer closeIn()

	tmp, out, replace, err := createResults(f.out)
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()

	finished := make(chan struct{})
	go exitWhenStuck(ctx, finished, c, tmp, stderr)
	opts := callgrade.RunOptions{Name: name, Workers: f.workers, Samples: graderSamples(samples), PassK: f.passK, MaxLineBytes: f.maxLine}
	var calls *report.Responses
	if f.html != "" {
		// The calls the model made, for the page, taken from this pass:
		// standard input cannot be read a second time.
		calls = report.NewResponses(c.Suite(), callgrade.Options{Format: format.format, ForceFormat: format.forced})
		opts.OnResponse = calls.Add
	}
	sum, err := c.Run(ctx, in, tmp, opts)
	close(finished)
	if bar != nil {
		bar.Stop()
	}
	if err != nil && ctx.Err() != nil && cmd.Context().Err() == nil {
		// Stopped by a signal, not by bad input: the shell's status for
		// an interrupt, and nothing written, as on exit 2.
		return &exitError{code: stopStatus(ctx), err: errors.New(interruptedBy(ctx))}
	}
	if err != nil {
		return &exitError{code: 2, err: tmpErr(err, tmp.Name(), f.out)}
	}
	defer watchSignals(ctx, tmp, stderr)()
	if f.junit != "" || f.html != "" {
		if err := writeScoreReports(tmp, c, f, calls); err != nil {
			return &exitError{code: 2, err: err}
		}
	}
	return publishResults(cmd, tmp, out, replace, f.out, f.quiet, sum, f.failUnder)
}

// watchSignals has a signal that comes while a finished run writes its
// reports and puts its results in place stop the process, until the
// returned func is called: that can take long (the page of a million
// cases, half a minute) or block (a reader of standard output that has
// stopped reading), and nothing else then watches ctx.
func watchSignals(ctx context.Context, tmp *os.File, stderr io.Writer) (stop func()) {
	done := make(chan struct{})
	go exitOnSignal(ctx, done, tmp, stderr)
	return func() { close(done) }
}

// exitOnSignal ends the process with the signal's status when ctx is
// stopped by one before done, removing the temporary results: what is
// left to do once the run has scored (writing reports, placing the
// results) has nothing to finish.
func exitOnSignal(ctx context.Context, done <-chan struct{}, tmp *os.File, stderr io.Writer) {
	select {
	case <-done:
	case <-ctx.Done():
		tmp.Close()
		os.Remove(tmp.Name())
		fmt.Fprintln(stderr, "callgrade: "+interruptedBy(ctx))
		os.Exit(stopStatus(ctx))
	}
}

// openResponses opens the responses to score: the file f names, or
// standard input for "-", with its name for messages, and a progress bar
// reading through it when stderr is a terminal and the run is not quiet
// (it shows for runs that last over a second). closeIn closes the file.
func openResponses(f *scoreFlags, stderr io.Writer) (in io.Reader, name string, bar *progress, closeIn func(), err error) {
	in, name, closeIn = os.Stdin, "<stdin>", func() {}
	var size int64
	if f.responses != "-" {
		file, err := os.Open(f.responses)
		if err != nil {
			return nil, "", nil, nil, &exitError{code: 2, err: err}
		}
		in, name, size, closeIn = file, f.responses, regularSize(file), func() { file.Close() }
	}
	if !f.quiet && isTerminal(stderr) {
		bar = startProgress(stderr, size, time.Second)
		in = bar.Reader(in)
	}
	return in, name, bar, closeIn, nil
}

// regularSize returns the size of file when it is a regular file, for
// the progress bar; 0 for a pipe or a device, whose size says nothing.
func regularSize(file *os.File) int64 {
	if fi, err := file.Stat(); err == nil && fi.Mode().IsRegular() {
		return fi.Size()
	}
	return 0
}

// createResults creates the temporary file score writes its results to,
// so that exit 2 leaves nothing half-written, on stdout as in --out. A
// regular --out file is replaced by a rename from its own directory
// (replace); a device or pipe (/dev/null, /dev/stdout, a FIFO) is written
// at the end instead, never renamed over. out is where the results go,
// "" for standard output.
func createResults(outFlag string) (tmp *os.File, out string, replace bool, err error) {
	out = outputTarget(outFlag)
	replace = out != "" && isFileOrAbsent(out)
	dir := os.TempDir()
	if replace {
		dir = filepath.Dir(out)
	}
	tmp, err = os.CreateTemp(dir, ".callgrade-results-*")
	if err != nil {
		if replace {
			err = outputErr("out", outFlag, err)
		}
		return nil, "", false, &exitError{code: 2, err: err}
	}
	return tmp, out, replace, nil
}

// exitWhenStuck waits for the run to be finished or stopped by a signal
// (ctx). Stopped, it closes the grader at once: Ctrl-C stops the plugins,
// which also unblocks workers waiting on one of them. A run still not
// finished interruptGrace later waits for its reader, which input that
// stays open (a pipe whose writer goes on) holds in a read that nothing
// interrupts: the process removes the temporary results and exits
// without it.
func exitWhenStuck(ctx context.Context, finished <-chan struct{}, c *callgrade.Grader, tmp *os.File, stderr io.Writer) {
	select {
	case <-finished:
		return
	case <-ctx.Done():
	}
	c.Close()
	select {
	case <-finished:
	case <-time.After(interruptGrace):
		exitOnSignal(ctx, nil, tmp, stderr)
	}
}

// publishResults puts a finished results file in place (or on standard
// output), prints the summary table and applies --fail-under: the last
// steps of score and merge, whose outputs and exit statuses must agree.
func publishResults(cmd *cobra.Command, tmp *os.File, out string, replace bool, outFlag string, quiet bool, sum *callgrade.Summary, failUnder float64) error {
	if err := publish(tmp, out, replace, cmd.OutOrStdout()); err != nil {
		if errors.Is(err, syscall.EPIPE) {
			// The reader took what it wanted and left (| head): the
			// shell's status for SIGPIPE, and nothing to say.
			return &exitError{code: 128 + 13, err: err, quiet: true}
		}
		if outFlag != "" {
			err = outputErr("out", outFlag, err)
		}
		return &exitError{code: 2, err: err}
	}
	if stderr := cmd.ErrOrStderr(); !quiet {
		report.WriteTable(stderr, sum, report.TableOptions{Color: wantColor(stderr)})
	}
	if cmd.Flags().Changed("fail-under") && sum.PassRate() < failUnder {
		return &exitError{code: 1, err: fmt.Errorf("pass rate %.4f is below --fail-under %v", sum.PassRate(), failUnder)}
	}
	return nil
}

// writeScoreReports reads the finished results back and writes the JUnit
// XML and the HTML page, with each case's tool, suite file and expected
// calls from the suite and, for the page, the actual calls the run handed
// to calls.
func writeScoreReports(tmp *os.File, c *callgrade.Grader, f *scoreFlags, calls *report.Responses) error {
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		return err
	}
	cases, err := report.ReadResults(tmp, tmp.Name())
	if err != nil {
		return err
	}
	report.Annotate(cases, c.Suite())
	if calls != nil {
		name := f.responses // for the page's run metadata
		if name == "-" {
			name = ""
		}
		calls.Attach(cases, name)
	}
	return writeReports(cases, f.html, f.junit, f.passK)
}

// publish moves the finished results into place: a rename over a regular
// --out file, a copy into anything else (a device, a pipe, stdout).
func publish(tmp *os.File, out string, replace bool, stdout io.Writer) error {
	if replace {
		if err := tmp.Close(); err != nil {
			return err
		}
		return place(tmp.Name(), out)
	}
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		return err
	}
	w := stdout
	if out != "" {
		f, err := os.OpenFile(out, os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	_, err := io.Copy(w, tmp)
	return err
}

// isFileOrAbsent reports whether path is a regular file or does not exist.
func isFileOrAbsent(path string) bool {
	fi, err := os.Stat(path)
	return err != nil || fi.Mode().IsRegular()
}
