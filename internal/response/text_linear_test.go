//go:build linux

package response

import (
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

// The bounds FuzzTextLinear holds a reading to: a text linearGrowth
// times as long may cost at most maxGrowth times the CPU time (linear is
// 16 times, quadratic 256), plus cpuFloor, and twice linearGrowth times
// the allocations and their bytes, plus a constant for the slices that
// grow by doubling.
const (
	linearSmall  = 4 << 10 // bytes of the small text, at least
	linearGrowth = 16
	maxGrowth    = 64
	cpuFloor     = 10 * time.Millisecond
	allocsFloor  = 256
	bytesFloor   = 1 << 20
)

// FuzzTextLinear fails on a text whose reading costs more than linear
// time or memory in its length: it writes seed over and over, to about
// 4 KB and to linearGrowth times that, reads both in one text format or
// under Auto (which picks), and compares what they cost. Allocations are
// counted, which is deterministic; time is the CPU time of the test's own
// thread with the collector off, which other processes' load barely
// touches, taken as the least of up to five runs, with a margin of four
// times linear and a floor of 10 ms: a quadratic reading costs 256 times
// as much, and a flake would need the large text to be read four times
// slower than the small one five times over.
func FuzzTextLinear(f *testing.F) {
	fs := linearFormats()
	index := func(name format.Format) uint8 {
		for i, ft := range fs {
			if ft == name {
				return uint8(i)
			}
		}
		panic(name)
	}
	for _, m := range markerTexts {
		f.Add(m.unit, index(m.f))
		f.Add(m.unit, index(format.Auto))
	}
	for want, texts := range textExamples {
		for _, s := range texts {
			f.Add(s, index(want))
			f.Add(s[:len(s)/2], index(format.Auto))
		}
	}
	f.Fuzz(func(t *testing.T, seed string, which uint8) {
		if seed == "" || len(seed) > 256 {
			return
		}
		k := (linearSmall + len(seed) - 1) / len(seed)
		checkLinear(t, fs[int(which)%len(fs)], strings.Repeat(seed, k), strings.Repeat(seed, k*linearGrowth))
	})
}

// linearFormats are the text formats, and Auto.
func linearFormats() []format.Format {
	fs := []format.Format{format.Auto}
	for _, ft := range formats {
		if ft.isText() {
			fs = append(fs, ft.name)
		}
	}
	return fs
}

// cost is what one reading cost.
type cost struct {
	cpu           time.Duration
	allocs, bytes uint64
}

// checkLinear fails t when reading large, linearGrowth times small, in
// format f costs more than the bounds allow.
func checkLinear(t *testing.T, f format.Format, small, large string) {
	t.Helper()
	read := func(text string) func() {
		r := value.StringOf(text)
		return func() { readCalls(r, f, value.Limits{}) }
	}
	checkLinearCost(t, string(f)+": "+strconv.Itoa(len(small))+" bytes of "+strconv.QuoteToASCII(clipTo(small, 40)), read(small), read(large))
}

// checkLinearCost fails t when large, which reads linearGrowth times
// what small reads, costs more than the bounds allow.
func checkLinearCost(t *testing.T, what string, small, large func()) {
	t.Helper()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	var s, l cost
	for run := 0; run < 5; run++ {
		runtime.GC()
		cs, cl := costOf(small), costOf(large)
		if run == 0 {
			s, l = cs, cl
		}
		s, l = s.least(cs), l.least(cl)
		if l.cpu <= maxGrowth*s.cpu+cpuFloor && l.allocs <= 2*linearGrowth*s.allocs+allocsFloor && l.bytes <= 2*linearGrowth*s.bytes+bytesFloor {
			return
		}
	}
	t.Fatalf("%s cost %v, %d allocations, %d bytes; %d times as many cost %v, %d allocations, %d bytes",
		what, s.cpu, s.allocs, s.bytes, linearGrowth, l.cpu, l.allocs, l.bytes)
}

// clipTo is s cut to at most n bytes.
func clipTo(s string, n int) string { return s[:min(len(s), n)] }

func (c cost) least(o cost) cost {
	return cost{min(c.cpu, o.cpu), min(c.allocs, o.allocs), min(c.bytes, o.bytes)}
}

// costOf runs read, and returns what that cost.
func costOf(read func()) cost {
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	t0 := threadCPU()
	read()
	t1 := threadCPU()
	runtime.ReadMemStats(&m1)
	return cost{t1 - t0, m1.Mallocs - m0.Mallocs, m1.TotalAlloc - m0.TotalAlloc}
}

// threadCPU is the CPU time of the calling thread.
func threadCPU() time.Duration {
	const clockThreadCPUTime = 3 // CLOCK_THREAD_CPUTIME_ID
	var ts syscall.Timespec
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		panic(e)
	}
	return time.Duration(ts.Nano())
}

// TestRunReadLinear reads as runs single messages and conversations of
// many calls whose arguments callgrade cannot use and BFCL can (NaN, a
// key twice, a lone surrogate), or neither can, and holds a message
// linearGrowth times as long to linear cost: the reading that looks for
// BFCL's answer (singleBFCL, closeTurn) takes each call's entry once.
func TestRunReadLinear(t *testing.T) {
	for _, args := range []string{`{\"n\": NaN}`, `{\"q\": 1, \"q\": 2}`, `{\"q\": \"\\ud800\"}`, `{\"q\": `} {
		call := `{"id":"c","type":"function","function":{"name":"f","arguments":"` + args + `"}}`
		message := func(n int) string {
			return `{"role":"assistant","content":null,"tool_calls":[` + strings.Repeat(call+",", n-1) + call + `]}`
		}
		for _, shape := range []struct {
			name string
			of   func(n int) string
		}{
			{"a message", message},
			{"a conversation", func(n int) string { return `[{"role":"user","content":"q"},` + message(n) + `]` }},
		} {
			read := func(n int) func() {
				r, err := value.Parse(shape.of(n))
				if err != nil {
					t.Fatal(err)
				}
				return func() { Options{}.Read(r, format.Auto) }
			}
			const small = 1000
			checkLinearCost(t, shape.name+" of "+strconv.Itoa(small)+" calls with arguments "+args, read(small), read(small*linearGrowth))
		}
	}
}
