// Package cli holds pruner's cobra commands: one file per command, each with
// an options struct and a NewCmdX constructor taking injected IOStreams (the
// layout of GitHub's gh). Errors are mapped to exit codes in one place,
// ExitCode; commands never call os.Exit.
package cli

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/agnivade/levenshtein"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// BuildInfo is set by main from -ldflags (goreleaser).
type BuildInfo struct {
	Version string
	Commit  string
	Date    string
}

// NewCmdRoot builds the root command with every subcommand attached.
func NewCmdRoot(s *IOStreams, bi BuildInfo) *cobra.Command {
	return newCmdRoot(s, bi, "")
}

// subcommands are pruner's commands in the order the help lists them, each
// with its constructor.
func subcommands(s *IOStreams, bi BuildInfo) []struct {
	name  string
	build func() *cobra.Command
} {
	return []struct {
		name  string
		build func() *cobra.Command
	}{
		{"now", func() *cobra.Command { return NewCmdNow(s) }},
		{"context", func() *cobra.Command { return NewCmdContext(s) }},
		{"config", func() *cobra.Command { return NewCmdConfig(s) }},
		{"query", func() *cobra.Command { return NewCmdQuery(s) }},
		{"restore", func() *cobra.Command { return NewCmdRestore(s) }},
		{"stats", func() *cobra.Command { return NewCmdStats(s) }},
		{"narrow", func() *cobra.Command { return NewCmdNarrow(s) }},
		{"check", func() *cobra.Command { return NewCmdCheck(s) }},
		{"hook", func() *cobra.Command { return NewCmdHook(s) }},
		{"version", func() *cobra.Command { return NewCmdVersion(s, bi) }},
	}
}

// newCmdRoot builds the root command with every subcommand, or with only
// the one named only: a process runs one command, and building the others
// (their flags, their defaults' text, cobra's completion command) is most of
// the start-up a `pruner hook` call pays for. The command alone behaves as it
// does in the whole tree: its flags, help, errors and exit codes are its own
// (TestOneCommandTree compares them).
func newCmdRoot(s *IOStreams, bi BuildInfo, only string) *cobra.Command {
	root := &cobra.Command{
		Use:   "pruner <command>",
		Short: "Keep pi sessions' context small, safe and cache-friendly",
		Long: `pruner reads pi coding-agent sessions (JSONL) and writes:

  pruned context   pruner now SESSION        messages pi would send, old bulky tool results summarised or masked
  full context     pruner context SESSION    the same messages, unpruned (mirrors pi's buildSessionContext)
  an original      pruner query tN SESSION   a pruned result back, by ref, entry id or call id
  undo --write     pruner restore SESSION    the session as it was before 'pruner now --write'
  savings          pruner stats SESSION…     per strategy and tool, before → after, where the prompt cache breaks
  narrowed prompt  pruner narrow PROMPT      system prompt reduced to an allowed tool set
  findings         pruner check PATH…        saved sessions checked against protected-path deny rules
  a verdict        pruner hook               one live tool call (stdin) allowed or denied
  settings         pruner config             the effective config, each value's source, the deny rules
  version          pruner version            version, commit and Go version

Config is the "contextPrune" key of pi's settings.json (see 'pruner config').
Exit codes: 0 ok, 1 findings, 2 usage/config/IO error, 130 interrupted (SIGINT, SIGTERM).`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       bi.Version,
	}
	if only == "" {
		// root's --version (not inherited by a subcommand: only the whole
		// tree can be asked for it); the build info is read only here
		root.SetVersionTemplate(versionLine(bi) + "\n")
	} else {
		// `pruner completion …` and `pruner __complete …` build the whole tree
		root.CompletionOptions.DisableDefaultCmd = true
	}
	root.SetIn(s.In)
	root.SetOut(s.Out)
	root.SetErr(s.ErrOut)
	root.SetHelpCommand(newCmdHelp())
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		hint := fmt.Sprintf("see '%s --help'", c.CommandPath())
		if near := nearFlags(c, err); len(near) > 0 {
			hint = fmt.Sprintf("did you mean %s? (see '%s --help')", strings.Join(near, " or "), c.CommandPath())
		}
		return &ExitErr{Code: ExitError, Err: cleanFlagError(err), Hint: hint}
	})

	for _, c := range subcommands(s, bi) {
		if only == "" || c.name == only {
			root.AddCommand(c.build())
		}
	}
	// --config and -q only where they mean something
	for _, c := range root.Commands() {
		switch c.Name() {
		case "now", "stats", "config", "check", "hook", "query":
			c.Flags().String("config", "", "read contextPrune settings from `FILE` instead of pi's settings.json files")
		}
		switch c.Name() {
		case "now", "context":
			addOutputFlag(s, c, argsAndConfig)
		case "query":
			addOutputFlag(s, c, queryInputs)
		}
		switch c.Name() {
		case "now", "stats", "context", "check", "narrow":
			c.Flags().BoolP("quiet", "q", false, "no summary or progress on stderr (warnings are still shown)")
		case "query":
			// query prints no summary; -q is taken so a loop over the
			// reading commands can pass it to each
			c.Flags().BoolP("quiet", "q", false, "accepted for symmetry: query prints no summary or progress (warnings are still shown)")
		}
	}
	return root
}

// Main runs pruner with args (without the program name) and returns the
// process exit code. Errors are printed here, once: "pruner: <error>" plus an
// optional hint line.
func Main(args []string, s *IOStreams, bi BuildInfo) int {
	return execute(newCmdRoot(s, bi, commandNamed(args, s, bi)), args, s)
}

// execute runs root with args and maps its error to the exit code.
func execute(root *cobra.Command, args []string, s *IOStreams) int {
	root.SetArgs(args)
	cmd, err := root.ExecuteC()
	if err != nil {
		var ee *ExitErr
		if errors.As(err, &ee) {
			if multi, ok := ee.Err.(interface{ Unwrap() []error }); ok {
				// several errors (every bad settings value): a line each
				for _, e := range multi.Unwrap() {
					fmt.Fprintf(s.ErrOut, "pruner: %s\n", strings.TrimRight(e.Error(), "\n"))
				}
			} else if ee.Err != nil {
				fmt.Fprintf(s.ErrOut, "pruner: %s\n", strings.TrimRight(ee.Err.Error(), "\n"))
			}
			if ee.Hint != "" {
				fmt.Fprintf(s.ErrOut, "hint: %s\n", ee.Hint)
			}
		} else {
			// cobra's own errors (argument counts, unknown commands): usage errors
			fmt.Fprintf(s.ErrOut, "pruner: %s\n", strings.TrimRight(err.Error(), "\n"))
			path := "pruner"
			if cmd != nil {
				path = cmd.CommandPath()
			}
			fmt.Fprintf(s.ErrOut, "hint: see '%s --help'\n", path)
			return ExitError
		}
	}
	return ExitCode(err)
}

// commandNamed is the subcommand args run when their first word names one
// ("" otherwise: flags, help, completion, a typo — the whole tree answers).
func commandNamed(args []string, s *IOStreams, bi BuildInfo) string {
	if len(args) == 0 {
		return ""
	}
	for _, c := range subcommands(s, bi) {
		if c.name == args[0] {
			return c.name
		}
	}
	return ""
}

// newCmdHelp is cobra's help command, except that an unknown topic is a
// usage error (exit 2) with the commands it may mean, not the root's usage
// and exit 0.
func newCmdHelp() *cobra.Command {
	return &cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		Long:  "Help provides help for any command in the application.\nSimply type pruner help [path to command] for full details.",
		ValidArgsFunction: func(c *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			var out []cobra.Completion
			if len(args) == 0 {
				for _, sub := range c.Root().Commands() {
					if sub.IsAvailableCommand() && strings.HasPrefix(sub.Name(), toComplete) {
						out = append(out, cobra.CompletionWithDesc(sub.Name(), sub.Short))
					}
				}
			}
			return out, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(c *cobra.Command, args []string) error {
			cmd, rest, err := c.Root().Find(args)
			if err != nil || cmd == nil || len(rest) > 0 {
				topic := strings.Join(args, " ")
				hint := "see 'pruner --help' for the commands"
				if near := c.Root().SuggestionsFor(args[len(args)-1]); len(near) > 0 {
					hint = fmt.Sprintf("did you mean %s? (%s)", strings.Join(near, " or "), hint)
				}
				return &ExitErr{Code: ExitError, Err: fmt.Errorf("unknown help topic %q", topic), Hint: hint}
			}
			cmd.InitDefaultHelpFlag()
			return cmd.Help()
		},
	}
}

// nearFlags names the flags of c an unknown long flag may have meant: one
// it begins (`--stats` → `--stats-json`) or one within two edits.
func nearFlags(c *cobra.Command, err error) []string {
	name, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
	if !ok || name == "" {
		return nil
	}
	name, _, _ = strings.Cut(name, "=")
	// a value given as a flag: --sarif for --format sarif
	near := enumValueFlags(c, name)
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if f.Hidden || len(near) >= 3 {
			return
		}
		// a prefix (--stat), a slip (--recnet-turns) or a word of the
		// flag's name (--json for --stats-json)
		word := len(name) >= 3 && strings.Contains("-"+f.Name+"-", "-"+name+"-")
		d := levenshtein.ComputeDistance(name, f.Name)
		if strings.HasPrefix(f.Name, name) || word || (len(name) > 3 && d <= 2) || (len(name) == 3 && d <= 1) {
			near = append(near, "--"+f.Name)
		}
	})
	return near
}

// cleanFlagError drops Go's strconv details from pflag's messages:
// `invalid argument "abc" for "--max-chars" flag: want a number`. The
// pattern is compiled here, on a flag error (one a run), not at every
// start-up.
func cleanFlagError(err error) error {
	msg := err.Error()
	if !strings.Contains(msg, ": strconv.Parse") {
		return err
	}
	re := regexp.MustCompile(`: strconv\.Parse\w+: parsing "[^"]*": (invalid syntax|value out of range)`)
	if re.MatchString(msg) {
		return errors.New(re.ReplaceAllString(msg, ": want a number"))
	}
	return err
}
