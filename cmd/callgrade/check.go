package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/callgrade/callgrade"
)

func newCheckCmd() *cobra.Command {
	var layered []string
	var strict bool
	cmd := &cobra.Command{
		Use:   "check SUITE... | check --suite BASE --suite LAYER",
		Short: "Load and compile suites without scoring anything",
		Long: `Check loads each SUITE and compiles everything in it (rules, paths, regular
expressions, expressions and asserts, tool schemas), and prints every problem
with its file and key path. Each SUITE argument is checked on its own; the
--suite files are layered into one suite, as score reads them.

It also warns of what compiles but cannot be meant: an expected call naming
a tool the case's tools do not define, expected arguments that violate
their own tool's schema (an actual call equal to them cannot pass), a suite
without cases.

Exit status: 0 when every suite loads (warnings or not; with --strict, only
when there are no warnings either), 2 otherwise.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 && len(layered) == 0 {
				return usageErr("check needs at least one suite file")
			}
			var sets [][]string
			for _, a := range args {
				sets = append(sets, []string{a})
			}
			if len(layered) > 0 {
				sets = append(sets, layered)
			}
			var problems []string
			warned := 0
			for _, files := range sets {
				n, warnings, err := checkSuite(files)
				name := strings.Join(files, " + ")
				if err != nil {
					problems = append(problems, err.Error())
					continue
				}
				printWarnings(cmd.ErrOrStderr(), warnings)
				warned += len(warnings)
				if len(warnings) == 0 {
					fmt.Fprintf(cmd.OutOrStdout(), "%s: %s, no problems\n", name, count(n, "case"))
				} else {
					fmt.Fprintf(cmd.OutOrStdout(), "%s: %s, %s\n", name, count(n, "case"), count(len(warnings), "warning"))
				}
			}
			if len(problems) > 0 {
				return &exitError{code: 2, err: errors.New(strings.Join(problems, "\n"))}
			}
			if strict && warned > 0 {
				them := "them errors"
				if warned == 1 {
					them = "it an error"
				}
				return &exitError{code: 2, err: fmt.Errorf("%s, and --strict makes %s", count(warned, "warning"), them)}
			}
			return nil
		},
	}
	cmd.Flags().StringArrayVar(&layered, "suite", nil, "a suite file to layer with the other --suite files (repeat)")
	cmd.Flags().BoolVar(&strict, "strict", false, "exit 2 on warnings too")
	return cmd
}

// checkSuite loads and compiles one (possibly layered) suite, starting its
// plugins so that every plugin rule's comparator and params are checked
// against what the plugin describes, and returns its number of cases and
// its warnings.
func checkSuite(files []string) (int, []callgrade.Problem, error) {
	c, err := open(files, callgrade.Options{})
	if err != nil {
		return 0, nil, err
	}
	defer c.Close()
	return c.Suite().Len(), c.Warnings(), nil
}

// printWarnings writes each warning on its own line, as check and score
// both print them.
func printWarnings(w io.Writer, warnings []callgrade.Problem) {
	for _, p := range warnings {
		fmt.Fprintln(w, "warning:", p)
	}
}
