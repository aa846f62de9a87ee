package main

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/callgrade/callgrade"
)

// runPartial is score --partial: the lines of a part of the responses,
// for merge (docs/scale.md). To standard output or a pipe they are
// written as they are scored, so that a worker that writes lines into a
// long-lived callgrade and reads their results back never waits on it; a
// regular --out file is replaced only when the run completes, as score's.
func runPartial(ctx context.Context, cmd *cobra.Command, f *scoreFlags, c *callgrade.Grader, samples int) error {
	for _, name := range []string{"junit", "html", "fail-under"} {
		if cmd.Flags().Changed(name) {
			return usageErr("--%s does not go with --partial: give it to callgrade merge, which has every part", name)
		}
	}
	var in io.Reader = os.Stdin
	name := "<stdin>"
	if f.responses != "-" {
		file, err := os.Open(f.responses)
		if err != nil {
			return &exitError{code: 2, err: err}
		}
		defer file.Close()
		in, name = file, f.responses
	}
	out := outputTarget(f.out)
	var w io.Writer = cmd.OutOrStdout()
	var tmp *os.File
	switch {
	case out != "" && isFileOrAbsent(out):
		var err error
		if tmp, err = os.CreateTemp(filepath.Dir(out), ".callgrade-partial-*"); err != nil {
			return &exitError{code: 2, err: outputErr("out", f.out, err)}
		}
		defer os.Remove(tmp.Name())
		defer tmp.Close()
		w = tmp
	case out != "":
		file, err := os.OpenFile(out, os.O_WRONLY, 0)
		if err != nil {
			return &exitError{code: 2, err: outputErr("out", f.out, err)}
		}
		defer file.Close()
		w = file
	}
	err := c.RunPartial(ctx, in, w, callgrade.RunOptions{Name: name, Workers: f.workers, Samples: graderSamples(samples), MaxLineBytes: f.maxLine})
	switch {
	case err != nil && ctx.Err() != nil && cmd.Context().Err() == nil:
		return &exitError{code: stopStatus(ctx), err: errors.New(interruptedBy(ctx))}
	case errors.Is(err, syscall.EPIPE):
		return &exitError{code: 128 + 13, err: err, quiet: true}
	case err != nil && tmp != nil:
		return &exitError{code: 2, err: tmpErr(err, tmp.Name(), f.out)}
	case err != nil:
		return &exitError{code: 2, err: err}
	}
	if tmp != nil {
		if err := tmp.Close(); err != nil {
			return &exitError{code: 2, err: outputErr("out", f.out, err)}
		}
		if err := place(tmp.Name(), out); err != nil {
			return &exitError{code: 2, err: outputErr("out", f.out, err)}
		}
	}
	return nil
}

// graderSamples is the RunOptions.Samples that makes a Grader use samples
// per case, which are already the suite's or --samples: the Grader reads 0
// as the suite's and a negative number as none.
func graderSamples(samples int) int {
	if samples == 0 {
		return -1
	}
	return samples
}
