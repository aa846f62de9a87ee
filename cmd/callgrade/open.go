package main

import "github.com/callgrade/callgrade"

// open loads and compiles a (possibly layered) suite the way score, check
// and serve need it: callgrade.Open, the front door an embedding program
// uses too (docs/library.md).
func open(files []string, opts callgrade.Options) (*callgrade.Grader, error) {
	return callgrade.Open(files, opts)
}
