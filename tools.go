//go:build tools

// Package tools pins modules used only by tests or tooling so `go mod tidy`
// keeps them.
package tools

import (
	_ "github.com/rogpeppe/go-internal/testscript"
)
