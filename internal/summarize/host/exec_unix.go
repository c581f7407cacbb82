//go:build !windows

package host

import (
	"os/exec"
	"syscall"
)

// ownGroup starts the command in its own process group, so a timeout can
// stop everything it started (a shell's children too).
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// killGroup kills the command's process group.
func killGroup(cmd *exec.Cmd) { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
