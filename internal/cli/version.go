package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// NewCmdVersion prints the version, commit and Go version.
func NewCmdVersion(s *IOStreams, bi BuildInfo) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print pruner's version",
		Long: `Print pruner's version, the commit it was built from, the build date and the
Go version. 'pruner --version' prints the same line.`,
		Example: `  pruner version`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if _, err := fmt.Fprintln(s.Out, versionLine(bi)); err != nil {
				return writeOutErr(err)
			}
			return nil
		},
	}
}

// versionLine is "pruner VERSION (commit C, built D, goX)". Values not set by
// -ldflags come from the build info Go embeds (module version, VCS revision
// and time of a `go build` in a git checkout).
func versionLine(bi BuildInfo) string {
	if info, ok := debug.ReadBuildInfo(); ok {
		if bi.Version == "" || bi.Version == "dev" {
			if v := info.Main.Version; v != "" && v != "(devel)" {
				bi.Version = v
			}
		}
		for _, st := range info.Settings {
			switch st.Key {
			case "vcs.revision":
				if bi.Commit == "" || bi.Commit == "none" {
					bi.Commit = st.Value
					if len(bi.Commit) > 12 {
						bi.Commit = bi.Commit[:12]
					}
				}
			case "vcs.time":
				if bi.Date == "" || bi.Date == "unknown" {
					bi.Date = st.Value
				}
			case "vcs.modified":
				if st.Value == "true" && !strings.HasSuffix(bi.Commit, "-dirty") && bi.Commit != "none" {
					bi.Commit += "-dirty"
				}
			}
		}
	}
	return fmt.Sprintf("pruner %s (commit %s, built %s, %s)", bi.Version, bi.Commit, bi.Date, runtime.Version())
}
