package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/pruner-dev/pruner/internal/check"
	"github.com/pruner-dev/pruner/internal/session"
	"mvdan.cc/sh/v3/syntax"
)

// bomHint is the command that strips UTF-8 byte order marks from the start
// of name's lines, to paste (check.BOMHint; stdin piped into pruner).
func bomHint(name string) string { return check.BOMHint(name, "pruner …") }

// warningPrinter prints a session's line warnings, with a hint the first
// time a kind of warning has one (a byte order mark: how to strip it).
type warningPrinter struct {
	s      *IOStreams
	name   string
	hinted map[session.WarnCode]bool
}

func newWarningPrinter(s *IOStreams, name string) *warningPrinter {
	return &warningPrinter{s: s, name: name, hinted: map[session.WarnCode]bool{}}
}

func (p *warningPrinter) print(w session.Warning) {
	fmt.Fprintf(p.s.ErrOut, "pruner: warning: %s:%d: %s\n", p.name, w.Line, w.Msg)
	if w.Code == session.WarnBOM && !p.hinted[w.Code] {
		p.hinted[w.Code] = true
		fmt.Fprintf(p.s.ErrOut, "hint: %s\n", bomHint(p.name))
	}
}

// notSessionHint is the hint under a "not a pi session or context" error.
func notSessionHint(err error, name string) string {
	if errors.Is(err, session.ErrBOM) {
		return bomHint(name)
	}
	if prettyPrinted(name) {
		return fmt.Sprintf("the file looks pretty-printed (a JSON value over many lines): pi reads one value per line; jq -c . %s > compact.jsonl writes it one per line", shellQuote(name))
	}
	return "pruner reads pi session files (first line {\"type\":\"session\",…}) or contexts (one {\"role\":…} per line)"
}

// prettyPrinted says whether the file name starts with a line that is a
// lone "{" or "[" (after blank lines): JSON indented over many lines, as
// `jq .` writes it, not one value per line.
func prettyPrinted(name string) bool {
	if name == "" || name == "-" {
		return false
	}
	f, err := os.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	buf := make([]byte, 4096)
	n, _ := io.ReadFull(f, buf)
	for line := range bytes.Lines(buf[:n]) {
		if t := bytes.TrimSpace(line); len(t) > 0 {
			return string(t) == "{" || string(t) == "["
		}
	}
	return false
}

// shellQuote quotes s for a POSIX shell, for a command in a hint to paste
// (s itself when it needs no quotes or cannot be quoted).
func shellQuote(s string) string {
	q, err := syntax.Quote(s, syntax.LangPOSIX)
	if err != nil {
		return s
	}
	return q
}
