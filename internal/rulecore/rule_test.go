package rulecore

import (
	"errors"
	"github.com/callgrade/callgrade/rules"
	"regexp/syntax"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/callgrade/callgrade/value"
)

func TestCompileString(t *testing.T) {
	ext := rules.Extensions{
		Expr: func(string) (rules.Comparator, error) {
			return comparatorFunc(func(*rules.Input) rules.Outcome { return rules.Outcome{Equal: true} }), nil
		},
		Plugin: func(string, value.Value) (rules.Comparator, error) {
			return comparatorFunc(func(*rules.Input) rules.Outcome { return rules.Outcome{Equal: true} }), nil
		},
	}
	tests := []struct{ spec, want string }{
		{`"exact"`, "exact"},
		{`"numeric"`, "numeric"},
		{`"case_insensitive"`, "case_insensitive"},
		{`"unordered"`, "unordered"},
		{`"ignore"`, "ignore"},
		{`"optional"`, "optional"},
		{`{}`, "exact"},
		{`{"exact":true}`, "exact"},
		{`{"exact":false}`, "exact=false"},
		{`{"numeric":true}`, "numeric"},
		{`{"tolerance":0.01}`, "tolerance=0.01"},
		{`{"relative":1e-3}`, "relative=1e-3"},
		{`{"case_insensitive":true}`, "case_insensitive"},
		{`{"case_insensitive":false}`, "case_insensitive=false"},
		{`{"normalize":["trim","lower"]}`, "normalize=[trim,lower]"},
		{`{"normalize":[]}`, "normalize=[]"},
		{`{"unordered":true}`, "unordered"},
		{`{"one_of":[1,2]}`, "one_of"},
		{`{"regex":"^B.*n$"}`, "regex=^B.*n$"},
		{`{"ignore":true}`, "ignore"},
		{`{"optional":true}`, "optional"},
		{`{"default":5}`, "default"},
		{`{"expr":"true"}`, "expr"},
		{`{"expr":"true","params":{"a":1}}`, "expr"},
		{`{"plugin":"geo.within_km","params":{"km":5}}`, "plugin=geo.within_km"},
		{`{"extra_fields":"allow"}`, "extra_fields=allow"},
		{`{"normalize":["trim"],"case_insensitive":true}`, "case_insensitive+normalize"},
		{`{"tolerance":0.5,"optional":true}`, "tolerance+optional"},
		{`{"unordered":true,"case_insensitive":false}`, "case_insensitive=false+unordered"},
		{`{"default":"c","optional":true}`, "optional+default"},
	}
	for _, tt := range tests {
		r, err := Compile(mustParse(t, tt.spec), ext)
		if err != nil {
			t.Errorf("Compile(%s): %v", tt.spec, err)
			continue
		}
		if got := r.String(); got != tt.want {
			t.Errorf("Compile(%s).String() = %q, want %q", tt.spec, got, tt.want)
		}
	}
}

func TestRuleAccessors(t *testing.T) {
	r, err := Compile(mustParse(t, `{"optional":true,"default":{"a":[1]}}`), rules.Extensions{})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Optional() || r.Ignore() {
		t.Errorf("Optional %v Ignore %v", r.Optional(), r.Ignore())
	}
	if d, ok := r.Default(); !ok || d.String() != `{"a":[1]}` {
		t.Errorf("Default = %s, %v", d, ok)
	}
	r, _ = Compile(value.StringOf("ignore"), rules.Extensions{})
	if !r.Ignore() || r.Optional() {
		t.Errorf("ignore: Ignore %v Optional %v", r.Ignore(), r.Optional())
	}
	if _, ok := r.Default(); ok {
		t.Error("ignore has a default")
	}
	r, _ = Compile(mustParse(t, `{"default":null}`), rules.Extensions{})
	if d, ok := r.Default(); !ok || !d.IsNull() {
		t.Errorf("default null: %s %v", d, ok)
	}
}

// columnError is an expression error that knows its column, as an
// expression package's may.
type columnError struct{ col int }

func (e columnError) Error() string { return "unexpected token" }
func (e columnError) Column() int   { return e.col }

func TestCompileErrors(t *testing.T) {
	good := func(string) (rules.Comparator, error) {
		return comparatorFunc(func(*rules.Input) rules.Outcome { return rules.Outcome{} }), nil
	}
	goodPlugin := func(string, value.Value) (rules.Comparator, error) { return good("") }
	ext := rules.Extensions{Expr: good, Plugin: goodPlugin}
	tests := []struct {
		spec   string
		ext    *rules.Extensions // nil: ext
		prop   string
		offset int
		msg    string // substring of Error()
	}{
		{`42`, nil, "", -1, "a rule must be a shorthand string or an object"},
		{`["exact"]`, nil, "", -1, "got array"},
		{`"fuzzy"`, nil, "", -1, `unknown rule "fuzzy"`},
		{`"Exact"`, nil, "", -1, `unknown rule "Exact"`},
		{`{"bogus":true}`, nil, "bogus", -1, "unknown rule property"},
		{`{"exact":"yes"}`, nil, "exact", -1, "want true or false"},
		{`{"numeric":1}`, nil, "numeric", -1, "want true or false"},
		{`{"case_insensitive":null}`, nil, "case_insensitive", -1, "want true or false"},
		{`{"unordered":"true"}`, nil, "unordered", -1, "want true or false"},
		{`{"ignore":0}`, nil, "ignore", -1, "want true or false"},
		{`{"optional":[]}`, nil, "optional", -1, "want true or false"},
		{`{"tolerance":-1}`, nil, "tolerance", -1, "want a number >= 0, got -1"},
		{`{"tolerance":"0.1"}`, nil, "tolerance", -1, "want a number >= 0"},
		{`{"relative":-0.5}`, nil, "relative", -1, "want a number >= 0"},
		{`{"normalize":"trim"}`, nil, "normalize", -1, "want a list of normalisers"},
		{`{"normalize":["upper"]}`, nil, "normalize", -1, `unknown normaliser "upper"`},
		{`{"normalize":[1]}`, nil, "normalize", -1, "want normaliser names"},
		{`{"one_of":[]}`, nil, "one_of", -1, "non-empty list"},
		{`{"one_of":"a"}`, nil, "one_of", -1, "non-empty list"},
		{`{"regex":5}`, nil, "regex", -1, "want a regular expression string"},
		{`{"regex":"(ab"}`, nil, "regex", 0, "missing closing )"},
		{`{"regex":"x(ab"}`, nil, "regex", 1, "missing closing )"},
		{`{"regex":"a(b)(c"}`, nil, "regex", 4, "missing closing )"},
		{`{"regex":"[(]x(c"}`, nil, "regex", 4, "missing closing )"},
		{`{"regex":"\\(x(c"}`, nil, "regex", 3, "missing closing )"},
		{`{"regex":"ab)c"}`, nil, "regex", 2, "unexpected )"},
		{`{"regex":"a[z-a]"}`, nil, "regex", 2, "invalid character class range"},
		{`{"regex":"ab**"}`, nil, "regex", 2, "invalid nested repetition operator"},
		{`{"regex":"a\\x"}`, nil, "regex", 1, "invalid escape sequence"},
		{`{"expr":5}`, nil, "expr", -1, "want an expression string"},
		{`{"expr":"  "}`, nil, "expr", -1, "want an expression string"},
		{`{"plugin":"nodot"}`, nil, "plugin", -1, `want "plugin_name.comparator"`},
		{`{"plugin":".x"}`, nil, "plugin", -1, `want "plugin_name.comparator"`},
		{`{"plugin":5}`, nil, "plugin", -1, `want "plugin_name.comparator"`},
		{`{"params":{}}`, nil, "params", -1, "needs a plugin or an expr"},
		{`{"plugin":"a.b","params":5}`, nil, "params", -1, "want an object"},
		{`{"extra_fields":"maybe"}`, nil, "extra_fields", -1, "want allow or reject"},
		{`{"extra_fields":true}`, nil, "extra_fields", -1, "want allow or reject"},
		{`{"ignore":true,"optional":true}`, nil, "ignore", -1, "cannot be combined with optional"},
		{`{"ignore":true,"default":1}`, nil, "ignore", -1, "cannot be combined with default"},
		{`{"ignore":true,"exact":false}`, nil, "ignore", -1, "cannot be combined with exact"},
		{`{"exact":true,"numeric":true}`, nil, "exact", -1, "contradicts numeric"},
		{`{"exact":true,"tolerance":0.1}`, nil, "exact", -1, "contradicts tolerance"},
		{`{"exact":true,"regex":"a"}`, nil, "exact", -1, "contradicts regex"},
		{`{"exact":true,"expr":"a"}`, nil, "exact", -1, "contradicts expr"},
		{`{"numeric":false,"tolerance":0.1}`, nil, "numeric", -1, "contradicts tolerance"},
		{`{"regex":"a","one_of":["a"]}`, nil, "regex", -1, "cannot be combined with one_of"},
		{`{"regex":"a","numeric":true}`, nil, "regex", -1, "cannot be combined with numeric"},
		{`{"regex":"a","unordered":true}`, nil, "regex", -1, "cannot be combined with unordered"},
		{`{"regex":"a","relative":0.1}`, nil, "regex", -1, "cannot be combined with relative"},
		{`{"expr":"x","plugin":"a.b"}`, nil, "expr", -1, "cannot be combined with plugin"},
		{`{"expr":"x","unordered":true}`, nil, "expr", -1, "cannot be combined with unordered"},
		{`{"plugin":"a.b","one_of":[1]}`, nil, "plugin", -1, "cannot be combined with one_of"},
		{`{"plugin":"a.b","tolerance":1}`, nil, "plugin", -1, "cannot be combined with tolerance"},
		{`{"expr":"x"}`, &rules.Extensions{}, "expr", -1, "expr rules need the expression language, which is not enabled"},
		{`{"plugin":"a.b"}`, &rules.Extensions{}, "plugin", -1, "plugin rules need plugins, which are not enabled"},
		{`{"expr":"bad"}`, &rules.Extensions{Expr: func(string) (rules.Comparator, error) { return nil, columnError{4} }}, "expr", 4, "invalid expression at offset 4: unexpected token"},
		{`{"expr":"bad"}`, &rules.Extensions{Expr: func(string) (rules.Comparator, error) {
			return nil, &rules.CompileError{Offset: 2, Msg: "type mismatch"}
		}}, "expr", 2, "expr: type mismatch at offset 2"},
		{`{"expr":"bad"}`, &rules.Extensions{Expr: func(string) (rules.Comparator, error) { return nil, errors.New("boom") }}, "expr", -1, "expr: invalid expression: boom"},
		{`{"plugin":"geo.x"}`, &rules.Extensions{Plugin: func(string, value.Value) (rules.Comparator, error) { return nil, errors.New("no plugin geo") }}, "plugin", -1, `cannot use plugin comparator "geo.x": no plugin geo`},
	}
	for _, tt := range tests {
		e := ext
		if tt.ext != nil {
			e = *tt.ext
		}
		r, err := Compile(mustParse(t, tt.spec), e)
		var ce *rules.CompileError
		if !errors.As(err, &ce) {
			t.Errorf("Compile(%s) = %v, %v; want a *rules.CompileError", tt.spec, r, err)
			continue
		}
		if ce.Property != tt.prop || ce.Offset != tt.offset || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("Compile(%s): property %q offset %d error %q; want %q %d containing %q", tt.spec, ce.Property, ce.Offset, err, tt.prop, tt.offset, tt.msg)
		}
	}
}

// A rule with several mistakes reports each, as a *CompileError, in the
// order of its keys: one round of fixing, not one per mistake.
func TestCompileEveryMistake(t *testing.T) {
	tests := []struct {
		spec  string
		props []string
	}{
		{`{"tolerence":1,"relativ":2,"normalize":["bogus"]}`, []string{"normalize", "relativ", "tolerence"}},
		{`{"regex":"(","normalize":["trim"],"unordered":"yes"}`, []string{"unordered"}}, // regex is built only once the rest reads
		{`{"regex":"(","tolerance":-1}`, []string{"tolerance"}},
		{`{"regex":"(","one_of":["a"]}`, []string{"regex"}}, // a contradiction is reported alone
		{`{"one_of":[],"type":"nope"}`, []string{"one_of", "type"}},
	}
	for _, tt := range tests {
		_, err := Compile(mustParse(t, tt.spec), rules.Extensions{})
		var errs []error
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			errs = j.Unwrap()
		} else if err != nil {
			errs = []error{err}
		}
		var got []string
		for _, e := range errs {
			var ce *rules.CompileError
			if !errors.As(e, &ce) {
				t.Fatalf("Compile(%s): %T %v is no *rules.CompileError", tt.spec, e, e)
			}
			got = append(got, ce.Property)
		}
		if !slices.Equal(got, tt.props) {
			t.Errorf("Compile(%s): mistakes in %q, want %q (%v)", tt.spec, got, tt.props, err)
		}
	}
}

func TestCompileErrorUnwrap(t *testing.T) {
	_, err := Compile(mustParse(t, `{"regex":"(a"}`), rules.Extensions{})
	var se *syntax.Error
	if !errors.As(err, &se) || se.Code != syntax.ErrMissingParen {
		t.Errorf("errors.As(%v, *syntax.Error) failed", err)
	}
	sentinel := errors.New("sentinel")
	_, err = Compile(mustParse(t, `{"plugin":"a.b"}`), rules.Extensions{Plugin: func(string, value.Value) (rules.Comparator, error) { return nil, sentinel }})
	if !errors.Is(err, sentinel) {
		t.Errorf("errors.Is(%v, sentinel) = false", err)
	}
}

func TestCompileAllowedCombinations(t *testing.T) {
	ext := rules.Extensions{
		Expr: func(string) (rules.Comparator, error) {
			return comparatorFunc(func(*rules.Input) rules.Outcome { return rules.Outcome{} }), nil
		},
		Plugin: func(string, value.Value) (rules.Comparator, error) {
			return comparatorFunc(func(*rules.Input) rules.Outcome { return rules.Outcome{} }), nil
		},
	}
	for _, spec := range []string{
		`{"exact":true,"normalize":["trim"],"case_insensitive":true}`,
		`{"exact":true,"one_of":[1],"unordered":true}`,
		`{"exact":true,"numeric":false}`,
		`{"tolerance":0.1,"relative":0.01,"numeric":true}`,
		`{"regex":"a","normalize":["trim"],"case_insensitive":true,"optional":true}`,
		`{"regex":"a","numeric":false,"unordered":false}`,
		`{"expr":"x","normalize":["lower"],"params":{"k":1},"optional":true}`,
		`{"plugin":"a.b","case_insensitive":true,"default":1}`,
		`{"ignore":false,"numeric":true}`,
		`{"one_of":[[1]],"unordered":true,"case_insensitive":true,"extra_fields":"reject"}`,
		`{"default":5,"optional":true}`,
	} {
		if _, err := Compile(mustParse(t, spec), ext); err != nil {
			t.Errorf("Compile(%s): %v", spec, err)
		}
	}
}

func TestNormalizers(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"trim", " \t a b \n", "a b"},
		{"lower", "ÄBC", "äbc"},
		{"collapse_space", "a  b\t\tc\u00a0 d ", "a b c d "},
		{"collapse_space", "a b", "a b"},
		{"strip_punct", "¡Hola, mundo!", "Hola mundo"},
		{"strip_punct", "a-b_c", "abc"},
		{"strip_punct", "a+b=c", "a+b=c"}, // symbols are not punctuation
		{"nfc", "e\u0301", "\u00e9"},
		{"nfc", "\u00e9", "\u00e9"},
	}
	for _, tt := range tests {
		if got := string(normalizerByName(tt.name)([]byte("kept:"), tt.in)); got != "kept:"+tt.want {
			t.Errorf("%s(%q) = %q, want %q", tt.name, tt.in, got, "kept:"+tt.want)
		}
		if tt.name == "lower" {
			if want := fullLower(tt.in); tt.want != want {
				t.Errorf("lower(%q) = %q, but the full mapping gives %q", tt.in, tt.want, want)
			}
		}
	}
}

// fullLower is the lower normaliser's definition: Unicode's full lower
// case mapping, which Python's str.lower writes (but for the final sigma):
// strings.ToLower's simple mapping, but İ, whose lower case is two
// characters. Replacing its bytes first is replacing the character, even
// in text that is not UTF-8: C4 is never a continuation byte.
func fullLower(s string) string { return strings.ToLower(strings.ReplaceAll(s, "İ", "i\u0307")) }

// FuzzLower holds appendLower, and lower fused with the normalisers that
// map each character alone, to fullLower on any text (invalid UTF-8
// included).
func FuzzLower(f *testing.F) {
	for _, s := range []string{"ABC", "ÄBC", "İstanbul", "ΣΑΣ", "\xff\xfeA", "ǅ", "Braz\u0130l – İİ, ok", "İ\xff"} {
		f.Add(s)
	}
	fused := fuse([]normStep{stepByName("lower"), stepByName("strip_punct")})
	f.Fuzz(func(t *testing.T, s string) {
		want := fullLower(s)
		if got := string(appendLower(nil, s)); got != want {
			t.Fatalf("appendLower(%q) = %q, want %q", s, got, want)
		}
		if got, want := string(fused[0](nil, s)), string(appendWithout(nil, want, unicode.IsPunct)); utf8.ValidString(s) && got != want {
			t.Fatalf("lower and strip_punct fused (%q) = %q, want %q", s, got, want)
		}
	})
}

func TestFoldEqual(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"abc", "ABC", true},
		{"abc", "abd", false},
		{"abc", "ab", false},
		{"straße", "STRASSE", true},
		{"k", "\u212a", true},
		{"ǅ", "ǆ", true},
		{"a", "á", false},
	} {
		if got := foldEqual(tt.a, tt.b); got != tt.want {
			t.Errorf("foldEqual(%q, %q) = %v", tt.a, tt.b, got)
		}
	}
}

// FuzzFoldEqual checks that foldEqual, which folds into buffers it
// keeps, says what comparing foldString's strings says, for text longer
// than transform.String's first chunk and for text that is not UTF-8.
func FuzzFoldEqual(f *testing.F) {
	long := strings.Repeat("Straße ΣΑΣ 北京 ", 20)
	for _, p := range [][2]string{{"straße", "STRASSE"}, {"北京", "北京市"}, {long, strings.ToUpper(long)}, {long + "ß", long + "ss"}, {"\xff\xfeA", "\xff\xfea"}, {"ǅ", "ǆ"}, {"", "\u212a"}} {
		f.Add(p[0], p[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		if got, want := foldEqual(a, b), foldString(a) == foldString(b); got != want {
			t.Fatalf("foldEqual(%q, %q) = %v, foldString's strings equal: %v", a, b, got, want)
		}
	})
}

// TestNFCFastPath checks the premise of nfc's fast path: text of code
// points below U+0300 is always NFC.
func TestNFCFastPath(t *testing.T) {
	var buf []byte
	for a := rune(0); a < 0x300; a++ {
		if a >= 0xD800 && a <= 0xDFFF {
			continue
		}
		for b := rune(0); b < 0x300; b++ {
			buf = append(append(buf[:0], string(a)...), string(b)...)
			if !norm.NFC.IsNormal(buf) {
				t.Fatalf("%U %U is not NFC", a, b)
			}
		}
	}
	if got := string(nfc(nil, "e\u0301")); got != "\u00e9" {
		t.Errorf("nfc(e + U+0301) = %q", got)
	}
}
