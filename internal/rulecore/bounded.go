package rulecore

import (
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"
)

// boundedAlts decides, without running the regex, a regex of one shape:
// an alternation of groups (?:PRE LIT POST), each LIT a literal and PRE
// (POST) one character of a class, or a class or the start (the end) of
// the text. It is the shape BFCL's final answers are judged by (a
// possible answer between word boundaries, bfcl/agentic.go's pyBounded),
// which RE2 tries at each position of the answer, one class look-up a
// character; here each literal is sought with strings.Index and only its
// occurrences are checked. nil: the regex has another shape.
type boundedAlts []boundedAlt

type boundedAlt struct {
	lit             string
	pre, post       []rune   // the classes, as ranges lo, hi (syntax.Regexp.Rune)
	preSet, postSet asciiSet // their ASCII characters
	atStart, atEnd  bool     // the start (end) of the text stands for PRE (POST)
}

// compileBounded returns the boundedAlts that src is, or nil. Each group
// is parsed on its own, as regexp would read it: parsed together, RE2
// factors the alternatives' common parts out.
func compileBounded(src string) boundedAlts {
	if strings.Contains(src, `\Q`) {
		return nil // quoted text, which the split below does not read
	}
	groups := splitGroups(src)
	if groups == nil {
		return nil
	}
	out := make(boundedAlts, 0, len(groups))
	for _, g := range groups {
		re, err := syntax.Parse(g, syntax.Perl)
		if err != nil {
			return nil
		}
		a, ok := boundedOf(re)
		if !ok {
			return nil
		}
		out = append(out, a)
	}
	return out
}

// splitGroups splits src at its top-level |, when each part is one
// group (?:...), and returns the parts; nil otherwise.
func splitGroups(src string) []string {
	var parts []string
	depth, start, class := 0, 0, false
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\\':
			i++ // the escaped character, whatever it is
		case class:
			if c == '[' && i+1 < len(src) && src[i+1] == ':' {
				// [:alpha:] within a class
				end := strings.Index(src[i+2:], ":]")
				if end < 0 {
					return nil
				}
				i += 2 + end + 1
			} else if c == ']' {
				class = false
			}
		case c == '[':
			class = true
			// A ] first in the class, after an optional ^, is itself.
			if i+1 < len(src) && src[i+1] == '^' {
				i++
			}
			if i+1 < len(src) && src[i+1] == ']' {
				i++
			}
		case c == '(':
			if depth == 0 && (i != start || !strings.HasPrefix(src[i:], "(?:")) {
				return nil
			}
			depth++
		case c == ')':
			depth--
			if depth < 0 {
				return nil
			}
			if depth == 0 && i+1 < len(src) && src[i+1] != '|' {
				return nil // the group is not the whole part
			}
		case depth == 0 && c == '|':
			parts = append(parts, src[start:i])
			start = i + 1
		case depth == 0:
			return nil // outside a group
		}
	}
	if depth != 0 || class || start >= len(src) {
		return nil
	}
	return append(parts, src[start:])
}

// boundedOf reads one group, parsed: PRE LIT POST.
func boundedOf(re *syntax.Regexp) (boundedAlt, bool) {
	if re.Op != syntax.OpConcat || len(re.Sub) != 3 {
		return boundedAlt{}, false
	}
	var a boundedAlt
	var ok bool
	if a.pre, a.atStart, ok = edgeOf(re.Sub[0], syntax.OpBeginText); !ok {
		return boundedAlt{}, false
	}
	if a.post, a.atEnd, ok = edgeOf(re.Sub[2], syntax.OpEndText); !ok {
		return boundedAlt{}, false
	}
	lit := re.Sub[1]
	if lit.Op != syntax.OpLiteral || lit.Flags&syntax.FoldCase != 0 || len(lit.Rune) == 0 {
		return boundedAlt{}, false
	}
	for _, r := range lit.Rune {
		// RE2 reads a byte that is not UTF-8 as U+FFFD, which the text
		// would not hold as such.
		if r == utf8.RuneError || !utf8.ValidRune(r) {
			return boundedAlt{}, false
		}
	}
	a.lit = string(lit.Rune)
	a.preSet = asciiSetOf(func(r rune) bool { return inClass(a.pre, r) })
	a.postSet = asciiSetOf(func(r rune) bool { return inClass(a.post, r) })
	return a, true
}

// edgeOf reads a PRE or a POST: a class, or the alternation of the edge
// op and a class.
func edgeOf(re *syntax.Regexp, edge syntax.Op) (class []rune, atEdge, ok bool) {
	switch {
	case re.Op == syntax.OpCharClass:
		return re.Rune, false, true
	case re.Op == syntax.OpAlternate && len(re.Sub) == 2 && re.Sub[0].Op == edge && re.Sub[1].Op == syntax.OpCharClass:
		return re.Sub[1].Rune, true, true
	}
	return nil, false, false
}

// match reports whether the regex matches s. Text that is not UTF-8 is
// read as RE2 reads it: each byte of a broken sequence is U+FFFD, which
// no literal holds (compileBounded refuses one that does) and which a
// class holds or not as it would the character. A literal begins with a
// byte that begins a character, where RE2's reading of the text also
// begins one, and DecodeLastRuneInString finds before it the character
// RE2 read there (FuzzBounded holds the two to RE2's verdicts on any
// bytes).
func (b boundedAlts) match(s string) bool {
	for i := range b {
		if b[i].match(s) {
			return true
		}
	}
	return false
}

func (a *boundedAlt) match(s string) bool {
	for from := 0; from < len(s); {
		k := strings.Index(s[from:], a.lit)
		if k < 0 {
			return false
		}
		at, end := from+k, from+k+len(a.lit)
		before := a.atStart && at == 0
		switch {
		case at == 0:
		case s[at-1] < utf8.RuneSelf:
			before = a.preSet.has(s[at-1])
		default:
			r, _ := utf8.DecodeLastRuneInString(s[:at])
			before = inClass(a.pre, r)
		}
		after := a.atEnd && end == len(s)
		switch {
		case end == len(s):
		case s[end] < utf8.RuneSelf:
			after = a.postSet.has(s[end])
		default:
			r, _ := utf8.DecodeRuneInString(s[end:])
			after = inClass(a.post, r)
		}
		if before && after {
			return true
		}
		from = at + 1
	}
	return false
}

// inClass reports whether r is in the class of ranges lo, hi, which are
// sorted.
func inClass(ranges []rune, r rune) bool {
	lo, hi := 0, len(ranges)/2
	for lo < hi {
		m := (lo + hi) / 2
		switch {
		case r < ranges[2*m]:
			hi = m
		case r > ranges[2*m+1]:
			lo = m + 1
		default:
			return true
		}
	}
	return false
}

// anchoredAlts decides, without running the regex, a regex of another
// shape: ^(?:S1|S2|...)$ (or ^S1$), each S a sequence of literal
// characters and character classes, each alone or repeated (X*, X+, X?),
// in which each repeated one can share no character with what may follow
// it. Such a
// sequence matches at most one way, which reading it from the left finds:
// the shape of the Java and JavaScript values BFCL reads from source
// text (bfcl/source.go's stdPattern: a standardised string, the
// deletable characters allowed around each character). nil: the regex
// has another shape.
type anchoredAlts []anchoredSeq

// anchoredSeq is one alternative of an anchoredAlts: its items, and,
// when it is D* L1 D* L2 ... Ln D* (each L one character that D does not
// match, as BFCL's standardised strings are), the ASCII characters of D
// and of each L. A text of ASCII characters then matches when, its D
// characters deleted, its characters are in the Ls' one for one
// (deleted): one test of a character where the items take two, a star's
// and a literal's, each with its loop. lits is nil for another shape.
type anchoredSeq struct {
	items []seqItem
	del   asciiSet
	lits  []asciiSet
}

// seqItem is one character of a sequence (a literal or a class), or a
// class repeated.
type seqItem struct {
	// What matchSeq reads of most characters comes first, in one cache
	// line with the next item's: a sequence is read item by item.
	ascii asciiSet
	star  bool
	one   bool   // with star: at most once (X?)
	fold  bool   // lit in any case, as RE2's (?i) folds it
	lit   rune   // a literal character, when class is nil
	class []rune // ranges lo, hi
}

// asciiSet is the ASCII characters an item matches, which most texts are
// made of: one bit read rather than a class searched or a case folded.
type asciiSet [2]uint64

func asciiSetOf(matches func(rune) bool) asciiSet {
	var set asciiSet
	for c := 0; c < utf8.RuneSelf; c++ {
		if matches(rune(c)) {
			set[c/64] |= 1 << (c % 64)
		}
	}
	return set
}

func (set *asciiSet) has(c byte) bool {
	return set[c/64]&(1<<(c%64)) != 0
}

// anyRune and anyRuneNotNL are . with and without s.
var (
	anyRune      = []rune{0, utf8.MaxRune}
	anyRuneNotNL = []rune{0, '\n' - 1, '\n' + 1, utf8.MaxRune}
)

func compileAnchored(src string) anchoredAlts {
	re, err := syntax.Parse(src, syntax.Perl)
	if err != nil || re.Op != syntax.OpConcat || len(re.Sub) < 2 ||
		re.Sub[0].Op != syntax.OpBeginText || re.Sub[len(re.Sub)-1].Op != syntax.OpEndText {
		return nil
	}
	body := re.Sub[1 : len(re.Sub)-1]
	alts := [][]*syntax.Regexp{body}
	if len(body) == 1 && body[0].Op == syntax.OpAlternate {
		alts = nil
		for _, a := range body[0].Sub {
			alts = append(alts, []*syntax.Regexp{a})
		}
	}
	var out anchoredAlts
	for _, a := range alts {
		var seq []seqItem
		for _, n := range a {
			var ok bool
			if seq, ok = appendSeq(seq, n); !ok {
				return nil
			}
		}
		if !oneWay(seq) {
			return nil
		}
		for i := range seq {
			seq[i].ascii = asciiSetOf(seq[i].matches)
		}
		out = append(out, deletedForm(seq))
	}
	return out
}

// deletedForm is the alternative of items seq, with its deleted form
// when seq is D* L1 D* ... Ln D*: every star the same set of ASCII
// characters and not X?, each L one character. oneWay has found that no
// L shares a character with the D* before it.
func deletedForm(seq []seqItem) anchoredSeq {
	q := anchoredSeq{items: seq}
	if len(seq)%2 == 0 || !seq[0].star || seq[0].one {
		return q
	}
	d := seq[0].ascii
	lits := make([]asciiSet, 0, len(seq)/2)
	for k := 1; k < len(seq); k += 2 {
		l, st := &seq[k], &seq[k+1]
		if l.star || !st.star || st.one || st.ascii != d {
			return q
		}
		lits = append(lits, l.ascii)
	}
	q.del, q.lits = d, lits
	return q
}

// appendSeq appends the items of n to seq; ok is false for a node of
// another kind.
func appendSeq(seq []seqItem, n *syntax.Regexp) ([]seqItem, bool) {
	switch n.Op {
	case syntax.OpConcat:
		for _, s := range n.Sub {
			var ok bool
			if seq, ok = appendSeq(seq, s); !ok {
				return nil, false
			}
		}
		return seq, true
	case syntax.OpEmptyMatch:
		return seq, true
	case syntax.OpLiteral:
		for _, r := range n.Rune {
			seq = append(seq, seqItem{lit: r, fold: n.Flags&syntax.FoldCase != 0})
		}
		return seq, true
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return append(seq, seqItem{class: classOf(n)}), true
	case syntax.OpStar, syntax.OpQuest, syntax.OpPlus:
		it, ok := charItem(n.Sub[0])
		if !ok {
			break
		}
		if n.Op == syntax.OpPlus {
			seq = append(seq, it) // X+ is X X*
		}
		it.star, it.one = true, n.Op == syntax.OpQuest
		return append(seq, it), true
	}
	return nil, false
}

// charItem reads a node that matches one character.
func charItem(n *syntax.Regexp) (seqItem, bool) {
	switch n.Op {
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return seqItem{class: classOf(n)}, true
	case syntax.OpLiteral:
		if len(n.Rune) == 1 {
			return seqItem{lit: n.Rune[0], fold: n.Flags&syntax.FoldCase != 0}, true
		}
	}
	return seqItem{}, false
}

func classOf(n *syntax.Regexp) []rune {
	switch n.Op {
	case syntax.OpAnyChar:
		return anyRune
	case syntax.OpAnyCharNotNL:
		return anyRuneNotNL
	}
	return n.Rune
}

// oneWay reports whether each repeated item of seq shares no character
// with the items that may follow it: those up to the first that is not
// repeated.
func oneWay(seq []seqItem) bool {
	for i := range seq {
		if !seq[i].star {
			continue
		}
		for j := i + 1; j < len(seq); j++ {
			if overlap(&seq[i], &seq[j]) {
				return false
			}
			if !seq[j].star {
				break
			}
		}
	}
	return true
}

// overlap reports whether some character matches both a and b.
func overlap(a, b *seqItem) bool {
	if a.class == nil {
		a, b = b, a
	}
	if a.class == nil {
		return a.matches(b.lit) || b.matches(a.lit)
	}
	if b.class == nil {
		return b.anyOf(func(r rune) bool { return inClass(a.class, r) })
	}
	for i := 0; i < len(a.class); i += 2 {
		for j := 0; j < len(b.class); j += 2 {
			if a.class[i] <= b.class[j+1] && b.class[j] <= a.class[i+1] {
				return true
			}
		}
	}
	return false
}

// anyOf reports whether f holds for a character a literal item matches.
func (it *seqItem) anyOf(f func(rune) bool) bool {
	if f(it.lit) {
		return true
	}
	if it.fold {
		for r := unicode.SimpleFold(it.lit); r != it.lit; r = unicode.SimpleFold(r) {
			if f(r) {
				return true
			}
		}
	}
	return false
}

// matches reports whether the item matches r, as RE2 matches it.
func (it *seqItem) matches(r rune) bool {
	if it.class != nil {
		return inClass(it.class, r)
	}
	return it.anyOf(func(x rune) bool { return x == r })
}

// match reports whether the regex matches s. The characters are read as
// RE2 reads them: a byte that is not UTF-8 is U+FFFD.
func (a anchoredAlts) match(s string) bool {
	for i := range a {
		if a[i].match(s) {
			return true
		}
	}
	return false
}

// match reports whether q's alternative matches s: in the deleted form
// when q has one and it decides, else item by item.
func (q *anchoredSeq) match(s string) bool {
	if q.lits != nil {
		if ok, decided := q.deleted(s); decided {
			return ok
		}
	}
	return matchSeq(q.items, s)
}

// deleted matches s in the deleted form, up to its first character that
// is not ASCII, where decided is false: the items read the rest, which
// RE2's case folding may match otherwise (K, the Kelvin sign, for k).
// A character that is neither D's nor the next L's ends the match: the
// sequence matches one way only.
func (q *anchoredSeq) deleted(s string) (ok, decided bool) {
	// In locals, not loaded through q at each character.
	del, lits := q.del, q.lits
	j := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= utf8.RuneSelf:
			return false, false
		case del.has(c):
		case j < len(lits) && lits[j].has(c):
			j++
		default:
			return false, true
		}
	}
	return j == len(lits), true
}

// matchSeq reads s by seq from the left. An ASCII character is tested
// here, a bit of the item's set, without a call: Java/JS texts are
// mostly ASCII, and each of their characters takes a test or two.
func matchSeq(seq []seqItem, s string) bool {
	i := 0
	for k := range seq {
		it := &seq[k]
		if it.star {
			for i < len(s) {
				n := 0
				if c := s[i]; c < utf8.RuneSelf {
					if it.ascii.has(c) {
						n = 1
					}
				} else {
					n = it.width(s, i)
				}
				if n == 0 {
					break
				}
				i += n
				if it.one {
					break
				}
			}
			continue
		}
		if i >= len(s) {
			return false
		}
		if c := s[i]; c < utf8.RuneSelf {
			if !it.ascii.has(c) {
				return false
			}
			i++
			continue
		}
		n := it.width(s, i)
		if n == 0 {
			return false
		}
		i += n
	}
	return i == len(s)
}

// width returns the length of the character at s[i], which is not
// ASCII, when the item matches it, and 0 when it does not.
func (it *seqItem) width(s string, i int) int {
	r, n := utf8.DecodeRuneInString(s[i:])
	if it.matches(r) {
		return n
	}
	return 0
}

// decodeRune reads the character at s[i]: an ASCII byte without a call.
func decodeRune(s string, i int) (rune, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(s[i:])
}
