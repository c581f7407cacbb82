package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/pruner-dev/pruner/internal/config"
	"github.com/pruner-dev/pruner/internal/guard"
	"github.com/spf13/cobra"
)

// loadProtectRules finds the protected-path deny rules for check and hook.
// The base rules are, first match wins:
//
//  1. --rules FILE;
//  2. contextPrune.protectedPathRules in the global settings.json (or
//     --config FILE);
//  3. <agentDir>/configs/protected-paths.json if it exists, agentDir being
//     $PI_CODING_AGENT_DIR or ~/.pi/agent (the protected-paths extension's file);
//  4. the built-in defaults.
//
// The project's .pi/settings.json protectedPathRules are then added to the
// base (a union): a repository can protect more, never less.
//
// cfg is the loaded settings (nil: load them here). A rules source that
// exists but is invalid is an error naming the entry: it never falls back
// to the defaults.
func loadProtectRules(s *IOStreams, cmd *cobra.Command, cfg *config.Config, rulesFile, home string) (*guard.Rules, error) {
	if cfg == nil {
		var err error
		if cfg, err = loadConfigQuiet(s, cmd, nil); err != nil {
			return nil, err
		}
	}
	base, err := baseRules(s, cfg, rulesFile, home)
	if err != nil {
		return nil, err
	}
	return base.Union(cfg.ProjectRules()), nil
}

func baseRules(s *IOStreams, cfg *config.Config, rulesFile, home string) (*guard.Rules, error) {
	if rulesFile != "" {
		return readRules(rulesFile)
	}
	if r := cfg.Rules(); r != nil {
		return r, nil
	}
	p := guard.DefaultRulesPath(s.Env, home)
	if _, err := os.Stat(p); err == nil {
		return readRules(p)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("protected-path rules: %w", err)
	}
	return guard.DefaultRules(), nil
}

// readRules reads and validates a rules file. A missing or unreadable file
// is an error; there is no fallback to the defaults.
func readRules(path string) (*guard.Rules, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("protected-path rules: %w", err)
	}
	return guard.ParseRules(data, path)
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
