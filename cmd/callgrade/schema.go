package main

import (
	"github.com/spf13/cobra"

	"github.com/callgrade/callgrade"
)

// newSchemaCmd is `callgrade schema`: the JSON Schema of a suite file, as
// docs/suite.schema.json holds it, for an editor or a validator.
func newSchemaCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "schema",
		Short: "Print the JSON Schema of a suite file",
		Long: "Print the JSON Schema (draft 2020-12) of a suite file, which docs/suite.schema.json holds\n" +
			"and each release ships: name it in a YAML suite's first line,\n" +
			"# yaml-language-server: $schema=suite.schema.json, for an editor to complete and check it.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := cmd.OutOrStdout().Write(callgrade.Schema())
			return err
		},
	}
}
