package dsl

import (
	"reflect"

	"github.com/expr-lang/expr/ast"
)

// resultCheck finds, when the compile is over, the expressions that can
// yield no bool. expr's checker rejects a result whose type it knows and is
// not bool, but without a position; and it lets through any result typed
// `any`, such as `actual + 1`, which then fails every case at run time. The
// syntax tree says more: the result of arithmetic is never a bool, whatever
// the operands hold.
type resultCheck struct {
	root *ast.Node
}

// Visit keeps the last node visited: ast.Walk visits children first, so
// that is the root. Only its pointer is kept, so that resultCheck reads
// the tree as the later patches and the final type check leave it.
func (r *resultCheck) Visit(node *ast.Node) { r.root = node }

// err returns the error for a root that can yield no bool, or nil.
func (r *resultCheck) err() *posError {
	if r.root == nil {
		return nil
	}
	n, why := noBool(*r.root)
	if n == nil {
		return nil
	}
	return &posError{loc: n.Location(), msg: explain("expected bool, but " + why)}
}

// neverBoolBuiltins are expr's builtins that expr's checker types `any`
// when their argument is `any`, but whose result is a number or a list
// whatever the argument, or an error.
var neverBoolBuiltins = map[string]bool{
	"abs": true, "sum": true, "mean": true, "median": true, "sortBy": true, "take": true,
}

// noBool returns the node of n's result that can yield no bool and what it
// yields instead, or nil when n may yield a bool. Where it cannot tell, it
// says nil: the run decides.
func noBool(n ast.Node) (ast.Node, string) {
	if t := n.Type(); t != nil && t.Kind() != reflect.Interface {
		if t.Kind() == reflect.Bool {
			return nil, ""
		}
		return n, "got " + t.String()
	}
	switch t := n.(type) {
	case *ast.NilNode:
		return n, "got nil"
	case *ast.BinaryNode:
		switch t.Operator {
		case "+", "-", "*", "/", "%", "**", "^":
			return n, "got the result of " + t.Operator
		case "??":
			if l, _ := noBool(t.Left); l != nil {
				if r, _ := noBool(t.Right); r != nil {
					return n, "neither side of ?? yields one"
				}
			}
		}
	case *ast.UnaryNode:
		if t.Operator == "-" || t.Operator == "+" {
			return n, "got the result of unary " + t.Operator
		}
	case *ast.ConditionalNode:
		if a, _ := noBool(t.Exp1); a != nil {
			if b, _ := noBool(t.Exp2); b != nil {
				// expr places a conditional at its end; its first branch
				// is a better place to point at.
				if t.Ternary {
					return a, "neither branch of ?: yields one"
				}
				return a, "neither branch of if/else yields one"
			}
		}
	case *ast.SliceNode:
		return n, "got the result of [:]"
	case *ast.BuiltinNode:
		// min and max of one argument that is not a number or a list give
		// it back: max(actual) may be a bool.
		if neverBoolBuiltins[t.Name] || ((t.Name == "min" || t.Name == "max") && len(t.Arguments) != 1) {
			return n, "got the result of " + t.Name + "()"
		}
	case *ast.CallNode:
		if id, ok := t.Callee.(*ast.IdentifierNode); ok && (id.Value == "__add" || id.Value == "__add_w") { // concatPatch's +
			return n, "got the result of +"
		}
	case *ast.VariableDeclaratorNode:
		return noBool(t.Expr)
	case *ast.SequenceNode:
		if len(t.Nodes) > 0 {
			return noBool(t.Nodes[len(t.Nodes)-1])
		}
	}
	return nil, ""
}
