package schema

import (
	"slices"
	"strings"
	"testing"
)

func describeImplied(ims []Implied) []string {
	var out []string
	for _, im := range ims {
		var path []string
		for _, s := range im.Path {
			if s.Items {
				path = append(path, "#")
			} else {
				path = append(path, s.Key)
			}
		}
		var what []string
		if im.Numeric {
			what = append(what, "numeric")
		}
		if im.HasDefault {
			what = append(what, "default="+im.Default.String())
		}
		if im.Optional {
			what = append(what, "optional")
		}
		out = append(out, strings.Join(path, ".")+" "+strings.Join(what, ","))
	}
	return out
}

func TestImplications(t *testing.T) {
	tests := []struct {
		name, schema string
		want         []string
	}{
		{"top level", `{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"string","default":"x"},"c":{"type":"string"}},"required":["a","c"]}`,
			[]string{"a numeric", `b default="x",optional`}},
		{"nested defaults and required", `{"type":"object","properties":{"loc":{"type":"object","properties":{
			"city":{"type":"string"},"building":{"type":"string","default":"HQ"},"floor":{"type":"integer"}},"required":["city"]}},"required":["loc"]}`,
			[]string{`loc.building default="HQ",optional`, "loc.floor numeric,optional"}},
		{"array items", `{"type":"object","properties":{"items":{"type":"array","items":{"type":"object",
			"properties":{"sku":{"type":"string"},"qty":{"type":"integer","default":1}},"required":["sku"]}}},"required":["items"]}`,
			[]string{"items.#.qty numeric,default=1,optional"}},
		{"array of numbers", `{"type":"object","properties":{"xs":{"type":"array","items":{"type":"number"}}}}`,
			[]string{"xs optional", "xs.# numeric"}},
		{"ref and defs", `{"type":"object","properties":{"loc":{"$ref":"#/$defs/Loc"}},"required":["loc"],
			"$defs":{"Loc":{"type":"object","properties":{"lat":{"type":"number"},"name":{"type":"string","default":"HQ"}},"required":["lat"]}}}`,
			[]string{"loc.lat numeric", `loc.name default="HQ",optional`}},
		{"pydantic optional float", `{"type":"object","properties":{"p":{"anyOf":[{"type":"number"},{"type":"null"}],"default":null}}}`,
			[]string{"p numeric,default=null,optional"}},
		{"pydantic optional model", `{"type":"object","properties":{"loc":{"anyOf":[{"$ref":"#/$defs/Loc"},{"type":"null"}],"default":null}},
			"$defs":{"Loc":{"type":"object","properties":{"lat":{"type":"number"}},"required":["lat"]}}}`,
			[]string{"loc default=null,optional", "loc.lat numeric"}},
		{"oneOf nullable", `{"type":"object","properties":{"p":{"oneOf":[{"type":"null"},{"type":"integer"}]}},"required":["p"]}`,
			[]string{"p numeric"}},
		{"anyOf of two types implies nothing", `{"type":"object","properties":{"p":{"anyOf":[{"type":"number"},{"type":"string"}]}},"required":["p"]}`,
			nil},
		{"allOf of one", `{"type":"object","properties":{"p":{"allOf":[{"$ref":"#/$defs/N"}],"default":3}},"$defs":{"N":{"type":"integer"}}}`,
			[]string{"p numeric,default=3,optional"}},
		{"type list", `{"type":"object","properties":{"p":{"type":["integer","null"]}},"required":["p"]}`,
			[]string{"p numeric"}},
		{"recursive", `{"type":"object","properties":{"name":{"type":"string"},"children":{"type":"array","items":{"$ref":"#"}}},"required":["name"]}`,
			[]string{"children optional"}},
		{"zod style definitions", `{"type":"object","properties":{"n":{"$ref":"#/definitions/N"}},"required":["n"],"definitions":{"N":{"type":"integer","default":2}}}`,
			[]string{"n numeric,default=2"}},
		{"key with a dot", `{"type":"object","properties":{"a.b":{"type":"number"}},"required":["a.b"]}`,
			[]string{"a.b numeric"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := describeImplied(mustCompile(t, tt.schema).Implications())
			if !slices.Equal(got, tt.want) {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}
