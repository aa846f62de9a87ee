// Package prefault allocates large slices that are about to be filled
// element by element through pointers.
//
// Fresh memory from the operating system is mapped on first touch. When
// that touch is a read, Linux maps a shared page of zeros, and the write
// that follows faults a second time to copy it, which on a multi-core
// machine also makes every other core flush its TLB. Go code touches by
// reading more often than it looks: a method on &s[i] begins with a nil
// check that reads a byte of s[i], an open-addressing table reads a slot
// before it writes it, and the collector's write barrier reads the old
// pointer it overwrites. On the 200,000-case benchmark about 5,000 pages
// were read first, each then faulting again to be copied, with a TLB
// shootdown. Writing the slice once first makes each page fault once.
package prefault

// Make returns make([]T, n) with every page of it written to.
func Make[T any](n int) []T {
	s := make([]T, n)
	clear(s)
	return s
}

// Touch writes to every page of s. Goroutines that fill parts of one large
// slice each touch their own part, so that the faults are taken in parallel.
func Touch[T any](s []T) { clear(s) }
