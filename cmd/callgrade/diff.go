package main

import (
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/callgrade/callgrade/report"
)

type diffFlags struct {
	suites           []string
	failOnRegression bool
	// html, when set, is the file for the HTML page of both runs; the
	// responses files give their calls.
	html, oldResponses, newResponses, format string
}

func newDiffCmd() *cobra.Command {
	var f diffFlags
	cmd := &cobra.Command{
		Use:   "diff OLD.jsonl NEW.jsonl [--fail-on-regression] [--suite S ...] [--html FILE [--old-responses R] [--new-responses R]]",
		Short: "Compare two runs: regressed and fixed cases, pass rate per tool",
		Long: `Diff compares two results files case by case: the cases that passed in OLD
and fail in NEW (regressed), those that failed and now pass (fixed), and the
change in pass rate, overall and per tool. The results files do not name
each case's tool: give --suite for the per-tool rows.

--html FILE also writes both runs as one self-contained HTML page: each
run's metadata at the top, regressed and fixed cases first, each case's
scores and their delta, "only changed", and in a case's drill-down both
runs' calls and diffs side by side (docs/reports.md). --suite gives the
expected calls; --old-responses and --new-responses each run's calls.

Exit status: 0; 1 when --fail-on-regression is given and a case regressed;
2 when a file cannot be read.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			old, err := readResults(args[0], f.suites)
			if err != nil {
				return &exitError{code: 2, err: err}
			}
			cur, err := readResults(args[1], f.suites)
			if err != nil {
				return &exitError{code: 2, err: err}
			}
			if f.html != "" {
				if err := writeDiffHTML(cmd, args[0], args[1], old, cur, &f); err != nil {
					return err
				}
			}
			c := report.Compare(old, cur)
			out := cmd.OutOrStdout()
			c.WriteText(out, report.TableOptions{Color: wantColor(out)})
			if f.failOnRegression && len(c.Regressed()) > 0 {
				return &exitError{code: 1, err: fmt.Errorf("regressed cases: %d", len(c.Regressed()))}
			}
			return nil
		},
	}
	cmd.Flags().StringArrayVar(&f.suites, "suite", nil, "the suite both runs were scored against, for the per-tool rows")
	cmd.Flags().StringVar(&f.html, "html", "", "also write both runs as an HTML page to this file")
	cmd.Flags().StringVar(&f.oldResponses, "old-responses", "", "the old run's responses, for its calls on the --html page")
	cmd.Flags().StringVar(&f.newResponses, "new-responses", "", "the new run's responses, for its calls on the --html page")
	formatFlag(cmd.Flags(), &f.format, "response format of --old-responses and --new-responses")
	cmd.Flags().BoolVar(&f.failOnRegression, "fail-on-regression", false, "exit 1 when any case passed in OLD and fails in NEW")
	return cmd
}

// writeDiffHTML writes the --html page of diff: the two runs, with their
// calls from the responses files given.
func writeDiffHTML(cmd *cobra.Command, oldName, newName string, old, cur []report.Case, f *diffFlags) error {
	format, err := parseFormat(cmd, f.format)
	if err != nil {
		return err
	}
	if err := checkOutputs(append([]string{oldName, newName, f.oldResponses, f.newResponses}, f.suites...), "html", f.html); err != nil {
		return err
	}
	for _, r := range []struct {
		cases []report.Case
		name  string
	}{{old, f.oldResponses}, {cur, f.newResponses}} {
		if r.name != "" {
			if err := attachResponses(r.cases, r.name, format); err != nil {
				return &exitError{code: 2, err: err}
			}
		}
	}
	meta := func(results, responses string) report.RunMeta {
		m := report.RunMeta{Responses: results, Version: buildVersion()}
		if responses != "" {
			m.Responses = results + " (responses " + responses + ")"
		}
		if fi, err := os.Stat(results); err == nil {
			m.Date = fi.ModTime().UTC().Format(time.RFC3339)
		}
		return m
	}
	oldMeta, newMeta := meta(oldName, f.oldResponses), meta(newName, f.newResponses)
	if err := writeFileWith(f.html, func(w *os.File) error { return report.WriteCompareHTML(w, old, cur, oldMeta, newMeta) }); err != nil {
		return &exitError{code: 2, err: outputErr("html", f.html, err)}
	}
	return nil
}
