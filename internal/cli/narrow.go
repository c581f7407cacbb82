package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/pruner-dev/pruner/internal/hostfs"
	"github.com/pruner-dev/pruner/internal/promptnarrow"
	"github.com/spf13/cobra"
)

// NarrowOptions are the inputs of `pruner narrow`.
type NarrowOptions struct {
	IO *IOStreams

	Input      string   // FILE, "-" or "" (stdin when not a terminal)
	Allow      []string // --allow (authoritative when AllowSet)
	AllowSet   bool
	Deny       []string // --deny
	DenySkills []string // --deny-skill
	PolicyFile string   // --policy: pi-permission-system config.json
	Report     string   // --report: text | json | none
	Check      bool     // --check: exit 1 if the prompt lists a tool outside A
	Source     string   // --prompt-source: auto | default | custom
	Quiet      bool     // root --quiet
}

// NewCmdNarrow builds `pruner narrow`. runF replaces the run step in tests
// (nil runs narrowRun).
func NewCmdNarrow(s *IOStreams, runF ...func(*NarrowOptions) error) *cobra.Command {
	opts := &NarrowOptions{IO: s}
	cmd := &cobra.Command{
		Use:   "narrow [FILE|-] (--allow TOOLS | --deny TOOLS | --policy FILE)",
		Short: "Narrow a pi system prompt to an allowed tool set, byte for byte as pi builds it",
		Long: `Narrow a pi system prompt to the allowed tool set A. The result equals the
prompt pi itself builds for A (pi 0.58, 0.79 and 1.x layouts): denied tool
bullets and their guidelines go, guidelines pi adds for a smaller set are
added, the skills block follows pi's rule for A, and everything else stays
byte for byte. Narrowing is idempotent, so the provider's prompt cache
survives from turn 1.

A is the tools the prompt lists, restricted by --allow, minus --deny, minus
tools a --policy fully denies. Names outside pi's built-ins are extension
tools, never an error — except a name one slip (a case, a letter or two)
from a tool the prompt lists (--allow rede): that is a typo, an error with
the name meant, and nothing is written. The narrowed prompt goes to stdout; the report
(layout, lines removed/added, lines kept unattributed) goes to stderr.

A prompt built from a custom SYSTEM.md (it does not start with pi's own
preamble) keeps the user's text byte for byte, even lines that look like
pi's tool list: pi writes no tool list or guidelines for it, so only the
skills block pi appends follows the tool set (0.x: kept only with read;
1.x: with read or bash). Such a prompt lists no tools, so give the allowed
set with --allow. --prompt-source custom says a prompt is a custom one
although it starts like pi's (a SYSTEM.md saved from pi's own prompt).
A default prompt whose sections are not where pi puts them falls back to
dropping tool bullets only, with a warning; text with neither pi's
preamble nor pi's date/cwd lines passes through unchanged.

--policy FILE reads a pi-permission-system config.json
(~/.pi/agent/extensions/pi-permission-system/config.json); only its
"permission" map decides the prompt. Keys are surfaces: "*" (every tool), a
tool name, or "skill"; a value is a state ("allow", "deny", "ask") or a
pattern map of states, the last matching pattern winning:

  {"permission": {"*": "allow",
                  "bash": {"*": "deny"},
                  "write": "deny",
                  "skill": {"*": "allow", "brave-search": "deny"}}}

A tool goes only when everything under it is "deny" (bash above; a bash
map with an "ask" or "allow" pattern keeps bash), a skill when its name
resolves to "deny". An unknown top-level key (pi-permission-system rejects
the file) or a state other than allow, deny or ask is a warning, with "did
you mean" when a known word is near.

Exit status: 0 ok, 1 --check found a tool outside the allowed set,
2 usage or input error.`,
		Example: `  # narrow to read and bash
  pruner narrow prompt.txt --allow read,bash > narrowed.txt

  # drop the editing tools (a read-only agent); JSON report on stderr
  pruner narrow - --deny edit,write --report json < prompt.txt

  # no tools at all, and hide a skill
  pruner narrow prompt.txt --allow '' --deny-skill brave-search

  # apply a pi-permission-system config
  pruner narrow prompt.txt --policy ~/.pi/agent/extensions/pi-permission-system/config.json

  # CI: fail if the prompt lists a tool outside the allowed set
  pruner narrow prompt.txt --allow read,bash --check   # exit 1: it also lists edit and write

  # a prompt pi built from a SYSTEM.md saved from its own default prompt
  pruner narrow prompt.txt --allow bash --prompt-source custom`,
		Args: oneInput("system prompt"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.Input = args[0]
			}
			opts.AllowSet = cmd.Flags().Changed("allow")
			if q := cmd.Flags().Lookup("quiet"); q != nil {
				opts.Quiet = q.Value.String() == "true"
			}
			if err := checkEnums(cmd); err != nil {
				return err
			}
			if !opts.AllowSet && len(opts.Deny) == 0 && opts.PolicyFile == "" && len(opts.DenySkills) == 0 {
				return &ExitErr{Code: ExitError, Err: errors.New("narrow to what? give --allow, --deny, --deny-skill or --policy"),
					Hint: "pruner narrow prompt.txt --allow read,bash"}
			}
			if len(runF) > 0 && runF[0] != nil {
				return runF[0](opts)
			}
			return narrowRun(opts)
		},
	}
	f := cmd.Flags()
	f.StringSliceVar(&opts.Allow, "allow", nil, "allowed `TOOLS`, comma-separated ('' for none)")
	f.StringSliceVar(&opts.Deny, "deny", nil, "denied `TOOLS`, comma-separated")
	f.StringSliceVar(&opts.DenySkills, "deny-skill", nil, "remove skill `NAME` from <available_skills> (repeatable)")
	f.StringVar(&opts.PolicyFile, "policy", "", "pi-permission-system config.json `FILE`: drop fully denied tools and denied skills")
	enumFlag(cmd, &opts.Report, "report", "text", "report `FORMAT` on stderr: text, json or none", []string{"text", "json", "none"})
	f.BoolVar(&opts.Check, "check", false, "print nothing to stdout; exit 1 if the prompt lists a tool outside the allowed set")
	enumFlag(cmd, &opts.Source, "prompt-source", "auto", "which prompt pi built: `SOURCE` auto (detect), default (pi's own) or custom (a SYSTEM.md)", promptnarrow.PromptSources())
	return cmd
}

func narrowRun(o *NarrowOptions) error {
	rc, name, err := openInputHint(o.IO, o.Input, "a system prompt file", "save the prompt pi sends (e.g. from a provider request log) to a file")
	if err != nil {
		return err
	}
	data, err := io.ReadAll(rc)
	rc.Close()
	if err != nil {
		return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: %w", name, err)}
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: binary data (NUL bytes), not a system prompt", name)}
	}
	src, _ := promptnarrow.ParsePromptSource(o.Source)
	popts := promptnarrow.Options{Allow: o.Allow, AllowSet: o.AllowSet, Deny: o.Deny, DenySkills: o.DenySkills, Source: src}
	if o.PolicyFile != "" {
		pb, err := os.ReadFile(o.PolicyFile)
		if err != nil {
			return &ExitErr{Code: ExitError, Err: fmt.Errorf("--policy %s: %w", o.PolicyFile, hostfs.Cause(err))}
		}
		pol, err := promptnarrow.ParsePolicy(pb)
		if err != nil {
			return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: %w", o.PolicyFile, err)}
		}
		for _, w := range pol.Warnings {
			fmt.Fprintf(o.IO.ErrOut, "pruner: warning: %s: %s\n", o.PolicyFile, w)
		}
		popts.Policy = pol
	}
	// a tool both allowed and denied is denied ("A minus --deny"): say so,
	// it is most likely a slip in a script's flags
	for _, t := range o.Deny {
		if o.AllowSet && slices.Contains(o.Allow, t) {
			fmt.Fprintf(o.IO.ErrOut, "pruner: warning: %q is in both --allow and --deny: denied (--deny wins)\n", t)
		}
	}
	out, rep := promptnarrow.Narrow(string(data), popts)
	// a name in --allow/--deny one slip away from a tool the prompt lists
	// (a case or up to two letters: rede, Read, eddit) is a typo, not an
	// extension's tool: narrowing with it would drop the tool meant
	for _, t := range rep.UnlistedTools(append(append([]string{}, o.Allow...), o.Deny...)) {
		if k := promptnarrow.Near(t, rep.ToolsListed); k != "" {
			return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: %q is not a tool this prompt lists; did you mean %q? (nothing written)", name, t, k),
				Hint: "the prompt lists " + strings.Join(rep.ToolsListed, ", ") + "; a tool of an extension that the prompt does not list may be named as it is"}
		}
	}
	for _, k := range rep.UnlistedSkills(o.DenySkills) {
		fmt.Fprintf(o.IO.ErrOut, "pruner: warning: %s: --deny-skill %q: no such skill in pi's <available_skills> block\n", name, k)
	}
	// a name in --allow/--deny that the prompt does not list is most likely a typo
	for _, t := range rep.UnlistedTools(append(append([]string{}, o.Allow...), o.Deny...)) {
		fmt.Fprintf(o.IO.ErrOut, "pruner: warning: %s: %q is not a tool this prompt lists (%s)\n", name, t, strings.Join(rep.ToolsListed, ", "))
	}

	// Warnings (unrecognised layout, passthrough, a result that may differ
	// from pi's) are shown even with --quiet.
	if rep.Layout == promptnarrow.LayoutPlain || rep.Layout == promptnarrow.LayoutNone {
		for _, n := range rep.Notes {
			fmt.Fprintf(o.IO.ErrOut, "pruner: warning: %s: %s\n", name, n)
		}
	}
	for _, n := range rep.Warnings {
		fmt.Fprintf(o.IO.ErrOut, "pruner: warning: %s: %s\n", name, n)
	}
	if o.Check {
		if o.Report == "json" {
			if err := writeJSONReport(o.IO.ErrOut, rep); err != nil {
				return err
			}
		}
		if len(rep.ToolsRemoved) > 0 {
			fmt.Fprintf(o.IO.ErrOut, "%s: lists tools outside the allowed set: %s\n", name, strings.Join(rep.ToolsRemoved, ", "))
			return Findings()
		}
		if rep.Layout == promptnarrow.LayoutNone {
			// nothing was checked: a CI check must not pass it
			return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: not a system prompt pi builds (no tools section found): nothing to check", name),
				Hint: "pass the prompt pi builds (event.systemPrompt in a pi extension, or the system message of a request pi sent); see docs/narrow.md, Where the prompt comes from"}
		}
		if !o.Quiet && o.Report == "text" {
			fmt.Fprintf(o.IO.ErrOut, "%s: ok, every listed tool is allowed: %s\n", name, orNone(rep.ToolsListed))
		}
		return nil
	}
	if _, err := io.WriteString(o.IO.Out, out); err != nil {
		return &ExitErr{Code: ExitError, Err: err}
	}
	switch {
	case o.Report == "json":
		return writeJSONReport(o.IO.ErrOut, rep)
	case o.Report == "text" && !o.Quiet:
		writeTextReport(o.IO.ErrOut, name, rep)
	}
	return nil
}

func writeJSONReport(w io.Writer, rep promptnarrow.Report) error {
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return &ExitErr{Code: ExitError, Err: err}
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

func writeTextReport(w io.Writer, name string, rep promptnarrow.Report) {
	state := "unchanged"
	if rep.Changed {
		state = "narrowed"
	}
	fmt.Fprintf(w, "%s: %s (layout %s", name, state, rep.Layout)
	if rep.CRLF {
		fmt.Fprint(w, ", CRLF")
	}
	fmt.Fprint(w, ")\n")
	if len(rep.ToolsListed) > 0 || (rep.Layout != promptnarrow.LayoutNone && !rep.Custom) {
		fmt.Fprintf(w, "  tools kept:    %s\n", orNone(rep.ToolsKept))
		fmt.Fprintf(w, "  tools removed: %s\n", orNone(rep.ToolsRemoved))
	}
	if len(rep.SkillsRemoved) > 0 {
		fmt.Fprintf(w, "  skills removed: %s\n", strings.Join(rep.SkillsRemoved, ", "))
	}
	for _, l := range rep.LinesRemoved {
		fmt.Fprintf(w, "  line removed: %s\n", l)
	}
	for _, l := range rep.LinesAdded {
		fmt.Fprintf(w, "  line added:   %s\n", l)
	}
	for _, l := range rep.Unattributed {
		fmt.Fprintf(w, "  ? kept, unattributed: %s\n", l)
	}
	if rep.Layout != promptnarrow.LayoutPlain && rep.Layout != promptnarrow.LayoutNone {
		for _, n := range rep.Notes {
			fmt.Fprintf(w, "  note: %s\n", n)
		}
	}
}

func orNone(l []string) string {
	if len(l) == 0 {
		return "(none)"
	}
	return strings.Join(l, ", ")
}
