package dsl

import (
	"math"
	"strconv"
	"strings"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/parser"

	"github.com/callgrade/callgrade/internal/number"
	"github.com/callgrade/callgrade/value"
)

// The numeric subset: expressions over `actual` and `expected` as numbers
// and number literals, with unary - and +, + - * / ** ^, abs, min and max
// of two, comparisons, !, not, && / and, || / or, and parentheses; and
// expressions that are a single approx or rel_approx of actual, expected
// or number literals with a literal bound. This is what most field rules
// are ("abs(actual - expected) <= 0.5", "approx(actual, expected, 0.5)",
// "actual >= expected * 0.9 && actual <= expected * 1.1"). Such an
// expression is also compiled to Go closures, which evaluate it without
// expr's VM, its env struct reflection and its boxing: when both values it
// reads are JSON numbers, the closures decide; otherwise the VM runs as for
// any expression, so that errors and results stay exactly expr's. A test
// compares the two on generated expressions and values.

type numFn func(a, e float64) float64

// boolFn is a boolean of the subset: yes, no, or undecided when a
// comparison met ±Inf or NaN, which the VM reports as an error (see
// finitePatch) and the closures leave to it.
type boolFn func(a, e float64) tri

type tri int8

const (
	no tri = iota
	yes
	undecided
)

func triOf(b bool) tri {
	if b {
		return yes
	}
	return no
}

// finite reports whether neither x nor y is ±Inf or NaN.
func finite(x, y float64) bool {
	return !math.IsInf(x, 0) && !math.IsNaN(x) && !math.IsInf(y, 0) && !math.IsNaN(y)
}

// native is an expression of the numeric subset compiled to closures.
type native struct {
	fn               boolFn
	actual, expected bool // which of the two it reads

	// within is set when the whole expression is approx or rel_approx of
	// actual, expected or number literals, with a literal bound: it
	// decides on the JSON literals, as the helper does (number.WithinAbs,
	// number.WithinRel), without the VM's calls and boxes.
	within func(a, b, bound string) bool
	args   [2]operand
	bound  string
}

// operand is an argument of approx or rel_approx.
type operand struct {
	name string // "actual", "expected", or "" for the literal lit
	lit  string
}

// compileNative returns the closures for src, or nil when src is outside
// the numeric subset.
func compileNative(src string) *native {
	tree, err := parser.Parse(src)
	if err != nil {
		return nil
	}
	n := &native{}
	if call, ok := tree.Node.(*ast.CallNode); ok {
		if n.withinCall(call) {
			return n
		}
		return nil
	}
	fn, ok := n.boolNode(tree.Node)
	if !ok {
		return nil
	}
	n.fn = fn
	return n
}

// withinCall reads `approx(X, Y, B)` or `rel_approx(X, Y, B)` where X and Y
// are actual, expected or number literals and B a number literal >= 0.
// A literal is spelt as the VM spells it for the helper: an int by its
// digits, a float64 by its shortest form.
func (n *native) withinCall(call *ast.CallNode) bool {
	id, ok := call.Callee.(*ast.IdentifierNode)
	if !ok || len(call.Arguments) != 3 {
		return false
	}
	switch id.Value {
	case "approx":
		n.within = number.WithinAbs
	case "rel_approx":
		n.within = number.WithinRel
	default:
		return false
	}
	for i := range n.args {
		switch t := call.Arguments[i].(type) {
		case *ast.IdentifierNode:
			switch t.Value {
			case "actual":
				n.actual = true
			case "expected":
				n.expected = true
			default:
				return false
			}
			n.args[i].name = t.Value
		default:
			lit, ok := numLit(t)
			if !ok {
				return false
			}
			n.args[i].lit = lit
		}
	}
	bound, ok := numLit(call.Arguments[2])
	if !ok || strings.HasPrefix(bound, "-") {
		return false // the VM's error
	}
	n.bound = bound
	return true
}

// numLit spells a number literal of the source as numLiteral spells the
// value the VM computes for it.
func numLit(node ast.Node) (string, bool) {
	switch t := node.(type) {
	case *ast.IntegerNode:
		return strconv.Itoa(t.Value), true
	case *ast.FloatNode:
		if math.IsInf(t.Value, 0) || math.IsNaN(t.Value) {
			return "", false
		}
		return strconv.FormatFloat(t.Value, 'g', -1, 64), true
	}
	return "", false
}

// evalWithin decides approx or rel_approx when the values it reads are
// JSON numbers.
func (n *native) evalWithin(actual, expected value.Value) (result, ok bool) {
	var lits [2]string
	for i, o := range n.args {
		switch o.name {
		case "actual":
			if actual.Kind() != value.Number {
				return false, false
			}
			lits[i] = actual.Str()
		case "expected":
			if expected.Kind() != value.Number {
				return false, false
			}
			lits[i] = expected.Str()
		default:
			lits[i] = o.lit
		}
	}
	return n.within(lits[0], lits[1], n.bound), true
}

// eval runs the closures when the values they read are numbers.
func (n *native) eval(actual, expected value.Value) (result, ok bool) {
	if n.within != nil {
		return n.evalWithin(actual, expected)
	}
	var a, e float64
	if n.actual {
		if a, ok = actual.Float(); !ok || math.IsInf(a, 0) {
			return false, false // the VM says why (evalVM)
		}
	}
	if n.expected {
		if e, ok = expected.Float(); !ok || math.IsInf(e, 0) {
			return false, false
		}
	}
	switch n.fn(a, e) {
	case yes:
		return true, true
	case no:
		return false, true
	}
	return false, false // the VM says why (evalVM)
}

// numNode compiles a number of the subset: actual, expected, a literal,
// unary - or +, arithmetic, abs, min or max; false outside it.
func (n *native) numNode(node ast.Node) (numFn, bool) {
	switch t := node.(type) {
	case *ast.IdentifierNode:
		return n.numIdent(t)
	case *ast.IntegerNode:
		if t.Value > 1<<53 || t.Value < -1<<53 {
			return nil, false // not exact as a float64
		}
		c := float64(t.Value)
		return func(_, _ float64) float64 { return c }, true
	case *ast.FloatNode:
		c := t.Value
		return func(_, _ float64) float64 { return c }, true
	case *ast.UnaryNode:
		return n.numUnary(t)
	case *ast.BinaryNode:
		return n.numBinary(t)
	case *ast.BuiltinNode:
		switch {
		case t.Name == "abs" && len(t.Arguments) == 1:
			return n.numAbs(t.Arguments[0])
		case (t.Name == "min" || t.Name == "max") && len(t.Arguments) == 2:
			return n.numMinMax(t)
		}
	}
	return nil, false
}

// numIdent reads actual or expected, and records that the expression
// reads it.
func (n *native) numIdent(t *ast.IdentifierNode) (numFn, bool) {
	switch t.Value {
	case "actual":
		n.actual = true
		return func(a, _ float64) float64 { return a }, true
	case "expected":
		n.expected = true
		return func(_, e float64) float64 { return e }, true
	}
	return nil, false
}

func (n *native) numUnary(t *ast.UnaryNode) (numFn, bool) {
	x, ok := n.numNode(t.Node)
	if !ok {
		return nil, false
	}
	switch t.Operator {
	case "-":
		return func(a, e float64) float64 { return -x(a, e) }, true
	case "+":
		return x, true
	}
	return nil, false
}

// numBinary compiles + - * / ** and ^ where a side reads a value.
func (n *native) numBinary(t *ast.BinaryNode) (numFn, bool) {
	if !readsValue(t.Left) && !readsValue(t.Right) {
		// Arithmetic on literals alone is integer arithmetic in expr,
		// which wraps around where float64 would not.
		return nil, false
	}
	x, okx := n.numNode(t.Left)
	y, oky := n.numNode(t.Right)
	if !okx || !oky {
		return nil, false
	}
	switch t.Operator {
	case "+":
		return func(a, e float64) float64 { return x(a, e) + y(a, e) }, true
	case "-":
		return func(a, e float64) float64 { return x(a, e) - y(a, e) }, true
	case "*":
		return func(a, e float64) float64 { return x(a, e) * y(a, e) }, true
	case "/":
		return func(a, e float64) float64 { return x(a, e) / y(a, e) }, true
	case "**", "^":
		return func(a, e float64) float64 { return math.Pow(x(a, e), y(a, e)) }, true
	}
	return nil, false
}

func (n *native) numAbs(arg ast.Node) (numFn, bool) {
	x, ok := n.numNode(arg)
	if !ok {
		return nil, false
	}
	return func(a, e float64) float64 {
		if v := x(a, e); v < 0 {
			return -v
		} else {
			return v
		}
	}, true
}

// numMinMax compiles min or max of two arguments that both read a value.
func (n *native) numMinMax(t *ast.BuiltinNode) (numFn, bool) {
	if !readsValue(t.Arguments[0]) || !readsValue(t.Arguments[1]) {
		// expr types max(1, actual) as an int and then fails
		// when the float wins: leave that to the VM, error and all.
		return nil, false
	}
	x, okx := n.numNode(t.Arguments[0])
	y, oky := n.numNode(t.Arguments[1])
	if !okx || !oky {
		return nil, false
	}
	// As expr's builtins: the first argument unless the second is
	// strictly greater (max) or smaller (min).
	if t.Name == "max" {
		return func(a, e float64) float64 {
			if u, v := x(a, e), y(a, e); u < v {
				return v
			} else {
				return u
			}
		}, true
	}
	return func(a, e float64) float64 {
		if u, v := x(a, e), y(a, e); u > v {
			return v
		} else {
			return u
		}
	}, true
}

// readsValue reports whether node reads actual or expected.
func readsValue(node ast.Node) bool {
	r := &reads{}
	ast.Walk(&node, r)
	return r.found
}

type reads struct{ found bool }

func (r *reads) Visit(node *ast.Node) {
	if id, ok := (*node).(*ast.IdentifierNode); ok && (id.Value == "actual" || id.Value == "expected") {
		r.found = true
	}
}

func (n *native) boolNode(node ast.Node) (boolFn, bool) {
	switch t := node.(type) {
	case *ast.BoolNode:
		c := triOf(t.Value)
		return func(_, _ float64) tri { return c }, true
	case *ast.UnaryNode:
		if t.Operator != "!" && t.Operator != "not" {
			return nil, false
		}
		x, ok := n.boolNode(t.Node)
		if !ok {
			return nil, false
		}
		return func(a, e float64) tri {
			switch x(a, e) {
			case yes:
				return no
			case no:
				return yes
			}
			return undecided
		}, true
	case *ast.BinaryNode:
		switch t.Operator {
		case "&&", "and", "||", "or":
			x, okx := n.boolNode(t.Left)
			y, oky := n.boolNode(t.Right)
			if !okx || !oky {
				return nil, false
			}
			// As the VM: the right side only when the left does not
			// decide.
			if t.Operator == "&&" || t.Operator == "and" {
				return func(a, e float64) tri {
					if l := x(a, e); l != yes {
						return l
					}
					return y(a, e)
				}, true
			}
			return func(a, e float64) tri {
				if l := x(a, e); l != no {
					return l
				}
				return y(a, e)
			}, true
		}
		x, okx := n.numNode(t.Left)
		y, oky := n.numNode(t.Right)
		if !okx || !oky {
			return nil, false
		}
		var cmp func(u, v float64) bool
		switch t.Operator {
		case "<":
			cmp = func(u, v float64) bool { return u < v }
		case "<=":
			cmp = func(u, v float64) bool { return u <= v }
		case ">":
			cmp = func(u, v float64) bool { return u > v }
		case ">=":
			cmp = func(u, v float64) bool { return u >= v }
		case "==":
			cmp = func(u, v float64) bool { return u == v }
		case "!=":
			cmp = func(u, v float64) bool { return u != v }
		default:
			return nil, false
		}
		return func(a, e float64) tri {
			u, v := x(a, e), y(a, e)
			if !finite(u, v) {
				return undecided
			}
			return triOf(cmp(u, v))
		}, true
	}
	return nil, false
}
