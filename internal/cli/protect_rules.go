package cli

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/pruner-dev/pruner/internal/config"
	"github.com/pruner-dev/pruner/internal/pienv"
	"github.com/spf13/cobra"
)

// loadGateRules finds the protected-path deny rules for check and hook
// (config.Config.DenyRules): the base is the first of --rules FILE,
// contextPrune.protectedPathRules of the global settings.json (or --config
// FILE), <agentDir>/configs/protected-paths.json, the built-in defaults; the
// project's .pi/settings.json rules are added to it, never replacing it.
//
// Only what the gate needs is loaded (config.LoadGate): a bad pruning
// setting does not stop it. A rules source that exists but is invalid, or a
// settings file that does not parse, is an error naming the file and key: it
// never falls back to the defaults.
func loadGateRules(s *IOStreams, cmd *cobra.Command, rulesFile string) (*config.Config, *config.RuleSet, error) {
	return loadGate(s, cmd, rulesFile, false)
}

// loadGate is loadGateRules; noKeyWarnings skips the settings files'
// unknown-key warnings (Config.Warnings), for hook, which never prints them
// (its stderr is the model's reason).
func loadGate(s *IOStreams, cmd *cobra.Command, rulesFile string, noKeyWarnings bool) (*config.Config, *config.RuleSet, error) {
	path, _ := cmd.Flags().GetString("config")
	wd, _ := os.Getwd()
	c, err := config.LoadGate(config.Options{ConfigFile: path, ProjectDir: wd, Getenv: s.Env, Executable: s.exePath(), NoKeyWarnings: noKeyWarnings})
	if err != nil {
		return nil, nil, configErr(err, path)
	}
	rs, err := c.DenyRules(rulesFile)
	if err != nil {
		return nil, nil, rulesErr(err, rulesFile)
	}
	return c, rs, nil
}

// rulesFileHint is the hint under a --rules FILE that cannot be used.
const rulesFileHint = `--rules takes a JSON rules file: {"paths": [{"path": ".env", "deny": ["read", "write", "edit", "bash"]}]} (or the bare list); ops: read, write, edit, bash; see pruner check --help`

// rulesErr is the exit-2 error of rules that do not load
// (Config.DenyRules): one line naming the file (with line:col for JSON that
// does not parse) and a hint that says what the file must be.
func rulesErr(err error, rulesFile string) error {
	var fe *config.FileError
	var re *config.RulesError
	switch {
	case errors.As(err, &fe) && fe.Path == rulesFile:
		return &ExitErr{Code: ExitError, Err: err, Hint: rulesFileHint}
	case errors.As(err, &fe) && errors.Is(err, config.ErrIsDir):
		return &ExitErr{Code: ExitError, Err: err, Hint: "the rules file pi's protected-paths extension keeps ($PI_CODING_AGENT_DIR/" + config.RulesFileName + ") is a directory: remove it (the built-in rules apply) or make it a rules file"}
	case errors.As(err, &re) && rulesFile != "" && strings.HasPrefix(err.Error(), rulesFile+":"):
		return &ExitErr{Code: ExitError, Err: err, Hint: rulesFileHint}
	case errors.As(err, &re):
		return &ExitErr{Code: ExitError, Err: err, Hint: rulesHint}
	}
	return asExit(err)
}

// printDropped warns, on stderr, about built-in rules the user's rules no
// longer apply (not in hook: its stderr is the model's reason).
func printDropped(s *IOStreams, rs *config.RuleSet) {
	if w := rs.DroppedWarning(); w != "" {
		fmt.Fprintf(s.ErrOut, "pruner: warning: %s\nhint: %s\n", w, rs.DroppedHint())
	}
}

// homeDir is the home directory as pi sees it (pienv.Home).
func homeDir(s *IOStreams) string { return pienv.Home(s.Env, s.UserHome) }
