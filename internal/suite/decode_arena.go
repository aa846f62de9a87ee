package suite

import (
	"strconv"
	"unsafe"

	"github.com/callgrade/callgrade/internal/prefault"
)

// keyArena builds key path strings in large shared blocks, so that the
// hundreds of thousands of Locs of a big suite cost a handful of
// allocations. A block is never written again once a string points into it.
type keyArena struct{ buf []byte }

func (a *keyArena) reserve(n int) int {
	if cap(a.buf)-len(a.buf) < n {
		a.buf = make([]byte, 0, max(n, 64<<10))
	}
	return len(a.buf)
}

func (a *keyArena) str(start int) string {
	if len(a.buf) == start {
		return ""
	}
	return unsafe.String(&a.buf[start], len(a.buf)-start)
}

// index returns base.name[i], or base[i] when name is "".
func (a *keyArena) index(base, name string, i int) string {
	start := a.reserve(len(base) + len(name) + 24)
	a.buf = append(a.buf, base...)
	if name != "" {
		if base != "" {
			a.buf = append(a.buf, '.')
		}
		a.buf = append(a.buf, name...)
	}
	a.buf = append(a.buf, '[')
	a.buf = strconv.AppendInt(a.buf, int64(i), 10)
	a.buf = append(a.buf, ']')
	return a.str(start)
}

// field returns base.name.
func (a *keyArena) field(base, name string) string {
	if base == "" {
		return name
	}
	if name == "" {
		return base
	}
	start := a.reserve(len(base) + len(name) + 1)
	a.buf = append(a.buf, base...)
	a.buf = append(a.buf, '.')
	a.buf = append(a.buf, name...)
	return a.str(start)
}

// field2 returns base.a.b.
func (a *keyArena) field2(base, k1, k2 string) string {
	start := a.reserve(len(base) + len(k1) + len(k2) + 2)
	if base != "" {
		a.buf = append(a.buf, base...)
		a.buf = append(a.buf, '.')
	}
	a.buf = append(a.buf, k1...)
	a.buf = append(a.buf, '.')
	a.buf = append(a.buf, k2...)
	return a.str(start)
}

// newCalls cuts n Calls from the slab.
func (d *dec) newCalls(n int) []Call {
	if cap(d.calls)-len(d.calls) < n {
		d.calls = prefault.Make[Call](max(n, 512))[:0]
	}
	s := d.calls[len(d.calls) : len(d.calls)+n : len(d.calls)+n]
	d.calls = d.calls[:len(d.calls)+n]
	return s
}

// newRules cuts n PathRules from the slab.
func (d *dec) newRules(n int) RuleSet {
	if cap(d.rules)-len(d.rules) < n {
		d.rules = prefault.Make[PathRule](max(n, 512))[:0]
	}
	s := d.rules[len(d.rules) : len(d.rules)+n : len(d.rules)+n]
	d.rules = d.rules[:len(d.rules)+n]
	return s
}
