package sessionfile

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Backups lists the FILE.orig-<hash> backups an older `now --write` left
// beside path, oldest first (the directory is listed: a path with glob
// characters in its name is no pattern). Only regular files count.
func Backups(path string) []string {
	dir, base := filepath.Split(path)
	ents, err := os.ReadDir(filepath.Join(dir, "."))
	if err != nil {
		return nil
	}
	type backup struct {
		path string
		mod  time.Time
	}
	var bs []backup
	for _, e := range ents {
		if !strings.HasPrefix(e.Name(), base+".orig-") {
			continue
		}
		p := filepath.Join(dir, e.Name())
		st, err := os.Stat(p)
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		bs = append(bs, backup{p, st.ModTime()})
	}
	sort.SliceStable(bs, func(i, j int) bool { return bs[i].mod.Before(bs[j].mod) })
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = b.path
	}
	return out
}
