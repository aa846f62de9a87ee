package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/callgrade/callgrade/response"
)

func newCheckCmd() *cobra.Command {
	var layered []string
	cmd := &cobra.Command{
		Use:   "check SUITE... | check --suite BASE --suite LAYER",
		Short: "Load and compile suites without scoring anything",
		Long: `Check loads each SUITE and compiles everything in it (rules, paths, regular
expressions, expressions and asserts, tool schemas), and prints every problem
with its file and key path. Each SUITE argument is checked on its own; the
--suite files are layered into one suite, as score reads them.

Exit status: 0 when every suite is clean, 2 otherwise.`,
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
			for _, files := range sets {
				n, err := checkSuite(files)
				name := strings.Join(files, " + ")
				if err != nil {
					problems = append(problems, err.Error())
					continue
				}
				fmt.Fprintf(cmd.OutOrStdout(), "%s: %d cases, no problems\n", name, n)
			}
			if len(problems) > 0 {
				return &exitError{code: 2, err: errors.New(strings.Join(problems, "\n"))}
			}
			return nil
		},
	}
	cmd.Flags().StringArrayVar(&layered, "suite", nil, "a suite file to layer with the other --suite files (repeat)")
	return cmd
}

// checkSuite loads and compiles one (possibly layered) suite, starting its
// plugins so that every plugin rule's comparator and params are checked
// against what the plugin describes, and returns its number of cases.
func checkSuite(files []string) (int, error) {
	c, err := open(files, response.Auto)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	return c.engine.Len(), nil
}
