package dsl

import (
	"unsafe"

	"github.com/callgrade/callgrade/value"
)

// Boxing: handing the VM a struct, a float64 or a string as an `any`
// allocates a copy each time. An evaluation of `abs(actual - expected) <=
// 0.5` would spend most of its time in those allocations, so each worker
// keeps its own boxes (interface values whose data word points at memory
// the worker owns) and overwrites their contents before each run. Nothing
// keeps a box past the run that filled it: the VM's result is a bool, and
// its stack is cleared before the next run. A worker is used by one
// goroutine at a time.

// eface is the layout of an empty interface value.
type eface struct {
	typ  unsafe.Pointer
	data unsafe.Pointer
}

// boxOf returns an interface of the type of sample whose data word is p.
// p must point at a value of that type.
func boxOf[T any](sample T, p *T) any {
	var x any = sample
	e := (*eface)(unsafe.Pointer(&x))
	e.data = unsafe.Pointer(p)
	return x
}

// boxes are one worker's reusable interface values.
type boxes struct {
	env      *env
	envBox   any
	floats   [2]*float64
	floatBox [2]any
	strs     [2]*string
	strBox   [2]any
}

func newBoxes() boxes {
	var b boxes
	b.env = new(env)
	b.envBox = boxOf(env{}, b.env)
	for i := range b.floats {
		b.floats[i] = new(float64)
		b.floatBox[i] = boxOf(1.5, b.floats[i])
		b.strs[i] = new(string)
		b.strBox[i] = boxOf("x", b.strs[i])
	}
	return b
}

// toAny is toAny(v) with a number or string at the top level put in the
// worker's box i.
func (b *boxes) toAny(i int, v value.Value) any {
	switch v.Kind() {
	case value.Number:
		*b.floats[i], _ = v.Float()
		return b.floatBox[i]
	case value.String:
		*b.strs[i] = v.Str()
		return b.strBox[i]
	}
	return toAny(v)
}
