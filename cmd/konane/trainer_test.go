package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/konanezero/konane/net/train"
	"github.com/konanezero/konane/runstore"
	"github.com/konanezero/konane/selfplay"
)

// The tests train in process, as konane-train does: the test binary links
// the trainer whatever the build tags (TestMain takes it away again for
// the processes of TestTrainRunsKonaneTrain).
func init() { newTrainer = selfplay.TrainerFunc(train.New) }

// TestTrainRunsKonaneTrain: a konane without the trainer runs
// konane-train beside it (else on PATH) for konane train, naming it on
// stderr, with the arguments, the environment, the standard streams and
// the exit status unchanged; with no konane-train anywhere it says in one
// line how to build it and exits 2. A copy of the test binary plays konane
// (TestMain; a copy, so that os.Executable is its folder), and a shell
// script konane-train.
func TestTrainRunsKonaneTrain(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	cat, err := exec.LookPath("cat")
	if err != nil {
		t.Skip("no cat")
	}
	dir, pathDir := t.TempDir(), t.TempDir()
	konane := copyTestBinary(t, dir, "konane")
	konaneTrain := func(env []string, args ...string) (string, int) {
		t.Helper()
		cmd := exec.Command(konane, args...)
		cmd.Env = append(os.Environ(), append([]string{"KONANE_TEST_AS_MAIN=1", "KONANE_TEST_NO_TRAINER=1", "PATH=" + pathDir}, env...)...)
		cmd.Stdin = strings.NewReader("from stdin\n")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		if exit, ok := err.(*exec.ExitError); ok {
			return out.String(), exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return out.String(), 0
	}
	out, status := konaneTrain(nil, "train", "--run", filepath.Join(dir, "run"), "--generations", "1")
	if status != 2 || strings.Count(out, "\n") != 1 || !strings.Contains(out, "go build -tags trainer -o konane-train ./cmd/konane") {
		t.Errorf("without konane-train: status %d, output %q; want 2 and one line saying how to build it", status, out)
	}
	beside := filepath.Join(dir, trainBinary)
	if err := os.Symlink(konane, beside); err != nil {
		t.Fatal(err)
	}
	if out, status := konaneTrain(nil, "train", "--run", filepath.Join(dir, "run")); status != 2 || !strings.Contains(out, "is this konane, which has no trainer") {
		t.Errorf("with konane-train this konane: status %d, output %q; want 2, not a loop", status, out)
	}
	os.Remove(beside)
	script := "#!" + sh + "\necho \"${0##*/} $* $KONANE_TEST_SEEN\"\n" + cat + "\nexit 3\n"
	if err := os.WriteFile(beside, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	out, status = konaneTrain([]string{"KONANE_TEST_SEEN=env"}, "train", "--run", "r u n", "--generations", "1")
	if want := "konane train: running " + beside + "\nkonane-train train --run r u n --generations 1 env\nfrom stdin\n"; status != 3 || out != want {
		t.Errorf("with konane-train beside konane: status %d, output %q; want 3 and %q", status, out, want)
	}
	// Help, bad flags and the checks that need no trainer are konane's own.
	if out, status = konaneTrain(nil, "train", "--no-such-flag"); status != 1 || strings.Contains(out, "from stdin") {
		t.Errorf("a bad flag: status %d, output %q", status, out)
	}
	if out, status = konaneTrain(nil, "train", "--generations", "1"); status == 3 || !strings.Contains(out, "--run DIR is required") || strings.Contains(out, "from stdin") {
		t.Errorf("no --run: status %d, output %q; want konane's own error", status, out)
	}
	if out, status = konaneTrain(nil, "train", "--run", filepath.Join(dir, "run"), "--resume"); status == 3 || !strings.Contains(out, "holds no run") {
		t.Errorf("--resume of no run: status %d, output %q; want konane's own error", status, out)
	}
	// On PATH, when none is beside konane.
	onPath := filepath.Join(pathDir, trainBinary)
	if err := os.Rename(beside, onPath); err != nil {
		t.Fatal(err)
	}
	out, status = konaneTrain(nil, "train", "--run", "r")
	if want := "konane train: running " + onPath + "\nkonane-train train --run r \nfrom stdin\n"; status != 3 || out != want {
		t.Errorf("with konane-train on PATH: status %d, output %q; want 3 and %q", status, out, want)
	}
}

// copyTestBinary copies the test binary (which plays konane: TestMain) to
// dir/name: a copy, not a symlink, so that os.Executable is in dir.
func copyTestBinary(t *testing.T, dir, name string) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	exe, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, exe, 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestKonaneTrainVersion: konane names the konane-train it runs on
// stderr, and konane-train refuses in one line naming both versions when
// the konane that ran it is another version (an old konane-train left
// beside a rebuilt konane).
func TestKonaneTrainVersion(t *testing.T) {
	dir := t.TempDir()
	konane := copyTestBinary(t, dir, "konane")
	train := copyTestBinary(t, dir, trainBinary)
	cmd := exec.Command(konane, "train", "--run", filepath.Join(dir, "run"), "--generations", "1")
	cmd.Env = append(os.Environ(), "KONANE_TEST_AS_MAIN=1", "KONANE_TEST_NO_TRAINER=1", "PATH=",
		"KONANE_TEST_VERSION_konane=1111111", "KONANE_TEST_VERSION_konane-train=2222222+modified")
	out, err := cmd.CombinedOutput()
	exit, ok := err.(*exec.ExitError)
	if !ok || exit.ExitCode() != 2 {
		t.Fatalf("versions differ: %v, output %q; want exit status 2", err, out)
	}
	want := "konane train: running " + train + "\n"
	if !strings.HasPrefix(string(out), want) {
		t.Errorf("output %q; want it to start with %q", out, want)
	}
	rest := strings.TrimPrefix(string(out), want)
	if strings.Count(rest, "\n") != 1 || !strings.Contains(rest, "2222222+modified") || !strings.Contains(rest, "1111111") {
		t.Errorf("refusal %q; want one line naming both versions", rest)
	}
	if _, err := os.Stat(filepath.Join(dir, "run")); err == nil {
		t.Error("the refused konane-train made the run directory")
	}
}

// TestCheckTrainVersion: konane-train refuses only two known versions
// that differ.
func TestCheckTrainVersion(t *testing.T) {
	for _, c := range []struct {
		parent, own string
		refused     bool
	}{
		{"", "abc", false},
		{"abc", "abc", false},
		{"abc+modified", "abc+modified", false},
		{noVCSVersion, "abc", false},
		{"abc", noVCSVersion, false},
		{"abc", "abc+modified", true},
		{"v1.2.0", "abc", true},
	} {
		err := checkTrainVersion(c.parent, c.own)
		if (err != nil) != c.refused {
			t.Errorf("checkTrainVersion(%q, %q) = %v; refused want %v", c.parent, c.own, err, c.refused)
		}
		if err != nil && (!strings.Contains(err.Error(), c.parent) || !strings.Contains(err.Error(), c.own)) {
			t.Errorf("checkTrainVersion(%q, %q) = %v; want both versions named", c.parent, c.own, err)
		}
	}
}

// TestTrainBucketNeedsTags: konane-train without the bucket's driver says
// to build konane-train with the driver's tag and trainer, not only
// "build konane with -tags s3", which the user may already have done.
func TestTrainBucketNeedsTags(t *testing.T) {
	for _, c := range []struct{ run, want string }{
		{"s3://bucket/runs/6x6", "go build -tags s3,trainer -o konane-train ./cmd/konane"},
		{"gs://bucket/runs/6x6", "go build -tags gcs,trainer -o konane-train ./cmd/konane"},
		{"azblob://container/runs/6x6", "go build -tags azure,trainer -o konane-train ./cmd/konane"},
	} {
		if store, err := runstore.Open(context.Background(), c.run); err == nil {
			store.Close()
			continue // this test binary has the driver
		}
		var out bytes.Buffer
		err := run(context.Background(), []string{"train", "--run", c.run, "--selfplay=false", "--size", "6"}, nil, &out, &out)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("konane-train --run %s: %v; want one line with %q", c.run, err, c.want)
		}
	}
}
