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
// a third of a byte per input byte, in the render after the flush (a
// first flush of 1 GB of pi-derived input: ~310–325 MB as the collector
// marks it; the flush's state after the render 247 MB with the context's
// index, once its records, key tables and summaries were made compact, a
// run that prints the context stopped keeping the entries --write
// appends, and chains' deterministic bodies and fusions were written when
// asked instead of held: 276 MB before; with perf31–perf34 merged, 287 MB
// at most after a collection; with perf37–perf39 merged, 258 MB at most
// after a collection, 1 GB run of 2026-12-02). The limit is 48 MiB above
// 0.35 bytes per input byte (382 MiB at 1 GB), 1.5 times that peak, so
// the collector keeps the heap near it instead of letting it double
// (GOGC): at 1 GB it runs 19 cycles for 400 MB of RSS in the same CPU
// seconds (best of 3, 8.5 s user+sys on a loaded VM) as at 0.4 bytes (15
// cycles, 449 MB); at 0.3 bytes (334 MiB, 1.36 times the peak) 24 cycles,
// 350 MB, 5–7% more CPU — kept above that, as a margin for inputs of
// other shapes (below the live peak the collector would run back to
// back). At 200 MB the limit hardly matters (live ≤ 62 MB; 119–124 MB of
// RSS either way, most of it the mapped window, the binary and the output
// buffer).
//
// With perf43 (the summaries' texts in a temporary file until written,
// no assistant prose captured for deterministic summaries) the live peak
// at 1 GB is ~220 MB (after a collection at GOGC=5: the render; the
// capture's ~197 MB), so the limit is 48 MiB above 0.3 bytes per input
// byte (334 MiB, 1.5 times that peak): 17–18 cycles, 340–348 MB of RSS,
// in the same CPU seconds as base at 0.35 (best of 5, loaded host); at
// 0.28 bytes 20–21 cycles, 322 MB, +6%.
//
// With perf48 (the batches reserve no records for trivial batches, bare
// ids and chains' refs held as numbers, the render's lists sized once)
// the live peak at 1 GB is 211–224 MB after a collection (gctrace, in the
// render's chain phase; base 224–236, pinned to one core), so the limit
// is 48 MiB above 0.26 bytes per input byte (296 MiB at 1 GB, 1.39–1.47
// times that peak): 20–21 cycles, 311–312 MB of RSS, in the same CPU
// seconds as base at 0.3 (best of 3, 6.6 s user+sys; 18 cycles, 350 MB);
// at 0.25 bytes 22–23 cycles, 302 MB, +4%; at 0.23 28–29 cycles, 283 MB,
// +7%.
//
// A first flush that writes the session (--write, --session) holds the
// flush's entries on top (their texts re-read from the input when
// written; ~35 MB at 1 GB; the chains' texts are made when written, not
// held) through the flush and its render, and then the context edits it
// appends (a render item each, their content rendered again when
// written): with perf31–perf34 merged, 330–352 MB live at most after a
// collection at 1 GB. Its limit (writes) is 64 MiB above 0.45 bytes per
// input byte: 493 MiB at 1 GB, where 1 GB --session runs 20 cycles for
// 498 MB of RSS in the same CPU seconds as at 0.55 bytes (15 cycles, 588
// MB); at 450 MiB: 26 cycles, 460 MB, +5% CPU. Before (each change alone:
// perf32's chain texts let go, perf34's compact edits) 0.55–0.56 bytes,
// and 0.6 bytes before both (641 MB, 17 cycles, ~3.5 GB marked). With
// perf37–perf39 merged the live peak fell to 321 MB (1 GB --session,
// 2026-12-02), so the limit is now 64 MiB above 0.4 bytes (445 MiB at
// 1 GB, 1.45 times the peak): 19–21 cycles, 463 MB of RSS, in the same
// CPU seconds as at 0.45 bytes (17–18 cycles, 511–514 MB).
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
		return max(readLimit(size), 64<<20+size/5*2)
	}
	return max(readLimit(size), 48<<20+size/50*13)
}

// writeCheckLimit is the heap limit for --write's check of the file it
// wrote from an input of size bytes (writeback's Checking hook): the
// written file is re-read with its branch and pi-condense's keys rebuilt
// while only what the check compares is kept of the first read (the
// result, its index, flush and entries are let go once written; the
// compact snapshot is 36 MB live at 1 GB when the check starts). Its live
// heap grows to about 0.4 bytes per input byte at its end (1 GB: 1.7 GB
// written, ~180 MB for its read and ~170 MB for the rebuilt keys; 383 MB
// live at the last collection, 426–432 MB at the highest), so 64 MiB
// above 0.45 bytes per byte (493 MiB at 1 GB, the write's own limit) keeps
// a seventh of room or more: 1 GB --write 33 collections, 501 MB of RSS,
// in the same CPU seconds as at half a byte per byte (27, 561 MB); with
// the rebuilt room (90 MiB above 0.7 bytes) and the first read still live
// it peaked at 889–902 MB. Since perf39 the check rebuilds only the keys
// (293 MB live at 1 GB; the whole --write peaks at 336–339 MB after a
// collection, 2026-12-02), and both limits are 64 MiB above 0.4 bytes
// (445 MiB at 1 GB): 1 GB --write runs 32 collections for 471 MB of RSS
// in the same CPU seconds as at 0.45 bytes (27, 514 MB), with an
// identical file written.
func writeCheckLimit(size int64) int64 { return max(readLimit(size), 64<<20+size/5*2) }
