package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
)

// trainBinary is the name of the konane built with the trainer (-tags
// trainer): the konane without it runs that one for konane train.
const trainBinary = "konane-train"

// trainBuildHint says how to get konane-train.
const trainBuildHint = "go build -tags trainer -o konane-train ./cmd/konane (beside konane, or on PATH), or run go run -tags trainer ./cmd/konane train ..."

// findTrainBinary returns the path of konane-train: beside this program's
// executable, else on PATH.
func findTrainBinary() (string, error) {
	if self, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(self), trainBinary)
		if info, err := os.Stat(p); err == nil && !info.IsDir() && info.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return exec.LookPath(trainBinary)
}

// isSelf reports whether path is this program's executable (a player's
// konane named konane-train would otherwise run itself for ever).
func isSelf(path string) bool {
	self, err := os.Executable()
	if err != nil {
		return false
	}
	a, errA := os.Stat(self)
	b, errB := os.Stat(path)
	return errA == nil && errB == nil && os.SameFile(a, b)
}

// runKonaneTrain runs "konane-train train" with the arguments of konane
// train, the environment, the standard streams, the signals and the exit
// status unchanged (on Unix konane becomes konane-train: execTrain). If
// konane-train is nowhere, it says how to build it and exits 2.
func runKonaneTrain(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	path, err := findTrainBinary()
	if err != nil {
		return &statusError{status: 2, err: fmt.Errorf("train: this konane has no trainer (a player's build) and %s is neither beside it nor on PATH: %s", trainBinary, trainBuildHint)}
	}
	if isSelf(path) {
		return &statusError{status: 2, err: fmt.Errorf("train: %s is this konane, which has no trainer: %s", path, trainBuildHint)}
	}
	err = execTrain(path, append([]string{trainBinary, "train"}, args...), stdin, stdout, stderr)
	if exit, ok := errors.AsType[*exec.ExitError](err); ok {
		return &statusError{status: exit.ExitCode()}
	}
	if err != nil {
		return fmt.Errorf("train: running %s: %w", path, err)
	}
	return nil
}
