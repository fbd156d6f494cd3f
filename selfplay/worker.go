package selfplay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/runstore"
	"golang.org/x/sync/errgroup"
)

// A run shared by one trainer and self-play workers (konane selfplay) in a
// runstore.Store, besides the files of a local run:
//
//	models/latest.json                  the newest model, its sha256, the games wanted per generation
//	replay/gen-NNNNNN/<sha256>.shard    one game played by model NNNNNN, uploaded create-only by a worker
//	replay/gen-NNNNNN.keys              the worker shards that generation NNNNNN trained on
//	lease/                              the trainer's lease (runstore.Lease)
//
// A worker plays with the newest model, switching between games only,
// and writes every finished game to its spool before uploading it under
// its content hash, so that a worker killed at any moment loses no game
// that was finished and doubles none. The trainer ingests the shards of
// the last AcceptWindow model generations, each exactly once (its keys go
// into state.json, the commit point).

// AcceptWindow is how many model generations back the trainer accepts
// worker games from: games of the newest model and of the one before it,
// which workers were still finishing when the newest appeared.
const AcceptWindow = 2

func workerShardKey(gen int, sum string) string {
	return fmt.Sprintf("replay/gen-%06d/%s.shard", gen, sum)
}

// parseWorkerShardKey returns the generation and hash of a worker shard key.
func parseWorkerShardKey(key string) (gen int, sum string, ok bool) {
	var rest string
	if n, err := fmt.Sscanf(key, "replay/gen-%06d/%s", &gen, &rest); n != 2 || err != nil {
		return 0, "", false
	}
	sum, ok = strings.CutSuffix(rest, ".shard")
	if !ok || len(sum) != 64 || key != workerShardKey(gen, sum) {
		return 0, "", false
	}
	return gen, sum, true
}

// spoolName names a game in a worker's spool: gen-NNNNNN-<sha256>.shard.
func spoolName(gen int, sum string) string { return fmt.Sprintf("gen-%06d-%s.shard", gen, sum) }

func parseSpoolName(name string) (key string, ok bool) {
	var gen int
	var rest string
	if n, err := fmt.Sscanf(name, "gen-%06d-%s", &gen, &rest); n != 2 || err != nil {
		return "", false
	}
	sum, ok := strings.CutSuffix(rest, ".shard")
	if !ok || len(sum) != 64 || spoolName(gen, sum) != name {
		return "", false
	}
	return workerShardKey(gen, sum), true
}

// WorkerConfig is the settings of a self-play worker. The games' settings
// (board, search, playout cap) come from the run's config.json.
type WorkerConfig struct {
	Parallel  int           // games in flight
	EvalBatch int           // evaluator batch (0: Parallel)
	CacheSize int           // evaluator position cache entries
	Seed      uint64        // seed of the worker's games
	Poll      time.Duration // how often to look for a new model
	Duration  time.Duration // stop playing after this wall time (0: no limit)
	Games     int           // stop playing after this many games (0: no limit)
	// Drain is how long a cancelled worker goes on uploading its spool
	// (Kubernetes gives a stopped pod 30 s by default); what is left stays
	// in the spool for the next start.
	Drain time.Duration
}

// Validate reports the first invalid setting.
func (w WorkerConfig) Validate() error {
	switch {
	case w.Parallel < 1:
		return fmt.Errorf("selfplay: worker games in flight %d: want ≥ 1", w.Parallel)
	case w.EvalBatch < 0 || w.CacheSize < 0 || w.Games < 0 || w.Duration < 0 || w.Drain < 0:
		return errors.New("selfplay: worker batch, cache, games, time and drain must not be negative")
	case w.Poll <= 0:
		return fmt.Errorf("selfplay: model poll interval %v: want > 0", w.Poll)
	}
	return nil
}

// WorkerHooks lets a caller follow a worker. Nil fields are skipped; they
// may be called from several goroutines, never at once.
type WorkerHooks struct {
	Model    func(gen int)                // now playing with model gen
	Game     func(gen int, name string)   // a game finished and is in the spool
	Uploaded func(key string)             // a game is in the store
	Paused   func(gen, games, wanted int) // the newest generation has its games: waiting
	Retry    func(key string, err error)  // an upload failed and will be retried
}

// Work plays self-play games for the run in store until wc's limits or ctx
// is done, uploading each through spool. On return every finished game is
// uploaded, or kept in the spool for the next start when ctx was
// cancelled or the store stayed unreachable.
func Work(ctx context.Context, store *runstore.Store, spool *runstore.Spool, wc WorkerConfig, hooks WorkerHooks, logf func(string, ...any)) error {
	if err := wc.Validate(); err != nil {
		return err
	}
	if wc.EvalBatch == 0 {
		wc.EvalBatch = wc.Parallel
	}
	var hmu sync.Mutex
	call := func(f func()) { hmu.Lock(); f(); hmu.Unlock() }

	// The uploader runs until every spooled game is uploaded after play
	// stopped, or ctx is done.
	up := &uploader{store: store, spool: spool, queue: make(chan string, 1<<16), hooks: hooks, call: call}
	pending, err := spool.Pending()
	if err != nil {
		return err
	}
	if len(pending) > 0 {
		logf("uploading %d games left in the spool %s", len(pending), spool.Dir())
	}
	for _, n := range pending {
		up.queue <- n
	}
	upCtx, stopUploads := context.WithCancel(context.WithoutCancel(ctx))
	defer stopUploads()
	upDone := make(chan error, 1)
	go func() { upDone <- up.run(upCtx) }()

	playErr := play(ctx, store, spool, wc, up, hooks, call, logf)
	close(up.queue)
	if ctx.Err() != nil {
		if n, _ := spool.Pending(); len(n) > 0 && wc.Drain > 0 {
			logf("stopping: uploading the %d games of the spool for up to %v", len(n), wc.Drain)
		}
		defer time.AfterFunc(wc.Drain, stopUploads).Stop()
	}
	upErr := <-upDone
	if playErr != nil {
		return playErr
	}
	if ctx.Err() != nil {
		if n, _ := spool.Pending(); len(n) > 0 {
			logf("stopped; %d games wait in the spool for the next start", len(n))
		}
		return nil
	}
	return upErr
}

type uploader struct {
	store *runstore.Store
	spool *runstore.Spool
	queue chan string
	hooks WorkerHooks
	call  func(func())
}

// run uploads the spool entries named on the queue, in order, each until it
// succeeds (with backoff) or ctx is done.
func (u *uploader) run(ctx context.Context) error {
	for name := range u.queue {
		key, ok := parseSpoolName(name)
		if !ok {
			continue // not ours
		}
		for attempt := 1; ; attempt++ {
			err := u.upload(ctx, name, key)
			if err == nil {
				break
			}
			if ctx.Err() != nil {
				return nil
			}
			if u.hooks.Retry != nil {
				u.call(func() { u.hooks.Retry(key, err) })
			}
			if runstore.Sleep(ctx, u.store.Backoff.Wait(attempt)) != nil {
				return nil
			}
		}
	}
	return nil
}

func (u *uploader) upload(ctx context.Context, name, key string) error {
	data, err := u.spool.Read(name)
	if errors.Is(err, os.ErrNotExist) {
		return nil // a game played twice (same content): uploaded and removed already
	}
	if err != nil {
		return err
	}
	if err := u.store.Create(ctx, key, data); err != nil && !errors.Is(err, runstore.ErrExist) {
		return err // "already exists" is success: the same bytes are there
	}
	if err := u.spool.Remove(name); err != nil {
		return err
	}
	if u.hooks.Uploaded != nil {
		u.call(func() { u.hooks.Uploaded(key) })
	}
	return nil
}

// modelSlot is a model in use: games start with the newest slot and keep
// theirs to the end; a replaced slot's evaluator stops after its last game.
type modelSlot struct {
	gen     int
	eval    *net.Evaluator
	stop    context.CancelFunc
	refs    int
	retired bool
}

type models struct {
	mu  sync.Mutex
	cur *modelSlot
}

func (m *models) acquire() *modelSlot {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.cur.refs++
	return m.cur
}

func (m *models) release(s *modelSlot) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s.refs--; s.retired && s.refs == 0 {
		s.stop()
	}
}

func (m *models) swap(s *modelSlot) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if old := m.cur; old != nil {
		old.retired = true
		if old.refs == 0 {
			old.stop()
		}
	}
	m.cur = s
}

func (m *models) gen() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.cur.gen
}

// play runs the games; it returns nil when a limit is reached or ctx is done.
func play(ctx context.Context, store *runstore.Store, spool *runstore.Spool, wc WorkerConfig, up *uploader, hooks WorkerHooks, call func(func()), logf func(string, ...any)) error {
	if wc.Duration > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, wc.Duration)
		defer cancel()
	}
	cfg, err := waitForRun(ctx, store, wc.Poll, logf)
	if err != nil || ctx.Err() != nil {
		return err
	}
	latest, err := waitForLatest(ctx, store, wc.Poll, logf)
	if err != nil || ctx.Err() != nil {
		return err
	}
	var ms models
	var wg sync.WaitGroup // evaluators
	defer func() {
		ms.mu.Lock()
		if ms.cur != nil {
			ms.cur.retired = true
			if ms.cur.refs == 0 {
				ms.cur.stop()
			}
		}
		ms.mu.Unlock()
		wg.Wait()
	}()
	load := func(l runstore.Latest) error {
		s, err := loadSlot(ctx, store, cfg, wc, l)
		if err != nil {
			return err
		}
		evalCtx, stop := context.WithCancel(context.Background())
		s.stop = stop
		wg.Add(1)
		go func() { defer wg.Done(); s.eval.Run(evalCtx) }()
		ms.swap(s)
		if hooks.Model != nil {
			call(func() { hooks.Model(l.Generation) })
		}
		return nil
	}
	if err := load(latest); err != nil {
		return err
	}

	// The poller follows the newest model and the backpressure.
	var paused atomic.Bool
	var wanted atomic.Int64 // games per generation the trainer wants (0: no limit)
	wanted.Store(int64(latest.GamesPerGen))
	resume := make(chan struct{})
	var resumeMu sync.Mutex
	g, gctx := errgroup.WithContext(ctx)
	stopPoll := make(chan struct{})
	g.Go(func() error {
		lastModelPoll := time.Now()
		for {
			wait := 2 * time.Second
			if paused.Load() {
				wait = time.Second
			}
			select {
			case <-gctx.Done():
				return nil
			case <-stopPoll:
				return nil
			case <-time.After(min(wait, wc.Poll)):
			}
			if paused.Load() || time.Since(lastModelPoll) >= wc.Poll {
				lastModelPoll = time.Now()
				l, err := store.ReadLatest(gctx)
				if err != nil {
					logf("warning: reading the newest model: %v", err)
					continue
				}
				wanted.Store(int64(l.GamesPerGen))
				if l.Generation > ms.gen() {
					if err := load(l); err != nil {
						logf("warning: model generation %d: %v (keeping generation %d)", l.Generation, err, ms.gen())
						continue
					}
				}
			}
			gen := ms.gen()
			objs, err := store.List(gctx, fmt.Sprintf("replay/gen-%06d/", gen))
			if err != nil {
				logf("warning: %v", err)
				continue
			}
			have, want := len(objs), int(wanted.Load())
			full := want > 0 && have >= want
			if full && !paused.Load() && hooks.Paused != nil {
				call(func() { hooks.Paused(gen, have, want) })
			}
			resumeMu.Lock()
			if paused.Load() && !full {
				close(resume)
				resume = make(chan struct{})
			}
			paused.Store(full)
			resumeMu.Unlock()
		}
	})

	var started atomic.Int64
	rng := rand.New(rand.NewPCG(wc.Seed, 0x5e1f))
	seeds := make(chan uint64)
	g.Go(func() error {
		defer close(seeds)
		for {
			select {
			case seeds <- rng.Uint64():
			case <-gctx.Done():
				return nil
			}
		}
	})
	var workers sync.WaitGroup
	var firstErr error
	var errOnce sync.Once
	for range wc.Parallel {
		workers.Add(1)
		go func() {
			defer workers.Done()
			for seed := range seeds {
				if wc.Games > 0 && started.Add(1) > int64(wc.Games) {
					return
				}
				for paused.Load() {
					resumeMu.Lock()
					ch := resume
					resumeMu.Unlock()
					select {
					case <-ch:
					case <-gctx.Done():
						return
					case <-time.After(time.Second):
					}
				}
				s := ms.acquire()
				game, err := PlayGame(gctx, s.eval, cfg.Game, seed)
				ms.release(s)
				if err != nil {
					if gctx.Err() == nil {
						errOnce.Do(func() { firstErr = err })
					}
					return
				}
				var buf bytes.Buffer
				if err := EncodeShard(&buf, cfg.Size, game.Samples); err != nil {
					errOnce.Do(func() { firstErr = err })
					return
				}
				name := spoolName(s.gen, runstore.SHA256(buf.Bytes()))
				if err := spool.Add(name, buf.Bytes()); err != nil {
					errOnce.Do(func() { firstErr = err })
					return
				}
				up.queue <- name
				if hooks.Game != nil {
					call(func() { hooks.Game(s.gen, name) })
				}
			}
		}()
	}
	workers.Wait()
	close(stopPoll)
	g.Wait()
	if firstErr != nil {
		return firstErr
	}
	return nil
}

// loadSlot downloads a model, checks its sha256 and makes its evaluator.
func loadSlot(ctx context.Context, store *runstore.Store, cfg Config, wc WorkerConfig, l runstore.Latest) (*modelSlot, error) {
	data, err := store.ReadVerified(ctx, l.Model, l.SHA256)
	if err != nil {
		return nil, err
	}
	f, err := os.CreateTemp("", "konane-model-*.safetensors")
	if err != nil {
		return nil, fmt.Errorf("selfplay: %w", err)
	}
	defer os.Remove(f.Name())
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("selfplay: %w", err)
	}
	m, err := net.LoadForSize(f.Name(), cfg.Size)
	if err != nil {
		return nil, fmt.Errorf("selfplay: model %s of %s: %w", l.Model, store.Location(), err)
	}
	eval, err := net.NewEvaluator(m, net.EvalOptions{Batch: wc.EvalBatch, CacheSize: wc.CacheSize})
	if err != nil {
		return nil, err
	}
	return &modelSlot{gen: l.Generation, eval: eval}, nil
}

// waitForRun reads the run's config.json, waiting for the trainer to write it.
func waitForRun(ctx context.Context, store *runstore.Store, poll time.Duration, logf func(string, ...any)) (Config, error) {
	var cfg Config
	for told := false; ; told = true {
		b, err := store.Read(ctx, configFile)
		if err == nil {
			if err := json.Unmarshal(b, &cfg); err != nil {
				return cfg, fmt.Errorf("selfplay: %s/%s is not a run config: %w", store.Location(), configFile, err)
			}
			return cfg, cfg.Game.Validate()
		}
		if !errors.Is(err, runstore.ErrNotExist) {
			return cfg, err
		}
		if !told {
			logf("waiting for a trainer to start the run in %s", store.Location())
		}
		if runstore.Sleep(ctx, poll) != nil {
			return cfg, nil
		}
	}
}

// waitForLatest reads models/latest.json, waiting for the first model.
func waitForLatest(ctx context.Context, store *runstore.Store, poll time.Duration, logf func(string, ...any)) (runstore.Latest, error) {
	for told := false; ; told = true {
		l, err := store.ReadLatest(ctx)
		if err == nil {
			return l, nil
		}
		if !errors.Is(err, runstore.ErrNotExist) {
			return l, err
		}
		if !told {
			logf("waiting for the trainer's first model")
		}
		if runstore.Sleep(ctx, poll) != nil {
			return l, nil
		}
	}
}
