package dsl

import (
	"errors"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/callgrade/callgrade/rules"
)

// notFound is get() of a path that leads nowhere.
type notFound struct{ path string }

func (e *notFound) Error() string { return "get: no value at path " + strconv.Quote(e.path) }

type seg struct {
	key  string
	wild byte // 0, '*' or '#'
}

// splitPath splits a PATH that rules.ParsePath accepted into its segments,
// unescaping as it does.
func splitPath(p string) []seg {
	var out []seg
	var b strings.Builder
	escaped := false
	flush := func() {
		s := seg{key: b.String()}
		if !escaped && (s.key == "*" || s.key == "#") {
			s.wild = s.key[0]
		}
		out = append(out, s)
		b.Reset()
		escaped = false
	}
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '\\':
			i++
			b.WriteByte(p[i])
			escaped = true
		case '.':
			flush()
		default:
			b.WriteByte(c)
		}
	}
	flush()
	return out
}

// getPath is get(v, path): the value at a rules PATH. A path without
// wildcards gives one value, or an error when it leads nowhere; with `*`
// or `#` it gives the list of every value it reaches (possibly empty).
func getPath(x any, p string) (any, error) {
	if _, err := rules.ParsePath(p); err != nil {
		return nil, err
	}
	segs := splitPath(p)
	wild := false
	for _, s := range segs {
		wild = wild || s.wild != 0
	}
	if r, ok := x.(raw); ok {
		x = toAny(r.v)
	}
	var out []any
	budget := maxPathVisits
	walkPath(x, segs, &budget, func(v any) { out = append(out, v) })
	if budget < 0 {
		return nil, errors.New("get: the path reaches too many values")
	}
	if wild {
		if out == nil {
			out = []any{}
		}
		return out, nil
	}
	if len(out) == 0 {
		return nil, &notFound{p}
	}
	return out[0], nil
}

// maxPathVisits bounds the values one get() visits: a value built inside
// an expression can share its parts and be far larger than it looks.
const maxPathVisits = 1_000_000

func walkPath(x any, segs []seg, budget *int, emit func(any)) {
	if *budget--; *budget < 0 {
		return
	}
	if len(segs) == 0 {
		emit(x)
		return
	}
	s, rest := segs[0], segs[1:]
	switch t := x.(type) {
	case map[string]any:
		if s.wild == '*' {
			for _, k := range sortedKeys(t) {
				walkPath(t[k], rest, budget, emit)
			}
			return
		}
		if s.wild == 0 {
			if v, ok := t[s.key]; ok {
				walkPath(v, rest, budget, emit)
			}
		}
	case []any:
		if s.wild != 0 {
			for _, e := range t {
				walkPath(e, rest, budget, emit)
			}
			return
		}
		if i := arrayIndex(s.key); i >= 0 && i < len(t) {
			walkPath(t[i], rest, budget, emit)
		}
	}
}

// arrayIndex is the index a decimal segment names, or -1.
func arrayIndex(key string) int {
	if key == "" || len(key) > 9 || (key[0] == '0' && len(key) > 1) {
		return -1
	}
	n := 0
	for i := 0; i < len(key); i++ {
		c := key[i]
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int(c-'0')
	}
	return n
}

func sortedKeys(m map[string]any) []string {
	return slices.Sorted(maps.Keys(m))
}
