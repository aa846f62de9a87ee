package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/knadh/koanf/parsers/json"
	"github.com/knadh/koanf/parsers/toml/v2"
	"github.com/knadh/koanf/parsers/yaml"
	"github.com/knadh/koanf/providers/env/v2"
	"github.com/knadh/koanf/providers/file"
	"github.com/knadh/koanf/providers/posflag"
	"github.com/knadh/koanf/v2"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// The run configuration (docs/configuration.md): the flags of the command
// being run, layered with koanf as it is built to layer them: the flags'
// defaults, then a config file, then CALLGRADE_* variables, then the
// command line. Every flag of every command can be set this way; which
// flags exist is read from the cobra commands, so that a new flag needs
// nothing here.

// envPrefix begins every variable that sets a flag: CALLGRADE_MAX_LINE_BYTES
// is --max-line-bytes.
const envPrefix = "CALLGRADE_"

// envConfig names the config file when --config is not given.
const envConfig = envPrefix + "CONFIG"

// runConfig layers the flags of the command being run. main makes one
// and hooks apply in before every command runs; explain then says where a
// value that the command refused came from.
type runConfig struct {
	root *cobra.Command
	// commands are callgrade's own: cobra's help and completion commands,
	// added as the root runs, read no configuration.
	commands map[*cobra.Command]bool
	path     string // --config
	// origins holds, once apply has set them, the flags that the file or
	// the environment set: the file and key, or the variable.
	origins map[string]string
}

// newRunConfig adds --config to root, which must have all its commands,
// and has every command apply the configuration before it runs.
func newRunConfig(root *cobra.Command) *runConfig {
	c := &runConfig{root: root, commands: map[*cobra.Command]bool{}}
	var walk func(*cobra.Command)
	walk = func(cmd *cobra.Command) {
		c.commands[cmd] = true
		for _, sub := range cmd.Commands() {
			walk(sub)
		}
	}
	walk(root)
	root.PersistentFlags().StringVar(&c.path, "config", "", "config file of flag values, YAML, JSON or TOML by extension (default: $"+envConfig+"; docs/configuration.md)")
	root.PersistentPreRunE = c.apply
	return c
}

// ownFlags returns the flags of cmd a configuration may set, by name:
// its own, not cobra's --help nor the root's --config and --version.
func (c *runConfig) ownFlags(cmd *cobra.Command) map[string]*pflag.Flag {
	flags := map[string]*pflag.Flag{}
	if cmd == c.root {
		return flags
	}
	cmd.LocalFlags().VisitAll(func(f *pflag.Flag) {
		if f.Name != "help" {
			flags[f.Name] = f
		}
	})
	return flags
}

// apply sets the flags of cmd that the command line left out from the
// config file and the environment. Its errors, like a bad flag's, exit 2.
func (c *runConfig) apply(cmd *cobra.Command, _ []string) error {
	if !c.commands[cmd] || cmd == c.root {
		return nil
	}
	flags := c.ownFlags(cmd)
	k := koanf.New(".")
	origins := map[string]string{}
	if err := c.loadFile(cmd, flags, k, origins); err != nil {
		return &exitError{code: 2, err: err}
	}
	// A variable that names no flag of cmd is left alone: the prefix is
	// shared with test switches (CALLGRADE_REQUIRE_CHROMIUM) and other
	// commands' flags (CALLGRADE_TOKEN is serve's --token). An empty one
	// counts as unset, as `CALLGRADE_WORKERS= callgrade score` means.
	vars := env.Provider(".", env.Opt{Prefix: envPrefix, TransformFunc: func(name, v string) (string, any) {
		key := strings.ReplaceAll(strings.ToLower(strings.TrimPrefix(name, envPrefix)), "_", "-")
		if v == "" || name != strings.ToUpper(name) || flags[key] == nil {
			return "", nil
		}
		origins[key] = name
		return key, v
	}})
	if err := k.Load(vars, nil); err != nil {
		return &exitError{code: 2, err: err}
	}
	// The command line last: posflag loads the flags it gave over the
	// file and the environment, and the defaults of the others only
	// where neither set them, so that k is the whole configuration.
	fs := cmd.Flags()
	line := posflag.ProviderWithFlag(fs, ".", k, func(f *pflag.Flag) (string, any) {
		if flags[f.Name] == nil {
			return "", nil
		}
		return f.Name, posflag.FlagVal(fs, f)
	})
	if err := k.Load(line, nil); err != nil {
		return &exitError{code: 2, err: err}
	}
	names := make([]string, 0, len(origins))
	for name := range origins {
		if flags[name].Changed {
			delete(origins, name) // the command line's
			continue
		}
		names = append(names, name)
	}
	slices.Sort(names)
	// Set as the command line would set them, so that a value from the
	// file or the environment counts as given (Changed): --fail-under
	// applies, --format wins over the suite's formats, --suite is there.
	for _, name := range names {
		if err := setFlag(fs, flags[name], k.Get(name)); err != nil {
			return &exitError{code: 2, err: fmt.Errorf("%s: %w", origins[name], err)}
		}
	}
	c.origins = origins
	return nil
}

// loadFile loads into k the values the config file, if any, gives the
// flags of cmd: the top-level keys, then those of each section on the
// way down to cmd (score:, import: then bfcl:), a deeper one winning.
// The whole file is checked first, so that a mistake in a section of
// another command is found too.
func (c *runConfig) loadFile(cmd *cobra.Command, flags map[string]*pflag.Flag, k *koanf.Koanf, origins map[string]string) error {
	path, by := c.path, "--config "+c.path
	if !cmd.Flags().Changed("config") {
		path, by = os.Getenv(envConfig), envConfig+"="+os.Getenv(envConfig)
	}
	if path == "" {
		return nil
	}
	p := configParser(path)
	if p == nil {
		return fmt.Errorf("%s: unknown config file format: want a .yaml, .yml, .json or .toml file", by)
	}
	fk := koanf.New(".")
	if err := fk.Load(file.Provider(path), p); err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			return fmt.Errorf("%s: %w", by, err)
		}
		return fmt.Errorf("%s: %w", path, err)
	}
	raw := fk.Raw()
	if err := c.check(path, raw, c.root, ""); err != nil {
		return err
	}
	var levels []*cobra.Command // callgrade down to cmd
	for p := cmd; p != nil; p = p.Parent() {
		levels = append([]*cobra.Command{p}, levels...)
	}
	m, prefix := raw, ""
	for i, sec := range levels {
		for key, v := range m {
			if flags[key] != nil && c.subcommand(sec, key) == nil {
				if err := k.Set(key, v); err != nil {
					return fmt.Errorf("%s: %s%s: %w", path, prefix, key, err)
				}
				origins[key] = path + ": " + prefix + key
			}
		}
		if i+1 == len(levels) {
			break
		}
		next := levels[i+1].Name()
		sub, ok := m[next].(map[string]any)
		if !ok {
			break
		}
		m, prefix = sub, prefix+next+"."
	}
	return nil
}

// configParser returns the koanf parser for a config file's extension, as
// suite files are told apart, or nil.
func configParser(path string) koanf.Parser {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml":
		return yaml.Parser()
	case ".json":
		return json.Parser()
	case ".toml":
		return toml.Parser()
	}
	return nil
}

// check reports the first key of m, the section of sec in the config file
// named file, that is neither a flag of sec or of a command under it nor
// the section of one of its commands. prefix is the section's path in the
// file ("import.bfcl.").
func (c *runConfig) check(file string, m map[string]any, sec *cobra.Command, prefix string) error {
	keys := make([]string, 0, len(m))
	for key := range m {
		keys = append(keys, key)
	}
	slices.Sort(keys)
	for _, key := range keys {
		if sub := c.subcommand(sec, key); sub != nil {
			sm, ok := m[key].(map[string]any)
			if !ok {
				return fmt.Errorf("%s: %s%s: want a section of %s's flags, not a value", file, prefix, key, sub.CommandPath())
			}
			if err := c.check(file, sm, sub, prefix+key+"."); err != nil {
				return err
			}
			continue
		}
		if f := c.ownFlags(sec)[key]; f != nil && prefix != "" {
			// The value too, as the command would read it, whichever
			// command runs: serve: {timeout: banana} is found by score.
			if fs := scratchFlag(f); fs != nil {
				if err := setFlag(fs, fs.Lookup(key), m[key]); err != nil {
					return fmt.Errorf("%s: %s%s: %w", file, prefix, key, err)
				}
			}
			continue
		}
		names := c.namesUnder(sec)
		if !slices.Contains(names, key) {
			msg := "unknown key; want a flag of a callgrade command, or a command's section"
			if sec != c.root {
				msg = "unknown key; want a flag of " + sec.CommandPath()
				if len(sec.Commands()) > 0 {
					msg += " or of a command under it, or its section"
				}
			}
			if near := nearestName(names, key); near != "" {
				msg += " (did you mean " + near + "?)"
			}
			return fmt.Errorf("%s: %s%s: %s", file, prefix, key, msg)
		}
	}
	return nil
}

// scratchFlag returns a flag set holding a flag of f's name and type with
// a value of its own, for checking a value without setting f; nil for a
// type it does not know.
func scratchFlag(f *pflag.Flag) *pflag.FlagSet {
	fs := pflag.NewFlagSet("check", pflag.ContinueOnError)
	switch f.Value.Type() {
	case "string":
		fs.String(f.Name, "", "")
	case "bool":
		fs.Bool(f.Name, false, "")
	case "int":
		fs.Int(f.Name, 0, "")
	case "int64":
		fs.Int64(f.Name, 0, "")
	case "uint":
		fs.Uint(f.Name, 0, "")
	case "float64":
		fs.Float64(f.Name, 0, "")
	case "duration":
		fs.Duration(f.Name, 0, "")
	case "stringSlice":
		fs.StringSlice(f.Name, nil, "")
	case "stringArray":
		fs.StringArray(f.Name, nil, "")
	case "intSlice":
		fs.IntSlice(f.Name, nil, "")
	case "size":
		fs.Var(new(byteSize), f.Name, "")
	default:
		return nil
	}
	return fs
}

// subcommand returns the command of callgrade's named name under sec, or nil.
func (c *runConfig) subcommand(sec *cobra.Command, name string) *cobra.Command {
	for _, sub := range sec.Commands() {
		if c.commands[sub] && sub.Name() == name {
			return sub
		}
	}
	return nil
}

// namesUnder returns the keys the section of sec may hold: the flags of
// sec and of every command under it, and the names of its commands.
func (c *runConfig) namesUnder(sec *cobra.Command) []string {
	var names []string
	for name := range c.ownFlags(sec) {
		names = append(names, name)
	}
	for _, sub := range sec.Commands() {
		if c.commands[sub] {
			names = append(names, sub.Name())
			names = append(names, c.namesUnder(sub)...)
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// nearestName returns the name in names closest to typed, by the
// measure nearestFlag uses, or "" when none is close.
func nearestName(names []string, typed string) string {
	fs := pflag.NewFlagSet("", pflag.ContinueOnError)
	for _, name := range names {
		fs.Bool(name, false, "")
	}
	return nearestFlag(fs, typed)
}

// setFlag sets f on fs from v, a value of the config file or of a
// variable, as the command line would: once, or once per element of a
// list for a flag that may be repeated (--suite, --pass-k).
func setFlag(fs *pflag.FlagSet, f *pflag.Flag, v any) error {
	var vals []string
	if list, ok := v.([]any); ok {
		if _, many := f.Value.(pflag.SliceValue); !many {
			return fmt.Errorf("--%s takes one value, not a list", f.Name)
		}
		for _, e := range list {
			s, err := scalar(f, e)
			if err != nil {
				return err
			}
			vals = append(vals, s)
		}
	} else {
		s, err := scalar(f, v)
		if err != nil {
			return err
		}
		vals = []string{s}
	}
	for _, s := range vals {
		if err := fs.Set(f.Name, s); err != nil {
			return err
		}
	}
	return nil
}

// scalar returns v, a string, number or boolean of a config file, as the
// command line would give it to f. Numbers are written out in full:
// JSON's 1000000 is the float64 1e+06, which --workers could not read.
func scalar(f *pflag.Flag, v any) (string, error) {
	switch v := v.(type) {
	case string:
		return v, nil
	case bool:
		return strconv.FormatBool(v), nil
	case int:
		return strconv.Itoa(v), nil
	case int64:
		return strconv.FormatInt(v, 10), nil
	case uint64:
		return strconv.FormatUint(v, 10), nil
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64), nil
	case nil:
		return "", fmt.Errorf("--%s has no value", f.Name)
	case map[string]any:
		return "", fmt.Errorf("--%s takes a value, not a map", f.Name)
	}
	return "", fmt.Errorf("--%s takes a string, a number or true or false, not %T", f.Name, v)
}

// flagMention finds the flags an error message names.
var flagMention = regexp.MustCompile(`--([a-z][a-z0-9-]*)`)

// explain adds to err, when it names a flag that the config file or the
// environment set, where that value came from: the command's own checks
// (--fail-under's range, --format's names) speak of the flag only.
func (c *runConfig) explain(err error) error {
	if len(c.origins) == 0 {
		return err
	}
	var notes []string
	seen := map[string]bool{}
	for _, m := range flagMention.FindAllStringSubmatch(err.Error(), -1) {
		if from, ok := c.origins[m[1]]; ok && !seen[m[1]] {
			seen[m[1]] = true
			notes = append(notes, "--"+m[1]+" is set by "+from)
		}
	}
	if len(notes) == 0 {
		return err
	}
	note := " (" + strings.Join(notes, "; ") + ")"
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.quiet {
			return err
		}
		return &exitError{code: ee.code, err: fmt.Errorf("%w%s", ee.err, note)}
	}
	var ue *usageError
	if errors.As(err, &ue) {
		return &usageError{cmd: ue.cmd, err: fmt.Errorf("%w%s", ue.err, note)}
	}
	return fmt.Errorf("%w%s", err, note)
}
