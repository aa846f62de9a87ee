package value

import (
	"strings"
	"testing"

	"github.com/callgrade/callgrade/internal/reuse"
)

// Parsing into an arena gives what ParseLimits gives, errors included,
// document after document with the arena reset in between, and for
// documents larger than its chunks.
func TestParseScratch(t *testing.T) {
	docs := []string{
		`{"a":1,"b":[1,2,{"c":"d\u00e9"}],"e":"x\ny"}`,
		`[]`, `{}`, `"plain"`, `"esc\"aped"`, `[1,2,3]`,
		`{"a":1,"a":2}`, `{"a":NaN}`, `[1,2`, `"\ud800"`,
		`[` + strings.Repeat(`{"k":"v\t","n":[1,2,3]},`, 2000) + `{}]`,
		`{"s":"` + strings.Repeat(`\n`, 5000) + `"}`,
	}
	var a reuse.Arena
	for round := range 3 {
		for _, d := range docs {
			want, werr := ParseLimits(d, DefaultLimits)
			got, gerr := parseScratch(d, DefaultLimits, &a)
			if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
				t.Fatalf("round %d, %.40s: error %v, want %v", round, d, gerr, werr)
			}
			if !Equal(got, want) || got.String() != want.String() {
				t.Fatalf("round %d, %.40s: got %s", round, d, got)
			}
			reuse.Reset.(func(*reuse.Arena))(&a)
		}
	}
}
