package dsl

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"time"

	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/value"
)

// toAny converts a Value to what expressions see: nil, bool, float64,
// string, []any and map[string]any.
func toAny(v value.Value) any { return toAnyFar(v, nil) }

// toAnyFar is toAny noting in *far (when far is not nil and *far is "")
// the first number beyond float64's range, which becomes ±Inf: 1e400 and
// 1e401 would then be equal.
func toAnyFar(v value.Value, far *string) any {
	switch v.Kind() {
	case value.Null:
		return nil
	case value.Bool:
		return v.Bool()
	case value.Number:
		f, _ := v.Float()
		if far != nil && *far == "" && math.IsInf(f, 0) {
			*far = v.Str()
		}
		return f
	case value.String:
		return v.Str()
	case value.Array:
		out := make([]any, v.Len())
		for i, e := range v.Elems() {
			out[i] = toAnyFar(e, far)
		}
		return out
	default:
		out := make(map[string]any, v.Len())
		for _, m := range v.Members() {
			out[m.Key] = toAnyFar(m.Value, far)
		}
		return out
	}
}

// toValue converts what an expression computed back into a Value, for the
// canonical helpers. budget bounds the work (values built inside an
// expression can share parts, so that their written size grows
// exponentially with their depth).
func toValue(x any, budget int) (value.Value, error) {
	n := budget
	v, err := toValueN(x, &n)
	return v, err
}

var errTooLarge = errors.New("the value is too large")

func toValueN(x any, n *int) (value.Value, error) {
	*n--
	if *n < 0 {
		return value.Value{}, errTooLarge
	}
	switch t := x.(type) {
	case nil:
		return value.Value{}, nil
	case raw:
		*n -= t.v.Len()
		if *n < 0 {
			return value.Value{}, errTooLarge
		}
		return t.v, nil
	case bool:
		return value.BoolOf(t), nil
	case string:
		*n -= len(t)
		return value.StringOf(t), nil
	case Decimal:
		return value.NumberOf(string(t))
	case float64:
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return value.Value{}, fmt.Errorf("%v has no JSON form", t)
		}
		return value.NumberOf(strconv.FormatFloat(t, 'g', -1, 64))
	case int:
		return value.Int(int64(t)), nil
	case int64:
		return value.Int(t), nil
	case []any:
		out := make([]value.Value, len(t))
		for i, e := range t {
			v, err := toValueN(e, n)
			if err != nil {
				return value.Value{}, err
			}
			out[i] = v
		}
		return value.ArrayOf(out...), nil
	case []int:
		out := make([]value.Value, len(t))
		for i, e := range t {
			out[i] = value.Int(int64(e))
		}
		*n -= len(t)
		return value.ArrayOf(out...), nil
	case []string:
		out := make([]value.Value, len(t))
		for i, e := range t {
			out[i] = value.StringOf(e)
			*n -= len(e)
		}
		return value.ArrayOf(out...), nil
	case map[string]any:
		out := make([]value.Member, 0, len(t))
		for k, e := range t {
			v, err := toValueN(e, n)
			if err != nil {
				return value.Value{}, err
			}
			out = append(out, value.Member{Key: k, Value: v})
		}
		return value.ObjectOf(out...)
	case time.Time:
		return value.StringOf(t.Format(time.RFC3339Nano)), nil
	}
	return value.Value{}, fmt.Errorf("%s has no JSON form", describe(x))
}

// weigh estimates how many bytes writing x out takes, giving up (false)
// once it passes limit.
func weigh(x any, limit int) (int, bool) {
	n := 0
	ok := weighN(x, limit, 0, &n)
	return n, ok
}

func weighN(x any, limit, depth int, n *int) bool {
	*n += 2 * depth // indentation
	switch t := x.(type) {
	case string:
		*n += len(t) + 2
	case Decimal:
		*n += len(t)
	case raw:
		*n += len(t.v.String())
	case []any:
		*n += 2
		for _, e := range t {
			if *n > limit || !weighN(e, limit, depth+1, n) {
				return false
			}
		}
	case []string:
		for _, e := range t {
			*n += len(e) + 4 + 2*depth
		}
	case map[string]any:
		*n += 2
		for k, e := range t {
			*n += len(k) + 4
			if *n > limit || !weighN(e, limit, depth+1, n) {
				return false
			}
		}
	default:
		// Any other list or map (a range is an []int, groupBy gives a
		// map[any][]any) is weighed element by element too, or a string
		// of it would escape the bound.
		switch v := reflect.ValueOf(x); v.Kind() {
		case reflect.Slice, reflect.Array:
			*n += 2
			for i := range v.Len() {
				if *n > limit || !weighN(v.Index(i).Interface(), limit, depth+1, n) {
					return false
				}
			}
		case reflect.Map:
			*n += 2
			it := v.MapRange()
			for it.Next() {
				if *n > limit || !weighN(it.Key().Interface(), limit, depth+1, n) || !weighN(it.Value().Interface(), limit, depth+1, n) {
					return false
				}
			}
		default:
			*n += 24
		}
	}
	return *n <= limit
}

// rawAt returns an argument exactly: the value at root (actual, expected,
// params, args, expected_args) and the member keys after it; nil when a
// key is missing, as a member access would give.
func rawAt(in *rules.Input, root string, keys []any) (any, error) {
	var v value.Value
	switch root {
	case "actual":
		v = in.Actual
	case "expected":
		v = in.Expected
	case "params":
		v = in.Params
	case "args":
		v = in.Args
	case "expected_args":
		v = in.ExpectedArgs
	}
	for _, k := range keys {
		switch key := k.(type) {
		case string:
			m, ok := v.Get(key)
			if !ok || v.Kind() != value.Object {
				return nil, nil
			}
			v = m
		case int:
			if v.Kind() != value.Array {
				return nil, nil
			}
			if key < 0 {
				key += v.Len()
			}
			if key < 0 || key >= v.Len() {
				return nil, nil
			}
			v = v.Elems()[key]
		default:
			return nil, nil
		}
	}
	if v.IsNull() {
		return nil, nil
	}
	return raw{v}, nil
}
