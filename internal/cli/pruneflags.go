package cli

import (
	"github.com/pruner-dev/pruner/internal/config"
	"github.com/pruner-dev/pruner/internal/pipeline"
	"github.com/pruner-dev/pruner/internal/session"
	"github.com/spf13/pflag"
)

// pruneFlags are the flags a command has that override pruning settings:
// flag name → config key. config.Load applies them (a flag given on the
// command line wins over the settings files and the environment), so the
// command's options come from one config value.
type pruneFlags map[string]string

// pruneFlag is one flag of the pruning settings, shared by now, stats and
// query.
type pruneFlag struct {
	name, key string
	// usage is the help of a command that prunes (now, stats); flushUsage
	// that of one that only repeats now's flush (query; "" when it has no
	// such flag).
	usage, flushUsage string
	add               func(f *pflag.FlagSet, name, usage string)
}

// flagStyle says how a command words the pruning flags' help.
type flagStyle int

const (
	prunes  flagStyle = iota // now, stats: the flag shapes the pruned context
	flushes                  // query: the flag shapes the flush it repeats
)

func pruneFlagTable() []pruneFlag {
	intFlag := func(def int) func(*pflag.FlagSet, string, string) {
		return func(f *pflag.FlagSet, name, usage string) { f.Int(name, def, usage) }
	}
	listFlag := func(f *pflag.FlagSet, name, usage string) { f.StringSlice(name, nil, usage) }
	return []pruneFlag{
		{"summarizer-cmd", "summarizerCmd",
			"summarise batches with this shell `CMD` (request on stdin, summary on stdout; summarizerCmd)", "",
			func(f *pflag.FlagSet, name, usage string) { f.String(name, "", usage) }},
		{"recent-turns", "recentTurnsToKeep",
			"keep tool results of the last `N` user turns raw (recentTurnsToKeep)",
			"as on now: the raw window the flush leaves (recentTurnsToKeep)",
			intFlag(config.DefaultRecentTurns)},
		{"max-chars", "maxRetainedChars",
			"prune older results longer than `N` chars (maxRetainedChars)", "",
			intFlag(config.DefaultMaxChars)},
		{"protect-tool", "protectedTools",
			"never prune results of these tool name globs (replaces protectedTools)",
			"as on now: tool name globs the flush never takes (replaces protectedTools)",
			listFlag},
		{"protect-path", "protectedPaths",
			"never prune calls whose args.path matches these globs (replaces protectedPaths)",
			"as on now: args.path globs the flush never takes (replaces protectedPaths)",
			listFlag},
	}
}

// addPruneFlags adds the named pruning flags to f, worded for style, and
// returns their mapping onto config keys. A name not in the table panics:
// it is a programming error, caught by every test that builds the command.
func addPruneFlags(f *pflag.FlagSet, style flagStyle, names ...string) pruneFlags {
	table := pruneFlagTable()
	keys := pruneFlags{}
	for _, name := range names {
		i := 0
		for i < len(table) && table[i].name != name {
			i++
		}
		if i == len(table) {
			panic("addPruneFlags: no pruning flag " + name)
		}
		pf := table[i]
		usage := pf.usage
		if style == flushes {
			usage = pf.flushUsage
		}
		if usage == "" {
			panic("addPruneFlags: " + name + " has no help for this command")
		}
		pf.add(f, name, usage)
		keys[name] = pf.key
	}
	return keys
}

// shapeStages applies --no-flush and --no-mask (now and stats) to the
// options of a pruned run: masking off with --no-mask, the index render
// forced by either, and a flush only of a session file.
func shapeStages(po pipeline.Options, noFlush, noMask bool, kind session.Kind) pipeline.Options {
	po.Mask = !noMask
	po.ForceRender = noFlush || noMask
	po.Flush = po.Flush && !noFlush && kind == session.KindSession
	return po
}
