package plugins_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/callgrade/callgrade/engine"
	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/plugins"
	"github.com/callgrade/callgrade/rules"
)

// The geo example scored end to end: the suite names ./bin/callgrade-geo,
// which the test builds elsewhere and substitutes.
func TestEngineScoresGeoExample(t *testing.T) {
	s, err := suite.Load("../examples/plugins/geo/suite.yaml")
	if err != nil {
		t.Fatal(err)
	}
	geo := s.Plugins["geo"]
	if len(geo.Command) != 1 || geo.Command[0] != "./bin/callgrade-geo" {
		t.Fatalf("the example's command changed: %v", geo.Command)
	}
	geo.Command = []string{build(t, "./examples/plugins/geo")}
	s.Plugins["geo"] = geo
	h := open(t, s.Plugins, plugins.Options{})
	eng, err := engine.New(suite.ViewOf(s), engine.Options{Extensions: rules.Extensions{Plugin: h.Comparator}})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open("../examples/plugins/geo/responses.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out bytes.Buffer
	sum, err := eng.Run(context.Background(), f, &out, engine.RunOptions{Name: "responses.jsonl", Workers: 8})
	if err != nil {
		t.Fatal(err)
	}
	type diff struct {
		Kind, Path, Message string
	}
	want := map[string]struct {
		pass bool
		diff diff
	}{
		"same-point":         {pass: true},
		"string-form-nearby": {pass: true},
		"too-far":            {diff: diff{"mismatch", "pickup", "27.2 km apart, more than 5 km"}},
		"not-a-point":        {diff: diff{"mismatch", "pickup", `"Paris" is not "lat,lon"`}},
		"airport-1km":        {pass: true},
	}
	dec := json.NewDecoder(&out)
	n := 0
	for dec.More() {
		var r struct {
			ID    string
			Pass  bool
			Diffs []diff
		}
		if err := dec.Decode(&r); err != nil {
			t.Fatal(err)
		}
		n++
		w, ok := want[r.ID]
		switch {
		case !ok:
			t.Errorf("unexpected result %+v", r)
		case w.pass && (!r.Pass || len(r.Diffs) != 0):
			t.Errorf("%s: want a pass, got %+v", r.ID, r)
		case !w.pass && (r.Pass || len(r.Diffs) != 1 || r.Diffs[0] != w.diff):
			t.Errorf("%s: want the diff %+v, got %+v", r.ID, w.diff, r)
		}
	}
	if n != len(want) || sum.Passed != 3 {
		t.Errorf("got %d results, %d passed", n, sum.Passed)
	}
}
