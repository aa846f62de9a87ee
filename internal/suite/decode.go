package suite

import (
	"hash/maphash"
	"strconv"

	"github.com/callgrade/callgrade/internal/errcode"
	"github.com/callgrade/callgrade/internal/jsonv"
	"github.com/callgrade/callgrade/value"
)

// The decoder is in files along a suite's own sections (docs/suite.md):
// decode_top.go the top level, decode_defaults.go defaults and the
// settings a case may override, decode_rules.go rules and rulesets,
// decode_plugins.go plugins, decode_tools.go tools and tools_file,
// decode_cases.go the cases, decode_calls.go their expected calls and
// alternatives, decode_steps.go an agent's run. decode_arena.go is where
// they all carve their keys, calls and rules from.

// dec decodes parts of a suite and collects the problems it finds. The
// cases are decoded by several decs at once, each with its own problems
// and memory; what they share they only read.
type dec struct {
	probs    []Problem
	keys     keyArena
	calls    []Call     // slab the Call slices are cut from
	rules    []PathRule // slab the RuleSet slices are cut from
	empty    value.Value
	rulesets map[string]RuleSet
	checkUse bool      // false when a file failed to load: a ruleset may be in it
	defCalls CallMatch // defaults.calls, which a case that names no mode is in

	toolsFiles []pendingTools // case tools_file, read after the cases
	syntax     []Problem      // of the JSON cases that failed to parse
	at         *locator       // places them, in one file, in order

	seed   maphash.Seed // hashes[g] is the hash of case g's id
	hashes []uint64     //

	scratchCalls []Call     // fastCase's buffers
	scratchRules []PathRule //
	slow         bool       // never take fastCase (for tests)

	// parser holds the arguments and object rules fastCase parses, which
	// live as long as the suite: it is never reset, so that a large
	// suite's hundreds of thousands of small objects and arrays are carved
	// out of a few large blocks instead of allocated one by one. It is the
	// dec's, not a pool's, so that when the suite is dropped (a service
	// reloading it) nothing keeps its blocks, and through them its file's
	// text, alive.
	parser value.Parser
}

func newDec() *dec {
	empty, _ := value.ObjectOf()
	return &dec{empty: empty, checkUse: true}
}

func (d *dec) fail(loc Loc, code errcode.Code, msg string) {
	d.probs = append(d.probs, Problem{Loc: loc, Msg: msg, Code: code})
}

func (d *dec) unknown(loc Loc, want string) {
	d.fail(loc, errcode.UnknownKey, "unknown key; want one of "+want)
}

func (d *dec) missing(loc Loc, key string) {
	d.fail(sub(loc, key), errcode.MissingKey, "required key is missing")
}

func (d *dec) wrongKind(loc Loc, want string, got value.Value) {
	d.fail(loc, errcode.WrongType, "must be "+want+", not "+kindName(got))
}

// sub returns loc with a key appended to its key path. It allocates, so
// it is for problems, not for the happy path.
func sub(loc Loc, key string) Loc {
	loc.Key = joinKey(loc.Key, key)
	return loc
}

// at returns loc with an index appended to its key path.
func at(loc Loc, i int) Loc {
	loc.Key = loc.Key + "[" + strconv.Itoa(i) + "]"
	return loc
}

// kindName names a value's kind with its article, for messages; a suite
// file's arrays are lists, as YAML calls them.
func kindName(v value.Value) string {
	if v.Kind() == value.Array {
		return "a list"
	}
	return jsonv.WithArticle(v.Kind())
}

// joinKey appends a key to a key path.
func joinKey(base, key string) string {
	if base == "" {
		return key
	}
	if key == "" {
		return base
	}
	return base + "." + key
}
