package suite

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/callgrade/callgrade/internal/errcode"
	"github.com/callgrade/callgrade/value"
)

// Load reads and merges suite files: YAML (.yaml, .yml), JSON (.json) or
// TOML (.toml), by extension.
//
// Later files override earlier ones key by key: defaults, defaults.rules,
// rulesets and plugins merge per key (a rule per PATH, a plugin per
// field), while a RULE, a list such as tools, and a single value replace
// what an earlier file wrote; tools and tools_file replace each other. The
// cases of all files are concatenated in the order given, and case ids must
// be unique across them. A tools_file is read relative to the directory of
// the file that names it, and holds a JSON or YAML list of tools.
//
// version may be left out; when present in any file it must be the
// number 1. An optional key set to null (in YAML, a key with nothing after
// it) counts as left out, in a later file too, where it keeps what an
// earlier file wrote; expected is required, [] for a case that expects no call, and
// a call's arguments default to {}. Unless a file says otherwise,
// extra_fields is reject, calls is ordered and null_is_missing is false.
// Numbers keep the text they were written with (YAML spellings such as 0x1F
// or 1_000 become the same number in JSON spelling, as do TOML's; a TOML
// date or time is a string of its text as written). Rules are kept as written, in the order of
// their PATHs.
//
// Every problem found in any of the files is returned at once, as an
// *Error; a problem with no key path yet (a syntax error) has the line and
// column in its Loc. When the files parse but some keys are wrong, the
// Suite holding what did decode is returned with the *Error, for a caller
// that wants to check the rest too; it is nil when a file did not parse.
func Load(paths ...string) (*Suite, error) {
	return load(osFiles{}, paths)
}

// LoadFS is Load reading from fsys: paths and tools_file are slash-separated
// paths inside fsys.
func LoadFS(fsys fs.FS, paths ...string) (*Suite, error) {
	return load(fsFiles{fsys}, paths)
}

// FromValue builds a suite from one document already parsed, as held by a
// program that embeds suites as Go values (see value.FromAny). name is the
// file name used in errors; a tools_file is read from the file system,
// relative to name's directory.
func FromValue(name string, doc value.Value) (*Suite, error) {
	l := newLoader(osFiles{}, []string{name})
	f := &file{name: name, dir: filepath.Dir(name)}
	if doc.Kind() != value.Object {
		l.add(Loc{File: name}, errcode.WrongType, "a suite must be an object, not "+kindName(doc), nil)
		return nil, l.err()
	}
	rest := make([]value.Member, 0, doc.Len())
	for _, m := range doc.Members() {
		if m.Key == "cases" {
			f.setCases(m.Value)
			continue
		}
		rest = append(rest, m)
	}
	l.files = append(l.files, f)
	restVal, _ := value.ObjectOf(rest...)
	l.origin = singleOrigin(name)
	return l.finish(restVal)
}

// files abstracts the file system Load and LoadFS read from. read returns
// a buffer the caller owns: nothing else holds or writes it.
type files interface {
	read(name string) ([]byte, error)
	dir(name string) string
	join(dir, rel string) string
}

type osFiles struct{}

func (osFiles) read(name string) ([]byte, error) { return withoutBOM(os.ReadFile(name)) }
func (osFiles) dir(name string) string           { return filepath.Dir(name) }
func (osFiles) join(dir, rel string) string {
	if filepath.IsAbs(rel) {
		return rel
	}
	return filepath.Join(dir, rel)
}

type fsFiles struct{ fsys fs.FS }

func (f fsFiles) read(name string) ([]byte, error) { return withoutBOM(fs.ReadFile(f.fsys, name)) }

// withoutBOM drops a UTF-8 byte order mark, which some editors write at the
// start of a file and which no suite format has a place for.
func withoutBOM(b []byte, err error) ([]byte, error) {
	return bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")), err
}
func (fsFiles) dir(name string) string      { return path.Dir(name) }
func (fsFiles) join(dir, rel string) string { return path.Join(dir, rel) }

// memFiles serves files from memory; the tests and the fuzz targets use it.
type memFiles map[string][]byte

func (m memFiles) read(name string) ([]byte, error) {
	b, ok := m[name]
	if !ok {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return bytes.Clone(b), nil
}
func (memFiles) dir(name string) string      { return path.Dir(name) }
func (memFiles) join(dir, rel string) string { return path.Join(dir, rel) }

// fileSyntax is a suite file's syntax.
type fileSyntax uint8

const (
	formatUnknown fileSyntax = iota
	formatJSON
	formatYAML
	formatTOML
)

func formatOf(name string) fileSyntax {
	switch strings.ToLower(path.Ext(filepath.ToSlash(name))) {
	case ".json":
		return formatJSON
	case ".yaml", ".yml":
		return formatYAML
	case ".toml":
		return formatTOML
	}
	return formatUnknown
}

// file is one suite file as read: its name, and its cases, kept out of
// the layering of the files' top levels so that lists concatenate and
// nothing copies them.
type file struct {
	name string
	dir  string
	src  string // JSON: the document, which raw indexes into

	raw     []span        // JSON: the cases, not parsed yet
	vals    []value.Value // YAML, TOML, FromValue: the cases
	notList value.Value   // `cases` when it is not a list
	hasBad  bool          // notList is set
	probs   []Problem     // found in reading it, which did not stop its check
}

// span is a JSON value inside file.src, which is shorter than 4 GiB.
type span struct{ start, end uint32 }

func (f *file) numCases() int { return len(f.raw) + len(f.vals) }

func (f *file) setCases(v value.Value) {
	switch v.Kind() {
	case value.Array:
		f.vals = v.Elems()
	case value.Null:
	default:
		f.notList, f.hasBad = v, true
	}
}

// loader holds the state of one Load.
type loader struct {
	fs     files
	paths  []string
	files  []*file // the files that parsed, in order
	probs  []Problem
	failed bool // some file could not be read or parsed
	origin func(key ...string) string
	tools  map[string]*toolsFile // tools files by resolved path

	rulesets map[string]RuleSet // the merged rulesets, for checking `use`
	slow     bool               // decode every JSON case the general way (for tests)
}

func newLoader(fsys files, paths []string) *loader {
	return &loader{fs: fsys, paths: paths, tools: map[string]*toolsFile{}}
}

func (l *loader) add(loc Loc, code errcode.Code, msg string, err error) {
	l.probs = append(l.probs, Problem{Loc: loc, Msg: msg, Code: code, Err: err})
}

func (l *loader) err() error {
	if len(l.probs) == 0 {
		return nil
	}
	return &Error{Problems: l.probs}
}

func load(fsys files, paths []string) (*Suite, error) {
	return newLoader(fsys, paths).load()
}

func (l *loader) load() (*Suite, error) {
	fsys, paths := l.fs, l.paths
	if len(paths) == 0 {
		l.add(Loc{}, errcode.NoSuiteFile, "no suite file given", nil)
		return nil, l.err()
	}
	m := newMerger()
	for _, name := range paths {
		f := &file{name: name, dir: fsys.dir(name)}
		var parse func([]byte) ([]value.Member, error)
		switch formatOf(name) {
		case formatJSON:
			parse = (&jsonParser{f: f}).parse
		case formatYAML:
			parse = (&yamlParser{f: f}).parse
		case formatTOML:
			parse = (&tomlParser{f: f}).parse
		default:
			l.add(Loc{File: name}, errcode.UnknownFormat, "unknown suite format: want a .yaml, .yml, .json or .toml file", nil)
			l.failed = true
			continue
		}
		b, err := fsys.read(name)
		if err != nil {
			l.add(Loc{File: name}, errcode.ReadFailed, ioMessage(err), err)
			l.failed = true
			continue
		}
		top, err := parse(b)
		if err != nil {
			var se *Error
			if errors.As(err, &se) {
				l.probs = append(l.probs, se.Problems...)
			} else {
				l.add(Loc{File: name}, errcode.Of(err), err.Error(), err)
			}
			l.failed = true
			continue
		}
		m.add(name, top)
		l.probs = append(l.probs, f.probs...)
		l.files = append(l.files, f)
	}
	rest := m.merged()
	l.origin = m.fileOf
	return l.finish(rest)
}

// ioMessage describes a read error without repeating the file name, which
// the problem's Loc holds.
func ioMessage(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Op + ": " + pe.Err.Error()
	}
	return err.Error()
}

func singleOrigin(name string) func(...string) string {
	return func(...string) string { return name }
}

// finish decodes the merged top level and every file's cases.
func (l *loader) finish(rest value.Value) (*Suite, error) {
	s := &Suite{Version: 1, Files: l.paths}
	l.decodeTop(s, rest)
	l.decodeAllCases(s)
	for name := range l.tools {
		s.ToolsFiles = append(s.ToolsFiles, name)
	}
	slices.Sort(s.ToolsFiles)
	if err := l.err(); err != nil {
		// What did decode comes back too, so that a caller can compile it
		// and report the problems of its rules with these, in one pass.
		return s, err
	}
	return s, nil
}
