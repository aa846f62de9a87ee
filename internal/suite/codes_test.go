package suite

import (
	"errors"
	"slices"
	"testing"

	"github.com/callgrade/callgrade/internal/errcode"
)

// Every problem the error tables find carries a documented code, and
// errors.Is finds it in the *Error.
func TestEveryProblemHasACode(t *testing.T) {
	for _, tests := range [][]errorTest{topErrors, defaultsErrors, caseErrors, toolErrors, layeringErrors, syntaxErrors} {
		for _, tt := range tests {
			if tt.want == nil {
				continue
			}
			t.Run(tt.name, func(t *testing.T) {
				paths := tt.paths
				if paths == nil {
					paths = []string{"s.yaml"}
				}
				_, err := load(tt.files, paths)
				var se *Error
				if !errors.As(err, &se) {
					t.Fatalf("err = %v, want *Error", err)
				}
				for _, p := range se.Problems {
					if !slices.Contains(errcode.All, p.Code) {
						t.Errorf("problem %q has code %q, not a documented one", p.String(), p.Code)
					} else if !errors.Is(err, p.Code) {
						t.Errorf("errors.Is(err, %s) is false", p.Code)
					}
				}
			})
		}
	}
}

// The codes of some problems, by message: the classification a caller
// relies on.
func TestProblemCodes(t *testing.T) {
	tests := []struct {
		name string
		src  string
		code errcode.Code
	}{
		{"unknown key", "versoin: 1\n", errcode.UnknownKey},
		{"duplicate key", "version: 1\nversion: 1\n", errcode.DuplicateKey},
		{"missing id", "cases:\n  - expected: []\n", errcode.MissingKey},
		{"cases not a list", "cases: 3\n", errcode.WrongType},
		{"version 2", "version: 2\n", errcode.InvalidValue},
		{"steps and expected", "cases:\n  - id: a\n    expected: []\n    steps: []\n", errcode.ConflictingKeys},
		{"duplicate case", "cases:\n  - {id: a, expected: []}\n  - {id: a, expected: []}\n", errcode.DuplicateCase},
		{"unknown ruleset", "cases:\n  - {id: a, expected: [], use: [x]}\n", errcode.UnknownRuleset},
		{"YAML syntax", "cases: [\n", errcode.SyntaxError},
		{"unknown alias", "cases: *x\n", errcode.SyntaxError},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := load(yamlSuite(tt.src), []string{"s.yaml"})
			var se *Error
			if !errors.As(err, &se) || len(se.Problems) == 0 {
				t.Fatalf("err = %v, want *Error", err)
			}
			if se.Problems[0].Code != tt.code {
				t.Errorf("code %q, want %q: %s", se.Problems[0].Code, tt.code, se.Problems[0].String())
			}
		})
	}
}

// A key written twice keeps its first value and the check goes on; a key
// that two merge keys (<<) bring in loses its mapping, and the check stops
// there, as before problems had codes. Both are duplicate_key.
func TestDuplicateKeyStopsOnlyWhenAMappingIsLost(t *testing.T) {
	twice := "version: 1\nversion: 1\ncases:\n  - {id: a, expected: [], bogus: 1}\n"
	_, err := load(yamlSuite(twice), []string{"s.yaml"})
	if !errors.Is(err, errcode.DuplicateKey) || !errors.Is(err, errcode.UnknownKey) {
		t.Errorf("a key written twice: want duplicate_key and the case's unknown_key, got %v", err)
	}
	merged := "a: &a {x: 1}\nb: &b {x: 2}\ndefaults:\n  <<: *a\n  <<: *b\ncases:\n  - {id: a, expected: [], bogus: 1}\n"
	_, err = load(yamlSuite(merged), []string{"s.yaml"})
	if !errors.Is(err, errcode.DuplicateKey) || errors.Is(err, errcode.UnknownKey) {
		t.Errorf("two merge keys: want duplicate_key alone, got %v", err)
	}
}
