package cli

import (
	"runtime"
	"runtime/debug"
	"testing"
)

// TestFormatVersion: what neither -ldflags nor Go's build info knows is left
// out ("built unknown", "commit none" were printed before).
func TestFormatVersion(t *testing.T) {
	gov := runtime.Version()
	vcs := &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123456789abcdef0123"},
		{Key: "vcs.time", Value: "2026-12-01T10:00:00Z"},
		{Key: "vcs.modified", Value: "true"},
	}}
	for _, tc := range []struct {
		name string
		bi   BuildInfo
		info *debug.BuildInfo
		want string
	}{
		{"nothing known", BuildInfo{Version: "dev", Commit: "none", Date: "unknown"}, nil, "pruner dev (" + gov + ")"},
		{"go build in a checkout", BuildInfo{Version: "dev", Commit: "none", Date: "unknown"}, vcs,
			"pruner dev (commit 0123456789ab-dirty, built 2026-12-01T10:00:00Z, " + gov + ")"},
		{"go install of a tag", BuildInfo{Version: "dev", Commit: "none", Date: "unknown"}, &debug.BuildInfo{Main: debug.Module{Version: "v0.2.0"}},
			"pruner v0.2.0 (" + gov + ")"},
		{"release (ldflags)", BuildInfo{Version: "0.2.0", Commit: "abc1234", Date: "2026-12-01T00:00:00Z"}, vcs,
			"pruner 0.2.0 (commit abc1234-dirty, built 2026-12-01T00:00:00Z, " + gov + ")"},
		{"make build of an untagged commit", BuildInfo{Version: "abc1234", Commit: "abc1234", Date: "2026-12-01T14:14:03Z"}, nil,
			"pruner dev (commit abc1234, built 2026-12-01T14:14:03Z, " + gov + ")"},
		{"make build of an untagged dirty tree", BuildInfo{Version: "abc1234-dirty", Commit: "abc1234", Date: "2026-12-01T14:14:03Z"}, nil,
			"pruner dev (commit abc1234, built 2026-12-01T14:14:03Z, " + gov + ")"},
		{"make build (no date)", BuildInfo{Version: "v0.1.0-3-gabc", Commit: "abc1234", Date: "unknown"}, nil,
			"pruner v0.1.0-3-gabc (commit abc1234, " + gov + ")"},
	} {
		if got := formatVersion(tc.bi, tc.info); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}
