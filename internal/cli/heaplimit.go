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
