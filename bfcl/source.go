package bfcl

import (
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"strings"

	"github.com/callgrade/callgrade/internal/suitedoc"
)

// language is the language a BFCL category's calls are written in. BFCL
// chooses it by the category's name: "javascript" in it is JavaScript,
// else "java" is Java, else Python.
type language int

const (
	langPython language = iota
	langJava
	langJS
)

func languageOf(cat string) language {
	switch {
	case strings.Contains(cat, "javascript"):
		return langJS
	case strings.Contains(cat, "java"):
		return langJava
	}
	return langPython
}

// javaTypes and jsTypes are BFCL's JAVA_TYPE_CONVERSION and
// JS_TYPE_CONVERSION: the Python type a declared type's value is checked
// as once BFCL has converted the model's source text.
var (
	javaTypes = map[string]string{
		"byte": "int", "short": "int", "integer": "int", "long": "int",
		"float": "float", "double": "float", "boolean": "bool", "char": "str",
		"Array": "list", "ArrayList": "list", "Set": "set", "HashMap": "dict",
		"Hashtable": "dict", "Queue": "list", "Stack": "list", "String": "str", "any": "str",
	}
	jsTypes = map[string]string{
		"String": "str", "integer": "int", "float": "float", "Bigint": "int",
		"Boolean": "bool", "dict": "dict", "array": "list", "any": "str",
	}
)

func (l language) types() map[string]string {
	if l == langJS {
		return jsTypes
	}
	return javaTypes
}

func (l language) String() string {
	if l == langJS {
		return "JavaScript"
	}
	return "Java"
}

// never matches no text: the rule of a value no source text converts to.
const never = `[^\x00-\x{10FFFF}]`

// spaceChars are the characters Python's str.isspace is true of, which
// str.strip removes and re's \s matches in a str pattern: the ASCII ones,
// \v and \x1c-\x1f among them, and Unicode's (U+00A0, U+3000, ...). Go's
// \s is the five of them RE2 knows. wsChars are those but the line feed,
// which the non-DOTALL regular expressions of BFCL's converters cannot
// hold.
const (
	wsChars    = `\t\v\f\r\x1c-\x1f \x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}`
	spaceChars = `\n` + wsChars
)

// sp is Python's \s; ws is the white space str.strip removes that BFCL's
// non-DOTALL expressions can hold (no line feed); word is Python's \w,
// a letter, a number or _ of any script, where RE2's \w is ASCII.
const (
	sp   = `[` + spaceChars + `]`
	ws   = `[` + wsChars + `]`
	word = `[\p{L}\p{N}_]`
)

// deletable are the characters BFCL's standardize_string removes.
const deletable = " ,./-_*^"

// bfclStd is BFCL's standardize_string: the deletable characters removed,
// lower-cased, ' made ".
func bfclStd(s string) string {
	s = strings.Map(func(r rune) rune {
		if strings.ContainsRune(deletable, r) {
			return -1
		}
		return r
	}, s)
	return strings.ReplaceAll(strings.ToLower(s), "'", `"`)
}

// stdPattern matches the texts whose standardised form is that of s.
// del are the deletable characters the text may hold: fewer than BFCL
// deletes where a character ends the text in BFCL's parser (a comma that
// splits a list).
func stdPattern(s, del string) string {
	cls := charClass(del) + "*"
	var b strings.Builder
	b.WriteString(cls)
	folds := false
	for _, r := range bfclStd(s) {
		if r == '"' {
			b.WriteString(`["']`)
		} else {
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
		folds = folds || strings.ToUpper(string(r)) != string(r)
		b.WriteString(cls)
	}
	if folds {
		// Python's lower() on the text: any case of a letter. The
		// deletable characters and quotes have no case.
		return "(?i:" + b.String() + ")"
	}
	return b.String()
}

// charClass is the character class of the characters of s, those that
// are special inside a class escaped (QuoteMeta leaves "-", which would
// make a range).
func charClass(s string) string {
	var b strings.Builder
	b.WriteByte('[')
	for _, r := range s {
		if strings.ContainsRune(`\-]^[`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte(']')
	return b.String()
}

func union(parts []string) string {
	var out []string
	for _, p := range parts {
		if p != "" && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	switch len(out) {
	case 0:
		return ""
	case 1:
		return out[0]
	}
	return "(?:" + strings.Join(out, "|") + ")"
}

// numValue is the exact value of a number or a boolean (Python's True is
// 1), false for other values.
func numValue(n *suitedoc.Node) (*big.Rat, bool) {
	switch n.Kind {
	case suitedoc.Bool:
		if n.Bool {
			return big.NewRat(1, 1), true
		}
		return new(big.Rat), true
	case suitedoc.Number:
		r, ok := new(big.Rat).SetString(n.Text)
		return r, ok
	}
	return nil, false
}

// decimalParts writes |r| as integer digits and fraction digits (no
// trailing zeros); r must be a finite decimal.
func decimalParts(r *big.Rat) (neg bool, ip, frac string) {
	neg = r.Sign() < 0
	a := new(big.Rat).Abs(r)
	s := a.FloatString(64)
	ip, frac, _ = strings.Cut(s, ".")
	return neg, ip, strings.TrimRight(frac, "0")
}

// signPattern is the sign a value's spelling takes: "-" before a negative
// value, an optional one before zero (-0 is 0); plus adds Python's
// optional "+", which int() and float() read.
func signPattern(r *big.Rat, plus bool) string {
	switch {
	case r.Sign() < 0:
		return "-"
	case r.Sign() == 0 && plus:
		return "[+-]?"
	case r.Sign() == 0:
		return "-?"
	case plus:
		return `\+?`
	}
	return ""
}

// intPattern matches the digits of an integral value (sign apart):
// leading zeros are allowed, as int() reads them.
func intPattern(ip string) string {
	if ip == "0" {
		return "0+"
	}
	return "0*" + ip
}

// fixedPattern matches the spellings \d+(\.\d+)? of |r|.
func fixedPattern(r *big.Rat) string {
	_, ip, frac := decimalParts(r)
	if frac == "" {
		return intPattern(ip) + `(?:\.0+)?`
	}
	return intPattern(ip) + `\.` + frac + "0*"
}

// expRange bounds the exponents a number's spelling is matched with
// (5e-1, 0.05E1): a value written with a larger exponent is not matched.
const expRange = 12

// expPattern matches the spellings \d+(\.\d+)?([eE][+-]?\d+)? of |r|.
func expPattern(r *big.Rat) string {
	parts := []string{fixedPattern(r) + `(?:[eE][+-]?0+)?`}
	for x := 1; x <= expRange; x++ {
		scale := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(x)), nil))
		down := new(big.Rat).Quo(r, scale) // mantissa of exponent +x
		up := new(big.Rat).Mul(r, scale)   // mantissa of exponent -x
		parts = append(parts, fixedPattern(down)+`[eE]\+?0*`+fmt.Sprint(x), fixedPattern(up)+`[eE]-0*`+fmt.Sprint(x))
	}
	return union(parts)
}

// scalarForms matches the texts that type's converter turns into a value
// equal to a (a number or boolean; Python compares 1 == 1.0 == True).
func scalarForms(lang language, typ string, a *suitedoc.Node, fix bool) string {
	v, ok := numValue(a)
	if !ok {
		return ""
	}
	integral := v.IsInt()
	switch {
	case typ == "boolean" || typ == "Boolean":
		switch {
		case v.Cmp(big.NewRat(1, 1)) == 0:
			return "true"
		case v.Sign() == 0:
			return "false"
		}
		return ""
	case typ == "integer" || typ == "byte" || typ == "short":
		if !integral {
			return ""
		}
		_, ip, _ := decimalParts(v)
		if fix {
			return signPattern(v, false) + union([]string{intPattern(ip), hexPattern(v)})
		}
		return signPattern(v, false) + intPattern(ip)
	case typ == "long" && lang == langJava && fix:
		if !integral {
			return ""
		}
		// Java widens an int literal to long, and reads hex (N4).
		_, ip, _ := decimalParts(v)
		return signPattern(v, false) + union([]string{intPattern(ip), hexPattern(v)}) + "[lL]?"
	case typ == "long" && lang == langJava, typ == "Bigint" && lang == langJS:
		if !integral {
			return ""
		}
		_, ip, _ := decimalParts(v)
		suffix := "[lL]"
		if lang == langJS {
			suffix = "n"
		}
		return signPattern(v, false) + intPattern(ip) + suffix
	case typ == "double" && fix:
		return signPattern(v, false) + expPattern(v) + "[dD]?" // 0.5d is a double literal (N4)
	case typ == "double":
		return signPattern(v, false) + expPattern(v)
	case typ == "float" && lang == langJava:
		return signPattern(v, false) + expPattern(v) + "[fF]"
	case typ == "float" && lang == langJS && fix:
		// JavaScript reads 3e1 and 0x1e as numbers too (N4).
		f := []string{expPattern(v)}
		if integral {
			f = append(f, hexPattern(v))
		}
		return signPattern(v, false) + union(f)
	case typ == "float" && lang == langJS:
		return signPattern(v, false) + fixedPattern(v)
	}
	return ""
}

// converts is the regular expression with which a type's converter
// decides to convert a text: one that does not match stays a string.
var converts = map[string]*regexp.Regexp{
	"int":     regexp.MustCompile(`^-?\d+$`),
	"long":    regexp.MustCompile(`^-?\d+[lL]$`),
	"Bigint":  regexp.MustCompile(`^-?\d+n$`),
	"jfloat":  regexp.MustCompile(`^-?\d+(\.\d+)?([eE][+-]?\d+)?[fF]$`),
	"double":  regexp.MustCompile(`^-?\d+(\.\d+)?([eE][+-]?\d+)?$`),
	"jsfloat": regexp.MustCompile(`^-?\d+(\.\d+)?$`),
	"bool":    regexp.MustCompile(`^(true|false)$`),
}

// convertKey names the regular expression of converts each scalar type
// uses (float: by language).
var convertKey = map[string]string{"integer": "int", "byte": "int", "short": "int", "long": "long", "Bigint": "Bigint",
	"double": "double", "boolean": "bool", "Boolean": "bool"}

// convertible reports whether a scalar type's converter turns text s into
// a number or boolean.
func convertible(lang language, typ, s string) bool {
	key := convertKey[typ]
	if typ == "float" {
		key = "jfloat"
		if lang == langJS {
			key = "jsfloat"
		}
	}
	re, ok := converts[key]
	return ok && re.MatchString(s)
}

// strForms matches the texts that type's converter keeps as a string
// equal to a: equal after standardisation (std) or exactly. del limits
// the deletable characters (see stdPattern).
func strForms(lang language, typ, a string, std bool, del string) string {
	body := regexp.QuoteMeta(a)
	if std {
		body = stdPattern(a, del)
	}
	if lang == langJS && typ == "String" {
		// js_type_converter strips one pair of matching quotes.
		return union([]string{`"` + body + `"`, `'` + body + `'`, body})
	}
	if lang == langJava && typ == "char" {
		return body // the char regex never matches: chars stay as written
	}
	return body
}

// pyTypeOf is the Python type BFCL checks a converted value of a declared
// type as.
func pyTypeOf(lang language, decl string) string { return lang.types()[decl] }

// answerType is BFCL's get_possible_answer_type: the Python type of the
// first acceptable value that is not "", "" when there is none.
func answerType(alts []*suitedoc.Node) string {
	for _, a := range alts {
		if !isMarker(a) {
			return pyType(a)
		}
	}
	return ""
}

// sourcePattern returns the regular expression (anchored) that matches
// the source texts BFCL's checker accepts for a parameter of a Java or
// JavaScript type, given its acceptable values: the text converted by
// the declared type as BFCL's type_convertor does, then checked as its
// ast_checker checks Python values. docs/bfcl.md says what it leaves out.
// fix (callgrade semantics) also accepts the texts Java and JavaScript
// read as the answer where BFCL's converters refuse them (CHECKER_NOTES
// N1-N4).
func sourcePattern(lang language, decl, items string, alts []*suitedoc.Node, fix bool) (string, error) {
	e := pyTypeOf(lang, decl)
	p := answerType(alts)
	var parts []string
	switch e {
	case "str":
		// Not a variable: BFCL standardises both sides (string_checker);
		// a variable (an answer of another type) compares exactly.
		std := p == "" || p == "str"
		for _, a := range alts {
			if a.Kind == suitedoc.String {
				parts = append(parts, strForms(lang, decl, a.Text, std, deletable))
			}
		}
	case "int", "float", "bool":
		// Python's $ also matches before a final line break, and int()
		// and float() read "5\n"; booleans are compared as text.
		end := `\n?`
		if e == "bool" || decl == "Bigint" {
			end = ""
		}
		for _, a := range alts {
			if f := scalarForms(lang, decl, a, fix); f != "" {
				parts = append(parts, f+end)
			}
		}
		if p == "str" {
			// Text that does not convert stays a string: a variable,
			// compared exactly.
			for _, a := range alts {
				if a.Kind == suitedoc.String && !convertible(lang, decl, a.Text) {
					parts = append(parts, regexp.QuoteMeta(a.Text))
				}
			}
		}
	case "list":
		if items == "" {
			return "", fmt.Errorf("%s %s without an item type", lang, decl)
		}
		ie := pyTypeOf(lang, items)
		if ie == "" || ie == "list" || ie == "dict" || ie == "set" {
			return "", fmt.Errorf("%s %s of %q: not converted by BFCL's checker", lang, decl, items)
		}
		optional := false
		for _, a := range alts {
			switch {
			case isMarker(a):
				optional = true
			case a.Kind == suitedoc.Array:
				parts = append(parts, listForms(lang, decl, items, a.Vals, fix))
			}
		}
		if optional || p == "" {
			parts = append(parts, listForms(lang, decl, items, nil, fix)) // "" reads as []
		}
		if p == "str" {
			parts = append(parts, variableForms(lang, alts))
		}
	case "dict":
		for _, a := range alts {
			if a.Kind == suitedoc.Object && p == "dict" {
				f, err := dictForms(lang, a, fix)
				if err != nil {
					return "", err
				}
				parts = append(parts, f)
			}
		}
		if p == "str" {
			parts = append(parts, variableForms(lang, alts))
		}
	default:
		return "", fmt.Errorf("%s type %q: BFCL's checker cannot convert it", lang, decl)
	}
	body := union(parts)
	if body == "" {
		body = never
	}
	return "^" + body + "$", nil
}

// variableForms matches the texts a collection's parser leaves as they
// are and that equal a string answer (a variable) exactly: JavaScript's
// parser returns the text stripped of white space.
func variableForms(lang language, alts []*suitedoc.Node) string {
	var parts []string
	for _, a := range alts {
		if a.Kind == suitedoc.String {
			q := regexp.QuoteMeta(a.Text)
			if lang == langJS {
				q = sp + `*` + q + sp + `*`
			}
			parts = append(parts, q)
		}
	}
	return union(parts)
}

// between matches the text BFCL's findall skips between two calls
// put("..., or add(...: any text without the start of another call, or
// the "}" that ends the block.
func between(call string) string {
	// Spelled out character by character, RE2 having no lookahead: a
	// character that does not continue the call's name, or one that does
	// and is followed by the rest.
	x := `[^` + regexp.QuoteMeta(call[len(call)-1:]) + `}]`
	for i := len(call) - 2; i >= 0; i-- {
		c := regexp.QuoteMeta(call[i : i+1])
		x = `[^` + c + `}]|` + c + `(?:` + x + `)`
	}
	return "(?:" + x + ")*"
}

// anything is any text, line breaks included.
const anything = `(?s:.*)`

// itemForms matches one item's text, as the list's parser hands it to the
// item's converter (stripped), that converts to a value equal to a.
// del are the deletable characters an item may hold.
func itemForms(lang language, decl, items string, a *suitedoc.Node, del string, fix bool) string {
	ie := pyTypeOf(lang, items)
	if a.Kind == suitedoc.String {
		if lang == langJava && decl == "ArrayList" && (items == "String" || items == "char") {
			// parse_arraylist cuts the first and last character.
			return `[^,` + spaceChars + `]` + stdPattern(a.Text, del) + `[^,` + spaceChars + `]`
		}
		if ie != "str" {
			return "" // a string item fails the item type check
		}
		if fix && lang == langJava && decl == "Array" && items != "any" {
			// Java writes a String[]'s strings quoted (CHECKER_NOTES N1).
			return union([]string{`"` + stdPattern(a.Text, del) + `"`, strForms(lang, items, a.Text, true, del)})
		}
		if fix && lang == langJava && items == "any" {
			return javaValueForms(a, del)
		}
		return strForms(lang, items, a.Text, true, del)
	}
	if fix && lang == langJava && items == "any" {
		// Items of type any read as Java values: 42, true (N2).
		return javaValueForms(a, del)
	}
	if ie == "str" {
		return "" // an item converted to a string never equals a number
	}
	if v, ok := numValue(a); ok && fix && lang == langJava && decl == "ArrayList" && items == "long" {
		// Arrays.asList(101) is a List<Integer>, which no ArrayList<Long>
		// takes: Java wants the suffix here (101L, 0x65L), as BFCL does.
		if !v.IsInt() {
			return ""
		}
		_, ip, _ := decimalParts(v)
		return signPattern(v, false) + union([]string{intPattern(ip), hexPattern(v)}) + "[lL]"
	}
	return scalarForms(lang, items, a, fix)
}

// listForms matches the texts that a list type's parser turns into a list
// equal to want item by item (strings standardised).
func listForms(lang language, decl, items string, want []*suitedoc.Node, fix bool) string {
	var del, open, sep, lead, tail, close string
	switch {
	case lang == langJava && decl == "Array":
		// parse_array: re.search new \w+[]{...}, split on ",", each
		// stripped, empty ones dropped.
		del = " ./-_*^"
		open, close = anything+`new`+sp+`+`+word+`+\[\]`+sp+`*\{`, `\}`+anything
		lead, sep, tail = `[`+wsChars+`,]*`, ws+`*,[`+wsChars+`,]*`, `[`+wsChars+`,]*`
	case lang == langJava && decl == "ArrayList":
		// parse_arraylist: new ArrayList<..>(Arrays.asList(...)), split
		// on ",", each stripped.
		del = " ./-_*^"
		open, close = anything+`new`+sp+`+ArrayList<`+word+`*>\(Arrays\.asList\(`, `\)\)`+anything
		lead, sep, tail = ws+"*", ws+"*,"+ws+"*", ws+"*"
		if len(want) == 0 {
			return anything + `new` + sp + `+ArrayList<` + word + `*>\(\)` + anything
		}
	case lang == langJS && decl == "array":
		// parse_js_collection: re.match [..] or new Array(..) after
		// strip, split on ",", each stripped.
		del = " ./-_*^"
		lead, sep, tail = ws+"*", ws+"*,"+ws+"*", ws+"*"
		var its []string
		for _, w := range want {
			f := itemForms(lang, decl, items, w, del, fix)
			if f == "" {
				return ""
			}
			its = append(its, f)
		}
		body := lead + strings.Join(its, sep) + tail
		if len(want) == 0 {
			body = ws + "*"
		}
		return sp + `*(?:\[` + body + `\]|new` + sp + `+Array\(` + body + `\))` + anything
	default:
		return ""
	}
	var its []string
	for _, w := range want {
		f := itemForms(lang, decl, items, w, del, fix)
		if f == "" {
			return ""
		}
		its = append(its, f)
	}
	body := lead + strings.Join(its, sep) + tail
	if len(want) == 0 {
		body = lead
	}
	forms := []string{open + body + close}
	if lang == langJava && decl == "ArrayList" {
		// The other form: new ArrayList<..>() {{ add(..); ... }}.
		var adds []string
		for _, f := range its {
			adds = append(adds, `add\(`+ws+"*"+f+ws+`*\)`)
		}
		forms = append(forms, anything+`new`+sp+`+ArrayList<`+word+`*>\(\)`+sp+`*\{\{`+sp+`*`+strings.Join(adds, between("add("))+between("add(")+`\}\}`+anything)
	}
	return union(forms)
}

// maxDictForms bounds the key orders and subsets a dict answer's pattern
// spells out.
const maxDictForms = 5040

// dictForms matches the texts that a dict type's parser turns into a dict
// BFCL's dict_checker accepts against answer d.
func dictForms(lang language, d *suitedoc.Node, fix bool) (string, error) {
	bodies, err := dictBodies(lang, dictEntries(lang, d, fix))
	if err != nil {
		return "", err
	}
	if lang == langJava {
		return hashMapForms(bodies), nil
	}
	// parse_js_collection: "{}", or re.match {k: v, ...} after strip.
	var forms []string
	for _, b := range bodies {
		if b == "" {
			forms = append(forms, sp+`*\{[^:}\n]*\}`+anything) // no pair: no ":", no line feed
			continue
		}
		forms = append(forms, sp+`*\{`+b+`\}`+anything)
	}
	return union(forms), nil
}

// dictEntry is one key of a dict answer: the forms of its acceptable
// values, and whether it may be left out.
type dictEntry struct {
	key      string
	values   string // the value's forms
	optional bool
}

// dictEntries returns the keys of dict answer d with their values' forms.
func dictEntries(lang language, d *suitedoc.Node, fix bool) []dictEntry {
	var entries []dictEntry
	for i, k := range d.Keys {
		acc := d.Vals[i]
		var vals []*suitedoc.Node
		optional := false
		if acc.Kind == suitedoc.String && fix {
			vals = []*suitedoc.Node{acc} // one acceptable value, written without its list
		} else if acc.Kind == suitedoc.String {
			// A bare string: dict_checker iterates over its characters,
			// and "" in it (a substring) is always true.
			for _, r := range acc.Text {
				vals = append(vals, suitedoc.StringOf(string(r)))
			}
			optional = true
		} else if acc.Kind == suitedoc.Array {
			vals = acc.Vals
		} else {
			vals = []*suitedoc.Node{acc}
		}
		var forms []string
		for _, v := range vals {
			if isMarker(v) {
				optional = true
			}
			forms = append(forms, dictValueForms(lang, v))
		}
		entries = append(entries, dictEntry{k, union(forms), optional})
	}
	return entries
}

// dictBodies returns the forms of a dict's pairs: every subset of the
// entries that keeps the required ones, in every order.
func dictBodies(lang language, entries []dictEntry) ([]string, error) {
	var bodies []string
	var rec func(left []dictEntry, chosen []dictEntry) error
	pair := func(e dictEntry) string {
		if lang == langJava {
			return `put\("` + regexp.QuoteMeta(e.key) + `",` + sp + `*` + e.values + ws + `*\)`
		}
		return ws + `*['"]*` + regexp.QuoteMeta(e.key) + `['"]*` + ws + `*:` + ws + `*` + e.values + ws + "*"
	}
	rec = func(left, chosen []dictEntry) error {
		if len(bodies) > maxDictForms {
			return fmt.Errorf("a %s dict answer accepts more than %d key orders", lang, maxDictForms)
		}
		done := true
		for _, e := range left {
			if !e.optional {
				done = false
			}
		}
		if done {
			var ps []string
			for _, e := range chosen {
				if e.values == "" {
					return nil // a value nothing converts to
				}
				ps = append(ps, pair(e))
			}
			if lang == langJava {
				bodies = append(bodies, between(`put("`)+strings.Join(ps, between(`put("`))+between(`put("`))
			} else {
				bodies = append(bodies, strings.Join(ps, ","))
			}
		}
		for i, e := range left {
			rest := append(slices.Clone(left[:i]), left[i+1:]...)
			if err := rec(rest, append(slices.Clone(chosen), e)); err != nil {
				return err
			}
		}
		return nil
	}
	err := rec(entries, nil)
	return bodies, err
}

// hashMapForms is parse_hashmap's reading of a Java dict: re.search new
// HashMap<..>() { {? puts }? }, or an empty new HashMap<..>().
func hashMapForms(bodies []string) string {
	var forms []string
	for _, b := range bodies {
		forms = append(forms, anything+`new`+sp+`+HashMap<(?s:.*?)>`+sp+`*\(\)`+sp+`*\{`+sp+`*\{?`+sp+`*`+b+sp+`*\}?`+sp+`*\}`+anything)
		if b == between(`put("`)+between(`put("`) {
			// Only where no block follows: with one, the first form's
			// regex decides.
			forms = append(forms, anything+`new`+sp+`+HashMap<(?s:.*?)>`+sp+`*\(\)`+sp+`*(?:[^`+spaceChars+`{]`+anything+`)?`)
		}
	}
	return union(forms)
}

// dictValueForms matches a dict value's text that BFCL's untyped parser
// (parse_java_value, parse_js_value) turns into a value dict_checker
// finds among the acceptable ones: a string standardised, a number or
// boolean by Python equality, a list exactly.
func dictValueForms(lang language, v *suitedoc.Node) string {
	switch v.Kind {
	case suitedoc.String:
		if lang == langJava {
			// "..." loses its quotes; a bare word stays as written.
			return union([]string{`"` + stdPattern(v.Text, deletable) + `"`, stdPattern(v.Text, deletable)})
		}
		// parse_js_value(value.strip("'\"")): quotes around it go.
		return `['"]*` + stdPattern(v.Text, " ./-_*^") + `['"]*`
	case suitedoc.Number, suitedoc.Bool:
		r, _ := numValue(v)
		forms := []string{signPattern(r, true) + expPattern(r)}
		if lang == langJava {
			forms = append(forms, signPattern(r, false)+expPattern(r)+"[fF]")
			if r.IsInt() {
				_, ip, _ := decimalParts(r)
				forms = append(forms, signPattern(r, false)+intPattern(ip)+"[lL]")
			}
		}
		if r.Cmp(big.NewRat(1, 1)) == 0 {
			forms = append(forms, "true")
		} else if r.Sign() == 0 {
			forms = append(forms, "false")
		}
		f := union(forms)
		if lang == langJS {
			f = `['"]*` + f + `['"]*`
		}
		return f
	case suitedoc.Array:
		if lang == langJava {
			return "" // parse_java_value reads no list
		}
		// parse_js_collection(value, "array"): items by parse_js_value,
		// compared exactly.
		var its []string
		for _, e := range v.Vals {
			var f string
			switch e.Kind {
			case suitedoc.String:
				q := regexp.QuoteMeta(e.Text)
				f = union([]string{`"` + q + `"`, `'` + q + `'`, q})
			case suitedoc.Number, suitedoc.Bool:
				r, _ := numValue(e)
				f = signPattern(r, true) + expPattern(r)
			default:
				return ""
			}
			its = append(its, f)
		}
		return `\[` + ws + "*" + strings.Join(its, ws+"*,"+ws+"*") + ws + `*\]`
	}
	return ""
}

// sourceText writes an acceptable value a as source text of the declared
// type: the expected argument of a Java or JavaScript parameter, which
// its regex rule decides on. quote says whether strings inside lists and
// maps are quoted, as the language writes them.
func sourceText(lang language, decl, items string, a *suitedoc.Node, quote bool) string {
	str := func(n *suitedoc.Node, q bool) string {
		switch n.Kind {
		case suitedoc.String:
			if q {
				return `"` + n.Text + `"`
			}
			return n.Text
		case suitedoc.Bool:
			if n.Bool {
				return "true"
			}
			return "false"
		}
		return n.String()
	}
	switch a.Kind {
	case suitedoc.String:
		return a.Text
	case suitedoc.Number:
		switch decl {
		case "long":
			return a.Text + "L"
		case "Bigint":
			return a.Text + "n"
		case "float":
			if lang == langJava {
				return a.Text + "f"
			}
		}
		return a.Text
	case suitedoc.Bool:
		return str(a, false)
	case suitedoc.Array:
		var its []string
		for _, e := range a.Vals {
			s := str(e, quote && e.Kind == suitedoc.String)
			if e.Kind == suitedoc.Number && items == "long" {
				s += "L"
			}
			its = append(its, s)
		}
		switch {
		case lang == langJS:
			return "[" + strings.Join(its, ", ") + "]"
		case decl == "ArrayList":
			return "new ArrayList<>(Arrays.asList(" + strings.Join(its, ", ") + "))"
		}
		t := map[string]string{"String": "String", "integer": "int", "long": "long", "boolean": "boolean", "char": "char", "double": "double", "float": "float"}[items]
		if t == "" {
			t = "Object"
		}
		return "new " + t + "[]{" + strings.Join(its, ", ") + "}"
	case suitedoc.Object:
		var ps []string
		for i, k := range a.Keys {
			v := a.Vals[i]
			if v.Kind == suitedoc.Array && len(v.Vals) > 0 {
				v = v.Vals[0]
			}
			if isMarker(v) {
				continue
			}
			if lang == langJava {
				ps = append(ps, `put("`+k+`", `+str(v, true)+`);`)
			} else {
				ps = append(ps, `"`+k+`": `+jsValueText(v))
			}
		}
		if lang == langJava {
			if len(ps) == 0 {
				return "new HashMap<>()"
			}
			return "new HashMap<String, Object>() {{ " + strings.Join(ps, " ") + " }}"
		}
		return "{" + strings.Join(ps, ", ") + "}"
	}
	return a.String()
}

func jsValueText(v *suitedoc.Node) string {
	switch v.Kind {
	case suitedoc.String:
		return `"` + v.Text + `"`
	case suitedoc.Array:
		var its []string
		for _, e := range v.Vals {
			its = append(its, jsValueText(e))
		}
		return "[" + strings.Join(its, ", ") + "]"
	case suitedoc.Bool:
		if v.Bool {
			return "true"
		}
		return "false"
	}
	return v.String()
}

// sourceTextFunction returns function f with every parameter declared a
// string, as BFCL's FC handlers declare Java and JavaScript parameters.
func sourceTextFunction(f *suitedoc.Node) *suitedoc.Node {
	out := suitedoc.NewObject()
	for i, k := range f.Keys {
		v := f.Vals[i]
		if k == "parameters" && v.Kind == suitedoc.Object {
			params := suitedoc.NewObject()
			for j, pk := range v.Keys {
				pv := v.Vals[j]
				if pk == "properties" && pv.Kind == suitedoc.Object {
					ps := suitedoc.NewObject()
					for n, name := range pv.Keys {
						p := suitedoc.NewObject().Set("type", suitedoc.StringOf("string"))
						if d, ok := pv.Vals[n].Get("description"); ok {
							p.Set("description", d)
						}
						ps.Set(name, p)
					}
					pv = ps
				}
				params.Set(pk, pv)
			}
			v = params
		}
		out.Set(k, v)
	}
	return out
}

// sourceRules returns the expected value and rule of a parameter of a
// Java or JavaScript type: a regex over the source text (sourcePattern),
// and the first acceptable value written as text that the regex matches
// as the expected argument. fix is sourcePattern's.
func sourceRules(lang language, decl, items string, alts []*suitedoc.Node, fix bool) (paramResult, error) {
	var res paramResult
	if _, ok := lang.types()[decl]; !ok {
		return res, fmt.Errorf("unknown %s type %q (BFCL's checker would stop with a KeyError)", lang, decl)
	}
	pat, err := sourcePattern(lang, decl, items, alts, fix)
	if err != nil {
		return res, err
	}
	re, err := regexp.Compile(pat)
	if err != nil {
		return res, fmt.Errorf("%s %s: %w", lang, decl, err)
	}
	optional := false
	for _, a := range alts {
		if isMarker(a) {
			optional = true
			continue
		}
		for _, quote := range []bool{true, false} {
			if s := sourceText(lang, decl, items, a, quote); res.expected == nil || re.MatchString(s) && !re.MatchString(res.expected.Text) {
				res.expected = suitedoc.StringOf(s)
			}
		}
	}
	rule := suitedoc.NewObject().SetFlow().Set("regex", suitedoc.StringOf(pat))
	if optional {
		rule.Set("optional", suitedoc.BoolOf(true))
	}
	res.rules = append(res.rules, pathRule{"", rule})
	return res, nil
}

// hexPattern matches the hexadecimal spellings 0x.. of an integral |r|.
func hexPattern(r *big.Rat) string {
	n := new(big.Int).Abs(r.Num())
	return "0[xX]0*(?i:" + n.Text(16) + ")"
}

// javaValueForms matches an item's text that reads as a Java value equal
// to a: a string quoted or bare, a number, true or false.
func javaValueForms(a *suitedoc.Node, del string) string {
	if a.Kind == suitedoc.String {
		return union([]string{`"` + stdPattern(a.Text, del) + `"`, stdPattern(a.Text, del)})
	}
	r, ok := numValue(a)
	if !ok {
		return ""
	}
	if a.Kind == suitedoc.Bool {
		if a.Bool {
			return "true"
		}
		return "false"
	}
	return signPattern(r, false) + expPattern(r) + "[lLfFdD]?"
}
