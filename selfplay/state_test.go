package selfplay

import (
	"bytes"
	"context"
	"errors"
	"github.com/konanezero/konane/runfiles"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/runstore"
)

// TestStateWrittenAtCreation: a run has its state.json (generation 0)
// from the start, before its first generation is done.
func TestStateWrittenAtCreation(t *testing.T) {
	dir := t.TempDir()
	ctx, stop := context.WithCancel(context.Background())
	hooks := Hooks{Start: stop} // interrupted before its first game
	if err := Run(ctx, dir, fixtureConfig(), hooks, t.Logf); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, runfiles.StateFile))
	if err != nil {
		t.Fatalf("no state.json after the run's creation: %v", err)
	}
	if st, err := runfiles.ParseState(b); err != nil || st.Generation != 0 {
		t.Fatalf("state %+v, %v; want generation 0", st, err)
	}
}

// TestMissingStateRefused: a run whose state.json was deleted is refused
// with an error naming the file, and its models are left as they were
// (a03df0f started it again from generation 1 and overwrote them).
func TestMissingStateRefused(t *testing.T) {
	dir := copyFixture(t, "run-local")
	model := filepath.Join(dir, runfiles.ModelsDir, runfiles.ModelName(1))
	before, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, runfiles.StateFile)); err != nil {
		t.Fatal(err)
	}
	cfg := fixtureConfig()
	cfg.Generations = 3
	err = Run(context.Background(), dir, cfg, Hooks{}, t.Logf)
	var fe *FileError
	if !errors.As(err, &fe) || !strings.HasSuffix(fe.Path, runfiles.StateFile) || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("run without state.json: %v, want a FileError naming %s", err, runfiles.StateFile)
	}
	if after, _ := os.ReadFile(model); !bytes.Equal(before, after) {
		t.Error("the refused run rewrote models/" + runfiles.ModelName(1))
	}

	ctx := context.Background()
	wdir := copyFixture(t, "run-workers")
	os.Remove(filepath.Join(wdir, runfiles.StateFile))
	store, err := runstore.Open(ctx, wdir)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	if err := TrainFromWorkers(ctx, store, cfg, Hooks{}, t.Logf); !errors.As(err, &fe) || !strings.HasSuffix(fe.Path, runfiles.StateFile) {
		t.Fatalf("worker-fed run without state.json: %v, want a FileError naming %s", err, runfiles.StateFile)
	}
}

// TestCommittedModelWriteOnce: the model of a committed generation is
// never replaced by other weights; an uncommitted one may be.
func TestCommittedModelWriteOnce(t *testing.T) {
	ctx := context.Background()
	store, err := runstore.Open(ctx, copyFixture(t, "run-workers"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	d, err := OpenStoreRunDir(ctx, store)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	other, err := net.New(fixtureConfig().Net, 99)
	if err != nil {
		t.Fatal(err)
	}
	before, _ := store.Read(ctx, runfiles.ModelKey(2))
	ok := func() error { return nil }
	var fe *FileError
	if _, err := d.publishModel(2, 2, other, ok); !errors.As(err, &fe) {
		t.Fatalf("replacing committed generation 2: %v, want a FileError", err)
	}
	if after, _ := store.Read(ctx, runfiles.ModelKey(2)); !bytes.Equal(before, after) {
		t.Error("a committed model was replaced")
	}
	if _, err := d.publishModel(2, 1, other, ok); err != nil {
		t.Fatalf("replacing uncommitted generation 2: %v", err)
	}
}

// TestSwappedFilesRefused: a checkpoint or a shard of another generation
// copied over this one's is refused on resume (a03df0f trained on from
// it). Old files, without the record, still load (TestResumeLocalFixture).
func TestSwappedFilesRefused(t *testing.T) {
	dir := copyFixture(t, "run-local")
	cfg := fixtureConfig()
	cfg.Generations = 4
	if err := Run(context.Background(), dir, cfg, Hooks{}, t.Logf); err != nil {
		t.Fatal(err)
	}
	cfg.Generations = 5
	for _, c := range []struct{ from, to, want string }{
		{filepath.Join(runfiles.CheckpointsDir, runfiles.CheckpointName(3)), filepath.Join(runfiles.CheckpointsDir, runfiles.CheckpointName(4)), "not the checkpoint of generation 4"},
		{filepath.Join(runfiles.ReplayDir, runfiles.ShardName(3)), filepath.Join(runfiles.ReplayDir, runfiles.ShardName(4)), "holds generation 3"},
	} {
		run := filepath.Join(t.TempDir(), "run")
		os.CopyFS(run, os.DirFS(dir))
		b, err := os.ReadFile(filepath.Join(run, c.from))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(run, c.to), b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := Run(context.Background(), run, cfg, Hooks{}, t.Logf); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s copied over %s: %v, want an error saying %q", c.from, c.to, err, c.want)
		}
	}
}
