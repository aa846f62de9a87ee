package suite

import (
	"errors"
	"testing"
)

// fuzzLoad loads data as the only suite file and checks that the answer is
// a suite or an *Error (with what decoded, maybe), never a panic.
func fuzzLoad(t *testing.T, name string, data []byte) {
	files := memFiles{name: data, "tools.json": []byte(`[{"name": "f"}]`), "tools.yaml": []byte("- name: g\n")}
	s, err := load(files, []string{name})
	if err != nil {
		var se *Error
		if !errors.As(err, &se) || len(se.Problems) == 0 {
			t.Fatalf("err = %v (%T), want a non-empty *Error", err, err)
		}
		return // s may hold what decoded; the CLI's tests compile such suites
	}
	if s == nil {
		t.Fatal("got neither a suite nor an error")
	}
	for _, c := range s.Cases {
		if c.ID == "" {
			t.Fatal("a case without an id loaded")
		}
	}
}

func FuzzLoadYAML(f *testing.F) {
	f.Add([]byte("version: 1\ncases:\n  - id: a\n    expected: {name: f, arguments: {x: 0x1F}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzLoad(t, "s.yaml", data) })
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
