//go:build linux

package response

import (
	"runtime"
	"runtime/debug"
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
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	var s, l cost
	for run := 0; run < 5; run++ {
		runtime.GC()
		cs, cl := readCost(small, f), readCost(large, f)
		if run == 0 {
			s, l = cs, cl
		}
		s, l = s.least(cs), l.least(cl)
		if l.cpu <= maxGrowth*s.cpu+cpuFloor && l.allocs <= 2*linearGrowth*s.allocs+allocsFloor && l.bytes <= 2*linearGrowth*s.bytes+bytesFloor {
			return
		}
	}
	t.Fatalf("%s: %d bytes of %.40q… cost %v, %d allocations, %d bytes; %d times as many cost %v, %d allocations, %d bytes",
		f, len(small), small, s.cpu, s.allocs, s.bytes, linearGrowth, l.cpu, l.allocs, l.bytes)
}

func (c cost) least(o cost) cost {
	return cost{min(c.cpu, o.cpu), min(c.allocs, o.allocs), min(c.bytes, o.bytes)}
}

// readCost reads text in format f, and returns what that cost.
func readCost(text string, f format.Format) cost {
	r := value.StringOf(text)
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	t0 := threadCPU()
	readCalls(r, f, value.Limits{})
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
