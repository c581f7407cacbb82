package cli

import (
	"github.com/pruner-dev/pruner/internal/config"
	"github.com/pruner-dev/pruner/internal/guard"
	"github.com/pruner-dev/pruner/internal/pienv"
	"github.com/spf13/cobra"
)

// loadProtectRules finds the protected-path deny rules for check and hook
// (config.Config.DenyRules): the base is the first of --rules FILE,
// contextPrune.protectedPathRules of the global settings.json (or --config
// FILE), <agentDir>/configs/protected-paths.json, the built-in defaults; the
// project's .pi/settings.json rules are added to it, never replacing it.
//
// cfg is the loaded settings (nil: load them here). A rules source that
// exists but is invalid is an error naming the entry: it never falls back to
// the defaults.
func loadProtectRules(s *IOStreams, cmd *cobra.Command, cfg *config.Config, rulesFile, _ string) (*guard.Rules, error) {
	if cfg == nil {
		var err error
		if cfg, err = loadConfigQuiet(s, cmd, nil); err != nil {
			return nil, err
		}
	}
	rs, err := cfg.DenyRules(rulesFile)
	if err != nil {
		return nil, err
	}
	return rs.Rules, nil
}

// homeDir is the home directory as pi sees it (pienv.Home).
func homeDir(s *IOStreams) string { return pienv.Home(s.Env, s.UserHome) }
