package cli

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/pruner-dev/pruner/internal/blobs"
	"github.com/pruner-dev/pruner/internal/hostfs"
	"github.com/pruner-dev/pruner/internal/index"
	"github.com/pruner-dev/pruner/internal/pipeline"
	"github.com/pruner-dev/pruner/internal/query"
	"github.com/pruner-dev/pruner/internal/session"
	"github.com/pruner-dev/pruner/internal/sessionfile"
	"github.com/spf13/cobra"
)

// QueryOptions are the options of `pruner query`.
type QueryOptions struct {
	IO    *IOStreams
	Input string
	Refs  []string // tN, call ids, id@timestamp: resolved through the session's index
	Entry string
	Call  string
	TS    string
	JSON  bool
	// NoFlush answers from the session's own index only (what pi-condense
	// or --write wrote), not from the flush `now` would make.
	NoFlush    bool
	pruneFlags pruneFlags // the flush flags (config keys)
	cmd        *cobra.Command
}

// NewCmdQuery builds `pruner query`: originals back, by ref or by entry.
func NewCmdQuery(s *IOStreams) *cobra.Command {
	o := &QueryOptions{IO: s}
	cmd := &cobra.Command{
		Use:   "query (REF... SESSION | --entry ID [FILE|-] | --call ID [--ts TIMESTAMP] [FILE|-])",
		Short: "Print the original of a summarized or pruned tool result",
		Long: `Print what was summarized or pruned, from the session file.

REF... SESSION answers as pi-condense's context_tree_query tool does, from the
session's context-prune-* index: each REF is a short ref (t3), an occurrence
key (toolCallId@resultTimestamp) or a raw call id (a reused id lists every
occurrence, each labelled id@timestamp). The index is the one 'pruner now'
would leave — the session's own entries plus the flush now makes in memory,
with the same settings (--config, --recent-turns, --protect-tool,
--protect-path as on now) — so every ref 'pruner now SESSION' prints resolves,
with or without --write; --no-flush answers from the file's entries alone. A
chain id (b2, from a <compressed-chain> message; context_tree_query does not
know them) prints the chain's body and then every call it dropped. Each block gives the tool, its
arguments, the status, the turn and the output; a spilled output is read from
its blob (below), else its preview. Outputs are cut at 2000 lines or
50 KB, as context_tree_query cuts them.

--entry ID prints the message of an entry as written in the file (every notice
'pruner now' writes names it); --call ID [--ts TS] prints the results of a call
id (TS: the result message's "timestamp", Unix milliseconds; when several
results answer, stderr says how many and where). 'pruner now --write' only appends, so the originals stay in the file; for a
session an older pruner rewrote in place, a message holding a notice is read
from the FILE.orig-* backup beside FILE.

A spilled output is read only from the session's own <session id>-blobs
directory (a spillPath naming another file is looked up there by its name),
or, for a spill 'pruner now' has not written yet, from the session itself.

Exit status: 0 found, 1 nothing matches, 2 usage or input error.`,
		Example: `  # what t3 was, as context_tree_query would answer the model
  pruner query t3 condensed.jsonl

  # what chain b1 of 'pruner now' replaced (no --write needed)
  pruner query b1 old-session.jsonl

  # every occurrence of a reused call id, as JSON
  pruner query --json bash_1 reused.jsonl | jq -r '.blocks[].label'

  # the original of a masked result (the notice names the entry)
  pruner query --entry ccce329e session.jsonl | jq -r '.content[0].text'
  pruner query --call toolu_01ABC --ts 1764583203000 context.jsonl
  pruner query --entry ccce329e -o original.jsonl session.jsonl`,
		RunE: func(cmd *cobra.Command, args []string) error {
			byEntry := o.Entry != "" || o.Call != ""
			switch {
			case o.Entry != "" && o.Call != "":
				return UsageError("give exactly one of --entry or --call")
			case o.TS != "" && o.Call == "":
				return UsageError("--ts picks one occurrence of a --call id; it does not go with --entry or refs")
			case o.TS != "" && !isMillis(o.TS):
				return &ExitErr{Code: ExitError, Err: fmt.Errorf("--ts %s: not a timestamp", shellQuote(o.TS)),
					Hint: "--ts takes the tool result message's \"timestamp\" as the session writes it, in Unix milliseconds (digits only), e.g. --ts 1764583203000; a reused --call id without --ts lists each result with its timestamp"}
			case byEntry && len(args) > 1:
				return UsageError("--entry and --call take one FILE (got %d arguments); refs go without them: pruner query t3 SESSION", len(args))
			case byEntry && len(args) == 0 && o.Entry != "-" && o.Call != "-" && looksLikeFile(o.Entry+o.Call):
				// `query --entry SESSION`: the id was forgotten and the
				// file taken for it (read from stdin, or "no input")
				flag := "--entry"
				if o.Call != "" {
					flag = "--call"
				}
				return UsageError("%s took %s as the ID, and no SESSION is left: give the ID, then the file: pruner query %s ID %s", flag, shellQuote(o.Entry+o.Call), flag, shellQuote(o.Entry+o.Call))
			case byEntry:
				if len(args) == 1 {
					o.Input = args[0]
				}
				if o.JSON {
					return UsageError("--json goes with refs (pruner query --json t3 SESSION); --entry and --call print the messages themselves")
				}
				return runQuery(o)
			case len(args) == 0:
				return UsageError("nothing to query: give refs and the session (pruner query t3 SESSION), or --entry ID or --call ID")
			case len(args) == 1 && looksLikeFile(args[0]):
				return UsageError("no ref given: %s is the SESSION; put the refs (tN, bN, call ids) before it: pruner query t3 %s", args[0], shellQuote(args[0]))
			case len(args) == 1:
				return UsageError("the SESSION argument is missing: refs go first, then the session file: pruner query %s SESSION", shellQuote(args[0]))
			}
			o.Refs, o.Input = args[:len(args)-1], args[len(args)-1]
			for _, r := range o.Refs {
				if r != "-" && (strings.HasSuffix(r, ".jsonl") || strings.ContainsRune(r, os.PathSeparator)) {
					return UsageError("%s looks like a file, not a ref: query reads one SESSION, the last argument, and every argument before it is a ref (tN, bN, a call id): pruner query t3 SESSION", shellQuote(r))
				}
			}
			return runQueryRefs(o)
		},
	}
	cmd.Flags().StringVar(&o.Entry, "entry", "", "entry `ID` of the message")
	cmd.Flags().StringVar(&o.Call, "call", "", "tool call `ID` of the result (ids can repeat; add --ts)")
	cmd.Flags().StringVar(&o.TS, "ts", "", "message `TIMESTAMP` (Unix milliseconds, as in the session), to pick one occurrence of a reused call id")
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print the answer as JSON (blocks with the records, bodies and where they came from)")
	cmd.Flags().BoolVar(&o.NoFlush, "no-flush", false, "answer from the session's own index only, not from the flush 'pruner now' makes")
	o.pruneFlags = addPruneFlags(cmd.Flags(), flushes, "recent-turns", "protect-tool", "protect-path")
	o.cmd = cmd
	return cmd
}

// looksLikeFile reports whether a lone query argument is the session rather
// than a ref: "-", a path with a separator or a .jsonl name, or a file that
// exists.
func looksLikeFile(arg string) bool {
	if arg == "-" || strings.ContainsRune(arg, os.PathSeparator) || strings.HasSuffix(arg, ".jsonl") {
		return true
	}
	st, err := os.Stat(arg)
	return err == nil && !st.IsDir()
}

// readForQuery reads the input with the options query needs.
func readForQuery(s *IOStreams, input string, ro session.ReadOptions) (*session.Context, string, func(), error) {
	// a signal while a stream is read stops the read (and the spool is
	// removed) instead of waiting for the input to end
	cx := notifyInterrupts()
	defer cx.Stop()
	in, err := openSeekable(cx, s, input)
	if err != nil {
		return nil, "", nil, err
	}
	name, cleanup := in.Name, in.Close
	ro.OnWarning = newWarningPrinter(s, name).print
	ctx, err := session.Read(in.Reader, in.ReaderAt, ro)
	if err == nil {
		err = in.Flush()
	}
	if err != nil {
		cleanup()
		if errors.Is(err, errInterrupted) {
			return nil, "", nil, Interrupted("%s: interrupted", name)
		}
		return nil, "", nil, readError(name, err, "")
	}
	return ctx, name, cleanup, nil
}

// runQueryRefs answers refs as context_tree_query does.
func runQueryRefs(o *QueryOptions) error {
	s := o.IO
	ctx, name, cleanup, err := readForQuery(s, o.Input, session.ReadOptions{Branch: true})
	if err != nil {
		return err
	}
	defer cleanup()
	if ctx.Kind != session.KindSession && len(ctx.Messages) == 0 {
		// an empty file is an empty session to pi (no entries): no ref
		// can match, which is exit 1, as for a session without them
		fmt.Fprintf(s.ErrOut, "pruner: %s: no ref matches: the input is empty (no session header, no entries)\n", name)
		fmt.Fprintln(s.ErrOut, "hint: pi keeps sessions in ~/.pi/agent/sessions/…/*.jsonl; refs (tN, bN) resolve through a session's context-prune-* index")
		return Findings()
	}
	if ctx.Kind != session.KindSession {
		return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s is a context, not a session file: refs resolve through the session's context-prune-* index, and a context has none", name),
			Hint: "query the session file the context came from (~/.pi/agent/sessions/…/*.jsonl), or use --call ID --ts TS on the context"}
	}
	plan := spillPlan(o.Input, nil, ctx)
	st, err := queryState(o, ctx, plan)
	if err != nil {
		return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: %w", name, err)}
	}
	for _, w := range st.Warnings {
		fmt.Fprintf(s.ErrOut, "pruner: warning: %s:%d: %s\n", name, w.Line, w.Msg)
	}
	blocks := st.QueryChains(o.Refs, func(p string) ([]byte, error) {
		return readBlob(s, name, plan, p)
	})
	found := 0
	for _, b := range blocks {
		if b.Found {
			found++
		}
		if b.SpillError != "" {
			fmt.Fprintf(s.ErrOut, "pruner: warning: %s: spilled output of %s unavailable (%s); showing its %s\n", name, b.Label, b.SpillError, map[string]string{"preview": "preview", "missing": "placeholder"}[b.BodyFrom])
		}
	}
	text := index.QueryText(blocks)
	if o.JSON {
		out, err := json.MarshalWithOption(struct {
			Session string             `json:"session"`
			Refs    []string           `json:"refs"`
			Found   int                `json:"found"`
			Blocks  []index.QueryBlock `json:"blocks"`
			Text    string             `json:"text"`
		}{name, o.Refs, found, blocks, text}, json.DisableHTMLEscape()) // code reads as written: "<", not "\u003c"
		if err != nil {
			return &ExitErr{Code: ExitError, Err: err}
		}
		if _, err := fmt.Fprintf(s.Out, "%s\n", out); err != nil {
			return writeOutErr(err)
		}
	} else if _, err := fmt.Fprintln(s.Out, text); err != nil {
		return writeOutErr(err)
	}
	var missing []string
	for _, b := range blocks {
		if !b.Found && !slices.Contains(missing, b.Query) {
			missing = append(missing, b.Query)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	hint := ""
	if st.Entries == 0 && len(st.Chains()) == 0 {
		hint = "this session has no pi-condense index (no context-prune-* entries): nothing in it was summarized; masked results are recovered with --entry ID (the notice names it)"
	} else {
		refs := "no tN refs"
		if r := refRanges("t", st.ToolRefs(st.Keys())); r != "" {
			refs = "refs " + r
		}
		var blockIDs []string
		for _, c := range st.Chains() {
			blockIDs = append(blockIDs, c.BlockID)
		}
		if r := refRanges("b", blockIDs); r != "" {
			refs += ", and chains " + r + " (<compressed-chain id=\"bN\"> messages)"
		}
		hint = fmt.Sprintf("refs are listed in the summaries (**Summarized tool refs**) and stubs; this session's index holds %s, %s (a spilled result has none: query it by its call id, or id@timestamp)", plural(st.Len(), "record"), refs)
	}
	if found == 0 {
		fmt.Fprintf(s.ErrOut, "pruner: %s: no ref matches\n", name)
		fmt.Fprintf(s.ErrOut, "hint: %s\n", hint)
		return Findings()
	}
	// some refs matched: exit 0, but say which did not
	fmt.Fprintf(s.ErrOut, "pruner: warning: %s: not found: %s\n", name, strings.Join(missing, ", "))
	fmt.Fprintf(s.ErrOut, "hint: %s\n", hint)
	return nil
}

// writeOutErr is an error writing the output (stdout or -o FILE): exit 2,
// the output is incomplete.
func writeOutErr(err error) error {
	return &ExitErr{Code: ExitError, Err: fmt.Errorf("writing the output: %w", hostfs.Cause(err))}
}

// readBlob reads a spilled output for query (blobs.Plan.Read: only the
// session's own blob directory), saying where when the blob was found
// elsewhere than its spillPath.
func readBlob(s *IOStreams, name string, plan *blobs.Plan, p string) ([]byte, error) {
	if plan == nil {
		return nil, errors.New("no blob directory (the session was not read from a file)")
	}
	b, alt, err := plan.Read(p)
	if err == nil && alt != "" {
		fmt.Fprintf(s.ErrOut, "pruner: %s: spilled output read from %s (its spillPath %s is not in the session's blob directory)\n", name, alt, p)
	}
	return b, err
}

// queryState is the index `pruner now` leaves for the session
// (query.State): the session's own entries and, unless --no-flush (or
// flush/pruning is off in the settings), the in-memory flush with the same
// settings. plan spills as now would (nothing is written: query only reads).
func queryState(o *QueryOptions, ctx *session.Context, plan *blobs.Plan) (*index.State, error) {
	if o.NoFlush || o.cmd == nil {
		return query.State(ctx, nil)
	}
	c, err := loadConfig(o.IO, o.cmd, o.pruneFlags)
	if err != nil {
		return nil, err
	}
	if !c.Enabled || !c.Flush {
		return query.State(ctx, nil)
	}
	po, err := pipeline.FromConfig(c, shellRunner)
	if err != nil {
		return nil, err
	}
	if plan != nil {
		po.Spill = plan.Spill
	}
	return query.State(ctx, &po)
}

func runQuery(o *QueryOptions) error {
	ctx, name, cleanup, err := readForQuery(o.IO, o.Input, session.ReadOptions{AllEntries: true})
	if err != nil {
		return err
	}
	defer cleanup()
	found, err := query.Messages(ctx, query.Selector{Entry: o.Entry, Call: o.Call, TS: o.TS})
	if err != nil {
		return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: %w", name, err)}
	}
	if len(found) == 0 {
		fmt.Fprintf(o.IO.ErrOut, "pruner: %s: no message matches\n", name)
		switch {
		case ctx.Kind != session.KindSession && len(ctx.Messages) == 0:
			fmt.Fprintln(o.IO.ErrOut, "hint: the input is empty (no session header, no entries): pi keeps sessions in ~/.pi/agent/sessions/…/*.jsonl")
		case o.Entry != "" && ctx.Kind == session.KindContext:
			fmt.Fprintln(o.IO.ErrOut, "hint: entry ids are in the session file; a context (pruner now output) has none: query the session, or use --call ID --ts TS")
		case o.Entry != "":
			fmt.Fprintf(o.IO.ErrOut, "hint: no message entry of this session has id %q (pruner notices name the entry of the result they replace); a summarized result is queried by its ref: pruner query tN SESSION\n", o.Entry)
		case ctx.Kind == session.KindSession:
			fmt.Fprintf(o.IO.ErrOut, "hint: no tool result of %s answers call %q", name, o.Call)
			if o.TS != "" {
				fmt.Fprint(o.IO.ErrOut, " at that --ts")
			}
			fmt.Fprintln(o.IO.ErrOut)
		}
		return Findings()
	}
	if o.Call != "" && len(found) > 1 {
		// several results answer the id (pi reuses ids across sessions'
		// branches, and some providers number calls per turn): all are
		// printed, one per line, as before; say so, and how to pick one
		where := make([]string, len(found))
		for i, f := range found {
			var about []string
			if f.EntryID != "" {
				about = append(about, "entry "+f.EntryID)
			}
			if f.TS != "" {
				about = append(about, "--ts "+f.TS)
			}
			where[i] = fmt.Sprintf("line %d", f.Line)
			if len(about) > 0 {
				where[i] += " (" + strings.Join(about, ", ") + ")"
			}
		}
		fmt.Fprintf(o.IO.ErrOut, "pruner: note: %s: %d results answer call %q, all printed in file order: %s\n", name, len(found), o.Call, strings.Join(where, "; "))
		if o.TS == "" {
			fmt.Fprintln(o.IO.ErrOut, "hint: add --ts TIMESTAMP to print one of them")
		}
	}
	for _, f := range found {
		msg := f.Msg
		if query.IsNotice(msg) && o.Input != "" && o.Input != "-" {
			// rewritten by `now --write`: the original is in a backup beside it
			if orig, backup := query.FromBackups(sessionfile.Backups(o.Input), openBackup, f); orig != nil {
				fmt.Fprintf(o.IO.ErrOut, "pruner: original of line %d from %s\n", f.Line, backup)
				msg = orig
			} else {
				fmt.Fprintf(o.IO.ErrOut, "pruner: warning: %s:%d: the message holds a pruner notice, not the original, and no %s.orig-* backup has it\n", name, f.Line, name)
				if ctx.Kind == session.KindContext {
					fmt.Fprintln(o.IO.ErrOut, "hint: this is a pruned context (pruner now output); the original is in the session it came from: pruner query --call ID --ts TS SESSION")
				}
			}
		}
		if _, err := o.IO.Out.Write(append(msg, '\n')); err != nil {
			return writeOutErr(err)
		}
	}
	return nil
}

// isMillis reports whether ts is a --ts value: digits (Unix milliseconds,
// as pi writes a message's timestamp).
func isMillis(ts string) bool {
	for _, r := range ts {
		if r < '0' || r > '9' {
			return false
		}
	}
	return ts != ""
}

// openBackup opens a FILE.orig-* backup for query.FromBackups.
func openBackup(path string) (query.File, error) { return os.Open(path) }

// refRanges lists the tN refs that exist, runs compressed: "t2…t9, t11,
// t13…t21" ("" when there are none). Refs are numbered as allocated, but a
// spilled or dropped record has none, so the numbers can have gaps.
func refRanges(prefix string, refs []string) string {
	var ns []int
	seen := map[int]bool{}
	for _, r := range refs {
		n, err := strconv.Atoi(strings.TrimPrefix(r, prefix))
		if err != nil || !strings.HasPrefix(r, prefix) || seen[n] {
			continue
		}
		seen[n] = true
		ns = append(ns, n)
	}
	sort.Ints(ns)
	var parts []string
	for i := 0; i < len(ns); {
		j := i
		for j+1 < len(ns) && ns[j+1] == ns[j]+1 {
			j++
		}
		switch {
		case j == i:
			parts = append(parts, fmt.Sprintf("%s%d", prefix, ns[i]))
		case j == i+1:
			parts = append(parts, fmt.Sprintf("%s%d, %s%d", prefix, ns[i], prefix, ns[j]))
		default:
			parts = append(parts, fmt.Sprintf("%s%d…%s%d", prefix, ns[i], prefix, ns[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

// plural is "1 record", "2 records".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
