// Command pruner keeps pi coding-agent sessions' context small, safe and
// cache-friendly. See README.md.
package main

import (
	"os"

	"github.com/pruner-dev/pruner/internal/cli"
)

// Set by -ldflags "-X main.version=… -X main.commit=… -X main.date=…".
var (
	version = "dev"
	commit  = "none"
	date    = "unknown"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], cli.System(), cli.BuildInfo{Version: version, Commit: commit, Date: date}))
}
