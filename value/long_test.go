package value

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"
)

// A long string with escapes decodes as encoding/json decodes it, with one
// buffer of its own (the literal's length, handed out as the string)
// rather than a scratch buffer grown step by step and copied at the end;
// a short one still lands in the scratch buffer and the arena, and the
// long string is not overwritten by a later one.
func TestParseLongEscaped(t *testing.T) {
	long := strings.Repeat(`ab\"c\\d\u00e9\ud83d\ude00\n`, 20000) // ~600 KB escaped
	doc := `{"a":"` + long + `","b":"x\"y","c":"` + strings.Repeat(`z\t`, 30000) + `"}`
	var want map[string]string
	if err := json.Unmarshal([]byte(doc), &want); err != nil {
		t.Fatal(err)
	}
	var p Parser
	for range 2 {
		p.Reset()
		v, err := p.Parse(doc, Limits{MaxBytes: len(doc) + 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"a", "b", "c"} {
			if got, _ := v.Get(k); got.Str() != want[k] {
				t.Errorf("%s: %d bytes, want %d", k, len(got.Str()), len(want[k]))
			}
		}
	}
	var pl Parser
	in := `"` + long + `"`
	pl.Parse(in, Limits{MaxBytes: len(in) + 1})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	pl.Reset()
	pl.Parse(in, Limits{MaxBytes: len(in) + 1})
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > uint64(len(long))+128<<10 {
		t.Errorf("%d bytes allocated to parse one escaped string of %d, want about its own", got, len(long))
	}
}
