package cli

import (
	"runtime"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// signalPending reports whether a SIGINT or SIGTERM sent to the process is
// pending: raised, and not yet delivered to any of its threads (the
// kernel picks one, which may still wait for a CPU). sigpending(2) shows
// only signals the calling thread blocks, so this thread blocks the two
// for the question and then restores its mask (a pending one is then
// delivered to it, and os/signal sees it as any other).
func signalPending() bool {
	const mask = 1<<(syscall.SIGINT-1) | 1<<(syscall.SIGTERM-1)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	set, old, pending := uint64(mask), uint64(0), uint64(0)
	if _, _, e := syscall.RawSyscall6(syscall.SYS_RT_SIGPROCMASK, unix.SIG_BLOCK, uintptr(unsafe.Pointer(&set)), uintptr(unsafe.Pointer(&old)), 8, 0, 0); e != 0 {
		return false
	}
	_, _, e := syscall.RawSyscall(syscall.SYS_RT_SIGPENDING, uintptr(unsafe.Pointer(&pending)), 8, 0)
	syscall.RawSyscall6(syscall.SYS_RT_SIGPROCMASK, unix.SIG_SETMASK, uintptr(unsafe.Pointer(&old)), 0, 8, 0, 0)
	return e == 0 && pending&mask != 0
}
