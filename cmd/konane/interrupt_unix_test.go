//go:build unix

package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestSecondInterruptExits: a command stuck where its context does not
// reach (opening a FIFO without a writer) exits at the second Ctrl-C,
// with status 130 (issue 47).
func TestSecondInterruptExits(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "game.txt")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO:", err)
	}
	cmd := exec.Command(os.Args[0], "analyze", fifo)
	cmd.Env = append(os.Environ(), "KONANE_TEST_AS_MAIN=1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	end := make(chan error, 1)
	go func() { end <- cmd.Wait() }()
	defer cmd.Process.Kill()
	time.Sleep(time.Second) // the signals are registered first thing
	cmd.Process.Signal(os.Interrupt)
	select {
	case err := <-end:
		t.Fatalf("the first interrupt ended the command: %v", err)
	case <-time.After(300 * time.Millisecond):
	}
	cmd.Process.Signal(os.Interrupt)
	select {
	case err := <-end:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 130 {
			t.Fatalf("after the second interrupt: %v, want exit status 130", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the second interrupt did not end the command")
	}
}
