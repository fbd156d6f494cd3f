package lockfile

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

func TestAcquireExcludesSecondHolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lock")
	l, err := Acquire(path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Acquire(path)
	var busy *BusyError
	if !errors.As(err, &busy) {
		t.Fatalf("second Acquire: got %v, want a *BusyError", err)
	}
	if busy.PID != os.Getpid() || busy.Path != path {
		t.Errorf("BusyError = %+v, want pid %d and path %s", busy, os.Getpid(), path)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if err := l.Release(); err != nil {
		t.Fatalf("second Release: %v", err)
	}
	l2, err := Acquire(path)
	if err != nil {
		t.Fatalf("Acquire after Release: %v", err)
	}
	l2.Release()
}

// TestLockDiesWithHolder checks that a killed holder leaves no stale lock:
// a child process takes the lock and is killed with SIGKILL.
func TestLockDiesWithHolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lock")
	if os.Getenv("LOCKFILE_HOLD") != "" {
		l, err := Acquire(os.Getenv("LOCKFILE_HOLD"))
		if err != nil {
			os.Exit(2)
		}
		os.Stdout.Write([]byte("held\n"))
		// Hold until killed. A sleep, not select{}: with no timer pending the
		// runtime would call select{} a deadlock and exit, and an unused lock
		// could be collected and its file closed, releasing the lock early.
		time.Sleep(time.Hour)
		runtime.KeepAlive(l)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockDiesWithHolder$")
	cmd.Env = append(os.Environ(), "LOCKFILE_HOLD="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 5)
	if _, err := out.Read(buf); err != nil || string(buf) != "held\n" {
		cmd.Process.Kill()
		t.Fatalf("child did not take the lock: %q, %v", buf, err)
	}
	_, err = Acquire(path)
	var busy *BusyError
	if !errors.As(err, &busy) || busy.PID != cmd.Process.Pid {
		cmd.Process.Kill()
		t.Fatalf("while the child holds it: got %v, want busy by pid %d", err, cmd.Process.Pid)
	}
	if pid, err := Holder(path); pid != cmd.Process.Pid || err != nil {
		cmd.Process.Kill()
		t.Fatalf("Holder while the child holds it: %d, %v; want %d", pid, err, cmd.Process.Pid)
	}
	cmd.Process.Kill()
	cmd.Wait()
	// The killed child's id is still in the file, but it is gone.
	if pid, err := Holder(path); pid != 0 || err != nil {
		t.Fatalf("Holder after the holder was killed: %d, %v; want 0", pid, err)
	}
	l, err := Acquire(path)
	if err != nil {
		t.Fatalf("after the holder was killed: %v", err)
	}
	l.Release()
}

// TestHolder: the process holding a lock, from the file alone: none for a
// missing file, this process while it holds the lock, none once released
// (Release clears the id).
func TestHolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lock")
	if pid, err := Holder(path); pid != 0 || err != nil {
		t.Fatalf("Holder of a missing file: %d, %v", pid, err)
	}
	l, err := Acquire(path)
	if err != nil {
		t.Fatal(err)
	}
	if pid, err := Holder(path); pid != os.Getpid() || err != nil {
		t.Fatalf("Holder while held: %d, %v; want %d", pid, err, os.Getpid())
	}
	l.Release()
	if pid, err := Holder(path); pid != 0 || err != nil {
		t.Fatalf("Holder after Release: %d, %v; want 0", pid, err)
	}
	// A holder on another machine cannot be checked: it counts; one of
	// this machine that is gone does not, nor does a file of nonsense.
	for _, c := range []struct {
		data string
		want int
	}{{"2147483000 another-machine\n", 2147483000}, {"2147483000 " + hostname() + "\n", 0}, {"2147483000\n", 0}, {"x y\n", 0}} {
		if err := os.WriteFile(path, []byte(c.data), 0o644); err != nil {
			t.Fatal(err)
		}
		if pid, err := Holder(path); pid != c.want || err != nil {
			t.Errorf("Holder of a file saying %q: %d, %v; want %d", c.data, pid, err, c.want)
		}
	}
}
