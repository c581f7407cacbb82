package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/pruner-dev/pruner/internal/config"
	"github.com/pruner-dev/pruner/internal/protect"
	"github.com/spf13/cobra"
)

// loadProtectRules finds the protected-path deny rules for check and hook,
// first match wins:
//
//  1. --rules FILE;
//  2. contextPrune.protectedPathRules in settings.json (or --config FILE);
//  3. <agentDir>/configs/protected-paths.json if it exists, agentDir being
//     $PI_CODING_AGENT_DIR or ~/.pi/agent (the protected-paths extension's file);
//  4. the built-in defaults.
//
// cfg is the loaded settings (nil: load them here when --rules is not
// given). A rules source that exists but is invalid is an error naming the
// entry: it never falls back to the defaults.
func loadProtectRules(s *IOStreams, cmd *cobra.Command, cfg *config.Config, rulesFile, home string) (*protect.Rules, error) {
	if rulesFile != "" {
		return protect.LoadRules(rulesFile)
	}
	if cfg == nil {
		var err error
		if cfg, err = loadConfigQuiet(s, cmd, nil); err != nil {
			return nil, err
		}
	}
	if r := cfg.Rules(); r != nil {
		return r, nil
	}
	p := protect.DefaultRulesPath(s.Env, home)
	if _, err := os.Stat(p); err == nil {
		return protect.LoadRules(p)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("protected-path rules: %w", err)
	}
	return protect.DefaultRules(), nil
}

// homeDir is $HOME from the streams' environment, else the OS's idea of it.
func homeDir(s *IOStreams) string {
	if h := s.Env("HOME"); h != "" {
		return h
	}
	if h := s.Env("USERPROFILE"); h != "" {
		return h
	}
	h, _ := os.UserHomeDir()
	return h
}
