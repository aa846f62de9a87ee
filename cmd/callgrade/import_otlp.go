package main

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/callgrade/callgrade/otlp"
)

type importOTLPFlags struct {
	traces, out, caseAttr string
}

func newImportOTLPCmd() *cobra.Command {
	var f importOTLPFlags
	cmd := &cobra.Command{
		Use:   "otlp --traces FILE --out RESPONSES [--case-attribute NAME]",
		Short: "Turn an OTLP/JSON trace export into a responses file, one response per case",
		Long: `Import reads a trace export of OTLP/JSON lines, one export object a line as an
OpenTelemetry collector's file exporter writes them (gzip-compressed or not;
- is standard input), and writes a responses file for callgrade score: one
{"id", "response"} line per case, whose response is the spans of its traces
as one export object, read as the otlp format (docs/formats.md, Traces).

The spans of a trace go together, whichever lines they come in. A trace names
its case by the attribute --case-attribute (callgrade.case.id by default) of
its root span; a trace without it is a case named by its trace id. Traces that
name the same case make one response. --case-attribute "" names every case by
its trace id.

Exit status: 0 on success, 2 when the file cannot be read, with a message
naming its line; nothing is written then.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runImportOTLP(cmd, &f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.traces, "traces", "", "trace export to read: OTLP/JSON lines, as a collector's file exporter writes them (- for standard input)")
	fl.StringVar(&f.out, "out", "", "responses file to write (JSON Lines; - for standard output)")
	fl.StringVar(&f.caseAttr, "case-attribute", otlp.CaseAttribute, `attribute of a trace's root span that names its case ("" for the trace id)`)
	return cmd
}

func runImportOTLP(cmd *cobra.Command, f *importOTLPFlags) error {
	if f.traces == "" || f.out == "" {
		return usageErr("import otlp needs --traces and --out")
	}
	if err := checkOutputs([]string{f.traces}, "out", outputFile(f.out)); err != nil {
		return err
	}
	var in io.Reader = cmd.InOrStdin()
	name := "standard input"
	if f.traces != "-" {
		file, err := os.Open(f.traces)
		if err != nil {
			return &exitError{code: 2, err: err}
		}
		defer file.Close()
		in, name = file, f.traces
	}
	var out bytes.Buffer
	responses, traces, err := otlp.ConvertTraces(in, name, &out, f.caseAttr)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	if err := writeOutput(cmd.OutOrStdout(), f.out, out.Bytes()); err != nil {
		return &exitError{code: 2, err: outputErr("out", f.out, err)}
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "%s: %s from %s\n", outputName(f.out), count(responses, "response"), count(traces, "trace"))
	return nil
}
