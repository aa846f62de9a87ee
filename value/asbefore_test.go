package value

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// FuzzParseAsBefore holds the scanner to the one it was before its fast
// paths (refparse_test.go): the same values, members in the same order,
// and the same errors, offsets and messages, under each of several
// limits, keeping invalid UTF-8 or not, with an arena and without.
func FuzzParseAsBefore(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		s := string(data)
		for _, lim := range []Limits{{}, fuzzLimits, {MaxDepth: 3, MaxValues: 5}, {MaxValues: 40, MaxBytes: 100}} {
			for _, keep := range []bool{false, true} {
				for _, withArena := range []bool{false, true} {
					var a *arena
					if withArena {
						a = new(arena)
					}
					got, gotErr := parseWith(s, lim, a, keep)
					want, wantErr := refParseWith(s, lim, a, keep)
					sameParse(t, lim, keep, got, gotErr, want, wantErr)
				}
			}
		}
	})
}

// parseWith and refParseWith parse s as Parser.Parse or
// ParseKeepInvalidUTF8 do, with the scanner and its reference.
func parseWith(s string, lim Limits, a *arena, keep bool) (Value, error) {
	var p parser
	p.keepInvalid = keep
	return p.parse(s, lim, a)
}

func refParseWith(s string, lim Limits, a *arena, keep bool) (Value, error) {
	var p refParser
	p.keepInvalid = keep
	return p.parse(s, lim, a)
}

func sameParse(t *testing.T, lim Limits, keep bool, got Value, gotErr error, want Value, wantErr error) {
	t.Helper()
	if (gotErr == nil) != (wantErr == nil) {
		t.Fatalf("limits %+v keep %v: error %v, before %v", lim, keep, gotErr, wantErr)
	}
	if gotErr != nil {
		var g, w *Error
		if !errors.As(gotErr, &g) || !errors.As(wantErr, &w) || g.Err != w.Err || g.Offset != w.Offset || g.Error() != w.Error() {
			t.Fatalf("limits %+v keep %v: error %v, before %v", lim, keep, gotErr, wantErr)
		}
		return
	}
	if !sameValue(got, want) {
		t.Fatalf("limits %+v keep %v: %s, before %s", lim, keep, got, want)
	}
}

// sameValue reports whether a and b are the same tree: kinds, texts as
// written, and members in the same order.
func sameValue(a, b Value) bool {
	if a.kind != b.kind || a.b != b.b || a.n != b.n {
		return false
	}
	switch a.kind {
	case String, Number:
		return a.str() == b.str()
	case Array:
		for i, e := range a.elems() {
			if !sameValue(e, b.elems()[i]) {
				return false
			}
		}
	case Object:
		for i, m := range a.members() {
			if m.Key != b.members()[i].Key || !sameValue(m.Value, b.members()[i].Value) {
				return false
			}
		}
	}
	return true
}

// TestParseAsBeforeObjects holds objects of every size around the
// scanner's thresholds (smallGather, smallObject), their keys in order,
// reversed, shuffled and with one repeated, to the scanner before.
func TestParseAsBeforeObjects(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n <= 2*smallObject+2; n++ {
		keys := make([]string, n)
		for k := range keys {
			// Keys that share first bytes, so that comparisons go past them.
			keys[k] = string(rune('a'+k%3)) + strconv.Itoa(k*7919%1000)
		}
		orders := map[string][]string{"random": keys}
		sorted := slices.Clone(keys)
		slices.Sort(sorted)
		orders["sorted"] = sorted
		orders["reversed"] = slices.Clone(sorted)
		slices.Reverse(orders["reversed"])
		if n > 1 {
			orders["repeated"] = append(slices.Clone(keys), keys[rng.IntN(n)])
			orders["repeated twice"] = append(slices.Clone(sorted), sorted[n-1], sorted[0])
		}
		// In a fixed order, so that the shuffles draw the same numbers
		// each run and a failure comes back.
		for _, name := range []string{"random", "sorted", "reversed", "repeated", "repeated twice"} {
			ks, ok := orders[name]
			if !ok {
				continue
			}
			ks = slices.Clone(ks)
			rng.Shuffle(len(ks), func(a, b int) {
				if name == "random" || name == "repeated" {
					ks[a], ks[b] = ks[b], ks[a]
				}
			})
			var b strings.Builder
			b.WriteByte('{')
			for k, key := range ks {
				if k > 0 {
					b.WriteString(", ")
				}
				b.WriteString(strconv.Quote(key) + `: "` + key + `"`)
			}
			b.WriteByte('}')
			for _, withArena := range []bool{false, true} {
				var a *arena
				if withArena {
					a = new(arena)
				}
				got, gotErr := parseWith(b.String(), Limits{}, a, false)
				want, wantErr := refParseWith(b.String(), Limits{}, a, false)
				sameParse(t, Limits{}, false, got, gotErr, want, wantErr)
			}
		}
	}
}
