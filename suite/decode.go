package suite

import (
	"encoding/hex"
	"hash/maphash"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/tidwall/gjson"

	"github.com/callgrade/callgrade/internal/idtable"
	"github.com/callgrade/callgrade/internal/prefault"
	"github.com/callgrade/callgrade/response"
	"github.com/callgrade/callgrade/value"
)

// The keys each level of a suite accepts, for the message about an
// unknown one.
const (
	topKeys      = "version, tools, tools_file, defaults, rulesets, plugins, samples, cases"
	defaultsKeys = "extra_fields, calls, null_is_missing, format, rules"
	pluginKeys   = "command, sha256, timeout"
	caseKeys     = "id, tools, tools_file, use, extra_fields, calls, null_is_missing, format, expected, alternatives, steps, never, max_calls, final"
	callKeys     = "name, arguments, rules, assert"
	toolKeys     = "name, description, parameters"
)

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
	checkUse bool // false when a file failed to load: a ruleset may be in it

	toolsFiles []pendingTools // case tools_file, read after the cases
	syntax     []Problem      // of the JSON cases that failed to parse

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

type pendingTools struct {
	c    *Case
	file *file
	rel  string
	loc  Loc
}

func newDec() *dec {
	empty, _ := value.ObjectOf()
	return &dec{empty: empty, checkUse: true}
}

func (d *dec) fail(loc Loc, msg string) {
	d.probs = append(d.probs, Problem{Loc: loc, Msg: msg})
}

func (d *dec) unknown(loc Loc, want string) {
	d.fail(loc, "unknown key; want one of "+want)
}

func (d *dec) missing(loc Loc, key string) {
	d.fail(sub(loc, key), "required key is missing")
}

func (d *dec) wrongKind(loc Loc, want string, got value.Value) {
	d.fail(loc, "must be "+want+", not "+kindName(got))
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
	return v.Kind().WithArticle()
}

// keyArena builds key path strings in large shared blocks, so that the
// hundreds of thousands of Locs of a big suite cost a handful of
// allocations. A block is never written again once a string points into it.
type keyArena struct{ buf []byte }

func (a *keyArena) reserve(n int) int {
	if cap(a.buf)-len(a.buf) < n {
		a.buf = make([]byte, 0, max(n, 64<<10))
	}
	return len(a.buf)
}

func (a *keyArena) str(start int) string {
	if len(a.buf) == start {
		return ""
	}
	return unsafe.String(&a.buf[start], len(a.buf)-start)
}

// index returns base.name[i], or base[i] when name is "".
func (a *keyArena) index(base, name string, i int) string {
	start := a.reserve(len(base) + len(name) + 24)
	a.buf = append(a.buf, base...)
	if name != "" {
		if base != "" {
			a.buf = append(a.buf, '.')
		}
		a.buf = append(a.buf, name...)
	}
	a.buf = append(a.buf, '[')
	a.buf = strconv.AppendInt(a.buf, int64(i), 10)
	a.buf = append(a.buf, ']')
	return a.str(start)
}

// field returns base.name.
func (a *keyArena) field(base, name string) string {
	if base == "" {
		return name
	}
	if name == "" {
		return base
	}
	start := a.reserve(len(base) + len(name) + 1)
	a.buf = append(a.buf, base...)
	a.buf = append(a.buf, '.')
	a.buf = append(a.buf, name...)
	return a.str(start)
}

// field2 returns base.a.b.
func (a *keyArena) field2(base, k1, k2 string) string {
	start := a.reserve(len(base) + len(k1) + len(k2) + 2)
	if base != "" {
		a.buf = append(a.buf, base...)
		a.buf = append(a.buf, '.')
	}
	a.buf = append(a.buf, k1...)
	a.buf = append(a.buf, '.')
	a.buf = append(a.buf, k2...)
	return a.str(start)
}

// newCalls cuts n Calls from the slab.
func (d *dec) newCalls(n int) []Call {
	if cap(d.calls)-len(d.calls) < n {
		d.calls = prefault.Make[Call](max(n, 512))[:0]
	}
	s := d.calls[len(d.calls) : len(d.calls)+n : len(d.calls)+n]
	d.calls = d.calls[:len(d.calls)+n]
	return s
}

// newRules cuts n PathRules from the slab.
func (d *dec) newRules(n int) RuleSet {
	if cap(d.rules)-len(d.rules) < n {
		d.rules = prefault.Make[PathRule](max(n, 512))[:0]
	}
	s := d.rules[len(d.rules) : len(d.rules)+n : len(d.rules)+n]
	d.rules = d.rules[:len(d.rules)+n]
	return s
}

// decodeTop decodes the merged top level: everything but the cases.
func (l *loader) decodeTop(s *Suite, rest value.Value) {
	d := newDec()
	o := l.origin
	tools, hasTools := rest.Get("tools")
	hasTools = hasTools && !tools.IsNull()
	for _, m := range rest.Members() {
		x := m.Value
		loc := Loc{File: o(m.Key), Key: m.Key}
		if x.IsNull() {
			continue // an optional key left empty
		}
		switch m.Key {
		case "version":
			if x.Kind() != value.Number {
				d.wrongKind(loc, "the number 1", x)
			} else if value.CompareNumbers(x.Str(), "1") != 0 {
				d.fail(loc, "unsupported version "+x.Str()+"; this callgrade reads version 1")
			}
		case "tools":
			s.Tools = d.tools(x, loc)
		case "samples":
			s.Samples = d.samples(x, loc)
		case "tools_file":
			if hasTools {
				d.fail(loc, "tools and tools_file are both set; keep one")
				continue
			}
			if x.Kind() != value.String || x.Str() == "" {
				d.wrongKind(loc, "a file name", x)
				continue
			}
			s.Tools = l.toolsFile(d, x.Str(), l.fs.dir(loc.File), loc)
		case "defaults":
			l.decodeDefaults(d, &s.Defaults, x, loc)
		case "rulesets":
			if x.Kind() != value.Object {
				d.wrongKind(loc, "an object of named rule maps", x)
				continue
			}
			s.Rulesets = make(map[string]RuleSet, x.Len())
			for _, r := range x.Members() {
				rloc := Loc{File: o("rulesets", r.Key), Key: joinKey("rulesets", r.Key)}
				if r.Key == "" {
					d.fail(rloc, "a ruleset needs a name")
					continue
				}
				s.Rulesets[r.Key] = l.topRules(d, r.Value, rloc, "rulesets", r.Key)
			}
		case "plugins":
			if x.Kind() != value.Object {
				d.wrongKind(loc, "an object of named plugins", x)
				continue
			}
			s.Plugins = make(map[string]Plugin, x.Len())
			for _, p := range x.Members() {
				ploc := Loc{File: o("plugins", p.Key, "command"), Key: joinKey("plugins", p.Key)} // the file whose command starts it
				if p.Key == "" || strings.ContainsAny(p.Key, ".") {
					d.fail(ploc, "a plugin name must be non-empty and have no dot")
					continue
				}
				if pl, ok := d.plugin(p.Value, ploc, o); ok {
					s.Plugins[p.Key] = pl
				}
			}
		default:
			d.unknown(loc, topKeys)
		}
	}
	if s.Defaults.ExtraFields == "" {
		s.Defaults.ExtraFields = ExtraReject
	}
	if s.Defaults.Calls == "" {
		s.Defaults.Calls = CallsOrdered
	}
	l.probs = append(l.probs, d.probs...)
	l.rulesets = s.Rulesets
}

// samples reads `samples: n`, the number of response lines of each case:
// an integer from 1 to MaxSamples.
func (d *dec) samples(x value.Value, loc Loc) int {
	want := "an integer from 1 to " + strconv.Itoa(MaxSamples)
	if x.Kind() != value.Number {
		d.wrongKind(loc, want, x)
		return 0
	}
	n, err := strconv.Atoi(x.Str())
	if err != nil || n < 1 || n > MaxSamples {
		d.fail(loc, "must be "+want+", not "+x.Str())
		return 0
	}
	return n
}

func (l *loader) decodeDefaults(d *dec, out *Defaults, x value.Value, loc Loc) {
	if x.Kind() != value.Object {
		d.wrongKind(loc, "an object", x)
		return
	}
	for _, m := range x.Members() {
		mloc := Loc{File: l.origin("defaults", m.Key), Key: "defaults." + m.Key}
		if m.Value.IsNull() {
			continue
		}
		switch m.Key {
		case "extra_fields":
			out.ExtraFields = d.extraFields(m.Value, mloc)
		case "calls":
			out.Calls = d.callMatch(m.Value, mloc)
		case "null_is_missing":
			if m.Value.Kind() != value.Bool {
				d.wrongKind(mloc, "true or false", m.Value)
				continue
			}
			out.NullIsMissing = m.Value.Bool()
		case "format":
			out.Format = d.format(m.Value, mloc)
		case "rules":
			out.Rules = l.topRules(d, m.Value, mloc, "defaults", "rules")
		default:
			d.unknown(mloc, defaultsKeys)
		}
	}
}

// topRules decodes a PATH -> RULE map of the top level, each rule with the
// file that wrote it.
func (l *loader) topRules(d *dec, x value.Value, loc Loc, k1, k2 string) RuleSet {
	if x.IsNull() {
		return nil
	}
	if x.Kind() != value.Object {
		d.wrongKind(loc, "an object of PATH: RULE", x)
		return nil
	}
	rs := make(RuleSet, 0, x.Len())
	for _, m := range x.Members() {
		rloc := Loc{File: l.origin(k1, k2, m.Key), Key: loc.Key + "." + m.Key}
		if k := m.Value.Kind(); k != value.String && k != value.Object {
			d.wrongKind(rloc, "a rule (a string or an object)", m.Value)
			continue
		}
		rs = append(rs, PathRule{Path: m.Key, Rule: m.Value, Loc: rloc})
	}
	return rs
}

func (d *dec) extraFields(x value.Value, loc Loc) ExtraFields {
	if x.Kind() == value.String {
		switch e := ExtraFields(x.Str()); e {
		case ExtraReject, ExtraAllow:
			return e
		}
		d.fail(loc, "must be reject or allow, not "+strconv.Quote(x.Str()))
		return ""
	}
	d.wrongKind(loc, "reject or allow", x)
	return ""
}

func (d *dec) callMatch(x value.Value, loc Loc) CallMatch {
	if x.Kind() == value.String {
		switch c := CallMatch(x.Str()); c {
		case CallsOrdered, CallsUnordered, CallsSuperset, CallsSubset, CallsGreedy, CallsInOrder:
			return c
		}
		d.fail(loc, "must be ordered, unordered, superset, subset, in_order or greedy, not "+strconv.Quote(x.Str()))
		return ""
	}
	d.wrongKind(loc, "ordered, unordered, superset, subset, in_order or greedy", x)
	return ""
}

// format reads a response format's name, as --format takes it.
func (d *dec) format(x value.Value, loc Loc) response.Format {
	if x.Kind() != value.String {
		d.wrongKind(loc, "a response format name", x)
		return response.Auto
	}
	f, err := response.ParseFormat(x.Str())
	if err != nil {
		d.fail(loc, err.Error())
	}
	return f
}

func (d *dec) plugin(x value.Value, loc Loc, o func(...string) string) (Plugin, bool) {
	p := Plugin{Loc: loc}
	if x.Kind() != value.Object {
		d.wrongKind(loc, "an object", x)
		return p, false
	}
	name := strings.TrimPrefix(loc.Key, "plugins.")
	n := len(d.probs)
	hasCommand := false
	for _, m := range x.Members() {
		mloc := Loc{File: o("plugins", name, m.Key), Key: loc.Key + "." + m.Key}
		v := m.Value
		switch m.Key {
		case "command":
			hasCommand = true
			switch v.Kind() {
			case value.String:
				argv, err := splitCommand(v.Str())
				if err != nil {
					d.fail(mloc, err.Error())
					continue
				}
				p.Command = argv
			case value.Array:
				for i, a := range v.Elems() {
					if a.Kind() != value.String {
						d.wrongKind(at(mloc, i), "a string", a)
						continue
					}
					p.Command = append(p.Command, a.Str())
				}
			default:
				d.wrongKind(mloc, "a list of arguments or a command line", v)
				continue
			}
			if len(p.Command) == 0 || p.Command[0] == "" {
				d.fail(mloc, "the command is empty")
			}
		case "sha256":
			if v.IsNull() {
				continue
			}
			if v.Kind() != value.String {
				d.wrongKind(mloc, "a hex SHA-256 digest", v)
				continue
			}
			if b, err := hex.DecodeString(v.Str()); err != nil || len(b) != 32 {
				d.fail(mloc, "must be 64 hex digits, not "+strconv.Quote(v.Str()))
				continue
			}
			p.SHA256 = strings.ToLower(v.Str())
		case "timeout":
			if v.IsNull() {
				continue
			}
			if v.Kind() != value.String {
				d.wrongKind(mloc, "a duration such as 2s", v)
				continue
			}
			t, err := time.ParseDuration(v.Str())
			if err != nil || t <= 0 {
				d.fail(mloc, "must be a positive duration such as 2s or 500ms, not "+strconv.Quote(v.Str()))
				continue
			}
			p.Timeout = v.Str()
		default:
			d.unknown(mloc, pluginKeys)
		}
	}
	if !hasCommand {
		d.missing(loc, "command")
	}
	return p, len(d.probs) == n
}

// tools decodes a list of tool definitions. loc names the list.
func (d *dec) tools(x value.Value, loc Loc) []Tool {
	if x.Kind() != value.Array {
		d.wrongKind(loc, "a list of tools", x)
		return nil
	}
	out := make([]Tool, 0, x.Len())
	first := make(map[string]string, x.Len()) // name -> key of every named tool, valid or not
	for i, e := range x.Elems() {
		tloc := loc
		tloc.Key = d.keys.index(loc.Key, "", i)
		t, ok := d.tool(e, tloc)
		if t.Name != "" {
			if prev, dup := first[t.Name]; dup {
				d.fail(tloc, "duplicate tool "+strconv.Quote(t.Name)+" (first at "+prev+")")
				ok = false
			} else {
				first[t.Name] = tloc.Key
			}
		}
		if ok {
			out = append(out, t)
		}
	}
	return out
}

// tool decodes one tool: {type: function, function: {...}} as the OpenAI
// chat API writes it, {type: function, name, ...} as its Responses API
// does, or a bare {name, description, parameters}. input_schema, as the
// Anthropic API spells parameters, is accepted too.
func (d *dec) tool(x value.Value, loc Loc) (Tool, bool) {
	t := Tool{Loc: loc}
	if x.Kind() != value.Object {
		d.wrongKind(loc, "a tool object", x)
		return t, false
	}
	n := len(d.probs)
	fn, fnLoc := x, loc
	openai, nested := false, false
	if typ, ok := x.Get("type"); ok {
		openai = true
		if typ.Kind() != value.String || typ.Str() != "function" {
			d.fail(sub(loc, "type"), "must be function")
		}
		if f, ok := x.Get("function"); ok {
			for _, m := range x.Members() {
				if m.Key != "type" && m.Key != "function" {
					d.unknown(sub(loc, m.Key), "type, function")
				}
			}
			fn, fnLoc, nested = f, sub(loc, "function"), true
			if fn.Kind() != value.Object {
				d.wrongKind(fnLoc, "an object", fn)
				return t, false
			}
		}
	}
	hasName, hasParams := false, false
	for _, m := range fn.Members() {
		v := m.Value
		switch m.Key {
		case "name":
			hasName = true
			if v.Kind() != value.String || v.Str() == "" {
				d.wrongKind(sub(fnLoc, "name"), "a non-empty string", v)
				continue
			}
			t.Name = v.Str()
		case "description":
			if v.Kind() != value.String && !v.IsNull() {
				d.wrongKind(sub(fnLoc, "description"), "a string", v)
				continue
			}
			t.Description = v.Str()
		case "parameters", "input_schema":
			if hasParams {
				d.fail(sub(fnLoc, m.Key), "parameters and input_schema are both set; keep one")
				continue
			}
			hasParams = true
			if v.Kind() != value.Object && !v.IsNull() {
				d.wrongKind(sub(fnLoc, m.Key), "a JSON Schema object", v)
				continue
			}
			t.Parameters = v
		case "strict":
			if !openai {
				d.unknown(sub(fnLoc, m.Key), toolKeys)
			}
		case "type":
			if openai && !nested {
				continue // the Responses API form; checked above
			}
			d.unknown(sub(fnLoc, m.Key), toolKeys)
		default:
			d.unknown(sub(fnLoc, m.Key), toolKeys)
		}
	}
	if !hasName {
		d.missing(fnLoc, "name")
	}
	return t, len(d.probs) == n
}

// toolsFile reads a tools_file: a JSON or YAML list of tools. Each file is
// read once per Load; its problems are reported once, where it is first
// named.
func (l *loader) toolsFile(d *dec, rel, dir string, ref Loc) []Tool {
	name := l.fs.join(dir, rel)
	if tf, ok := l.tools[name]; ok {
		return tf.tools
	}
	tf := &toolsFile{}
	l.tools[name] = tf
	// A problem inside the file names the case that named the file (the
	// first, when several do), as a problem of its schemas does.
	start := len(d.probs)
	defer func() {
		for i := start; i < len(d.probs); i++ {
			if d.probs[i].Loc.Case == "" {
				d.probs[i].Loc.Case = ref.Case
			}
		}
	}()
	var doc value.Value
	switch formatOf(name) {
	case formatJSON:
		b, err := l.fs.read(name)
		if err != nil {
			d.probs = append(d.probs, Problem{Loc: ref, Msg: "cannot read tools file " + name + ": " + ioMessage(err), Err: err})
			return nil
		}
		src := string(b)
		if doc, err = parseJSON(src, 0); err != nil {
			d.probs = append(d.probs, jsonSyntaxProblem(name, src))
			return nil
		}
	case formatYAML:
		b, err := l.fs.read(name)
		if err != nil {
			d.probs = append(d.probs, Problem{Loc: ref, Msg: "cannot read tools file " + name + ": " + ioMessage(err), Err: err})
			return nil
		}
		var probs []Problem
		if doc, probs = parseYAML(name, b); len(probs) > 0 {
			d.probs = append(d.probs, probs...)
			return nil
		}
	default:
		d.fail(ref, "a tools file must be .json, .yaml or .yml")
		return nil
	}
	if doc.Kind() != value.Array {
		d.fail(Loc{File: name}, "a tools file must hold a list of tools, not "+kindName(doc))
		return nil
	}
	tf.tools = d.tools(doc, Loc{File: name})
	return tf.tools
}

type toolsFile struct{ tools []Tool }

// decodeAllCases decodes the cases of every file into s.Cases, on as many
// goroutines as there are CPUs for a large suite.
func (l *loader) decodeAllCases(s *Suite) {
	total := 0
	starts := make([]int, len(l.files)+1)
	for i, f := range l.files {
		starts[i] = total
		total += f.numCases()
		if f.hasBad {
			loc := Loc{File: f.name, Key: "cases"}
			l.probs = append(l.probs, Problem{Loc: loc, Msg: "must be a list of cases, not " + kindName(f.notList)})
		}
	}
	starts[len(l.files)] = total
	if total == 0 {
		return
	}
	s.Cases = make([]Case, total)
	seed, hashes := maphash.MakeSeed(), make([]uint64, total)
	workers := min(runtime.GOMAXPROCS(0), 1+total/4096, 16)
	decs := make([]*dec, workers)
	var wg sync.WaitGroup
	for w := range workers {
		d := newDec()
		d.rulesets, d.checkUse, d.slow = l.rulesets, !l.failed, l.slow
		d.seed, d.hashes = seed, hashes
		decs[w] = d
		lo, hi := total*w/workers, total*(w+1)/workers
		wg.Go(func() { d.decodeRange(l.files, starts, lo, hi, s.Cases) })
	}
	wg.Wait()

	var syntax []Problem
	for _, d := range decs {
		syntax = append(syntax, d.syntax...)
	}
	l.probs = append(syntax, l.probs...)
	td := newDec()
	for _, d := range decs {
		l.probs = append(l.probs, d.probs...)
		for _, p := range d.toolsFiles {
			p.c.Tools = l.toolsFile(td, p.rel, p.file.dir, p.loc)
		}
	}
	l.probs = append(l.probs, td.probs...)

	// Case ids are unique across all files, found with the hashes the
	// decoders computed.
	table := idtable.New(total, seed)
	for g := range s.Cases {
		c := &s.Cases[g]
		if c.ID == "" {
			continue
		}
		if k := table.Add(hashes[g], g, func(k int) bool { return s.Cases[k].ID == c.ID }); k >= 0 {
			p := s.Cases[k].Loc
			l.probs = append(l.probs, Problem{Loc: sub(c.Loc, "id"),
				Msg: "duplicate case id " + strconv.Quote(c.ID) + "; first at " + p.File + ": " + p.Key})
		}
	}
}

// decodeRange decodes the cases with global indexes lo to hi.
func (d *dec) decodeRange(files []*file, starts []int, lo, hi int, out []Case) {
	prefault.Touch(out[lo:hi])
	fi := 0
	for g := lo; g < hi; g++ {
		for g >= starts[fi+1] {
			fi++
		}
		f := files[fi]
		i := g - starts[fi]
		var v value.Value
		if f.raw != nil {
			sp := f.raw[i]
			if !d.slow && d.fastCase(f, i, f.src[sp.start:sp.end], &out[g]) {
				d.hashes[g] = maphash.String(d.seed, out[g].ID)
				continue
			}
			out[g] = Case{}
			var err error
			if v, err = parseJSON(f.src[sp.start:sp.end], 2); err != nil {
				// Each broken case is reported, at its place, with its
				// key and, when it can still be read, its id.
				loc := Loc{File: f.name, Key: d.keys.index("", "cases", i)}
				switch id := gjson.Get(f.src[sp.start:sp.end], "id"); id.Type {
				case gjson.String:
					loc.Case = id.Str
				case gjson.Number:
					loc.Case = id.Raw
				}
				d.syntax = append(d.syntax, jsonProblem(loc, f.src, int(sp.start), err))
				continue
			}
		} else {
			v = f.vals[i]
		}
		d.decodeCase(f, i, v, &out[g])
		d.hashes[g] = maphash.String(d.seed, out[g].ID)
	}
}

func (d *dec) decodeCase(f *file, i int, x value.Value, c *Case) {
	c.Loc = Loc{File: f.name, Key: d.keys.index("", "cases", i)}
	if x.Kind() != value.Object {
		d.wrongKind(c.Loc, "a case object", x)
		return
	}
	// An id is a string; a number (YAML's `id: 17`) counts as its text, as
	// written, so that a response line may name it either way.
	if id, ok := x.Get("id"); ok && (id.Kind() == value.String || id.Kind() == value.Number) {
		c.ID = id.Str()
		c.Loc.Case = c.ID
	}
	loc := c.Loc
	hasID, hasExpected, hasTools := false, false, false
	var toolsFile value.Value
	var toolsFileKey bool
	for _, m := range x.Members() {
		v := m.Value
		if v.IsNull() && m.Key != "id" && m.Key != "expected" {
			continue // an optional key left empty
		}
		switch m.Key {
		case "id":
			hasID = true
			if v.Kind() != value.String && v.Kind() != value.Number {
				d.wrongKind(sub(loc, "id"), "a string", v)
			} else if v.Str() == "" {
				d.fail(sub(loc, "id"), "must not be empty")
			}
		case "tools":
			hasTools = true
			tl := loc
			tl.Key = d.keys.field(loc.Key, "tools")
			c.Tools = d.tools(v, tl)
			if c.Tools == nil {
				c.Tools = []Tool{}
			}
		case "tools_file":
			toolsFile, toolsFileKey = v, true
		case "use":
			c.Use = d.use(v, sub(loc, "use"))
		case "extra_fields":
			c.ExtraFields = d.extraFields(v, sub(loc, "extra_fields"))
		case "calls":
			c.Calls = d.callMatch(v, sub(loc, "calls"))
		case "null_is_missing":
			if v.Kind() != value.Bool {
				d.wrongKind(sub(loc, "null_is_missing"), "true or false", v)
				continue
			}
			b := v.Bool()
			c.NullIsMissing = &b
		case "format":
			c.Format, c.FormatSet = d.format(v, sub(loc, "format")), true
		case "expected":
			hasExpected = true
			if v.IsNull() {
				d.fail(sub(loc, "expected"), "must be a call or a list of calls; write [] for a case that expects no call")
				continue
			}
			c.Expected = d.callList(v, loc, "expected")
		case "alternatives":
			c.Alternatives = d.alternatives(v, loc)
		case "steps", "never", "max_calls", "final":
			d.runKey(c, m.Key, v, loc) // steps.go
		default:
			d.unknown(sub(loc, m.Key), caseKeys)
		}
	}
	if !hasID {
		d.missing(loc, "id")
	}
	d.checkRunCase(c, x, hasExpected, loc) // steps.go
	if !hasExpected && !c.HasSteps() {
		d.fail(sub(loc, "expected"), "required key is missing; write [] for a case that expects no call")
	}
	if toolsFileKey {
		tloc := sub(loc, "tools_file")
		switch {
		case hasTools:
			d.fail(tloc, "tools and tools_file are both set; keep one")
		case toolsFile.Kind() != value.String || toolsFile.Str() == "":
			d.wrongKind(tloc, "a file name", toolsFile)
		default:
			d.toolsFiles = append(d.toolsFiles, pendingTools{c: c, file: f, rel: toolsFile.Str(), loc: tloc})
		}
	}
}

func (d *dec) use(x value.Value, loc Loc) []string {
	check := func(name string, l Loc) {
		if name == "" {
			d.fail(l, "must be a ruleset name")
		} else if _, ok := d.rulesets[name]; !ok && d.checkUse {
			d.fail(l, "no ruleset named "+strconv.Quote(name))
		}
	}
	switch x.Kind() {
	case value.String:
		check(x.Str(), loc)
		return []string{x.Str()}
	case value.Array:
		out := make([]string, 0, x.Len())
		for i, e := range x.Elems() {
			if e.Kind() != value.String {
				d.wrongKind(at(loc, i), "a ruleset name", e)
				continue
			}
			check(e.Str(), at(loc, i))
			out = append(out, e.Str())
		}
		return out
	}
	d.wrongKind(loc, "a list of ruleset names", x)
	return nil
}

// callList decodes `expected` or one alternative: a call object, or a list
// of them. parent is the Loc of what holds it, name its key ("" for an
// element of alternatives, whose index is already in parent). A call is
// addressed by its index even when written alone: cases[3].expected[0].
func (d *dec) callList(x value.Value, parent Loc, name string) []Call {
	switch x.Kind() {
	case value.Object: // one call, addressed as the first of a list
		calls := d.newCalls(1)
		loc := parent
		loc.Key = d.keys.index(parent.Key, name, 0)
		d.call(x, loc, &calls[0])
		return calls
	case value.Array:
		if x.Len() == 0 {
			return []Call{}
		}
		calls := d.newCalls(x.Len())
		for j, e := range x.Elems() {
			loc := parent
			loc.Key = d.keys.index(parent.Key, name, j)
			calls[j].Loc = loc
			if e.Kind() != value.Object {
				d.wrongKind(loc, "a call object", e)
				continue
			}
			d.call(e, loc, &calls[j])
		}
		return calls
	}
	d.wrongKind(sub(parent, name), "a call or a list of calls", x)
	return nil
}

func (d *dec) alternatives(x value.Value, parent Loc) [][]Call {
	if x.Kind() != value.Array {
		d.wrongKind(sub(parent, "alternatives"), "a list of alternatives, each a call or a list of calls", x)
		return nil
	}
	out := make([][]Call, x.Len())
	for j, e := range x.Elems() {
		loc := parent
		loc.Key = d.keys.index(parent.Key, "alternatives", j)
		out[j] = d.callList(e, loc, "")
	}
	return out
}

func (d *dec) call(x value.Value, loc Loc, c *Call) { d.callObject(x, loc, c, callKeys) }

// callObject decodes call object x into c, taking the keys that known
// lists (a never entry takes no assert); it reports whether x has a name.
func (d *dec) callObject(x value.Value, loc Loc, c *Call, known string) bool {
	c.Loc = loc
	c.Arguments = d.empty
	hasName := false
	for _, m := range x.Members() {
		v := m.Value
		switch m.Key {
		case "name":
			hasName = true
			if v.Kind() != value.String || v.Str() == "" {
				d.wrongKind(sub(loc, "name"), "a tool name", v)
				continue
			}
			c.Name = v.Str()
		case "arguments":
			switch v.Kind() {
			case value.Object:
				c.Arguments = v
			case value.Null: // no arguments
			default:
				d.wrongKind(sub(loc, "arguments"), "an object", v)
			}
		case "rules":
			c.Rules = d.callRules(v, loc)
		case "assert":
			if known != callKeys {
				d.unknown(sub(loc, m.Key), known)
				continue
			}
			c.Assert = d.asserts(v, loc)
		default:
			d.unknown(sub(loc, m.Key), known)
		}
	}
	if !hasName {
		d.missing(loc, "name")
	}
	return hasName
}

// callRules decodes a call's PATH -> RULE map, keeping each rule as written.
func (d *dec) callRules(x value.Value, call Loc) RuleSet {
	switch x.Kind() {
	case value.Null:
		return nil
	case value.Object:
	default:
		d.wrongKind(sub(call, "rules"), "an object of PATH: RULE", x)
		return nil
	}
	if x.Len() == 0 {
		return nil
	}
	rs := d.newRules(x.Len())
	n := 0
	for _, m := range x.Members() {
		loc := call
		loc.Key = d.keys.field2(call.Key, "rules", m.Key)
		if k := m.Value.Kind(); k != value.String && k != value.Object {
			d.wrongKind(loc, "a rule (a string or an object)", m.Value)
			continue
		}
		rs[n] = PathRule{Path: m.Key, Rule: m.Value, Loc: loc}
		n++
	}
	return rs[:n]
}

func (d *dec) asserts(x value.Value, call Loc) []Assert {
	var elems []value.Value
	switch x.Kind() {
	case value.Null:
		return nil
	case value.String:
		elems = []value.Value{x}
	case value.Array:
		elems = x.Elems()
	default:
		d.wrongKind(sub(call, "assert"), "a list of expressions", x)
		return nil
	}
	out := make([]Assert, 0, len(elems))
	for j, e := range elems {
		loc := call
		loc.Key = d.keys.index(call.Key, "assert", j)
		if e.Kind() != value.String || strings.TrimSpace(e.Str()) == "" {
			d.wrongKind(loc, "a non-empty expression string", e)
			continue
		}
		out = append(out, Assert{Expr: e.Str(), Loc: loc})
	}
	return out
}
