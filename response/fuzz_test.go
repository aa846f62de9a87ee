package response

import (
	"errors"
	"testing"

	"github.com/callgrade/callgrade/value"
)

// FuzzExtract feeds arbitrary JSON to every format: Extract must not panic,
// must fail only with a *ShapeError, and must never hand back a call that
// looks usable without an arguments object.
func FuzzExtract(f *testing.F) {
	for _, tt := range extractTests {
		f.Add(tt.in)
	}
	for _, line := range conformanceLines {
		f.Add(line)
	}
	for _, examples := range formatExamples {
		for _, ex := range examples {
			f.Add(ex)
		}
	}
	all := everyFormat()
	lim := value.Limits{MaxDepth: 32, MaxBytes: 1 << 16}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := value.Parse(s)
		if err != nil {
			return
		}
		for _, format := range all {
			calls, got, err := Extract(r, format, lim)
			if err != nil {
				var se *ShapeError
				if !errors.As(err, &se) || calls != nil || got != format {
					t.Fatalf("Extract(%q) = %d calls, %q, %v", format, len(calls), got, err)
				}
				continue
			}
			if format != Auto && got != format {
				t.Fatalf("Extract(%q) read as %q", format, got)
			}
			if len(calls) == 0 && calls != nil {
				t.Fatalf("Extract(%q) returned an empty non-nil slice", format)
			}
			for i, c := range calls {
				if c.Err == nil {
					if c.Args.Kind() != value.Object {
						t.Fatalf("Extract(%q) call %d has no error and %s arguments", format, i, c.Args.Kind())
					}
					continue
				}
				var ae *ArgumentsError
				if !errors.As(c.Err, &ae) || ae.Index != i {
					t.Fatalf("Extract(%q) call %d error = %v", format, i, c.Err)
				}
				if c.Args.Kind() != value.Null {
					t.Fatalf("Extract(%q) call %d failed but has arguments", format, i)
				}
				_ = c.Err.Error()
			}
		}
	})
}
