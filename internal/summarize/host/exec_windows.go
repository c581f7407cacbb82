//go:build windows

package host

import "os/exec"

// ownGroup is a no-op on Windows.
func ownGroup(cmd *exec.Cmd) {}

// killGroup kills the command (Windows has no process groups to signal).
func killGroup(cmd *exec.Cmd) { _ = cmd.Process.Kill() }
