package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/callgrade/callgrade/acebench"
)

type importACEBenchFlags struct {
	questions, answers, out, semantics string
}

func newImportACEBenchCmd() *cobra.Command {
	var f importACEBenchFlags
	cmd := &cobra.Command{
		Use:   "acebench --questions Q --answers A --out SUITE [--semantics callgrade]",
		Short: "Import ACEBench's normal questions and answers as a suite",
		Long: `Import reads an ACEBench question file of a "normal" category and its
possible-answer file (JSON Lines, data_all/data_<lang>/data_<category>.json
and possible_answer/data_<category>.json) and writes a suite with one case
per question row: YAML, or JSON when --out ends in .json. A multi-turn row
is an ordinary case; ACEBench's end accuracy (every row of a conversation
valid) is an aggregation over the rows' results.

The suite follows callgrade's conventions (--semantics callgrade, the only
one): calls unordered and paired one to one, every parameter the answer
names required with its value and no other given, strings compared with
white space and , . / - _ * ^ left out and case folded, numbers by exact
value, at every depth. It agrees with ACEBench's checker wherever that is
right; docs/acebench.md lists where it is not. Score a model's text
answers, [f(a=1, b="x")], with callgrade score --format pythonic.

Exit status: 0 on success, 2 when a file cannot be read or the files do not
correspond; nothing is written then.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runImportACEBench(&f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.questions, "questions", "", "ACEBench question file (JSON Lines)")
	fl.StringVar(&f.answers, "answers", "", "ACEBench possible-answer file (JSON Lines)")
	fl.StringVar(&f.out, "out", "", "suite file to write (.yaml, .yml or .json)")
	fl.StringVar(&f.semantics, "semantics", "callgrade", "callgrade (ACEBench's checker's defects are documented, not reproduced)")
	return cmd
}

func runImportACEBench(f *importACEBenchFlags) error {
	err := parseACEBenchSemantics(f.semantics)
	if err != nil {
		return usageErr("--semantics: %w", err)
	}
	if f.questions == "" || f.answers == "" || f.out == "" {
		return usageErr("import acebench needs --questions, --answers and --out")
	}
	if err := checkOutputs([]string{f.questions, f.answers}, "out", f.out, "", ""); err != nil {
		return err
	}
	ext := strings.ToLower(filepath.Ext(f.out))
	if ext != ".yaml" && ext != ".yml" && ext != ".json" {
		return usageErr("--out %s: the suite is written as YAML (.yaml, .yml) or JSON (.json)", f.out)
	}
	data, err := importACEBenchSuite(f, ext == ".json")
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	if err := writeAtomic(f.out, data); err != nil {
		return &exitError{code: 2, err: outputErr("out", f.out, err)}
	}
	return nil
}

func importACEBenchSuite(f *importACEBenchFlags, asJSON bool) ([]byte, error) {
	q, err := os.Open(f.questions)
	if err != nil {
		return nil, err
	}
	defer q.Close()
	a, err := os.Open(f.answers)
	if err != nil {
		return nil, err
	}
	defer a.Close()
	s, err := acebench.Import(acebench.Input{Questions: q, QuestionsName: f.questions, Answers: a, AnswersName: f.answers})
	if err != nil {
		return nil, err
	}
	if asJSON {
		return s.JSON(), nil
	}
	return s.YAML()
}

// parseACEBenchSemantics checks --semantics: "" or callgrade, the only
// semantics offered; acebench is refused with the reason.
func parseACEBenchSemantics(s string) error {
	switch s {
	case "", "callgrade":
		return nil
	case "acebench":
		return fmt.Errorf("semantics %q is not offered: ACEBench's checker has defects that callgrade documents (docs/acebench.md) instead of reproducing; want callgrade", s)
	}
	return fmt.Errorf("unknown semantics %q; want callgrade", s)
}
