package cli

import "github.com/spf13/cobra"

// addExtraCommands attaches the commands of the narrow and protected-path
// features (narrow.go, check.go, hook.go).
func addExtraCommands(root *cobra.Command, s *IOStreams) {
	_ = root
	_ = s
}
