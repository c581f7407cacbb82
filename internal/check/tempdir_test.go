package check

import "os"

// tempDir makes a directory that outlives one benchmark (shared corpus).
func tempDir() (string, error) { return os.MkdirTemp("", "pruner-check-bench-*") }
