// Command pruner-man writes pruner's man pages: pruner.1 and one page per
// subcommand (pruner-now.1, …), generated with cobra/doc from the same
// commands the binary runs, so the pages say exactly what --help says.
//
//	go run ./cmd/pruner-man -dir man -version v0.1.0
//
// The date in the pages is $SOURCE_DATE_EPOCH when set (make man sets it to
// the last commit's time), so a release's pages are reproducible.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/pruner-dev/pruner/internal/cli"
	"github.com/spf13/cobra/doc"
)

func main() {
	dir := flag.String("dir", "man", "write the pages into `DIR` (created if missing)")
	version := flag.String("version", "dev", "pruner `VERSION` named in the pages' footer")
	flag.Parse()
	n, err := writePages(*dir, *version)
	if err != nil {
		fmt.Fprintf(os.Stderr, "pruner-man: %v\n", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "pruner-man: %d pages in %s\n", n, *dir)
}

// writePages writes every command's page into dir and returns how many.
func writePages(dir, version string) (int, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	s := &cli.IOStreams{In: eofReader{}, Out: io.Discard, ErrOut: io.Discard, Getenv: func(string) string { return "" }}
	root := cli.NewCmdRoot(s, cli.BuildInfo{Version: version})
	root.DisableAutoGenTag = true
	// no Title: cobra/doc names each page after its command (PRUNER-NOW, …)
	header := &doc.GenManHeader{Section: "1", Source: "pruner " + version, Manual: "pruner manual"}
	if err := doc.GenManTree(root, header, dir); err != nil {
		return 0, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0, err
	}
	return len(entries), nil
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }
