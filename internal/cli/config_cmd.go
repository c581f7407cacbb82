package cli

import (
	"fmt"
	"io"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/pruner-dev/pruner/internal/config"
	"github.com/spf13/cobra"
)

// ConfigOptions are the options of `pruner config`.
type ConfigOptions struct {
	IO   *IOStreams
	JSON bool
}

// NewCmdConfig builds `pruner config`: the effective config and sources.
func NewCmdConfig(s *IOStreams) *cobra.Command {
	o := &ConfigOptions{IO: s}
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Print the effective contextPrune config and where each value came from",
		Long: `Print the effective configuration, each value with its source. Sources, lowest
to highest precedence:

  defaults
  $PI_CODING_AGENT_DIR/settings.json (default ~/.pi/agent/settings.json), key "contextPrune"
  .pi/settings.json in the current directory (merged over it key by key, as pi does)
  environment: PRUNER_ENABLED, PRUNER_PROTECTED_TOOLS, PRUNER_PROTECTED_PATHS (comma lists),
               PRUNER_RECENT_TURNS_TO_KEEP, PRUNER_MAX_RETAINED_CHARS, PRUNER_PRUNING=off
  flags of the command

--config FILE reads FILE instead of the two settings files.

The protected-path deny rules of check and hook are listed with the origin of
each rule: --rules FILE, else protectedPathRules of the global settings (or
--config FILE), else $PI_CODING_AGENT_DIR/configs/protected-paths.json, else
the built-in defaults -- plus the rules of the project's .pi/settings.json,
which only add: a project can never remove or replace a rule.

With --json: {"contextPrune": {values}, "sources": {key: source},
"protectedPathRules": [{"path", "deny", "source"}], "files", "searched"}.

Exit status: 0 ok, 2 a settings or rules file is broken.`,
		Example: `  pruner config
  PRUNER_PRUNING=off pruner config --json | jq .contextPrune.enabled
  pruner config --json | jq -r '.protectedPathRules[] | "\(.path)\t\(.source)"'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := loadConfig(s, cmd, nil)
			if err != nil {
				return err
			}
			rs, err := c.DenyRules("")
			if err != nil {
				return asExit(err)
			}
			if o.JSON {
				return writeConfigJSON(s.Out, c, rs)
			}
			writeConfigText(s.Out, c, rs)
			return nil
		},
	}
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print JSON")
	return cmd
}

// configRule is one deny rule in `pruner config --json`.
type configRule struct {
	Path   string   `json:"path"`
	Deny   []string `json:"deny"`
	Source string   `json:"source"`
}

func writeConfigJSON(w io.Writer, c *config.Config, rs *config.RuleSet) error {
	rules := make([]configRule, len(rs.Entries))
	for i, e := range rs.Entries {
		rules[i] = configRule{Path: e.Path, Deny: strings.Split(e.Deny.String(), ","), Source: rs.Origins[i]}
	}
	b, err := json.MarshalIndent(struct {
		ContextPrune *config.Config    `json:"contextPrune"`
		Sources      map[string]string `json:"sources"`
		Rules        []configRule      `json:"protectedPathRules"`
		Files        []string          `json:"files"`
		Searched     []string          `json:"searched"`
	}{c, c.Sources, rules, nonNil(c.Files), nonNil(c.Searched)}, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

func writeConfigText(w io.Writer, c *config.Config, rs *config.RuleSet) {
	values := map[string]any{
		"enabled": c.Enabled, "protectedTools": c.ProtectedTools, "protectedPaths": c.ProtectedPaths,
		"recentTurnsToKeep": c.RecentTurnsToKeep, "maxRetainedChars": c.MaxRetainedChars,
		"flush": c.Flush, "summarizerCmd": c.SummarizerCmd, "summarizerConcurrency": c.SummarizerConcurrency,
	}
	for _, k := range config.Keys() {
		b, _ := json.Marshal(values[k])
		fmt.Fprintf(w, "%-20s %-40s # %s\n", k, string(b), c.Sources[k])
	}
	fmt.Fprintf(w, "%-20s %-40s # %s\n", config.RulesKey, fmt.Sprintf("%d deny rules:", len(rs.Entries)), "check and hook; a project's rules only add")
	width := 18
	for _, e := range rs.Entries {
		width = max(width, len(e.Path))
	}
	for i, e := range rs.Entries {
		fmt.Fprintf(w, "  %-*s %-*s # %s\n", width, e.Path, max(1, 58-width), e.Deny.String(), rs.Origins[i])
	}
	if len(c.Files) == 0 {
		fmt.Fprintf(w, "# no settings file with a contextPrune key was found (looked for: %s)\n", strings.Join(c.Searched, ", "))
	} else {
		fmt.Fprintf(w, "# files: %s\n", strings.Join(c.Files, ", "))
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
