// Package guard is pruner's deny engine for protected paths: the rules
// (pi's protected-paths format, validated), path normalisation as the
// tools open paths (POSIX and Windows forms, file:// URLs, symlinks), and
// the analysis of tool calls — bash commands parsed with mvdan.cc/sh and
// followed through lists, pipes, nested scripts, wrappers and the commands'
// own semantics, interpreter code read for the paths it names, folders read
// or written recursively, unknown tools classified by their names.
//
// The gate fails closed: a call is allowed only when the analysis shows it
// touches no protected path with a denied op. What it cannot see through (a
// file named by a value computed at run time, a script read from a pipe, a
// limit reached) is a KindUnverifiable violation whenever a rule could be
// involved.
//
// The analysis is a pure function of the call, the rules and an Env: the
// cwd, the home directory and, optionally, a read-only view of a file
// system (FS) for symlinks, globs and folder contents. The package does no
// I/O of its own (internal/hostfs is the machine's FS; IOFS adapts an
// io/fs tree such as testing/fstest.MapFS). ParseEvent decodes a hook's
// event (Claude Code PreToolUse, pi tool_call).
package guard
