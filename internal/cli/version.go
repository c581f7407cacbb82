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
		Long: `Print pruner's version, the commit it was built from and that commit's time,
and the Go version, as one line:

  pruner VERSION (commit HASH, built DATE, goX)

as far as the build recorded them (a release and 'make build' record all
three; a 'go build' in a git checkout records the commit and its time, Go's
vcs.revision and vcs.time, unless -buildvcs=false); what the build did not
record is left out. A build of an untagged commit is version dev (the hash is
printed once, as the commit). 'pruner --version' prints the same line.`,
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

// versionLine is "pruner VERSION (commit C, built D, goX)", D the commit's
// time (vcs.time, or -X main.date). Values not set by
// -ldflags come from the build info Go embeds (module version, VCS revision
// and time of a `go build` in a git checkout); what neither knows is left
// out, never printed as "unknown" or "none".
func versionLine(bi BuildInfo) string {
	info, _ := debug.ReadBuildInfo()
	return formatVersion(bi, info)
}

// formatVersion is versionLine with the build info given (nil: none).
func formatVersion(bi BuildInfo, info *debug.BuildInfo) string {
	if bi.Commit == "none" || bi.Commit == "unknown" {
		bi.Commit = ""
	}
	if bi.Date == "unknown" || bi.Date == "none" {
		bi.Date = ""
	}
	if info != nil {
		if bi.Version == "" || bi.Version == "dev" {
			if v := info.Main.Version; v != "" && v != "(devel)" {
				bi.Version = v
			}
		}
		modified := false
		for _, st := range info.Settings {
			switch st.Key {
			case "vcs.revision":
				if bi.Commit == "" {
					bi.Commit = st.Value
					if len(bi.Commit) > 12 {
						bi.Commit = bi.Commit[:12]
					}
				}
			case "vcs.time":
				if bi.Date == "" {
					bi.Date = st.Value
				}
			case "vcs.modified":
				modified = st.Value == "true"
			}
		}
		if modified && bi.Commit != "" && !strings.HasSuffix(bi.Commit, "-dirty") {
			bi.Commit += "-dirty"
		}
	}
	// `git describe --always` of an untagged commit is the hash itself:
	// print it once, as the commit
	if v := strings.TrimSuffix(bi.Version, "-dirty"); bi.Commit != "" && v != "" &&
		(strings.HasPrefix(bi.Commit, v) || strings.HasPrefix(v, strings.TrimSuffix(bi.Commit, "-dirty"))) {
		bi.Version = ""
	}
	if bi.Version == "" {
		bi.Version = "dev"
	}
	var parts []string
	if bi.Commit != "" {
		parts = append(parts, "commit "+bi.Commit)
	}
	if bi.Date != "" {
		parts = append(parts, "built "+bi.Date)
	}
	parts = append(parts, runtime.Version())
	return fmt.Sprintf("pruner %s (%s)", bi.Version, strings.Join(parts, ", "))
}
