package value

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"time"

	"github.com/callgrade/callgrade/internal/number"
)

// Equal reports canonical equality: key order ignored, numbers by exact
// decimal value, strict types ("5" is not 5, true is not 1).
func Equal(a, b Value) bool {
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case Null:
		return true
	case Bool:
		return a.b == b.b
	case Number:
		return number.Same(a.str(), b.str())
	case String:
		return a.str() == b.str()
	case Array:
		x, y := a.elems(), b.elems()
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if !Equal(x[i], y[i]) {
				return false
			}
		}
		return true
	default:
		x, y := a.members(), b.members()
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if x[i].Key != y[i].Key || !Equal(x[i].Value, y[i].Value) {
				return false
			}
		}
		return true
	}
}

// FromAny converts a Go value, as YAML, TOML or encoding/json decoders
// produce them, into a Value: nil, bool, the integer and float types,
// json.Number, string, time.Time (as RFC 3339 text), slices and maps with
// string keys. NaN and infinities are an error, as is any other type.
func FromAny(x any) (Value, error) {
	switch t := x.(type) {
	case nil:
		return Value{}, nil
	case Value:
		return t, nil
	case bool:
		return BoolOf(t), nil
	case string:
		return StringOf(t), nil
	case json.Number:
		return NumberOf(string(t))
	case int:
		return Int(int64(t)), nil
	case int64:
		return Int(t), nil
	case int32:
		return Int(int64(t)), nil
	case uint64:
		return textValue(Number, strconv.FormatUint(t, 10)), nil
	case float64:
		return floatValue(t)
	case float32:
		if v, err := floatValue(float64(t)); err != nil {
			return v, err
		}
		// The shortest spelling that round-trips a float32: 0.1, not 0.10000000149011612.
		return textValue(Number, strconv.FormatFloat(float64(t), 'g', -1, 32)), nil
	case time.Time:
		return StringOf(t.Format(time.RFC3339Nano)), nil
	case []any:
		arr := make([]Value, len(t))
		for i, e := range t {
			v, err := FromAny(e)
			if err != nil {
				return Value{}, fmt.Errorf("[%d]: %w", i, err)
			}
			arr[i] = v
		}
		return ArrayOf(arr...), nil
	case map[string]any:
		m := make([]Member, 0, len(t))
		for k, e := range t {
			v, err := FromAny(e)
			if err != nil {
				return Value{}, fmt.Errorf("%s: %w", k, err)
			}
			m = append(m, Member{Key: k, Value: v})
		}
		sortMembers(m)
		return objectValue(m), nil
	}
	// Other integer widths, named types (type Cabin string, time.Duration),
	// typed slices and maps: go through reflection, which only suites
	// written as Go values reach.
	rv := reflect.ValueOf(x)
	switch rv.Kind() {
	case reflect.Bool:
		return BoolOf(rv.Bool()), nil
	case reflect.String:
		return StringOf(rv.String()), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return Int(rv.Int()), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return textValue(Number, strconv.FormatUint(rv.Uint(), 10)), nil
	case reflect.Float32:
		return FromAny(float32(rv.Float()))
	case reflect.Float64:
		return floatValue(rv.Float())
	case reflect.Slice, reflect.Array:
		arr := make([]any, rv.Len())
		for i := range arr {
			arr[i] = rv.Index(i).Interface()
		}
		return FromAny(arr)
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			break
		}
		m := make(map[string]any, rv.Len())
		for it := rv.MapRange(); it.Next(); {
			m[it.Key().String()] = it.Value().Interface()
		}
		return FromAny(m)
	}
	return Value{}, fmt.Errorf("cannot use %T as a JSON value", x)
}

func floatValue(f float64) (Value, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return Value{}, &Error{Err: ErrNonFinite, Offset: -1, Detail: strconv.FormatFloat(f, 'g', -1, 64)}
	}
	return textValue(Number, strconv.FormatFloat(f, 'g', -1, 64)), nil
}
