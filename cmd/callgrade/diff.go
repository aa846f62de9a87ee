package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/callgrade/callgrade/report"
)

type diffFlags struct {
	suites           []string
	failOnRegression bool
}

func newDiffCmd() *cobra.Command {
	var f diffFlags
	cmd := &cobra.Command{
		Use:   "diff OLD.jsonl NEW.jsonl [--fail-on-regression] [--suite S ...]",
		Short: "Compare two runs: regressed and fixed cases, pass rate per tool",
		Long: `Diff compares two results files case by case: the cases that passed in OLD
and fail in NEW (regressed), those that failed and now pass (fixed), and the
change in pass rate, overall and per tool. The results files do not name
each case's tool: give --suite for the per-tool rows.

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
			c := report.Compare(old, cur)
			out := cmd.OutOrStdout()
			c.WriteText(out, report.TableOptions{Color: wantColor(out)})
			if f.failOnRegression && len(c.Regressed) > 0 {
				return &exitError{code: 1, err: fmt.Errorf("regressed cases: %d", len(c.Regressed))}
			}
			return nil
		},
	}
	cmd.Flags().StringArrayVar(&f.suites, "suite", nil, "the suite both runs were scored against, for the per-tool rows")
	cmd.Flags().BoolVar(&f.failOnRegression, "fail-on-regression", false, "exit 1 when any case passed in OLD and fails in NEW")
	return cmd
}
