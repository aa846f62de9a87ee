package rulecore

import (
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
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
	prog     *syntax.Prog // for a character that is not ASCII
	start    uint32
	joins    int
	anchored bool // a match can start only at the start of the text

	// The characters a match can start with: ASCII ones, any other
	// (firstOther) or, as a match can be empty, any (firstAll).
	first                asciiSet
	firstOther, firstAll bool

	// What every text the regex matches has, which most texts that it
	// does not match lack: a length and literal strings.
	minLen int
	need   []string
}

// progInst is a syntax.Inst with what the search reads of it at hand,
// in 32 bytes: a search steps from one to another at each character, so
// the fewer lines the program takes, the fewer the cache misses.
type progInst struct {
	ascii    asciiSet // a character instruction's ASCII characters
	out, arg uint32
	join     int32 // the instruction's index among the joins, or -1
	op       syntax.InstOp
}

// maxProgVisited bounds the marks of one search (a bit for each join and
// position), and with them its memory: beyond it, a text is left to RE2.
// Its time is at most a pass of the program at each position, as RE2's
// NFA takes.
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
	body, _ := unanchor(re)
	prog, err := syntax.Compile(body.Simplify())
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
	m := &progMatcher{inst: make([]progInst, len(prog.Inst)), prog: prog, start: uint32(prog.Start)}
	for i := range prog.Inst {
		inst := &prog.Inst[i]
		pi := progInst{op: inst.Op, out: inst.Out, arg: inst.Arg, join: -1}
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
	m.first, m.firstOther, m.firstAll = firstChars(prog)
	m.minLen = minLen(re)
	m.need = needed(re)
	if len(m.need) > maxNeed {
		slices.SortFunc(m.need, func(a, b string) int { return len(b) - len(a) })
		m.need = m.need[:maxNeed]
	}
	return m
}

// unanchor returns the regex re is when it begins \A(?s:.*), or each of
// its alternatives does, as BFCL's Java patterns do (a value anywhere in
// the text): re without them, which is to be searched for from each
// position, the positions the .* reaches. searched is false, and re
// returned, when it has another shape.
func unanchor(re *syntax.Regexp) (_ *syntax.Regexp, searched bool) {
	if re.Op != syntax.OpConcat || len(re.Sub) < 2 || re.Sub[0].Op != syntax.OpBeginText {
		return re, false
	}
	rest := re.Sub[1:]
	if isDotStar(rest[0]) {
		return concatOf(rest[1:]), true
	}
	if rest[0].Op != syntax.OpAlternate {
		return re, false
	}
	alts := make([]*syntax.Regexp, len(rest[0].Sub))
	for i, a := range rest[0].Sub {
		switch {
		case isDotStar(a):
			alts[i] = &syntax.Regexp{Op: syntax.OpEmptyMatch}
		case a.Op == syntax.OpConcat && len(a.Sub) > 0 && isDotStar(a.Sub[0]):
			alts[i] = concatOf(a.Sub[1:])
		default:
			return re, false
		}
	}
	alt := &syntax.Regexp{Op: syntax.OpAlternate, Sub: alts}
	return concatOf(append([]*syntax.Regexp{alt}, rest[1:]...)), true
}

// isDotStar reports whether re is (?s:.*) or (?s:.*?).
func isDotStar(re *syntax.Regexp) bool {
	return re.Op == syntax.OpStar && re.Sub[0].Op == syntax.OpAnyChar
}

func concatOf(subs []*syntax.Regexp) *syntax.Regexp {
	return &syntax.Regexp{Op: syntax.OpConcat, Sub: subs}
}

// firstChars returns the characters a match of prog can start with:
// those of the character instructions reached from its start without
// reading one (an empty-width test read as passed), all when a match is.
func firstChars(prog *syntax.Prog) (set asciiSet, other, all bool) {
	seen := make([]bool, len(prog.Inst))
	todo := []uint32{uint32(prog.Start)}
	for len(todo) > 0 {
		pc := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if seen[pc] {
			continue
		}
		seen[pc] = true
		inst := &prog.Inst[pc]
		switch inst.Op {
		case syntax.InstMatch:
			return set, true, true
		case syntax.InstFail:
		case syntax.InstAlt, syntax.InstAltMatch:
			todo = append(todo, inst.Out, inst.Arg)
		case syntax.InstCapture, syntax.InstNop, syntax.InstEmptyWidth:
			todo = append(todo, inst.Out)
		default:
			ascii := asciiSetOf(func(r rune) bool { return runeMatches(inst, r) })
			set[0] |= ascii[0]
			set[1] |= ascii[1]
			other = other || matchesOther(inst)
		}
	}
	return set, other, false
}

// matchesOther reports whether a character instruction may match a
// character that is not ASCII (U+FFFD among them, a byte that is not
// UTF-8).
func matchesOther(inst *syntax.Inst) bool {
	switch inst.Op {
	case syntax.InstRune1:
		return inst.Rune[0] >= utf8.RuneSelf
	case syntax.InstRune:
		if syntax.Flags(inst.Arg)&syntax.FoldCase != 0 {
			return true // k is also K, U+212A
		}
		return inst.Rune[len(inst.Rune)-1] >= utf8.RuneSelf
	}
	return true
}

// mayStart reports whether a match can start at s[pos].
func (m *progMatcher) mayStart(s string, pos int) bool {
	switch {
	case m.firstAll:
		return true
	case pos >= len(s):
		return false
	case s[pos] < utf8.RuneSelf:
		return m.first.has(s[pos])
	}
	return m.firstOther
}

// maxNeed is how many literals a text is searched for before the search
// of the program: the longest, which are the likeliest to be absent.
const maxNeed = 4

// minLen returns the length, in bytes, of the shortest text re can
// match, as RE2 reckons it: a character is at least one byte (a byte
// that is not UTF-8 is one), a literal at least its characters' UTF-8,
// which folded is that of the least character of their fold orbits, as
// the parser keeps them.
func minLen(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL, syntax.OpCharClass:
		return 1
	case syntax.OpLiteral:
		n := 0
		for _, r := range re.Rune {
			if r == utf8.RuneError {
				n++ // a byte that is not UTF-8
				continue
			}
			n += max(1, minFoldLen(r, re.Flags))
		}
		return n
	case syntax.OpCapture, syntax.OpPlus:
		return minLen(re.Sub[0])
	case syntax.OpRepeat:
		return re.Min * minLen(re.Sub[0])
	case syntax.OpConcat:
		n := 0
		for _, sub := range re.Sub {
			n += minLen(sub)
		}
		return n
	case syntax.OpAlternate:
		n := minLen(re.Sub[0])
		for _, sub := range re.Sub[1:] {
			n = min(n, minLen(sub))
		}
		return n
	}
	return 0
}

// minFoldLen returns the UTF-8 length of the shortest character r
// matches under flags.
func minFoldLen(r rune, flags syntax.Flags) int {
	n := utf8.RuneLen(r)
	if flags&syntax.FoldCase != 0 {
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			n = min(n, utf8.RuneLen(f))
		}
	}
	return n
}

// needed returns literal strings every match of re holds: those of the
// literals it is a sequence of, and those each of its alternatives
// needs. A literal in any case is left out, and one with U+FFFD, which
// a byte that is not UTF-8 matches.
func needed(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 || slices.Contains(re.Rune, utf8.RuneError) {
			return nil
		}
		return []string{string(re.Rune)}
	case syntax.OpCapture, syntax.OpPlus:
		return needed(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min > 0 {
			return needed(re.Sub[0])
		}
	case syntax.OpConcat:
		var all []string
		for _, sub := range re.Sub {
			all = append(all, needed(sub)...)
		}
		return all
	case syntax.OpAlternate:
		all := needed(re.Sub[0])
		for _, sub := range re.Sub[1:] {
			each := needed(sub)
			all = slices.DeleteFunc(all, func(s string) bool { return !slices.Contains(each, s) })
		}
		return all
	}
	return nil
}

// match reports whether the regex matches s; decided is false when s is
// too long to search within maxProgVisited, and RE2 must say.
func (m *progMatcher) match(s string, b *backtrackBufs) (matched, decided bool) {
	if len(s) < m.minLen {
		return false, true
	}
	for _, lit := range m.need {
		if !strings.Contains(s, lit) {
			return false, true
		}
	}
	// The marks are joins·(len(s)+1): compared by a division, so that
	// the product cannot wrap where int is 32 bits.
	if len(s) >= 1<<30 || m.joins > 0 && len(s) >= maxProgVisited/m.joins {
		return false, false
	}
	cells := m.joins * (len(s) + 1)
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
		if (m.anchored || m.mayStart(s, pos)) && m.search(s, pos, b) {
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
	return j < 0 || markNew(b.visited, int(j)*(n+1)+pos)
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
// The program and the marks are held in locals, and a state marked here
// rather than by mark: a step is a few instructions, and the loads of
// m's and b's fields through their pointers, after each call, were
// as many again.
func (m *progMatcher) run(s string, pc uint32, pos int, b *backtrackBufs) bool {
	insts, visited, n := m.inst, b.visited, len(s)
	for {
		inst := &insts[pc]
		// A character first: most steps read one, and the switch tests
		// its cases in order.
		switch op := inst.op; {
		case op >= syntax.InstRune: // InstRune, InstRune1, InstRuneAny, InstRuneAnyNotNL
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
			if !runeMatches(&m.prog.Inst[pc], r) {
				return false
			}
			pos += w
		case op == syntax.InstMatch:
			return true
		case op == syntax.InstFail:
			return false
		case op == syntax.InstAlt || op == syntax.InstAltMatch:
			if j := insts[inst.arg].join; j < 0 || markNew(visited, int(j)*(n+1)+pos) {
				b.stack = append(b.stack, progJob{int32(inst.arg), int32(pos)})
			}
		case op == syntax.InstEmptyWidth:
			if syntax.EmptyOp(inst.arg)&^emptyContext(s, pos) != 0 {
				return false
			}
		} // InstCapture, InstNop: on
		pc = inst.out
		if j := insts[pc].join; j >= 0 && !markNew(visited, int(j)*(n+1)+pos) {
			return false
		}
	}
}

// markNew marks cell k and reports whether it was unmarked.
func markNew(visited []uint64, k int) bool {
	w, bit := uint(k)/64, uint64(1)<<(uint(k)%64)
	if visited[w]&bit != 0 {
		return false
	}
	visited[w] |= bit
	return true
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
