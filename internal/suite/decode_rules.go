package suite

import (
	"strconv"

	"github.com/callgrade/callgrade/internal/errcode"
	"github.com/callgrade/callgrade/value"
)

// decodeRulesets decodes the top level's rulesets, the named PATH -> RULE
// maps a case pulls in with use.
func (l *loader) decodeRulesets(d *dec, out *map[string]RuleSet, x value.Value, loc Loc) {
	if x.Kind() != value.Object {
		d.wrongKind(loc, "an object of named rule maps", x)
		return
	}
	*out = make(map[string]RuleSet, x.Len())
	for _, r := range x.Members() {
		rloc := Loc{File: l.origin("rulesets", r.Key), Key: joinKey("rulesets", r.Key)}
		if r.Key == "" {
			d.fail(rloc, errcode.InvalidValue, "a ruleset needs a name")
			continue
		}
		(*out)[r.Key] = l.topRules(d, r.Value, rloc, "rulesets", r.Key)
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

func (d *dec) use(x value.Value, loc Loc) []string {
	check := func(name string, l Loc) {
		if name == "" {
			d.fail(l, errcode.InvalidValue, "must be a ruleset name")
		} else if _, ok := d.rulesets[name]; !ok && d.checkUse {
			d.fail(l, errcode.UnknownRuleset, "no ruleset named "+strconv.Quote(name))
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
