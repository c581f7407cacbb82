package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/cli"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Every command gets a page with its synopsis, its options and its examples,
// and the pages do not depend on the clock when SOURCE_DATE_EPOCH is set.
func TestManPages(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "1764547200") // 2025-12-01
	dir := t.TempDir()
	if _, err := writePages(dir, "v9.9.9"); err != nil {
		t.Fatal(err)
	}
	root := cli.NewCmdRoot(&cli.IOStreams{}, cli.BuildInfo{})
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if !c.IsAvailableCommand() && c != root {
			return
		}
		name := strings.ReplaceAll(c.CommandPath(), " ", "-") + ".1"
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("%s: no page: %v", c.CommandPath(), err)
			return
		}
		page := string(b)
		// each page's header names its own command (every page said PRUNER)
		title := strings.ToUpper(strings.ReplaceAll(c.CommandPath(), " ", "-"))
		for _, want := range []string{`.TH "` + title + `" "1" "Dec 2025" "pruner v9.9.9"`, ".SH SYNOPSIS", ".SH DESCRIPTION"} {
			if !strings.Contains(page, want) {
				t.Errorf("%s: page lacks %q", name, want)
			}
		}
		if c.Example != "" && !strings.Contains(page, ".SH EXAMPLE") {
			t.Errorf("%s: the examples of --help are missing", name)
		}
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if !f.Hidden && !strings.Contains(page, `\fB--`+f.Name+`\fP`) {
				t.Errorf("%s: option --%s is missing", name, f.Name)
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	if b, _ := os.ReadFile(filepath.Join(dir, "pruner-now.1")); !strings.Contains(string(b), `\fB--output\fP`) {
		t.Error("pruner-now.1 does not document --output")
	}
}
