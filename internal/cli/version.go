package cli

import (
	"fmt"
	"runtime"

	"github.com/spf13/cobra"
)

// NewCmdVersion prints the version, commit and Go version.
func NewCmdVersion(s *IOStreams, bi BuildInfo) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print pruner's version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			fmt.Fprintf(s.Out, "pruner %s (commit %s, built %s, %s)\n", bi.Version, bi.Commit, bi.Date, runtime.Version())
			return nil
		},
	}
}
