package suite

import (
	"encoding"
	"strconv"
	"strings"

	"github.com/knadh/koanf/parsers/toml/v2"

	"github.com/callgrade/callgrade/value"
)

// tomlParser is the koanf.Parser for TOML suite files: koanf's own TOML
// parser, then a conversion to Value that names the key of anything that
// has no JSON spelling.
type tomlParser struct{ f *file }

// Unmarshal parses a TOML suite file into the map koanf merges; the cases
// go to the file, out of band.
func (p *tomlParser) Unmarshal(b []byte) (map[string]any, error) {
	m, err := toml.Parser().Unmarshal(b)
	if err != nil {
		return nil, &Error{Problems: []Problem{tomlSyntaxProblem(p.f.name, err)}}
	}
	var probs []Problem
	doc := tomlValue(m, "", p.f.name, &probs)
	if len(probs) > 0 {
		return nil, &Error{Problems: probs}
	}
	return splitCases(p.f, doc), nil
}

// Marshal encodes a conf map as TOML.
func (p *tomlParser) Marshal(m map[string]any) ([]byte, error) { return toml.Parser().Marshal(m) }

func tomlSyntaxProblem(name string, err error) Problem {
	loc := Loc{File: name}
	msg := strings.TrimPrefix(err.Error(), "toml: ")
	if pe, ok := err.(interface{ Position() (int, int) }); ok {
		loc.Line, loc.Column = pe.Position()
	}
	return Problem{Loc: loc, Msg: "invalid TOML: " + msg, Err: err}
}

// tomlValue converts what the TOML decoder produced. Local dates and times
// become their TOML text.
func tomlValue(x any, key, file string, probs *[]Problem) value.Value {
	switch t := x.(type) {
	case map[string]any:
		ms := make([]value.Member, 0, len(t))
		for k, e := range t {
			ms = append(ms, value.Member{Key: k, Value: tomlValue(e, joinKey(key, k), file, probs)})
		}
		v, _ := value.ObjectOf(ms...) // a Go map has no duplicate keys
		return v
	case []any:
		arr := make([]value.Value, len(t))
		for i, e := range t {
			arr[i] = tomlValue(e, key+"["+strconv.Itoa(i)+"]", file, probs)
		}
		return value.ArrayOf(arr...)
	case []map[string]any:
		arr := make([]value.Value, len(t))
		for i, e := range t {
			arr[i] = tomlValue(e, key+"["+strconv.Itoa(i)+"]", file, probs)
		}
		return value.ArrayOf(arr...)
	}
	v, err := value.FromAny(x)
	if err != nil {
		if tm, ok := x.(encoding.TextMarshaler); ok {
			if b, terr := tm.MarshalText(); terr == nil {
				return value.StringOf(string(b))
			}
		}
		*probs = append(*probs, Problem{Loc: Loc{File: file, Key: key}, Msg: "no JSON spelling for this value: " + err.Error(), Err: err})
	}
	return v
}

// joinKey appends a key to a key path.
func joinKey(base, key string) string {
	if base == "" {
		return key
	}
	if key == "" {
		return base
	}
	return base + "." + key
}
