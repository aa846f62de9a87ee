// Package rulecore compiles the RULE and PATH syntax of suite files into
// comparators, and compares argument trees under them: the engine's and
// internal/schema's plumbing behind package rules, which holds the
// comparator contract.
//
// Built-in properties (exact, numeric, tolerance, normalize, one_of, regex,
// unordered, ...), expressions and plugin comparators are one kind of thing
// here: a rules.Comparator. Expressions and plugins are supplied from
// outside through rules.Extensions, so this package imports neither.
//
// # Paths
//
// A PATH (ParsePath) is gjson style: segments separated by '.'. `\.` is a
// literal dot, `\\` a backslash, `\*` and `\#` keys named "*" and "#". A
// segment that is exactly `*` matches any one object key or array element;
// exactly `#` any array element; a decimal segment without leading zeros
// (`0`, `12`) matches that array index and the object key of that name.
// '*' and '#' inside a longer segment are ordinary characters. Empty
// segments are an error.
//
// Several paths may match one field. The most specific wins: the paths are
// compared segment by segment from the left, and at the first segment where
// they differ a literal beats `#`, which beats `*`. Between equal paths the
// higher Level wins, and at the same level the later Set.Add. Paths in a
// Diff are written the same way, escaped so that ParsePath reads them back.
//
// # Rules
//
// A RULE (Compile) is a shorthand string (exact, numeric, case_insensitive,
// unordered, ignore, optional) or an object of properties, which compose:
// normalisers first, then the comparison.
//
//   - exact (the default): value.Equal: key order ignored, numbers by exact
//     decimal value (5 == 5.0 == 5e0), strict types ("5" != 5, true != 1).
//     An explicit `exact: true` also stops inheritance: below and at its
//     path only the rule's own normalize and case_insensitive apply.
//     `exact: false` says nothing.
//   - numeric: a string that, after the normalisers and trimming white
//     space, is a JSON number literal counts as that number, compared by
//     exact decimal value ("5" == 5 == 5.0 == " 5e0 "). A number never
//     equals a non-numeric string. Two non-numeric strings compare as
//     strings (so that numeric inherited by an object does not break its
//     text fields). `numeric: false` switches an inherited numeric off.
//   - tolerance: t, relative: r (numbers >= 0, either or both): numeric,
//     and two numbers also match when, as float64, |a-e| <= t or
//     |a-e| <= r*|e| (a few units of float64 rounding allowed at the
//     bound). Huge literals (1e400) match only by exact value.
//   - case_insensitive: strings compare under Unicode full case folding
//     (golang.org/x/text/cases.Fold: "STRASSE" equals "Straße").
//     `case_insensitive: false` switches an inherited one off.
//   - normalize: [trim, lower, collapse_space, strip_punct, nfc], applied in
//     order to the strings of both sides: trim removes leading and trailing
//     white space; lower maps to lower case; collapse_space turns each run
//     of white space into one space (without trimming); strip_punct removes
//     Unicode punctuation; nfc is Unicode NFC; an object {delete: CHARS}
//     removes every character of CHARS; {replace: {FROM: TO, ...}} replaces
//     each FROM by its TO in one pass from the left, the longest FROM
//     winning at one place. `normalize: []` switches
//     inherited normalisers off. Normalisers and case folding apply to
//     string values, never to object keys.
//   - unordered: both lists must have the same length and a perfect
//     matching between their elements must exist in which each pair is
//     equal under the elements' own rules (`path.#`, `path.*`, `path.0`,
//     where an index means the expected list's position) and the settings
//     in force. Found by bipartite matching, never greedily. Lists in the
//     same order match at any length; otherwise lists of more than 1000
//     elements are a RuleError, since pairing takes n² comparisons. When
//     either side is not a list, unordered means nothing and the value is
//     compared as usual.
//   - one_of: [v1, v2, ...] (non-empty): the actual matches when it equals
//     any listed value, each compared as the expected value under the
//     rule's other properties. The expected value itself is not used.
//   - regex: RE2 (package regexp), unanchored unless written with ^ and $:
//     the actual must be a string that matches after the normalisers; the
//     expected value is ignored. With case folding in force the expression
//     matches case-insensitively ((?i)).
//   - type: T or [T, ...] with T one of string, number, integer, float,
//     boolean, array, object, null: the actual value must be of one of
//     these types, an integer being a number literal without fraction or
//     exponent and a float one with either. It is checked by
//     Set.CompareChecked, not Compare, on the actual value as written, at
//     every path the rule applies to, whatever the comparison decided
//     (below one_of and unordered too); a violation is a Mismatch at its
//     path and its top-level argument does not count as matched.
//   - ignore: the field may hold anything or be absent, on either side.
//   - optional: the actual may omit the field; if present it is compared.
//     If the expected call omits it too, any actual value is accepted.
//   - default: v: a field that is absent (or null, with
//     Context.NullIsMissing) counts as v, on either side, and is then
//     compared as usual. With both default and optional, default decides.
//   - expr: a Comparator from rules.Extensions.Expr; plugin:
//     "name.comparator" a Comparator from rules.Extensions.Plugin;
//     params: an object passed to either. The comparator sees both values
//     after the normalisers and case folding in force.
//   - extra_fields: allow | reject: for the object at this path only (not
//     objects nested in it), whether keys the expected object lacks are
//     allowed. Context.AllowExtra applies where no rule says.
//
// Rejected at Compile (rules.CompileError, naming the property): unknown
// properties and shorthands, values of the wrong type, unknown normalisers,
// negative tolerances, an empty one_of, bad regular expressions (with the
// offset of the bad fragment), expr or plugin when rules.Extensions lacks them,
// params without expr or plugin, and contradictions: ignore: true with any
// other property; exact: true with numeric: true, tolerance, relative,
// regex, expr or plugin; numeric: false with tolerance or relative; regex
// with one_of, numeric, tolerance, relative, unordered, expr or plugin
// (regex, one_of and the comparisons each say on their own what the
// actual may be); expr with plugin; expr or plugin with numeric,
// tolerance, relative, unordered or one_of.
//
// # Inheritance
//
// Case folding, normalisers and the numeric mode (exact, numeric or a
// tolerance) apply at a rule's path and below it: to the strings and
// numbers inside lists and objects there. A more specific rule at a
// descendant replaces what it sets itself and keeps the rest; `exact: true`
// starts again from the defaults. The other properties act at their own
// path only.
//
// # Comparing
//
// Set.Compare walks both trees together. Objects are compared member by
// member: a key the actual lacks is a MissingArgument unless its rule is
// ignore, optional or default; a key the expected lacks is an
// UnexpectedArgument unless extra fields are allowed there or its rule is
// ignore or optional (with default, the actual is compared with the
// default, whatever extra_fields says: the expected call implicitly has
// the default). With Context.NullIsMissing a member set to null, at any
// depth, counts as absent. Lists of equal length are compared element by
// element; lists of different lengths are one Mismatch at the list's path.
// Scalars are compared under the settings in force. A rule with a leaf
// matcher (regex, one_of, tolerance, relative, expr, plugin, unordered)
// decides at its path, comparing everything below it with the rules there,
// and reports at most one Diff, at its path. A comparator's error becomes a
// Diff of its rules.Outcome.ErrKind (RuleError when empty; a panic is a
// RuleError) when the leaf fails.
//
// A Diff's Rule is the String of the rule at its path when that rule says
// how to compare, else of the nearest ancestor rule whose settings apply,
// else "exact"; an UnexpectedArgument shows "extra_fields=reject".
package rulecore
