//go:build !unix

package main

import (
	"io"
	"os"
	"os/exec"
)

// execTrain runs path with argv, the environment and the standard
// streams, and returns its *exec.ExitError if it failed (the console
// gives Ctrl-C to both processes: konane-train stops its run cleanly).
func execTrain(path string, argv []string, stdin io.Reader, stdout, stderr io.Writer) error {
	cmd := exec.Command(path, argv[1:]...)
	cmd.Args[0] = argv[0]
	cmd.Env, cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Environ(), stdin, stdout, stderr
	return cmd.Run()
}
