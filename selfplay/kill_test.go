package selfplay

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/konanezero/konane/net"
)

// TestMain lets the test binary act as a training process that the kill
// test below starts and kills.
func TestMain(m *testing.M) {
	if dir := os.Getenv("KONANE_SELFPLAY_CHILD"); dir != "" {
		cfg := tinyConfig()
		cfg.Generations = 1000
		if err := Run(context.Background(), dir, cfg, Hooks{}, func(string, ...any) {}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestKillNineResumes kills a training child process with SIGKILL at
// several moments, then checks that every file of the run directory is
// whole and that the run resumes and goes on.
func TestKillNineResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	dir := t.TempDir()
	for i, wait := range []time.Duration{700, 1100, 400, 1500, 900} {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "KONANE_SELFPLAY_CHILD="+dir)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(wait * time.Millisecond)
		cmd.Process.Kill()
		cmd.Wait()
		checkRunFiles(t, dir, i)
	}
	st, err := readState(filepath.Join(dir, stateFile))
	if err != nil {
		t.Fatal(err)
	}
	cfg := tinyConfig()
	cfg.Generations = st.Generation + 1
	if err := Run(context.Background(), dir, cfg, Hooks{}, func(string, ...any) {}); err != nil {
		t.Fatalf("resuming after kill -9: %v", err)
	}
	if st2, _ := readState(filepath.Join(dir, stateFile)); st2.Generation != st.Generation+1 {
		t.Fatalf("resumed run reached generation %d, want %d", st2.Generation, st.Generation+1)
	}
	checkRunFiles(t, dir, -1)
}

// checkRunFiles reads every shard, record, model and the state of a run.
func checkRunFiles(t *testing.T, dir string, round int) {
	t.Helper()
	err := filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		if strings.Contains(filepath.Base(path), ".tmp") {
			return nil // an abandoned temporary file: never read, removed on the next start
		}
		switch filepath.Ext(path) {
		case ".shard":
			_, err = ReadShard(path, 4)
		case ".safetensors":
			_, err = net.Load(path)
		case ".json":
			if filepath.Base(path) == stateFile {
				_, err = readState(path)
			}
		}
		return err
	})
	if err != nil {
		t.Fatalf("after kill %d: %v", round, err)
	}
}
