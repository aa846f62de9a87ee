package suite

import (
	"bytes"
	"cmp"
	"encoding"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/callgrade/callgrade/internal/errcode"
	"github.com/callgrade/callgrade/internal/jsontext"
	"github.com/callgrade/callgrade/value"
)

// tomlParser reads TOML suite files: go-toml's decoder, then a conversion
// to Value that names the key of anything that has no JSON spelling.
type tomlParser struct{ f *file }

// parse reads a TOML suite file's top level but its cases, which go to
// the file, out of band.
func (p *tomlParser) parse(b []byte) ([]value.Member, error) {
	// A TOML file may hold a carriage return only in a CRLF line break
	// (elsewhere it is a control character, which TOML refuses), and
	// TOML lets a reader normalise line breaks: a multi-line string of a
	// file saved with CRLF then says "a\nb", as YAML's does, rather than
	// "a\r\nb", which a model's "a\nb" would not equal. Lines and
	// columns stay as they were.
	if bytes.Contains(b, []byte("\r\n")) {
		b = bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
	}
	// The literals first: their walk also finds a document nested too
	// deep, before the decoder and the conversion below, whose key paths
	// would cost the square of the depth.
	lits, deep := tomlLiterals(b)
	if deep != nil {
		line, col := lineCol(string(b), deep.offset)
		return nil, &Error{Problems: []Problem{{Loc: Loc{File: p.f.name, Line: line, Column: col, Key: deep.key},
			Msg: "nesting too deep: more than " + strconv.Itoa(maxTOMLDepth) + " levels of tables, arrays and keys", Code: errcode.LimitExceeded}}}
	}
	var m map[string]any
	if err := toml.Unmarshal(b, &m); err != nil {
		pr := tomlSyntaxProblem(p.f.name, err)
		if pr.Loc.Line == 0 {
			// The decoder names a key defined twice but not where.
			pr.Loc.Line, pr.Loc.Column, pr.Loc.Key, pr.Loc.Case = tomlRedefined(b)
		} else {
			// A value the decoder cannot read (1e400, an integer beyond
			// int64): the key it is the value of, as the other formats say.
			pr.Loc.Key, pr.Loc.Case = tomlKeyAt(b, pr.Loc.Line, pr.Loc.Column)
		}
		return nil, &Error{Problems: []Problem{pr}}
	}
	var probs []Problem
	doc := tomlValue(m, "", p.f.name, lits, &probs)
	if len(probs) > 0 {
		placeProblems(b, lits, probs)
		for i := range probs {
			probs[i].Loc.Case = tomlCaseID(m, probs[i].Loc.Key)
		}
		return nil, &Error{Problems: probs}
	}
	return splitCases(p.f, doc), nil
}

func tomlSyntaxProblem(name string, err error) Problem {
	loc := Loc{File: name}
	msg := strings.TrimPrefix(err.Error(), "toml: ")
	if pe, ok := err.(interface{ Position() (int, int) }); ok {
		loc.Line, loc.Column = pe.Position()
	}
	return Problem{Loc: loc, Msg: "invalid TOML: " + msg, Code: errcode.SyntaxError, Err: err}
}

// tomlCaseID is the id of the case whose part key names ("cases[3].…"),
// so that a problem there names its case as the other formats' do; ""
// when key is outside the cases or the case has no string id.
func tomlCaseID(m map[string]any, key string) string {
	i, ok := caseIndex(key)
	if !ok {
		return ""
	}
	var c map[string]any
	switch cases := m["cases"].(type) {
	case []map[string]any: // [[cases]]
		if i < len(cases) {
			c = cases[i]
		}
	case []any: // cases = [{…}]
		if i < len(cases) {
			c, _ = cases[i].(map[string]any)
		}
	}
	id, _ := c["id"].(string)
	return id
}

// caseIndex is the index of the case whose part key names ("cases[3].…").
func caseIndex(key string) (int, bool) {
	rest, ok := strings.CutPrefix(key, "cases[")
	if !ok {
		return 0, false
	}
	n, _, ok := strings.Cut(rest, "]")
	i, err := strconv.Atoi(n)
	return i, ok && err == nil && i >= 0
}

// maxTOMLDepth bounds the nesting of a TOML document, as JSON's is
// bounded: the levels of tables, arrays, inline tables and the parts of
// dotted keys, from the top.
const maxTOMLDepth = jsontext.DefaultMaxDepth

// tomlLit is a float's or a date's or time's text in a TOML document, and
// the byte offset where it starts.
type tomlLit struct {
	text   string
	offset int
}

// tomlValue converts what the TOML decoder produced, the value at key.
// A float, a date and a time take the text they were written with from
// lits (see tomlLiterals); a value without a JSON spelling is a problem,
// which placeProblems places.
func tomlValue(x any, key, file string, lits map[string]tomlLit, probs *[]Problem) value.Value {
	switch t := x.(type) {
	case map[string]any:
		ms := make([]value.Member, 0, len(t))
		for k, e := range t {
			ms = append(ms, value.Member{Key: k, Value: tomlValue(e, tomlKey(key, k), file, lits, probs)})
		}
		v, _ := value.ObjectOf(ms...) // a Go map has no duplicate keys
		return v
	case []any:
		arr := make([]value.Value, len(t))
		for i, e := range t {
			arr[i] = tomlValue(e, key+"["+strconv.Itoa(i)+"]", file, lits, probs)
		}
		return value.ArrayOf(arr...)
	case []map[string]any:
		arr := make([]value.Value, len(t))
		for i, e := range t {
			arr[i] = tomlValue(e, key+"["+strconv.Itoa(i)+"]", file, lits, probs)
		}
		return value.ArrayOf(arr...)
	case float64:
		// 9007199254740993.0 is that number, as in a JSON or YAML suite,
		// not the float64 nearest it.
		if lit, ok := lits[key]; ok {
			if n, err := value.NumberOf(strings.TrimPrefix(strings.ReplaceAll(lit.text, "_", ""), "+")); err == nil {
				return n
			}
		}
	case time.Time, toml.LocalDate, toml.LocalTime, toml.LocalDateTime:
		// As written: 10:00:00.500+00:00 is not rewritten as 10:00:00.5Z,
		// nor 2024-05-01 10:00:00 as 2024-05-01T10:00:00, which a model's
		// text as the suite gives it would then not equal.
		if lit, ok := lits[key]; ok {
			return value.StringOf(lit.text)
		}
	}
	v, err := value.FromAny(x)
	if err != nil {
		if tm, ok := x.(encoding.TextMarshaler); ok {
			if b, terr := tm.MarshalText(); terr == nil {
				return value.StringOf(string(b))
			}
		}
		*probs = append(*probs, Problem{Loc: Loc{File: file, Key: key}, Msg: "no JSON spelling for this value: " + err.Error(), Code: errcode.InvalidValue, Err: err})
	}
	return v
}

// placeProblems gives each problem of the TOML document b whose key
// lits knows (nan and inf are floats) its line and column. The problems
// come in the decoder's map order: they are placed in the order of their
// offsets, by one locator, each byte read once, where counting from the
// start for each took 216 s for 160,000 nan values.
func placeProblems(b []byte, lits map[string]tomlLit, probs []Problem) {
	type at struct{ off, i int }
	var order []at
	for i := range probs {
		if lit, ok := lits[probs[i].Loc.Key]; ok && lit.offset >= 0 {
			order = append(order, at{lit.offset, i})
		}
	}
	slices.SortFunc(order, func(x, y at) int { return cmp.Compare(x.off, y.off) })
	l := &locator{s: string(b)}
	for _, a := range order {
		probs[a.i].Loc.Line, probs[a.i].Loc.Column = l.lineCol(a.off)
	}
}

// tomlLiterals maps the key path (as tomlValue names it) of every float,
// date and time in the TOML document b to its text and place, which the
// decoder turns into a float64, a time.Time or a toml.Local*. Should b
// not parse, the map holds what was read before; should it nest deeper
// than maxTOMLDepth, deep says where, and the map is incomplete.
func tomlLiterals(b []byte) (lits map[string]tomlLit, deep *tomlDeep) {
	w := tomlWalk{b: b, lits: map[string]tomlLit{}, count: map[string]int{}, last: map[string]int{}}
	var p unstable.Parser
	w.walk(&p, b, nil, func(k string, e *unstable.Node) bool {
		w.value(k, e.Value(), pathDepth(k))
		if w.deep != nil && w.deep.offset <= 0 {
			// An array has no place of its own: its key's.
			w.deep.offset, w.deep.key = int(lastKey(e).Raw.Offset), k
		}
		return w.deep == nil
	})
	return w.lits, w.deep
}

// tomlDeep is where a TOML document first nests deeper than maxTOMLDepth.
type tomlDeep struct {
	offset int
	key    string
}

// tomlRedefined returns where the TOML document b first defines a key or
// a table again, as the decoder's "key X is already defined" and "table
// X already exists" report without a place: its line, column and key
// path, and the id of the case it is in when the case's id came before
// it; 0, 0 when the walk finds none (then the message goes without it).
func tomlRedefined(b []byte) (line, col int, key, id string) {
	w := tomlWalk{count: map[string]int{}, last: map[string]int{}}
	seen := map[string]bool{}
	ids := map[int]string{} // case ids read so far
	found := func(k string) {
		key = k
		if i, ok := caseIndex(k); ok {
			id = ids[i]
		}
	}
	var p unstable.Parser
	at := func(n *unstable.Node) (int, int) {
		s := p.Shape(n.Raw)
		return s.Start.Line, s.Start.Column
	}
	// define marks key k, which kv defines, and the keys of an inline
	// table it holds, and returns where one of them was defined again.
	var define func(k string, kv *unstable.Node) (int, int)
	define = func(k string, kv *unstable.Node) (int, int) {
		if seen[k] {
			found(k)
			return at(lastKey(kv))
		}
		seen[k] = true
		v := kv.Value()
		if i, ok := caseIndex(k); ok && v.Kind == unstable.String && k == "cases["+strconv.Itoa(i)+"].id" {
			ids[i] = string(v.Data)
		}
		if v.Kind != unstable.InlineTable {
			return 0, 0
		}
		it := v.Children()
		for it.Next() {
			in := it.Node()
			if l, c := define(tomlKeys(k, keyParts(in)), in); l > 0 {
				return l, c
			}
		}
		return 0, 0
	}
	w.walk(&p, b, func(t string, e *unstable.Node) bool {
		if seen["["+t+"]"] || seen[t] {
			found(t)
			line, col = at(lastKey(e))
			return false
		}
		seen["["+t+"]"] = true
		return true
	}, func(k string, e *unstable.Node) bool {
		line, col = define(k, e)
		// A dotted key defines the tables before its last part
		// (arguments.x = 1 defines arguments), which a [table] may not
		// define again.
		for i, parts := 0, len(keyParts(e)); i < parts-1; i++ {
			k = parentPath(k)
			seen[k] = true
		}
		return line == 0
	})
	return line, col, key, id
}

// lastKey is the last part of n's key, the one a message points at.
func lastKey(n *unstable.Node) *unstable.Node {
	var last *unstable.Node
	it := n.Key()
	for it.Next() {
		last = it.Node()
	}
	return last
}

type tomlWalk struct {
	b     []byte // the document
	lits  map[string]tomlLit
	count map[string]int // elements of each array of tables so far
	last  map[string]int // the index of its last element
	deep  *tomlDeep      // set when the document nests too deep
}

// walk reads the TOML document b with p, expression by expression: table,
// when not nil, hears of each [table] header and key of each key-value,
// each with its resolved key path, until one returns false.
func (w *tomlWalk) walk(p *unstable.Parser, b []byte, table, key func(path string, e *unstable.Node) bool) {
	p.Reset(b)
	cur := ""
	for p.NextExpression() {
		e := p.Expression()
		if parts := keyParts(e); len(parts) > maxTOMLDepth {
			w.deep = &tomlDeep{offset: int(lastKey(e).Raw.Offset), key: strings.Join(parts[:8], ".") + "…"}
			return
		}
		switch e.Kind {
		case unstable.Table:
			cur = w.resolve(keyParts(e), "")
			if table != nil && !table(cur, e) {
				return
			}
		case unstable.ArrayTable:
			cur = w.element(keyParts(e))
		case unstable.KeyValue:
			if !key(w.resolve(keyParts(e), cur), e) {
				return
			}
		}
	}
}

// element is the key path of a new element of the array of tables parts
// names ([[parts]]), which later keys and tables below it resolve to.
func (w *tomlWalk) element(parts []string) string {
	arr := tomlKey(w.resolve(parts[:len(parts)-1], ""), parts[len(parts)-1])
	i := w.count[arr]
	w.count[arr], w.last[arr] = i+1, i
	return arr + "[" + strconv.Itoa(i) + "]"
}

// resolve is the key path of parts below base: a part that names an
// array of tables stands for its last element, as TOML reads it.
func (w *tomlWalk) resolve(parts []string, base string) string {
	for _, k := range parts {
		base = tomlKey(base, k)
		if i, ok := w.last[base]; ok {
			base += "[" + strconv.Itoa(i) + "]"
		}
	}
	return base
}

// value records the literals of v, the value at key, depth levels down;
// a raw offset is where the literal starts (the decoder placed it, so
// the line and column are counted only for a problem).
func (w *tomlWalk) value(key string, v *unstable.Node, depth int) {
	if w.deep != nil {
		return
	}
	if depth > maxTOMLDepth {
		w.deep = &tomlDeep{offset: max(offsetIn(w.b, v.Data), 0)}
		return
	}
	switch v.Kind {
	case unstable.Float, unstable.DateTime, unstable.LocalDate, unstable.LocalTime, unstable.LocalDateTime:
		w.lits[key] = tomlLit{string(v.Data), offsetIn(w.b, v.Data)}
	case unstable.Array:
		it, i := v.Children(), 0
		for it.Next() {
			w.value(key+"["+strconv.Itoa(i)+"]", it.Node(), depth+1)
			i++
		}
	case unstable.InlineTable:
		it := v.Children()
		for it.Next() {
			kv := it.Node()
			parts := keyParts(kv)
			if depth+len(parts) > maxTOMLDepth {
				w.deep = &tomlDeep{offset: int(lastKey(kv).Raw.Offset)}
				return
			}
			w.value(tomlKeys(key, parts), kv.Value(), depth+len(parts))
		}
	}
}

func keyParts(n *unstable.Node) []string {
	var out []string
	it := n.Key()
	for it.Next() {
		out = append(out, string(it.Node().Data))
	}
	return out
}

// tomlKey appends a key to a TOML key path, escaping the dots, brackets
// and backslashes in it as rule paths do (rules.md), so that the path is
// one key's alone: the quoted key "price.max" and price = {max = …},
// "v[0]" and v[0], "" = {x = …} and x had the same path, and took each
// other's literal text.
func tomlKey(base, key string) string {
	var sb strings.Builder
	sb.Grow(len(base) + len(key) + 1)
	sb.WriteString(base)
	if base != "" {
		sb.WriteByte('.')
	}
	for i := 0; i < len(key); i++ {
		switch c := key[i]; c {
		case '.', '[', ']', '\\', '"':
			sb.WriteByte('\\')
			sb.WriteByte(c)
		default:
			sb.WriteByte(c)
		}
	}
	if key == "" {
		sb.WriteString(`""`)
	}
	return sb.String()
}

// tomlKeys appends the parts of a dotted key.
func tomlKeys(base string, parts []string) string {
	for _, k := range parts {
		base = tomlKey(base, k)
	}
	return base
}

// offsetIn is where d, the data of a literal the parser read from b,
// starts in b: such data is a subslice of b, whose capacity runs to b's
// end. -1 when d is not b's (a literal the parser rewrote).
func offsetIn(b, d []byte) int {
	off := cap(b) - cap(d)
	if off < 0 || off > len(b) || len(d) == 0 || !bytes.HasPrefix(b[off:], d) {
		return -1
	}
	return off
}

// pathParts reads a path tomlKey wrote: how many keys and indexes it
// has, and where its last one begins (its separator; 0 for one part).
func pathParts(k string) (n, last int) {
	n = 1
	for i := 0; i < len(k); i++ {
		switch k[i] {
		case '\\':
			i++
		case '.', '[':
			n, last = n+1, i
		}
	}
	return n, last
}

// pathDepth is the number of keys and indexes of a path tomlKey wrote.
func pathDepth(k string) int {
	n, _ := pathParts(k)
	return n
}

// parentPath is a path tomlKey wrote without its last key or index.
func parentPath(k string) string {
	_, last := pathParts(k)
	return k[:last]
}

// tomlKeyAt is the key path of the key-value of the TOML document b that
// starts on line, before column, and the id of its case when the case's
// id came before it; "" when none does (an error in a table's header, or
// on a later line of a value), or b does not parse that far.
func tomlKeyAt(b []byte, line, col int) (key, id string) {
	w := tomlWalk{count: map[string]int{}, last: map[string]int{}}
	ids := map[int]string{}
	at := &locator{s: string(b)}
	var p unstable.Parser
	w.walk(&p, b, nil, func(k string, e *unstable.Node) bool {
		l, c := at.lineCol(int(lastKey(e).Raw.Offset))
		if l > line || l == line && c > col {
			return false
		}
		key = ""
		if l == line {
			key = k
		}
		i, ok := caseIndex(k)
		if v := e.Value(); ok && v.Kind == unstable.String && k == "cases["+strconv.Itoa(i)+"].id" {
			ids[i] = string(v.Data)
		}
		id = ""
		if ok && key != "" {
			id = ids[i]
		}
		return true
	})
	return key, id
}
