package rules

import (
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"github.com/callgrade/callgrade/value"
)

// A normalizer maps a string to its normal form. Each one returns its
// argument itself when there is nothing to change, so that comparing
// already-normal strings allocates nothing.
type normalizer func(string) string

const normalizerNames = "trim, lower, collapse_space, strip_punct, nfc, {delete: CHARS}, {replace: {FROM: TO, ...}}"

func normalizerByName(name string) normalizer {
	switch name {
	case "trim":
		return strings.TrimSpace
	case "lower":
		return strings.ToLower
	case "collapse_space":
		return collapseSpace
	case "strip_punct":
		return stripPunct
	case "nfc":
		return nfc
	}
	return nil
}

// paramNormalizer compiles a normaliser written as an object with one
// property: {delete: CHARS} removes every character of CHARS;
// {replace: {FROM: TO, ...}} replaces each FROM with its TO, scanning the
// string once from the left (at one place, the longest FROM wins).
func paramNormalizer(v value.Value) (normalizer, error) {
	if v.Len() != 1 {
		return nil, errorf("normalize", "a normaliser object has exactly one property, delete or replace; got "+describeKind(v))
	}
	m := v.Members()[0]
	switch m.Key {
	case "delete":
		if m.Value.Kind() != value.String || m.Value.Str() == "" {
			return nil, errorf("normalize", "delete: want a non-empty string of the characters to delete, got "+describeKind(m.Value))
		}
		return deleteChars(m.Value.Str()), nil
	case "replace":
		if m.Value.Kind() != value.Object || m.Value.Len() == 0 {
			return nil, errorf("normalize", "replace: want a non-empty object of FROM: TO strings, got "+describeKind(m.Value))
		}
		rs := slices.Clone(m.Value.Members())
		// At one place the longest FROM wins: NewReplacer tries them in order.
		slices.SortStableFunc(rs, func(a, b value.Member) int { return len(b.Key) - len(a.Key) })
		var pairs []string
		for _, r := range rs {
			if r.Key == "" || r.Value.Kind() != value.String {
				return nil, errorf("normalize", "replace: want non-empty FROM keys and string TO values, got "+describeKind(m.Value))
			}
			pairs = append(pairs, r.Key, r.Value.Str())
		}
		rep := strings.NewReplacer(pairs...)
		return rep.Replace, nil
	}
	return nil, errorf("normalize", "unknown normaliser "+strconv.Quote(m.Key)+"; the normalisers are "+normalizerNames)
}

// deleteChars returns a normaliser that removes every character of set.
func deleteChars(set string) normalizer {
	ascii := isASCII(set)
	var table [128]bool
	for i := 0; i < len(set); i++ {
		if set[i] < utf8.RuneSelf {
			table[set[i]] = true
		}
	}
	del := func(c rune) bool {
		if c < utf8.RuneSelf {
			return table[c]
		}
		return !ascii && strings.ContainsRune(set, c)
	}
	return func(s string) string { return removeRunes(s, del) }
}

// removeRunes returns s without the runes drop reports, s itself when
// there are none.
func removeRunes(s string, drop func(rune) bool) string {
	i := strings.IndexFunc(s, drop)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for _, c := range s[i:] {
		if !drop(c) {
			b.WriteRune(c)
		}
	}
	return b.String()
}

// collapseSpace replaces each run of Unicode white space with one space. It
// does not trim: that is what trim is for.
func collapseSpace(s string) string {
	clean := true
	prevSpace := false
	for _, c := range s {
		sp := unicode.IsSpace(c)
		if sp && (c != ' ' || prevSpace) {
			clean = false
			break
		}
		prevSpace = sp
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	prevSpace = false
	for _, c := range s {
		if unicode.IsSpace(c) {
			if !prevSpace {
				b.WriteByte(' ')
			}
			prevSpace = true
			continue
		}
		prevSpace = false
		b.WriteRune(c)
	}
	return b.String()
}

// stripPunct removes Unicode punctuation (category P).
func stripPunct(s string) string { return removeRunes(s, unicode.IsPunct) }

// nfc returns s in Unicode Normalization Form C.
func nfc(s string) string {
	// Every code point below U+0300 is NFC and composes with nothing
	// before it, and its UTF-8 bytes are all below 0xCC: such a string
	// needs no look-up (which, in package norm, allocates).
	low := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0xCC {
			low = false
			break
		}
	}
	if low || norm.NFC.IsNormalString(s) {
		return s
	}
	return norm.NFC.String(s)
}

func applyNorm(fns []normalizer, s string) string {
	for _, f := range fns {
		s = f(s)
	}
	return s
}

// foldEqual compares under Unicode full case folding ("Straße" equals
// "STRASSE"). Two ASCII strings fold to ASCII, so they are compared in
// place; anything else goes through cases.Fold.
func foldEqual(a, b string) bool {
	if isASCII(a) && isASCII(b) {
		if len(a) != len(b) {
			return false
		}
		for i := 0; i < len(a); i++ {
			x, y := a[i], b[i]
			if x != y && lowerASCII(x) != lowerASCII(y) {
				return false
			}
		}
		return true
	}
	return foldString(a) == foldString(b)
}

// folders holds case folders for reuse: a Caser may keep state, so one
// must not be used by two goroutines at once.
var folders = sync.Pool{New: func() any { c := cases.Fold(); return &c }}

func foldString(s string) string {
	c := folders.Get().(*cases.Caser)
	defer folders.Put(c)
	return c.String(s)
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
