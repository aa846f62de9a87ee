package engine

import (
	"strings"
	"testing"

	"github.com/callgrade/callgrade/value"
)

// A Scorer writes its diffs' messages and paths in its own memory, which
// the next response reuses: a warm Scorer scores calls that are wrong in
// the ways the walker, the schema and pairing word without allocating,
// and each result reads as one scored without a Scorer's memory does.
// (The schema's bound messages are still worded into strings of their
// own, through golang.org/x/text as the JSON Schema library words them:
// they are left out here.)
func TestScorerWordsInItsMemory(t *testing.T) {
	e := load(t, `version: 1
tools:
  - name: book
    parameters:
      type: object
      properties:
        city: {type: string, pattern: "^[A-Z]"}
        nights: {type: integer}
        unit: {enum: [c, f]}
        when: {type: object, properties: {day: {type: string}}, required: [day]}
      required: [city, nights, when]
  - name: cancel
    parameters: {type: object, properties: {id: {type: string}}}
cases:
  - id: c
    expected:
      - {name: book, arguments: {city: Berlin, nights: 3, when: {day: mon}}, rules: {city: {regex: "^Ber"}}}
      - {name: cancel, arguments: {id: x1}}
`)
	resps := []value.Value{
		mustParse(t, `[{"name":"book","arguments":{"city":"paris","unit":"k","when":{},"extra":[1,2,{"deep":true}]}},{"name":"cancle","arguments":{"id":5}}]`),
		mustParse(t, `[{"name":"book","arguments":{"city":"Bern","nights":3.5,"when":{"day":7,"at":{"h":[1]}}}},{"name":"cancel","arguments":{"id":"x2"}},{"name":"cancel","arguments":{}}]`),
		mustParse(t, `[{"name":"cancel","arguments":{"id":"x1"}}]`),
	}
	for _, r := range resps {
		if line := scoreNoWork(e, 0, r).AppendJSON(nil); !strings.Contains(string(line), `"message":`) {
			t.Fatalf("no diff to word: %s", line)
		}
	}
	checkScorerLines(t, e, resps...)
	sc := e.newScorer()
	for _, r := range resps {
		sc.Score(0, r) // its memory grown for each
	}
	if raceEnabled {
		return // the pools the comparison draws on drop what they hold
	}
	for i, r := range resps {
		if n := testing.AllocsPerRun(20, func() { sc.Score(0, r) }); n != 0 {
			t.Errorf("response %d: %v allocations a score", i, n)
		}
	}
}

// checkScorerLines holds one Scorer, scoring each response against each
// case in turn, twice over, its messages in its own memory (package
// words), to the lines of the nil-work path, whose messages are strings
// of their own: a message written over by a later response, or read from
// a reused block before it was written, shows.
func checkScorerLines(t *testing.T, e *Engine, resps ...value.Value) {
	t.Helper()
	sc := e.newScorer()
	for range 2 {
		for i := range e.cases {
			for k, r := range resps {
				got := string(sc.Score(i, r).AppendJSON(nil))
				if want := string(scoreNoWork(e, i, r).AppendJSON(nil)); got != want {
					t.Fatalf("case %s, response %d, with a Scorer:\n got  %s\n want %s", e.cases[i].id, k, got, want)
				}
			}
		}
	}
}
