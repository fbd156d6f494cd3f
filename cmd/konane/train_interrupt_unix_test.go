//go:build unix

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/konanezero/konane/runfiles"
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
	// Copies, not symlinks: konane finds konane-train beside its own
	// executable; nothing is on PATH.
	bin := t.TempDir()
	konane := copyTestBinary(t, bin, "konane")
	copyTestBinary(t, bin, trainBinary)
	run := filepath.Join(t.TempDir(), "run")
	cmd := exec.Command(konane, "train", "--run", run, "--size", "4", "--generations", "1000",
		"--games-per-gen", "4", "--sims", "8", "--fast-sims", "4", "--filters", "4", "--blocks", "1", "--batch", "8")
	cmd.Env = append(os.Environ(), "KONANE_TEST_AS_MAIN=1", "KONANE_TEST_NO_TRAINER=1", "PATH="+t.TempDir())
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
	// Resume for one generation more than was saved: it trains it.
	saved := readTrainState(t, run)
	var again bytes.Buffer
	if err := runCmd([]string{"train", "--run", run, "--generations", strconv.Itoa(saved.Generation + 1)}, &again); err != nil {
		t.Fatalf("resuming the interrupted run: %v\n%s", err, again.String())
	}
	resumed := readTrainState(t, run)
	if resumed.Generation != saved.Generation+1 || resumed.Model == saved.Model {
		t.Fatalf("resumed at generation %d (model %s): generation %d, model %s; want one more generation and a new model\n%s",
			saved.Generation, saved.Model, resumed.Generation, resumed.Model, again.String())
	}
	if _, err := os.Stat(filepath.Join(run, runfiles.ModelsDir, filepath.Base(resumed.Model))); err != nil {
		t.Fatalf("the new model: %v", err)
	}
}

// readTrainState reads the state.json of the run directory run.
func readTrainState(t *testing.T, run string) runfiles.State {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(run, runfiles.StateFile))
	if err != nil {
		t.Fatal(err)
	}
	st, err := runfiles.ParseState(b)
	if err != nil {
		t.Fatal(err)
	}
	return st
}
