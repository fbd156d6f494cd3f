//go:build unix

package main

import (
	"io"
	"os"
	"syscall"
)

// execTrain replaces this process with path, argv and the environment:
// konane-train then gets the terminal's signals itself (Ctrl-C stops the
// run cleanly, a second one at once) and exits with its own status.
func execTrain(path string, argv []string, _ io.Reader, _, _ io.Writer) error {
	return syscall.Exec(path, argv, os.Environ())
}
