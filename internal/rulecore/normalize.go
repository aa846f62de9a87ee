package rulecore

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"golang.org/x/text/cases"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"

	"github.com/callgrade/callgrade/value"
)

// A normalizer appends the normal form of s to dst. Appending, rather
// than returning a string, lets a comparison normalise both sides into
// buffers it reuses (see normBufs): strings that differ only until
// normalised are compared without allocating.
type normalizer func(dst []byte, s string) []byte

const normalizerNames = "trim, lower, collapse_space, strip_punct, nfc, {delete: CHARS}, {replace: {FROM: TO, ...}}"

// normStep is one normaliser as the suite writes it: how it appends a
// string's normal form and, for the normalisers that map each character
// on its own, that map, by which a run of them becomes one pass (see
// fuse).
type normStep struct {
	fn normalizer
	cm charMap // nil: the normal form of a character depends on others
}

// A charMap maps one character to its normal form: itself, another, or
// none (a negative rune); expands when the normal form is more than one
// character, which the normaliser's own function writes.
type charMap func(rune) rune

// expands is what a charMap returns for a character whose normal form is
// several characters: a fused run then normalises the string step by step.
const expands rune = -2

func normalizerByName(name string) normalizer { return stepByName(name).fn }

func stepByName(name string) normStep {
	switch name {
	case "trim":
		return normStep{fn: func(dst []byte, s string) []byte { return append(dst, strings.TrimSpace(s)...) }}
	case "lower":
		return normStep{appendLower, lowerRune}
	case "collapse_space":
		return normStep{fn: collapseSpace}
	case "strip_punct":
		return normStep{stripPunct, dropping(unicode.IsPunct)}
	case "nfc":
		// NFC composes a character with the ones after it.
		return normStep{fn: nfc}
	}
	return normStep{}
}

// dropping returns the charMap that drops the characters drop reports.
func dropping(drop func(rune) bool) charMap {
	return func(c rune) rune {
		if drop(c) {
			return -1
		}
		return c
	}
}

// paramStep compiles a normaliser written as an object with one
// property: {delete: CHARS} removes every character of CHARS;
// {replace: {FROM: TO, ...}} replaces each FROM with its TO, scanning the
// string once from the left (at one place, the longest FROM wins).
func paramStep(v value.Value) (normStep, error) {
	if v.Len() != 1 {
		return normStep{}, errorf("normalize", "a normaliser object has exactly one property, delete or replace; got "+describeKind(v))
	}
	m := v.Members()[0]
	switch m.Key {
	case "delete":
		if m.Value.Kind() != value.String || m.Value.Str() == "" {
			return normStep{}, errorf("normalize", "delete: want a non-empty string of the characters to delete, got "+describeKind(m.Value))
		}
		return deleteChars(m.Value.Str()), nil
	case "replace":
		if m.Value.Kind() != value.Object || m.Value.Len() == 0 {
			return normStep{}, errorf("normalize", "replace: want a non-empty object of FROM: TO strings, got "+describeKind(m.Value))
		}
		rs := slices.Clone(m.Value.Members())
		// At one place the longest FROM wins: NewReplacer tries them in order.
		slices.SortStableFunc(rs, func(a, b value.Member) int { return len(b.Key) - len(a.Key) })
		var pairs []string
		for _, r := range rs {
			if r.Key == "" || r.Value.Kind() != value.String {
				return normStep{}, errorf("normalize", "replace: want non-empty FROM keys and string TO values, got "+describeKind(m.Value))
			}
			pairs = append(pairs, r.Key, r.Value.Str())
		}
		rep := strings.NewReplacer(pairs...)
		return normStep{func(dst []byte, s string) []byte { return append(dst, rep.Replace(s)...) }, replacing(pairs)}, nil
	}
	return normStep{}, errorf("normalize", "unknown normaliser "+strconv.Quote(m.Key)+"; the normalisers are "+normalizerNames)
}

// deleteChars returns a normaliser that removes every character of set.
func deleteChars(set string) normStep {
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
	return normStep{func(dst []byte, s string) []byte { return appendWithout(dst, s, del) }, dropping(del)}
}

// replacing returns the charMap of a replace normaliser whose FROM strings
// are each one character and whose TO strings are each one character or
// none, given as FROM, TO pairs; nil for any other. A FROM of one
// character matches only whole characters of UTF-8 text, so such a
// replacement maps each character on its own.
func replacing(pairs []string) charMap {
	to := make(map[rune]rune, len(pairs)/2)
	for i := 0; i < len(pairs); i += 2 {
		from, ok := oneRune(pairs[i])
		if !ok {
			return nil
		}
		r := rune(-1)
		if pairs[i+1] != "" {
			if r, ok = oneRune(pairs[i+1]); !ok {
				return nil
			}
		}
		to[from] = r
	}
	return func(c rune) rune {
		if r, ok := to[c]; ok {
			return r
		}
		return c
	}
}

// oneRune returns the character s is, when s is one valid character.
func oneRune(s string) (rune, bool) {
	r, n := utf8.DecodeRuneInString(s)
	return r, n == len(s) && (r != utf8.RuneError || n > 1)
}

// fuse compiles a pipeline of normalisers: each run of those that map
// each character on its own becomes one normaliser, which writes the
// run's result in one pass over the string (BFCL's delete, lower and
// replace, for one, read each string once, not three times into three
// buffers). nil for none.
func fuse(steps []normStep) []normalizer {
	var fns []normalizer
	for i := 0; i < len(steps); {
		if steps[i].cm == nil {
			fns = append(fns, steps[i].fn)
			i++
			continue
		}
		j := i + 1
		for j < len(steps) && steps[j].cm != nil {
			j++
		}
		fns = append(fns, newFused(steps[i:j]).append)
		i = j
	}
	return fns
}

// fused is a run of charMap normalisers made one.
type fused struct {
	ascii [utf8.RuneSelf]rune // each ASCII character's normal form
	word  wordMap             // the same, eight ASCII characters at a time
	// Each character of U+2000-U+207F (general punctuation: ’ “ ” – …,
	// the most of what is not ASCII in English text) is its own normal
	// form.
	punctSame bool
	maps      []charMap    // the run's maps, in order, for the others
	steps     []normalizer // the run as written, for text that is not UTF-8
}

func newFused(run []normStep) *fused {
	f := &fused{}
	for _, st := range run {
		f.maps = append(f.maps, st.cm)
		f.steps = append(f.steps, st.fn)
	}
	for c := range f.ascii {
		f.ascii[c] = f.mapRune(rune(c))
	}
	f.word = newWordMap(&f.ascii)
	f.punctSame = true
	for c := rune(0x2000); c < 0x2080; c++ {
		f.punctSame = f.punctSame && f.mapRune(c) == c
	}
	return f
}

func (f *fused) mapRune(r rune) rune {
	for _, m := range f.maps {
		if r = m(r); r < 0 {
			break
		}
	}
	return r
}

func (f *fused) append(dst []byte, s string) []byte {
	start := len(dst)
	for i := 0; len(s) >= 8; {
		// A string of eight bytes or more is read by mapASCII, but for
		// the characters it stops at. (It is not a function of its own:
		// a call more deep in the stack costs the callers of a walk a
		// stack to grow.)
		if cap(dst)-len(dst) < len(s)-i+8 {
			dst = slices.Grow(dst, len(s)-i+8)
		}
		var l int
		var r rune
		l, i, r = f.mapASCII(dst[:cap(dst)], len(dst), s, i)
		dst = dst[:l]
		switch {
		case i == len(s):
			return dst
		case s[i] < utf8.RuneSelf:
			dst = utf8.AppendRune(dst, r)
			i++
		default:
			var ok bool
			if dst, i, ok = f.appendOthers(dst, s, i); !ok {
				// Text that is not UTF-8, or a character whose normal
				// form is several.
				return f.slow(dst[:start], s)
			}
		}
	}
	for i := 0; i < len(s); {
		r := rune(s[i])
		if r < utf8.RuneSelf {
			r = f.ascii[r]
			i++
		} else {
			var n int
			if r, n = utf8.DecodeRuneInString(s[i:]); r == utf8.RuneError && n == 1 {
				// The normalisers read invalid UTF-8 each its own way.
				return f.slow(dst[:start], s)
			}
			if r = f.mapRune(r); r == expands {
				return f.slow(dst[:start], s)
			}
			i += n
		}
		switch {
		case r < 0:
		case r < utf8.RuneSelf:
			dst = append(dst, byte(r))
		default:
			dst = utf8.AppendRune(dst, r)
		}
	}
	return dst
}

// mapASCII writes the normal form of s from i on into out from l on, up
// to the end of s or the first character whose normal form is neither
// ASCII nor none (and which is not in U+2000-U+207F when those are their
// own), and returns where it stopped in out and in s and, when it stopped
// at an ASCII character, that character's normal form. out has room for
// a byte for each character left and a word more.
//
// The text BFCL's agentic answers and most others hold is ASCII that
// maps to itself, with a character to change or delete now and then:
// eight characters are read, tested and written at once (see wordMap), up
// to the first that must be mapped alone. The last eight bytes of s are
// read for its last few. It calls nothing, so that it needs no more stack
// than its caller's.
func (f *fused) mapASCII(out []byte, l int, s string, i int) (int, int, rune) {
	wm := &f.word
	// The ranges are held in locals: read through wm, each would be
	// loaded again for each word, the stores to out between.
	r0, r1, lo := wm.ranges[0], wm.ranges[1], wm.lower
	for {
		var special, mapped uint64
		for ; i+8 <= len(s); i, l = i+8, l+8 {
			mapped, special = mapWord(load64(s, i), r0, r1, lo)
			binary.LittleEndian.PutUint64(out[l:l+8], mapped)
			if special != 0 {
				break
			}
		}
		if special == 0 {
			if i == len(s) {
				return l, i, 0
			}
			n := len(s) - i // < 8: the word is the last n bytes
			mapped, special = mapWord(load64(s, len(s)-8)>>(64-8*n), r0, r1, lo)
			binary.LittleEndian.PutUint64(out[l:l+8], mapped)
			if special &= ^uint64(0) >> (64 - 8*n); special == 0 {
				return l + n, len(s), 0
			}
		}
		k := bits.TrailingZeros64(special) >> 3
		l, i = l+k, i+k
		if c := s[i]; c >= utf8.RuneSelf {
			if !f.punctSame || !isPunctBlock(s, i) {
				return l, i, 0
			}
			// Its own normal form, three bytes for three.
			out[l], out[l+1], out[l+2] = c, s[i+1], s[i+2]
			l, i = l+3, i+3
			continue
		}
		r := f.ascii[s[i]]
		if r >= utf8.RuneSelf {
			return l, i, r
		}
		if i++; r >= 0 {
			out[l] = byte(r)
			l++
		}
	}
}

// isPunctBlock reports whether s holds a character of U+2000-U+207F at
// i, which UTF-8 writes E2 80-81 80-BF.
func isPunctBlock(s string, i int) bool {
	return i+2 < len(s) && s[i] == 0xe2 && s[i+1]&0xfe == 0x80 && s[i+2]&0xc0 == 0x80
}

// appendOthers appends the normal form of the run of characters of s from
// i on that are not ASCII (in Chinese text, a run of characters is the
// text) and returns where the run ends; false if s is not UTF-8 there.
func (f *fused) appendOthers(dst []byte, s string, i int) ([]byte, int, bool) {
	for i < len(s) && s[i] >= utf8.RuneSelf {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			// The normalisers read invalid UTF-8 each its own way.
			return dst, i, false
		}
		switch r = f.mapRune(r); {
		case r == expands:
			return dst, i, false
		case r >= 0:
			dst = utf8.AppendRune(dst, r)
		}
		i += n
	}
	return dst, i, true
}

// A wordMap maps eight ASCII characters at once, held in a uint64 as
// binary.LittleEndian reads them, when most ASCII characters map to
// themselves: those that do not are found by a test of each byte against
// two ranges that hold them (a few that map to themselves too, at worst)
// and mapped one at a time, but for A-Z, which are lowered in place when
// each maps to its lower case.
type wordMap struct {
	ranges [2]byteRange // the characters to map one at a time
	lower  byteRange    // A-Z when they are lowered here, else none
}

// A byteRange tests each byte of a word for lo <= b <= hi by two
// additions, which set a byte's high bit when it is at least lo (ge) and
// when it is over hi (gt), each byte of ge being 0x80-lo, of gt 0x7f-hi.
// The bytes must be ASCII: a byte of 0x80 or more makes the test of the
// bytes after it (above it) wrong, by its carry, and the bytes before it
// right. The zero byteRange holds no byte.
type byteRange struct{ ge, gt uint64 }

const (
	lowBytes  = 0x0101010101010101
	highBytes = 0x8080808080808080
)

func newByteRange(lo, hi byte) byteRange {
	return byteRange{ge: lowBytes * uint64(0x80-lo), gt: lowBytes * uint64(0x7f-hi)}
}

// in returns a word whose high bit of each byte is set when the byte of
// w is in r (the other bits are not to be read).
func (r byteRange) in(w uint64) uint64 { return (w + r.ge) &^ (w + r.gt) }

// mapWord returns w mapped by a wordMap's ranges r0, r1 and lower, and
// the high bit of each byte of w that is to be mapped alone: each
// character that is not ASCII or maps to another than w's byte. Bytes
// past the first of these are not mapped. It takes the ranges, not the
// wordMap, so that mapASCII holds them in locals across its words.
func mapWord(w uint64, r0, r1, lower byteRange) (mapped, special uint64) {
	special = (w | r0.in(w) | r1.in(w)) & highBytes
	return w + lower.in(w)&highBytes>>2, special
}

// newWordMap finds the wordMap of the normal forms ascii.
func newWordMap(ascii *[utf8.RuneSelf]rune) wordMap {
	var wm wordMap
	lower := true
	for c := 'A'; c <= 'Z'; c++ {
		lower = lower && ascii[c] == c+'a'-'A'
	}
	if lower {
		wm.lower = newByteRange('A', 'Z')
	}
	// The runs of characters to map alone, the closest two joined until
	// two are left.
	var runs [][2]byte
	for c := range ascii {
		if ascii[c] == rune(c) || lower && 'A' <= c && c <= 'Z' {
			continue
		}
		if k := len(runs) - 1; k >= 0 && runs[k][1] == byte(c-1) {
			runs[k][1] = byte(c)
		} else {
			runs = append(runs, [2]byte{byte(c), byte(c)})
		}
	}
	for len(runs) > len(wm.ranges) {
		k := 0
		for j := 1; j+1 < len(runs); j++ {
			if runs[j+1][0]-runs[j][1] < runs[k+1][0]-runs[k][1] {
				k = j
			}
		}
		runs[k][1] = runs[k+1][1]
		runs = slices.Delete(runs, k+1, k+2)
	}
	for k, r := range runs {
		wm.ranges[k] = newByteRange(r[0], r[1])
	}
	return wm
}

// load64 reads the eight bytes of s from i on, as binary.LittleEndian.
func load64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// slow runs the steps one after another.
func (f *fused) slow(dst []byte, s string) []byte {
	last := len(f.steps) - 1
	for _, fn := range f.steps[:last] {
		s = string(fn(nil, s))
	}
	return f.steps[last](dst, s)
}

// appendWithout appends s without the runes drop reports.
func appendWithout(dst []byte, s string, drop func(rune) bool) []byte {
	i := strings.IndexFunc(s, drop)
	if i < 0 {
		return append(dst, s...)
	}
	dst = append(dst, s[:i]...)
	for _, c := range s[i:] {
		if !drop(c) {
			dst = utf8.AppendRune(dst, c)
		}
	}
	return dst
}

// appendLower appends s in lower case by Unicode's full mapping, as
// Python's str.lower, JavaScript's toLowerCase and Java's toLowerCase
// write it: strings.ToLower's simple mapping but for İ (U+0130), whose
// lower case is i and a combining dot above (U+0069 U+0307), the one
// character whose lower case is two. The final sigma, which those
// languages write ς by its context, is σ here.
func appendLower(dst []byte, s string) []byte {
	if isASCII(s) {
		for i := 0; i < len(s); i++ {
			dst = append(dst, lowerASCII(s[i]))
		}
		return dst
	}
	for _, c := range s {
		if c == dottedI {
			dst = append(dst, "i\u0307"...)
			continue
		}
		dst = utf8.AppendRune(dst, unicode.ToLower(c))
	}
	return dst
}

// Lower is s as the lower normaliser writes it, for a suite's writer that
// must write an expected value the way scoring will see the actual one.
func Lower(s string) string { return string(appendLower(nil, s)) }

// dottedI is İ, LATIN CAPITAL LETTER I WITH DOT ABOVE.
const dottedI = '\u0130'

// lowerRune is lower's charMap.
func lowerRune(c rune) rune {
	if c == dottedI {
		return expands
	}
	return unicode.ToLower(c)
}

// collapseSpace appends s with each run of Unicode white space replaced by
// one space. It does not trim: that is what trim is for.
func collapseSpace(dst []byte, s string) []byte {
	prevSpace := false
	for _, c := range s {
		if unicode.IsSpace(c) {
			if !prevSpace {
				dst = append(dst, ' ')
			}
			prevSpace = true
			continue
		}
		prevSpace = false
		dst = utf8.AppendRune(dst, c)
	}
	return dst
}

// stripPunct removes Unicode punctuation (category P).
func stripPunct(dst []byte, s string) []byte { return appendWithout(dst, s, unicode.IsPunct) }

// nfc appends s in Unicode Normalization Form C.
func nfc(dst []byte, s string) []byte {
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
		return append(dst, s...)
	}
	return norm.NFC.AppendString(dst, s)
}

// normBufs are the buffers one comparison normalises into: two for each
// side, which the normalisers of a pipeline write into in turn.
type normBufs struct {
	b  [2][2][]byte
	bt backtrackBufs // progMatcher's, which reads the normal form in b
}

var normPool = sync.Pool{New: func() any { return new(normBufs) }}

// apply runs fns over s into side's buffers and returns the result,
// which is valid until the buffers are used again.
func (nb *normBufs) apply(fns []normalizer, s string, side int) string {
	for i, fn := range fns {
		buf := &nb.b[side][i%2]
		*buf = fn((*buf)[:0], s)
		s = unsafe.String(unsafe.SliceData(*buf), len(*buf))
	}
	return s
}

// applyNorm returns s under fns, s itself when they change nothing.
func applyNorm(fns []normalizer, s string) string {
	if len(fns) == 0 {
		return s
	}
	nb := normPool.Get().(*normBufs)
	out := nb.apply(fns, s, 0)
	if out == s {
		out = s
	} else {
		out = strings.Clone(out)
	}
	normPool.Put(nb)
	return out
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
	fb := foldBufs.Get().(*foldBuf)
	defer foldBufs.Put(fb)
	fb.a = foldAppend(fb.c, fb.a[:0], a)
	fb.b = foldAppend(fb.c, fb.b[:0], b)
	return string(fb.a) == string(fb.b)
}

// foldBuf is what foldEqual folds two strings with: a case folder and a
// buffer for each side, kept for the next comparison, so that comparing
// two strings that are not ASCII (ACEBench's Chinese ones) allocates
// nothing, where foldString allocates a buffer and a string for each.
type foldBuf struct {
	c    transform.Transformer // a cases.Caser, made an interface once
	a, b []byte
}

var foldBufs = sync.Pool{New: func() any { return &foldBuf{c: cases.Fold(), a: make([]byte, 0, 256), b: make([]byte, 0, 256)} }}

// foldAppend appends s under c's case folding to dst. Folding reads s and
// does not write it, so s's bytes are handed over as they are.
func foldAppend(c transform.Transformer, dst []byte, s string) []byte {
	if len(dst) == cap(dst) {
		// transform.Append would allocate a buffer of its own.
		dst = slices.Grow(dst, len(s)+16)
	}
	out, _, _ := transform.Append(c, dst, unsafe.Slice(unsafe.StringData(s), len(s)))
	return out
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
