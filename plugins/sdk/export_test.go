package sdk

import "github.com/callgrade/callgrade/plugins/internal/pluginpb"

// NewServer returns the Comparators service for defs, so that the tests
// call it without starting a process.
func NewServer(defs ...Def) pluginpb.ComparatorsServer { return newServer(defs...) }
