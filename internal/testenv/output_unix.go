//go:build unix

package testenv

import (
	"os"
	"syscall"
)

// openOutput opens path for a notice, or returns nil. Only a terminal or a
// pipe will do: a regular file opened again through /proc would have an
// offset of its own, and the go command's next write would overwrite the
// line. O_NONBLOCK keeps the open of a pipe that has no reader from
// hanging; O_NOCTTY keeps a test process without a terminal from acquiring
// one.
func openOutput(path string) *os.File {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&(os.ModeNamedPipe|os.ModeCharDevice) == 0 {
		f.Close()
		return nil
	}
	return f
}
