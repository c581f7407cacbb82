package cli

// indexLimit is the heap limit for reading inputs of size bytes (summed
// over the inputs read at once) into a context without its branch (pruner
// context, check's pairing pass): the context's index holds about 0.09
// bytes per input byte (1 GB of pi-derived input, ~1 KB a line: 88 MB live
// after session.Read, most of it in pointer-free blocks the collector
// marks without scanning), so a twelfth of the input plus fixed headroom
// stays above it up to inputs of several GB and keeps a 1 GB read under
// 150 MB of RSS (context: 143–145 MB in 8 cycles, as many as without a
// limit; check: 143–148 MB in 31–32). Without a limit the collector let
// the heap grow to twice the live index (1 GB context: 172 MB RSS).
func indexLimit(size int64) int64 { return max(memoryLimit, 48<<20+size/12) }
