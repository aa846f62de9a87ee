//go:build unix

package main

import (
	"os"
	"syscall"
)

// newFileMode is the mode a file created now with 0666 gets: the umask
// is read by setting it and putting it back, which nothing else in the
// command races with when an output is placed.
func newFileMode() os.FileMode {
	m := syscall.Umask(0o022)
	syscall.Umask(m)
	return 0o666 &^ os.FileMode(m)
}
