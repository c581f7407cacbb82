package cli

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// statusLine is a one-line progress display on stderr, redrawn in place at
// most 10 times a second and erased by clear. It prints nothing when off
// (stderr not a terminal, -q, short runs). Safe for concurrent use.
type statusLine struct {
	w       io.Writer
	on      bool
	mu      sync.Mutex
	last    time.Time
	printed bool
}

func newStatusLine(w io.Writer, on bool) *statusLine { return &statusLine{w: w, on: on} }

// show redraws the line; final forces a redraw even inside the 100 ms.
func (p *statusLine) show(final bool, format string, a ...any) {
	if p == nil || !p.on {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if now := time.Now(); final || now.Sub(p.last) >= 100*time.Millisecond {
		p.last = now
		fmt.Fprintf(p.w, "\r"+format, a...)
		p.printed = true
	}
}

// clear erases the line (before a warning, or at the end).
func (p *statusLine) clear() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.printed {
		fmt.Fprint(p.w, "\r\033[K")
		p.printed = false
	}
}

// bar is a 30-column text bar for done of total.
func bar(done, total int) string {
	const width = 30
	fill := width * done / max(total, 1)
	return strings.Repeat("=", fill) + strings.Repeat("-", width-fill)
}

// progressModes are the values of --progress (check, stats).
func progressModes() []string { return []string{"auto", "always", "never"} }
