package summarize

import (
	"context"
	"fmt"
	"strings"
	"unsafe"
)

// This file is the range summary of a compressed chain (pi-condense's
// chainCompression.fuseRangeSummary): the per-batch summaries of one closed
// sub-task fused into one text, deterministically (the default) or by the
// summariser command, with pi-condense's request layout.

// FusePrompt opens every fusion request. It asks for what pi-condense's
// range prompt asks for (one summary of a closed sub-task from its step
// summaries: overlaps merged, outcomes, decisions, paths and identifiers
// kept, `tN`/`bN` refs intact, short), in pruner's own words.
const FusePrompt = `Below are the summaries of the steps of one finished sub-task from an AI coding assistant's history. Write ONE summary of the whole sub-task in their place.
- Say what was found or done once; do not walk through the steps one by one.
- Keep the concrete results and decisions, and every file path, identifier and error message, exactly as written.
- Keep every ref such as ` + "`t12`" + ` or ` + "`b3`" + ` exactly as written: they are how the originals are recovered.
- Be brief: a few grouped bullets or a short paragraph.`

// FuseRequest is the whole fusion request: the prompt, a blank line, and
// the per-batch summaries joined by a blank line inside
// <sub-task-summaries>…</sub-task-summaries> (pi-condense's layout).
func FuseRequest(summaries []string) string {
	return FusePrompt + "\n\n<sub-task-summaries>\n" + strings.Join(summaries, "\n\n") + "\n</sub-task-summaries>"
}

// FuseKey is the cache key of a fusion request made by the command
// commandID (like Key).
func FuseKey(summaries []string, commandID string) string {
	return cacheKey("pruner-fuse-v2", commandID, FuseRequest(summaries))
}

// The refs footer pi-condense ends a summary with: footerRule,
// footerLabel, the refs (one line), footerTail.
const (
	footerRule  = "\n\n---\n"
	footerLabel = "**Summarized tool refs**: "
	footerTail  = "\nUse `context_tree_query` with these refs to retrieve the original full outputs."
)

// StripFooter returns a summary's text without pi-condense's refs footer
// (the text unchanged when it has none), found from the end: the tail, the
// refs line before it, the rule before that.
func StripFooter(summary string) string {
	body, ok := strings.CutSuffix(summary, footerTail)
	if !ok {
		return summary
	}
	i := strings.LastIndexByte(body, '\n') + 1 // the refs line
	if i == 0 || !strings.HasPrefix(body[i:], footerLabel) || !strings.HasSuffix(body[:i], footerRule) {
		return summary
	}
	return summary[:i-len(footerRule)]
}

// FuseDeterministic fuses per-batch summaries without a model: their texts
// without the refs footer each of them repeats, in order and separated by a
// blank line, then one footer naming every ref of the chain. Each per-call
// bullet keeps its `tN` ref next to what it recovers; what goes is the
// repeated footer (about 150 chars a summary, most of a one-call summary).
func FuseDeterministic(summaries []string, refs []string) string {
	n := footerLen(refs) // the fusion's length, written once
	for _, s := range summaries {
		if t := fusedPart(s); t != "" {
			n += len(t) + 2
		}
	}
	b := make([]byte, 0, n)
	for _, s := range summaries {
		if t := fusedPart(s); t != "" {
			if len(b) > 0 {
				b = append(b, "\n\n"...)
			}
			b = append(b, t...)
		}
	}
	b = appendFooter(b, refs)
	return unsafe.String(unsafe.SliceData(b), len(b)) // b is not written again
}

// fusedPart is what FuseDeterministic keeps of a summary: its text
// without the footer and trailing white space ("": none, or only white
// space).
func fusedPart(s string) string {
	if t := strings.TrimRightFunc(StripFooter(s), isJSSpace); strings.TrimLeftFunc(t, isJSSpace) != "" {
		return t
	}
	return ""
}

// FuseResult is a fused range summary.
type FuseResult struct {
	Text   string
	Source Source
	// Warning says why a command's fusion was not used ("" when it was).
	Warning string
}

// Fuse fuses the per-batch summaries of one chain whose refs are refs: by
// opts.Command when set (through opts.Cache, within opts.Timeout),
// otherwise deterministically. A command that fails, times out, or prints
// something that is not a fused summary of this chain (binary, nothing, no
// ref of the chain, or longer than the summaries it fuses) gives the
// deterministic fusion and a Warning; a fusion is never lost.
func Fuse(ctx context.Context, summaries, refs []string, opts Options) FuseResult {
	var key string // only a cache needs it (a request's worth of text per chain)
	if opts.Cache != nil {
		key = FuseKey(summaries, opts.CommandID)
	}
	if opts.CacheOnly && opts.Cache != nil {
		if s, ok := opts.Cache.Get(key); ok {
			return FuseResult{Text: s, Source: SourceCache}
		}
	}
	if opts.Command == nil || opts.CacheOnly {
		return FuseResult{Text: FuseDeterministic(summaries, refs), Source: SourceDeterministic}
	}
	if opts.Cache != nil {
		if s, ok := opts.Cache.Get(key); ok {
			return FuseResult{Text: s, Source: SourceCache}
		}
	}
	r := runFuse(ctx, summaries, refs, opts)
	if opts.Cache != nil && r.Source == SourceCommand {
		_ = opts.Cache.Put(key, r.Text)
	}
	return r
}

func runFuse(ctx context.Context, summaries, refs []string, opts Options) FuseResult {
	text, why := ask(ctx, []byte(FuseRequest(summaries)), opts, func(reply []byte) (string, string) { return CheckFused(reply, summaries, refs) })
	if why == quietFallback {
		return FuseResult{Text: FuseDeterministic(summaries, refs), Source: SourceFallback}
	}
	if why != "" {
		return FuseResult{Text: FuseDeterministic(summaries, refs), Source: SourceFallback, Warning: why}
	}
	return FuseResult{Text: text, Source: SourceCommand}
}

// CheckFused validates a fusion reply and returns its text (trailing white
// space trimmed), or why it is not a fused summary of the chain: empty,
// binary or invalid UTF-8, naming none of the chain's refs (the model would
// lose the way back to the originals), or longer than the summaries it
// replaces.
func CheckFused(reply []byte, summaries, refs []string) (string, string) {
	text, why := replyText(reply)
	if why != "" {
		return "", why
	}
	found := len(refs) == 0
	for _, r := range refs {
		if containsRef(text, r) {
			found = true
			break
		}
	}
	if !found {
		return "", "the fused summary names none of the chain's refs (not a summary of it?)"
	}
	total := 0
	for _, s := range summaries {
		total += JSLen(s) + 2
	}
	if n := JSLen(text); n > total {
		return "", fmt.Sprintf("the fused summary (%d chars) is longer than the summaries it fuses (%d)", n, total)
	}
	return text, ""
}

// containsRef reports whether ref (`t12`) occurs in text as a whole token
// (not as the start of `t123`).
func containsRef(text, ref string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], ref)
		if j < 0 {
			return false
		}
		end := i + j + len(ref)
		before := i+j == 0 || !isRefByte(text[i+j-1])
		if before && (end == len(text) || !isRefByte(text[end])) {
			return true
		}
		i = end
	}
}

func isRefByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}
