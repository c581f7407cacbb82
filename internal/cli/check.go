package cli

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/pruner-dev/pruner/internal/check"
	"github.com/pruner-dev/pruner/internal/guard"
	"github.com/pruner-dev/pruner/internal/hostfs"
	"github.com/pruner-dev/pruner/internal/session"
	"github.com/spf13/cobra"
)

// CheckOptions are the inputs of `pruner check`.
type CheckOptions struct {
	IO *IOStreams

	Paths         []string // files, directories (walked for *.jsonl) or "-"
	Rules         string   // --rules FILE
	Format        string   // --format text|json|sarif
	ExitZero      bool     // --exit-zero: report only
	Jobs          int      // --jobs: parallel files (0 = all CPUs)
	Home          string   // --home: home directory for `~` rules
	CaseSensitive bool     // --case-sensitive
	NoResolve     bool     // --no-resolve: skip symlink resolution
	Progress      string   // --progress auto|always|never
	FailOn        string   // --fail-on error|warning|note
	Quiet         bool     // root --quiet

	cmd      *cobra.Command
	reported bool // the report (text, json or sarif) was written
}

// NewCmdCheck builds `pruner check`.
func NewCmdCheck(s *IOStreams) *cobra.Command {
	o := &CheckOptions{IO: s}
	cmd := &cobra.Command{
		Use:   "check [PATH...|-]",
		Short: "Check saved sessions for protected-path violations and structural problems",
		Long: `Check pi session files (JSONL) for:

  protected-path      a tool call touching a protected path with a denied op
                      (read/grep/find/ls → read, write, edit, bash + the op its
                      command implies), with the line, entry id, tool, path or
                      command, rule and op
  protected-folder    a call reading every file below a folder that holds a
                      protected path (grep -r, tar c ., the grep tool), or
                      writing files into one (tar x, unzip)
  unverifiable        a call the gate cannot analyse ($(…) naming a file, a
                      script read from a pipe); pruner hook denies it
  bash-parse-error    a bash command that does not parse
  unreadable-call     a toolCall block without a name or with odd arguments
  unparseable-line, joined-lines, bad-header, orphan-tool-result,
  duplicate-entry-id, parent-cycle    structural problems
  incomplete-last-line  the last line cut short (no final newline, not
                      JSON): pi is still writing the session; a note
  protected-output-pruned   a tool result that contextPrune.protectedTools or
                      protectedPaths protects, replaced by a pruner notice
                      (a session written by 'pruner now --write')

Each gate finding gets an outcome from the call's result in the session:
  attempt   blocked (the result is a guard's deny) or failed without content  note
  leak      the result returned protected content                            error
  written   a write or edit of a protected path went through                 error
  ran       it ran, and the session does not show what it read or changed   warning
            (a command that printed nothing and did not fail ran)
  no-result the session has no result for it                                 warning
            (error for protected-path: the call names a protected path)

PATH may be a session file, a directory (walked for *.jsonl, e.g.
~/.pi/agent/sessions) or - for stdin (the default when stdin is not a
terminal). Sessions are checked in parallel. Relative paths resolve against
each session's header cwd; ~ is this machine's $HOME unless the cwd lies in
another user's home (/home/<u>, /Users/<u>, C:\Users\<u>) or --home is given.

Rules: --rules FILE, else contextPrune.protectedPathRules in settings.json,
else $PI_CODING_AGENT_DIR/configs/protected-paths.json (~/.pi/agent/…), else
the built-in defaults (path, denied ops):
` + defaultRulesHelp() + `
The committed templates .env.example, .env.sample, .env.template and the fake
values of .env.test stay readable. Rules that replace the defaults get a
warning naming each built-in rule they no longer apply.

Only the settings files and their protectedPathRules must load for the gate;
a bad pruning setting only skips the protected-output-pruned finding, with a
warning naming it. A key meant for the gate that it would not read (a
misspelt protectedPathRules, or one outside contextPrune) is an error (exit 2).

Exit status: 0 clean, 1 findings at --fail-on's level or above (default
warning: attempts alone pass; --fail-on note fails on them too; 0 with
--exit-zero), 2 usage or I/O error, or nothing to check (every input empty).`,
		Example: `  # every session on this machine
  pruner check ~/.pi/agent/sessions

  # CI: SARIF for GitHub code scanning, report only
  pruner check --format sarif --exit-zero sessions/ > pruner.sarif

  # one session from stdin, JSON findings, custom rules
  pruner check --rules protected-paths.json --format json - < session.jsonl

  # CI that also fails on blocked attempts
  pruner check --fail-on note sessions/`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Paths = args
			o.cmd = cmd
			if err := applyJSONFlag(cmd, &o.Format); err != nil {
				return err
			}
			if err := checkEnums(cmd); err != nil {
				return err
			}
			if o.Jobs < 0 {
				return UsageError("--jobs: want a whole number ≥ 0, got %d", o.Jobs)
			}
			if q := cmd.Flags().Lookup("quiet"); q != nil {
				o.Quiet = q.Value.String() == "true"
			}
			return runCheck(o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Rules, "rules", "", "protected-path rules `FILE` ({\"paths\":[{\"path\":…,\"deny\":[…]}]})")
	enumFlag(cmd, &o.Format, "format", "text", "output `FORMAT`: text, json or sarif (SARIF 2.1.0)", []string{"text", "json", "sarif"})
	jsonFlag(cmd)
	f.BoolVar(&o.ExitZero, "exit-zero", false, "exit 0 even when there are findings (report only)")
	f.IntVarP(&o.Jobs, "jobs", "j", 0, "check `N` sessions at once (default: all CPUs)")
	f.StringVar(&o.Home, "home", "", "home `DIR` that ~ in rules means, for every session")
	f.BoolVar(&o.CaseSensitive, "case-sensitive", false, "match paths case-sensitively (default: ignore case)")
	f.BoolVar(&o.NoResolve, "no-resolve", false, "do not look at this machine's disk (symlinks, globs, folder contents): reason from the rules")
	enumFlag(cmd, &o.FailOn, "fail-on", check.LevelWarning, "exit 1 on findings at `LEVEL` or above: error, warning or note", []string{check.LevelError, check.LevelWarning, check.LevelNote})
	enumFlag(cmd, &o.Progress, "progress", "auto", "progress bar on stderr: auto (terminal and long runs), always or never", progressModes())
	return cmd
}

// defaultRulesHelp lists the built-in rules for --help, one per line, from
// the rule table itself (guard.DefaultRules), so the help cannot leave one
// out.
func defaultRulesHelp() string {
	var b strings.Builder
	rules := guard.DefaultRules().Entries
	width := 0
	for _, e := range rules {
		width = max(width, len(e.Path))
	}
	for _, e := range rules {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, e.Path, strings.ReplaceAll(e.Deny.String(), ",", ", "))
	}
	return b.String()
}

func runCheck(o *CheckOptions) error {
	err := o.run()
	var ee *ExitErr
	if !o.reported && (o.Format == "json" || o.Format == "sarif") && errors.As(err, &ee) && ee.Code == ExitError && ee.Err != nil {
		// the run stopped before it checked anything (a missing path,
		// rules that do not load, no input): the document a CI step
		// uploads still says so, and the exit status is the same
		if werr := o.writeReport(nil, []string{ee.Err.Error()}); werr != nil {
			return &ExitErr{Code: ExitError, Err: werr}
		}
	}
	return err
}

// writeReport writes results in o.Format to stdout; failures are the
// run's own errors (json: in "errors"; sarif: toolExecutionNotifications).
func (o *CheckOptions) writeReport(results []check.Result, failures []string) error {
	o.reported = true
	switch o.Format {
	case "json":
		return check.WriteJSON(o.IO.Out, results, failures...)
	case "sarif":
		wd, _ := os.Getwd()
		return check.WriteSARIF(o.IO.Out, results, check.SARIFOptions{Version: o.cmd.Root().Version, Root: hostfs.RepoRoot(wd), Failures: failures})
	}
	return check.WriteText(o.IO.Out, results)
}

func (o *CheckOptions) run() error {
	paths := o.Paths
	if len(paths) == 0 {
		if o.IO.InIsTerminal {
			return &ExitErr{Code: ExitError, Err: errors.New("no input: give session files or directories, or - for stdin"),
				Hint: sessionsDirHint(o.IO)}
		}
		paths = []string{"-"}
	}
	implicitStdin := len(o.Paths) == 0
	inputs, err := check.Expand(paths)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) && errors.Is(err, fs.ErrNotExist) {
			if !strings.HasSuffix(pe.Path, ".jsonl") {
				// a session directory, most likely
				return &ExitErr{Code: ExitError, Err: hostfs.NoSuchFile(pe.Path), Hint: sessionsDirHint(o.IO)}
			}
			return &ExitErr{Code: ExitError, Err: hostfs.NoSuchFile(pe.Path)}
		}
		return &ExitErr{Code: ExitError, Err: err}
	}
	if len(inputs) == 0 {
		return &ExitErr{Code: ExitError, Err: fmt.Errorf("no session files (*.jsonl) found in %s", strings.Join(paths, ", ")),
			Hint: "a directory is walked for *.jsonl files; " + sessionsDirHint(o.IO)}
	}
	home := o.Home
	if home == "" {
		home = homeDir(o.IO)
	}
	gate, rs, err := loadGateRules(o.IO, o.cmd, o.Rules)
	if err != nil {
		return err
	}
	for _, w := range gate.Warnings {
		fmt.Fprintf(o.IO.ErrOut, "pruner: warning: %s\n", w)
	}
	printDropped(o.IO, rs)
	rules := rs.Rules
	opts := check.Options{
		Rules: rules, Home: home, HomeFixed: o.Home != "", CaseSensitive: o.CaseSensitive,
		Workers: o.Jobs,
	}
	// protected-output-pruned needs the pruning settings (protectedTools,
	// protectedPaths); a bad pruning setting skips that finding, never the gate
	if cfg, err := loadConfigQuiet(o.IO, o.cmd, nil); err != nil {
		fmt.Fprintf(o.IO.ErrOut, "pruner: warning: %s: protected-output-pruned is not checked (the gate's findings are)\n", firstLine(err.Error()))
	} else if pred, err := cfg.Predicate(); err != nil {
		fmt.Fprintf(o.IO.ErrOut, "pruner: warning: %s: protected-output-pruned is not checked (the gate's findings are)\n", firstLine(err.Error()))
	} else {
		opts.Predicate = pred
	}
	if !o.NoResolve {
		opts.FS = hostfs.NewCached()
	}
	status := newStatusLine(o.IO.ErrOut, o.Progress == "always" || o.Progress == "auto" && o.IO.ErrIsTerminal && len(inputs) >= 100)
	opts.Progress = func(done, total int) {
		status.show(done == total, "checking [%s] %d/%d sessions", bar(done, total), done, total)
	}
	workers := o.Jobs
	if workers == 0 {
		workers = runtime.NumCPU()
	}
	sizes, known := inputSizes(inputs)
	defer o.IO.limitMemory(checkLimit(sizes, workers))()
	if known && slices.Max(sizes) <= smallCheckInput {
		defer o.IO.collectAtLimit()()
	}
	start := time.Now()
	results := check.Run(inputs, o.IO.In, opts)
	status.clear()

	ioErrs, checked, empty := 0, 0, 0
	for _, r := range results {
		switch {
		case r.Err != nil:
			ioErrs++
		case r.Empty():
			empty++
		default:
			checked++
		}
	}
	var outcome error
	switch {
	case ioErrs > 0:
		outcome = &ExitErr{Code: ExitError}
	case checked == 0 && implicitStdin:
		// no PATH and stdin not a terminal (a CI step, `</dev/null`): check
		// read stdin, and it was empty
		outcome = &ExitErr{Code: ExitError, Err: errors.New("no input: no PATH was given and stdin (not a terminal) is empty"),
			Hint: "give session files or directories, or pipe a session in (pruner check - < session.jsonl); " + sessionsDirHint(o.IO)}
	case checked == 0:
		outcome = &ExitErr{Code: ExitError, Err: errors.New("nothing to check: every input is empty"),
			Hint: "pi writes a session header as the first line of every session file"}
	case check.CountAtLeast(results, o.FailOn) > 0 && !o.ExitZero:
		outcome = Findings()
	}
	var failures []string
	if ee, ok := outcome.(*ExitErr); ok && ee.Code == ExitError && ee.Err != nil {
		failures = []string{ee.Err.Error()}
	}
	if err := o.writeReport(results, failures); err != nil {
		return &ExitErr{Code: ExitError, Err: err}
	}
	notSession := false // its hint given
	var bytes int64
	for _, r := range results {
		bytes += r.Bytes
		switch {
		case r.Err != nil:
			fmt.Fprintf(o.IO.ErrOut, "pruner: %s: %v\n", r.File, hostfs.Cause(r.Err))
			if errors.Is(r.Err, session.ErrNotSession) && !notSession {
				notSession = true
				fmt.Fprintf(o.IO.ErrOut, "hint: %s\n", notSessionHint(r.Err, r.File))
			}
		case r.Empty():
			fmt.Fprintf(o.IO.ErrOut, "pruner: warning: %s: empty: no session to check (pi treats it as no session)\n", r.File)
		}
	}
	n := check.Count(results)
	if !o.Quiet {
		emptyNote := ""
		if empty > 0 {
			emptyNote = fmt.Sprintf(" (%d empty input(s) skipped)", empty)
		}
		fmt.Fprintf(o.IO.ErrOut, "checked %d session(s)%s, %s in %s (%d workers, rules: %s): %d finding(s)\n",
			checked, emptyNote, sizeText(bytes), time.Since(start).Round(time.Millisecond), workers, rules.Source, n)
	}
	return outcome
}

// checkLimit is the heap limit for checking inputs of the given sizes
// (bytes; 0 for stdin or an unreadable path) with workers files at once:
// a check's live heap peaks in the pairing pass's built context (the first
// pass's id and call tables are about half of it), so the limit is
// indexLimit of the workers' largest inputs. Without a limit the collector
// let the first pass's heap grow to twice its live size (1 GB: 271 MB of
// heap, 315 MB RSS); at a fifth of the input (before the index held no
// pointers and 0.09 bytes per input byte) 1 GB peaked at 177 MB RSS.
func checkLimit(sizes []int64, workers int) int64 {
	sizes = slices.Clone(sizes)
	slices.SortFunc(sizes, func(a, b int64) int { return cmp.Compare(b, a) })
	var sum int64
	for _, n := range sizes[:min(max(workers, 1), len(sizes))] {
		sum += n
	}
	return indexLimit(sum)
}

// smallCheckInput is the largest input a check runs without collections
// paced by GOGC, when every input is a regular file: each worker's live
// heap stays under a fifth of its input (a few MB), far under the heap
// limit (memoryLimit at least), so collecting only at the limit marks
// little and runs seldom — from a 4 MB heap the collector ran for every
// few sessions of a directory (2,000 generated sessions, one core:
// 2.4–3.0 → 1.7–1.8 s CPU, peak RSS 44–108 → 125 MB). Stdin's size is
// not known: a large session piped in keeps GOGC's pacing.
const smallCheckInput = 16 << 20

// inputSizes is the size of each input file (0 for stdin and anything
// that is not a regular file); known reports that every input is a
// regular file (none is stdin, a pipe or unreadable).
func inputSizes(inputs []string) (sizes []int64, known bool) {
	sizes = make([]int64, len(inputs))
	known = len(inputs) > 0
	for i, in := range inputs {
		if in == "-" {
			known = false
			continue
		}
		if st, err := os.Stat(in); err == nil && st.Mode().IsRegular() {
			sizes[i] = st.Size()
		} else {
			known = false
		}
	}
	return sizes, known
}

// sizeText is a byte count as the check summary prints it: "3.2 MB", or
// "12.4 KB" below a megabyte (where "0.0 MB" said nothing).
func sizeText(n int64) string {
	if n < 1e6 {
		return fmt.Sprintf("%.1f KB", float64(n)/1e3)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}
