package engine

import (
	"testing"
	"testing/fstest"

	"github.com/callgrade/callgrade/internal/suite"
)

// FuzzCompilePartial compiles whatever a broken suite file decoded to, as
// the CLI does to report rule problems together with load problems: it
// must never panic.
func FuzzCompilePartial(f *testing.F) {
	f.Add([]byte("version: 1\ncases:\n  - {id: a, expectd: []}\n  - {id: b, expected: {name: f, arguments: {x: 1}, rules: {x: {regex: \"(\"}}}}\n"))
	f.Add([]byte("cases:\n  - {expected: {name: f, arguments: 5, rules: {x: 7}}, alternatives: [[{name: 3}]]}\n  - {id: c, use: [nope], calls: sideways, expected: [{}]}\n"))
	f.Add([]byte("tools: [{name: f, parameters: {type: object, properties: {a: {type: 12}}}}]\ncases: [{id: a, expected: {name: f}}]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := suite.LoadFS(fstest.MapFS{"s.yaml": {Data: data}}, "s.yaml")
		if err != nil && s == nil {
			return
		}
		newEngine(s, Options{}) // problems are fine; a panic is not
	})
}
