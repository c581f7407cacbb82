package cli

import (
	"slices"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Flag annotations of a string flag with a fixed set of values: the values
// --help and shell completion offer, and the hidden ones also accepted
// (aliases). checkEnums and the completion function read the same list.
const (
	enumAnnotation       = "pruner_enum"
	enumHiddenAnnotation = "pruner_enum_hidden"
)

// enumFlag adds the string flag name to cmd, with the values it takes
// (hidden: also accepted, not offered), registered for shell completion.
// checkEnums validates it against the same values.
func enumFlag(cmd *cobra.Command, p *string, name, def, usage string, values []string, hidden ...string) {
	f := cmd.Flags()
	f.StringVar(p, name, def, usage)
	_ = f.SetAnnotation(name, enumAnnotation, values)
	if len(hidden) > 0 {
		_ = f.SetAnnotation(name, enumHiddenAnnotation, hidden)
	}
	_ = cmd.RegisterFlagCompletionFunc(name, func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		var out []string
		for _, v := range values {
			if strings.HasPrefix(v, toComplete) {
				out = append(out, v)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	})
}

// checkEnums checks every enum flag of cmd (enumFlag) against its values:
// a usage error "--NAME: want a, b or c, got X" for the first that is off,
// in flag-name order.
func checkEnums(cmd *cobra.Command) error {
	type bad struct{ name, want, got string }
	var errs []bad
	cmd.Flags().VisitAll(func(fl *pflag.Flag) {
		values, ok := fl.Annotations[enumAnnotation]
		if !ok {
			return
		}
		got := fl.Value.String()
		if slices.Contains(values, got) || slices.Contains(fl.Annotations[enumHiddenAnnotation], got) {
			return
		}
		errs = append(errs, bad{fl.Name, orList(values), got})
	})
	if len(errs) == 0 {
		return nil
	}
	sort.Slice(errs, func(i, j int) bool { return errs[i].name < errs[j].name })
	return UsageError("--%s: want %s, got %q", errs[0].name, errs[0].want, errs[0].got)
}

// orList joins values as "a, b or c".
func orList(values []string) string {
	if len(values) < 2 {
		return strings.Join(values, "")
	}
	return strings.Join(values[:len(values)-1], ", ") + " or " + values[len(values)-1]
}

// jsonFlag adds --json to cmd, the spelling stats, config and query use,
// as a shorthand for --format json (check, hook: a hook set up with
// `pruner hook --json` would otherwise exit 2, a deny, on every call).
// applyJSONFlag, called before checkEnums, sets format from it.
func jsonFlag(cmd *cobra.Command) {
	cmd.Flags().Bool("json", false, "same as --format json")
}

// applyJSONFlag sets *format to json when --json is given, and refuses
// --json with another --format.
func applyJSONFlag(cmd *cobra.Command, format *string) error {
	if on, _ := cmd.Flags().GetBool("json"); !on {
		return nil
	}
	if cmd.Flags().Changed("format") && *format != "json" {
		return UsageError("--json and --format %s contradict each other (--json is --format json)", *format)
	}
	*format = "json"
	return nil
}

// enumValueFlags names the enum flags of c that take name as a value:
// `--sarif` for `--format sarif`, `--json` for `--report json`.
func enumValueFlags(c *cobra.Command, name string) []string {
	var near []string
	c.Flags().VisitAll(func(fl *pflag.Flag) {
		if !fl.Hidden && slices.Contains(fl.Annotations[enumAnnotation], name) {
			near = append(near, "--"+fl.Name+" "+name)
		}
	})
	return near
}
