package dsl

import (
	"reflect"
	"strconv"
	"time"

	"github.com/expr-lang/expr/ast"
)

// The patches below rewrite the syntax tree after parsing and before the
// final type check. They keep the language as written and add what the
// limits and the exact helpers need.

// stepPatch makes every closure body (the predicate of all, any, filter,
// map, reduce, sortBy, ...) count one step against Options.MaxSteps:
// `P` becomes `__tick(__budget); P`, a sequence whose value is P's.
type stepPatch struct{}

func (stepPatch) Visit(node *ast.Node) {
	p, ok := (*node).(*ast.PredicateNode)
	if !ok {
		return
	}
	loc := p.Location()
	budget := &ast.IdentifierNode{Value: "__budget"}
	budget.SetLocation(loc)
	tick := &ast.CallNode{Callee: &ast.IdentifierNode{Value: "__tick"}, Arguments: []ast.Node{budget}}
	tick.SetLocation(loc)
	tick.Callee.SetLocation(loc)
	seq := &ast.SequenceNode{Nodes: []ast.Node{tick, p.Node}}
	seq.SetLocation(p.Node.Location())
	p.Node = seq
}

// loopPatch finds the `+` nodes inside closure bodies, which run once an
// element: there alone can `+` grow a string step by step, each step
// copying all that came before (reduce(1..999999, #acc + "x", "")), and
// concatPatch charges their bytes to MaxWork. A `+` outside a loop runs
// once an evaluation and builds at most MaxStringLen.
type loopPatch struct {
	in map[*ast.BinaryNode]bool
}

func (p *loopPatch) Visit(node *ast.Node) {
	if pr, ok := (*node).(*ast.PredicateNode); ok {
		ast.Walk(&pr.Node, plusMarker(p.in))
	}
}

type plusMarker map[*ast.BinaryNode]bool

func (m plusMarker) Visit(node *ast.Node) {
	if b, ok := (*node).(*ast.BinaryNode); ok && b.Operator == "+" {
		m[b] = true
	}
}

// concatPatch routes `+` through a function that refuses to build a
// string longer than Options.MaxStringLen, wherever either side may be a
// string: `let a = s + s; let b = a + a; ...` would otherwise double a
// string a few hundred times within the node limit. Inside a loop
// (loops), the function also charges the bytes it builds to MaxWork.
// Numeric `+` is left alone.
type concatPatch struct {
	loops *loopPatch
}

func (p *concatPatch) Visit(node *ast.Node) {
	b, ok := (*node).(*ast.BinaryNode)
	if !ok || b.Operator != "+" {
		return
	}
	lt, rt := b.Left.Type(), b.Right.Type()
	isStr := func(t reflect.Type) bool { return t != nil && t.Kind() == reflect.String }
	unknown := func(t reflect.Type) bool { return t == nil || t.Kind() == reflect.Interface }
	var fn string
	switch {
	case isStr(lt) && isStr(rt):
		fn = "__cat"
	case (unknown(lt) || isStr(lt)) && (unknown(rt) || isStr(rt)):
		fn = "__add"
	case unknown(lt) || unknown(rt):
		// One side known and not a string (a number, a time): the other
		// cannot make it a string concatenation that grows unboundedly,
		// except when it is a string, which runtime.Add refuses.
		return
	default:
		return
	}
	args := []ast.Node{b.Left, b.Right}
	if p.loops.in[b] {
		budget := &ast.IdentifierNode{Value: "__budget"}
		budget.SetLocation(b.Location())
		fn += "_w"
		args = []ast.Node{budget, b.Left, b.Right}
	}
	call := &ast.CallNode{Callee: &ast.IdentifierNode{Value: fn}, Arguments: args}
	call.Callee.SetLocation(b.Location())
	ast.Patch(node, call)
}

// loopBuiltins are expr's builtins that loop over their first argument.
var loopBuiltins = map[string]bool{
	"all": true, "none": true, "any": true, "one": true, "filter": true, "map": true, "count": true,
	"sum": true, "find": true, "findIndex": true, "findLast": true, "findLastIndex": true,
	"groupBy": true, "sortBy": true, "reduce": true,
}

// seqPatch lets those builtins loop over a list alone: expr loops over a
// string's bytes, and over a map as over nothing, so that on the string
// "ceo@corp.com" `none(actual, # == 'ceo@corp.com')` held and a never
// entry's `any(actual, # == 'ceo@corp.com')` let the call past it, and
// `{}` held every all and none. Where the checker does not know the
// argument's type, `all(x, P)` becomes `all(__seq("all", x), P)`, which
// fails on anything but a list; a type the checker knows it checks itself.
type seqPatch struct{}

func (seqPatch) Visit(node *ast.Node) {
	b, ok := (*node).(*ast.BuiltinNode)
	if !ok || !loopBuiltins[b.Name] || len(b.Arguments) == 0 {
		return
	}
	if t := b.Arguments[0].Type(); t != nil && t.Kind() != reflect.Interface {
		return
	}
	loc := b.Arguments[0].Location()
	name := &ast.StringNode{Value: b.Name}
	name.SetLocation(loc)
	call := &ast.CallNode{Callee: &ast.IdentifierNode{Value: "__seq"}, Arguments: []ast.Node{name, b.Arguments[0]}}
	call.SetLocation(loc)
	call.Callee.SetLocation(loc)
	b.Arguments[0] = call
}

// indexPatch refuses a string indexed by a number where the checker
// does not know it is a string: expr's checker refuses "abc"[0], but
// when it runs, s[0] is the byte 0x61, so that a never entry's
// `actual[0] == 'ceo@corp.com'` let the value through as a string.
// `x[i]` becomes `__item(x)[i]`; a member named by a constant
// (`x.name`, `x["name"]`) and a slice (s[0:1]) are left as they are.
type indexPatch struct{}

func (indexPatch) Visit(node *ast.Node) {
	m, ok := (*node).(*ast.MemberNode)
	if !ok || m.Method {
		return
	}
	if _, named := m.Property.(*ast.StringNode); named {
		return
	}
	if t := m.Node.Type(); t != nil && t.Kind() != reflect.Interface {
		return
	}
	loc := m.Node.Location()
	call := &ast.CallNode{Callee: &ast.IdentifierNode{Value: "__item"}, Arguments: []ast.Node{m.Node}}
	call.SetLocation(loc)
	call.Callee.SetLocation(loc)
	m.Node = call
}

var durationType = reflect.TypeOf(time.Duration(0))

// absPatch lets abs take a duration, as abs(date(a) - date(b)) does: expr's
// abs accepts one when type-checking but fails on it when it runs. Where
// the checker knows the argument is a duration, `abs(d)` becomes
// `__abs_duration(d)`.
type absPatch struct{}

func (absPatch) Visit(node *ast.Node) {
	b, ok := (*node).(*ast.BuiltinNode)
	if !ok || b.Name != "abs" || len(b.Arguments) != 1 || b.Arguments[0].Type() != durationType {
		return
	}
	call := &ast.CallNode{Callee: &ast.IdentifierNode{Value: "__abs_duration"}, Arguments: b.Arguments}
	call.Callee.SetLocation(b.Location())
	ast.Patch(node, call)
}

// rawRoots are the environment names whose values have an exact form
// (value.Value) besides their float64 one.
var rawRoots = map[string]bool{"actual": true, "expected": true, "params": true, "args": true, "expected_args": true}

// rawHelpers take their arguments exactly when the argument is written as
// an environment name or a constant member path from one: decimal(actual)
// sees the number's decimal text, not a float64.
var rawHelpers = map[string]bool{"decimal": true, "set_eq": true, "contains_all": true, "canon": true, "approx": true, "rel_approx": true}

// rawPatch rewrites such arguments to `__raw(__in, "root", key, ...)`.
type rawPatch struct {
	g *guard // knows the names a `let` declares, which shadow the roots
}

func (r *rawPatch) Visit(node *ast.Node) {
	call, ok := (*node).(*ast.CallNode)
	if !ok {
		return
	}
	id, ok := call.Callee.(*ast.IdentifierNode)
	if !ok || !rawHelpers[id.Value] {
		return
	}
	for i, arg := range call.Arguments {
		root, keys, ok := memberPath(arg)
		if !ok || r.g.lets[root] {
			continue
		}
		in := &ast.IdentifierNode{Value: "__in"}
		in.SetLocation(arg.Location())
		args := []ast.Node{in, &ast.StringNode{Value: root}}
		args = append(args, keys...)
		for _, a := range args[1:] {
			a.SetLocation(arg.Location())
		}
		rc := &ast.CallNode{Callee: &ast.IdentifierNode{Value: "__raw"}, Arguments: args}
		rc.Callee.SetLocation(arg.Location())
		ast.Patch(&call.Arguments[i], rc)
	}
}

// memberPath reads `root`, `root.a`, `root["a"]`, `root.a[0]` (constant
// keys only) into the root's name and the keys.
func memberPath(n ast.Node) (string, []ast.Node, bool) {
	var keys []ast.Node
	for {
		switch t := n.(type) {
		case *ast.IdentifierNode:
			if !rawRoots[t.Value] {
				return "", nil, false
			}
			// keys were collected from the outside in
			for i, j := 0, len(keys)-1; i < j; i, j = i+1, j-1 {
				keys[i], keys[j] = keys[j], keys[i]
			}
			return t.Value, keys, true
		case *ast.MemberNode:
			if t.Optional || t.Method {
				return "", nil, false
			}
			switch p := t.Property.(type) {
			case *ast.StringNode:
				keys = append(keys, &ast.StringNode{Value: p.Value})
			case *ast.IntegerNode:
				keys = append(keys, &ast.IntegerNode{Value: p.Value})
			case *ast.UnaryNode:
				// actual[-1], the last element, is a constant path too.
				in, ok := p.Node.(*ast.IntegerNode)
				if !ok || p.Operator != "-" {
					return "", nil, false
				}
				keys = append(keys, &ast.IntegerNode{Value: -in.Value})
			default:
				return "", nil, false
			}
			n = t.Node
		default:
			return "", nil, false
		}
	}
}

// usage records which environment names the final tree reads.
type usage struct {
	uses uses
	all  bool
}

func (u *usage) Visit(node *ast.Node) {
	id, ok := (*node).(*ast.IdentifierNode)
	if !ok {
		return
	}
	switch id.Value {
	case "actual":
		u.uses.actual = true
	case "expected":
		u.uses.expected = true
	case "params":
		u.uses.params = true
	case "args":
		u.uses.args = true
	case "expected_args":
		u.uses.expectedArgs = true
	case "steps":
		u.uses.steps = true
	case "$env":
		u.all = true
	}
}

// finitePatch rewrites a comparison of numbers (or of values whose type
// the checker does not know) to `__cmp(op, left, right)`, which refuses
// an operand that is ±Inf or NaN: a number computed past float64's range
// (actual * actual, 5 / 0) would otherwise equal any other as far, and
// compare as greater than every bound, and NaN fail every comparison, so
// that !(x > 0.1) held. Comparisons of other types (decimals, times,
// strings) stay the VM's. int(x) becomes `__int(x)`, which refuses a
// float beyond an int's range rather than wrapping it.
type finitePatch struct{}

var comparisons = map[string]bool{"==": true, "!=": true, "<": true, "<=": true, ">": true, ">=": true}

func (finitePatch) Visit(node *ast.Node) {
	switch t := (*node).(type) {
	case *ast.BinaryNode:
		l, r := t.Left.Type(), t.Right.Type()
		if !comparisons[t.Operator] || !numeric(l) || !numeric(r) || !mayFloat(l) && !mayFloat(r) || !typed(t) {
			return
		}
		op := &ast.StringNode{Value: t.Operator}
		call := &ast.CallNode{Callee: &ast.IdentifierNode{Value: "__cmp"}, Arguments: []ast.Node{op, t.Left, t.Right}}
		call.Callee.SetLocation(t.Location())
		op.SetLocation(t.Location())
		ast.Patch(node, call)
	case *ast.BuiltinNode:
		if t.Name != "int" || len(t.Arguments) != 1 || !mayFloat(t.Arguments[0].Type()) {
			return
		}
		call := &ast.CallNode{Callee: &ast.IdentifierNode{Value: "__int"}, Arguments: t.Arguments}
		call.Callee.SetLocation(t.Location())
		ast.Patch(node, call)
	}
}

// typed reports whether the checker typed every node of n: one it could
// not (an unknown name) is left as it is, for the final check to report,
// which it does not below a call this patch makes.
func typed(n ast.Node) bool {
	v := &untyped{}
	ast.Walk(&n, v)
	return !v.found
}

type untyped struct{ found bool }

func (u *untyped) Visit(node *ast.Node) {
	if (*node).Type() == nil {
		u.found = true
	}
}

// numeric reports whether a value of static type t may be a number at run
// time: a number type, or any value (actual, a list's element); mayFloat,
// whether it may be a float64. A node the checker could not type (nil: an
// unknown name) is neither, and is left as it is, for the final check to
// report.
func numeric(t reflect.Type) bool {
	if t == nil {
		return false
	}
	switch t.Kind() {
	case reflect.Interface, reflect.Float64, reflect.Float32, reflect.Int, reflect.Int64, reflect.Int32:
		return t != durationType // a duration compares as itself
	}
	return false
}

func mayFloat(t reflect.Type) bool {
	return t != nil && (t.Kind() == reflect.Interface || t.Kind() == reflect.Float64 || t.Kind() == reflect.Float32)
}

// workPatch charges the work of a string or list helper to the
// evaluation's MaxWork before it runs: `levenshtein(f(a), b)` becomes
// `let __w0 = f(a); __work(__budget, "levenshtein", __w0, b);
// levenshtein(__w0, b)`, whose value and type are the call's. An argument
// that is a name, a member of one or a constant is read twice as it is;
// any other is computed once, into a variable.
type workPatch struct{ n int }

// workHelpers are the helpers charged, by name: functions of the package
// and expr's builtins that read a whole string or list.
var workHelpers = map[string]bool{
	"levenshtein": true, "similarity": true, "norm": true, "strip_punct": true, "canon": true,
	"contains_all": true, "set_eq": true, "join": true, "replace": true, "string": true, "toJSON": true,
	"upper": true, "lower": true, "trim": true, "trimPrefix": true, "trimSuffix": true, "split": true,
	"splitAfter": true, "indexOf": true, "lastIndexOf": true, "hasPrefix": true, "hasSuffix": true,
	// Builtins that read a whole list or map, or build one that the VM
	// does not count (see builds).
	"keys": true, "values": true, "toPairs": true, "fromPairs": true, "fromJSON": true, "uniq": true,
	"sort": true, "max": true, "min": true, "mean": true, "median": true, "toBase64": true, "fromBase64": true,
}

// workOperators are the string operators charged likewise, and the
// comparisons that read whole lists and maps, element by element and
// below: a list can hold itself twice, each level in one step
// (reduce(1..40, [#acc, #acc], [1])), and == would read 2^40 values.
var workOperators = map[string]bool{"contains": true, "matches": true, "startsWith": true, "endsWith": true,
	"==": true, "!=": true, "in": true}

// flat reports whether values of type t compare at a cost their own
// size bounds: a bool, a number, a string, a time, which == compares
// with a list or a map at once. A list, a map, or a type the checker does
// not know may hold a list that holds itself.
func flat(t reflect.Type) bool {
	if t == nil {
		return false
	}
	switch t.Kind() {
	case reflect.Bool, reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return true
	case reflect.Struct:
		return t == timeType
	}
	return false
}

var timeType = reflect.TypeOf(time.Time{})

func (p *workPatch) Visit(node *ast.Node) {
	var name string
	var args []*ast.Node
	switch t := (*node).(type) {
	case *ast.CallNode:
		id, ok := t.Callee.(*ast.IdentifierNode)
		if !ok || !workHelpers[id.Value] {
			return
		}
		name, args = id.Value, pointers(t.Arguments)
	case *ast.BuiltinNode:
		if !workHelpers[t.Name] {
			return
		}
		name, args = t.Name, pointers(t.Arguments)
	case *ast.BinaryNode:
		if !workOperators[t.Operator] {
			return
		}
		switch t.Operator {
		case "==", "!=":
			if flat(t.Left.Type()) || flat(t.Right.Type()) {
				return // a scalar compares with a list or a map at once
			}
		case "in":
			if r := t.Right.Type(); flat(t.Left.Type()) && r != nil && r.Kind() == reflect.Map {
				return // a key looked up in a map
			}
		}
		name, args = t.Operator, []*ast.Node{&t.Left, &t.Right}
	default:
		return
	}
	loc := (*node).Location()
	at := func(n ast.Node) ast.Node { n.SetLocation(loc); return n }
	// Arguments that are not cheap to read twice go into variables.
	var lets []*ast.VariableDeclaratorNode
	read := make([]ast.Node, 0, len(args))
	for _, a := range args {
		if cheap(*a) {
			read = append(read, *a)
			continue
		}
		v := "__w" + strconv.Itoa(p.n)
		p.n++
		lets = append(lets, &ast.VariableDeclaratorNode{Name: v, Value: *a})
		*a = at(&ast.IdentifierNode{Value: v})
		read = append(read, at(&ast.IdentifierNode{Value: v}))
	}
	charge := at(&ast.CallNode{Callee: at(&ast.IdentifierNode{Value: "__work"}),
		Arguments: append([]ast.Node{at(&ast.IdentifierNode{Value: "__budget"}), at(&ast.StringNode{Value: name})}, read...)})
	var out ast.Node = at(&ast.SequenceNode{Nodes: []ast.Node{charge, *node}})
	for i := len(lets) - 1; i >= 0; i-- {
		lets[i].Expr = out
		out = at(lets[i])
	}
	ast.Patch(node, out)
}

// pointers returns a pointer to each of nodes, so that a patch can set it.
func pointers(nodes []ast.Node) []*ast.Node {
	out := make([]*ast.Node, len(nodes))
	for i := range nodes {
		out[i] = &nodes[i]
	}
	return out
}

// cheap reports whether n is read twice at no cost: a constant, a name,
// the closure's element, or a constant member of one of these.
func cheap(n ast.Node) bool {
	switch t := n.(type) {
	case *ast.StringNode, *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.NilNode, *ast.IdentifierNode, *ast.PointerNode:
		return true
	case *ast.MemberNode:
		switch t.Property.(type) {
		case *ast.StringNode, *ast.IntegerNode:
			return cheap(t.Node)
		}
	}
	return false
}
