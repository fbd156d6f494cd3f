package selfplay

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/konanezero/konane/net/train"
	"github.com/konanezero/konane/runfiles"

	"github.com/konanezero/konane/net"
)

// TestMain lets the test binary act as a training process that the kill
// test below starts and kills.
func TestMain(m *testing.M) {
	if dir := os.Getenv("KONANE_SELFPLAY_CHILD"); dir != "" {
		cfg := tinyConfig()
		cfg.Generations = 1000
		// Each step of the run is told on stdout, for the parent to kill
		// the child at a chosen moment.
		say := func(event string) { fmt.Println(event) }
		hooks := Hooks{
			Selfplay:   func(int, int) { say("selfplay") },
			Game:       func() { say("game") },
			Training:   func(int, int) { say("training") },
			Step:       func() { say("step") },
			Gate:       func(int) { say("gate") },
			Generation: func(runfiles.Metrics) { say("generation") },
		}
		if err := Run(context.Background(), dir, cfg, train.New, hooks, func(string, ...any) {}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestKillNineResumes kills a training child process with SIGKILL at
// several moments (told by the child's progress: during self-play, during
// training, just after a generation was committed, ...), then checks that
// every file of the run directory is whole and that the run resumes and
// goes on.
func TestKillNineResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	dir := t.TempDir()
	for i, at := range []struct {
		event string
		count int // kill once the child has told event this many times
	}{{"game", 2}, {"step", 3}, {"generation", 1}, {"training", 1}, {"game", 7}} {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "KONANE_SELFPLAY_CHILD="+dir)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		seen := 0
		sc := bufio.NewScanner(out)
		for seen < at.count && sc.Scan() {
			if sc.Text() == at.event {
				seen++
			}
		}
		cmd.Process.Kill()
		cmd.Wait()
		if seen < at.count {
			t.Fatalf("kill %d: the child ended before telling %q %d times", i, at.event, at.count)
		}
		checkRunFiles(t, dir, i)
	}
	st, err := NewRunDir(dir).readState()
	if err != nil {
		t.Fatal(err)
	}
	cfg := tinyConfig()
	cfg.Generations = st.Generation + 1
	if err := Run(context.Background(), dir, cfg, train.New, Hooks{}, func(string, ...any) {}); err != nil {
		t.Fatalf("resuming after kill -9: %v", err)
	}
	if st2, _ := NewRunDir(dir).readState(); st2.Generation != st.Generation+1 {
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
			if filepath.Base(path) == runfiles.StateFile {
				_, err = NewRunDir(dir).readState()
			}
		}
		return err
	})
	if err != nil {
		t.Fatalf("after kill %d: %v", round, err)
	}
}
