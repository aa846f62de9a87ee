package dsl

import (
	"errors"
	"github.com/callgrade/callgrade/internal/rulecore"
	"maps"
	"slices"
	"strconv"
)

// notFound is get() of a path that leads nowhere.
type notFound struct{ path string }

func (e *notFound) Error() string { return "get: no value at path " + strconv.Quote(e.path) }

// getPath is get(v, path): the value at a rules PATH. A path without
// wildcards gives one value, or an error when it leads nowhere; with `*`
// or `#` it gives the list of every value it reaches (possibly empty).
func getPath(x any, p string) (any, error) {
	parsed, err := rulecore.ParsePath(p)
	if err != nil {
		return nil, err
	}
	segs := parsed.Segments()
	wild := false
	for _, s := range segs {
		wild = wild || s.Star || s.Hash
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

func walkPath(x any, segs []rulecore.Segment, budget *int, emit func(any)) {
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
		if s.Star {
			for _, k := range sortedKeys(t) {
				walkPath(t[k], rest, budget, emit)
			}
			return
		}
		if !s.Hash {
			if v, ok := t[s.Key]; ok {
				walkPath(v, rest, budget, emit)
			}
		}
	case []any:
		if s.Star || s.Hash {
			for _, e := range t {
				walkPath(e, rest, budget, emit)
			}
			return
		}
		if i := s.Index; i >= 0 && i < len(t) {
			walkPath(t[i], rest, budget, emit)
		}
	}
}

func sortedKeys(m map[string]any) []string {
	return slices.Sorted(maps.Keys(m))
}
