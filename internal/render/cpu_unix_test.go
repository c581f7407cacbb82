//go:build unix

package render_test

import (
	"syscall"
	"time"
)

// cpuTime is the process's user+sys CPU time so far (every thread: the
// collector's too), the measure that holds on a shared machine where wall
// time includes waiting for a core.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
