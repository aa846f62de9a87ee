package engine

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/callgrade/callgrade/internal/rulecore"
	"github.com/callgrade/callgrade/internal/schema"
	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/internal/words"
	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/value"
)

// tool is a tool definition compiled for scoring: its JSON Schema, and
// what the schema implies for the rules (spec 1.2).
type tool struct {
	name    string
	schema  *schema.Schema // nil when the tool declares no parameters
	implied []impliedRule
	// unexpected and noCall are the messages of a call to the tool that
	// pairs with no expected call (unexpectedCallMessage), and missing
	// that of an expected call to it that pairs with no call
	// (matcher.writeMissing), written once: a model's wrong calls are
	// mostly to the tools it was given, or none.
	unexpected, noCall, missing string
}

// impliedRule is what the schema implies at one path: a rule (numeric, a
// default, or both), and whether the field is declared without being
// required, so that the actual call may give it where the expected call
// leaves it out.
type impliedRule struct {
	path    rulecore.Path
	rule    *rulecore.Rule // nil: none
	declare bool
}

func (c *compiler) compileTools(ts []suite.Tool, caseID string) map[string]*tool {
	out := make(map[string]*tool, len(ts))
	for i := range ts {
		t, err := c.compileTool(&ts[i])
		if err != nil {
			c.problem(ts[i].Loc, caseID, err.Error())
			continue
		}
		out[t.name] = t
	}
	return out
}

// compileTool compiles st, or returns the tool compiled before from the
// same name and parameters: a compiled tool is only read once built.
func (c *compiler) compileTool(st *suite.Tool) (*tool, error) {
	key := st.Name + "\x00" + st.Parameters.String()
	if t := c.toolCache[key]; t != nil {
		return t, nil
	}
	t, err := compileTool(st)
	if err == nil {
		c.toolCache[key] = t
	}
	return t, err
}

func compileTool(st *suite.Tool) (*tool, error) {
	t := &tool{name: st.Name}
	if st.Name != "" {
		t.unexpected, t.noCall = "unexpected call to "+st.Name, "expected no call, got a call to "+st.Name
		t.missing = missingCallMessage(st.Name)
	}
	params := st.Parameters
	if params.Kind() == value.Null {
		return t, nil
	}
	if params.Kind() != value.Object {
		return nil, fmt.Errorf("tool %s: parameters must be a JSON Schema object, not %s", st.Name, params.Kind())
	}
	sch, err := schema.Compile(st.Name, params)
	if err != nil {
		return nil, fmt.Errorf("tool %s: %w", st.Name, err)
	}
	t.schema = sch
	rulesBySpec := map[string]*rulecore.Rule{}
	for _, im := range sch.Implications() {
		p, err := rulecore.ParsePath(pathText(im.Path))
		if err != nil {
			return nil, fmt.Errorf("tool %s: parameter %s: %w", st.Name, pathText(im.Path), err)
		}
		ir := impliedRule{path: p, declare: im.Optional}
		var spec []value.Member
		if im.Numeric {
			spec = append(spec, value.Member{Key: "numeric", Value: value.BoolOf(true)})
		}
		if im.HasDefault {
			spec = append(spec, value.Member{Key: "default", Value: im.Default})
		}
		if len(spec) > 0 {
			obj, _ := value.ObjectOf(spec...) // two distinct keys
			k := obj.String()
			if ir.rule = rulesBySpec[k]; ir.rule == nil {
				if ir.rule, err = rulecore.Compile(obj, rules.Extensions{}); err != nil {
					return nil, fmt.Errorf("tool %s: parameter %s: %w", st.Name, pathText(im.Path), err)
				}
				rulesBySpec[k] = ir.rule
			}
		}
		t.implied = append(t.implied, ir)
	}
	return t, nil
}

// pathText writes a schema path as a rule PATH.
func pathText(steps []schema.Step) string {
	var b strings.Builder
	for i, s := range steps {
		if i > 0 {
			b.WriteByte('.')
		}
		if s.Items {
			b.WriteByte('#')
		} else {
			b.WriteString(rulecore.EscapeKey(s.Key))
		}
	}
	return b.String()
}

// implyRules adds to set what the schema implies, at the lowest
// precedence: numeric for number fields, default where the schema has one,
// and declarations of the fields not required, at every depth.
func (t *tool) implyRules(set *rulecore.Set) {
	for _, ir := range t.implied {
		if ir.rule != nil {
			set.Add(rulecore.LevelSchema, ir.path, ir.rule)
		}
		if ir.declare {
			set.Declare(ir.path)
		}
	}
}

// validate checks actual arguments against the tool's schema, after the
// coercions it implies, and appends one diff per violation, worded in
// w's memory (w may be nil).
func (t *tool) validate(args value.Value, c schema.Check, call int, dst []results.Diff, w *work) []results.Diff {
	if t == nil || t.schema == nil {
		return dst
	}
	vs := t.schema.Validate(nil, args, c) // in c.Scratch's memory, when it has one
	ws := w.arena()
	for _, v := range vs {
		d := results.Diff{Kind: results.Schema, Rule: "schema", Path: instancePath(v.Path, ws), Call: call}
		if d.Path == "" {
			d.Message = ws.Join("schema: ", v.Message)
		} else {
			d.Message = ws.Join(d.Path, ": ", v.Message)
			if x, ok := lookup(args, v.Path); ok {
				d.Actual, d.HasActual = x, true
			}
		}
		dst = append(dst, d)
	}
	return dst
}

// instancePath writes a violation's location as a PATH, in ws (see
// work.arena).
func instancePath(loc []string, ws *words.Arena) string {
	if len(loc) == 1 {
		return rulecore.EscapeKey(loc[0]) // an argument: no list to join
	}
	var room [64]byte
	b := room[:0]
	for i, s := range loc {
		if i > 0 {
			b = append(b, '.')
		}
		b = rulecore.AppendKey(b, s)
	}
	return ws.String(b)
}

func lookup(v value.Value, loc []string) (value.Value, bool) {
	for _, k := range loc {
		switch v.Kind() {
		case value.Object:
			var ok bool
			if v, ok = v.Get(k); !ok {
				return value.Value{}, false
			}
		case value.Array:
			i, err := strconv.Atoi(k)
			if err != nil || i < 0 || i >= v.Len() {
				return value.Value{}, false
			}
			v = v.Elems()[i]
		default:
			return value.Value{}, false
		}
	}
	return v, true
}
