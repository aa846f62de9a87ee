package suite

import (
	"strconv"

	"github.com/callgrade/callgrade/internal/errcode"
	"github.com/callgrade/callgrade/internal/number"
	"github.com/callgrade/callgrade/value"
)

// The keys of the top level, for the message about an unknown one.
const topKeys = "version, tools, tools_file, defaults, rulesets, plugins, samples, cases"

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
			} else if number.Compare(x.Str(), "1") != 0 {
				d.fail(loc, errcode.InvalidValue, "unsupported version "+x.Str()+"; this callgrade reads version 1")
			}
		case "tools":
			s.Tools = d.tools(x, loc)
		case "samples":
			s.Samples = d.samples(x, loc)
		case "tools_file":
			if hasTools {
				d.fail(loc, errcode.ConflictingKeys, "tools and tools_file are both set; keep one")
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
			l.decodeRulesets(d, &s.Rulesets, x, loc)
		case "plugins":
			l.decodePlugins(d, &s.Plugins, x, loc)
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
		d.fail(loc, errcode.InvalidValue, "must be "+want+", not "+x.Str())
		return 0
	}
	return n
}
