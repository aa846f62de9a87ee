package results

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"slices"
)

// ResponseReader reads the lines of a responses stream (spec section 2) as
// callgrade score, the service's batch endpoint and the report all read
// them: the stream's text (ResponseText: decompressed when it is
// gzip-compressed, without a byte order mark at its start), line by line,
// each line within a limit. What a line says is ReadResponseLine's to
// read.
type ResponseReader struct {
	// Long, when not nil, is called before a line longer than the
	// reader's buffer (1 MiB) is gathered, and an error it returns is
	// ReadLine's, with no line: a caller that must bound how many such
	// lines it holds at once waits there for its turn.
	Long func() error

	br        *bufio.Reader
	max, head int
	// freeFirst is set after a huge line: the memory of the line and of
	// what was made of it is handed back before the next long line is
	// gathered, rather than held beside it.
	freeFirst bool
}

// readerSize is the buffer of a ResponseReader: a line up to this long is
// read in one piece.
const readerSize = 1 << 20

// gcLine is the length from which the pieces a long line was gathered in
// are handed back to the system as the line is put together (see
// readLong), every gcLine bytes: a collection costs little beside reading
// and parsing that much.
const gcLine = 16 << 20

// ResponseText returns the text of a responses stream read from r: r's
// bytes, or what they decompress to when they are gzip-compressed (a
// .jsonl.gz, told by gzip's magic number, which no JSON text starts
// with), without a UTF-8 byte order mark at its start, which some editors
// and shells write. The error is a gzip header that does not read; a later
// corruption is an error of the text's Read.
func ResponseText(r io.Reader) (io.Reader, error) {
	// Looking for gzip's magic number and a byte order mark takes up to
	// three bytes, which a pipe whose first line is a blank one of a byte
	// or two would wait on. Neither starts with a byte a JSON line starts
	// with, so one byte says whether to look further. The buffer is no
	// larger than the look needs: ResponseReader has its own, into which
	// reads then go straight through this one.
	br := bufio.NewReaderSize(r, 16)
	if b, _ := br.Peek(1); len(b) == 1 && (b[0] == 0x1f || b[0] == 0xef) {
		if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
			zr, err := gzip.NewReader(br)
			if err != nil {
				return nil, fmt.Errorf("gzip-compressed responses: %w", err)
			}
			br = bufio.NewReaderSize(gzipText{zr}, 16)
		}
		if bom, _ := br.Peek(3); string(bom) == "\xef\xbb\xbf" {
			br.Discard(3)
		}
	}
	return br, nil
}

// NewResponseReader returns a reader of the lines of text, a responses
// stream's (ResponseText's). A line longer than maxLine bytes, without
// its newline, is not held: it is read on to its end, and only its first
// head bytes are kept (where its id is, for a caller that fails its case).
func NewResponseReader(text io.Reader, maxLine, head int) *ResponseReader {
	return &ResponseReader{br: bufio.NewReaderSize(text, readerSize), max: maxLine, head: head}
}

// gzipText says where a read error comes from: a truncated or corrupt
// .jsonl.gz shows up deep inside a read.
type gzipText struct{ r io.Reader }

func (g gzipText) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	switch {
	case err == nil || err == io.EOF:
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, gzip.ErrHeader):
		// Where a gzip stream ends, the reader takes what follows for
		// another: a cut file and bytes appended to a whole one look
		// alike.
		err = fmt.Errorf("gzip-compressed responses: the file is cut short, or holds bytes after its gzip data that are not gzip: %w", err)
	default:
		err = fmt.Errorf("gzip-compressed responses: %w", err)
	}
	return n, err
}

// ReadLine appends the stream's next line to dst, without its newline,
// and returns dst; ok says that there was a line, which at the end of the
// stream there is not. For a line longer than the limit, cut is its
// length, of which only the head was appended; it is 0 for a line
// appended whole. err is the read's, io.EOF at the end of the stream,
// which may come with the last line when no newline ends it.
func (rr *ResponseReader) ReadLine(dst []byte) (_ []byte, ok bool, cut int, err error) {
	chunk, err := rr.br.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		// A line longer than the buffer: chunk is the buffer itself,
		// which the next read overwrites.
		return rr.readLong(dst, chunk)
	}
	if len(chunk) == 0 {
		return dst, false, 0, err
	}
	size := lineLen(chunk)
	if size > rr.max {
		return append(dst, chunk[:min(size, rr.head)]...), true, size, err
	}
	return append(dst, chunk[:size]...), true, 0, err
}

// Buffered reports how many bytes of the stream are read and not yet
// returned: 0 says that the next ReadLine may wait for more to arrive.
func (rr *ResponseReader) Buffered() int { return rr.br.Buffered() }

// More reports whether the stream has more, waiting for its next byte or
// its end; its error is the read's, nil at the end.
func (rr *ResponseReader) More() (bool, error) {
	_, err := rr.br.Peek(1)
	if err == io.EOF {
		return false, nil
	}
	return err == nil, err
}

// lineLen is the length of a line read with its newline, if any, without
// it.
func lineLen(b []byte) int {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		return n - 1
	}
	return len(b)
}

// readLong reads on a line of which head, the reader's whole buffer, is
// read already, and appends it to dst. The line is gathered in pieces of
// the buffer's size and then copied once into a buffer of its exact
// length, rather than grown by append, whose outgrown copies add up to
// several times the line before the collector frees them. A line longer
// than the limit is read on to its end but not kept: dst gets its head.
func (rr *ResponseReader) readLong(dst, head []byte) ([]byte, bool, int, error) {
	if rr.Long != nil {
		if err := rr.Long(); err != nil {
			return dst, false, 0, err
		}
	}
	if rr.freeFirst {
		debug.FreeOSMemory()
		rr.freeFirst = false
	}
	pieces := [][]byte{slices.Clone(head)}
	n := len(head) // the line's bytes so far, its newline included
	for {
		chunk, err := rr.br.ReadSlice('\n')
		n += len(chunk)
		size := n
		if err == nil {
			size-- // the newline
		}
		if size > rr.max {
			// Past the limit whatever follows: keep the head, drop the
			// rest as it comes.
			for errors.Is(err, bufio.ErrBufferFull) {
				chunk, err = rr.br.ReadSlice('\n')
				size += len(chunk)
				if err == nil {
					size--
				}
			}
			return append(dst, pieces[0][:min(len(pieces[0]), rr.head)]...), true, size, err
		}
		pieces = append(pieces, slices.Clone(chunk))
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && err != io.EOF {
			return dst, false, 0, err
		}
		if err == nil {
			last := pieces[len(pieces)-1]
			pieces[len(pieces)-1] = last[:len(last)-1] // the newline
			n--
		}
		// One buffer of the exact length (and one byte for a newline
		// the caller adds), with dst's bytes before it. The pieces of a
		// huge line are handed back to the system as they are copied,
		// so that the line is not held twice over: at the collector's
		// pace they would stay while the line is parsed and its result
		// written, each of which can take as much again.
		buf := make([]byte, len(dst), len(dst)+n+1)
		copy(buf, dst)
		copied := 0
		for i := range pieces {
			buf = append(buf, pieces[i]...)
			copied += len(pieces[i])
			pieces[i] = nil
			if n >= gcLine && copied >= gcLine {
				debug.FreeOSMemory()
				copied = 0
			}
		}
		if n >= gcLine {
			debug.FreeOSMemory()
			rr.freeFirst = true
		}
		return buf, true, 0, err
	}
}
