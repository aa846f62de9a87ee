package rulecore

import (
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/callgrade/callgrade/rules"
)

// TestReGot holds a regex rule's messages, joined in one piece, to the
// messages written piece by piece: values shortened or not, and past the
// stack buffer reGot shows them in; patterns and rules clipped or not.
func TestReGot(t *testing.T) {
	long := strings.Repeat("é", 100) + strings.Repeat("x", 300)
	for _, tc := range []struct{ rule, actual string }{
		{`{"regex":"^a"}`, `"b"`},
		{`{"regex":"^a"}`, `""`},
		{`{"regex":"^a"}`, `"` + long + `"`},
		{`{"regex":"^` + strings.Repeat("[0-9]", 500) + `$"}`, `"` + long + `"`},
		{`{"regex":"^a"}`, `[` + strings.Repeat(`1e999999999,`, 40) + `1]`},
		{`{"regex":"^a"}`, `1` + strings.Repeat("0", 400)},
		{`{"regex":"^a"}`, `{"k":"\u0000\"\\"}`},
	} {
		r := mustRule(t, rules.Extensions{}, tc.rule)
		a := mustParse(t, tc.actual)
		var rm room
		want := rm.message("expected a string matching ").s(clipped(r.re.String())).s(", got ").show(a).rule(clipped(r.String())).done(nil)
		if got := r.reGot(a, nil); got != want {
			t.Errorf("%s, %.40s: got\n%q\nwant\n%q", tc.rule, tc.actual, got, want)
		}
		for _, what := range []string{"argument", "field", "element"} {
			var rm room
			want := rm.message("expected a string matching ").s(clipped(r.re.String())).s(", but the ").s(what).s(" is missing").done(nil)
			if got := r.reMissing(what, nil); got != want {
				t.Errorf("%s, %s missing: got\n%q\nwant\n%q", tc.rule, what, got, want)
			}
		}
	}
}

// TestReClipped: a pattern of kilobytes is shown by its first maxShown
// bytes and an ellipsis, cut at the start of a character, in the message
// and in the rule it names there; the rule itself is whole; a pattern of
// maxShown bytes is shown whole.
func TestReClipped(t *testing.T) {
	long := "^" + strings.Repeat("a", maxShown-2) + "é" + strings.Repeat("[0-9]", 500) + "$"
	r := mustRule(t, rules.Extensions{}, `{"regex":"`+long+`"}`)
	if !strings.Contains(r.String(), long) {
		t.Fatalf("the rule is %.60q…, not whole", r.String())
	}
	got := r.reGot(mustParse(t, `"x"`), nil)
	head, _ := clip(long)
	want := "expected a string matching " + head + `…, got "x" (regex=` + (("regex=" + long)[:maxShown])[len("regex="):] + "…)"
	if got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	if n := len(got); n > 2*maxShown+64 {
		t.Errorf("the message is %d bytes", n)
	}
	if h := head; len(h) != maxShown-1 || !utf8.ValidString(h) {
		t.Errorf("the pattern was cut to %d bytes (%q), want %d at a character's start", len(h), h, maxShown-1)
	}
	exact := "^" + strings.Repeat("a", maxShown-1)
	r = mustRule(t, rules.Extensions{}, `{"regex":"`+exact+`"}`)
	if got := r.reMissing("argument", nil); got != "expected a string matching "+exact+", but the argument is missing" {
		t.Errorf("a pattern of %d bytes: %q", len(exact), got)
	}
}

// TestMessageAllocs holds a message that fits its room to one
// allocation, its string, and checks one that does not fit.
func TestMessageAllocs(t *testing.T) {
	e, a := mustParse(t, `{"city":"Berlin"}`), mustParse(t, `"Berlin"`)
	var got string
	if n := testing.AllocsPerRun(100, func() {
		var rm room
		got = rm.message("").mismatch(e, a).note(actualDefaulted).rule("exact").done(nil)
	}); n != 1 {
		t.Errorf("a message cost %v allocations, want 1", n)
	}
	want := `expected {"city":"Berlin"} (object), got "Berlin" (string); the actual call omits it, so its default applies (exact)`
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// The bytes, not only the count: the room is copied out at the
	// message's length, where a buffer of room's size was kept before.
	one, two := mustParse(t, "1"), mustParse(t, "2")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	const n = 1000
	for range n {
		var rm room
		got = rm.message("").mismatch(one, two).rule("exact").done(nil)
	}
	runtime.ReadMemStats(&after)
	if b := (after.TotalAlloc - before.TotalAlloc) / n; b > 32 {
		t.Errorf("the %d-byte message %q cost %d bytes, want at most 32", len(got), got, b)
	}
	long := strings.Repeat("é", 100)
	var rm room
	got = rm.message("got ").s(long).rule("exact").done(nil)
	if want := "got " + long + " (exact)"; got != want || len(got) <= len(room{}) {
		t.Errorf("a message longer than its room: got %q, want %q", got, want)
	}
}
