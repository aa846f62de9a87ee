package bfcl

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/internal/rulecore"
	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/internal/suitedoc"
)

// BFCL's agentic categories, web_search and memory (docs/bfcl.md, "Agentic:
// web_search and memory"), judge the run's final answer only: it passes
// when it contains one of the possible answers between word boundaries,
// both sides standardised. Each question becomes a case in mode any (any
// calls before the answer) with a final rule: a regex of one word-bounded
// alternative per possible answer.

// isAgentic reports whether id is a question of BFCL's web_search or
// memory category, whose lines have no "function": BFCL adds the
// functions of the involved class when it runs them.
func isAgentic(id string) bool {
	return strings.HasPrefix(id, "web_search_") || strings.HasPrefix(id, "memory_")
}

// importAgentic writes the suite of agentic questions qs, whose possible
// answers in.Answers gives as lists of acceptable final answers.
func importAgentic(qs []suitedoc.Question, in Input, sem Semantics) (*Suite, error) {
	for _, q := range qs {
		if !isAgentic(q.ID) {
			return nil, fmt.Errorf("%s:%d: question %s is not a web_search or memory question, as %s is; import BFCL's agentic categories apart from the others",
				in.QuestionsName, q.Line, q.ID, qs[0].ID)
		}
	}
	if in.Answers == nil {
		return nil, fmt.Errorf("%s: the web_search and memory questions need their possible answers (--answers)", in.QuestionsName)
	}
	answers, err := suitedoc.ReadAnswers(in.Answers, in.AnswersName, qs, in.QuestionsName, readFinalAnswers)
	if err != nil {
		return nil, err
	}
	s, err := suitedoc.Build("# Imported from BFCL by callgrade import bfcl: the final answer is judged, any calls before it are accepted.\n",
		in.QuestionsName, qs, func(q suitedoc.Question) (*suitedoc.Node, error) {
			return agenticCase(q.ID, answers[q.ID], sem), nil
		})
	if err != nil {
		return nil, err
	}
	return &Suite{s}, nil
}

// readFinalAnswers reads an agentic answer's "ground_truth": a list of
// strings, any one of which the final answer must contain.
func readFinalAnswers(id string, gt *suitedoc.Node) ([]string, error) {
	if gt.Kind == suitedoc.String {
		gt = suitedoc.ArrayOf(gt)
	}
	if gt.Kind != suitedoc.Array || len(gt.Vals) == 0 {
		return nil, fmt.Errorf("answer %s: \"ground_truth\" must be a non-empty list of acceptable final answers, got %s", id, gt.Short())
	}
	out := make([]string, len(gt.Vals))
	for i, a := range gt.Vals {
		if a.Kind != suitedoc.String {
			return nil, fmt.Errorf("answer %s: ground_truth[%d] must be a string, got %s", id, i, a.Short())
		}
		out[i] = a.Text
	}
	return out, nil
}

// agenticCase is the case of one agentic question: any calls, and a final
// answer that contains one of alts.
func agenticCase(id string, alts []string, sem Semantics) *suitedoc.Node {
	c := suitedoc.NewObject().Set("id", suitedoc.StringOf(id)).
		Set("calls", suitedoc.StringOf(string(suite.CallsAny)))
	rule := suitedoc.NewObject().SetFlow()
	if sem == SemanticsBFCL {
		rule.Set("regex", suitedoc.StringOf(bfclFinalPattern(alts))).Set("normalize", bfclFinalNormalize)
		c.Set("final", rule).Set("final_text", suitedoc.StringOf(string(format.FinalBFCL)))
		return c
	}
	rule.Set("regex", suitedoc.StringOf(callgradeFinalPattern(alts))).
		Set("normalize", callgradeFinalNormalize).Set("case_insensitive", suitedoc.BoolOf(true))
	return c.Set("final", rule).Set("final_text", suitedoc.StringOf(string(format.FinalAnswer)))
}

// bfclFinalNormalize is standardize_string of BFCL's agentic checker: the
// ten characters , . / - _ * ^ ( ) deleted, lower case, ' read as ".
// White space stays as it is.
var bfclFinalNormalize = suitedoc.ArrayOf(
	suitedoc.NewObject().Set("delete", suitedoc.StringOf(bfclDeleted)),
	suitedoc.StringOf("lower"),
	suitedoc.NewObject().Set("replace", suitedoc.NewObject().Set("'", suitedoc.StringOf(`"`))))

const bfclDeleted = ",./-_*^()"

// bfclStandardise is standardize_string applied to a possible answer at
// import, as the normalisers above apply it to the final answer: lower
// case by the lower normaliser itself, which writes it as Python's
// str.lower does.
func bfclStandardise(s string) string {
	s = strings.Map(func(c rune) rune {
		if strings.ContainsRune(bfclDeleted, c) {
			return -1
		}
		return c
	}, s)
	return strings.ReplaceAll(rulecore.Lower(s), "'", `"`)
}

// wordClass is Python's \w on str: a Unicode letter or number, or _.
const wordClass = `\p{L}\p{N}_`

// cgWordClass is a word character as callgrade reads a final answer, in
// which _ is a separator.
const cgWordClass = `\p{L}\p{N}`

func isWord(c rune) bool { return unicode.IsLetter(c) || unicode.IsNumber(c) || c == '_' }

// bfclFinalPattern is BFCL's check, re.search(rf"\b{re.escape(alt)}\b",
// answer) for each standardised alternative, as one RE2 expression.
// RE2's \b is ASCII where Python's is Unicode (ČSSR would fail), so each
// boundary is written out: before an alternative that begins with a
// word character, the start or a non-word character; before one that
// begins with another character, a word character (so "$222 million"
// matches only after one, as in Python); the same at its end.
func bfclFinalPattern(alts []string) string {
	var parts []string
	for _, a := range alts {
		p := pyBounded(bfclStandardise(a))
		if !containsString(parts, p) {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, "|")
}

// pyBounded is Python's \b + re.escape(lit) + \b in RE2.
func pyBounded(lit string) string {
	if lit == "" {
		// \b\b matches at any boundary: there is one where there is a
		// word character.
		return "[" + wordClass + "]"
	}
	first, _ := utf8.DecodeRuneInString(lit)
	last, _ := utf8.DecodeLastRuneInString(lit)
	var b strings.Builder
	b.WriteString("(?:")
	if isWord(first) {
		b.WriteString("(?:^|[^" + wordClass + "])")
	} else {
		b.WriteString("[" + wordClass + "]")
	}
	b.WriteString(regexp.QuoteMeta(lit))
	if isWord(last) {
		b.WriteString("(?:$|[^" + wordClass + "])")
	} else {
		b.WriteString("[" + wordClass + "]")
	}
	b.WriteString(")")
	return b.String()
}

func containsString(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// callgradeFinalNormalize is callgrade's reading of a final answer: NFC,
// typographic apostrophes as ', every run of white space one space; the
// rule also folds case. What it cannot say (a separator read as a space,
// numbers as numbers) the pattern says.
var callgradeFinalNormalize = suitedoc.ArrayOf(
	suitedoc.StringOf("nfc"),
	suitedoc.NewObject().Set("replace", suitedoc.NewObject().
		Set("’", suitedoc.StringOf("'")).Set("‘", suitedoc.StringOf("'"))),
	suitedoc.StringOf("collapse_space"))

// callgradeFinalPattern is callgrade's check of a final answer: it
// contains one of alts, with no word character next to it, a separator
// between two words (white space, - ‐ ‑ – — / _ ( ) * ^, and , . between
// letters) matching any run of separators, and numbers matching numbers
// of the same value.
func callgradeFinalPattern(alts []string) string {
	var parts []string
	for _, a := range alts {
		p := callgradeAlternative(a)
		if p != "" && !containsString(parts, p) {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		return "[" + cgWordClass + "]"
	}
	return strings.Join(parts, "|")
}

// isSeparator is a character callgrade reads as a space between words.
func isSeparator(c rune) bool {
	return unicode.IsSpace(c) || strings.ContainsRune("-‐‑–—/_()*^", c)
}

const (
	sepClass       = `[\s\-‐‑–—/_()*^]`
	letterSepClass = `[\s\-‐‑–—/_()*^,.]`
	// thousands is a separator of groups of three digits (white space is
	// one space after collapse_space).
	thousands = `[, ]?`
)

// callgradeAlternative is the pattern of one possible answer (see
// callgradeFinalPattern); "" for one without a character.
func callgradeAlternative(alt string) string {
	alt = norm.NFC.String(strings.NewReplacer("’", "'", "‘", "'").Replace(alt))
	alt = strings.TrimFunc(alt, unicode.IsSpace)
	rs := []rune(alt)
	if len(rs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("(?:")
	switch {
	case isDigit(rs[0]):
		// A number: no sign, digit or decimal point before it.
		b.WriteString(`(?:^|[^` + cgWordClass + `.,+\-−]|[^\p{N}][.,]|^[.,])`)
	default:
		b.WriteString("(?:^|[^" + cgWordClass + "])")
	}
	for i := 0; i < len(rs); {
		c := rs[i]
		switch {
		case isDigit(c):
			n, pat := numberAt(rs, i)
			b.WriteString(pat)
			i = n
		case isSeparator(c) || (c == ',' || c == '.') && i > 0 && unicode.IsLetter(rs[i-1]):
			j := i
			for j < len(rs) && (isSeparator(rs[j]) || rs[j] == ',' || rs[j] == '.') {
				j++
			}
			between := i > 0 && j < len(rs) && unicode.IsLetter(rs[i-1]) && unicode.IsLetter(rs[j])
			allSep := true
			for _, s := range rs[i:j] {
				allSep = allSep && isSeparator(s)
			}
			switch {
			case between && allHyphens(rs[i:j]):
				// A hyphen joins a compound that is also written
				// solid (e-sports, esports) or apart.
				b.WriteString(letterSepClass + "*")
			case between:
				b.WriteString(letterSepClass + "+")
			case allSep && i > 0 && j < len(rs):
				b.WriteString(sepClass + "+")
			case j == len(rs) && !allSep:
				// A point at the end (Jr., Inc.) may be left out.
				b.WriteString("(?:" + regexp.QuoteMeta(string(rs[i:j])) + ")?")
			default:
				b.WriteString(regexp.QuoteMeta(string(rs[i:j])))
			}
			i = j
		case unicode.IsLetter(c):
			j := i
			for j < len(rs) && unicode.IsLetter(rs[j]) {
				j++
			}
			w := string(rs[i:j])
			if m := strings.ToLower(w); (m == "am" || m == "pm") && i > 0 && (isDigit(rs[i-1]) || rs[i-1] == ' ') {
				// A time's AM or PM, also written a.m. or p.m.
				w = regexp.QuoteMeta(w[:1]) + `\.?` + regexp.QuoteMeta(w[1:]) + `\.?`
			} else {
				w = regexp.QuoteMeta(w)
			}
			b.WriteString(w)
			i = j
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
			i++
		}
	}
	last := rs[len(rs)-1]
	switch {
	case isDigit(last):
		// No more digits, nor a decimal part, after a number.
		b.WriteString(`(?:$|[^` + cgWordClass + `.,]|[.,](?:$|[^\p{N}]))`)
	default:
		b.WriteString("(?:$|[^" + cgWordClass + "])")
	}
	b.WriteString(")")
	return b.String()
}

// allHyphens reports whether rs are all hyphens or dashes.
func allHyphens(rs []rune) bool {
	for _, c := range rs {
		if !strings.ContainsRune("-‐‑–—", c) {
			return false
		}
	}
	return true
}

func isDigit(c rune) bool { return c >= '0' && c <= '9' }

// numberAt reads the number that begins at rs[i]: digits, grouped in
// threes by , or a space, with a decimal part after a point. It returns
// where the number ends and the pattern of the numbers of its value:
// grouped or not (numbers of five digits or more, or written grouped),
// with leading zeros and trailing zeros of the decimal part or without
// (03 is 3, 7.0 is 7).
func numberAt(rs []rune, i int) (int, string) {
	j := i
	for j < len(rs) && isDigit(rs[j]) {
		j++
	}
	intPart := string(rs[i:j])
	grouped := false
	// Groups of three after , or a space.
	if j-i <= 3 {
		for j+4 <= len(rs) && (rs[j] == ',' || rs[j] == ' ') && allDigits(rs[j+1:j+4]) && (j+4 == len(rs) || !isDigit(rs[j+4])) {
			intPart += string(rs[j+1 : j+4])
			j += 4
			grouped = true
		}
	}
	frac := ""
	if j+1 < len(rs) && rs[j] == '.' && isDigit(rs[j+1]) {
		k := j + 1
		for k < len(rs) && isDigit(rs[k]) {
			k++
		}
		frac = strings.TrimRight(string(rs[j+1:k]), "0")
		j = k
	}
	intPart = strings.TrimLeft(intPart, "0")
	var b strings.Builder
	b.WriteString("0*") // leading zeros: 03 is 3
	if intPart == "" {
		b.WriteString("0")
	} else {
		// The digits before the first group of three, then the groups,
		// each after an optional separator.
		head := len(intPart) % 3
		if head == 0 {
			head = 3
		}
		b.WriteString(intPart[:head])
		// A number of four digits written without a group (a year, a
		// class number) is an identifier as much as a quantity: 2,631
		// is not the class 2631. Longer numbers, or those written
		// grouped, match grouped or not.
		sep := thousands
		if len(intPart) <= 4 && !grouped {
			sep = ""
		}
		for k := head; k < len(intPart); k += 3 {
			b.WriteString(sep + intPart[k:k+3])
		}
	}
	if frac == "" {
		b.WriteString(`(?:\.0+)?`)
	} else {
		b.WriteString(`\.` + frac + `0*`)
	}
	return j, b.String()
}

func allDigits(rs []rune) bool {
	for _, c := range rs {
		if !isDigit(c) {
			return false
		}
	}
	return true
}
