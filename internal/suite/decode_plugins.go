package suite

import (
	"encoding/hex"
	"strconv"
	"strings"
	"time"

	"github.com/callgrade/callgrade/internal/errcode"
	"github.com/callgrade/callgrade/value"
)

// The keys of a plugin, for the message about an unknown one.
const pluginKeys = "command, sha256, timeout"

// decodePlugins decodes the top level's plugins, each by its name, which
// a rule's plugin: names as NAME.COMPARATOR.
func (l *loader) decodePlugins(d *dec, out *map[string]Plugin, x value.Value, loc Loc) {
	if x.Kind() != value.Object {
		d.wrongKind(loc, "an object of named plugins", x)
		return
	}
	*out = make(map[string]Plugin, x.Len())
	for _, p := range x.Members() {
		ploc := Loc{File: l.origin("plugins", p.Key, "command"), Key: joinKey("plugins", p.Key)} // the file whose command starts it
		if p.Key == "" || strings.ContainsAny(p.Key, ".") {
			d.fail(ploc, errcode.InvalidValue, "a plugin name must be non-empty and have no dot")
			continue
		}
		if pl, ok := d.plugin(p.Value, ploc, l.origin); ok {
			(*out)[p.Key] = pl
		}
	}
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
					d.fail(mloc, errcode.InvalidValue, err.Error())
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
				d.fail(mloc, errcode.InvalidValue, "the command is empty")
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
				d.fail(mloc, errcode.InvalidValue, "must be 64 hex digits, not "+strconv.Quote(v.Str()))
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
				d.fail(mloc, errcode.InvalidValue, "must be a positive duration such as 2s or 500ms, not "+strconv.Quote(v.Str()))
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
