package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/callgrade/callgrade/bfcl"
)

func newBFCLCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bfcl",
		Short: "Score a whole BFCL run: every category, and BFCL's overall figure",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return usageErr("bfcl needs a subcommand: score")
		},
	}
	cmd.AddCommand(newBFCLScoreCmd())
	return cmd
}

type bfclScoreFlags struct {
	data, results, semantics, out string
}

func newBFCLScoreCmd() *cobra.Command {
	var f bfclScoreFlags
	cmd := &cobra.Command{
		Use:   "score --data DIR --results DIR [--semantics bfcl|callgrade] [--out DIR]",
		Short: "Score a model's BFCL results directory against BFCL's data directory",
		Long: `Score reads every BFCL_v4_<category>_result.json of --results (BFCL's
result/<model>/ directory, as its handlers write it), imports the
category's questions and possible answers from --data (BFCL's data
directory) as import bfcl does, converts the results into responses and
scores them as score does. An agentic result ([[step, ...]]: web_search_base,
web_search_no_snippet, memory_kv, memory_vector, memory_rec_sum) is judged
on its final answer. A question with no result fails. It prints each
category's cases, passed cases and accuracy, and BFCL v4's overall figure
over the categories covered, with the categories missing from it
(docs/bfcl.md, "A whole BFCL run"). multi_turn results are not scored.

--out DIR also writes each category's suite, responses and results there.

Exit status: 0 when the run was scored, whatever passed; 2 when a file
cannot be read or a line of one is not what BFCL writes (the message names
the file and the line).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runBFCLScore(cmd, &f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.data, "data", "", "BFCL's data directory (BFCL_v4_<category>.json, possible_answer/)")
	fl.StringVar(&f.results, "results", "", "a model's BFCL results directory (BFCL_v4_<category>_result.json)")
	fl.StringVar(&f.semantics, "semantics", "bfcl", "bfcl (BFCL's checker, verdict for verdict) or callgrade")
	fl.StringVar(&f.out, "out", "", "directory to write each category's suite, responses and results into")
	cmd.MarkFlagRequired("data")
	cmd.MarkFlagRequired("results")
	return cmd
}

func runBFCLScore(cmd *cobra.Command, f *bfclScoreFlags) error {
	sem, err := parseBFCLSemantics(f.semantics)
	if err != nil {
		return usageErr("--semantics: %w", err)
	}
	s, err := bfcl.ScoreDir(cmd.Context(), bfcl.Dir{Data: f.data, Results: f.results, Semantics: sem, Out: f.out})
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	for _, w := range append(s.Skipped, s.Warnings...) {
		fmt.Fprintf(cmd.ErrOrStderr(), "warning: %s\n", w)
	}
	return s.WriteSummary(cmd.OutOrStdout())
}
