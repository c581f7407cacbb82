package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// oneInput is cobra's Args for a command that reads at most one input (a
// file or - for stdin), with an error that says what the command reads and
// what it was given, instead of cobra's count of arguments.
func oneInput(what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) > 1 {
			return fmt.Errorf("%s reads one %s (a FILE, or - for stdin), got %d arguments: %s", cmd.Name(), what, len(args), quoteArgs(args))
		}
		return nil
	}
}

// oneSession is cobra's Args for a command that needs exactly one session
// file (restore).
func oneSession(cmd *cobra.Command, args []string) error {
	switch len(args) {
	case 0:
		return fmt.Errorf("%s needs the session FILE (pruner %s session.jsonl)", cmd.Name(), cmd.Name())
	case 1:
		return nil
	}
	return fmt.Errorf("%s takes one session FILE, got %d arguments: %s", cmd.Name(), len(args), quoteArgs(args))
}

func quoteArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = shellQuote(a)
	}
	return strings.Join(q, " ")
}
