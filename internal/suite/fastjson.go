package suite

import (
	"github.com/callgrade/callgrade/internal/jsontext"
	"github.com/callgrade/callgrade/value"
)

// fastCase decodes one case of a JSON suite straight from its text, for
// the common shape of large generated suites: id, expected (calls of name,
// arguments and rules), extra_fields, calls and metadata, keys and strings in plain
// ASCII. Only arguments and object rules go through value.Parse; nothing
// else becomes a Value. It reports false, having written to c, when the
// case holds anything else or anything wrong; the caller then decodes the
// case the general way, which also finds and reports what is wrong.
func (d *dec) fastCase(f *file, i int, s string, c *Case) bool {
	p := scanner{s: s, arena: &d.parser}
	c.Loc = Loc{File: f.name, Key: d.keys.index("", "cases", i)}
	var seen uint8
	const (
		seenID = 1 << iota
		seenExpected
		seenExtra
		seenCalls
		seenMeta
	)
	ok := p.members(func(key string) bool {
		switch key {
		case "id":
			if seen&seenID != 0 {
				return false
			}
			seen |= seenID
			id, ok := p.str()
			c.ID = id
			return ok && id != ""
		case "expected":
			if seen&seenExpected != 0 {
				return false
			}
			seen |= seenExpected
			return d.fastExpected(&p, c)
		case "extra_fields":
			if seen&seenExtra != 0 {
				return false
			}
			seen |= seenExtra
			v, ok := p.str()
			c.ExtraFields = ExtraFields(v)
			return ok && (c.ExtraFields == ExtraReject || c.ExtraFields == ExtraAllow)
		case "calls":
			if seen&seenCalls != 0 {
				return false
			}
			seen |= seenCalls
			v, ok := p.str()
			switch c.Calls = CallMatch(v); c.Calls {
			case CallsOrdered, CallsUnordered, CallsSuperset, CallsSubset:
				return ok
			}
			return false
		case "metadata":
			if seen&seenMeta != 0 || p.peek() != '{' {
				return false
			}
			seen |= seenMeta
			v, ok := p.value(1)
			if !ok {
				return false
			}
			// What is wrong is reported by the general way.
			n := len(d.probs)
			c.Metadata = d.metadata(v, c.Loc)
			if len(d.probs) > n {
				d.probs = d.probs[:n]
				return false
			}
			return true
		}
		return false
	})
	if !ok || p.end() != len(s) || seen&(seenID|seenExpected) != seenID|seenExpected {
		return false
	}
	if c.Calls == "" && d.defCalls == CallsAny && len(c.Expected) > 0 {
		return false // the general way says what is wrong with it
	}
	// The id may come after the calls: name the case in their Locs now.
	c.Loc.Case = c.ID
	for j := range c.Expected {
		call := &c.Expected[j]
		call.Loc.Case = c.ID
		for k := range call.Rules {
			call.Rules[k].Loc.Case = c.ID
		}
	}
	return true
}

// fastExpected decodes `expected`: one call or a list of calls.
func (d *dec) fastExpected(p *scanner, c *Case) bool {
	switch p.peek() {
	case '{':
		calls := d.newCalls(1)
		calls[0].Loc = Loc{File: c.Loc.File, Key: d.keys.index(c.Loc.Key, "expected", 0)}
		c.Expected = calls
		return d.fastCall(p, &calls[0], 4)
	case '[':
		p.i++
		scratch := d.scratchCalls[:0]
		if p.peek() == ']' {
			p.i++
			c.Expected = []Call{}
			return true
		}
		for n := 0; ; n++ {
			scratch = append(scratch, Call{Loc: Loc{File: c.Loc.File, Key: d.keys.index(c.Loc.Key, "expected", n)}})
			if p.peek() != '{' || !d.fastCall(p, &scratch[n], 5) {
				d.scratchCalls = scratch[:0]
				return false
			}
			if p.peek() == ',' {
				p.i++
				continue
			}
			if p.peek() == ']' {
				p.i++
				break
			}
			d.scratchCalls = scratch[:0]
			return false
		}
		c.Expected = d.newCalls(len(scratch))
		copy(c.Expected, scratch)
		clear(scratch)
		d.scratchCalls = scratch[:0]
		return true
	}
	return false
}

// fastCall decodes a call object at p, at nesting depth in the document
// (the document's object is at depth 1).
func (d *dec) fastCall(p *scanner, c *Call, depth int) bool {
	c.Arguments = d.empty
	hasName, hasArgs, hasRules := false, false, false
	ok := p.members(func(key string) bool {
		switch key {
		case "name":
			if hasName {
				return false
			}
			hasName = true
			name, ok := p.str()
			c.Name = name
			return ok && name != ""
		case "arguments":
			if hasArgs || p.peek() != '{' {
				return false
			}
			hasArgs = true
			v, ok := p.value(depth)
			c.Arguments = v
			return ok
		case "rules":
			if hasRules || p.peek() != '{' {
				return false
			}
			hasRules = true
			return d.fastRules(p, c, depth+1)
		}
		return false
	})
	return ok && hasName
}

// fastRules decodes a call's rules, an object at depth: PATH -> a string
// or an object.
func (d *dec) fastRules(p *scanner, c *Call, depth int) bool {
	scratch := d.scratchRules[:0]
	defer func() {
		clear(scratch)
		d.scratchRules = scratch[:0]
	}()
	ok := p.members(func(path string) bool {
		var rule value.Value
		switch p.peek() {
		case '"':
			s, ok := p.str()
			if !ok {
				return false
			}
			rule = value.StringOf(s)
		case '{':
			v, ok := p.value(depth)
			if !ok {
				return false
			}
			rule = v
		default:
			return false
		}
		// Sorted by path, as value.Parse sorts object members.
		j := len(scratch)
		scratch = append(scratch, PathRule{})
		for ; j > 0 && scratch[j-1].Path >= path; j-- {
			if scratch[j-1].Path == path {
				return false
			}
			scratch[j] = scratch[j-1]
		}
		scratch[j] = PathRule{Path: path, Rule: rule}
		return true
	})
	if !ok {
		return false
	}
	if len(scratch) == 0 {
		return true
	}
	c.Rules = d.newRules(len(scratch))
	for k, r := range scratch {
		r.Loc = Loc{File: c.Loc.File, Key: d.keys.field2(c.Loc.Key, "rules", r.Path)}
		c.Rules[k] = r
	}
	return true
}

// scanner reads JSON text for fastCase. Its methods report false for
// anything they do not handle, valid or not.
type scanner struct {
	s     string
	i     int
	arena *value.Parser // where value parses into, never reset
}

// peek returns the next byte after blanks, 0 at the end.
func (p *scanner) peek() byte {
	p.i = skipSpace(p.s, p.i)
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *scanner) end() int { return skipSpace(p.s, p.i) }

// str reads a string literal of printable ASCII without escapes, which is
// its own text.
func (p *scanner) str() (string, bool) {
	if p.peek() != '"' {
		return "", false
	}
	s := p.s
	for j := p.i + 1; j < len(s); j++ {
		switch c := s[j]; {
		case c == '"':
			out := s[p.i+1 : j]
			p.i = j + 1
			return out, true
		case c < 0x20 || c >= 0x80 || c == '\\':
			return "", false
		}
	}
	return "", false
}

// value parses the value at p with value.Parse, as the depth limit counts
// for a value inside a container at depth.
func (p *scanner) value(depth int) (value.Value, bool) {
	start := skipSpace(p.s, p.i)
	end := skipValue(p.s, start)
	text := p.s[start:end]
	v, err := p.arena.Parse(text, value.Limits{MaxDepth: jsontext.DefaultMaxDepth - depth, MaxBytes: len(text) + 1})
	if err != nil {
		return value.Value{}, false
	}
	p.i = end
	return v, true
}

// members reads an object, calling member with each key, positioned at
// the key's value, which member must read.
func (p *scanner) members(member func(key string) bool) bool {
	if p.peek() != '{' {
		return false
	}
	p.i++
	if p.peek() == '}' {
		p.i++
		return true
	}
	for {
		key, ok := p.str()
		if !ok || p.peek() != ':' {
			return false
		}
		p.i++
		if !member(key) {
			return false
		}
		switch p.peek() {
		case ',':
			p.i++
		case '}':
			p.i++
			return true
		default:
			return false
		}
	}
}
