package engine_test

import (
	"testing"

	"github.com/callgrade/callgrade"
	"github.com/callgrade/callgrade/engine"
)

// The bounds a run applies when given none are the ones the root
// documents: the root declares them, the engine keeps its own copy.
func TestDefaultsAreTheRoots(t *testing.T) {
	for _, tt := range []struct {
		name         string
		engine, root int
	}{
		{"MaxValues", engine.DefaultMaxValuesForTest, callgrade.DefaultMaxValues},
		{"MaxLineBytes", engine.DefaultMaxLineBytesForTest, callgrade.DefaultMaxLineBytes},
	} {
		if tt.engine != tt.root {
			t.Errorf("%s: the engine applies %d, callgrade documents %d", tt.name, tt.engine, tt.root)
		}
	}
}
