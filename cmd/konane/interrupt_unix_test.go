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
// reach (reading a FIFO whose writer is silent) exits at the second Ctrl-C,
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
	// The command registers its signals first thing and opens the game
	// file after: once our write end of the FIFO opens, its read end is
	// open, so the command is past the registration however slowly it
	// started (a fixed sleep failed under load). The writer stays open
	// and silent, so the command waits in its read.
	opened := make(chan *os.File, 1)
	go func() {
		if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			opened <- w
		}
	}()
	select {
	case w := <-opened:
		defer w.Close()
	case err := <-end:
		t.Fatalf("the command ended before it opened its game file: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("the command did not open its game file within 30 s")
	}
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
