package pycall

import (
	"sync"

	"github.com/callgrade/callgrade/internal/jsontext"
	"github.com/callgrade/callgrade/value"
)

// sink takes what the parser reads, value by value in the order written:
// as JSON text for Parse, as a value.Value for ParseValues.
type sink interface {
	begin(obj bool) // an object, or an array, begins
	key(k string)   // the key of the object's next member
	end()           // the innermost object or array ends
	unwrap()        // the innermost array, of one element, ends as that element
	str(s string)
	num(neg bool, lit string) // lit a JSON number literal
	boolean(b bool)
	null()
	// finish returns the arguments object that has just ended, as
	// Call.Args or as Call.Value.
	finish() (string, value.Value)
}

// jsonSink writes JSON text, keys in the order written.
type jsonSink struct {
	out    []byte
	frames []jsonFrame // the open objects and arrays
}

type jsonFrame struct {
	start int // where its bracket is in out
	n     int // its members or elements so far
	obj   bool
}

// value begins a value: after a comma when it is not an array's first.
func (j *jsonSink) value() {
	if len(j.frames) == 0 {
		return
	}
	if f := &j.frames[len(j.frames)-1]; !f.obj {
		if f.n > 0 {
			j.out = append(j.out, ',')
		}
		f.n++
	}
}

func (j *jsonSink) begin(obj bool) {
	j.value()
	j.frames = append(j.frames, jsonFrame{start: len(j.out), obj: obj})
	if obj {
		j.out = append(j.out, '{')
	} else {
		j.out = append(j.out, '[')
	}
}

func (j *jsonSink) key(k string) {
	f := &j.frames[len(j.frames)-1]
	if f.n > 0 {
		j.out = append(j.out, ',')
	}
	f.n++
	j.out = append(jsontext.AppendQuote(j.out, k), ':')
}

func (j *jsonSink) end() {
	f := j.frames[len(j.frames)-1]
	j.frames = j.frames[:len(j.frames)-1]
	if f.obj {
		j.out = append(j.out, '}')
	} else {
		j.out = append(j.out, ']')
	}
}

func (j *jsonSink) unwrap() {
	f := j.frames[len(j.frames)-1]
	j.frames = j.frames[:len(j.frames)-1]
	// The element goes where the bracket was.
	j.out = j.out[:f.start+copy(j.out[f.start:], j.out[f.start+1:])]
}

func (j *jsonSink) str(s string) { j.value(); j.out = jsontext.AppendQuote(j.out, s) }

func (j *jsonSink) num(neg bool, lit string) {
	j.value()
	if neg {
		j.out = append(j.out, '-')
	}
	j.out = append(j.out, lit...)
}

func (j *jsonSink) boolean(b bool) {
	j.value()
	if b {
		j.out = append(j.out, "true"...)
	} else {
		j.out = append(j.out, "false"...)
	}
}

func (j *jsonSink) null() { j.value(); j.out = append(j.out, "null"...) }

func (j *jsonSink) finish() (string, value.Value) {
	s := string(j.out)
	j.out = j.out[:0]
	return s, value.Value{}
}

// valueSink builds a value.Value. The open objects and arrays keep what
// they hold so far on two stacks, which start in the sink itself: a call's
// arguments then cost an allocation per object and array, and no more.
type valueSink struct {
	frames []valueFrame   // the open objects and arrays, innermost last
	vals   []value.Value  // the elements of the open arrays
	mems   []value.Member // the members of the open objects
	top    value.Value    // the last outermost value
	p      *value.Parser  // where the values' memory comes from
	calls  []Call         // the calls read, before they are handed over
	// highVals and highMems are how far vals and mems have held values,
	// which release clears.
	highVals, highMems int
	room               struct {
		frames [8]valueFrame
		vals   [16]value.Value
		mems   [16]value.Member
		calls  [8]Call
	}
}

type valueFrame struct {
	obj   bool
	start int    // where its elements or members begin on their stack
	key   string // the key of an object's next member
}

// valueSinks keep sinks for the next parse: a sink is larger than what a
// few calls allocate.
var valueSinks = sync.Pool{New: func() any {
	v := &valueSink{}
	v.frames, v.vals, v.mems, v.calls = v.room.frames[:0], v.room.vals[:0], v.room.mems[:0], v.room.calls[:0]
	return v
}}

// release empties v, so that it holds no value of the text, and keeps it
// for the next parse.
func (v *valueSink) release() {
	clear(v.vals[:v.highVals])
	clear(v.mems[:v.highMems])
	clear(v.calls)
	v.highVals, v.highMems = 0, 0
	v.frames, v.vals, v.mems, v.calls, v.top, v.p = v.frames[:0], v.vals[:0], v.mems[:0], v.calls[:0], value.Value{}, nil
	valueSinks.Put(v)
}

func (v *valueSink) put(x value.Value) {
	switch {
	case len(v.frames) == 0:
		v.top = x
	case v.frames[len(v.frames)-1].obj:
		v.mems = append(v.mems, value.Member{Key: v.frames[len(v.frames)-1].key, Value: x})
		v.highMems = max(v.highMems, len(v.mems))
	default:
		v.vals = append(v.vals, x)
		v.highVals = max(v.highVals, len(v.vals))
	}
}

func (v *valueSink) begin(obj bool) {
	start := len(v.vals)
	if obj {
		start = len(v.mems)
	}
	v.frames = append(v.frames, valueFrame{obj: obj, start: start})
}

func (v *valueSink) key(k string) { v.frames[len(v.frames)-1].key = k }

func (v *valueSink) pop() valueFrame {
	f := v.frames[len(v.frames)-1]
	v.frames = v.frames[:len(v.frames)-1]
	return f
}

func (v *valueSink) end() {
	f := v.pop()
	if f.obj {
		// Object copies the members; the parser has refused repeated keys.
		o, _ := v.p.Object(v.mems[f.start:])
		v.mems = v.mems[:f.start]
		v.put(o)
		return
	}
	a := v.p.Array(v.vals[f.start:])
	v.vals = v.vals[:f.start]
	v.put(a)
}

func (v *valueSink) unwrap() {
	f := v.pop()
	x := v.vals[f.start]
	v.vals = v.vals[:f.start]
	v.put(x)
}

func (v *valueSink) str(s string)   { v.put(value.StringOf(s)) }
func (v *valueSink) boolean(b bool) { v.put(value.BoolOf(b)) }
func (v *valueSink) null()          { v.put(value.Value{}) }

func (v *valueSink) num(neg bool, lit string) {
	if neg {
		lit = "-" + lit
	}
	n, _ := value.NumberOf(lit) // pyNumber wrote a JSON literal
	v.put(n)
}

func (v *valueSink) finish() (string, value.Value) { return "", v.top }

// discard is the sink of a value read only to be named in an error.
type discard struct{}

func (discard) begin(bool)                    {}
func (discard) key(string)                    {}
func (discard) end()                          {}
func (discard) unwrap()                       {}
func (discard) str(string)                    {}
func (discard) num(bool, string)              {}
func (discard) boolean(bool)                  {}
func (discard) null()                         {}
func (discard) finish() (string, value.Value) { return "", value.Value{} }
