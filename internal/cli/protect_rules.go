package cli

import (
	"fmt"
	"os"

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
		return nil, nil, asExit(err)
	}
	return c, rs, nil
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
