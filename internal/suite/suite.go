// Package suite reads suite files: the cases, expected calls and rules that
// a user writes, in YAML, JSON or TOML, layered file over file.
//
// A Suite is data, checked for shape but not compiled: rules stay as the
// values the user wrote, each with the place it came from, so that the
// engine can compile them and still name the file, the key path and the
// case of anything wrong.
//
// # Reading and layering
//
// Each file is parsed straight to value.Value by a parser of this
// package's, so that numbers keep the exact text they were written with
// (9007199254740993 in JSON and 18446744073709551616 in YAML stay those
// numbers) and every problem has its line and column: JSON by
// value.Parse, YAML from yaml.v3's node tree, TOML from go-toml's decoder
// with each float's and date-time's text, and each problem's position,
// taken back from the file. The files' top levels are then layered as
// values (layer.go: a RULE replaces as a whole, tools and tools_file
// replace each other, defaults, rulesets and plugins merge key by key),
// remembering which file set each key. The cases are kept out of the
// layering: they concatenate rather than merge, and a JSON suite's are
// only delimited until they are decoded, so that a suite of hundreds of
// thousands of cases never exists twice in memory. The merged top level
// is decoded strictly, with every problem named by its file and key path
// (the decode_*.go files, one per section of a suite).
//
// koanf, which layered these files once, is not used here: its maps hold
// Go numbers and no positions, so every file went value → map → koanf →
// value for a merge this package had to define itself anyway. koanf
// layers the command's run configuration instead (cmd/callgrade,
// docs/configuration.md), which is what it is built for.
package suite

import (
	"strconv"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

// Suite is the merged content of one or more suite files.
type Suite struct {
	Version  int
	Tools    []Tool             // suite-wide tools; nil when none
	Defaults Defaults           // what every case inherits
	Rulesets map[string]RuleSet // named rule maps a case pulls in with `use`
	Plugins  map[string]Plugin  // out-of-process comparators by name
	Cases    []Case             // in file order, files in the order given
	Files    []string           // the files it was read from
	// ToolsFiles are the tools_file files those name, resolved, sorted;
	// nil when none. With Files, they are every file a change to which
	// changes the suite.
	ToolsFiles []string
	// Samples is the number of response lines each case has, told apart
	// by their "sample" (0 to Samples-1), when the suite says `samples:
	// n`; 0 when it does not (docs/trajectories.md, Samples).
	Samples int
}

// MaxSamples is the most samples per case a suite (or a run) may ask for.
const MaxSamples = 10000

// Defaults are the settings every case inherits unless it overrides them.
type Defaults struct {
	ExtraFields   ExtraFields // "reject" unless a file says otherwise
	Calls         CallMatch   // "ordered" unless a file says otherwise
	NullIsMissing bool
	// Format is the response format the cases' responses are in;
	// format.Auto (the default) detects each one's. A format that must
	// be named (a model's raw text) is set here once for a suite.
	Format format.Format
	Rules  RuleSet
	// Metadata is what every case's metadata starts from (see
	// Suite.MetadataOf); nil when none.
	Metadata map[string]value.Value
}

// ExtraFields says what happens to an argument the expected call does not name.
type ExtraFields string

// The values of extra_fields.
const (
	ExtraReject ExtraFields = "reject"
	ExtraAllow  ExtraFields = "allow"
)

// CallMatch says how a case's expected calls pair with the actual calls.
type CallMatch string

// The values of calls.
const (
	CallsOrdered   CallMatch = "ordered"   // same calls in the same order
	CallsUnordered CallMatch = "unordered" // same calls in any order
	CallsSuperset  CallMatch = "superset"  // the actual calls include the expected ones; more are allowed
	CallsSubset    CallMatch = "subset"    // every actual call is expected; expected ones may be missing
	CallsGreedy    CallMatch = "greedy"    // each expected call in order takes the first unused actual call that passes
	CallsInOrder   CallMatch = "in_order"  // the expected calls in this order; other calls may come between
	// CallsAny expects no particular call: every usable call is
	// tolerated, and the case is judged by its other keys (final, never,
	// max_calls, min_calls, asserts). Its expected calls, steps and
	// alternatives are empty.
	CallsAny CallMatch = "any"
)

// RuleSet is a list of PATH -> RULE entries, in the order written.
type RuleSet []PathRule

// PathRule is one PATH -> RULE entry with the place it was written.
type PathRule struct {
	Path string      // as written, e.g. "items.#.sku"
	Rule value.Value // a string shorthand or an object, as written
	Loc  Loc
}

// Loc names where something was written: the file, the key path inside it
// (such as "cases[3].expected[0].rules.cabins") and the case, if any.
// Line and Column (1-based) are set only for syntax errors, where there is
// no key path yet.
type Loc struct {
	File   string
	Key    string
	Case   string
	Line   int // 0 when unknown
	Column int // 0 when unknown
}

// String returns "file:line:column: key (case id)", leaving out what is
// unknown.
func (l Loc) String() string {
	s := l.File
	if l.Line > 0 {
		s += ":" + strconv.Itoa(l.Line)
		if l.Column > 0 {
			s += ":" + strconv.Itoa(l.Column)
		}
	}
	if l.Key != "" {
		if s != "" {
			s += ": "
		}
		s += l.Key
	}
	if l.Case != "" {
		s += " (case " + l.Case + ")"
	}
	return s
}

// Tool is one tool (function) definition, normalised from either the
// OpenAI {type: function, function: {...}} form or a bare function object.
type Tool struct {
	Name        string
	Description string
	Parameters  value.Value // a JSON Schema object; Null when the tool has none
	Loc         Loc
}

// Params maps each of ts that declares parameters to their JSON Schema,
// as response.Options.Params takes them (a text format types the
// parameters a model wrote out as text); nil when none does.
func Params(ts []Tool) map[string]value.Value {
	var out map[string]value.Value
	for i := range ts {
		if ts[i].Parameters.Kind() != value.Object {
			continue
		}
		if out == nil {
			out = make(map[string]value.Value, len(ts))
		}
		out[ts[i].Name] = ts[i].Parameters
	}
	return out
}

// Plugin declares an out-of-process comparator program.
type Plugin struct {
	Command []string // argv
	SHA256  string   // optional hex digest of the executable
	Timeout string   // optional per-request timeout, as a Go duration
	Loc     Loc
}

// Case is one test case.
type Case struct {
	ID            string
	Tools         []Tool        // nil: the suite's tools
	Use           []string      // rulesets applied in order
	ExtraFields   ExtraFields   // "": the default
	Calls         CallMatch     // "": the default
	NullIsMissing *bool         // nil: the default
	Format        format.Format // "": the default, unless FormatSet
	Expected      []Call        // empty: no call expected (in mode any, always empty: no particular call)
	Alternatives  [][]Call      // other acceptable lists of calls
	Loc           Loc           // the file and key path of the case, e.g. "cases[3]"
	// FormatSet says the case names its format even when Format is Auto:
	// an explicit `format: auto` detects each response's format whatever
	// defaults.format says (see FormatOf).
	FormatSet bool
	// Run holds what a case of an agent's run says of the whole run; nil
	// when the case has none of its keys, as most cases, which then do not
	// carry its fields (a suite may hold millions of cases).
	Run *Run
	// Metadata are the case's names and values (a string, a number or a
	// boolean each), for the report to show and group by; no verdict
	// reads them. Nil when the case has none; Suite.MetadataOf adds
	// defaults.metadata.
	Metadata map[string]value.Value
}

// FormatOf returns the response format c's responses are in: the case's
// own format when it names one, auto included, else defaults.format
// (format.Auto, which detects each response's, when neither says).
// A forced format (--format, engine.Options.Format) wins over both.
func (s *Suite) FormatOf(c *Case) format.Format {
	if c.Format != format.Auto || c.FormatSet {
		return c.Format
	}
	return s.Defaults.Format
}

// Run is what a case of an agent's run (docs/trajectories.md) says: the
// expected steps instead of Expected, and what the run must not do or
// say.
type Run struct {
	Steps    []Step  // non-nil (maybe empty) for a case written with `steps:`
	Never    []Never // calls that must not happen
	MaxCalls *int    // the most calls the run may make; nil when not given
	// MinCalls is the least number of calls the response or run must
	// make; 0 when not given. Unlike the other keys it does not make a
	// case a run: a plain response's calls are counted as they are.
	MinCalls int
	// Final is the RULE the run's final assistant text must pass; Null
	// when not given.
	Final    value.Value
	FinalLoc Loc
	// FinalText is which text of the run final judges (final_text);
	// "" is format.FinalJoined.
	FinalText format.FinalReading
}

// IsRun reports whether the case is scored as an agent's run: it has
// steps, or says what a run must not do (never, max_calls) or must end
// with (final).
func (c *Case) IsRun() bool {
	r := c.Run
	return r != nil && (r.Steps != nil || len(r.Never) > 0 || r.MaxCalls != nil || r.Final.Kind() != value.Null)
}

// HasSteps reports whether the case was written with `steps:`.
func (c *Case) HasSteps() bool { return c.Run != nil && c.Run.Steps != nil }

// Step is one expected step of a run: a call, and rules on what its tool
// returned.
type Step struct {
	Call
	// Result holds the PATH -> RULE entries on the tool's result.
	Result RuleSet
	// Error, when HasError, is what the tool's error flag must be
	// (`result: {error: false}`).
	Error    bool
	HasError bool
}

// Never is a call that must not happen: by name, or by name and
// arguments, which an actual call matches when each given argument
// passes under its rules (others are not looked at).
type Never struct {
	Name      string
	Arguments value.Value // an object; empty when only the name is given
	Rules     RuleSet
	Loc       Loc
}

// Call is one expected call.
type Call struct {
	Name      string
	Arguments value.Value // an object
	Rules     RuleSet
	Assert    []Assert
	Loc       Loc
}

// Assert is one call-level expression.
type Assert struct {
	Expr string
	Loc  Loc
}
