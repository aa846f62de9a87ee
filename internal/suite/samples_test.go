package suite

import (
	"testing"
)

func TestSamplesKey(t *testing.T) {
	const cases = "cases:\n  - {id: a, expected: []}\n"
	tests := []struct {
		name  string
		files memFiles
		paths []string
		want  int
		prob  *want
	}{
		{"absent", memFiles{"s.yaml": []byte(cases)}, nil, 0, nil},
		{"yaml", memFiles{"s.yaml": []byte("samples: 5\n" + cases)}, nil, 5, nil},
		{"json", memFiles{"s.json": []byte(`{"samples": 3, "cases": [{"id": "a", "expected": []}]}`)}, []string{"s.json"}, 3, nil},
		{"toml", memFiles{"s.toml": []byte("samples = 2\n[[cases]]\nid = \"a\"\nexpected = []\n")}, []string{"s.toml"}, 2, nil},
		{"null is left out", memFiles{"s.yaml": []byte("samples: null\n" + cases)}, nil, 0, nil},
		{"the later file wins", memFiles{"a.yaml": []byte("samples: 5\n" + cases), "b.yaml": []byte("samples: 8\n")}, []string{"a.yaml", "b.yaml"}, 8, nil},
		{"the most", memFiles{"s.yaml": []byte("samples: 10000\n" + cases)}, nil, MaxSamples, nil},
		{"zero", memFiles{"s.yaml": []byte("samples: 0\n" + cases)}, nil, 0,
			&want{Loc{File: "s.yaml", Key: "samples"}, "must be an integer from 1 to 10000, not 0"}},
		{"too many", memFiles{"s.yaml": []byte("samples: 10001\n" + cases)}, nil, 0,
			&want{Loc{File: "s.yaml", Key: "samples"}, "not 10001"}},
		{"negative", memFiles{"s.yaml": []byte("samples: -2\n" + cases)}, nil, 0,
			&want{Loc{File: "s.yaml", Key: "samples"}, "not -2"}},
		{"fraction", memFiles{"s.yaml": []byte("samples: 2.5\n" + cases)}, nil, 0,
			&want{Loc{File: "s.yaml", Key: "samples"}, "not 2.5"}},
		{"string", memFiles{"s.yaml": []byte("samples: \"5\"\n" + cases)}, nil, 0,
			&want{Loc{File: "s.yaml", Key: "samples"}, "must be an integer from 1 to 10000, not a string"}},
		{"under defaults it is unknown", memFiles{"s.yaml": []byte("defaults: {samples: 5}\n" + cases)}, nil, 0,
			&want{Loc{File: "s.yaml", Key: "defaults.samples"}, "unknown key"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			paths := tt.paths
			if paths == nil {
				paths = []string{"s.yaml"}
			}
			s, err := load(tt.files, paths)
			if tt.prob != nil {
				checkProblems(t, err, []want{*tt.prob})
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s.Samples != tt.want {
				t.Errorf("Samples = %d, want %d", s.Samples, tt.want)
			}
		})
	}
}
