package callgrade

import (
	"github.com/callgrade/callgrade/engine"
	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/value"
)

// The types below are aliases: each is the contract of the package that
// owns it, which the root hands on unchanged, so that a program on the
// common path (open a suite, score, read the verdicts) imports the root
// alone. A copy would have to be kept in step with its original and
// converted at every call, for nothing the root could add.

// Result is the verdict on one response: one line of the results file. It
// is results.Result.
type Result = results.Result

// Diff is one thing wrong with a response, in Result.Diffs. It is
// results.Diff; its Kind is a snake_case string such as "mismatch".
type Diff = results.Diff

// Summary totals a run: what Grader.Run and Grader.Merge return. It is
// results.Summary.
type Summary = results.Summary

// Suite is a suite as read, before it is compiled: what Load returns, New
// compiles and Grader.Suite hands back. It is opaque but for its number of
// cases (Len), its samples per case (Samples) and the plugins it declares
// (Plugins, for plugins.Open): the suite model is the module's own, and a
// program reads a suite through what it is for, such as report.Annotate,
// which adds each case's expected calls to its results. It is the
// internal suite reader's View.
type Suite = suite.View

// SuiteError is the error of a suite that does not load or compile
// (Open, New, Load): every problem at once. It is suite.Error.
type SuiteError = suite.Error

// Problem is one problem of a suite, with its file, key path and case: an
// entry of a SuiteError, or a warning (Grader.Warnings). It is
// suite.Problem.
type Problem = suite.Problem

// Format names a response format ("openai", "anthropic", …); the zero
// Format, auto, detects each response's by its shape. It is
// format.Format.
type Format = format.Format

// FormatInfo describes a value ParseFormat accepts, as Formats lists
// them. It is format.Info.
type FormatInfo = format.Info

// Limits bound each arguments string of a response, and a response
// document by its depth and its count of values (Options.Limits). It is
// value.Limits.
type Limits = value.Limits

// Shard is the output of one partial run (Grader.RunPartial) that
// Grader.Merge reads back. It is engine.Shard.
type Shard = engine.Shard

// MaxSamples is the most samples per case a suite or a run may ask for
// (RunOptions.Samples).
const MaxSamples = suite.MaxSamples

// DefaultMaxLineBytes is the longest response line a run reads when
// RunOptions.MaxLineBytes is zero: 256 MiB. A run holds about twice its
// longest line at once (the line and what is parsed or written from it,
// see docs/performance.md). The engine applies the same bound to a run
// given none, which its tests hold to this one.
const DefaultMaxLineBytes = 256 << 20

// Load reads suite files (layered in order, as Open does) without
// compiling them or starting their plugins, for a program that reports on
// a suite rather than scoring with it. Its error is a *SuiteError listing
// every problem of the files' shape; the Suite holding what did decode
// comes with it when the files parse.
func Load(files ...string) (*Suite, error) {
	s, err := suite.Load(files...)
	return suite.ViewOf(s), err
}

// Schema returns the JSON Schema (draft 2020-12) of a suite file, as
// docs/suite.schema.json holds it.
func Schema() []byte { return suite.Schema() }

// ParseFormat reads a format's name as --format takes it, ignoring case;
// "auto" and "" are the zero Format.
func ParseFormat(name string) (Format, error) { return format.Parse(name) }

// Formats lists auto and then every format a response may be in, in the
// order help texts list them.
func Formats() []FormatInfo { return format.All() }
