package selfplay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/konanezero/konane/net/train"
	"github.com/konanezero/konane/runfiles"
	"github.com/konanezero/konane/runstore"
)

// TestWorkersFeedTrainer runs a trainer and two workers in one process on
// a file:// run: the trainer completes its generations on the workers'
// games, each trained on once, and the workers switch models and pause.
func TestWorkersFeedTrainer(t *testing.T) {
	ctx := context.Background()
	store := openStore(t, ctx, filepath.Join(t.TempDir(), "run"))
	cfg := tinyConfig()
	cfg.Generations = 3
	wctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	var mu sync.Mutex
	models := map[int]bool{}
	for i := range 2 {
		sp, err := runstore.OpenSpool(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		defer sp.Close()
		wg.Add(1)
		go func() {
			defer wg.Done()
			wc := WorkerConfig{Parallel: 2, Seed: uint64(i + 1), Poll: 50 * time.Millisecond}
			hooks := WorkerHooks{Model: func(gen int) { mu.Lock(); models[gen] = true; mu.Unlock() }}
			if err := Work(wctx, store, sp, wc, hooks, t.Logf); err != nil {
				t.Errorf("worker %d: %v", i, err)
			}
		}()
	}
	err := TrainFromWorkers(ctx, store, cfg, train.New, Hooks{}, t.Logf)
	stop()
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for g := 1; g <= 3; g++ {
		b, err := store.Read(ctx, fmt.Sprintf("replay/gen-%06d.keys", g))
		if err != nil {
			t.Fatal(err)
		}
		keys := strings.Fields(string(b))
		if len(keys) < cfg.GamesPerGen {
			t.Errorf("generation %d: %d games, want at least %d", g, len(keys), cfg.GamesPerGen)
		}
		for _, k := range keys {
			if seen[k] {
				t.Errorf("%s trained on twice", k)
			}
			seen[k] = true
		}
	}
	l, err := store.ReadLatest(ctx)
	if err != nil || l.Generation != 3 || l.GamesPerGen != cfg.GamesPerGen {
		t.Fatalf("pointer %+v, %v; want generation 3", l, err)
	}
	if !models[0] || len(models) < 2 {
		t.Errorf("workers played with models %v, want 0 and later ones", models)
	}
	// The local layout of a run is there too, for konane play and arena.
	if p, err := LatestModel(store.Dir()); err != nil || filepath.Base(p) != runfiles.ModelName(3) {
		t.Errorf("LatestModel: %s, %v", p, err)
	}
	// A resumed trainer goes on from the commit point.
	cfg.Generations = 3
	if err := TrainFromWorkers(ctx, store, cfg, train.New, Hooks{}, t.Logf); err != nil {
		t.Fatalf("resuming a finished run: %v", err)
	}
}

func TestTrainerRefusesSecond(t *testing.T) {
	ctx := context.Background()
	store := openStore(t, ctx, t.TempDir())
	l, err := store.Acquire(ctx, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release(ctx)
	cfg := tinyConfig()
	var held *runstore.HeldError
	if err := TrainFromWorkers(ctx, store, cfg, train.New, Hooks{}, t.Logf); !errors.As(err, &held) {
		t.Fatalf("a trainer on a held run: %v, want a HeldError", err)
	}
}

func TestShardAndSpoolNames(t *testing.T) {
	sum := strings.Repeat("0f", 32)
	key := runfiles.WorkerShardKey(12, sum)
	if g, s, ok := runfiles.ParseWorkerShardKey(key); !ok || g != 12 || s != sum {
		t.Fatalf("parse %s: %d %s %v", key, g, s, ok)
	}
	if k, ok := runfiles.ParseSpoolName(runfiles.SpoolName(12, sum)); !ok || k != key {
		t.Fatalf("spool name maps to %s %v, want %s", k, ok, key)
	}
	for _, bad := range []string{"replay/gen-000001.shard", "replay/gen-000001/x.shard", "replay/gen-1/" + sum + ".shard",
		"replay/gen-000001/" + sum + ".shard.1f.tmp", "replay/gen-000001/" + sum + ".keys"} {
		if _, _, ok := runfiles.ParseWorkerShardKey(bad); ok {
			t.Errorf("%s parsed as a worker shard", bad)
		}
	}
}

func FuzzParseSpoolName(f *testing.F) {
	f.Add(runfiles.SpoolName(3, strings.Repeat("ab", 32)))
	f.Add("gen-000003-x.shard")
	f.Add(".lock")
	f.Fuzz(func(t *testing.T, name string) {
		key, ok := runfiles.ParseSpoolName(name)
		if !ok {
			return
		}
		g, sum, ok := runfiles.ParseWorkerShardKey(key)
		if !ok || runfiles.SpoolName(g, sum) != name {
			t.Fatalf("%q → %q does not round-trip", name, key)
		}
	})
}

// TestBackpressureCountsOwnGames checks the worker's admission of games:
// the games listed in the store for its model and its own games in play
// or waiting for upload count against the games the trainer wants.
func TestBackpressureCountsOwnGames(t *testing.T) {
	b := newBackpressure()
	b.setWanted(4)
	gen := 3
	cur := func() int { return gen }
	admits := func() bool {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		defer cancel()
		return b.admit(ctx, cur)
	}
	if _, _, paused := b.listed(3, 2); paused {
		t.Fatal("paused with 2 of 4 games")
	}
	for i := range 2 {
		if !admits() {
			t.Fatalf("game %d refused with %d of 4", i+1, 2+i)
		}
		b.start(3)
	}
	if admits() {
		t.Fatal("admitted a game with 2 listed and 2 in play of 4")
	}
	if have, want, paused := b.listed(3, 2); !paused || have != 4 || want != 4 {
		t.Fatalf("listed: %d of %d, new pause %v; want 4 of 4, a new pause", have, want, paused)
	}
	if _, _, paused := b.listed(3, 2); paused {
		t.Fatal("the same pause reported twice")
	}
	b.done(3) // a game that failed
	if !admits() {
		t.Fatal("refused with 2 listed and 1 in play of 4")
	}
	b.start(3)
	// A game reaches the spool, then the store; the next listing shows it.
	name := runfiles.SpoolName(3, strings.Repeat("ab", 32))
	b.spool(name)
	b.uploaded(name)
	b.uploaded(runfiles.SpoolName(3, strings.Repeat("cd", 32))) // left by an earlier run: not counted
	if have, _, _ := b.listed(3, 3); have != 4 || admits() {
		t.Fatalf("after an upload: %d counted, want 4 and no admission", have)
	}
	// The next model's generation has none yet.
	gen = 4
	if !admits() {
		t.Fatal("a game of the next model refused")
	}
	if _, _, paused := b.listed(4, 0); paused || b.isPaused() {
		t.Fatal("paused on an empty generation")
	}
	b.setWanted(0) // no limit
	gen = 3
	if !admits() {
		t.Fatal("refused without a limit")
	}
}

// TestUploadReplacesBrokenObject: a game whose key already holds other
// bytes (a truncated upload left by a full disk) is not taken as uploaded:
// the broken object is replaced and reported, and only then does the
// spool copy go.
func TestUploadReplacesBrokenObject(t *testing.T) {
	ctx := context.Background()
	store := openStore(t, ctx, t.TempDir())
	spool := openSpool(t)
	data := bytes.Repeat([]byte("a game "), 1000)
	sum := runstore.SHA256(data)
	name, key := runfiles.SpoolName(3, sum), runfiles.WorkerShardKey(3, sum)
	if err := spool.Add(name, data); err != nil {
		t.Fatal(err)
	}
	if err := store.Put(ctx, key, data[:4096]); err != nil {
		t.Fatal(err)
	}
	var logged []string
	up := &uploader{store: store, spool: spool, call: func(f func()) { f() }, bp: newBackpressure(),
		logf: func(f string, a ...any) { logged = append(logged, fmt.Sprintf(f, a...)) }}
	if err := up.upload(ctx, name, key); err != nil {
		t.Fatal(err)
	}
	if _, err := store.ReadVerified(ctx, key, sum); err != nil {
		t.Fatalf("after the upload: %v", err)
	}
	if len(logged) != 1 || !strings.Contains(logged[0], key) {
		t.Errorf("logged %q, want one warning naming %s", logged, key)
	}
	if p, _ := spool.Pending(); len(p) != 0 {
		t.Errorf("spool still holds %v", p)
	}
}

// TestWorkOnLocalRun: a worker on a run whose trainer plays its own games
// says so at once, instead of waiting for a model forever.
func TestWorkOnLocalRun(t *testing.T) {
	dir := t.TempDir()
	b, _ := json.Marshal(tinyConfig())
	if err := os.WriteFile(filepath.Join(dir, runfiles.ConfigFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	store := openStore(t, ctx, dir)
	spool := openSpool(t)
	err := Work(ctx, store, spool, WorkerConfig{Parallel: 1, Seed: 1, Poll: 10 * time.Millisecond}, WorkerHooks{}, t.Logf)
	if !errors.Is(err, ErrNoWorkerTrainer) || ctx.Err() != nil {
		t.Fatalf("Work on a local run: %v, want ErrNoWorkerTrainer at once", err)
	}
}

// TestWorkerGamesLimitReturns: a worker with --games returns once its
// games are uploaded, instead of idling until it is killed (issue 47).
func TestWorkerGamesLimitReturns(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	store := openStore(t, ctx, filepath.Join(t.TempDir(), "run"))
	cfg := tinyConfig()
	cfg.Generations = 1
	cfg.GamesPerGen = 100 // the trainer waits; only the worker's limit ends its games
	tctx, stopTrainer := context.WithCancel(ctx)
	trained := make(chan error, 1)
	go func() { trained <- TrainFromWorkers(tctx, store, cfg, train.New, Hooks{}, t.Logf) }()
	defer func() { stopTrainer(); <-trained }()
	spool := openSpool(t)
	wc := WorkerConfig{Parallel: 2, Seed: 1, Poll: 20 * time.Millisecond, Games: 3}
	done := make(chan error, 1)
	go func() { done <- Work(ctx, store, spool, wc, WorkerHooks{}, t.Logf) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("a worker with Games: 3 did not return")
	}
	objs, err := store.List(ctx, runfiles.WorkerShardPrefix(0))
	if err != nil || len(objs) != 3 {
		t.Fatalf("the store lists %d games (%v), want 3", len(objs), err)
	}
}

// TestRunModeRecorded: a run records where its games are played, and
// neither a local trainer resumes a run fed by workers (whose games it
// would look for in games/, issue 47) nor the reverse.
func TestRunModeRecorded(t *testing.T) {
	ctx := context.Background()
	cfg := tinyConfig()
	cfg.Generations = 1

	local := t.TempDir()
	mustRun(t, local, cfg)
	store := openStore(t, ctx, local)
	var me *ModeError
	if err := TrainFromWorkers(ctx, store, cfg, train.New, Hooks{}, t.Logf); !errors.As(err, &me) || !strings.Contains(err.Error(), "without --selfplay=false") {
		t.Fatalf("workers on a local run: %v, want a ModeError", err)
	}

	fed := t.TempDir()
	wstore := openStore(t, ctx, fed)
	tctx, stop := context.WithCancel(ctx)
	hooks := Hooks{Start: stop} // the run is made; stop before its games
	if err := TrainFromWorkers(tctx, wstore, cfg, train.New, hooks, t.Logf); err != nil && !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
	if err := Run(ctx, fed, cfg, train.New, Hooks{}, t.Logf); !errors.As(err, &me) || !strings.Contains(err.Error(), "resume it with --selfplay=false") {
		t.Fatalf("a local trainer on a run fed by workers: %v, want a ModeError", err)
	}
	d := NewRunDir(fed)
	defer d.Close()
	saved, err := d.ReadConfig()
	if err != nil || saved.Games != ModeWorkers {
		t.Fatalf("config.json of a run fed by workers: games %q, %v", saved.Games, err)
	}
}

// TestJunkInGamesFolder: broken objects named as games, and other files,
// in the newest games folder do not stall the run: the trainer moves
// what it refuses to quarantine/ and the workers count only games, so
// the generation fills with real games (issue 47).
func TestJunkInGamesFolder(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dir := filepath.Join(t.TempDir(), "run")
	store := openStore(t, ctx, dir)
	cfg := tinyConfig()
	cfg.Generations = 1
	var junk []string
	stale := filepath.Join(dir, runfiles.WorkerShardPrefix(0)+".x.shard.tmp123")
	addJunk := func() { // once the run is made, before the workers' games
		for i := range cfg.GamesPerGen {
			b := []byte(fmt.Sprintf("not a game %d", i))
			k := runfiles.WorkerShardKey(0, runstore.SHA256(b))
			if err := store.Create(ctx, k, b); err != nil {
				t.Error(err)
			}
			junk = append(junk, k)
			if err := store.Create(ctx, fmt.Sprintf("%snotes-%d.txt", runfiles.WorkerShardPrefix(0), i), []byte("x")); err != nil {
				t.Error(err)
			}
		}
		if err := os.Symlink(filepath.Join(dir, "config.json"), filepath.Join(dir, runfiles.WorkerShardPrefix(0)+strings.Repeat("ab", 32)+".shard")); err != nil {
			t.Error(err)
		}
		// What a worker killed during an upload an hour ago left.
		hourAgo := time.Now().Add(-time.Hour)
		if err := os.WriteFile(stale, []byte("x"), 0o644); err != nil {
			t.Error(err)
		}
		os.Chtimes(stale, hourAgo, hourAgo)
	}
	started := make(chan struct{})
	wctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		sp, err := runstore.OpenSpool(t.TempDir())
		if err != nil {
			done <- err
			return
		}
		defer sp.Close()
		select {
		case <-started:
		case <-wctx.Done():
		}
		done <- Work(wctx, store, sp, WorkerConfig{Parallel: 2, Seed: 1, Poll: 20 * time.Millisecond}, WorkerHooks{}, t.Logf)
	}()
	err := TrainFromWorkers(ctx, store, cfg, train.New, Hooks{Start: func() { addJunk(); close(started) }}, t.Logf)
	stop()
	if werr := <-done; werr != nil {
		t.Errorf("worker: %v", werr)
	}
	if err != nil {
		t.Fatalf("the trainer: %v (the run stalled on the junk)", err)
	}
	for _, k := range junk {
		if _, err := store.Read(ctx, runfiles.QuarantineDir+"/"+k); err != nil {
			t.Errorf("%s not quarantined: %v", k, err)
		}
	}
	if _, err := os.Stat(stale); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a killed worker's temporary file is still there (%v)", err)
	}
	if _, err := os.Stat(filepath.Dir(stale)); err != nil {
		t.Errorf("the games folder: %v", err)
	}
}

// openStore opens the run at loc, closed when the test ends.
func openStore(t *testing.T, ctx context.Context, loc string) *runstore.Store {
	t.Helper()
	s, err := runstore.Open(ctx, loc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// openSpool opens a spool in a new temporary folder, closed when the test
// ends.
func openSpool(t *testing.T) *runstore.Spool {
	t.Helper()
	sp, err := runstore.OpenSpool(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sp.Close() })
	return sp
}
