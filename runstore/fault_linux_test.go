package runstore

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// TestFullDiskFile: the same on file://, where the disk is full for real:
// a child process whose file size limit (RLIMIT_FSIZE) is 64 KiB, so that
// writes beyond it fail with EFBIG.
func TestFullDiskFile(t *testing.T) {
	if dir := os.Getenv("KONANE_FSIZE_CHILD"); dir != "" {
		lim := syscall.Rlimit{Cur: 64 << 10, Max: 64 << 10}
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
			t.Skipf("setrlimit: %v", err)
		}
		checkFullDisk(t, open(t, dir), dir)
		return
	}
	runChild(t, "TestFullDiskFile", "KONANE_FSIZE_CHILD="+t.TempDir())
}

// TestFullDiskTmpfs: the same on a real full file system, a 64 KiB tmpfs;
// it needs root (to mount) and KONANE_TMPFS_TEST=1.
func TestFullDiskTmpfs(t *testing.T) {
	if os.Getenv("KONANE_TMPFS_TEST") == "" {
		t.Skip("set KONANE_TMPFS_TEST=1 (as root) to fill a real tmpfs")
	}
	dir := t.TempDir()
	if out, err := runCmd("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", dir); err != nil {
		t.Skipf("mount tmpfs: %v %s", err, out)
	}
	defer runCmd("umount", dir)
	checkFullDisk(t, open(t, dir), dir)
	var files []string
	filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			files = append(files, path)
		}
		return nil
	})
	if len(files) != 1 {
		t.Errorf("the tmpfs holds %v, want only state.json", files)
	}
}

// runChild runs test name of this test binary in a child process with
// the environment variable env set.
func runChild(t *testing.T, name, env string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+name+"$", "-test.v")
	cmd.Env = append(os.Environ(), env)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	if bytes.Contains(out, []byte("SKIP")) {
		t.Skipf("child skipped:\n%s", out)
	}
}

func runCmd(name string, args ...string) ([]byte, error) {
	return exec.Command(name, args...).CombinedOutput()
}
