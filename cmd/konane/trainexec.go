package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
)

// trainBinary is the name of the konane built with the trainer (-tags
// trainer): the konane without it runs that one for konane train.
const trainBinary = "konane-train"

// trainBuildHint says how to get konane-train.
const trainBuildHint = "go build -tags trainer -o konane-train ./cmd/konane (beside konane, or on PATH), or run go run -tags trainer ./cmd/konane train ..."

// trainVersionEnv carries the version of the konane that runs
// konane-train (trainVersion), which refuses to train when its own differs.
const trainVersionEnv = "KONANE_TRAIN_PARENT_VERSION"

// noVCSVersion is the version of a build without VCS information or module
// version (go run, go test, -buildvcs=false): unknown, so never refused.
const noVCSVersion = "devel (no VCS information)"

// trainVersion is this build's version for the konane-train check: the
// VCS revision ("+modified" when the work tree had changes), else the
// module version, else noVCSVersion. A variable for the tests.
var trainVersion = buildTrainVersion()

// buildTrainVersion reads trainVersion from the build information.
func buildTrainVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return noVCSVersion
	}
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev != "" {
		if modified == "true" {
			rev += "+modified"
		}
		return rev
	}
	if bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return noVCSVersion
}

// checkTrainVersion is konane-train's check of the version of the konane
// that ran it (parent, "" when run directly): it refuses, in one line
// naming both, when both are known and differ (an old konane-train would
// otherwise train with old code).
func checkTrainVersion(parent, own string) error {
	if parent == "" || parent == noVCSVersion || own == noVCSVersion || parent == own {
		return nil
	}
	return &statusError{status: 2, err: fmt.Errorf("train: this %s is version %s but the konane that ran it is %s: rebuild both from the same tree (%s)", trainBinary, own, parent, trainBuildHint)}
}

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
// status unchanged (on Unix konane becomes konane-train: execTrain), plus
// this build's version in trainVersionEnv; it first names the path it runs
// on stderr. If konane-train is nowhere, it says how to build it and
// exits 2.
func runKonaneTrain(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	path, err := findTrainBinary()
	if err != nil {
		return &statusError{status: 2, err: fmt.Errorf("train: this konane has no trainer (a player's build) and %s is neither beside it nor on PATH: %s", trainBinary, trainBuildHint)}
	}
	if isSelf(path) {
		return &statusError{status: 2, err: fmt.Errorf("train: %s is this konane, which has no trainer: %s", path, trainBuildHint)}
	}
	fmt.Fprintf(stderr, "konane train: running %s\n", path)
	if err := os.Setenv(trainVersionEnv, trainVersion); err != nil {
		return fmt.Errorf("train: %w", err)
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
