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

	"github.com/spf13/cobra"
)

// BuildInfo is set by main from -ldflags (goreleaser).
type BuildInfo struct {
	Version string
	Commit  string
	Date    string
}

// NewCmdRoot builds the root command with every subcommand attached.
func NewCmdRoot(s *IOStreams, bi BuildInfo) *cobra.Command {
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
Exit codes: 0 ok, 1 findings, 2 usage/config/IO error.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       bi.Version,
	}
	root.SetVersionTemplate(versionLine(bi) + "\n")
	root.SetIn(s.In)
	root.SetOut(s.Out)
	root.SetErr(s.ErrOut)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &ExitErr{Code: ExitError, Err: cleanFlagError(err), Hint: fmt.Sprintf("see '%s --help'", c.CommandPath())}
	})

	root.AddCommand(
		NewCmdNow(s),
		NewCmdContext(s),
		NewCmdConfig(s),
		NewCmdQuery(s),
		NewCmdRestore(s),
		NewCmdStats(s),
		NewCmdNarrow(s),
		NewCmdCheck(s), NewCmdHook(s),
		NewCmdVersion(s, bi),
	)
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
		}
	}
	return root
}

// Main runs pruner with args (without the program name) and returns the
// process exit code. Errors are printed here, once: "pruner: <error>" plus an
// optional hint line.
func Main(args []string, s *IOStreams, bi BuildInfo) int {
	root := NewCmdRoot(s, bi)
	root.SetArgs(args)
	cmd, err := root.ExecuteC()
	if err != nil {
		var ee *ExitErr
		if errors.As(err, &ee) {
			if ee.Err != nil {
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

var strconvNoise = regexp.MustCompile(`: strconv\.Parse\w+: parsing "[^"]*": (invalid syntax|value out of range)`)

// cleanFlagError drops Go's strconv details from pflag's messages:
// `invalid argument "abc" for "--max-chars" flag: want a number`.
func cleanFlagError(err error) error {
	msg := err.Error()
	if strconvNoise.MatchString(msg) {
		return errors.New(strconvNoise.ReplaceAllString(msg, ": want a number"))
	}
	return err
}
