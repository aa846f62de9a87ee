package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/callgrade/callgrade/bfcl"
)

func newImportCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "import",
		Short: "Write a suite from another benchmark's files",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return usageErr("import needs a subcommand: bfcl")
		},
	}
	cmd.AddCommand(newImportBFCLCmd())
	return cmd
}

type importBFCLFlags struct {
	questions, answers, out, semantics string
	results, responsesOut              string
}

func newImportBFCLCmd() *cobra.Command {
	var f importBFCLFlags
	cmd := &cobra.Command{
		Use:   "bfcl --questions Q [--answers A] --out SUITE [--semantics bfcl|callgrade] [--results R --responses-out OUT]",
		Short: "Import BFCL questions and possible answers as a suite, and BFCL results as responses",
		Long: `Import reads a BFCL question file and its possible-answer file (JSON Lines, as
BFCL ships them) and writes a suite with one case per question: YAML, or JSON
when --out ends in .json. Irrelevance questions need no answers file: their
cases expect no call.

--semantics bfcl (the default) reproduces the verdicts of BFCL's AST checker;
--semantics callgrade writes the same suite under callgrade's own conventions
(docs/bfcl.md lists the differences).

--results R --responses-out OUT also converts a BFCL results file of model
outputs ({"id", "result"} lines, the result a list of {name: {args}} or a
string of Python calls) into a responses file for callgrade score. With
--results, --questions and --out may be left out.

Exit status: 0 on success, 2 when a file cannot be read or the files do not
correspond; nothing is written then.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runImportBFCL(cmd, &f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.questions, "questions", "", "BFCL question file (JSON Lines)")
	fl.StringVar(&f.answers, "answers", "", "BFCL possible-answer file (JSON Lines); not needed for irrelevance questions")
	fl.StringVar(&f.out, "out", "", "suite file to write (.yaml, .yml or .json)")
	fl.StringVar(&f.semantics, "semantics", "bfcl", "bfcl (BFCL's checker, verdict for verdict) or callgrade")
	fl.StringVar(&f.results, "results", "", "BFCL results file of model outputs to convert")
	fl.StringVar(&f.responsesOut, "responses-out", "", "responses file to write from --results (JSON Lines)")
	return cmd
}

func runImportBFCL(cmd *cobra.Command, f *importBFCLFlags) error {
	sem, err := bfcl.ParseSemantics(f.semantics)
	if err != nil {
		return usageErr("--semantics: %w", err)
	}
	if (f.results == "") != (f.responsesOut == "") {
		return usageErr("--results and --responses-out go together")
	}
	if f.questions == "" && f.results == "" {
		return usageErr("import bfcl needs --questions (and --out), or --results and --responses-out")
	}
	if (f.questions == "") != (f.out == "") {
		return usageErr("--questions and --out go together")
	}
	if f.answers != "" && f.questions == "" {
		return usageErr("--answers needs --questions")
	}
	if err := checkOutputs("out", f.out, "responses-out", f.responsesOut); err != nil {
		return err
	}
	var suiteData, respData []byte
	if f.questions != "" {
		ext := strings.ToLower(filepath.Ext(f.out))
		if ext != ".yaml" && ext != ".yml" && ext != ".json" {
			return usageErr("--out %s: the suite is written as YAML (.yaml, .yml) or JSON (.json)", f.out)
		}
		if suiteData, err = importSuite(f, sem, ext == ".json"); err != nil {
			return &exitError{code: 2, err: err}
		}
	}
	if f.results != "" {
		in, err := os.Open(f.results)
		if err != nil {
			return &exitError{code: 2, err: err}
		}
		defer in.Close()
		var b bytes.Buffer
		conv, err := bfcl.ConvertResults(in, f.results, &b)
		if err != nil {
			return &exitError{code: 2, err: err}
		}
		respData = b.Bytes()
		for _, u := range conv.Undecodable {
			fmt.Fprintf(cmd.ErrOrStderr(), "warning: %s (the case will fail as invalid_arguments)\n", u)
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "%s: %d responses\n", f.responsesOut, conv.Written)
	}
	if suiteData != nil {
		if err := writeAtomic(f.out, suiteData); err != nil {
			return &exitError{code: 2, err: outputErr("out", f.out, err)}
		}
	}
	if respData != nil {
		if err := writeAtomic(f.responsesOut, respData); err != nil {
			return &exitError{code: 2, err: outputErr("responses-out", f.responsesOut, err)}
		}
	}
	return nil
}

func importSuite(f *importBFCLFlags, sem bfcl.Semantics, asJSON bool) ([]byte, error) {
	q, err := os.Open(f.questions)
	if err != nil {
		return nil, err
	}
	defer q.Close()
	in := bfcl.Input{Questions: q, QuestionsName: f.questions}
	if f.answers != "" {
		a, err := os.Open(f.answers)
		if err != nil {
			return nil, err
		}
		defer a.Close()
		in.Answers, in.AnswersName = a, f.answers
	}
	s, err := bfcl.Import(in, sem)
	if err != nil {
		return nil, err
	}
	if asJSON {
		return s.JSON(), nil
	}
	return s.YAML()
}

// writeAtomic writes a file through a temporary file beside it, so that a
// failure leaves no half-written file.
func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".callgrade-import-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := io.Copy(tmp, bytes.NewReader(data)); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return errors.Join(err)
	}
	return nil
}
