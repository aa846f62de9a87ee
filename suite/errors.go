package suite

import "strings"

// Problem is one thing wrong with a suite, and where.
type Problem struct {
	Loc Loc
	Msg string
	Err error // the underlying error (I/O, syntax), if any; nil otherwise
}

// String returns "file: key (case id): message".
func (p Problem) String() string {
	if l := p.Loc.String(); l != "" {
		return l + ": " + p.Msg
	}
	return p.Msg
}

// Error reports every problem found in a suite at once, so that a user can
// fix them all in one pass.
type Error struct {
	Problems []Problem
}

// Error returns the problems one per line.
func (e *Error) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// Unwrap returns the underlying errors of the problems that have one, so
// that errors.Is(err, fs.ErrNotExist) and errors.As(err, **value.Error)
// see through an *Error.
func (e *Error) Unwrap() []error {
	var errs []error
	for _, p := range e.Problems {
		if p.Err != nil {
			errs = append(errs, p.Err)
		}
	}
	return errs
}
