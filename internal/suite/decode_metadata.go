package suite

import (
	"maps"

	"github.com/callgrade/callgrade/internal/errcode"
	"github.com/callgrade/callgrade/value"
)

// metadata reads a case's or defaults' metadata: an object of names to a
// string, a number or a boolean. A name set to null is left out, as any
// optional key; nil when none is left.
func (d *dec) metadata(x value.Value, loc Loc) map[string]value.Value {
	if x.Kind() != value.Object {
		d.wrongKind(loc, "an object of names to strings, numbers or booleans", x)
		return nil
	}
	var out map[string]value.Value
	for _, m := range x.Members() {
		switch m.Value.Kind() {
		case value.Null:
			continue
		case value.String, value.Number, value.Bool:
		default:
			// A list or an object would have no one cell in the report's
			// column, nor one group.
			d.wrongKind(sub(loc, m.Key), "a string, a number or true or false", m.Value)
			continue
		}
		if m.Key == "" {
			d.fail(loc, errcode.InvalidValue, "a name must not be empty")
			continue
		}
		if out == nil {
			out = make(map[string]value.Value, len(x.Members()))
		}
		out[m.Key] = m.Value
	}
	return out
}

// MetadataOf returns c's metadata over defaults.metadata: a name the case
// gives takes the case's value. Nil when neither gives any. The map may be
// the case's or the defaults' own: it is not to be modified.
func (s *Suite) MetadataOf(c *Case) map[string]value.Value {
	switch {
	case len(s.Defaults.Metadata) == 0:
		return c.Metadata
	case len(c.Metadata) == 0:
		return s.Defaults.Metadata
	}
	out := maps.Clone(s.Defaults.Metadata)
	maps.Copy(out, c.Metadata)
	return out
}
