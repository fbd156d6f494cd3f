//go:build unix

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestTrainInterruptThroughKonaneTrain: a player's konane running
// konane-train for konane train stops the run cleanly at Ctrl-C (status
// 0, the run resumable), as konane-train alone does: konane became
// konane-train, which gets the signal itself. The test binary plays both
// (TestMain; as konane-train it keeps the trainer), and a copy of the run
// then resumes in process.
func TestTrainInterruptThroughKonaneTrain(t *testing.T) {
	if testing.Short() {
		t.Skip("trains")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	if err := os.Symlink(self, filepath.Join(bin, "konane")); err != nil {
		t.Skip(err)
	}
	exe, err := os.ReadFile(self) // a copy: konane refuses to run itself as konane-train
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, trainBinary), exe, 0o755); err != nil {
		t.Fatal(err)
	}
	run := filepath.Join(t.TempDir(), "run")
	cmd := exec.Command(filepath.Join(bin, "konane"), "train", "--run", run, "--size", "4", "--generations", "1000",
		"--games-per-gen", "4", "--sims", "8", "--fast-sims", "4", "--filters", "4", "--blocks", "1", "--batch", "8")
	cmd.Env = append(os.Environ(), "KONANE_TEST_AS_MAIN=1", "KONANE_TEST_NO_TRAINER=1", "PATH="+bin)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	end := make(chan error, 1)
	go func() { end <- cmd.Wait() }()
	defer cmd.Process.Kill()
	// Interrupt once the first generation is saved: the run is training.
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if _, err := os.Stat(filepath.Join(run, "models", "latest")); err == nil {
			break
		}
		select {
		case err := <-end:
			t.Fatalf("konane train ended before its first generation: %v\n%s", err, out.String())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("no generation saved within 2 minutes\n%s", out.String())
		}
	}
	cmd.Process.Signal(os.Interrupt)
	select {
	case err := <-end:
		if err != nil {
			t.Fatalf("after Ctrl-C: %v, want status 0\n%s", err, out.String())
		}
	case <-time.After(time.Minute):
		t.Fatalf("Ctrl-C did not stop the run within a minute\n%s", out.String())
	}
	var again bytes.Buffer
	if err := runCmd([]string{"train", "--run", run, "--generations", "2"}, &again); err != nil {
		t.Fatalf("resuming the interrupted run: %v\n%s", err, again.String())
	}
}
