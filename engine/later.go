package engine

import (
	"io"
	"os"
	"slices"
)

// spillAt is how many bytes of later lines stay in memory before the rest
// go to a temporary file.
const spillAt = 4 << 20

// laterLines holds the results of responses that name no case, which the
// results file puts after every case's, in line order. The first spillAt
// bytes stay in memory; the rest go to a temporary file, so that memory
// stays bounded by the suite even when no line of a huge responses file
// names a case (the wrong suite, say). If no temporary file can be made,
// they stay in memory.
type laterLines struct {
	segs  []segment // one per batch that had such lines
	mem   []byte    // the segments not in file
	file  *os.File
	size  int64 // bytes in file
	lines int
	stuck bool // a temporary file could not be made: keep to memory
}

// segment is the later lines of one batch: consecutive in line order, and
// before or after every other batch's.
type segment struct {
	first  int // line number of the first
	off, n int64
	inFile bool
}

// add takes the later lines of one batch, first being the line number of
// the first of them and count their number.
func (l *laterLines) add(first, count int, results []byte) {
	l.segs = append(l.segs, segment{first: first, off: int64(len(l.mem)), n: int64(len(results))})
	l.mem = append(l.mem, results...)
	l.lines += count
	if len(l.mem) >= spillAt && !l.stuck {
		l.spill()
	}
}

// spill moves the segments in memory to the file.
func (l *laterLines) spill() {
	if l.file == nil {
		f, err := os.CreateTemp("", "callgrade-later-*")
		if err != nil {
			l.stuck = true
			return
		}
		l.file = f
	}
	if _, err := l.file.WriteAt(l.mem, l.size); err != nil {
		l.stuck = true
		return
	}
	for i := range l.segs {
		if s := &l.segs[i]; !s.inFile {
			s.off += l.size
			s.inFile = true
		}
	}
	l.size += int64(len(l.mem))
	l.mem = l.mem[:0]
}

// writeTo writes every later line to w, in line order.
func (l *laterLines) writeTo(w io.Writer) error {
	slices.SortFunc(l.segs, func(a, b segment) int { return a.first - b.first })
	for _, s := range l.segs {
		var err error
		if s.inFile {
			_, err = io.Copy(w, io.NewSectionReader(l.file, s.off, s.n))
		} else {
			_, err = w.Write(l.mem[s.off : s.off+s.n])
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// close removes the temporary file, if any.
func (l *laterLines) close() {
	if l.file != nil {
		l.file.Close()
		os.Remove(l.file.Name())
	}
}
