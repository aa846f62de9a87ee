package bfcl

import (
	"regexp"
	"testing"

	"github.com/callgrade/callgrade/internal/suitedoc"
)

// patternText is a text of a value and whether each semantics accepts it.
type patternText struct {
	s               string
	bfcl, callgrade bool
}

// sourcePatternTests are the values of each Java and JavaScript type, with
// texts that BFCL's converter and checks accept or refuse.
var sourcePatternTests = []struct {
	lang        language
	decl, items string
	alts        string // the acceptable values, as in BFCL's answer
	texts       []patternText
}{
	{langJava, "integer", "", `[42]`, []patternText{
		{"42", true, true}, {"042", true, true}, {"-42", false, false}, {"42.0", false, false},
		{"0x2a", false, true}, {"0x2A", false, true}, {"42L", false, false}, {" 42", false, false}, {"4 2", false, false}, {"42\n", true, true},
	}},
	{langJava, "integer", "", `[0]`, []patternText{{"0", true, true}, {"-0", true, true}, {"00", true, true}, {"", false, false}}},
	{langJava, "integer", "", `["count"]`, []patternText{{"count", true, true}, {"Count", false, false}, {"5", false, false}}},
	{langJava, "long", "", `[5]`, []patternText{
		{"5L", true, true}, {"5l", true, true}, {"5", false, true}, {"0x5L", false, true}, {"5.0", false, false},
	}},
	{langJava, "double", "", `[0.5]`, []patternText{
		{"0.5", true, true}, {"0.50", true, true}, {".5", false, false}, {"5e-1", true, true}, {"5.0E-1", true, true},
		{"0.05e1", true, true}, {"0.5d", false, true}, {"0.5f", false, false}, {"0.6", false, false},
	}},
	{langJava, "boolean", "", `[true]`, []patternText{
		{"true", true, true}, {"True", false, false}, {"1", false, false}, {"false", false, false},
	}},
	{langJava, "String", "", `["user-mapping.yml"]`, []patternText{
		{"user-mapping.yml", true, true}, {"USER MAPPING yml", true, true}, {`"user-mapping.yml"`, false, false},
		{"user_mapping:yml", false, false},
	}},
	{langJava, "any", "", `["mapController"]`, []patternText{{"mapController", true, true}, {"map_controller", true, true}, {"mapControllers", false, false}}},
	{langJava, "Array", "String", `[["-v", "--no-strict"]]`, []patternText{
		{`new String[]{-v, --no-strict}`, true, true},
		{`new String[]{"-v", "--no-strict"}`, false, true}, // N1
		{`new String[] { "-v", "--no-strict" }`, false, true},
		{`new String[]{-v}`, false, false},
		{`new String[]{--no-strict, -v}`, false, false},
	}},
	{langJava, "Array", "long", `[[2, 7]]`, []patternText{{`new long[]{2L, 7L}`, true, true}, {`new long[]{2, 7}`, false, true}}},
	{langJava, "Array", "integer", `[[2, 7]]`, []patternText{
		{`new int[]{2, 7}`, true, true}, {`new int[]{2,7,}`, true, true}, {`new int[]{7, 2}`, false, false}, {`new int[]{2, 7.0}`, false, false},
	}},
	{langJava, "ArrayList", "String", `[["GC pause"]]`, []patternText{
		{`new ArrayList<>(Arrays.asList("GC pause"))`, true, true}, {`new ArrayList<String>(Arrays.asList("gc-pause"))`, true, true},
		{`new ArrayList<String>() {{ add("GC pause"); }}`, true, true}, {`new ArrayList<>(Arrays.asList("GC", "pause"))`, false, false},
	}},
	{langJava, "ArrayList", "long", `[[101, 202]]`, []patternText{
		{`new ArrayList<>(Arrays.asList(101L, 202L))`, true, true}, {`new ArrayList<>(Arrays.asList(101, 202))`, false, false},
		{`new ArrayList<>(Arrays.asList(0x65L, 202L))`, false, true},
	}},
	{langJava, "ArrayList", "any", `[["userID", 42, true]]`, []patternText{ // N2
		{`new ArrayList<Object>(Arrays.asList("userID", 42, true))`, false, true},
		{`new ArrayList<Object>() {{ add("userID"); add(42); add(true); }}`, false, true},
		{`new ArrayList<Object>(Arrays.asList("userID", 43, true))`, false, false},
	}},
	{langJava, "HashMap", "", `[{"limit": [50], "schemaFilter": ["public"]}]`, []patternText{
		{`new HashMap<String, Object>() {{ put("limit", 50); put("schemaFilter", "public"); }}`, true, true},
		{`new HashMap<String, Object>() {{ put("schemaFilter", "PUBLIC"); put("limit", 50); }}`, true, true},
		{`new HashMap<String, Object>() {{ put("limit", 50); }}`, false, false},
		{`new HashMap<String, Object>() {{ put("limit", 50); put("schemaFilter", "public"); put("x", 1); }}`, false, false},
		{`new HashMap<>()`, false, false},
		{`new HashMap<String, List<Object>>() {{ put("limit", 50L); put("schemaFilter", public); }}`, true, true},
	}},
	{langJava, "HashMap", "", `[{"format": "epoch_millis"}]`, []patternText{ // N3
		{`new HashMap<String, Object>() {{ put("format", "epoch_millis"); }}`, false, true},
		{`new HashMap<String, Object>() {{ put("format", "e"); }}`, true, false},
		{`new HashMap<>()`, true, false},
		{`new HashMap<String, Object>() {{ put('format', 'epoch_millis'); }}`, true, false}, // no put("...: an empty map
	}},
	{langJava, "HashMap", "", `[{"k": ["v", ""]}]`, []patternText{
		{`new HashMap<>()`, true, true}, {`new HashMap<>() {{ }}`, true, true},
		{`new HashMap<>() {{ put("x", "v"); }}`, false, false}, {`new HashMap<>() {{ put("k", "v"); }}`, true, true},
	}},
	{langJava, "HashMap", "", `["docFields"]`, []patternText{{"docFields", true, true}, {"docfields", false, false}}},
	{langJS, "String", "", `["userInputField"]`, []patternText{
		{"userInputField", true, true}, {`"userInputField"`, true, true}, {`'user_input_field'`, true, true}, {`"userInputField'`, false, false},
	}},
	{langJS, "integer", "", `[3]`, []patternText{{"3", true, true}, {"0x3", false, true}, {"3.0", false, false}, {"3n", false, false}}},
	{langJS, "float", "", `[30]`, []patternText{
		{"30", true, true}, {"30.0", true, true}, {"3e1", false, true}, {"3.000000e+01", false, true}, {"0x1e", false, true}, {"30f", false, false},
	}},
	{langJS, "Boolean", "", `[true, ""]`, []patternText{{"true", true, true}, {"false", false, false}, {"TRUE", false, false}}},
	{langJS, "array", "String", `[["completed", "failed"]]`, []patternText{
		{`["completed", "failed"]`, true, true}, {`['completed','failed']`, true, true}, {`new Array("completed", "failed")`, true, true},
		{`["failed", "completed"]`, false, false}, {`["completed"]`, false, false},
	}},
	{langJS, "array", "float", `[[10.0, 15.0], [20.0, 25.0]]`, []patternText{ // N6
		{`[10, 15]`, true, true}, {`[[10, 15], [20, 25]]`, false, false},
	}},
	{langJS, "dict", "", `[{"issuer": ["myapp.net"], "role": ["admin"]}]`, []patternText{
		{`{issuer: 'myapp.net', role: 'admin'}`, true, true}, {`{"role": "admin", "issuer": "myapp.net"}`, true, true},
		{`{issuer: 'myapp.net'}`, false, false}, {`{issuer: 'myapp.net', role: 'admin', x: 1}`, false, false},
	}},
	{langJS, "dict", "", `["responseData"]`, []patternText{{"responseData", true, true}, {" responseData ", true, true}, {"responsedata", false, false}}},
	{langJS, "dict", "", `["", {}]`, []patternText{{"{}", true, true}, {"{{}}", true, true}, {"{a: 1}", false, false}}},
	// Python's white space and \w, and the line feed BFCL's "." cannot
	// cross: each verdict printed by BFCL's ast_checker (gorilla 6ea5797).
	{langJava, "Array", "integer", `[[2, 7]]`, []patternText{
		{"new int[]{2,\u00a07}", true, true}, {"new\u00a0int[]{2, 7}", true, true}, {"new \u00cfnt[]{2, 7}", true, true}, {"new int[]{2,\v7}", true, true},
	}},
	{langJava, "HashMap", "", `[{"limit": [50]}]`, []patternText{
		{"new\vHashMap<String, Object>() {{ put(\"limit\", 50); }}", true, true},
		{"new HashMap<String, Object>() {{ put(\"limit\",\u3000 50); }}", true, true},
		{"new HashMap<String, Object>() {{ put(\"limit\", 50\n); }}", false, false},
	}},
	{langJS, "array", "integer", `[[1, 2]]`, []patternText{{"[1,\u3000 2]", true, true}, {"\u00a0[1, 2]", true, true}}},
	{langJS, "dict", "", `[{"k": ["v"]}]`, []patternText{{"{k:\u00a0'v'}", true, true}, {"{k:\n'v'}", false, false}}},
	{langJS, "dict", "", `[{}]`, []patternText{{"{ }", true, true}, {"{\n}", false, false}}},
}

// TestSourcePattern checks the regex of each Java and JavaScript type
// against texts BFCL's checker accepts and texts it rejects (bfcl), and
// what callgrade semantics decides of them (callgrade) where the
// languages read them otherwise than BFCL's converters (CHECKER_NOTES N1-N6).
func TestSourcePattern(t *testing.T) {
	for _, tc := range sourcePatternTests {
		alts, err := suitedoc.Parse([]byte(tc.alts))
		if err != nil {
			t.Fatal(err)
		}
		for _, sem := range []Semantics{SemanticsBFCL, SemanticsCallgrade} {
			pat, err := sourcePattern(tc.lang, tc.decl, tc.items, alts.Vals, sem == SemanticsCallgrade)
			if err != nil {
				t.Fatalf("%s %s %s: %v", tc.lang, tc.decl, tc.alts, err)
			}
			re := regexp.MustCompile(pat)
			for _, x := range tc.texts {
				want := x.bfcl
				if sem == SemanticsCallgrade {
					want = x.callgrade
				}
				if got := re.MatchString(x.s); got != want {
					t.Errorf("%s semantics, %s %s<%s> answer %s: text %q accepted %v, want %v (regex %s)", sem, tc.lang, tc.decl, tc.items, tc.alts, x.s, got, want, pat)
				}
			}
		}
	}
}

// TestSourceText checks the expected argument written for an acceptable
// value: the language's own spelling where BFCL accepts it, else the
// first spelling BFCL accepts (a String[] unquoted, N1).
func TestSourceText(t *testing.T) {
	for _, tc := range []struct {
		lang        language
		decl, items string
		alts, want  string
	}{
		{langJava, "long", "", `[5]`, "5L"},
		{langJava, "Array", "String", `[["-v", "-p"]]`, "new String[]{-v, -p}"},
		{langJava, "HashMap", "", `[{"limit": [50]}]`, `new HashMap<String, Object>() {{ put("limit", 50); }}`},
		{langJS, "array", "String", `[["a", "b"]]`, `["a", "b"]`},
		{langJS, "dict", "", `[{"k": ["v"]}]`, `{"k": "v"}`},
	} {
		alts, err := suitedoc.Parse([]byte(tc.alts))
		if err != nil {
			t.Fatal(err)
		}
		res, err := sourceRules(tc.lang, tc.decl, tc.items, alts.Vals, false)
		if err != nil {
			t.Fatal(err)
		}
		if res.expected == nil || res.expected.Text != tc.want {
			t.Errorf("%s %s %s: expected %v, want %q", tc.lang, tc.decl, tc.alts, res.expected, tc.want)
		}
	}
}
