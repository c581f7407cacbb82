package cli

import (
	"fmt"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/pruner-dev/pruner/internal/config"
	"github.com/spf13/cobra"
)

// NewCmdConfig builds `pruner config`: the effective config and sources.
func NewCmdConfig(s *IOStreams) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Print the effective contextPrune config and where each value came from",
		Long: `Print the effective configuration. Sources, lowest to highest precedence:
  defaults
  $PI_CODING_AGENT_DIR/settings.json (default ~/.pi/agent/settings.json), key "contextPrune"
  .pi/settings.json in the current directory (merged one level deep, as pi does)
  environment: PRUNER_ENABLED, PRUNER_PROTECTED_TOOLS, PRUNER_PROTECTED_PATHS (comma lists),
               PRUNER_RECENT_TURNS_TO_KEEP, PRUNER_MAX_RETAINED_CHARS, PRUNER_PRUNING=off
  flags of the command
--config FILE reads FILE instead of the two settings files.`,
		Example: `  pruner config
  PRUNER_PRUNING=off pruner config --json | jq .enabled`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := loadConfig(s, cmd, nil)
			if err != nil {
				return err
			}
			if asJSON {
				type entry struct {
					Value  any    `json:"value"`
					Source string `json:"source"`
				}
				out := map[string]entry{}
				for _, k := range config.Keys {
					if v, ok := value(c, k); ok {
						out[k] = entry{v, c.Sources[k]}
					}
				}
				b, _ := json.MarshalIndent(map[string]any{"contextPrune": out, "files": c.Files}, "", "  ")
				fmt.Fprintf(s.Out, "%s\n", b)
				return nil
			}
			for _, k := range config.Keys {
				v, ok := value(c, k)
				if !ok {
					if k == "protectedPathRules" {
						fmt.Fprintf(s.Out, "%-20s %-40s # %s\n", k, "(not set)", "check/hook use --rules, ~/.pi/agent/configs/protected-paths.json or built-in defaults")
					}
					continue
				}
				b, _ := json.Marshal(v)
				fmt.Fprintf(s.Out, "%-20s %-40s # %s\n", k, string(b), c.Sources[k])
			}
			if len(c.Files) == 0 {
				fmt.Fprintf(s.Out, "# no settings file with a contextPrune key was found (looked for: %s)\n", strings.Join(c.Searched, ", "))
			} else {
				fmt.Fprintf(s.Out, "# files: %s\n", strings.Join(c.Files, ", "))
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func value(c *config.Config, k string) (any, bool) {
	switch k {
	case "enabled":
		return c.Enabled, true
	case "protectedTools":
		return c.ProtectedTools, true
	case "protectedPaths":
		return c.ProtectedPaths, true
	case "recentTurnsToKeep":
		return c.RecentTurnsToKeep, true
	case "maxRetainedChars":
		return c.MaxRetainedChars, true
	case "flush":
		return c.Flush, true
	case "summarizerCmd":
		return c.SummarizerCmd, true
	case "summarizerConcurrency":
		return c.SummarizerConcurrency, true
	case "protectedPathRules":
		if c.ProtectedPathRules == nil {
			return nil, false
		}
		return json.RawMessage(c.ProtectedPathRules), true
	}
	return nil, false
}
