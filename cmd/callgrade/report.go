package main

import (
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/callgrade/callgrade"
	"github.com/callgrade/callgrade/report"
)

type reportFlags struct {
	suites    []string
	responses string
	format    string
	html      string
	junit     string
	quiet     bool
	passK     []int
}

func newReportCmd() *cobra.Command {
	var f reportFlags
	cmd := &cobra.Command{
		Use:   "report RESULTS.jsonl [--html FILE] [--junit FILE] [--suite S ...] [--responses R]",
		Short: "Summarise an earlier run's results file as a table, HTML or JUnit XML",
		Long: `Report reads a results file written by score and prints its summary table
on stdout; --html and --junit write the HTML page and the JUnit XML as score
does. The results file does not name each case's tool, suite file or calls:
give --suite (the suite it was scored against) for the tools, the suite
files and the expected calls, and --responses for the calls the model made.

For a results file with samples (lines with "sample"), the table adds
pass@k and pass^k over the cases, and a table of the cases follows: each
one's samples, passing samples, pass@k and pass^k, and failed samples.
--pass-k chooses k (default: the number of samples).

Exit status: 0, or 2 when a file cannot be read or written.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runReport(cmd, args[0], &f)
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&f.suites, "suite", nil, "the suite the results were scored against (repeat for layered files)")
	fl.StringVar(&f.responses, "responses", "", "the responses file that was scored, to show the actual calls")
	formatFlag(fl, &f.format, "response format of --responses")
	fl.StringVar(&f.html, "html", "", "write the HTML report to this file")
	fl.StringVar(&f.junit, "junit", "", "write JUnit XML to this file")
	fl.BoolVarP(&f.quiet, "quiet", "q", false, "print no table")
	passKFlag(fl, &f.passK)
	return cmd
}

func runReport(cmd *cobra.Command, results string, f *reportFlags) error {
	format, err := parseFormat(cmd, f.format)
	if err != nil {
		return err
	}
	if err := checkOutputs(append([]string{results, f.responses}, f.suites...), "html", f.html, "junit", f.junit); err != nil {
		return err
	}
	cases, err := readResults(results, f.suites)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	if f.responses != "" {
		if err := attachResponses(cases, f.responses, format); err != nil {
			return &exitError{code: 2, err: err}
		}
	}
	sum := report.Summarize(cases)
	if len(f.passK) > 0 {
		if sum.Samples == 0 {
			return usageErr("--pass-k: %s has no samples (no line carries \"sample\")", results)
		}
		if err := report.SetPassK(sum, f.passK); err != nil {
			return usageErr("--pass-k: %v", err)
		}
	}
	if err := writeReports(cases, f.html, f.junit, f.passK); err != nil {
		return &exitError{code: 2, err: err}
	}
	if !f.quiet {
		out := cmd.OutOrStdout()
		opts := report.TableOptions{Color: wantColor(out)}
		report.WriteTable(out, sum, opts)
		if sum.Samples > 0 {
			fmt.Fprintln(out)
			report.WriteSamples(out, cases, f.passK, opts)
		}
	}
	return nil
}

// readResults reads a results file, annotated from the suite files when
// some are given.
func readResults(name string, suites []string) ([]report.Case, error) {
	file, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	cases, err := report.ReadResults(file, name)
	if err != nil {
		return nil, err
	}
	if len(suites) > 0 {
		s, err := callgrade.Load(suites...)
		if err != nil {
			return nil, err
		}
		report.Annotate(cases, s)
	}
	return cases, nil
}

// attachResponses reads each case's actual calls from the responses file
// name, in the format --format chose: given (auto too), for every case;
// left out, each case's own (report.Annotate's, from the suite).
func attachResponses(cases []report.Case, name string, format formatChoice) error {
	file, err := os.Open(name)
	if err != nil {
		return err
	}
	defer file.Close()
	return report.AttachResponses(cases, file, name, format.options())
}

// writeReports writes the HTML page and the JUnit XML, each when its file
// is named.
func writeReports(cases []report.Case, html, junit string, passK []int) error {
	if html != "" {
		if err := writeFileWith(html, func(w *os.File) error {
			return report.WriteHTML(w, cases, report.HTMLOptions{PassK: passK, Meta: htmlMeta()})
		}); err != nil {
			return outputErr("html", html, err)
		}
	}
	if junit != "" {
		if err := writeFileWith(junit, func(w *os.File) error { return report.WriteJUnit(w, cases, report.JUnitOptions{PassK: passK}) }); err != nil {
			return outputErr("junit", junit, err)
		}
	}
	return nil
}

func writeFileWith(name string, write func(*os.File) error) error {
	file, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := write(file); err != nil {
		file.Close()
		return err
	}
	return file.Close()
}

// wantColor reports whether output to w gets colour: only on a terminal,
// and never with NO_COLOR set (https://no-color.org).
func wantColor(w any) bool {
	if os.Getenv("NO_COLOR") != "" {
		return false
	}
	return isTerminal(w)
}

func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// htmlMeta is the run metadata the HTML page shows beyond what its cases
// tell: when it was written and by which callgrade.
func htmlMeta() report.RunMeta {
	return report.RunMeta{Date: time.Now().UTC().Format(time.RFC3339), Version: buildVersion()}
}
