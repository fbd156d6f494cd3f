package selfplay

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/konanezero/konane/runfiles"
)

// TestOneTrainerPerRun starts a training process, checks that a second
// one on the same directory fails at once with one line naming the
// directory and the first one's PID, kills the first with SIGKILL and
// checks that the lock died with it.
func TestOneTrainerPerRun(t *testing.T) {
	dir := t.TempDir()
	first := exec.Command(os.Args[0], "-test.run=^$")
	first.Env = append(os.Environ(), "KONANE_SELFPLAY_CHILD="+dir)
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		first.Process.Kill()
		first.Wait()
	}()
	want := strconv.Itoa(first.Process.Pid)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		b, _ := os.ReadFile(filepath.Join(dir, runfiles.LockFile))
		if f := strings.Fields(string(b)); len(f) > 0 && f[0] == want { // its pid, then its machine
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the first trainer did not take the lock: lock file holds %q", b)
		}
	}

	second := exec.Command(os.Args[0], "-test.run=^$")
	second.Env = append(os.Environ(), "KONANE_SELFPLAY_CHILD="+dir)
	t0 := time.Now()
	out, err := second.CombinedOutput()
	if err == nil {
		t.Fatalf("a second trainer ran on the same directory: %s", out)
	}
	msg := strings.TrimSuffix(string(out), "\n")
	if strings.Contains(msg, "\n") || !strings.Contains(msg, dir) || !strings.Contains(msg, "pid "+want) {
		t.Errorf("second trainer said %q; want one line naming %s and pid %s", out, dir, want)
	}
	if d := time.Since(t0); d > 10*time.Second {
		t.Errorf("the second trainer took %v to give up", d)
	}

	first.Process.Kill() // SIGKILL
	first.Wait()
	d, err := OpenRunDir(dir)
	if err != nil {
		t.Fatalf("after kill -9 of the holder: %v", err)
	}
	defer d.Close()
	var locked *LockedError
	if _, err := OpenRunDir(dir); !errors.As(err, &locked) || locked.PID != os.Getpid() || locked.Dir != dir {
		t.Errorf("second OpenRunDir in the same process: %v, want a LockedError with pid %d", err, os.Getpid())
	}
	d.Close()
	d2, err := OpenRunDir(dir)
	if err != nil {
		t.Fatalf("after Close: %v", err)
	}
	d2.Close()
	if got := (&LockedError{Dir: "runs/x"}).Error(); got != fmt.Sprintf("selfplay: run directory %s is in use by another trainer (pid unknown)", "runs/x") {
		t.Errorf("message without a pid: %q", got)
	}
}
