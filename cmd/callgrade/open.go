package main

import (
	"github.com/callgrade/callgrade"
	"github.com/callgrade/callgrade/response"
)

// open loads and compiles a (possibly layered) suite the way score, check
// and serve need it: callgrade.Open, the front door an embedding program
// uses too (docs/library.md).
func open(files []string, format response.Format) (*callgrade.Grader, error) {
	return callgrade.Open(files, callgrade.Options{Format: format})
}
