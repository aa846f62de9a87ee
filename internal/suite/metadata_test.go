package suite

import (
	"maps"
	"testing"

	"github.com/callgrade/callgrade/value"
)

// TestMetadataErrors: metadata is an object of names to strings, numbers
// and booleans; anything else is a problem named by its file, key path
// and case, and a name set to null is left out.
func TestMetadataErrors(t *testing.T) {
	tests := []errorTest{
		{"scalars and null", yamlSuite("cases:\n- {id: a, expected: [], metadata: {level: hard, n: 3, slow: true, gone: null}}\n"), nil, nil},
		{"empty object", yamlSuite("cases:\n- {id: a, expected: [], metadata: {}}\n"), nil, nil},
		{"not an object", yamlSuite("cases:\n- {id: a, expected: [], metadata: [x]}\n"),
			nil, []want{{Loc{File: "s.yaml", Key: "cases[0].metadata", Case: "a"}, "must be an object of names to strings, numbers or booleans, not a list"}}},
		{"a list value", yamlSuite("cases:\n- {id: a, expected: [], metadata: {tags: [x, y]}}\n"),
			nil, []want{{Loc{File: "s.yaml", Key: "cases[0].metadata.tags", Case: "a"}, "must be a string, a number or true or false, not a list"}}},
		{"an object value", yamlSuite("cases:\n- {id: a, expected: []}\n- {id: b, expected: [], metadata: {src: {x: 1}}}\n"),
			nil, []want{{Loc{File: "s.yaml", Key: "cases[1].metadata.src", Case: "b"}, "must be a string, a number or true or false, not an object"}}},
		{"an empty name", memFiles{"s.json": []byte(`{"cases": [{"id": "a", "expected": [], "metadata": {"": 1}}]}`)},
			[]string{"s.json"}, []want{{Loc{File: "s.json", Key: "cases[0].metadata", Case: "a"}, "a name must not be empty"}}},
		{"misspelt", yamlSuite("cases:\n- {id: a, expected: [], metdata: {x: 1}}\n"),
			nil, []want{{Loc{File: "s.yaml", Key: "cases[0].metdata", Case: "a"}, "unknown key; want one of id, tools, tools_file, use, extra_fields, calls, null_is_missing, format, expected, alternatives, steps, never, max_calls, min_calls, final, final_text, metadata"}}},
		{"defaults", yamlSuite("defaults:\n  metadata: {src: [1]}\ncases:\n- {id: a, expected: []}\n"),
			nil, []want{{Loc{File: "s.yaml", Key: "defaults.metadata.src"}, "must be a string, a number or true or false, not a list"}}},
		{"defaults not an object", yamlSuite("defaults:\n  metadata: bfcl\n"),
			nil, []want{{Loc{File: "s.yaml", Key: "defaults.metadata"}, "must be an object of names to strings, numbers or booleans, not a string"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			paths := tt.paths
			if paths == nil {
				paths = []string{"s.yaml"}
			}
			_, err := load(tt.files, paths)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			checkProblems(t, err, tt.want)
		})
	}
}

// TestMetadataOf: a case's metadata lies over defaults.metadata, which
// layered files merge name by name; numbers keep their text, and a JSON
// suite's case with metadata reads as a YAML one's.
func TestMetadataOf(t *testing.T) {
	files := memFiles{
		"base.yaml": []byte("defaults:\n  metadata: {source: bfcl, lang: python}\ncases:\n- {id: a, expected: [], metadata: {lang: java, n: 1.50, slow: true}}\n- {id: b, expected: []}\n"),
		"more.json": []byte(`{"defaults": {"metadata": {"split": "dev"}}, "cases": [{"id": "c", "expected": [], "metadata": {"n": 2}}, {"id": "d", "expected": []}]}`),
	}
	s, err := load(files, []string{"base.yaml", "more.json"})
	if err != nil {
		t.Fatal(err)
	}
	str := func(m map[string]value.Value) map[string]string {
		out := map[string]string{}
		for k, v := range m {
			out[k] = string(v.AppendJSON(nil))
		}
		return out
	}
	tests := []struct {
		id   string
		want map[string]string
	}{
		{"a", map[string]string{"source": `"bfcl"`, "lang": `"java"`, "split": `"dev"`, "n": "1.50", "slow": "true"}},
		{"b", map[string]string{"source": `"bfcl"`, "lang": `"python"`, "split": `"dev"`}},
		{"c", map[string]string{"source": `"bfcl"`, "lang": `"python"`, "split": `"dev"`, "n": "2"}},
		{"d", map[string]string{"source": `"bfcl"`, "lang": `"python"`, "split": `"dev"`}},
	}
	for i, tt := range tests {
		c := &s.Cases[i]
		if got := str(s.MetadataOf(c)); c.ID != tt.id || !maps.Equal(got, tt.want) {
			t.Errorf("case %s: metadata %v, want %v", c.ID, got, tt.want)
		}
	}
	if len(s.Defaults.Metadata) != 3 || s.Cases[1].Metadata != nil {
		t.Errorf("defaults %v, case b's own %v", str(s.Defaults.Metadata), str(s.Cases[1].Metadata))
	}
	// Without defaults a case's metadata is its own, nil when it has none.
	s, err = load(memFiles{"s.json": []byte(`{"cases": [{"id": "a", "expected": [], "metadata": {"k": "v"}}, {"id": "b", "expected": []}]}`)}, []string{"s.json"})
	if err != nil {
		t.Fatal(err)
	}
	if got := str(s.MetadataOf(&s.Cases[0])); !maps.Equal(got, map[string]string{"k": `"v"`}) || s.MetadataOf(&s.Cases[1]) != nil {
		t.Errorf("without defaults: %v, %v", got, s.MetadataOf(&s.Cases[1]))
	}
}

// TestMetadataFastPath: a JSON suite's case with metadata decodes on the
// fast path as the general way decodes it, and one with wrong metadata
// is reported the general way.
func TestMetadataFastPath(t *testing.T) {
	src := `{"cases": [
 {"id": "a", "expected": [], "metadata": {"level": "hard", "n": 1.50, "ok": false, "gone": null}},
 {"id": "b", "metadata": {}, "expected": {"name": "f"}},
 {"id": "c", "expected": []}
]}`
	files := memFiles{"s.json": []byte(src)}
	fast, err := load(files, []string{"s.json"})
	if err != nil {
		t.Fatal(err)
	}
	l := newLoader(files, []string{"s.json"})
	l.slow = true
	slow, err := l.load()
	if err != nil {
		t.Fatal(err)
	}
	text := func(m map[string]value.Value) map[string]string {
		out := map[string]string{}
		for k, v := range m {
			out[k] = string(v.AppendJSON(nil))
		}
		return out
	}
	for i := range fast.Cases {
		f, g := fast.Cases[i].Metadata, slow.Cases[i].Metadata
		if !maps.Equal(text(f), text(g)) || (f == nil) != (g == nil) {
			t.Errorf("case %s: fast %v, general %v", fast.Cases[i].ID, text(f), text(g))
		}
	}
	if got := text(fast.Cases[0].Metadata); !maps.Equal(got, map[string]string{"level": `"hard"`, "n": "1.50", "ok": "false"}) {
		t.Errorf("case a: %v", got)
	}
	// The fast path takes the one and leaves the other.
	d := newDec()
	var c Case
	if !d.fastCase(&file{name: "s.json"}, 0, `{"id": "a", "expected": [], "metadata": {"n": 1, "s": "x"}}`, &c) || len(c.Metadata) != 2 {
		t.Errorf("the fast path does not take metadata: %v", text(c.Metadata))
	}
	if d.fastCase(&file{name: "s.json"}, 0, `{"id": "a", "expected": [], "metadata": {"tags": ["x"]}}`, &c) || len(d.probs) != 0 {
		t.Errorf("the fast path takes a list in metadata, or reports it: %v", d.probs)
	}
	_, err = load(memFiles{"s.json": []byte(`{"cases": [{"id": "a", "expected": [], "metadata": {"tags": ["x"]}}]}`)}, []string{"s.json"})
	checkProblems(t, err, []want{{Loc{File: "s.json", Key: "cases[0].metadata.tags", Case: "a"}, "must be a string, a number or true or false, not a list"}})
}
