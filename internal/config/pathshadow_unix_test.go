//go:build unix

package config

import (
	"os"
	"path/filepath"
	"testing"
)

// TestExeDirResolver: a PATH folder is the binary's exactly when its links
// resolve to the binary's folder (filepath.EvalSymlinks, the walk it
// replaces): the folder itself, a link to it, a folder behind a link, a
// chain of links, a path with .. after a link; not a sibling, a link to
// another folder, a missing folder or a file.
func TestExeDirResolver(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(root, "opt", "pr", "bin")
	other := filepath.Join(root, "usr", "bin")
	for _, d := range []string{bin, other, filepath.Join(root, "opt", "pr", "lib")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	exe := filepath.Join(bin, "pruner")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := func(target, name string) string {
		p := filepath.Join(root, name)
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	toBin := link(bin, "tobin")
	toToBin := link(toBin, "totobin")
	toPr := link(filepath.Join(root, "opt", "pr"), "topr")
	relBin := link("opt/pr/bin", "relbin")
	toOther := link(other, "toother")
	folders := []string{
		bin, toBin, toToBin, toPr + "/bin", relBin, toPr + "/lib/../bin", bin + "/",
		other, toOther, toPr + "/lib", filepath.Join(root, "missing"), exe, root, "/",
	}
	resolve := exeDirResolver(exe)
	for _, d := range folders {
		r, err := filepath.EvalSymlinks(d)
		want := err == nil && filepath.Clean(r) == bin
		if got := resolve(filepath.ToSlash(d)) == filepath.ToSlash(bin); got != want {
			t.Errorf("%s: resolves to the binary's folder %v, EvalSymlinks says %v (%q)", d, got, want, r)
		}
		if !want && resolve(filepath.ToSlash(d)) != filepath.ToSlash(d) {
			t.Errorf("%s: another folder resolves to itself, got %q", d, resolve(d))
		}
	}
	if exeDirResolver("") != nil {
		t.Error("no binary: a resolver")
	}
	// a binary whose folder is gone: no folder is its
	gone := exeDirResolver(filepath.Join(root, "gone", "pruner"))
	if got := gone(filepath.ToSlash(bin)); got != filepath.ToSlash(bin) {
		t.Errorf("binary's folder gone: %q", got)
	}
}
