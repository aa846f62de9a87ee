package bfcl

import (
	"github.com/callgrade/callgrade/internal/pycall"

	"github.com/callgrade/callgrade/internal/suitedoc"
)

// pyCall is one function call read from Python call syntax, its
// arguments as a tree, as the conversion of a results file needs them.
type pyCall struct {
	Name string
	Args *suitedoc.Node // an object
}

// parsePython reads the Python call syntax BFCL's models answer in: a list
// of calls `[f(a=1, b="x"), g.h(c=[1, 2])]` or one call. Arguments are
// keyword arguments whose values are literals: strings (with their
// prefixes, escapes and implicit concatenation), numbers, True, False,
// None, lists, tuples (as lists) and dicts with string keys. Anything else
// (a positional argument, a variable, a call inside the arguments, an
// operator) and any syntax error is a *pycall.SyntaxError with its
// position. The text is read by the one parser the response package reads
// it with too.
func parsePython(src string) ([]pyCall, error) {
	calls, err := pycall.Parse(src)
	if err != nil {
		return nil, err
	}
	out := make([]pyCall, len(calls))
	for i, c := range calls {
		args, err := suitedoc.Parse([]byte(c.Args))
		if err != nil {
			// pycall writes JSON it has checked; this is a bug there.
			panic("bfcl: pycall wrote arguments that are not JSON: " + err.Error())
		}
		out[i] = pyCall{Name: c.Name, Args: args}
	}
	return out, nil
}
