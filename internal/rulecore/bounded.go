package rulecore

import (
	"regexp/syntax"
	"strings"
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
	lit            string
	pre, post      []rune // the classes, as ranges lo, hi (syntax.Regexp.Rune)
	atStart, atEnd bool   // the start (end) of the text stands for PRE (POST)
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

// match reports whether the regex matches s, which is UTF-8.
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
		if at > 0 {
			r, _ := utf8.DecodeLastRuneInString(s[:at])
			before = inClass(a.pre, r)
		}
		after := a.atEnd && end == len(s)
		if end < len(s) {
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
