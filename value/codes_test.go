package value

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/internal/errcode"
)

// Each reason Parse gives matches its error code beside its sentinel.
func TestErrorCodes(t *testing.T) {
	tests := []struct {
		name string
		err  func() error
		code errcode.Code
	}{
		{"syntax", func() error { _, err := Parse("{"); return err }, errcode.SyntaxError},
		{"duplicate key", func() error { _, err := Parse(`{"a":1,"a":2}`); return err }, errcode.DuplicateKey},
		{"invalid UTF-8", func() error { _, err := Parse("\"\xff\""); return err }, errcode.SyntaxError},
		{"too deep", func() error { _, err := Parse(strings.Repeat("[", 300)); return err }, errcode.LimitExceeded},
		{"too large", func() error { _, err := parseLimits("[1,2]", Limits{MaxBytes: 2}); return err }, errcode.LimitExceeded},
		{"non-finite", func() error { _, err := FromAny(math.NaN()); return err }, errcode.InvalidValue},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.err()
			var ve *Error
			if !errors.As(err, &ve) {
				t.Fatalf("err = %v, want *Error", err)
			}
			if !errors.Is(err, tt.code) || !allReasons[ve.Err] || !errors.Is(err, ve.Err) {
				t.Errorf("errors.Is(%v, %s) or its sentinel is false", err, tt.code)
			}
			for _, c := range errcode.All {
				if c != tt.code && errors.Is(err, c) {
					t.Errorf("%v matches %s too", err, c)
				}
			}
		})
	}
}
