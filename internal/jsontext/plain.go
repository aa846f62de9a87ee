package jsontext

import (
	"encoding/binary"
	"unsafe"
)

// Word is the eight bytes of s from i, the first in the low byte. The
// caller makes sure that eight are there, so that the load goes unchecked:
// it is for loops that read a string literal's text a word at a time (the
// value parser's and AppendQuote's).
func Word(s string, i int) uint64 {
	return binary.LittleEndian.Uint64((*[8]byte)(unsafe.Add(unsafe.Pointer(unsafe.StringData(s)), i))[:])
}

// NotPlain marks with its high bit each byte of the word x that a JSON
// string literal does not hold as it is (a control character, '"' or
// '\\') or that is not ASCII, or at least the first such byte: the high
// bit is set in x when a byte is not ASCII, in (x^twos)-bangs when it is
// below ' ' or is '"' (the bytes that turn below '!' when their bit 0x02
// is flipped: the control characters stay below ' ', and '"' becomes ' '),
// and in (x^backslashes)-ones when it is '\\'. A byte that is not plain
// may borrow from the byte after it and so mark it, but a plain byte
// borrows from none, so the first mark is exact and the result is zero
// only when all eight bytes are plain.
func NotPlain(x uint64) uint64 {
	return (x | ((x ^ twos) - bangs) | ((x ^ backslashes) - ones)) & highs
}

// Bytes repeated in each byte of a word, for NotPlain.
const (
	ones        = 0x0101010101010101
	highs       = 0x80 * ones
	twos        = 0x02 * ones
	bangs       = '!' * ones
	backslashes = '\\' * ones
)
