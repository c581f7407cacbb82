//go:build !linux

package cli

// signalPending: only Linux is asked (Received then relies on the signals
// the runtime has caught).
func signalPending() bool { return false }
