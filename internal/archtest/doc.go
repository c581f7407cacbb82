// Package archtest holds no code: its tests check the architecture rules of
// docs/design.md (pure packages do no IO, only the CLI layer uses cobra,
// config imports no stage, no exported mutable state) against `go list`.
package archtest
