//go:build !unix

package main

import "os"

// newFileMode is the mode of a new output file where there is no umask.
func newFileMode() os.FileMode { return 0o644 }
