package cli

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/pruner-dev/pruner/internal/pipeline"
)

// statsSchemaVersion is the version of `pruner stats --json`'s document
// (docs/stats.md); it changes only when a field changes meaning or goes.
const statsSchemaVersion = 1

// statsDoc is `pruner stats --json`.
type statsDoc struct {
	SchemaVersion int             `json:"schemaVersion"`
	Sessions      []statsSession  `json:"sessions"`
	Skipped       []statsProblem  `json:"skipped"`
	Errors        []statsProblem  `json:"errors"`
	Total         statsTotalBlock `json:"total"`
}

type statsSession struct {
	Input string `json:"input"`
	*pipeline.Report
	Warnings           int    `json:"warnings"`
	SummariesEstimated int    `json:"summariesEstimated"`
	FlushSkipped       string `json:"flushSkipped,omitempty"`
}

type statsProblem struct {
	Input string `json:"input"`
	Error string `json:"error"`
}

type statsTotalBlock struct {
	Sessions int `json:"sessions"`
	pipeline.Tally
	SavedPercent float64                               `json:"savedPercent"`
	Strategies   map[pipeline.Strategy]*pipeline.Tally `json:"strategies"`
	Tools        map[string]*pipeline.ToolTally        `json:"tools"`
	Cache        statsTotalCache                       `json:"cache"`
}

// statsTotalCache sums the previous-turn breaks of the sessions that have
// one.
type statsTotalCache struct {
	PreviousTurn struct {
		Sessions        int   `json:"sessions"`        // sessions with an earlier turn
		Reused          int   `json:"reused"`          // of which the previous request is a prefix of the new one
		CachedTokens    int64 `json:"cachedTokens"`    // sum of the tokens before each break
		ReferenceTokens int64 `json:"referenceTokens"` // sum of the previous requests' tokens
	} `json:"previousTurn"`
}

// total sums the reports of rs.
func total(rs []statsResult) (*pipeline.Report, statsTotalCache, int) {
	t := pipeline.NewReport()
	var c statsTotalCache
	n := 0
	for _, r := range rs {
		if r.Report == nil {
			continue
		}
		n++
		t.Add(r.Report)
		if p := r.Report.Cache.PreviousTurn; p != nil {
			c.PreviousTurn.Sessions++
			if p.Reused {
				c.PreviousTurn.Reused++
			}
			c.PreviousTurn.CachedTokens += p.CachedTokens
			c.PreviousTurn.ReferenceTokens += p.ReferenceTokens
		}
	}
	return t, c, n
}

func writeStatsJSON(w io.Writer, rs []statsResult) error {
	doc := statsDoc{SchemaVersion: statsSchemaVersion, Sessions: []statsSession{}, Skipped: []statsProblem{}, Errors: []statsProblem{}}
	for _, r := range rs {
		switch {
		case r.Err != nil:
			doc.Errors = append(doc.Errors, statsProblem{r.Input, r.Err.Error()})
		case r.Skipped != "":
			doc.Skipped = append(doc.Skipped, statsProblem{r.Input, r.Skipped})
		default:
			doc.Sessions = append(doc.Sessions, statsSession{Input: r.Input, Report: r.Report, Warnings: r.NWarnings,
				SummariesEstimated: r.Estimated, FlushSkipped: r.FlushSkipped})
		}
	}
	t, c, n := total(rs)
	doc.Total = statsTotalBlock{Sessions: n, Tally: t.Total, SavedPercent: t.SavedPercent, Strategies: t.Strategies, Tools: t.Tools, Cache: c}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false) // "<stdin>", not "\u003cstdin\u003e"
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

type textOptions struct {
	Each  bool // the full report of each of several sessions
	Color bool
}

func writeStatsText(w io.Writer, rs []statsResult, o textOptions) error {
	bw := bufio.NewWriter(w)
	var ok []statsResult
	for _, r := range rs {
		if r.Report != nil {
			ok = append(ok, r)
		}
	}
	switch {
	case len(ok) == 0:
		// every input failed, each reported on stderr: stdout stays empty
		// (a script's `pruner stats x > report` gets no report, not a line
		// that reads like one)
	case len(ok) == 1:
		writeSessionText(bw, ok[0], o)
	default:
		if o.Each {
			for _, r := range ok {
				writeSessionText(bw, r, o)
				fmt.Fprintln(bw)
			}
		}
		writeSessionsTable(bw, ok, o)
		t, c, n := total(ok)
		fmt.Fprintf(bw, "\ntotal, %d sessions: %s\n\n", n, headline(t))
		writeReportTables(bw, t, o)
		if p := c.PreviousTurn; p.Sessions > 0 {
			fmt.Fprintf(bw, "\nprompt cache vs previous turn: %d of %d sessions reuse the whole previous request; ~%s of ~%s tokens reused (%s)\n",
				p.Reused, p.Sessions, group(p.CachedTokens), group(p.ReferenceTokens), percent(p.CachedTokens, p.ReferenceTokens))
		}
	}
	return bw.Flush()
}

// headline is a report's one-line summary.
func headline(r *pipeline.Report) string {
	t := r.Total
	saved := "unchanged"
	if t.CharsBefore != t.CharsAfter {
		saved = fmt.Sprintf("%+.1f%%", -t.SavedPercent())
	}
	s := fmt.Sprintf("%d → %d messages, %s → %s chars, ~%s → ~%s tokens (%s)",
		t.MessagesBefore, t.MessagesAfter, group(t.CharsBefore), group(t.CharsAfter), group(t.TokensBefore), group(t.TokensAfter), saved)
	if !r.Pruning {
		s += "; pruning is off (enabled: false or PRUNER_PRUNING=off)"
	}
	return s
}

func writeSessionText(w io.Writer, r statsResult, o textOptions) {
	rep := r.Report
	fmt.Fprintf(w, "%s (%s): %s\n", r.Input, rep.Kind, headline(rep))
	if r.Estimated > 0 {
		fmt.Fprintf(w, "note: %d flush summaries are deterministic stand-ins: summarizerCmd has not summarised those batches yet ('pruner now' does, and caches them)\n", r.Estimated)
	}
	fmt.Fprintln(w)
	writeReportTables(w, rep, o)
	fmt.Fprintln(w)
	fmt.Fprintln(w, "prompt cache")
	fmt.Fprintf(w, "  vs unpruned context:  %s\n", describeBreak(&rep.Cache.Unpruned, "the unpruned context", true))
	if p := rep.Cache.PreviousTurn; p != nil {
		fmt.Fprintf(w, "  vs previous turn:     %s\n", describeBreak(p, "the previous request", false))
		fmt.Fprintf(w, "                        (the session read up to line %s, before its newest user message)\n", group(int64(p.TurnLine)))
	} else {
		fmt.Fprintf(w, "  vs previous turn:     none (no user turn before the newest)\n")
	}
}

// describeBreak says where the cache breaks, in words.
func describeBreak(b *pipeline.CacheBreak, ref string, unpruned bool) string {
	var s string
	switch {
	case b.FirstChanged < 0:
		return fmt.Sprintf("identical to %s: all %d messages, ~%s tokens reused", ref, b.CachedMessages, group(b.CachedTokens))
	case b.Reused:
		return fmt.Sprintf("%s is a prefix: all %d of its messages, ~%s tokens reused; new from message %d (byte %s)",
			ref, b.ReferenceMessages, group(b.CachedTokens), b.FirstChanged, group(b.FirstChangedByte))
	case b.At == nil:
		s = fmt.Sprintf("breaks at message %d (byte %s): the pruned context ends there; %s goes on with %s", b.FirstChanged, group(b.FirstChangedByte), ref, describeSite(b.Was, true))
	case b.Was == nil:
		s = fmt.Sprintf("breaks at message %d (byte %s): %s", b.FirstChanged, group(b.FirstChangedByte), describeSite(b.At, true))
	case sameSite(b.At, b.Was) && unpruned:
		s = fmt.Sprintf("breaks at message %d (byte %s): %s, %s", b.FirstChanged, group(b.FirstChangedByte), describeSite(b.At, false), b.At.Strategy)
	case sameSite(b.At, b.Was) && b.At.Strategy == b.Was.Strategy:
		s = fmt.Sprintf("breaks at message %d (byte %s): %s, %s then and now (other bytes)", b.FirstChanged, group(b.FirstChangedByte), describeSite(b.At, false), b.At.Strategy)
	case sameSite(b.At, b.Was):
		s = fmt.Sprintf("breaks at message %d (byte %s): %s, %s then, %s now", b.FirstChanged, group(b.FirstChangedByte), describeSite(b.At, false), b.Was.Strategy, b.At.Strategy)
	default:
		s = fmt.Sprintf("breaks at message %d (byte %s): %s there, now %s", b.FirstChanged, group(b.FirstChangedByte), describeSite(b.Was, true), describeSite(b.At, true))
	}
	return s + fmt.Sprintf("; ~%s tokens before it reused (%s of %s)", group(b.CachedTokens), percent(b.CachedTokens, b.ReferenceTokens), ref)
}

// sameSite reports whether two sites are the same input message.
func sameSite(a, b *pipeline.Site) bool {
	return a.Line > 0 && a.Line == b.Line && a.EntryID == b.EntryID && a.Role == b.Role
}

// describeSite names a message: "a stubbed bash result (entry …, line …)".
func describeSite(s *pipeline.Site, strategy bool) string {
	what := s.Role + " message"
	if s.ToolName != "" {
		what = s.ToolName + " result"
	}
	if strategy && s.Strategy != pipeline.Other {
		what = string(s.Strategy) + " " + what
	}
	switch {
	case s.EntryID != "":
		what += fmt.Sprintf(" (entry %s, line %d)", s.EntryID, s.Line)
	case s.Line > 0:
		what += fmt.Sprintf(" (line %d)", s.Line)
	default:
		what += " (inserted by pruner)"
	}
	return what
}

func percent(a, b int64) string {
	if b == 0 {
		return "100%"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(a)/float64(b))
}

// writeReportTables writes the strategy table, the tool table and the
// chart of a report.
func writeReportTables(w io.Writer, r *pipeline.Report, o textOptions) {
	t := &table{align: "lrrcrrcrr"}
	t.row("STRATEGY", "RESULTS", "CHARS BEFORE", "→", "AFTER", "TOKENS BEFORE", "→", "AFTER", "SAVED")
	var shown []pipeline.Strategy
	for _, s := range pipeline.Strategies() {
		v := r.Strategies[s]
		if v == nil || v.Empty() {
			continue
		}
		shown = append(shown, s)
		t.row(string(s), count(v.Results, s == pipeline.Other || s == pipeline.Summary), group(v.CharsBefore), "→", group(v.CharsAfter),
			"~"+group(v.TokensBefore), "→", "~"+group(v.TokensAfter), saved(*v))
	}
	tt := r.Total
	t.row("total", strconv.Itoa(tt.Results), group(tt.CharsBefore), "→", group(tt.CharsAfter), "~"+group(tt.TokensBefore), "→", "~"+group(tt.TokensAfter), saved(tt))
	t.write(w)

	if len(r.Tools) > 0 {
		fmt.Fprintln(w)
		names := make([]string, 0, len(r.Tools))
		for n := range r.Tools {
			names = append(names, n)
		}
		sort.Slice(names, func(i, j int) bool {
			a, b := r.Tools[names[i]], r.Tools[names[j]]
			if a.CharsBefore != b.CharsBefore {
				return a.CharsBefore > b.CharsBefore
			}
			return names[i] < names[j]
		})
		t := &table{align: "lrrrcrrcrr"}
		t.row("TOOL", "RESULTS", "CHANGED", "CHARS BEFORE", "→", "AFTER", "TOKENS BEFORE", "→", "AFTER", "SAVED")
		for _, n := range names {
			v := r.Tools[n]
			t.row(n, strconv.Itoa(v.Results), strconv.Itoa(v.Changed), group(v.CharsBefore), "→", group(v.CharsAfter),
				"~"+group(v.TokensBefore), "→", "~"+group(v.TokensAfter), saved(v.Tally))
		}
		t.write(w)
	}

	fmt.Fprintln(w)
	writeChart(w, r, shown, o.Color)
}

func count(n int, none bool) string {
	if none && n == 0 {
		return "-"
	}
	return strconv.Itoa(n)
}

func saved(t pipeline.Tally) string {
	switch {
	case t.CharsBefore == t.CharsAfter:
		return ""
	case t.CharsBefore == 0:
		return "new"
	}
	return fmt.Sprintf("%+.1f%%", -t.SavedPercent())
}

// chartWidth is the width of the longest bar.
const chartWidth = 40

// writeChart draws chars before → after per strategy as text bars: █ what
// is kept, ░ what pruning removed, ▒ what it added (summaries, chains).
func writeChart(w io.Writer, r *pipeline.Report, shown []pipeline.Strategy, color bool) {
	var top int64
	name := 0
	for _, s := range shown {
		v := r.Strategies[s]
		top = max(top, v.CharsBefore, v.CharsAfter)
		name = max(name, len(s))
	}
	if top == 0 {
		return
	}
	paint := func(code, s string) string {
		if !color || s == "" {
			return s
		}
		return "\x1b[" + code + "m" + s + "\x1b[0m"
	}
	fmt.Fprintln(w, "chars before → after: █ kept  ░ removed  ▒ added")
	for _, s := range shown {
		v := r.Strategies[s]
		kept := cells(min(v.CharsBefore, v.CharsAfter), top)
		all := cells(max(v.CharsBefore, v.CharsAfter), top)
		bar := strings.Repeat("█", kept)
		switch {
		case v.CharsBefore > v.CharsAfter:
			bar += paint("32", strings.Repeat("░", max(all-kept, 1)))
		case v.CharsAfter > v.CharsBefore:
			bar += paint("33", strings.Repeat("▒", max(all-kept, 1)))
		}
		fmt.Fprintf(w, "  %-*s  %s\n", name, s, bar)
	}
}

// cells is the bar length of n chars when top fills chartWidth (a non-zero
// n gets at least one cell).
func cells(n, top int64) int {
	if n <= 0 {
		return 0
	}
	return max(1, int(math.Round(float64(n)*chartWidth/float64(top))))
}

func writeSessionsTable(w io.Writer, rs []statsResult, o textOptions) {
	t := &table{align: "llrcrrcrrl"}
	t.row("SESSION", "KIND", "MESSAGES BEFORE", "→", "AFTER", "TOKENS BEFORE", "→", "AFTER", "SAVED", "CACHE VS PREVIOUS TURN")
	for _, r := range rs {
		v := r.Report.Total
		cache := "-"
		if p := r.Report.Cache.PreviousTurn; p != nil {
			switch {
			case p.Reused:
				cache = "reused (100%)"
			default:
				cache = fmt.Sprintf("breaks at %d of %d (%s reused)", p.FirstChanged, p.ReferenceMessages, percent(p.CachedTokens, p.ReferenceTokens))
			}
		}
		t.row(r.Input, r.Report.Kind, strconv.Itoa(v.MessagesBefore), "→", strconv.Itoa(v.MessagesAfter),
			"~"+group(v.TokensBefore), "→", "~"+group(v.TokensAfter), saved(v), cache)
	}
	t.write(w)
}

// table is a plain text table: columns padded to their widest cell, two
// spaces apart; align holds one letter per column: l left, r right, c
// (a separator column) no padding.
type table struct {
	align string
	rows  [][]string
}

func (t *table) row(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) write(w io.Writer) {
	width := make([]int, len(t.align))
	for _, r := range t.rows {
		for i, c := range r {
			width[i] = max(width[i], runeLen(c))
		}
	}
	for _, r := range t.rows {
		var b strings.Builder
		for i, c := range r {
			pad := strings.Repeat(" ", width[i]-runeLen(c))
			if i > 0 {
				if t.align[i] == 'c' || t.align[i-1] == 'c' {
					b.WriteByte(' ')
				} else {
					b.WriteString("  ")
				}
			}
			switch t.align[i] {
			case 'r':
				b.WriteString(pad + c)
			case 'c':
				b.WriteString(c + pad)
			default:
				b.WriteString(c + pad)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

func runeLen(s string) int { return len([]rune(s)) }

// group writes n with a comma between thousands.
func group(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
