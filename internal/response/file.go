package response

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
)

// readerSize is the buffer of the reader NewReader returns: large enough
// that a caller wrapping it in a bufio.Reader of up to this size gets it
// back as is instead of buffering twice.
const readerSize = 1 << 20

// NewReader returns the text of a responses file (JSON Lines) read from r:
// r itself, or what it decompresses to when it is gzip-compressed (a
// .jsonl.gz, recognised by gzip's magic number, which no JSON text starts
// with), without the UTF-8 byte order mark that some editors and shells
// write first. The reader is buffered. The error is a gzip header that
// does not read; a later corruption is an error of the reader's Read.
func NewReader(r io.Reader) (io.Reader, error) {
	br := bufio.NewReaderSize(r, readerSize)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("gzip-compressed responses: %w", err)
		}
		br = bufio.NewReaderSize(gzipText{zr}, readerSize)
	}
	if bom, _ := br.Peek(3); string(bom) == "\xef\xbb\xbf" {
		br.Discard(3)
	}
	return br, nil
}

// gzipText says where a read error comes from: a truncated or corrupt
// .jsonl.gz shows up deep inside a read.
type gzipText struct{ r io.Reader }

func (g gzipText) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("gzip-compressed responses: %w", err)
	}
	return n, err
}
