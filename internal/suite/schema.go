package suite

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/internal/rulecore"

	"github.com/callgrade/callgrade/internal/errcode"
	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/value"
)

// docs/suite.schema.json is Schema's output; TestSchemaFile fails when it
// is not, and rewrites it with -update.
//go:generate go test -run ^TestSchemaFile$ -update .

// Schema returns the JSON Schema (draft 2020-12) of one suite file, as
// indented JSON ending in a newline: what editors complete and check a
// suite with (docs/suite.md, Editing with a schema).
//
// It is generated from the decoder's own tables, so that it cannot drift
// from what Load accepts: the keys of each level are the lists the
// decoder names in its "unknown key" message (topKeys, caseKeys, ...),
// each level is closed (additionalProperties: false) as the decoder is,
// a response format is one of format.All, and a RULE is a
// shorthand or an object of the properties that rulecore.Compile names in
// its own messages. Generating panics when a list names a key this file
// has no schema for, or the other way round, so that a key added to the
// decoder cannot be forgotten here.
//
// The schema checks one file on its own: a file layered over another
// (docs/suite.md, Layering several files) is checked as it is written.
// It checks the shape of each value, not everything Load and the engine
// check: a ruleset that use names exists, a case id is unique, a regex
// compiles, a rule's properties combine.
func Schema() []byte {
	b, err := json.MarshalIndent(schemaDoc(), "", "  ")
	if err != nil {
		panic("suite: schema: " + err.Error())
	}
	return append(b, '\n')
}

type obj = map[string]any

// keyList splits a decoder table ("a, b, c") into its keys.
func keyList(keys string) []string { return strings.Split(keys, ", ") }

// closed returns an object schema with exactly the keys of the table,
// each described by defs, which must describe every one of them and no
// other.
func closed(table string, keys []string, defs map[string]any) obj {
	props := obj{}
	for _, k := range keys {
		s, ok := defs[k]
		if !ok {
			panic("suite: schema: no schema for key " + k + " of " + table)
		}
		props[k] = s
	}
	if len(props) != len(defs) {
		for k := range defs {
			if _, ok := props[k]; !ok {
				panic("suite: schema: key " + k + " is not in " + table)
			}
		}
	}
	return obj{"type": "object", "properties": props, "additionalProperties": false}
}

// orNull lets a key be null, which the decoder takes as left out.
func orNull(s obj) obj { return obj{"anyOf": []any{s, obj{"type": "null"}}} }

func ref(name string) obj { return obj{"$ref": "#/$defs/" + name} }

func describe(s obj, text string) obj {
	out := obj{"description": text}
	for k, v := range s {
		out[k] = v
	}
	return out
}

// bothSet is a "not" schema that fails an object where both keys are set
// to something other than null.
func bothSet(a, b string) obj {
	notNull := obj{"not": obj{"type": "null"}}
	return obj{"not": obj{"required": []string{a, b}, "properties": obj{a: notNull, b: notNull}}}
}

// schemaDoc returns the schema of a suite file, one section of the suite
// at a time.
func schemaDoc() obj {
	p := newSchemaParts()
	call, step, never := p.callSchemas()
	rule, ruleObject := ruleSchemas()
	top := p.topSchema()
	top["$defs"] = obj{
		"case":       p.caseSchema(),
		"call":       call,
		"step":       step,
		"never":      never,
		"tool":       p.toolSchema(),
		"rule":       rule,
		"ruleObject": ruleObject,
		"expression": obj{"type": "string", "pattern": `\S`},
	}
	return top
}

// schemaParts are the schemas that several sections of a suite share.
type schemaParts struct {
	str, nonEmpty, boolean obj
	rulesMap               obj // PATH: RULE
	tools, toolsFile       obj
	// setting holds the settings a case inherits from defaults and may
	// override.
	setting map[string]any
}

func newSchemaParts() schemaParts {
	p := schemaParts{
		str:      obj{"type": "string"},
		nonEmpty: obj{"type": "string", "minLength": 1},
		boolean:  obj{"type": "boolean"},
		rulesMap: obj{"type": "object", "additionalProperties": ref("rule"),
			"description": "PATH: RULE (docs/rules.md)"},
		tools: describe(obj{"type": "array", "items": ref("tool")}, "the tools the model was given (docs/suite.md, Tools)"),
	}
	p.toolsFile = describe(p.nonEmpty, "a JSON or YAML file holding a list of tools, relative to this file")

	var formats []any
	for _, f := range format.All() {
		formats = append(formats, f.Name)
	}
	extra := obj{"enum": []any{string(ExtraReject), string(ExtraAllow)}}
	calls := obj{"enum": []any{string(CallsOrdered), string(CallsUnordered), string(CallsSuperset),
		string(CallsSubset), string(CallsInOrder), string(CallsGreedy), string(CallsAny)}}
	p.setting = map[string]any{
		"extra_fields":    orNull(describe(extra, "what an argument the expected call does not name does: reject (the default) or allow")),
		"calls":           orNull(describe(calls, "how the expected calls pair with the actual ones (docs/scoring.md)")),
		"null_is_missing": orNull(describe(p.boolean, "an argument given as null counts as left out")),
		"format":          orNull(describe(obj{"enum": formats}, "the response format (docs/suite.md, Response formats)")),
		"metadata": orNull(describe(obj{"type": "object", "propertyNames": obj{"minLength": 1},
			"additionalProperties": obj{"type": []any{"string", "number", "boolean", "null"}}},
			"names to a string, a number or a boolean, for the report to show and group by; no verdict reads them (docs/suite.md, Metadata)")),
	}
	return p
}

// merged returns the keys of m and more, which win.
func merged(m, more map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	for k, v := range more {
		out[k] = v
	}
	return out
}

// topSchema returns the schema of the top level, defaults, rulesets and
// plugins in it.
func (p schemaParts) topSchema() obj {
	top := closed("topKeys", keyList(topKeys), map[string]any{
		"version":    orNull(describe(obj{"const": 1}, "the suite format's version: 1")),
		"tools":      orNull(p.tools),
		"tools_file": orNull(p.toolsFile),
		"defaults":   orNull(describe(p.defaultsSchema(), "what every case inherits")),
		"rulesets": orNull(describe(obj{"type": "object", "propertyNames": obj{"minLength": 1}, "additionalProperties": orNull(p.rulesMap)},
			"named rule maps a case pulls in with use")),
		"plugins": orNull(describe(obj{"type": "object", "propertyNames": obj{"pattern": "^[^.]+$"}, "additionalProperties": p.pluginSchema()},
			"out-of-process comparators by name (docs/plugins.md)")),
		"samples": orNull(describe(obj{"type": "integer", "minimum": 1, "maximum": MaxSamples}, "the number of response lines of each case")),
		"cases":   orNull(obj{"type": "array", "items": ref("case")}),
	})
	top["$schema"] = "https://json-schema.org/draft/2020-12/schema"
	top["title"] = "callgrade suite"
	top["description"] = "A callgrade suite file (docs/suite.md). Generated by suite.Schema from the decoder's tables: do not edit; `callgrade schema` prints it."
	top["allOf"] = []any{bothSet("tools", "tools_file"), casesNeedCalls()}
	return top
}

func (p schemaParts) defaultsSchema() obj {
	return closed("defaultsKeys", keyList(defaultsKeys), merged(p.setting, map[string]any{
		"rules": orNull(describe(p.rulesMap, "PATH: RULE for every case")),
	}))
}

func (p schemaParts) pluginSchema() obj {
	plugin := closed("pluginKeys", keyList(pluginKeys), map[string]any{
		"command": describe(obj{"anyOf": []any{p.nonEmpty, obj{"type": "array", "minItems": 1, "items": p.str, "prefixItems": []any{p.nonEmpty}}}},
			"the program: a command line or a list of arguments"),
		"sha256":  orNull(describe(obj{"type": "string", "pattern": "^[0-9a-fA-F]{64}$"}, "the hex SHA-256 of the executable")),
		"timeout": orNull(describe(p.str, "a duration such as 2s")),
	})
	plugin["required"] = []string{"command"}
	return plugin
}

func (p schemaParts) caseSchema() obj {
	callList := obj{"anyOf": []any{ref("call"), obj{"type": "array", "items": ref("call")}}}
	neverOne := obj{"anyOf": []any{describe(p.nonEmpty, "a tool name"), ref("never")}}
	c := closed("caseKeys", keyList(caseKeys), merged(p.setting, map[string]any{
		"id":           describe(obj{"anyOf": []any{p.nonEmpty, obj{"type": "number"}}}, "the case's id, unique in the suite"),
		"tools":        orNull(p.tools),
		"tools_file":   orNull(p.toolsFile),
		"use":          orNull(describe(obj{"anyOf": []any{p.nonEmpty, obj{"type": "array", "items": p.nonEmpty}}}, "rulesets applied in order")),
		"expected":     describe(callList, "the expected call or list of calls; [] for none"),
		"alternatives": orNull(describe(obj{"type": "array", "items": callList}, "other acceptable lists of calls")),
		"steps": orNull(describe(obj{"anyOf": []any{ref("step"), obj{"type": "array", "items": ref("step")}}},
			"the expected steps of an agent's run (docs/trajectories.md)")),
		"never": orNull(describe(obj{"anyOf": []any{neverOne, obj{"type": "array", "items": neverOne}}},
			"calls that must not happen")),
		"max_calls": orNull(describe(obj{"type": "integer", "minimum": 0}, "the most calls the run may make")),
		"min_calls": orNull(describe(obj{"type": "integer", "minimum": 1}, "the least number of calls the response or run must make")),
		"final":     orNull(describe(ref("rule"), "the RULE the run's final text must pass")),
		"final_text": orNull(describe(obj{"enum": []any{"joined", "answer", "bfcl"}},
			"which text of the run final judges: joined (the last assistant message's text blocks joined), answer (the answer of an {answer, context} object) or bfcl (as BFCL's agentic checker reads it)")),
	}))
	c["required"] = []string{"id"}
	// Whether a case must give expected or steps depends on defaults.calls
	// too: the top level says it (casesNeedCalls).
	anyMode := obj{"required": []string{"calls"}, "properties": obj{"calls": obj{"const": string(CallsAny)}}}
	someCalls := obj{"anyOf": []any{obj{"type": "object"}, obj{"type": "array", "minItems": 1}}}
	c["allOf"] = []any{
		obj{"not": obj{"required": []string{"expected", "steps"}}},
		bothSet("steps", "alternatives"),
		bothSet("tools", "tools_file"),
		// calls: any expects no particular call.
		obj{"not": merged(anyMode, obj{"anyOf": []any{
			obj{"required": []string{"expected"}, "properties": obj{"expected": someCalls}},
			obj{"required": []string{"steps"}, "properties": obj{"steps": someCalls}},
			obj{"required": []string{"alternatives"}, "properties": obj{"alternatives": obj{"type": "array", "minItems": 1}}},
		}})},
	}
	return c
}

// casesNeedCalls is the schema that requires expected or steps of each
// case that is not in calls mode any, by its own calls or, when it names
// none, by defaults.calls.
func casesNeedCalls() obj {
	anyMode := obj{"required": []string{"calls"}, "properties": obj{"calls": obj{"const": string(CallsAny)}}}
	need := func(more ...any) obj {
		alts := append([]any{obj{"required": []string{"expected"}}, obj{"required": []string{"steps"}}, anyMode}, more...)
		return obj{"properties": obj{"cases": obj{"type": "array", "items": obj{"anyOf": alts}}}}
	}
	return obj{
		"if":   obj{"required": []string{"defaults"}, "properties": obj{"defaults": obj{"type": "object", "required": []string{"calls"}, "properties": obj{"calls": obj{"const": string(CallsAny)}}}}},
		"then": need(obj{"not": obj{"required": []string{"calls"}, "properties": obj{"calls": obj{"not": obj{"type": "null"}}}}}),
		"else": need(),
	}
}

// callSchemas returns the schemas of an expected call, of a step and of a
// never entry, which share the keys of a call.
func (p schemaParts) callSchemas() (call, step, never obj) {
	callKey := map[string]any{
		"name":      describe(p.nonEmpty, "the tool's name"),
		"arguments": orNull(describe(obj{"type": "object"}, "the expected arguments")),
		"rules":     orNull(p.rulesMap),
		"assert": orNull(describe(obj{"anyOf": []any{ref("expression"), obj{"type": "array", "items": ref("expression")}}},
			"call-level expressions (docs/dsl.md)")),
	}
	pick := func(keys []string) map[string]any {
		out := map[string]any{}
		for _, k := range keys {
			if s, ok := callKey[k]; ok {
				out[k] = s
			}
		}
		return out
	}
	withName := func(s obj) obj { s["required"] = []string{"name"}; return s }
	call = withName(closed("callKeys", keyList(callKeys), pick(keyList(callKeys))))
	resultRules := obj{"type": "object", "additionalProperties": ref("rule"),
		"properties":  obj{"error": obj{"anyOf": []any{p.boolean, ref("rule")}}},
		"description": "PATH: RULE on the tool's result; error: true or false is its error flag"}
	step = withName(closed("stepKeys", keyList(stepKeys), merged(pick(keyList(stepKeys)), map[string]any{"result": orNull(resultRules)})))
	never = withName(closed("neverKeys", keyList(neverKeys), pick(keyList(neverKeys))))
	return call, step, never
}

// toolSchema returns the schema of a tool as the OpenAI chat API writes
// it, as its Responses API does, or bare; input_schema is the Anthropic
// API's parameters (tool in decode_tools.go).
func (p schemaParts) toolSchema() obj {
	toolKey := map[string]any{
		"name":        p.nonEmpty,
		"description": orNull(p.str),
		"parameters":  orNull(describe(obj{"type": "object"}, "a JSON Schema of the arguments")),
	}
	bare := closed("toolKeys", keyList(toolKeys), toolKey)
	addTo := func(s obj, more obj) obj {
		props := obj{}
		for k, v := range s["properties"].(obj) {
			props[k] = v
		}
		for k, v := range more {
			props[k] = v
		}
		return obj{"type": "object", "properties": props, "additionalProperties": false,
			"required": []string{"name"}, "not": obj{"required": []string{"parameters", "input_schema"}}}
	}
	fn := obj{"const": "function"}
	return obj{"anyOf": []any{
		obj{"type": "object", "required": []string{"type", "function"}, "additionalProperties": false,
			"properties": obj{"type": fn, "function": addTo(bare, obj{"input_schema": toolKey["parameters"], "strict": obj{}})}},
		addTo(bare, obj{"input_schema": toolKey["parameters"], "strict": obj{}, "type": fn}),
		addTo(bare, obj{"input_schema": toolKey["parameters"]}),
	}}
}

// ruleValues describes the value of each rule property. A property that
// rulecore.Compile names and this lacks makes ruleSchemas panic.
var ruleValues = map[string]any{
	"exact":            obj{"type": "boolean"},
	"numeric":          obj{"type": "boolean"},
	"case_insensitive": obj{"type": "boolean"},
	"unordered":        obj{"type": "boolean"},
	"ignore":           obj{"type": "boolean"},
	"optional":         obj{"type": "boolean"},
	"tolerance":        obj{"type": "number", "minimum": 0},
	"relative":         obj{"type": "number", "minimum": 0},
	"normalize":        obj{"type": "array", "items": obj{"type": []any{"string", "object"}}},
	"one_of":           obj{"type": "array", "minItems": 1},
	"regex":            obj{"type": "string"},
	"default":          obj{},
	"type":             obj{"anyOf": []any{obj{"type": "string"}, obj{"type": "array", "minItems": 1, "items": obj{"type": "string"}}}},
	"from":             obj{"type": "string"},
	"expr":             obj{"type": "string", "pattern": `\S`},
	"plugin":           obj{"type": "string", "pattern": `^[^.]+\.[\s\S]`},
	"params":           obj{"type": "object"},
	"extra_fields":     obj{"enum": []any{"allow", "reject"}},
}

// ruleSchemas returns the schema of a RULE and of a rule object, with the
// shorthands and properties rulecore.Compile names in its messages about an
// unknown one: the rulecore package's table, which it does not export.
func ruleSchemas() (rule, object obj) {
	props, shorthands := ruleNames()
	p := obj{}
	for _, name := range props {
		s, ok := ruleValues[name]
		if !ok {
			panic("suite: schema: no schema for rule property " + name)
		}
		p[name] = s
	}
	if len(p) != len(ruleValues) {
		panic("suite: schema: ruleValues names a property rulecore.Compile does not know")
	}
	var short []any
	for _, s := range shorthands {
		short = append(short, s)
	}
	object = obj{"type": "object", "properties": p, "additionalProperties": false}
	rule = obj{"description": "a shorthand or an object of properties (docs/rules.md)",
		"anyOf": []any{obj{"enum": short}, ref("ruleObject")}}
	return rule, object
}

// ruleNames returns the properties of an object rule and the
// shorthand strings, in the rulecore package's order, as rulecore.Compile lists
// them when told of an unknown one. It panics if a name it reads is not
// one Compile knows, or if it reads none.
func ruleNames() (properties, shorthands []string) {
	var ce *rules.CompileError
	o, _ := value.ObjectOf(value.Member{Key: "\x00", Value: value.StringOf("")})
	_, err := rulecore.Compile(o, rules.Extensions{})
	if !errors.As(err, &ce) {
		panic("suite: rulecore.Compile took an unknown property")
	}
	properties = nameList(ce.Error(), "the properties are ", "")
	_, err = rulecore.Compile(value.StringOf("\x00"), rules.Extensions{})
	if !errors.As(err, &ce) {
		panic("suite: rulecore.Compile took an unknown shorthand")
	}
	shorthands = nameList(ce.Msg, "the shorthands are ", " (")
	for _, s := range shorthands {
		if _, err := rulecore.Compile(value.StringOf(s), rules.Extensions{}); err != nil {
			panic("suite: rulecore.Compile refuses shorthand " + s + ": " + err.Error())
		}
	}
	for _, name := range properties {
		o, _ := value.ObjectOf(value.Member{Key: name, Value: value.Value{}})
		_, err := rulecore.Compile(o, rules.Extensions{})
		if errors.Is(err, errcode.UnknownKey) {
			panic("suite: rulecore.Compile does not know property " + name)
		}
	}
	return properties, shorthands
}

// nameList reads the list "a, b and c" that follows after in msg, up to
// until (or the end).
func nameList(msg, after, until string) []string {
	_, s, ok := strings.Cut(msg, after)
	if !ok {
		panic("suite: cannot read the names in " + msg)
	}
	if until != "" {
		s, _, _ = strings.Cut(s, until)
	}
	s = strings.Replace(s, " and ", ", ", 1)
	names := strings.Split(s, ", ")
	for _, n := range names {
		if n == "" || strings.ContainsAny(n, " ;()") {
			panic("suite: cannot read the names in " + msg)
		}
	}
	return names
}
