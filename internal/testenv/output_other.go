//go:build !unix

package testenv

import "os"

// openOutput finds no output outside Unix: the skip's message is left to
// go test -v.
func openOutput(string) *os.File { return nil }
