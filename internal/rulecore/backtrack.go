package rulecore

import (
	"regexp/syntax"
	"unicode/utf8"
)

// progMatcher decides whether a regex matches by a search of its program,
// each state (instruction, position) tried at most once: RE2's bounded
// backtracker, without capture groups. Go's regexp backtracks only
// programs of up to 500 instructions and runs the others on its NFA, a
// step of every live thread at each character; the patterns BFCL writes
// for Java and JavaScript values (a number in its every spelling, a
// map's entries in every order) are thousands of instructions, and the
// search tries few of them at each character where the NFA steps
// through all that are live. A program's states are marked only at its
// joins, the instructions more than one edge leads to: another is
// reached at a position only from the one state before it.
type progMatcher struct {
	inst     []progInst
	start    uint32
	joins    int
	anchored bool // a match can start only at the start of the text
}

// progInst is a syntax.Inst with what the search reads of it at hand.
type progInst struct {
	op       syntax.InstOp
	out, arg uint32
	join     int32    // the instruction's index among the joins, or -1
	ascii    asciiSet // a character instruction's ASCII characters
	inst     *syntax.Inst
}

// maxProgVisited bounds the marks of one search, as RE2 bounds its
// backtracker's: beyond it, a text is left to RE2.
const maxProgVisited = 1 << 20

// backtrackBufs is the search's memory, kept with a walker's buffers.
type backtrackBufs struct {
	visited []uint64
	stack   []progJob
}

type progJob struct {
	pc, pos int32
}

// compileProg compiles src to the program RE2 compiles it to; nil when
// it does not compile or is too big to search.
func compileProg(src string) *progMatcher {
	re, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return nil
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil || len(prog.Inst) > maxProgVisited/64 {
		return nil
	}
	in := make([]uint8, len(prog.Inst))
	in[prog.Start] = 2 // a search starts there: any other edge makes it a join
	for i := range prog.Inst {
		inst := &prog.Inst[i]
		switch inst.Op {
		case syntax.InstMatch, syntax.InstFail:
			continue
		case syntax.InstAlt, syntax.InstAltMatch:
			in[inst.Arg] = min(in[inst.Arg]+1, 2)
		}
		in[inst.Out] = min(in[inst.Out]+1, 2)
	}
	m := &progMatcher{inst: make([]progInst, len(prog.Inst)), start: uint32(prog.Start)}
	for i := range prog.Inst {
		inst := &prog.Inst[i]
		pi := progInst{op: inst.Op, out: inst.Out, arg: inst.Arg, join: -1, inst: inst}
		if in[i] > 1 {
			pi.join = int32(m.joins)
			m.joins++
		}
		switch inst.Op {
		case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
			pi.ascii = asciiSetOf(func(r rune) bool { return runeMatches(inst, r) })
		}
		m.inst[i] = pi
	}
	m.anchored = prog.StartCond()&syntax.EmptyBeginText != 0
	return m
}

// match reports whether the regex matches s; decided is false when s is
// too long to search within maxProgVisited, and RE2 must say.
func (m *progMatcher) match(s string, b *backtrackBufs) (matched, decided bool) {
	cells := m.joins * (len(s) + 1)
	if len(s) >= 1<<30 || cells > maxProgVisited {
		return false, false
	}
	words := (cells + 63) / 64
	if cap(b.visited) < words {
		b.visited = make([]uint64, words)
	}
	b.visited = b.visited[:words]
	clear(b.visited)
	defer b.trim()
	// The starts are the positions RE2 tries: each character's, read as
	// it reads them, and the end.
	for pos := 0; ; {
		if m.search(s, pos, b) {
			return true, true
		}
		if m.anchored || pos >= len(s) {
			return false, true
		}
		_, w := decodeRune(s, pos)
		pos += w
	}
}

// trim drops a stack grown past what the searches of BFCL's patterns
// take, which the walkers' pool would otherwise keep.
func (b *backtrackBufs) trim() {
	if cap(b.stack) > 1<<12 {
		b.stack = nil
	}
}

// mark marks state (pc, pos) and reports whether it was unmarked; a state
// of an instruction that is not a join is always new.
func (m *progMatcher) mark(b *backtrackBufs, pc uint32, pos, n int) bool {
	j := m.inst[pc].join
	if j < 0 {
		return true
	}
	k := int(j)*(n+1) + pos
	if b.visited[k/64]&(1<<(k%64)) != 0 {
		return false
	}
	b.visited[k/64] |= 1 << (k % 64)
	return true
}

// search runs the program from pos.
func (m *progMatcher) search(s string, pos int, b *backtrackBufs) bool {
	n := len(s)
	if !m.mark(b, m.start, pos, n) {
		return false
	}
	b.stack = append(b.stack[:0], progJob{int32(m.start), int32(pos)})
	for len(b.stack) > 0 {
		j := b.stack[len(b.stack)-1]
		b.stack = b.stack[:len(b.stack)-1]
		if m.run(s, uint32(j.pc), int(j.pos), b) {
			return true
		}
	}
	return false
}

// run follows the program from state (pc, pos), its state marked, until
// it fails or matches, leaving each alternative not taken on the stack.
func (m *progMatcher) run(s string, pc uint32, pos int, b *backtrackBufs) bool {
	n := len(s)
	for {
		inst := &m.inst[pc]
		switch inst.op {
		case syntax.InstMatch:
			return true
		case syntax.InstFail:
			return false
		case syntax.InstAlt, syntax.InstAltMatch:
			if m.mark(b, inst.arg, pos, n) {
				b.stack = append(b.stack, progJob{int32(inst.arg), int32(pos)})
			}
		case syntax.InstEmptyWidth:
			if syntax.EmptyOp(inst.arg)&^emptyContext(s, pos) != 0 {
				return false
			}
		case syntax.InstCapture, syntax.InstNop:
		default: // a character
			if pos >= n {
				return false
			}
			if c := s[pos]; c < utf8.RuneSelf {
				if !inst.ascii.has(c) {
					return false
				}
				pos++
				break
			}
			r, w := utf8.DecodeRuneInString(s[pos:])
			if !runeMatches(inst.inst, r) {
				return false
			}
			pos += w
		}
		pc = inst.out
		if !m.mark(b, pc, pos, n) {
			return false
		}
	}
}

// runeMatches reports whether a character instruction matches r, as
// RE2's backtracker asks.
func runeMatches(inst *syntax.Inst, r rune) bool {
	switch inst.Op {
	case syntax.InstRune1:
		return r == inst.Rune[0]
	case syntax.InstRuneAny:
		return true
	case syntax.InstRuneAnyNotNL:
		return r != '\n'
	}
	return inst.MatchRune(r)
}

// emptyContext is the context of the position between s[:pos] and
// s[pos:], its characters read as RE2 reads them.
func emptyContext(s string, pos int) syntax.EmptyOp {
	r1, r2 := rune(-1), rune(-1)
	if pos > 0 {
		r1, _ = utf8.DecodeLastRuneInString(s[:pos])
	}
	if pos < len(s) {
		r2, _ = decodeRune(s, pos)
	}
	return syntax.EmptyOpContext(r1, r2)
}
