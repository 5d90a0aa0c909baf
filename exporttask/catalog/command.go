package catalog

import (
	"path/filepath"
	"strings"
)

// CommandName is how the catalog command is run in the commands that
// messages suggest (the example server's catalog command).
const CommandName = "server catalog"

// ReplaceCommand returns the command that registers rec's source again
// under rec's id, as it is now: "server catalog add -domain D -id ID
// [-table T] [-scheme xyz] -replace SOURCE". A source copied into the
// record is named by its base name after -copy, as the original's path is
// not known. Arguments are quoted for a POSIX shell where they need it.
func ReplaceCommand(rec Record) string {
	args := []string{CommandName, "add", "-domain", string(rec.Domain), "-id", rec.ID}
	src := rec.Source
	if src == nil {
		return strings.Join(append(args, "-replace", "SOURCE"), " ")
	}
	if src.Table != "" {
		args = append(args, "-table", ShellQuote(src.Table))
	}
	if src.Format == "XYZ" {
		args = append(args, "-scheme", "xyz")
	}
	args = append(args, "-replace")
	if !filepath.IsAbs(src.Path) {
		args = append(args, "-copy")
	}
	return strings.Join(append(args, ShellQuote(src.Path)), " ")
}

// ShellQuote returns s as one word of a POSIX shell: itself when it holds
// only characters no shell treats specially, else in single quotes.
func ShellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=@%+,-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
