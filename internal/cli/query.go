package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

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
timestamp) to pass here. After 'pruner now --write', originals are read from
the FILE.orig-* backups beside FILE.

Exit status: 0 found, 1 nothing matches, 2 usage or input error.`,
		Example: `  pruner query --entry ccce329e session.jsonl | jq -r '.content[0].text'
  pruner query --call toolu_01ABC --ts 1764583203000 context.jsonl
  pruner query --entry ccce329e -o original.jsonl session.jsonl`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				o.Input = args[0]
			}
			if (o.Entry == "") == (o.Call == "") {
				return UsageError("give exactly one of --entry or --call")
			}
			if o.TS != "" && o.Call == "" {
				return UsageError("--ts picks one occurrence of a --call id; it does not go with --entry")
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
	found, err := queryReader(rc, o)
	if err != nil {
		switch {
		case errors.Is(err, session.ErrEmpty):
			return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: empty input: no JSON line found", name)}
		case errors.Is(err, session.ErrNotSession):
			return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: %w", name, err),
				Hint: "pruner reads pi session files (first line {\"type\":\"session\",…}) or contexts (one {\"role\":…} per line)"}
		}
		return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: %w", name, err)}
	}
	if len(found) == 0 {
		fmt.Fprintf(o.IO.ErrOut, "pruner: %s: no message matches\n", name)
		if o.Entry != "" {
			fmt.Fprintln(o.IO.ErrOut, "hint: entry ids are in the session file; a context (pruner now output) has none: query the session, or use --call ID --ts TS")
		}
		return Findings()
	}
	for _, f := range found {
		msg := f.Message
		if isNotice(msg) && o.Input != "" && o.Input != "-" {
			// rewritten by `now --write`: the original is in a backup beside it
			if orig, backup := fromBackups(o, f); orig != nil {
				fmt.Fprintf(o.IO.ErrOut, "pruner: original of line %d from %s\n", f.Line, backup)
				msg = orig
			} else {
				fmt.Fprintf(o.IO.ErrOut, "pruner: warning: line %d holds a pruner notice and no %s.orig-* backup has the original\n", f.Line, name)
			}
		}
		o.IO.Out.Write(append(msg, '\n'))
	}
	return nil
}

// queryReader returns the messages of r matching o.
func queryReader(r io.Reader, o *QueryOptions) ([]session.Found, error) {
	var out []session.Found
	err := session.Find(r, func(f session.Found) bool {
		switch {
		case o.Entry != "" && f.EntryID != o.Entry:
			return true
		case o.Call != "" && (f.ToolCallID != o.Call || (o.TS != "" && f.Timestamp != o.TS)):
			return true
		}
		out = append(out, f)
		return o.Entry == ""
	})
	return out, err
}

// isNotice reports whether a message's content holds a pruner notice.
func isNotice(msg []byte) bool {
	return bytes.Contains(msg, []byte(`"text":"`+session.NoticePrefix))
}

// fromBackups looks for the original of f in the FILE.orig-* backups that
// `now --write` leaves, oldest first.
func fromBackups(o *QueryOptions, f session.Found) ([]byte, string) {
	backups, _ := filepath.Glob(o.Input + ".orig-*")
	sort.Slice(backups, func(i, j int) bool {
		a, _ := os.Stat(backups[i])
		b, _ := os.Stat(backups[j])
		return a != nil && b != nil && a.ModTime().Before(b.ModTime())
	})
	for _, b := range backups {
		fh, err := os.Open(b)
		if err != nil {
			continue
		}
		var hit []byte
		_ = session.Find(fh, func(g session.Found) bool {
			if g.EntryID == f.EntryID && g.ToolCallID == f.ToolCallID && g.Timestamp == f.Timestamp && !isNotice(g.Message) {
				hit = g.Message
				return false
			}
			return true
		})
		fh.Close()
		if hit != nil {
			return hit, b
		}
	}
	return nil, ""
}
