package suite

import (
	"hash/maphash"
	"runtime"
	"strconv"
	"sync"

	"github.com/tidwall/gjson"

	"github.com/callgrade/callgrade/internal/errcode"
	"github.com/callgrade/callgrade/internal/idtable"
	"github.com/callgrade/callgrade/internal/prefault"
	"github.com/callgrade/callgrade/value"
)

// The keys of a case, for the message about an unknown one.
const caseKeys = "id, tools, tools_file, use, extra_fields, calls, null_is_missing, format, expected, alternatives, steps, never, max_calls, min_calls, final, final_text, metadata"

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
			l.probs = append(l.probs, Problem{Loc: loc, Msg: "must be a list of cases, not " + kindName(f.notList), Code: errcode.WrongType})
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
		d.defCalls = s.Defaults.Calls
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
			l.probs = append(l.probs, Problem{Loc: sub(c.Loc, "id"), Code: errcode.DuplicateCase,
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
				if d.at == nil || d.at.s != f.src {
					d.at = &locator{s: f.src}
				}
				d.syntax = append(d.syntax, jsonProblem(loc, d.at, int(sp.start), err))
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
				d.fail(sub(loc, "id"), errcode.InvalidValue, "must not be empty")
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
		case "metadata":
			c.Metadata = d.metadata(v, sub(loc, "metadata"))
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
				d.fail(sub(loc, "expected"), errcode.WrongType, "must be a call or a list of calls; write [] for a case that expects no call")
				continue
			}
			c.Expected = d.callList(v, loc, "expected")
		case "alternatives":
			c.Alternatives = d.alternatives(v, loc)
		case "steps", "never", "max_calls", "min_calls", "final", "final_text":
			d.runKey(c, m.Key, v, loc) // decode_steps.go
		default:
			d.unknown(sub(loc, m.Key), caseKeys)
		}
	}
	if !hasID {
		d.missing(loc, "id")
	}
	d.checkRunCase(c, x, hasExpected, loc) // decode_steps.go
	d.checkFinalText(c, x, loc)            // decode_steps.go
	d.checkBFCLReading(c, loc)             // decode_steps.go
	if mode, from := d.modeOf(c); mode == CallsAny {
		d.checkAnyCase(c, loc, from)
	} else if !hasExpected && !c.HasSteps() {
		d.fail(sub(loc, "expected"), errcode.MissingKey, "required key is missing; write [] for a case that expects no call")
	}
	if toolsFileKey {
		tloc := sub(loc, "tools_file")
		switch {
		case hasTools:
			d.fail(tloc, errcode.ConflictingKeys, "tools and tools_file are both set; keep one")
		case toolsFile.Kind() != value.String || toolsFile.Str() == "":
			d.wrongKind(tloc, "a file name", toolsFile)
		default:
			d.toolsFiles = append(d.toolsFiles, pendingTools{c: c, file: f, rel: toolsFile.Str(), loc: tloc})
		}
	}
}

// modeOf returns the calls mode case c is scored in, its own or the
// suite's default, and where that was written: "calls" or
// "defaults.calls".
func (d *dec) modeOf(c *Case) (CallMatch, string) {
	if c.Calls != "" {
		return c.Calls, "calls"
	}
	return d.defCalls, "defaults.calls"
}

// checkAnyCase rejects what a case in calls mode any cannot hold: expected
// calls, steps or alternatives, which that mode would ignore. from says
// where the mode was set.
func (d *dec) checkAnyCase(c *Case, loc Loc, from string) {
	why := func(key string) string {
		mode := "calls: any"
		if from != "calls" {
			mode += " (from " + from + ")"
		}
		return mode + " expects no particular call, so " + key + " must be empty or left out; " +
			"to require these calls and allow any others, write calls: superset"
	}
	if len(c.Expected) > 0 {
		d.fail(sub(loc, "expected"), errcode.ConflictingKeys, why("expected"))
	}
	if c.HasSteps() && len(c.Run.Steps) > 0 {
		d.fail(sub(loc, "steps"), errcode.ConflictingKeys, why("steps"))
	}
	if len(c.Alternatives) > 0 {
		d.fail(sub(loc, "alternatives"), errcode.ConflictingKeys, why("alternatives"))
	}
}
