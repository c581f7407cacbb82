// Package blobs places and writes the spill blobs of `pruner now --write`:
// one file per spilled tool result, <session dir>/<session id>-blobs/<name>.txt
// (pi-condense's layout), and says which files `pruner restore` may delete.
//
// A session file is untrusted input: its header id and the paths its
// entries name are never used as they are. The directory is built from the
// session's own path and its header id made safe the way blob names are
// (every byte outside [A-Za-z0-9_-] becomes "_"), so no id reaches outside
// the session's directory; only direct children of that directory with a
// blob-shaped name are ever deleted.
package blobs

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/pruner-dev/pruner/internal/atomicfile"
	"github.com/pruner-dev/pruner/internal/hostfs"
	"github.com/pruner-dev/pruner/internal/index"
)

// maxName caps the session id part of the directory's name, as
// index.BlobName caps a blob's.
const maxName = 200

// SafeID is a session id as a file name: every character outside
// [A-Za-z0-9_-] replaced by "_" (two for one outside the BMP, as
// index.BlobName does), a long id cut with a hash of the whole. A pi session
// id (a UUID) is unchanged; "" stays "".
func SafeID(id string) string {
	var sb strings.Builder
	for _, r := range id {
		switch {
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-':
			sb.WriteRune(r)
		case r > 0xFFFF:
			sb.WriteString("__")
		default:
			sb.WriteByte('_')
		}
	}
	name := sb.String()
	if len(name) > maxName {
		sum := sha256.Sum256([]byte(id))
		name = name[:maxName-17] + "-" + hex.EncodeToString(sum[:8])
	}
	return name
}

// Dir is the blob directory of the session at sessionPath (resolved: see
// Resolve) whose header id is id: "<dir of sessionPath>/<SafeID(id)>-blobs".
// It is "" when the session has no id (nothing is spilled then).
func Dir(sessionPath, id string) string {
	safe := SafeID(id)
	if safe == "" || sessionPath == "" {
		return ""
	}
	return filepath.Join(filepath.Dir(sessionPath), safe+"-blobs")
}

// Resolve is path made absolute and resolved through symlinks (the file a
// write replaces), so a session's blob paths do not depend on the working
// directory or the link it was reached by.
func Resolve(path string) (string, error) {
	p, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", err
	}
	return filepath.Abs(p)
}

// IsName reports whether name is shaped like a blob's file name
// (index.BlobName): 1 to 196 bytes of [A-Za-z0-9_-], then ".txt".
func IsName(name string) bool {
	stem, ok := strings.CutSuffix(name, ".txt")
	if !ok || stem == "" || len(name) > maxName {
		return false
	}
	for i := 0; i < len(stem); i++ {
		c := stem[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// Owned checks that path may be deleted as one of the blobs of the session
// whose blob directory is dir: a direct child of dir (after cleaning; a
// relative path is taken from the working directory) with a blob-shaped
// name. It returns the cleaned path, or why not.
func Owned(dir, path string) (string, error) {
	if dir == "" {
		return "", errors.New("the session has no id, so no blob directory")
	}
	p := path
	if !filepath.IsAbs(p) {
		abs, err := filepath.Abs(p)
		if err != nil {
			return "", err
		}
		p = abs
	}
	p = filepath.Clean(p)
	if filepath.Dir(p) != filepath.Clean(dir) {
		return "", fmt.Errorf("not in the session's blob directory %s", dir)
	}
	if !IsName(filepath.Base(p)) {
		return "", errors.New("not named like a spill blob")
	}
	return p, nil
}

// Plan is the spill of one run: Spill names each blob and remembers its
// text; nothing touches the disk until Write (only `--write` calls it), so
// the context, `--session` and `--write` name the same blobs, and a run
// that fails writes nothing.
type Plan struct {
	dir   string
	paths []string
	texts map[string]string
}

// NewPlan plans blobs in dir (see Dir).
func NewPlan(dir string) *Plan { return &Plan{dir: dir, texts: map[string]string{}} }

// ForSession plans the blobs of the session file at path whose header id
// is id, in its blob directory (Dir of the resolved path): nil when path is
// no regular file or cannot be resolved, or the session has no id — there
// is no place for blobs then, and nothing is spilled.
func ForSession(path, id string) *Plan {
	if id == "" {
		return nil
	}
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
		return nil
	}
	resolved, err := Resolve(path)
	if err != nil {
		return nil
	}
	return NewPlan(Dir(resolved, id))
}

// Dir is the plan's blob directory.
func (p *Plan) Dir() string { return p.dir }

// Spill is index.FlushOptions.Spill: it names the blob of the occurrence
// key and keeps text for Write. It fails (the flush then keeps the result
// inline) when the blob directory cannot hold it: the path is taken by
// something that is not a directory, or the blob exists with other bytes.
func (p *Plan) Spill(key, text string) (string, error) {
	if st, err := os.Lstat(p.dir); err == nil && !st.IsDir() {
		return "", fmt.Errorf("%s exists and is not a directory", p.dir)
	}
	path := filepath.Join(p.dir, index.BlobName(key))
	if old, ok := p.texts[path]; ok {
		if old == text {
			return path, nil
		}
		return "", fmt.Errorf("%s is planned with other content", path)
	}
	if st, err := os.Lstat(path); err == nil {
		if !st.Mode().IsRegular() {
			return "", fmt.Errorf("%s exists and is not a regular file", path)
		}
		if old, err := os.ReadFile(path); err != nil || string(old) != text {
			return "", fmt.Errorf("%s exists with other content", path)
		}
	}
	p.texts[path] = text
	p.paths = append(p.paths, path)
	return path, nil
}

// Text is the planned text of the blob at path (a blob not written yet is
// read from here).
func (p *Plan) Text(path string) (string, bool) {
	t, ok := p.texts[path]
	return t, ok
}

// Pending lists the planned blobs not on disk yet, in order: the ones
// Write creates (and the pruner-write marker lists, for restore).
func (p *Plan) Pending() []string {
	var out []string
	for _, path := range p.paths {
		if old, err := os.ReadFile(path); err == nil && string(old) == p.texts[path] {
			continue
		}
		out = append(out, path)
	}
	return out
}

// Write writes every planned blob atomically and returns those it created
// (a blob already there with the same bytes is not listed: it is not this
// run's). On an error the blobs it created are removed again.
func (p *Plan) Write() ([]string, error) {
	var created []string
	for _, path := range p.paths {
		text := p.texts[path]
		if old, err := os.ReadFile(path); err == nil {
			if string(old) == text {
				continue
			}
			Remove(p.dir, created)
			return nil, fmt.Errorf("%s exists with other content", path)
		}
		if err := os.MkdirAll(p.dir, 0o755); err != nil {
			Remove(p.dir, created)
			return nil, err
		}
		if err := atomicfile.WriteFile(path, []byte(text), 0o644); err != nil {
			Remove(p.dir, created)
			return nil, err
		}
		created = append(created, path)
	}
	return created, nil
}

// Remove deletes the blobs a run created, then dir when it is left empty.
func Remove(dir string, created []string) {
	for _, path := range created {
		_ = os.Remove(path)
	}
	if dir != "" {
		_ = os.Remove(dir) // only when empty
	}
}

// Read reads a spilled output for `pruner query`. The session names the
// path, and a session is untrusted: only a blob-shaped file in the plan's
// blob directory is read; a path elsewhere (the session was moved, or the
// entry was forged) is looked up there by its name, and that place is
// returned as elsewhere ("" when path itself was read). A blob of the
// plan's own (an in-memory flush's spill) is its text, which --write would
// write.
func (p *Plan) Read(path string) (b []byte, elsewhere string, err error) {
	if text, ok := p.Text(path); ok {
		return []byte(text), "", nil
	}
	if owned, err := Owned(p.Dir(), path); err == nil {
		b, err := os.ReadFile(owned)
		return b, "", err
	}
	alt, err := Owned(p.Dir(), filepath.Join(p.Dir(), filepath.Base(path)))
	if err != nil {
		return nil, "", fmt.Errorf("%s is not a blob of this session (%v)", path, err)
	}
	b, err = os.ReadFile(alt)
	if err != nil {
		return nil, "", fmt.Errorf("%s is outside the session's blob directory and %s cannot be read: %w", path, alt, hostfs.Cause(err))
	}
	return b, alt, nil
}
