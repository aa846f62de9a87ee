package suite

import (
	"strconv"

	"github.com/callgrade/callgrade/internal/errcode"
	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

// The keys of defaults, for the message about an unknown one.
const defaultsKeys = "extra_fields, calls, null_is_missing, format, rules, metadata"

// decodeDefaults decodes defaults, what every case inherits; a file's
// defaults are merged with the earlier files' before they get here, and
// each problem names the file that wrote the key.
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
		case "metadata":
			out.Metadata = d.metadata(m.Value, mloc)
		default:
			d.unknown(mloc, defaultsKeys)
		}
	}
}

// extraFields, callMatch and format read the settings a case inherits
// from defaults and may override, for both.
func (d *dec) extraFields(x value.Value, loc Loc) ExtraFields {
	if x.Kind() == value.String {
		switch e := ExtraFields(x.Str()); e {
		case ExtraReject, ExtraAllow:
			return e
		}
		d.fail(loc, errcode.InvalidValue, "must be reject or allow, not "+strconv.Quote(x.Str()))
		return ""
	}
	d.wrongKind(loc, "reject or allow", x)
	return ""
}

func (d *dec) callMatch(x value.Value, loc Loc) CallMatch {
	if x.Kind() == value.String {
		switch c := CallMatch(x.Str()); c {
		case CallsOrdered, CallsUnordered, CallsSuperset, CallsSubset, CallsGreedy, CallsInOrder, CallsAny:
			return c
		}
		d.fail(loc, errcode.InvalidValue, "must be ordered, unordered, superset, subset, in_order, greedy or any, not "+strconv.Quote(x.Str()))
		return ""
	}
	d.wrongKind(loc, "ordered, unordered, superset, subset, in_order, greedy or any", x)
	return ""
}

// format reads a response format's name, as --format takes it.
func (d *dec) format(x value.Value, loc Loc) format.Format {
	if x.Kind() != value.String {
		d.wrongKind(loc, "a response format name", x)
		return format.Auto
	}
	f, err := format.Parse(x.Str())
	if err != nil {
		d.fail(loc, errcode.InvalidValue, err.Error())
	}
	return f
}
