package schema

import (
	"strings"

	"github.com/callgrade/callgrade/internal/jsonv"
	"github.com/callgrade/callgrade/value"
)

// flat is a schema whose root is an object of properties each ruled by
// its type alone (an array's elements by theirs), as most tools' schemas
// are: for it, arguments are found valid in one walk of their members,
// with none of the validator's set-up, where most calls are valid. What
// the walk cannot decide at once (a violation, a string where a number
// may be written as one) is left to the validator, which words it.
type flat struct {
	props []flatProp // sorted by key, as the root's
	// reqAt holds the index in props of each name of the root's required
	// list, in its order and with its repeats, as the validator lists the
	// missing ones.
	reqAt   []uint8
	nreq    int  // how many of props are required
	noExtra bool // additionalProperties: false
	ok      bool // the schema has a flat form
}

// flatProp is a property of a flat schema, with what its node says held
// in place: the walk reads a tool's properties at every call, and their
// nodes, apart in memory, each cost it a cache miss. Its key is a part of
// one string that holds all the keys, for the same reason.
type flatProp struct {
	key       string
	types     types // the property's types, 0 for any
	itemTypes types // its elements' types, 0 for any
	items     bool  // whether it says what its elements are
	req       bool
}

// of makes f the flat form of root, or leaves f not ok when it has none.
func (f *flat) of(root *node) {
	if !onlyTypes(root) || root.types&tObject == 0 || root.additional != nil ||
		root.minProps >= 0 || root.maxProps >= 0 || len(root.props) > maxPlanned {
		return
	}
	size := 0
	for _, p := range root.props {
		if !leaf(p.n) || p.n.items != nil && (!leaf(p.n.items) || p.n.items.items != nil) {
			return
		}
		size += len(p.key)
	}
	var keys strings.Builder
	keys.Grow(size)
	for _, p := range root.props {
		keys.WriteString(p.key)
	}
	all := keys.String()
	props := make([]flatProp, len(root.props))
	at := 0
	for i, p := range root.props {
		props[i] = flatProp{key: all[at : at+len(p.key)], types: p.n.types, items: p.n.items != nil}
		at += len(p.key)
		if p.n.items != nil {
			props[i].itemTypes = p.n.items.types
		}
	}
	nreq := 0
	for _, r := range root.sortedRequired {
		i := propIndex(props, r)
		if i < 0 {
			return // required and undeclared: the validator says what of it
		}
		props[i].req = true
		nreq++
	}
	var reqAt []uint8
	if len(root.required) > 0 {
		reqAt = make([]uint8, len(root.required))
		for k, r := range root.required {
			reqAt[k] = uint8(propIndex(props, r)) // declared, and maxPlanned < 256
		}
	}
	*f = flat{props: props, reqAt: reqAt, nreq: nreq, noExtra: root.noExtra, ok: true}
}

func propIndex(ps []flatProp, key string) int {
	for i := range ps {
		if ps[i].key == key {
			return i
		}
	}
	return -1
}

// onlyTypes reports whether n checks nothing of a value but its type and
// what its object and array keywords say.
func onlyTypes(n *node) bool {
	return !n.never && !n.hasEnum && !n.hasConst &&
		n.minimum == "" && n.maximum == "" && n.exclMin == "" && n.exclMax == "" && n.multipleOf == "" &&
		n.minLength < 0 && n.maxLength < 0 && n.pattern == nil &&
		n.ref == nil && len(n.allOf) == 0 && len(n.anyOf) == 0 && len(n.oneOf) == 0
}

// leaf reports whether n checks nothing of a value but its type, and of
// an array's elements what items says.
func leaf(n *node) bool {
	return onlyTypes(n) && n.noObject() && n.minItems < 0 && n.maxItems < 0 && !n.uniqueItems
}

// noObject reports whether n says nothing of an object's members.
func (n *node) noObject() bool {
	return len(n.props) == 0 && len(n.required) == 0 && n.additional == nil && !n.noExtra && n.minProps < 0 && n.maxProps < 0
}

// valid reports that args are valid against the schema f is of; false
// says only that the validator is to decide.
func (f *flat) valid(args value.Value, nullIsMissing bool) bool {
	if args.Kind() != value.Object {
		return false
	}
	ms := args.Members()
	req, p := 0, 0
	for i := range ms {
		m := &ms[i]
		if nullIsMissing && m.Value.IsNull() {
			continue
		}
		j := f.seek(p, m.Key)
		if j == len(f.props) {
			if f.noExtra {
				return false
			}
			continue
		}
		p = j + 1
		fp := &f.props[j]
		if !typeValid(fp.types, m.Value) {
			return false
		}
		if fp.items && m.Value.Kind() == value.Array {
			for _, e := range m.Value.Elems() {
				if !typeValid(fp.itemTypes, e) {
					return false
				}
			}
		}
		if fp.req {
			req++
		}
	}
	return req == f.nreq
}

// seek returns the index of key's property at p or after it, or
// len(f.props) when it has none: the members of arguments are walked in
// key order, as the properties are kept, so the search goes on from the
// last property found. == compares the lengths first.
func (f *flat) seek(p int, key string) int {
	for p < len(f.props) && f.props[p].key != key {
		p++
	}
	return p
}

// typeValid reports that x is of the types ts as validate checks a node
// of them, false too for a string such a node would read as a number
// (coerces).
func typeValid(ts types, x value.Value) bool {
	if ts == 0 {
		return true
	}
	t, _ := jsonType(x)
	if t == tString && coerces(ts) {
		return false
	}
	return ts&t != 0 || (ts&tInteger != 0 && t == tNumber && jsonv.IsInteger(x))
}

// words reports args' violations into v as the validator finds them
// against the node f is the flat form of, in its order: the missing
// required properties, then each member's type (an array's elements'
// types), then the members additionalProperties: false rejects. It reads
// f, where the validator would read the node's children and the known
// value's members, each apart in memory, for the calls whose arguments
// f.valid did not find valid: most wrong ones. It reports false, and
// nothing, for arguments that are not an object.
func (f *flat) words(v *validator, args value.Value) bool {
	if args.Kind() != value.Object {
		return false
	}
	ms := args.Members()
	mark := len(v.out)
	var extra []string
	var seen uint64 // the properties given, by index: maxPlanned is 64
	req, p := 0, 0
	for i := range ms {
		m := &ms[i]
		if v.nullIsMissing && m.Value.IsNull() {
			continue
		}
		j := f.seek(p, m.Key)
		if j == len(f.props) {
			if f.noExtra {
				// One append: the compiler keeps the first few keys of a
				// single append site on the stack.
				extra = append(extra, m.Key)
			}
			continue
		}
		p = j + 1
		seen |= 1 << j
		fp := &f.props[j]
		if fp.req {
			req++
		}
		if name, ok := typeName(fp.types, m.Value); !ok {
			v.typeFailAt(step{key: m.Key, idx: -1}, step{}, 1, name, fp.types)
		} else if fp.items && m.Value.Kind() == value.Array {
			for k, e := range m.Value.Elems() {
				if name, ok := typeName(fp.itemTypes, e); !ok {
					v.typeFailAt(step{key: m.Key, idx: -1}, step{idx: k}, 2, name, fp.itemTypes)
				}
			}
		}
	}
	if req != f.nreq {
		// The validator reports them before the members: the violation
		// goes in front of theirs.
		f.missing(v, seen)
		if n := len(v.out); n > mark+1 {
			missing := v.out[n-1]
			copy(v.out[mark+1:], v.out[mark:n-1])
			v.out[mark] = missing
		}
	}
	if extra != nil && v.failing() {
		v.fail(additionalMessage(v.words, extra))
	}
	return true
}

// missing reports the required properties not among those seen, as
// the validator's missing does from the arguments' members: one test of
// a bit each, where it looks each name up among them.
func (f *flat) missing(v *validator, seen uint64) {
	if !v.failing() {
		return
	}
	l := v.missingList()
	for _, i := range f.reqAt {
		if seen&(1<<i) == 0 {
			l.add(v, f.props[i].key)
		}
	}
	l.fail(v)
}

// typeName is validate's type check of x, after its coercion, against a
// leaf of the types ts: whether x passes, and the name of its type. A
// leaf checks nothing else of a string, a number or an object, and of an
// array what the caller checks of its elements.
func typeName(ts types, x value.Value) (string, bool) {
	if ts == 0 {
		return "", true
	}
	t, name := jsonType(x)
	if t == tString && coerces(ts) {
		if num, err := value.NumberOf(strings.TrimSpace(x.Str())); err == nil {
			t, name, x = tNumber, "number", num
		}
	}
	return name, ts&t != 0 || (ts&tInteger != 0 && t == tNumber && jsonv.IsInteger(x))
}

// typeFailAt counts a violation of the type of the arguments' member a
// (with depth 1) or of its element b (depth 2), an instance of the type
// got against ts, and words it unless quiet: the path is built only for a
// violation, where the validator kept it at every step.
func (v *validator) typeFailAt(a, b step, depth int, got string, ts types) {
	if !v.failing() {
		return
	}
	v.path = append(v.path, a, b)[:len(v.path)+depth]
	v.fail(typeMessage(got, ts))
	v.path = v.path[:len(v.path)-depth]
}
