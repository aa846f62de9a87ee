package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/callgrade/callgrade"
	"github.com/callgrade/callgrade/plugins"
)

func newPluginsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "plugins",
		Short: "Inspect the comparator plugins a suite declares",
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "describe SUITE...",
		Short: "Start the suite's plugins and list their comparators",
		Long: `Describe loads the (layered) suite files, starts each plugin declared under
plugins:, and prints every comparator it serves with its doc line and the JSON
Schema of its params. Exit status 2 when a plugin cannot be started.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := callgrade.Load(args...)
			if err != nil {
				return &exitError{code: 2, err: err}
			}
			host, err := plugins.Open(s.Plugins(), plugins.Options{})
			if err != nil {
				return &exitError{code: 2, err: err}
			}
			defer host.Close()
			w := cmd.OutOrStdout()
			infos := host.Describe()
			if len(infos) == 0 {
				fmt.Fprintln(w, "the suite declares no plugins")
			}
			for _, p := range infos {
				fmt.Fprintf(w, "%s (%s)\n", p.Name, strings.Join(p.Command, " "))
				for _, c := range p.Comparators {
					fmt.Fprintf(w, "  %s.%s  %s\n", p.Name, c.Name, c.Doc)
					if c.ParamsSchema != "" {
						fmt.Fprintf(w, "    params: %s\n", c.ParamsSchema)
					}
				}
			}
			return nil
		},
	})
	return cmd
}
