package pienv

import (
	"path/filepath"
	"runtime"
	"testing"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// The cases of pi 1.6's getAgentDir (config.js) and normalizePath
// (utils/paths.js) on a POSIX system.
func TestAgentDirAsPi(t *testing.T) {
	home := "/home/me"
	cases := []struct{ value, want string }{
		{"", "/home/me/.pi/agent"},
		{"~", "/home/me"},
		{"~/agents/pi", "/home/me/agents/pi"},
		{"~//x/../y", "/home/me/y"}, // path.join normalises
		{"/srv/pi", "/srv/pi"},
		{"rel/dir", "rel/dir"},
		{"~other/x", "~other/x"}, // only the current user's ~
		{"file:///srv/pi%20agent", "/srv/pi agent"},
	}
	for _, c := range cases {
		got := AgentDir(env(map[string]string{AgentDirVar: c.value}), home)
		if got != filepath.FromSlash(c.want) {
			t.Errorf("PI_CODING_AGENT_DIR=%q: %q, want %q", c.value, got, c.want)
		}
	}
}

func TestHome(t *testing.T) {
	db := func() string { return "/db" }
	if h := Home(env(map[string]string{"HOME": "/h", "USERPROFILE": "/h"}), db); h != "/h" {
		t.Errorf("Home = %q, want /h", h)
	}
	// unset: the user database, like Node's os.homedir()
	if h := Home(env(nil), db); h != "/db" {
		t.Errorf("Home with HOME unset = %q, want the user database's /db", h)
	}
	if h := Home(env(nil), nil); h != "" {
		t.Errorf("Home with neither = %q, want \"\"", h)
	}
}

func TestCacheDirFromTheInjectedEnvironment(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
		t.Skip("XDG layout")
	}
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"HOME": "/h"}, "/h/.cache"},
		{map[string]string{"HOME": "/h", "XDG_CACHE_HOME": "/x"}, "/x"},
		{map[string]string{"HOME": "/h", "XDG_CACHE_HOME": "rel"}, "/h/.cache"}, // relative: ignored, as Go does
		{map[string]string{}, ""},
	} {
		if got := CacheDir(env(tc.env)); got != tc.want {
			t.Errorf("CacheDir(%v) = %q, want %q", tc.env, got, tc.want)
		}
	}
}
