package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/callgrade/callgrade"
	"github.com/callgrade/callgrade/bfcl"
)

func newImportCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "import",
		Short: "Write a suite or responses from another tool's files (BFCL, ACEBench, OpenTelemetry traces)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return usageErr("import needs a subcommand: bfcl, acebench or otlp")
		},
	}
	cmd.AddCommand(newImportBFCLCmd())
	cmd.AddCommand(newImportACEBenchCmd())
	cmd.AddCommand(newImportOTLPCmd())
	return cmd
}

type importBFCLFlags struct {
	questions, answers, out, semantics string
	results, responsesOut, textFormat  string
}

func newImportBFCLCmd() *cobra.Command {
	var f importBFCLFlags
	cmd := &cobra.Command{
		Use:   "bfcl --questions Q [--answers A] --out SUITE [--semantics bfcl|callgrade] [--results R --responses-out OUT [--text-format NAME]]",
		Short: "Import BFCL questions and possible answers as a suite, and BFCL results as responses",
		Long: `Import reads a BFCL question file and its possible-answer file (JSON Lines, as
BFCL ships them) and writes a suite with one case per question: YAML, or JSON
when --out ends in .json. Irrelevance and relevance questions need no answers
file: irrelevance cases expect no call, relevance cases at least one call of
any kind (calls: any, min_calls: 1).

--semantics bfcl (the default) reproduces the verdicts of BFCL's AST checker;
--semantics callgrade writes the same suite under callgrade's own conventions
(docs/bfcl.md lists the differences).

--results R --responses-out OUT also converts a BFCL results file of model
outputs ({"id", "result"} lines, the result a list of {name: {args}} or a
string) into a responses file for callgrade score. A string is Python calls,
or a local model's raw text, read in the text format whose special token it
holds (<tool_call>, <|python_tag|>, [TOOL_CALLS], ...); --text-format NAME
reads every string in that one. With --results, --out may be left out, and
--questions too; given, with or without --out, its functions' parameter
types type the values of Qwen3-Coder's text (the "5" of an integer
parameter is 5).

Exit status: 0 on success, 2 when a file cannot be read or the files do not
correspond; nothing is written then.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runImportBFCL(cmd, &f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.questions, "questions", "", "BFCL question file (JSON Lines)")
	fl.StringVar(&f.answers, "answers", "", "BFCL possible-answer file (JSON Lines); not needed for irrelevance and relevance questions")
	fl.StringVar(&f.out, "out", "", "suite file to write (.yaml, .yml or .json)")
	fl.StringVar(&f.semantics, "semantics", "bfcl", "bfcl (BFCL's checker, verdict for verdict) or callgrade")
	fl.StringVar(&f.results, "results", "", "BFCL results file of model outputs to convert")
	fl.StringVar(&f.responsesOut, "responses-out", "", "responses file to write from --results (JSON Lines; - for standard output)")
	fl.StringVar(&f.textFormat, "text-format", "auto", "text format of every string result of --results, one of "+textFormatNames()+
		"; auto reads a string with a text format's special token in that format, any other as Python calls")
	return cmd
}

func runImportBFCL(cmd *cobra.Command, f *importBFCLFlags) error {
	sem, err := parseBFCLSemantics(f.semantics)
	if err != nil {
		return usageErr("--semantics: %w", err)
	}
	if (f.results == "") != (f.responsesOut == "") {
		return usageErr("--results and --responses-out go together")
	}
	if f.questions == "" && f.results == "" {
		return usageErr("import bfcl needs --questions (and --out), or --results and --responses-out")
	}
	textFormat, err := parseTextFormat(f.textFormat)
	if err != nil {
		return usageErr("--text-format: %w", err)
	}
	if cmd.Flags().Changed("text-format") && f.results == "" {
		return usageErr("--text-format needs --results")
	}
	if f.out != "" && f.questions == "" {
		return usageErr("--out needs --questions")
	}
	if f.questions != "" && f.out == "" && f.results == "" {
		return usageErr("--questions needs --out (or --results, whose values it types)")
	}
	if f.answers != "" && f.out == "" {
		return usageErr("--answers needs --questions and --out")
	}
	if err := checkOutputs([]string{f.questions, f.answers, f.results}, "out", f.out, "responses-out", outputFile(f.responsesOut)); err != nil {
		return err
	}
	var suiteData, respData []byte
	if f.out != "" {
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
		opts := bfcl.ResultOptions{Format: textFormat}
		if f.questions != "" {
			if err := questionParams(f.questions, &opts); err != nil {
				return &exitError{code: 2, err: err}
			}
		}
		var b bytes.Buffer
		written, undecodable, err := bfcl.ConvertResults(in, f.results, &b, opts)
		if err != nil {
			return &exitError{code: 2, err: err}
		}
		respData = b.Bytes()
		for _, u := range undecodable {
			fmt.Fprintf(cmd.ErrOrStderr(), "warning: %s (the case will fail as invalid_arguments)\n", u)
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "%s: %s\n", outputName(f.responsesOut), count(written, "response"))
	}
	if suiteData != nil {
		if err := writeAtomic(f.out, suiteData); err != nil {
			return &exitError{code: 2, err: outputErr("out", f.out, err)}
		}
	}
	if respData != nil {
		if err := writeOutput(cmd.OutOrStdout(), f.responsesOut, respData); err != nil {
			return &exitError{code: 2, err: outputErr("responses-out", f.responsesOut, err)}
		}
	}
	return nil
}

// questionParams reads the parameters schemas of a question file's
// functions into opts, which type the values of a model's text.
func questionParams(path string, opts *bfcl.ResultOptions) error {
	q, err := os.Open(path)
	if err != nil {
		return err
	}
	defer q.Close()
	opts.Params, err = bfcl.QuestionParams(q, path)
	return err
}

// parseBFCLSemantics checks --semantics of import bfcl and bfcl score; ""
// is bfcl.
func parseBFCLSemantics(s string) (bfcl.Semantics, error) {
	switch bfcl.Semantics(s) {
	case "", bfcl.SemanticsBFCL:
		return bfcl.SemanticsBFCL, nil
	case bfcl.SemanticsCallgrade:
		return bfcl.SemanticsCallgrade, nil
	}
	return "", fmt.Errorf("unknown semantics %q; want bfcl or callgrade", s)
}

// textFormatNames lists the values --text-format takes.
func textFormatNames() string {
	return strings.Join(append([]string{"auto"}, textFormats()...), ", ")
}

// textFormats are the formats of a model's raw text (callgrade.Formats
// marks them Text), in the order callgrade.Formats lists them: the ones
// bfcl.ResultOptions.Format takes besides auto.
func textFormats() []string {
	var out []string
	for _, f := range callgrade.Formats() {
		if f.Text {
			out = append(out, f.Name)
		}
	}
	return out
}

// parseTextFormat reads --text-format: one of textFormats, in any case,
// or "" or "auto" for Auto. Any other name is an error that lists the text
// formats, worded as bfcl.ConvertResults words it, so that the flag is
// refused before any file is read.
func parseTextFormat(s string) (callgrade.Format, error) {
	f, err := callgrade.ParseFormat(s)
	// The zero Format is auto.
	if err != nil || f != "" && !slices.Contains(textFormats(), string(f)) {
		return "", fmt.Errorf("unknown text format %q: want one of %s (or auto)", s, strings.Join(textFormats(), ", "))
	}
	return f, nil
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
	path = outputTarget(path)
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
	return place(tmp.Name(), path)
}
