package selfplay

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/net/train"
	"github.com/konanezero/konane/runfiles"
	"github.com/konanezero/konane/runstore"
)

// TestStateWrittenAtCreation: a run has its state.json (generation 0)
// from the start, before its first generation is done.
func TestStateWrittenAtCreation(t *testing.T) {
	dir := t.TempDir()
	ctx, stop := context.WithCancel(context.Background())
	hooks := Hooks{Start: stop} // interrupted before its first game
	if err := Run(ctx, dir, fixtureConfig(), train.New, hooks, t.Logf); err != nil {
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
	err = Run(context.Background(), dir, cfg, train.New, Hooks{}, t.Logf)
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
	if err := TrainFromWorkers(ctx, store, cfg, train.New, Hooks{}, t.Logf); !errors.As(err, &fe) || !strings.HasSuffix(fe.Path, runfiles.StateFile) {
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
	mustRun(t, dir, cfg)
	cfg.Generations = 5
	for _, c := range []struct{ from, to, want string }{
		{filepath.Join(runfiles.CheckpointsDir, runfiles.CheckpointName(3)), filepath.Join(runfiles.CheckpointsDir, runfiles.CheckpointName(4)), "not the checkpoint of generation 4"},
		{filepath.Join(runfiles.ReplayDir, runfiles.ShardName(3)), filepath.Join(runfiles.ReplayDir, runfiles.ShardName(4)), "the shard was replaced"},
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
		if err := Run(context.Background(), run, cfg, train.New, Hooks{}, t.Logf); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s copied over %s: %v, want an error saying %q", c.from, c.to, err, c.want)
		}
	}
}

// TestShardOfAnotherRunRefused: a replay shard of another run of the same
// seed, copied over this run's, is refused when the run resumes, in one
// line naming the file (its tag, the generation and the seed, agrees:
// issue 47 item 6).
func TestShardOfAnotherRunRefused(t *testing.T) {
	ctx := context.Background()
	cfg := tinyConfig()
	cfg.Generations = 1
	a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	mustRun(t, a, cfg)
	other := cfg
	other.GamesPerGen = 4 // another run of the same seed
	mustRun(t, b, other)
	shard := filepath.Join(a, runfiles.ShardKey(1))
	data, err := os.ReadFile(filepath.Join(b, runfiles.ShardKey(1)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := decodeRunShard(shard, data, cfg.Size, 1, cfg.Seed); err != nil {
		t.Fatalf("the other run's shard does not pass the tag check: %v", err)
	}
	if err := os.WriteFile(shard, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg.Generations = 2
	err = Run(ctx, a, cfg, train.New, Hooks{}, t.Logf)
	var fe *FileError
	if !errors.As(err, &fe) || fe.Path != shard || !strings.Contains(err.Error(), "the shard was replaced") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("resume with another run's shard: %v, want one line naming %s", err, shard)
	}
}

// TestRunIdentity: a new run gets a random identity in config.json and
// state.json, which is no setting (ResumeDiff ignores it) and which a
// resumed run keeps; two runs of one seed get two; a state.json of
// another run beside the config is refused, naming it.
func TestRunIdentity(t *testing.T) {
	cfg := fixtureConfig()
	cfg.Generations = 1
	var logged []string
	start := func(dir string) (Config, runfiles.State) {
		t.Helper()
		logged = nil
		logf := func(f string, a ...any) { logged = append(logged, fmt.Sprintf(f, a...)) }
		if err := Run(context.Background(), dir, cfg, train.New, Hooks{}, logf); err != nil {
			t.Fatal(err)
		}
		d := NewRunDir(dir)
		c, err := d.ReadConfig()
		if err != nil {
			t.Fatal(err)
		}
		st, err := d.readState()
		if err != nil {
			t.Fatal(err)
		}
		return c, st
	}
	a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	ca, sta := start(a)
	cb, _ := start(b)
	if !runfiles.ValidRunID(ca.RunID) || sta.RunID != ca.RunID {
		t.Fatalf("run identity %q in config.json, %q in state.json: want one, valid", ca.RunID, sta.RunID)
	}
	if want := "run " + cb.RunID + ", seed 1"; !slices.Contains(logged, want) {
		t.Errorf("log %q: want %q", logged, want)
	}
	if ca.RunID == cb.RunID {
		t.Fatalf("two runs of one seed have one identity %s", ca.RunID)
	}
	if diff := ResumeDiff(ca, cb); diff != "" {
		t.Errorf("ResumeDiff of two runs of the same settings: %s", diff)
	}
	cfg.Generations = 2
	if again, st := start(a); again.RunID != ca.RunID || st.RunID != ca.RunID || st.Generation != 2 {
		t.Fatalf("resumed run: identity %q, state %+v; want %s kept", again.RunID, st, ca.RunID)
	}

	conf, err := os.ReadFile(filepath.Join(b, runfiles.ConfigFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(a, runfiles.ConfigFile), conf, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg.Generations = 3
	err = Run(context.Background(), a, cfg, train.New, Hooks{}, t.Logf)
	var fe *FileError
	if !errors.As(err, &fe) || fe.Path != filepath.Join(a, runfiles.StateFile) || !strings.Contains(err.Error(), "the files of two runs are mixed") {
		t.Fatalf("resume with another run's config.json: %v, want a FileError naming state.json", err)
	}
}
