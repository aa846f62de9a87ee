// Command callgrade scores an LLM's tool calls against expected calls by
// their parsed structure. It is a thin shell over the engine package: every
// thing it does, an embedding program can do with the packages.
package main

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version is set at build time with -ldflags "-X main.version=…"; without
// it the module version from the build info is used (see buildVersion).
var version = ""

// exitError carries an exit status through cobra.
type exitError struct {
	code  int
	err   error
	quiet bool // exit with code, saying nothing
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func main() {
	root, cfg := newRoot()
	if err := root.Execute(); err != nil {
		err = cfg.explain(err)
		var ee *exitError
		if errors.As(err, &ee) {
			if !ee.quiet {
				fmt.Fprintln(os.Stderr, "callgrade:", err)
			}
			os.Exit(ee.code)
		}
		fmt.Fprintln(os.Stderr, "callgrade:", err)
		var ue *usageError
		if errors.As(err, &ue) {
			fmt.Fprint(os.Stderr, "\n", ue.cmd.UsageString())
		}
		os.Exit(2) // a usage error: bad flags or arguments
	}
}

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Args:  cobra.NoArgs,
		Run: func(cmd *cobra.Command, _ []string) {
			fmt.Fprintln(cmd.OutOrStdout(), "callgrade", buildVersion())
		},
	}
}

// newRoot returns the callgrade command, with every command under it,
// and the run configuration that layers their flags.
func newRoot() (*cobra.Command, *runConfig) {
	root := &cobra.Command{
		Use:           "callgrade",
		Short:         "Score an LLM's tool calls against expected calls by their structure",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	// --version prints what the version command prints. The flag is
	// defined here so that cobra adds no -v shorthand, which reads as
	// "verbose" to many.
	root.Version = buildVersion()
	root.SetVersionTemplate("{{.Name}} {{.Version}}\n")
	root.Flags().Bool("version", false, "print the version, as callgrade version does")
	root.AddCommand(newScoreCmd(), newPluginsCmd(), newCheckCmd(), newVersionCmd())
	root.AddCommand(newImportCmd())
	root.AddCommand(newBFCLCmd())
	root.AddCommand(newReportCmd())
	root.AddCommand(newDiffCmd())
	root.AddCommand(newMergeCmd())
	root.AddCommand(newServeCmd())
	root.AddCommand(newSchemaCmd())
	root.SetFlagErrorFunc(flagError)
	// Last, once every command and flag is there: the configuration
	// covers them all.
	return root, newRunConfig(root)
}

// buildVersion is what `callgrade version` prints after the name: the
// version (-X main.version, else the module's), then, when the go command
// stamped the binary from a checkout, the commit it was built from and that
// commit's time, with -dirty when the tree had changes: a module version
// such as (devel) does not say which code a binary holds.
func buildVersion() string {
	bi, ok := debug.ReadBuildInfo()
	v := version
	if v == "" {
		v = "(devel)"
		if ok && bi.Main.Version != "" {
			v = bi.Main.Version
		}
	}
	if !ok {
		return v
	}
	var rev, at, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "-dirty"
			}
		}
	}
	if rev == "" {
		return v
	}
	v += " (revision " + rev + dirty
	if at != "" {
		v += ", " + at
	}
	return v + ")"
}
