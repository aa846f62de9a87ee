package dsl

import (
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/vm/runtime"
	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"github.com/callgrade/callgrade/internal/jsonv"
	"github.com/callgrade/callgrade/internal/number"
	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/value"
)

// Decimal is an exact decimal number, as decimal() returns it: the
// canonical spelling of the number (number.Canonical), so that two
// Decimals are == exactly when their values are equal. <, <=, > and >=
// compare them by exact value too. It stays exported, and named so,
// because expression messages name its type ("mismatched types
// dsl.Decimal and int").
type Decimal string

// raw is an argument taken exactly (see rawPatch).
type raw struct{ v value.Value }

// disabledBuiltins reach the clock, the time zone database or build
// strings without bound; the helpers named like expr's builtins (date,
// get, join, replace, string, toJSON, fromJSON) replace them.
var disabledBuiltins = []string{"now", "timezone", "repeat"}

var disabledWhy = map[string]string{
	"now":      "an expression cannot read the clock",
	"timezone": "an expression cannot read the time zone database",
	"repeat":   "it can build strings of any size",
}

func fn(name string, f func(args ...any) (any, error), types ...any) expr.Option {
	return expr.Function(name, f, types...)
}

// exprOptions returns the compile options shared by every expression: the
// environment, the builtins disabled, and the functions an expression may
// call (funcs).
func (c *Compiler) exprOptions() []expr.Option {
	opts := []expr.Option{
		expr.Env(env{}),
		expr.AsBool(),
		expr.MaxNodes(c.opts.MaxNodes),
	}
	for _, b := range disabledBuiltins {
		opts = append(opts, expr.DisableBuiltin(b))
	}
	f := newFuncs(c.opts)
	opts = append(opts, f.inserted()...)
	opts = append(opts, f.boundedBuiltins()...)
	return append(opts, f.helpers()...)
}

// funcs are the functions an expression may call, bound to the limits of
// one Compiler: each method named after a function implements it.
type funcs struct {
	maxStr       int // Options.MaxStringLen
	maxEdit      int // Options.MaxEditLen
	memoryBudget int // Options.MemoryBudget, for flatten

	// expr's own join, replace, toJSON and toBase64, which the bounded
	// ones call once they know the string they build is within maxStr.
	bJoin, bReplace, bToJSON, bToBase64 func(args ...any) (any, error)
}

func newFuncs(o Options) *funcs {
	builtinFunc := func(name string) func(args ...any) (any, error) {
		return builtin.Builtins[builtin.Index[name]].Func
	}
	return &funcs{
		maxStr:       o.MaxStringLen,
		maxEdit:      o.MaxEditLen,
		memoryBudget: int(o.MemoryBudget),
		bJoin:        builtinFunc("join"),
		bReplace:     builtinFunc("replace"),
		bToJSON:      builtinFunc("toJSON"),
		bToBase64:    builtinFunc("toBase64"),
	}
}

// helpers are the documented helpers (docs/dsl.md), in the order of its
// table.
func (f *funcs) helpers() []expr.Option {
	return []expr.Option{
		// Numbers.
		fn("approx", f.approx, new(func(any, any, any) bool)),
		fn("rel_approx", f.relApprox, new(func(any, any, any) bool)),
		fn("num", f.num, new(func(any) float64)),
		fn("decimal", f.decimal, new(func(any) Decimal)),
		// Strings.
		fn("norm", f.norm, new(func(any) string)),
		fn("strip_punct", f.stripPunct, new(func(any) string)),
		// Collections.
		fn("set_eq", f.setEq, new(func(any, any) bool)),
		fn("contains_all", f.containsAll, new(func(any, any) bool)),
		// Dates.
		fn("date", f.date, new(func(any) time.Time)),
		fn("same_day", f.sameDay, new(func(any, any) bool)),
		fn("same_instant", f.sameInstant, new(func(any, any) bool)),
		fn("same_instant_within", f.sameInstantWithin, new(func(any, any, string) bool), new(func(any, any, time.Duration) bool)),
		// Edit distances.
		fn("levenshtein", f.levenshtein, new(func(any, any) int)),
		fn("similarity", f.similarity, new(func(any, any) float64)),
		// Paths and JSON values.
		fn("get", f.get, new(func(any, string) any)),
		fn("has", f.has, new(func(any, string) bool)),
		fn("canon", f.canon, new(func(any) string)),
	}
}

// boundedBuiltins replace expr's builtins that can build without bound
// (strings past MaxStringLen, or a flattened list past MemoryBudget), and
// fromJSON, which must read JSON as arguments are read.
func (f *funcs) boundedBuiltins() []expr.Option {
	return []expr.Option{
		fn("flatten", f.flatten, new(func(any) []any)),
		fn("join", f.join, new(func([]any, string) string), new(func([]any) string), new(func([]string, string) string), new(func([]string) string)),
		fn("replace", f.replace, new(func(string, string, string) string)),
		fn("toJSON", f.toJSON, new(func(any) string)),
		fn("string", f.toString, new(func(any) string)),
		fn("toBase64", f.toBase64, new(func(string) string)),
		fn("fromJSON", fromJSON, new(func(string) any)),
	}
}

// inserted are the functions the compiler inserts, which no source may
// name (guard rejects names starting with "__"): the step and work
// counts, `+` on strings, arguments taken exactly, the comparisons of
// finite numbers, int() and abs() of a duration, the list a loop runs
// over (patch.go), and <, <=, > and >= on decimals.
func (f *funcs) inserted() []expr.Option {
	return []expr.Option{
		fn("__tick", f.tick, new(func(*worker) bool)),
		fn("__work", f.work, new(func(*worker, string, ...any) bool)),
		// `+` where a side may be a string (concatPatch); in a loop, the
		// bytes it builds count as work, since each step of a loop that
		// grows a string copies all of it.
		fn("__cat", f.catArgs, new(func(string, string) string)),
		fn("__cat_w", f.catWorkArgs, new(func(*worker, string, string) string)),
		fn("__add", f.addArgs, new(func(any, any) any)),
		fn("__add_w", f.addWorkArgs, new(func(*worker, any, any) any)),
		fn("__raw", f.raw, new(func(*rules.Input, string, ...any) any)),
		fn("__dec_lt", decCmp(func(c int) bool { return c < 0 }), new(func(Decimal, Decimal) bool)),
		fn("__dec_le", decCmp(func(c int) bool { return c <= 0 }), new(func(Decimal, Decimal) bool)),
		fn("__dec_gt", decCmp(func(c int) bool { return c > 0 }), new(func(Decimal, Decimal) bool)),
		fn("__dec_ge", decCmp(func(c int) bool { return c >= 0 }), new(func(Decimal, Decimal) bool)),
		expr.Operator("<", "__dec_lt"),
		expr.Operator("<=", "__dec_le"),
		expr.Operator(">", "__dec_gt"),
		expr.Operator(">=", "__dec_ge"),
		fn("__cmp", f.cmp, new(func(string, any, any) bool)),
		fn("__int", f.toInt, new(func(any) int)),
		fn("__abs_duration", f.absDuration, new(func(time.Duration) time.Duration)),
		fn("__seq", seq, new(func(string, any) any)),
		fn("__item", item, new(func(any) any)),
	}
}

// item is what x[i] indexes (indexPatch).
func item(args ...any) (any, error) {
	if _, ok := args[0].(string); ok {
		return nil, errors.New("a string cannot be indexed by a number; compare it whole, or slice it (s[0:1])")
	}
	return args[0], nil
}

// fromJSON reads JSON as callgrade reads a call's arguments, where expr's
// (encoding/json's) kept the last of a key written twice: a rule on
// fromJSON(actual).amount then passed {"amount": 99999, "amount": 10}.
// A key written twice, NaN, text after the value and a number beyond
// float64's range are errors.
func fromJSON(args ...any) (any, error) {
	v, err := value.Parse(args[0].(string))
	if err != nil {
		return nil, fmt.Errorf("fromJSON: %w", err)
	}
	var far string
	x := toAnyFar(v, &far)
	if far != "" {
		return nil, fmt.Errorf("fromJSON: the number %s is beyond float64's range", far)
	}
	return x, nil
}

// seq is the list a loop builtin named args[0] loops over (seqPatch).
func seq(args ...any) (any, error) {
	if k := reflect.ValueOf(args[1]).Kind(); k == reflect.Slice || k == reflect.Array {
		return args[1], nil
	}
	return nil, fmt.Errorf("%s takes a list, got %s", args[0], describe(args[1]))
}

func (f *funcs) tooLong(what string, n int) error {
	return &limitError{limit: "MaxStringLen", msg: fmt.Sprintf("%s would build a string of %d bytes; the limit is %d", what, n, f.maxStr)}
}

// The functions the patches insert.

func (f *funcs) tick(args ...any) (any, error) {
	w := args[0].(*worker)
	w.steps++
	if w.steps > w.max {
		return nil, &limitError{limit: "MaxSteps", msg: fmt.Sprintf("the expression ran more than %d closure steps (all, map, filter, ...); the limit is MaxSteps", w.max)}
	}
	if err := w.tick(false); err != nil {
		return nil, err
	}
	return true, nil
}

func (f *funcs) work(args ...any) (any, error) {
	w := args[0].(*worker)
	name := args[1].(string)
	if err := w.charge(workOf(name, args[2:], w.maxW-w.work)); err != nil {
		return nil, err
	}
	// What the helper is to build outside the VM's count of
	// memory, counted before it builds it.
	if n := builds(name, args[2:], w.maxMem-w.mem); n > 0 {
		if err := w.alloc(name, n); err != nil {
			return nil, err
		}
	}
	return true, nil
}

// cat is a + b, bounded by MaxStringLen, and counted as work when w is
// not nil.
func (f *funcs) cat(w *worker, a, b string) (any, error) {
	if len(a)+len(b) > f.maxStr {
		return nil, f.tooLong("+", len(a)+len(b))
	}
	if w != nil {
		if err := w.charge(len(a) + len(b)); err != nil {
			return nil, err
		}
	}
	return a + b, nil
}

// add is x + y: cat when both are strings, else as expr's VM adds.
func (f *funcs) add(w *worker, x, y any) (any, error) {
	a, aok := x.(string)
	b, bok := y.(string)
	if aok && bok {
		return f.cat(w, a, b)
	}
	return runtime.Add(x, y), nil
}

func (f *funcs) catArgs(args ...any) (any, error) {
	return f.cat(nil, args[0].(string), args[1].(string))
}

func (f *funcs) catWorkArgs(args ...any) (any, error) {
	return f.cat(args[0].(*worker), args[1].(string), args[2].(string))
}

func (f *funcs) addArgs(args ...any) (any, error) {
	return f.add(nil, args[0], args[1])
}

func (f *funcs) addWorkArgs(args ...any) (any, error) {
	return f.add(args[0].(*worker), args[1], args[2])
}

func (f *funcs) raw(args ...any) (any, error) {
	return rawAt(args[0].(*rules.Input), args[1].(string), args[2:])
}

func (f *funcs) cmp(args ...any) (any, error) {
	return finiteCompare(args[0].(string), args[1], args[2])
}

func (f *funcs) toInt(args ...any) (any, error) {
	if x, ok := args[0].(float64); ok && !(x >= math.MinInt64 && x < math.MaxInt64) {
		return nil, fmt.Errorf("int: %s is beyond an int's range", brief(x))
	}
	return runtime.ToInt(args[0]), nil
}

func (f *funcs) absDuration(args ...any) (any, error) {
	d := args[0].(time.Duration)
	switch {
	case d == math.MinInt64: // a saturated difference
		return time.Duration(math.MaxInt64), nil
	case d < 0:
		return -d, nil
	}
	return d, nil
}

// expr's builtins that can build without bound, bounded.

func (f *funcs) join(args ...any) (any, error) {
	sep := ""
	if len(args) > 1 {
		s, ok := args[1].(string)
		if !ok {
			return nil, errors.New("join: the separator must be a string")
		}
		sep = s
	}
	n, ok := weigh(args[0], f.maxStr)
	if list, isList := args[0].([]any); isList {
		n += len(list) * len(sep)
	}
	if !ok || n > f.maxStr {
		return nil, f.tooLong("join", n)
	}
	return f.bJoin(args...)
}

func (f *funcs) replace(args ...any) (any, error) {
	s, ok1 := args[0].(string)
	old, ok2 := args[1].(string)
	nw, ok3 := args[2].(string)
	if !ok1 || !ok2 || !ok3 {
		return nil, errors.New("replace takes three strings")
	}
	count := 0
	if old == "" {
		count = utf8.RuneCountInString(s) + 1
	} else {
		count = strings.Count(s, old)
	}
	if n := len(s) + count*(len(nw)-len(old)); n > f.maxStr {
		return nil, f.tooLong("replace", n)
	}
	return f.bReplace(args...)
}

func (f *funcs) toJSON(args ...any) (any, error) {
	if n, ok := weigh(args[0], f.maxStr/2); !ok {
		return nil, f.tooLong("toJSON", n)
	}
	return f.bToJSON(args...)
}

// toBase64 is expr's toBase64, whose text is a third longer than its
// argument's: applied to its own result in a loop, it would grow a string
// past MaxStringLen.
func (f *funcs) toBase64(args ...any) (any, error) {
	s, ok := args[0].(string)
	if !ok {
		return nil, errors.New("toBase64 takes a string")
	}
	if n := base64.StdEncoding.EncodedLen(len(s)); n > f.maxStr {
		return nil, f.tooLong("toBase64", n)
	}
	return f.bToBase64(args...)
}

// toString is string().
func (f *funcs) toString(args ...any) (any, error) {
	if n, ok := weigh(args[0], f.maxStr/2); !ok {
		return nil, f.tooLong("string", n)
	}
	switch t := args[0].(type) {
	case string:
		return t, nil
	case Decimal:
		return string(t), nil
	}
	return fmt.Sprintf("%v", args[0]), nil
}

// flatten replaces expr's, which builds the whole list before the memory
// budget sees it, and lists that share parts flatten to far more elements
// than they hold: it counts as it builds.
func (f *funcs) flatten(args ...any) (any, error) {
	v := reflect.ValueOf(args[0])
	if v.Kind() != reflect.Slice && v.Kind() != reflect.Array {
		return nil, fmt.Errorf("flatten: %s is not a list", brief(args[0]))
	}
	out := []any{}
	if err := flattenInto(&out, v, 0, f.memoryBudget); err != nil {
		return nil, err
	}
	return out, nil
}

// The helpers: numbers.

func (f *funcs) approx(args ...any) (any, error) {
	tol, err := boundArg("approx", "tolerance", args[2])
	if err != nil {
		return nil, err
	}
	a, aok := numLiteral(args[0])
	b, bok := numLiteral(args[1])
	return aok && bok && number.WithinAbs(a, b, tol), nil
}

func (f *funcs) relApprox(args ...any) (any, error) {
	frac, err := boundArg("rel_approx", "fraction", args[2])
	if err != nil {
		return nil, err
	}
	a, aok := numLiteral(args[0])
	b, bok := numLiteral(args[1])
	return aok && bok && number.WithinRel(a, b, frac), nil
}

func (f *funcs) num(args ...any) (any, error) {
	x, ok := toFloat(args[0])
	if !ok {
		return nil, fmt.Errorf("num: %s is not a number or a numeric string", brief(args[0]))
	}
	if math.IsInf(x, 0) {
		// ±Inf would equal any other number as far.
		return nil, fmt.Errorf("num: %s is beyond float64's range; compare it with decimal()", brief(args[0]))
	}
	return x, nil
}

func (f *funcs) decimal(args ...any) (any, error) {
	return toDecimal(args[0])
}

// The helpers: strings.

func (f *funcs) norm(args ...any) (any, error) {
	s, ok := args[0].(string)
	if !ok {
		return nil, fmt.Errorf("norm: %s is not a string", brief(args[0]))
	}
	return normalize(s), nil
}

func (f *funcs) stripPunct(args ...any) (any, error) {
	s, ok := args[0].(string)
	if !ok {
		return nil, fmt.Errorf("strip_punct: %s is not a string", brief(args[0]))
	}
	return stripPunct(s), nil
}

// The helpers: collections.

func (f *funcs) setEq(args ...any) (any, error) {
	return setEq(args[0], args[1], f.maxStr)
}

func (f *funcs) containsAll(args ...any) (any, error) {
	return containsAll(args[0], args[1], f.maxStr)
}

// The helpers: dates.

func (f *funcs) date(args ...any) (any, error) {
	return toTime(args[0])
}

func (f *funcs) sameDay(args ...any) (any, error) {
	a, err1 := toTime(args[0])
	b, err2 := toTime(args[1])
	if err1 != nil || err2 != nil {
		return false, nil
	}
	ay, am, ad := a.Date()
	by, bm, bd := b.Date()
	return ay == by && am == bm && ad == bd, nil
}

func (f *funcs) sameInstant(args ...any) (any, error) {
	a, err1 := toTime(args[0])
	b, err2 := toTime(args[1])
	if err1 != nil || err2 != nil {
		return false, nil
	}
	return a.Equal(b), nil
}

func (f *funcs) sameInstantWithin(args ...any) (any, error) {
	d, err := windowArg(args[2])
	if err != nil {
		return nil, err
	}
	a, err1 := toTime(args[0])
	b, err2 := toTime(args[1])
	if err1 != nil || err2 != nil {
		return false, nil
	}
	// Not |a.Sub(b)| <= d: Sub saturates, and the negation of the
	// smallest duration is itself.
	return !a.Before(b.Add(-d)) && !a.After(b.Add(d)), nil
}

// The helpers: edit distances.

func (f *funcs) levenshtein(args ...any) (any, error) {
	a, b, err := editArgs("levenshtein", args, f.maxEdit)
	if err != nil {
		return nil, err
	}
	return levenshtein(a, b), nil
}

func (f *funcs) similarity(args ...any) (any, error) {
	a, b, err := editArgs("similarity", args, f.maxEdit)
	if err != nil {
		return nil, err
	}
	return similarity(a, b), nil
}

// The helpers: paths and JSON values.

func (f *funcs) get(args ...any) (any, error) {
	p, ok := args[1].(string)
	if !ok {
		return nil, errors.New("get: the path must be a string")
	}
	return getPath(args[0], p)
}

func (f *funcs) has(args ...any) (any, error) {
	p, ok := args[1].(string)
	if !ok {
		return nil, errors.New("has: the path must be a string")
	}
	_, err := getPath(args[0], p)
	var nf *notFound
	if errors.As(err, &nf) {
		return false, nil
	}
	return err == nil, err
}

func (f *funcs) canon(args ...any) (any, error) {
	v, err := toValue(args[0], f.maxStr)
	if err != nil {
		return nil, fmt.Errorf("canon: %w", err)
	}
	s := string(jsonv.AppendCanonical(nil, v))
	if len(s) > f.maxStr {
		return nil, f.tooLong("canon", len(s))
	}
	return s, nil
}

// numLiteral returns x as a JSON number literal, for the exact comparisons
// of approx and rel_approx: a number read from the input as written, a
// numeric string trimmed, a float64 by its shortest spelling. ±Inf and NaN
// have no literal, and so are within nothing.
func numLiteral(x any) (string, bool) {
	switch t := x.(type) {
	case raw:
		switch t.v.Kind() {
		case value.Number:
			return t.v.Str(), true
		case value.String:
			return numLiteral(t.v.Str())
		}
	case float64:
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return "", false
		}
		return strconv.FormatFloat(t, 'g', -1, 64), true
	case int:
		return strconv.Itoa(t), true
	case int64:
		return strconv.FormatInt(t, 10), true
	case Decimal:
		return string(t), true
	case string:
		s := strings.TrimSpace(t)
		if _, err := value.NumberOf(s); err != nil {
			return "", false
		}
		return s, true
	}
	return "", false
}

// boundArg reads the tolerance of approx or the fraction of rel_approx.
func boundArg(fn, what string, x any) (string, error) {
	lit, ok := numLiteral(x)
	if !ok || number.Compare(lit, "0") < 0 {
		return "", fmt.Errorf("%s: the %s must be a number >= 0, got %s", fn, what, brief(x))
	}
	return lit, nil
}

// windowArg reads the third argument of same_instant_within: a duration,
// or a string time.ParseDuration reads, not negative.
func windowArg(x any) (time.Duration, error) {
	var d time.Duration
	switch t := x.(type) {
	case time.Duration:
		d = t
	case string:
		var err error
		if d, err = time.ParseDuration(t); err != nil {
			return 0, fmt.Errorf("same_instant_within: %s", strings.TrimPrefix(err.Error(), "time: "))
		}
	default:
		return 0, fmt.Errorf("same_instant_within: the duration must be a string such as \"5m\" or a duration(), got %s", brief(x))
	}
	if d < 0 {
		return 0, fmt.Errorf("same_instant_within: the duration must be >= 0, got %s", d)
	}
	return d, nil
}

func decCmp(ok func(int) bool) func(args ...any) (any, error) {
	return func(args ...any) (any, error) {
		return ok(number.Compare(string(args[0].(Decimal)), string(args[1].(Decimal)))), nil
	}
}

// toFloat reads a number, or a string that is a JSON number literal after
// trimming white space.
func toFloat(x any) (float64, bool) {
	switch t := x.(type) {
	case float64:
		return t, true
	case int:
		return float64(t), true
	case int64:
		return float64(t), true
	case float32:
		return float64(t), true
	case Decimal:
		f, err := strconv.ParseFloat(string(t), 64)
		return f, err == nil || f != 0
	case raw:
		if t.v.Kind() == value.String {
			return toFloat(t.v.Str())
		}
		return t.v.Float()
	case string:
		s := strings.TrimSpace(t)
		v, err := value.NumberOf(s)
		if err != nil {
			return 0, false
		}
		return v.Float()
	}
	return 0, false
}

// toDecimal reads an exact decimal: a number's decimal text, a numeric
// string, or a float64 by its shortest spelling.
func toDecimal(x any) (Decimal, error) {
	lit := ""
	switch t := x.(type) {
	case Decimal:
		return t, nil
	case raw:
		switch t.v.Kind() {
		case value.Number:
			lit = t.v.Str()
		case value.String:
			return toDecimal(t.v.Str())
		default:
			return "", fmt.Errorf("decimal: %s is not a number or a numeric string", brief(t))
		}
	case float64:
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return "", fmt.Errorf("decimal: %v is not a finite number", t)
		}
		lit = strconv.FormatFloat(t, 'g', -1, 64)
	case int:
		lit = strconv.Itoa(t)
	case int64:
		lit = strconv.FormatInt(t, 10)
	case string:
		s := strings.TrimSpace(t)
		if _, err := value.NumberOf(s); err != nil {
			return "", fmt.Errorf("decimal: %s is not a numeric string", brief(t))
		}
		lit = s
	default:
		return "", fmt.Errorf("decimal: %s is not a number or a numeric string", brief(x))
	}
	return Decimal(number.Canonical(lit)), nil
}

// normalize is norm(): Unicode case folding, NFC, each run of white space
// one space, no leading or trailing white space.
func normalize(s string) string {
	s = norm.NFC.String(cases.Fold().String(s))
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// stripPunct removes Unicode punctuation (category P), as the strip_punct
// normaliser does.
func stripPunct(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsPunct(r) {
			return -1
		}
		return r
	}, s)
}

func editArgs(name string, args []any, maxLen int) ([]rune, []rune, error) {
	a, aok := args[0].(string)
	b, bok := args[1].(string)
	if !aok || !bok {
		return nil, nil, fmt.Errorf("%s takes two strings, got %s and %s", name, brief(args[0]), brief(args[1]))
	}
	if utf8.RuneCountInString(a) > maxLen || utf8.RuneCountInString(b) > maxLen {
		return nil, nil, fmt.Errorf("%s: a string is longer than %d characters (MaxEditLen)", name, maxLen)
	}
	return []rune(a), []rune(b), nil
}

// levenshtein is the edit distance in runes: insertions, deletions and
// substitutions each cost 1.
func levenshtein(a, b []rune) int {
	if len(a) < len(b) {
		a, b = b, a
	}
	row := make([]int, len(b)+1)
	for j := range row {
		row[j] = j
	}
	for i := 1; i <= len(a); i++ {
		prev := row[0]
		row[0] = i
		for j := 1; j <= len(b); j++ {
			cur := row[j]
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			row[j] = min(row[j]+1, row[j-1]+1, prev+cost)
			prev = cur
		}
	}
	return row[len(b)]
}

// similarity is 1 - levenshtein / the longer length, in [0, 1]; two empty
// strings are 1.
func similarity(a, b []rune) float64 {
	n := max(len(a), len(b))
	if n == 0 {
		return 1
	}
	return 1 - float64(levenshtein(a, b))/float64(n)
}

// setEq is multiset equality of two lists under canonical comparison.
func setEq(a, b any, maxStr int) (bool, error) {
	x, okx, err := canonList(a, maxStr)
	if err != nil {
		return false, fmt.Errorf("set_eq: %w", err)
	}
	y, oky, err := canonList(b, maxStr)
	if err != nil {
		return false, fmt.Errorf("set_eq: %w", err)
	}
	if !okx || !oky || len(x) != len(y) {
		return false, nil
	}
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y), nil
}

// scanFactor times MaxStringLen bounds the bytes contains_all searches in
// one call.
const scanFactor = 64

// containsAll: every element of b has its own equal element in a (a
// multiset inclusion); or, when a is a string and b a string or a list of
// strings, a contains each of them.
func containsAll(a, b any, maxStr int) (bool, error) {
	if s, ok := plainString(a); ok {
		if t, ok := plainString(b); ok {
			return strings.Contains(s, t), nil
		}
		subs, ok, err := canonList(b, maxStr)
		if err != nil || !ok {
			return false, err
		}
		// Each search may read all of s: bound their sum, as building a
		// string is bounded, or a long string and a long list from the
		// model's own arguments keep one line busy for a minute.
		if maxScan := scanFactor * maxStr; len(subs) > 0 && len(s) > maxScan/len(subs) {
			return false, fmt.Errorf("contains_all would search a string of %d bytes for %d substrings; the limit is %d bytes searched (%d × MaxStringLen)",
				len(s), len(subs), maxScan, scanFactor)
		}
		list, _ := toValue(b, maxStr)
		for i := range subs {
			e := list.Elems()[i]
			if e.Kind() != value.String || !strings.Contains(s, e.Str()) {
				return false, nil
			}
		}
		return true, nil
	}
	x, okx, err := canonList(a, maxStr)
	if err != nil {
		return false, fmt.Errorf("contains_all: %w", err)
	}
	y, oky, err := canonList(b, maxStr)
	if err != nil {
		return false, fmt.Errorf("contains_all: %w", err)
	}
	if !okx || !oky {
		return false, nil
	}
	count := make(map[string]int, len(x))
	for _, s := range x {
		count[s]++
	}
	for _, s := range y {
		if count[s] == 0 {
			return false, nil
		}
		count[s]--
	}
	return true, nil
}

func plainString(x any) (string, bool) {
	switch t := x.(type) {
	case string:
		return t, true
	case raw:
		if t.v.Kind() == value.String {
			return t.v.Str(), true
		}
	}
	return "", false
}

// canonList returns the canonical JSON text of each element of a list;
// false when x is not a list.
func canonList(x any, maxStr int) ([]string, bool, error) {
	v, err := toValue(x, maxStr)
	if err != nil {
		return nil, false, err
	}
	if v.Kind() != value.Array {
		return nil, false, nil
	}
	out := make([]string, v.Len())
	for i, e := range v.Elems() {
		out[i] = string(jsonv.AppendCanonical(nil, e))
	}
	return out, true, nil
}

// brief describes a value for an error message.
func brief(x any) string {
	if r, ok := x.(raw); ok {
		x = toAny(r.v)
	}
	switch t := x.(type) {
	case string:
		if len(t) > 40 {
			t = t[:37] + "..."
		}
		return strconv.Quote(t)
	case float64:
		if t == math.Trunc(t) && math.Abs(t) < 1e21 {
			return strconv.FormatFloat(t, 'f', -1, 64)
		}
		return strconv.FormatFloat(t, 'g', -1, 64)
	case int, bool:
		return fmt.Sprint(t)
	}
	return describe(x)
}

// finiteCompare compares a and b with op as expr's VM does, unless one is
// a float that is ±Inf or NaN: then it is an error (finitePatch).
func finiteCompare(op string, a, b any) (bool, error) {
	for _, x := range [2]any{a, b} {
		if f, ok := x.(float64); ok && (math.IsInf(f, 0) || math.IsNaN(f)) {
			return false, fmt.Errorf("a comparison (%s) of %s: the arithmetic before it went beyond float64's range, or divided by zero; compare with decimal() or approx()", op, brief(f))
		}
	}
	switch op {
	case "==":
		return runtime.Equal(a, b), nil
	case "!=":
		return !runtime.Equal(a, b), nil
	case "<":
		return runtime.Less(a, b), nil
	case "<=":
		return runtime.LessOrEqual(a, b), nil
	case ">":
		return runtime.More(a, b), nil
	}
	return runtime.MoreOrEqual(a, b), nil
}

// flattenInto appends the elements of v to *out, lists flattened, as
// expr's flatten does, failing once *out would pass limit elements.
func flattenInto(out *[]any, v reflect.Value, depth, limit int) error {
	if depth > 64 {
		return errors.New("flatten: the list is nested too deep")
	}
	for i := range v.Len() {
		e := v.Index(i)
		for e.Kind() == reflect.Interface || e.Kind() == reflect.Pointer {
			if e.IsNil() {
				break
			}
			e = e.Elem()
		}
		if e.Kind() == reflect.Slice || e.Kind() == reflect.Array {
			if err := flattenInto(out, e, depth+1, limit); err != nil {
				return err
			}
			continue
		}
		if len(*out) >= limit {
			return errors.New("flatten: memory budget exceeded")
		}
		*out = append(*out, v.Index(i).Interface())
	}
	return nil
}

// workOf is the work a helper does on args (workPatch): the product of
// the two lengths for the edit distances and contains_all, the square of
// the list's length for uniq (which compares each element with those it
// kept), else the sum of their lengths, a string's in bytes and a list's
// in elements (its strings' bytes too).
//
// Past limit, the work left in MaxWork, the figure is only known to be
// more than limit: the sizes are counted no further.
func workOf(name string, args []any, limit int) int {
	switch name {
	case "levenshtein", "similarity", "contains_all":
		if len(args) == 2 {
			return (size(args[0], limit) + 1) * (size(args[1], limit) + 1)
		}
	case "uniq":
		if len(args) == 1 {
			n := size(args[0], limit) + 1
			return n * n
		}
	}
	n := 1
	for _, a := range args {
		n += size(a, limit)
	}
	return n
}

// maxDepth is how deep size reads nested lists and maps; a value nested
// deeper counts as past any limit.
const maxDepth = 10_000

// size is a value's size for workOf, counted no further than past limit:
// a string's bytes; a list's or a map's elements, and theirs below them,
// as the whole tree that ==, in, max or median read. A list can hold
// itself twice in each of forty steps (reduce(1..40, [#acc, #acc], [1])):
// its tree has 2^40 values, and a list or map met again is counted from
// what it came to the first time, so that counting such a tree takes as
// many steps as the lists it is made of. The few values most expressions
// compare are counted without that memory.
func size(x any, limit int) int {
	s := sizer{limit: min(limit, 1<<12)}
	if n := s.of(x, 0); n <= s.limit || limit <= s.limit {
		return n
	}
	s = sizer{limit: limit, seen: map[sizeKey]int{}}
	return s.of(x, 0)
}

// sizer counts sizes up to limit+1, each list or map once when it has
// seen.
type sizer struct {
	limit int
	seen  map[sizeKey]int // nil: none kept
}

// sizeKey is a list's or a map's identity: where its elements are, and
// how many of them a list has (two slices of one array differ).
type sizeKey struct {
	p unsafe.Pointer
	n int
}

// add is a + b, or limit+1 past it.
func (s *sizer) add(a, b int) int {
	if a > s.limit-b {
		return s.limit + 1
	}
	return a + b
}

// of returns x's size, or limit+1 past limit.
func (s *sizer) of(x any, depth int) int {
	if depth > maxDepth {
		return s.limit + 1
	}
	switch t := x.(type) {
	case nil, bool, float64, int:
		return 1
	case string:
		return max(len(t), 1)
	case raw:
		return s.of(toAny(t.v), depth)
	case []string:
		n := len(t)
		for _, e := range t {
			if n = s.add(n, len(e)); n > s.limit {
				break
			}
		}
		return n
	case []any:
		return s.container(sizeKey{unsafe.Pointer(unsafe.SliceData(t)), len(t)}, func() int {
			n := len(t)
			for _, e := range t {
				switch e := e.(type) {
				case nil, bool, float64, int:
				case string:
					n = s.add(n, len(e))
				default:
					n = s.add(n, s.of(e, depth+1))
				}
				if n > s.limit {
					break
				}
			}
			return n
		})
	case map[string]any:
		return s.container(sizeKey{reflect.ValueOf(t).UnsafePointer(), -1}, func() int {
			n := len(t)
			for _, e := range t {
				if n = s.add(n, s.of(e, depth+1)); n > s.limit {
					break
				}
			}
			return n
		})
	}
	v := reflect.ValueOf(x)
	switch v.Kind() {
	case reflect.Slice, reflect.Map:
		k := v.Type().Elem().Kind()
		if k != reflect.Interface && k != reflect.Slice && k != reflect.Map && k != reflect.Array {
			return max(v.Len(), 1) // scalars: a list of numbers, say
		}
		key := sizeKey{v.UnsafePointer(), v.Len()}
		if v.Kind() == reflect.Map {
			key.n = -1
		}
		return s.container(key, func() int {
			n := v.Len()
			if v.Kind() == reflect.Slice {
				for i := 0; i < v.Len() && n <= s.limit; i++ {
					n = s.add(n, s.of(v.Index(i).Interface(), depth+1))
				}
				return n
			}
			for it := v.MapRange(); it.Next() && n <= s.limit; {
				n = s.add(n, s.of(it.Value().Interface(), depth+1))
			}
			return n
		})
	}
	return 1
}

// container returns the size count gives for the list or map key, from
// what it gave before when the sizer keeps what it has seen.
func (s *sizer) container(key sizeKey, count func() int) int {
	if s.seen == nil || key.p == nil {
		return count()
	}
	if n, ok := s.seen[key]; ok {
		return n
	}
	n := count()
	s.seen[key] = n
	return n
}

// builds returns how many elements the helper name is to build from
// args that expr's VM does not count against MemoryBudget itself: the
// strings of split and splitAfter, the entries of keys, values, toPairs
// and fromPairs, at most the values of fromJSON. It is called before the
// helper runs, so that a list too large is never built.
//
// median gathers every number of its list, nested ones too, into a list
// of its own: as many as the list's tree has, counted no further than
// past limit, the budget left (see size).
func builds(name string, args []any, limit int) int {
	switch name {
	case "median":
		if len(args) == 1 {
			return size(args[0], limit)
		}
	case "split", "splitAfter":
		s, ok1 := args[0].(string)
		sep, ok2 := args[1].(string)
		if !ok1 || !ok2 {
			return 0
		}
		n := strings.Count(s, sep) + 1
		if sep == "" {
			n = utf8.RuneCountInString(s) // one string a character
		}
		if len(args) == 3 {
			if limit, ok := args[2].(int); ok && limit >= 0 {
				n = min(n, limit)
			}
		}
		return n
	case "keys", "values", "fromPairs":
		return reflectLen(args[0])
	case "toPairs":
		return 3 * reflectLen(args[0]) // a pair of two for each entry
	case "fromJSON":
		if s, ok := args[0].(string); ok {
			return jsonValues(s)
		}
	}
	return 0
}

// reflectLen is the length of a list or a map, 1 for another value: the
// entries keys, values, toPairs and fromPairs build.
func reflectLen(x any) int {
	if v := reflect.ValueOf(x); v.Kind() == reflect.Slice || v.Kind() == reflect.Map {
		return v.Len()
	}
	return 1
}

// jsonValues bounds the values and keys a JSON text holds from above,
// without parsing it: one for each comma, colon and opening bracket
// outside strings, and one more.
func jsonValues(s string) int {
	n, in := 1, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case in && c == '\\':
			i++
		case c == '"':
			in = !in
		case !in && (c == ',' || c == ':' || c == '[' || c == '{'):
			n++
		}
	}
	return n
}
