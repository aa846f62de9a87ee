package suite

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// fuzzLoad loads data as the only suite file and checks that the answer is
// a suite or an *Error (with what decoded, maybe), never a panic. It
// returns the *Error, or nil.
func fuzzLoad(t *testing.T, name string, data []byte) *Error {
	files := memFiles{name: data, "tools.json": []byte(`[{"name": "f"}]`), "tools.yaml": []byte("- name: g\n")}
	s, err := load(files, []string{name})
	if err != nil {
		var se *Error
		if !errors.As(err, &se) || len(se.Problems) == 0 {
			t.Fatalf("err = %v (%T), want a non-empty *Error", err, err)
		}
		return se // s may hold what decoded; the CLI's tests compile such suites
	}
	if s == nil {
		t.Fatal("got neither a suite nor an error")
	}
	for _, c := range s.Cases {
		if c.ID == "" {
			t.Fatal("a case without an id loaded")
		}
	}
	return nil
}

func FuzzLoadYAML(f *testing.F) {
	f.Add([]byte("version: 1\ncases:\n  - id: a\n    expected: {name: f, arguments: {x: 0x1F}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		se := fuzzLoad(t, "s.yaml", data)
		if se == nil {
			return
		}
		// A syntax error points into the file, at a line and a column;
		// yaml.v3 counts \r, NEL, LS and PS as line breaks too.
		lines := 1 + bytes.Count(data, []byte("\n")) + bytes.Count(data, []byte("\r")) +
			strings.Count(string(data), "\u0085") + strings.Count(string(data), "\u2028") + strings.Count(string(data), "\u2029")
		for _, p := range se.Problems {
			if strings.HasPrefix(p.Msg, "invalid YAML: ") && (p.Loc.Line < 1 || p.Loc.Line > lines || p.Loc.Column < 1) {
				t.Fatalf("%s: position outside the file's %d lines", p, lines)
			}
		}
	})
}

// FuzzLoadTOML loads TOML suites, whose floats, dates and times take their
// text and place from a second walk of the file (tomlLiterals): never a
// panic, never an empty text, and never a place that does not hold it.
func FuzzLoadTOML(f *testing.F) {
	f.Add([]byte("version = 1\n[[cases]]\nid = \"a\"\nexpected = {name = \"f\", arguments = {x = 1.50, at = 2024-05-01 10:00:00.5+01:00}}\n"))
	f.Add([]byte("[[cases]]\nid = \"b\"\n[[cases.expected]]\nname = \"g\"\n[cases.expected.arguments]\nl = [1e3, {d.e = -0.0}]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzLoad(t, "s.toml", data)
		lits, _ := tomlLiterals(data)
		for k, lit := range lits {
			if lit.text == "" {
				t.Fatalf("an empty literal at key %q", k)
			}
			if lit.offset < 0 || lit.offset > len(data) || !bytes.HasPrefix(data[lit.offset:], []byte(lit.text)) {
				t.Fatalf("literal %q at key %q placed at byte %d, where the file does not hold it", lit.text, k, lit.offset)
			}
		}
	})
}

func FuzzFromJSON(f *testing.F) {
	f.Add([]byte(`{"version": 1, "cases": [{"id": "a", "expected": {"name": "f", "arguments": {"x": 1}}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzLoad(t, "s.json", data)
		// The fast path for JSON cases must agree with the general one.
		files := memFiles{"s.json": data}
		fast, ferr := load(files, []string{"s.json"})
		l := newLoader(files, []string{"s.json"})
		l.slow = true
		slow, serr := l.load()
		switch {
		case (ferr == nil) != (serr == nil):
			t.Fatalf("fast: %v\ngeneral: %v", ferr, serr)
		case ferr != nil && ferr.Error() != serr.Error():
			t.Fatalf("errors differ\nfast: %v\ngeneral: %v", ferr, serr)
		case ferr == nil && dump(fast) != dump(slow):
			t.Fatalf("suites differ\nfast:\n%s\ngeneral:\n%s", dump(fast), dump(slow))
		}
	})
}
