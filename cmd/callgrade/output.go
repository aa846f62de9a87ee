package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// checkOutputs returns an exit-2 error for the first named file (flag name,
// path pairs; "" is not given) that cannot be created: its directory is
// missing or is not a directory, or it is a directory itself. Commands call
// it before any work, so that nothing is written, and so that the message
// names the path as the user gave it: creating the file later would name the
// temporary file written beside it instead.
//
// inputs are the files the command reads: an output that is one of them,
// or that another output names too, is refused, since writing it would
// lose the input, or the other output ("-" reads standard input).
func checkOutputs(inputs []string, flagPaths ...string) error {
	for i := 0; i+1 < len(flagPaths); i += 2 {
		flag, path := flagPaths[i], flagPaths[i+1]
		if err := checkOutput(flag, path); err != nil {
			return &exitError{code: 2, err: err}
		}
		if path == "" {
			continue
		}
		for _, in := range inputs {
			if in != "" && in != "-" && sameFile(path, in) {
				return &exitError{code: 2, err: outputErr(flag, path, fmt.Errorf("is %s, an input; writing it would lose it", in))}
			}
		}
		for j := 0; j < i; j += 2 {
			if other := flagPaths[j+1]; other != "" && sameFile(path, other) {
				return &exitError{code: 2, err: outputErr(flag, path, fmt.Errorf("is also --%s's file", flagPaths[j]))}
			}
		}
	}
	return nil
}

// sameFile reports whether a and b name one file: the same path, or two
// paths of one existing file.
func sameFile(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

func checkOutput(flag, path string) error {
	if path == "" {
		return nil
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return outputErr(flag, path, errors.New("is a directory"))
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return outputErr(flag, path, fmt.Errorf("directory %s does not exist", dir))
	case err != nil:
		return outputErr(flag, path, err)
	case !fi.IsDir():
		return outputErr(flag, path, fmt.Errorf("%s is not a directory", dir))
	}
	return nil
}

// outputErr says that the file flag names could not be written. The path
// inside a *fs.PathError is dropped: it is often a temporary file the user
// never named, and the message names the user's path already.
func outputErr(flag, path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("--%s %s: %w", flag, path, err)
}

// tmpErr is err, from writing the results to the temporary file tmp, said
// of --out, the path the user gave (a full disk: "--out results.jsonl: no
// space left on device"), not of tmp, which the user never named and which
// is removed by the time the message is read. An error that is not about
// tmp (a responses line that does not read) is returned as it is, and so
// is one when the results go to standard output: tmp is then in the
// temporary directory, which is what filled up.
func tmpErr(err error, tmp, out string) error {
	var pe *fs.PathError
	if out == "" || !errors.As(err, &pe) || pe.Path != tmp {
		return err
	}
	return outputErr("out", out, err)
}

// outputTarget is the file a path given to write names: the file a
// symbolic link points to, so that the link is written through rather
// than replaced by a file of its own; the path itself when it is no link,
// or does not resolve.
func outputTarget(path string) string {
	if path == "" {
		return "" // standard output
	}
	if t, err := filepath.EvalSymlinks(path); err == nil {
		return t
	}
	return path
}

// place renames tmp, a finished file beside target, over target, with the
// permissions of the file it replaces, or, for a new file, those a file
// created now gets (0666 less the umask), as a shell's > would give.
func place(tmp, target string) error {
	mode := newFileMode()
	if fi, err := os.Stat(target); err == nil && fi.Mode().IsRegular() {
		mode = fi.Mode().Perm()
	}
	if err := os.Chmod(tmp, mode); err != nil {
		return err
	}
	return os.Rename(tmp, target)
}

// count is n and noun, in the plural unless n is 1: "1 case", "2 cases".
// noun is a regular one, whose plural adds an s.
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// writeOutput writes data, a whole output file, to path, or to w when path
// is "-": an importer's responses can then go straight into score
// --responses - down a pipe.
func writeOutput(w io.Writer, path string, data []byte) error {
	if path == "-" {
		_, err := w.Write(data)
		return err
	}
	return writeAtomic(path, data)
}

// outputName is how a message names the output path: "-" is standard
// output there.
func outputName(path string) string {
	if path == "-" {
		return "standard output"
	}
	return path
}

// outputFile is the file an output flag that takes "-" names: none for
// "-", which is standard output there, as it is standard input for
// --responses, rather than a file called "-". (--junit and --html take no
// "-": a report is not what a pipe expects.)
func outputFile(out string) string {
	if out == "-" {
		return ""
	}
	return out
}
