// Package pienv finds pi's directories the way pi 1.6 does: the user's home
// directory (Node's os.homedir) and the agent dir ($PI_CODING_AGENT_DIR with
// "~" expanded, default ~/.pi/agent; pi's getAgentDir). It is the one place
// pruner computes the home directory. The environment and the user database
// are injected: the package does no IO.
package pienv

import (
	"net/url"
	"path/filepath"
	"runtime"
	"strings"
)

// AgentDirVar is the environment variable that moves pi's agent dir.
const AgentDirVar = "PI_CODING_AGENT_DIR"

// Home returns the user's home directory as Node's os.homedir() does: $HOME
// ($USERPROFILE on Windows) when set, else the user database's entry
// (userHome, the caller's lookup; nil or "" when there is none), else "".
func Home(getenv func(string) string, userHome func() string) string {
	name := "HOME"
	if runtime.GOOS == "windows" {
		name = "USERPROFILE"
	}
	if h := getenv(name); h != "" {
		return h
	}
	if userHome != nil {
		return userHome()
	}
	return ""
}

// AgentDir returns pi's agent dir: $PI_CODING_AGENT_DIR with a leading "~"
// or "~/" (also "~\" on Windows) replaced by home and a file:// URL turned
// into its path, as pi's getAgentDir does; <home>/.pi/agent when unset.
func AgentDir(getenv func(string) string, home string) string {
	if d := getenv(AgentDirVar); d != "" {
		return ExpandHome(d, home)
	}
	return filepath.Join(home, ".pi", "agent")
}

// ExpandHome expands p the way pi's normalizePath does: "~" is home, "~/x"
// (and "~\x" on Windows) is home/x, a file:// URL is its path; anything else
// ("~user/x" included) is returned as it is.
func ExpandHome(p, home string) string {
	if p == "~" {
		return home
	}
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		return filepath.Join(home, rest)
	}
	if rest, ok := strings.CutPrefix(p, `~\`); ok && runtime.GOOS == "windows" {
		return filepath.Join(home, rest)
	}
	if strings.HasPrefix(p, "file://") {
		if u, err := url.Parse(p); err == nil && (u.Host == "" || u.Host == "localhost") && u.Path != "" {
			return filepath.FromSlash(u.Path)
		}
	}
	return p
}

// CacheDir is the user's cache directory as os.UserCacheDir finds it, but
// from the injected environment (so a test that sets HOME or XDG_CACHE_HOME
// never reaches the real one): %LocalAppData% on Windows,
// $HOME/Library/Caches on macOS, else $XDG_CACHE_HOME when absolute or
// $HOME/.cache. "" when none can be found (nothing is cached then).
func CacheDir(getenv func(string) string) string {
	switch runtime.GOOS {
	case "windows":
		return getenv("LocalAppData")
	case "darwin", "ios":
		if h := getenv("HOME"); h != "" {
			return filepath.Join(h, "Library", "Caches")
		}
		return ""
	}
	if d := getenv("XDG_CACHE_HOME"); d != "" && filepath.IsAbs(d) {
		return d
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".cache")
	}
	return ""
}
