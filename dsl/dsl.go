package dsl

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/vm"

	"github.com/callgrade/callgrade/internal/errcode"
	"github.com/callgrade/callgrade/internal/rulecore"
	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/value"
)

// Options bound what one expression may cost. The zero value of a field
// means its default, which the field's doc gives.
type Options struct {
	// MaxLength is the longest expression text accepted, in bytes.
	// Default 4096.
	MaxLength int
	// MaxNodes is the largest syntax tree accepted, in nodes
	// (expr.MaxNodes). Default 1000.
	MaxNodes uint
	// MemoryBudget bounds what one evaluation may allocate in expr's own
	// units: one per element of every array, map and range it builds
	// (vm.VM.MemoryBudget). Default 1,000,000.
	MemoryBudget uint
	// MaxSteps bounds the iterations of all the closures of one evaluation
	// together (the bodies of all, any, filter, map, reduce, sortBy, ...).
	// Default 1,000,000.
	MaxSteps int
	// MaxStringLen is the longest string an operation inside an expression
	// may build: `+`, join, replace, toJSON, string, canon. Default 1 MiB.
	MaxStringLen int
	// MaxEditLen is the longest string, in runes, that levenshtein and
	// similarity accept. Default 4096.
	MaxEditLen int
	// MaxWork bounds the work of the string and list helpers of one
	// evaluation together, in bytes and elements read (levenshtein and
	// similarity: the product of their lengths), which MaxSteps alone
	// does not: a thousand steps of levenshtein on long strings run for
	// minutes. It counts the bytes each `+` in a closure body builds too,
	// so that a string grown a byte a step (reduce(..., #acc + "x", "")),
	// each step copying what came before, ends. Default 200,000,000.
	MaxWork int
	// Timeout bounds one evaluation's time, measured from its 64th
	// closure step or helper call, or from a helper's work of 64 KiB or
	// more, whichever comes first: a backstop for what the budgets above
	// do not count (`in` or `==` over a long list, in a loop), which
	// ends there rather than after minutes. The budgets give the same
	// verdict on every machine; the timeout does not, and so is set
	// above what they allow (the slowest, norm up to MaxWork, takes ~7 s
	// on a 2-core machine), to stop only an expression that nothing
	// else bounds. Default 10s.
	Timeout time.Duration
}

// defaultOptions returns the default limits, as the field docs give them.
func defaultOptions() Options {
	return Options{
		MaxLength:    4096,
		MaxNodes:     1000,
		MemoryBudget: 1_000_000,
		MaxSteps:     1_000_000,
		MaxStringLen: 1 << 20,
		MaxEditLen:   4096,
		MaxWork:      200_000_000,
		Timeout:      10 * time.Second,
	}
}

func (o Options) withDefaults() Options {
	d := defaultOptions()
	if o.MaxLength <= 0 {
		o.MaxLength = d.MaxLength
	}
	if o.MaxNodes == 0 {
		o.MaxNodes = d.MaxNodes
	}
	if o.MemoryBudget == 0 {
		o.MemoryBudget = d.MemoryBudget
	}
	if o.MaxSteps <= 0 {
		o.MaxSteps = d.MaxSteps
	}
	if o.MaxStringLen <= 0 {
		o.MaxStringLen = d.MaxStringLen
	}
	if o.MaxWork <= 0 {
		o.MaxWork = d.MaxWork
	}
	if o.MaxEditLen <= 0 {
		o.MaxEditLen = d.MaxEditLen
	}
	if o.Timeout <= 0 {
		o.Timeout = d.Timeout
	}
	return o
}

// env is the environment every expression is type-checked against and run
// in. Expressions are compiled against the struct type (expr.Env(env{})),
// so that the compiler reads fields by index; each worker owns one env and
// runs the VM on a pointer to it, whose fields the VM reads through it, as
// expr's own benchmarks of large environments do. A pointer goes into the
// VM's `any` argument as it is; the struct would be copied to the heap on
// every evaluation.
type env struct {
	Actual       any            `expr:"actual"`
	Expected     any            `expr:"expected"`
	Path         string         `expr:"path"`
	Params       any            `expr:"params"`
	Args         map[string]any `expr:"args"`
	ExpectedArgs map[string]any `expr:"expected_args"`
	Tool         string         `expr:"tool"`
	// Steps are the run's actual steps before the call's, each
	// {name, arguments, result, error, id, turn}; empty outside a run.
	Steps []any `expr:"steps"`

	// Hidden from expressions (names starting with "__" are rejected in
	// the source); used by the code the compiler inserts.
	Budget *worker      `expr:"__budget"`
	In     *rules.Input `expr:"__in"`
}

// uses says which parts of the environment an expression reads, so that
// an evaluation converts only those.
type uses struct {
	actual, expected, params, args, expectedArgs, steps bool
}

// Compiler compiles expressions under one set of Options, once per distinct
// text: every rule of a suite that has the same expression shares one
// compiled program. A Compiler is safe for concurrent use.
type Compiler struct {
	opts  Options
	mu    sync.Mutex
	cache map[string]*cached
	pool  sync.Pool // *worker
	conf  []expr.Option
}

type cached struct {
	expr *Expr
	err  error
}

// worker is what one goroutine needs to evaluate: a VM, the environment
// and the step counter of the evaluation under way. Workers are pooled, so
// that the compiled programs are shared and each goroutine runs its own VM.
type worker struct {
	vm    vm.VM
	env   env
	steps int
	max   int
	work  int // the helpers' work so far (see workPatch)
	maxW  int
	// mem counts the elements of the lists and maps that helpers build
	// outside the VM's count (split, keys, fromJSON, ...), against
	// MemoryBudget, as the VM counts its own.
	mem    int
	maxMem int
	// events counts the closure steps and helper calls, every few of
	// which the clock is read; start is its first reading, zero until
	// then.
	events  int
	start   time.Time
	timeout time.Duration
}

func (c *Compiler) newWorker() *worker {
	return &worker{vm: vm.VM{MemoryBudget: c.opts.MemoryBudget}, max: c.opts.MaxSteps, maxW: c.opts.MaxWork,
		maxMem: int(min(c.opts.MemoryBudget, uint(math.MaxInt32))), timeout: c.opts.Timeout}
}

// limitError is an evaluation stopped by one of the limits of Options: a
// RuntimeError wraps it, and it becomes a rule_error diff. Its code is
// limit_exceeded (callgrade.Code), which callers test with errors.Is.
type limitError struct {
	limit string // the field of Options: "MaxWork", "MemoryBudget", "MaxSteps", "Timeout", "MaxStringLen"
	msg   string
}

// Error says what the expression would have done past which limit.
func (e *limitError) Error() string { return e.msg }

// Is reports whether target is limit_exceeded, for errors.Is.
func (e *limitError) Is(target error) bool { return target == errcode.LimitExceeded }

// clockEvery is how many closure steps and helper calls pass between two
// readings of the clock: a reading costs as much as a few steps.
const clockEvery = 64

// tick counts one closure step or helper call, and fails once the
// evaluation has run past its Timeout. The clock is read every
// clockEvery of them, and at once for a heavy one (a helper that is to do
// much work); the time is measured from the first reading, so that an
// evaluation that does little never reads it.
func (w *worker) tick(heavy bool) error {
	w.events++
	if !heavy && w.events%clockEvery != 0 {
		return nil
	}
	now := time.Now()
	if w.start.IsZero() {
		w.start = now
		return nil
	}
	if now.Sub(w.start) > w.timeout {
		return &limitError{limit: "Timeout", msg: fmt.Sprintf("the expression ran for more than %v; the limit is Timeout", w.timeout)}
	}
	return nil
}

// charge adds n to the evaluation's work, failing past MaxWork.
func (w *worker) charge(n int) error {
	w.work += n
	if w.work > w.maxW || w.work < 0 {
		return &limitError{limit: "MaxWork", msg: fmt.Sprintf("the expression's string and list helpers would read or build more than %d bytes and elements; the limit is MaxWork", w.maxW)}
	}
	return w.tick(n >= 1<<16)
}

// alloc counts n elements a helper is to build, failing past
// MemoryBudget.
func (w *worker) alloc(what string, n int) error {
	w.mem += n
	if w.mem > w.maxMem || w.mem < 0 {
		return &limitError{limit: "MemoryBudget", msg: fmt.Sprintf("memory budget exceeded: %s would build %d elements, past MemoryBudget's %d with what the expression built before", what, n, w.maxMem)}
	}
	return nil
}

// NewCompiler returns a Compiler with the given limits (zero fields take
// their defaults).
func NewCompiler(opts Options) *Compiler {
	c := &Compiler{opts: opts.withDefaults(), cache: make(map[string]*cached)}
	c.pool.New = func() any { return c.newWorker() }
	c.conf = c.exprOptions()
	return c
}

// Expr is a compiled expression. It is a rules.Comparator, safe for
// concurrent use.
type Expr struct {
	src   string
	prog  *vm.Program
	uses  uses
	c     *Compiler
	isAll bool // reads $env: convert everything
	// native evaluates expressions of the numeric subset without the VM
	// (native.go); nil for others.
	native *native
}

// Error is an expression that does not compile: too long, too large, a
// syntax error, an unknown name, or a result that is not a bool. Its code
// is expression_compile_error (callgrade.Code), and limit_exceeded too for
// an expression longer than MaxLength.
type Error struct {
	Src    string
	Line   int    // 1-based; 0 when the error is about the whole text
	Column int    // 1-based, in runes
	Msg    string // what is wrong

	snippet string // the line with a caret under the column, each line prefixed "\n | "
	tooLong bool   // longer than MaxLength
}

// Is reports whether target is expression_compile_error, or
// limit_exceeded for an expression that is too long, for errors.Is.
func (e *Error) Is(target error) bool {
	return target == errcode.ExpressionCompileError || (e.tooLong && target == errcode.LimitExceeded)
}

// Error returns "line L, column C: message" and the caret snippet.
func (e *Error) Error() string {
	var b strings.Builder
	if e.Line > 0 {
		b.WriteString("line ")
		b.WriteString(strconv.Itoa(e.Line))
		b.WriteString(", column ")
		b.WriteString(strconv.Itoa(e.Column))
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	b.WriteString(e.snippet)
	return b.String()
}

// Compile compiles src, or returns the program compiled before for the
// same text. A bad expression is an *Error.
func (c *Compiler) Compile(src string) (*Expr, error) {
	c.mu.Lock()
	if ce, ok := c.cache[src]; ok {
		c.mu.Unlock()
		return ce.expr, ce.err
	}
	c.mu.Unlock()
	e, err := c.compile(src)
	c.mu.Lock()
	if ce, ok := c.cache[src]; ok { // another goroutine got there first
		e, err = ce.expr, ce.err
	} else {
		c.cache[src] = &cached{e, err}
	}
	c.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return e, nil
}

// comparator compiles an `expr` rule property: rules.Extensions.Expr
// (see Extensions). Errors are *rules.CompileError wrapping an *Error, so
// that a suite error reads "expr: line 1, column 5: ...".
func (c *Compiler) comparator(src string) (rules.Comparator, error) {
	e, err := c.Compile(src)
	if err != nil {
		return nil, &rules.CompileError{Property: "expr", Offset: -1, Err: err}
	}
	return e, nil
}

// assert compiles a call-level `assert` expression:
// rules.Extensions.Assert (see Extensions). The comparator it returns is
// run with actual and expected set to the two calls' whole arguments.
func (c *Compiler) assert(src string) (rules.Comparator, error) {
	e, err := c.Compile(src)
	if err != nil {
		return nil, &rules.CompileError{Property: "assert", Offset: -1, Err: err}
	}
	return e, nil
}

func (c *Compiler) compile(src string) (*Expr, error) {
	if len(src) > c.opts.MaxLength {
		return nil, &Error{Src: src, Msg: fmt.Sprintf("expression is %d bytes long; the limit is %d", len(src), c.opts.MaxLength), tooLong: true}
	}
	if !utf8.ValidString(src) {
		return nil, &Error{Src: src, Msg: "expression is not valid UTF-8"}
	}
	if strings.TrimSpace(src) == "" {
		return nil, &Error{Src: src, Msg: "empty expression"}
	}
	g := &guard{}
	u := &usage{}
	r := &resultCheck{}
	opts := make([]expr.Option, 0, len(c.conf)+6)
	opts = append(opts, expr.Patch(g), expr.Patch(r))
	opts = append(opts, c.conf...)
	base := len(opts)
	loops := func() (ast.Visitor, ast.Visitor) {
		l := &loopPatch{in: map[*ast.BinaryNode]bool{}}
		return l, &concatPatch{loops: l}
	}
	l, cat := loops()
	opts = append(opts, expr.Patch(&stepPatch{}), expr.Patch(l), expr.Patch(cat), expr.Patch(absPatch{}), expr.Patch(seqPatch{}), expr.Patch(&rawPatch{g: g}), expr.Patch(indexPatch{}), expr.Patch(u))
	prog, err := compileSafely(src, opts)
	if err == nil && g.err == nil {
		// Again with the comparisons that refuse ±Inf and NaN: only on a
		// tree that checks, since the checker does not report an
		// unknown name below the calls finitePatch makes.
		l, cat := loops()
		opts = append(opts[:base:base], expr.Patch(&stepPatch{}), expr.Patch(l), expr.Patch(cat), expr.Patch(absPatch{}), expr.Patch(seqPatch{}), expr.Patch(&rawPatch{g: g}), expr.Patch(indexPatch{}), expr.Patch(finitePatch{}), expr.Patch(&workPatch{}), expr.Patch(u))
		prog, err = compileSafely(src, opts)
	}
	if g.err != nil {
		return nil, g.err.bind(src)
	}
	if err == nil || strings.HasPrefix(err.Error(), "expected bool") {
		// The tree checks, but its result may yield no bool: say where,
		// which expr does not. (expr's errors have no code, so its
		// message is what tells this one.)
		if re := r.err(); re != nil {
			return nil, re.bind(src)
		}
	}
	if err != nil {
		return nil, convertError(src, err)
	}
	return &Expr{src: src, prog: prog, uses: u.uses, isAll: u.all, c: c, native: compileNative(src)}, nil
}

// compileSafely runs expr.Compile, turning a panic inside expr into an
// error: no text should crash the load.
func compileSafely(src string, opts []expr.Option) (p *vm.Program, err error) {
	defer func() {
		if x := recover(); x != nil {
			p, err = nil, fmt.Errorf("cannot compile expression: %v", x)
		}
	}()
	return expr.Compile(src, opts...)
}

func convertError(src string, err error) *Error {
	var fe *file.Error
	if errors.As(err, &fe) {
		out := &Error{Src: src, Msg: fe.Message, snippet: fe.Snippet}
		if fe.Snippet != "" || fe.Line > 0 {
			out.Line, out.Column = fe.Line, fe.Column+1
		}
		out.Msg = explain(out.Msg)
		return out
	}
	return &Error{Src: src, Msg: explain(err.Error())}
}

func explain(msg string) string {
	if strings.HasPrefix(msg, "expected bool") {
		return msg + " (an expression must yield true or false)"
	}
	// contains(a, b) reads as a function call to anyone who knows other
	// languages; in expr these are operators.
	if op, ok := strings.CutPrefix(msg, `unexpected token Operator("`); ok {
		op, _, _ = strings.Cut(op, `"`)
		example := map[string]string{"contains": `"x"`, "startsWith": `"x"`, "endsWith": `"x"`, "matches": `"^x"`, "in": `["x", "y"]`}[op]
		if example != "" {
			return msg + " (" + op + " is an operator, written between its operands: actual " + op + " " + example + ")"
		}
	}
	return msg
}

// Compare evaluates the expression for one field (or, as an assert, one
// call). A false result is Equal false with a message; a run-time error is
// Err, which becomes a rule_error diff. It never panics.
func (e *Expr) Compare(in *rules.Input) rules.Outcome {
	ok, err := e.eval(in)
	if err != nil {
		if e.uses.steps && isStepRange(err) {
			// A step that did not happen is the agent's failure, not the
			// rule's: a mismatch.
			return rules.Outcome{Err: err, ErrKind: results.Mismatch}
		}
		return rules.Outcome{Err: err}
	}
	if !ok {
		return rules.Outcome{Message: e.falseMessage(in)}
	}
	return rules.Outcome{Equal: true}
}

func (e *Expr) falseMessage(in *rules.Input) string {
	if in.Path == "" { // an assert: the engine names the expression
		return ""
	}
	return "expected " + show(in.Expected) + ", got " + show(in.Actual) + ": " + strconv.Quote(e.src) + " is false"
}

func show(v value.Value) string {
	s := v.String()
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}

// RuntimeError is an evaluation that failed: a value of a type the
// expression cannot use, a helper refusing its argument, a limit exceeded.
// Its code is expression_runtime_error (callgrade.Code); a limit's
// limit_exceeded is found through Unwrap.
type RuntimeError struct {
	Src    string
	Line   int // 1-based, 0 when unknown
	Column int // 1-based
	Msg    string
	// Err is the cause when it is one a caller may branch on: a limit
	// exceeded, whose code limit_exceeded errors.Is finds. Nil otherwise.
	Err error
}

// Unwrap returns Err.
func (e *RuntimeError) Unwrap() error { return e.Err }

// Is reports whether target is expression_runtime_error, for errors.Is.
func (e *RuntimeError) Is(target error) bool { return target == errcode.ExpressionRuntimeError }

// Error returns `expr "SRC" at L:C: message`.
func (e *RuntimeError) Error() string {
	pos := ""
	if e.Line > 0 {
		pos = " at " + strconv.Itoa(e.Line) + ":" + strconv.Itoa(e.Column)
	}
	return "expression " + strconv.Quote(e.Src) + pos + ": " + e.Msg
}

// eval evaluates the expression against one input: Compare without the
// outcome around the result.
func (e *Expr) eval(in *rules.Input) (result bool, err error) {
	if e.native != nil {
		if res, ok := e.native.eval(in.Actual, in.Expected); ok {
			return res, nil
		}
	}
	return e.evalVM(in)
}

// evalVM evaluates the expression on expr's VM.
func (e *Expr) evalVM(in *rules.Input) (result bool, err error) {
	w := e.c.pool.Get().(*worker)
	defer func() {
		if x := recover(); x != nil {
			result, err = false, &RuntimeError{Src: e.src, Msg: fmt.Sprint(x)}
			w = e.c.newWorker() // the old VM may be in any state
		}
		e.c.pool.Put(w)
	}()
	w.steps, w.work, w.mem, w.events, w.start = 0, 0, 0, 0, time.Time{}
	u := e.uses
	if e.isAll {
		u = uses{true, true, true, true, true, true}
	}
	w.env = env{Path: in.Path, Tool: in.Tool, Budget: w, In: in}
	// A number beyond float64 would be ±Inf, equal to any other as far:
	// where the expression reads it as a float64, it is an error, and
	// decimal() reads it exactly.
	var far string
	read := func(use bool, name string, v value.Value) any {
		if !use || err != nil {
			return nil
		}
		x := toAnyFar(v, &far)
		if far != "" {
			err = &RuntimeError{Src: e.src, Msg: name + " holds the number " + far + ", beyond float64's range; read it with decimal()"}
		}
		return x
	}
	w.env.Actual = read(u.actual, "actual", in.Actual)
	w.env.Expected = read(u.expected, "expected", in.Expected)
	w.env.Params = read(u.params, "params", in.Params)
	w.env.Args, _ = read(u.args, "args", in.Args).(map[string]any)
	w.env.ExpectedArgs, _ = read(u.expectedArgs, "expected_args", in.ExpectedArgs).(map[string]any)
	if u.steps && err == nil {
		w.env.Steps = make([]any, in.Steps.Len())
		for i := range w.env.Steps {
			w.env.Steps[i] = read(true, "steps["+strconv.Itoa(i)+"]", in.Steps.Value(i))
		}
	}
	if err != nil {
		w.env = env{}
		return false, err
	}
	out, rerr := w.vm.Run(e.prog, &w.env)
	w.env = env{} // drop references to this input
	if rerr != nil {
		return false, e.runtimeError(rerr)
	}
	res, ok := out.(bool)
	if !ok {
		// AsBool allows an `any` result (a field of actual); it must still be a bool.
		return false, &RuntimeError{Src: e.src, Msg: fmt.Sprintf("the expression yields %s, not true or false", describe(out))}
	}
	return res, nil
}

func (e *Expr) runtimeError(err error) error {
	var le *limitError
	var fe *file.Error
	isFile := errors.As(err, &fe)
	if !errors.As(err, &le) && isFile && (fe.Message == "memory budget exceeded" || fe.Message == "flatten: memory budget exceeded") {
		// The VM's own count, which it reports as a string, and flatten's.
		le = &limitError{limit: "MemoryBudget", msg: fe.Message}
	}
	var cause error
	if le != nil {
		cause = le
	}
	if isFile {
		re := &RuntimeError{Src: e.src, Msg: fe.Message, Err: cause}
		if fe.Snippet != "" {
			re.Line, re.Column = fe.Line, fe.Column+1
		}
		return re
	}
	return &RuntimeError{Src: e.src, Msg: err.Error(), Err: cause}
}

// describe names the type of a value as the expression sees it.
func describe(x any) string {
	switch t := x.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case float64, int:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	case Decimal:
		return "a decimal"
	default:
		return reflect.TypeOf(t).String()
	}
}

// Names of the environment and of the inserted helpers, for the patchers.
const (
	hiddenPrefix = "__"
)

// guard rejects, before any patch runs, names the compiler reserves for
// itself (before it inserts them), builtins that are disabled, and constant
// durations that cannot work: those would fail every case when they run.
type guard struct {
	err  *posError
	lets map[string]bool // names declared with let
}

type posError struct {
	loc file.Location
	msg string
}

func (p *posError) bind(src string) *Error {
	fe := &file.Error{Location: p.loc, Message: p.msg}
	fe = fe.Bind(file.NewSource(src))
	return &Error{Src: src, Line: fe.Line, Column: fe.Column + 1, Msg: p.msg, snippet: fe.Snippet}
}

// constWindow checks the duration of same_instant_within when it is a
// constant: "5m" or duration("5m").
func (g *guard) constWindow(arg ast.Node) {
	if b, ok := arg.(*ast.BuiltinNode); ok && b.Name == "duration" && len(b.Arguments) == 1 {
		s, ok := b.Arguments[0].(*ast.StringNode)
		if !ok {
			return
		}
		d, err := time.ParseDuration(s.Value)
		if err != nil {
			return // the duration builtin's own check says why
		}
		if _, err := windowArg(d); err != nil {
			g.err = &posError{loc: arg.Location(), msg: err.Error()}
		}
		return
	}
	if s, ok := arg.(*ast.StringNode); ok {
		if _, err := windowArg(s.Value); err != nil {
			g.err = &posError{loc: arg.Location(), msg: err.Error()}
		}
	}
}

func (g *guard) Visit(node *ast.Node) {
	if g.err != nil {
		return
	}
	var name string
	switch n := (*node).(type) {
	case *ast.CallNode:
		if m, ok := n.Callee.(*ast.MemberNode); ok {
			// A time's Local method reads the machine's time zone, which
			// would make a verdict depend on TZ, as timezone() would.
			if p, ok := m.Property.(*ast.StringNode); ok && p.Value == "Local" {
				g.err = &posError{loc: m.Property.Location(), msg: "Local() is not available in callgrade expressions: " + disabledWhy["timezone"]}
				return
			}
		}
		id, ok := n.Callee.(*ast.IdentifierNode)
		if !ok {
			break
		}
		for _, b := range disabledBuiltins {
			if id.Value == b {
				g.err = &posError{loc: n.Location(), msg: b + "() is not available in callgrade expressions: " + disabledWhy[b]}
				return
			}
		}
		if id.Value == "same_instant_within" && len(n.Arguments) == 3 {
			g.constWindow(n.Arguments[2])
		}
		if (id.Value == "get" || id.Value == "has") && len(n.Arguments) == 2 {
			// A constant path that does not parse would fail every
			// evaluation: say so when the suite loads.
			if s, ok := n.Arguments[1].(*ast.StringNode); ok {
				if _, err := rulecore.ParsePath(s.Value); err != nil {
					g.err = &posError{loc: s.Location(), msg: id.Value + ": " + err.Error()}
					return
				}
			}
		}
	case *ast.BuiltinNode:
		if n.Name == "duration" && len(n.Arguments) == 1 {
			if s, ok := n.Arguments[0].(*ast.StringNode); ok {
				if _, err := time.ParseDuration(s.Value); err != nil {
					g.err = &posError{loc: s.Location(), msg: "duration: " + strings.TrimPrefix(err.Error(), "time: ")}
				}
			}
		}
	case *ast.IdentifierNode:
		name = n.Value
	case *ast.VariableDeclaratorNode:
		name = n.Name
		if g.lets == nil {
			g.lets = map[string]bool{}
		}
		g.lets[name] = true
	case *ast.MemberNode:
		if s, ok := n.Property.(*ast.StringNode); ok {
			if id, ok := n.Node.(*ast.IdentifierNode); ok && id.Value == "$env" {
				name = s.Value
			}
		}
	}
	if strings.HasPrefix(name, hiddenPrefix) {
		g.err = &posError{loc: (*node).Location(), msg: "unknown name " + name + " (names starting with __ are reserved)"}
	}
}
