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
		Long: `Print the effective configuration: every key pruner reads (its own, then
pi-condense's keys that drive the flush and the render), each value with its
source. Sources, lowest to highest precedence:

  defaults
  $PI_CODING_AGENT_DIR/settings.json (default ~/.pi/agent/settings.json), key "contextPrune"
  .pi/settings.json in the current directory (merged over it key by key, as pi does)
  environment: ` + envList() + `
  flags of the command

--config FILE reads FILE instead of the two settings files. pi-condense's keys
come from the settings files only.

Other environment variables pruner reads:
  PI_CODING_AGENT_DIR  pi's agent dir (settings.json, configs/protected-paths.json);
                       a leading ~ is expanded as pi expands it
  HOME                 the home directory (USERPROFILE on Windows): ~ in paths and rules
  XDG_CACHE_HOME       --summarizer-cmd summaries are kept in $XDG_CACHE_HOME/pruner/summaries
                       (default ~/.cache; macOS ~/Library/Caches, Windows %LocalAppData%)
  GOMEMLIMIT           the Go heap limit (default: sized to the input)
  GOGC                 the Go collector's pacing (default: off for a session under 4 MiB,
                       whose run fits in the heap limit; Go's 100 otherwise)
  NO_COLOR, TERM=dumb  no colour in 'pruner stats' charts
  TMPDIR               where a non-seekable input (stdin, a pipe) is spooled
  RIPGREP_CONFIG_PATH  hook: ripgrep's config, which may make rg read hidden files
  PATH                 hook, check: a pruner in a folder searched before the running
                       binary's would shadow it: writing one there is denied
  PRUNER_BIN           read by the pi extensions, not by pruner: the binary they run

Keys that make pruner run a command (` + strings.Join(config.TrustedKeys(), ", ") + `) are read only from the
global settings, --config FILE, the environment and flags: a project's
.pi/settings.json comes with whatever repository is checked out, so its value
is ignored, with a warning (listed as "ignored").

The protected-path deny rules of check and hook are listed with the origin of
each rule: protectedPathRules of the global settings (or --config FILE), else
$PI_CODING_AGENT_DIR/configs/protected-paths.json, else the built-in defaults
-- plus the rules of the project's .pi/settings.json, which only add: a
project can never remove or replace a rule. The --rules FILE flag of check
and hook replaces that base for their run only; config has no --rules flag
and does not see it.

Rules that replace the built-in ones (the global settings, the
protected-paths.json file, and check's or hook's --rules FILE) are warned
about, naming each built-in rule (and deny op) they no longer apply, and the
hint gives those rules as entries to add to your list.

With --json: {"contextPrune": {values}, "sources": {key: source},
"ignored": [warnings], "protectedPathRules": [{"path", "deny", "source"}],
"droppedDefaults": [built-in rules no longer applied], "files", "searched"}.

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
				return rulesErr(err, "")
			}
			printDropped(s, rs)
			if o.JSON {
				return writeConfigJSON(s.Out, c, rs)
			}
			return writeConfigText(s.Out, c, rs)
		},
	}
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print JSON")
	return cmd
}

// envList names the environment variables of the config keys, wrapped
// for --help.
func envList() string {
	var names []string
	for _, k := range config.Keys() {
		if e := config.EnvName(k); e != "" {
			names = append(names, e)
		}
	}
	names = append(names, config.PruningVar+"=off")
	var b strings.Builder
	col := 15
	for i, n := range names {
		if i > 0 {
			b.WriteString(",")
			if col+len(n) > 76 {
				b.WriteString("\n               ")
				col = 15
			} else {
				b.WriteString(" ")
			}
		}
		b.WriteString(n)
		col += len(n) + 2
	}
	b.WriteString(" (lists: comma-separated)")
	return b.String()
}

// configRule is one deny rule in `pruner config --json`.
type configRule struct {
	Path   string   `json:"path"`
	Deny   []string `json:"deny"`
	Source string   `json:"source"`
}

// configValue is one key pruner reads, its effective value and source.
type configValue struct {
	Key    string
	Value  json.RawMessage
	Source string
}

// configValues lists every key pruner reads — its own (config.Keys), then
// pi-condense's (config.CondenseKeys) — with the value each has, taken from
// the Config's own JSON encoding (no list kept by hand: a key added to the
// Config is printed, and one missing from it is an error).
func configValues(c *config.Config) ([]configValue, error) {
	var out []configValue
	for _, part := range []struct {
		v    any
		keys []string
	}{{c, config.Keys()}, {c.Condense, config.CondenseKeys()}} {
		b, err := json.MarshalWithOption(part.v, json.DisableHTMLEscape())
		if err != nil {
			return nil, err
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, err
		}
		for _, k := range part.keys {
			v, ok := m[k]
			if !ok {
				return nil, fmt.Errorf("config: key %s has no value", k)
			}
			out = append(out, configValue{Key: k, Value: v, Source: c.Sources[k]})
		}
	}
	return out, nil
}

func writeConfigJSON(w io.Writer, c *config.Config, rs *config.RuleSet) error {
	vals, err := configValues(c)
	if err != nil {
		return err
	}
	rules := make([]configRule, len(rs.Entries))
	for i, e := range rs.Entries {
		rules[i] = configRule{Path: e.Path, Deny: strings.Split(e.Deny.String(), ","), Source: rs.Origins[i]}
	}
	dropped := make([]configRule, len(rs.Dropped))
	for i, e := range rs.Dropped {
		dropped[i] = configRule{Path: e.Path, Deny: strings.Split(e.Deny.String(), ","), Source: e.Source}
	}
	// contextPrune keeps the keys' order (an object built member by member)
	obj := []byte("{")
	for i, v := range vals {
		if i > 0 {
			obj = append(obj, ',')
		}
		k, _ := json.MarshalWithOption(v.Key, json.DisableHTMLEscape())
		obj = append(append(append(obj, k...), ':'), v.Value...)
	}
	obj = append(obj, '}')
	b, err := json.MarshalIndent(struct {
		ContextPrune json.RawMessage   `json:"contextPrune"`
		Sources      map[string]string `json:"sources"`
		Ignored      []string          `json:"ignored"`
		Rules        []configRule      `json:"protectedPathRules"`
		Dropped      []configRule      `json:"droppedDefaults"`
		Files        []string          `json:"files"`
		Searched     []string          `json:"searched"`
	}{obj, c.Sources, nonNil(c.Ignored), rules, dropped, nonNil(c.Files), nonNil(c.Searched)}, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

func writeConfigText(out io.Writer, c *config.Config, rs *config.RuleSet) error {
	vals, err := configValues(c)
	if err != nil {
		return err
	}
	w := &stickyWriter{w: out}
	kw, vw := len(config.RulesKey), 20
	for _, v := range vals {
		kw = max(kw, len(v.Key))
		if len(v.Value) <= 40 {
			vw = max(vw, len(v.Value))
		}
	}
	for i, v := range vals {
		if i == len(config.Keys()) {
			fmt.Fprintln(w, "# pi-condense's keys (batch/index and render)")
		}
		fmt.Fprintf(w, "%-*s %-*s # %s\n", kw, v.Key, vw, string(v.Value), v.Source)
	}
	for _, ig := range c.Ignored {
		fmt.Fprintf(w, "# ignored: %s\n", ig)
	}
	fmt.Fprintf(w, "%-*s %-*s # %s\n", kw, config.RulesKey, vw, fmt.Sprintf("%d deny rules:", len(rs.Entries)), "check and hook; a project's rules only add")
	width := 18
	for _, e := range rs.Entries {
		width = max(width, len(e.Path))
	}
	for i, e := range rs.Entries {
		fmt.Fprintf(w, "  %-*s %-*s # %s\n", width, e.Path, max(1, kw+vw-2-width), e.Deny.String(), rs.Origins[i])
	}
	if len(c.Files) == 0 {
		fmt.Fprintf(w, "# no settings file with a contextPrune key was found (looked for: %s)\n", strings.Join(c.Searched, ", "))
	} else {
		fmt.Fprintf(w, "# files: %s\n", strings.Join(c.Files, ", "))
	}
	if w.err != nil {
		return writeOutErr(w.err)
	}
	return nil
}

// stickyWriter remembers the first write error (and writes nothing after
// it), for output written line by line and checked once.
type stickyWriter struct {
	w   io.Writer
	err error
}

func (s *stickyWriter) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.w.Write(p)
	s.err = err
	return n, err
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
