package suite

import (
	"strconv"

	"github.com/callgrade/callgrade/internal/errcode"
	"github.com/callgrade/callgrade/value"
)

// The keys of a tool, for the message about an unknown one.
const toolKeys = "name, description, parameters"

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
				d.fail(tloc, errcode.DuplicateTool, "duplicate tool "+strconv.Quote(t.Name)+" (first at "+prev+")")
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
			d.fail(sub(loc, "type"), errcode.InvalidValue, "must be function")
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
				d.fail(sub(fnLoc, m.Key), errcode.ConflictingKeys, "parameters and input_schema are both set; keep one")
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
			d.probs = append(d.probs, Problem{Loc: ref, Msg: "cannot read tools file " + name + ": " + ioMessage(err), Code: errcode.ReadFailed, Err: err})
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
			d.probs = append(d.probs, Problem{Loc: ref, Msg: "cannot read tools file " + name + ": " + ioMessage(err), Code: errcode.ReadFailed, Err: err})
			return nil
		}
		var probs []Problem
		if doc, probs = parseYAML(name, b); len(probs) > 0 {
			d.probs = append(d.probs, probs...)
			return nil
		}
	default:
		d.fail(ref, errcode.UnknownFormat, "a tools file must be .json, .yaml or .yml")
		return nil
	}
	if doc.Kind() != value.Array {
		d.fail(Loc{File: name}, errcode.WrongType, "a tools file must hold a list of tools, not "+kindName(doc))
		return nil
	}
	tf.tools = d.tools(doc, Loc{File: name})
	return tf.tools
}

type toolsFile struct{ tools []Tool }

// pendingTools is a case's tools_file, read once every case is decoded:
// a file is read once per Load (toolsFile), which the decoders, running
// at once, cannot share.
type pendingTools struct {
	c    *Case
	file *file
	rel  string
	loc  Loc
}
