package cli

import (
	"fmt"

	"github.com/pruner-dev/pruner/internal/session"
	"github.com/spf13/cobra"
)

// QueryOptions are the options of `pruner query`.
type QueryOptions struct {
	IO    *IOStreams
	Input string
	Entry string
	Call  string
	TS    string
}

// NewCmdQuery builds `pruner query`: print original messages back.
func NewCmdQuery(s *IOStreams) *cobra.Command {
	o := &QueryOptions{IO: s}
	cmd := &cobra.Command{
		Use:   "query [FILE|-] (--entry ID | --call ID [--ts TIMESTAMP])",
		Short: "Print the original of a pruned message from the session",
		Long: `Print original messages (JSONL) from a session file or context, as written
there. Every notice 'pruner now' writes names the entry id (or the call id and
timestamp) to pass here. Exit 1 when nothing matches.`,
		Example: `  pruner query --entry ccce329e session.jsonl | jq -r '.content[0].text'
  pruner query --call toolu_01ABC --ts 1764583203000 context.jsonl`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				o.Input = args[0]
			}
			if (o.Entry == "") == (o.Call == "") {
				return UsageError("give exactly one of --entry or --call")
			}
			return runQuery(o)
		},
	}
	cmd.Flags().StringVar(&o.Entry, "entry", "", "entry `ID` of the message")
	cmd.Flags().StringVar(&o.Call, "call", "", "tool call `ID` of the result (ids can repeat; add --ts)")
	cmd.Flags().StringVar(&o.TS, "ts", "", "message timestamp, to pick one occurrence of a reused call id")
	return cmd
}

func runQuery(o *QueryOptions) error {
	rc, name, err := openInput(o.IO, o.Input)
	if err != nil {
		return err
	}
	defer rc.Close()
	n := 0
	err = session.Find(rc, func(f session.Found) bool {
		switch {
		case o.Entry != "" && f.EntryID != o.Entry:
			return true
		case o.Call != "" && (f.ToolCallID != o.Call || (o.TS != "" && f.Timestamp != o.TS)):
			return true
		}
		n++
		o.IO.Out.Write(append(f.Message, '\n'))
		return o.Entry == ""
	})
	if err != nil {
		return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: %w", name, err)}
	}
	if n == 0 {
		fmt.Fprintf(o.IO.ErrOut, "pruner: %s: no message matches\n", name)
		return Findings()
	}
	return nil
}
