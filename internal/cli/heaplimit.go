package cli

// indexLimit is the heap limit for reading inputs of size bytes (summed
// over the inputs read at once) into a context without its branch (pruner
// context, check's pairing pass): the context's index holds about 0.086
// bytes per input byte (1 GB of pi-derived input, ~1 KB a line: 86 MB live
// after session.Read, in pointer-free blocks the collector marks without
// scanning, ~110 MB while the leaf's path is built), so a tenth of the
// input plus fixed headroom stays above it at any size and keeps a 1 GB
// read under 150 MB of RSS (context: 137–141 MB in 7–8 cycles, as many as
// without a limit; check: 137–149 MB in 30–33). Without a limit the
// collector let the heap grow to twice the live index (1 GB context: 172
// MB RSS).
func indexLimit(size int64) int64 { return max(memoryLimit, 24<<20+size/10) }

// branchLimit is the heap limit for reading an input of size bytes into a
// context with its branch (now, before its plan, its render and any
// flush), and for the plan and the render of --no-flush: the index, the
// branch (24 bytes an entry), the plan (8 bytes a message) and the render's
// items (16 bytes) live in about 0.105 bytes per input byte at their peak
// (1 GB of pi-derived input: 83 MB after session.Read, 105 MB at the end
// of the render, when its phases' slots and the items it returns are both
// held; the end of the read, the branch built as the entries go, is
// below), so 12 MiB above an eighth of the input stays a quarter above it:
// 1 GB --no-flush runs 12–13 collections (9 with no limit), each marking
// pointer-free blocks, for about 80 ms more CPU, and peaks at ~140 MB of
// RSS (the binary and the mapped window are ~13 MB of it). With the old
// 40 MiB above an eighth it peaked at 165–172 MB; at 120 MiB it ran 19
// collections (+15% CPU) for 5 MB less.
func branchLimit(size int64) int64 { return max(memoryLimit, 12<<20+size/8) }

// flushLimit is the heap limit for a first flush and its render of an
// input of size bytes (more: see below). Their live heap peaks at about
// 0.4 bytes per input byte, in the render after the flush (a first flush
// of 1 GB of pi-derived input: ~390 MB as the collector marks it; the
// flush's state after the run 286 MB with the context's index, once its
// records, key tables and summaries were made compact and a run that
// prints the context stopped keeping the entries --write appends). The
// limit is 48 MiB above half a byte per input byte, a third above that
// peak, so the collector keeps the heap near it instead of letting it
// double (GOGC): at 1 GB it marks as much in all (19 cycles, ~4.0 GB) as
// it did at 0.6 bytes per byte before the state was made compact (17,
// ~3.9 GB), for 545 MB of RSS instead of 635. At 480 MiB it marked 5.2 GB
// in 23 cycles.
//
// A first flush that writes the session (--write, --session) holds the
// flush's entries on top (their texts re-read from the input when
// written; ~35 MB at 1 GB) through the flush and its render, and then the
// context edits it appends (a render item each, their content rendered
// again when written): 1 GB of pi-derived input peaks at ~357 MB live in
// the render, 323–339 MB while the entries are written. Its limit
// (writes) is 64 MiB above 0.56 bytes per input byte: 598 MiB at 1 GB,
// where 1 GB --session marks 3.5 GB in 18 collections (the old limit, 64
// MiB above 0.6 bytes, 3.3 GB in 17, for 634 MB of RSS instead of ~580;
// before the edits were compact it marked 3.8 GB in 18 at that limit; at
// 580 MiB 3.9 GB in 19, at 560 MiB 4.6 GB in 21).
//
// The state Rebuild makes of a session flushed before (rebuilt) holds its
// records' strings (pointers the collector scans): that keeps the old
// room, 90 MiB above 0.7 bytes per input byte — at the first flush's
// limit its collector ran too often (the flushed 348 MB session: 17% more
// CPU).
func flushLimit(size int64, writes, rebuilt bool) int64 {
	switch {
	case rebuilt:
		return max(readLimit(size), memoryLimit+size/10*7)
	case writes:
		return max(readLimit(size), 64<<20+size/100*56)
	}
	return max(readLimit(size), 48<<20+size/2)
}

// writeCheckLimit is the heap limit for --write's check of the file it
// wrote from an input of size bytes (writeback's Checking hook): the
// written file is re-read with its branch and pi-condense's keys rebuilt
// while only what the check compares is kept of the first read (the
// result, its index, flush and entries are let go once written; the
// compact snapshot is 36 MB live at 1 GB when the check starts). Its live
// heap grows to about 0.4 bytes per input byte at its end (1 GB: 1.7 GB
// written, ~180 MB for its read and ~170 MB for the rebuilt keys; 383 MB
// live at the last collection, 426 MB at the highest), so 64 MiB above
// half a byte per byte keeps a quarter of room or more and the check
// below the write's own limit: with the rebuilt room (90 MiB above 0.7
// bytes) and the first read still live, 1 GB --write peaked at 889–902 MB
// of RSS.
func writeCheckLimit(size int64) int64 { return max(readLimit(size), 64<<20+size/2) }
