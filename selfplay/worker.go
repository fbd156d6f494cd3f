package selfplay

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/konanezero/konane/runfiles"
	"math/rand/v2"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/runstore"
	"golang.org/x/sync/errgroup"
)

// A worker plays with the newest model of a run fed by workers (see
// RunDir for the layout), switching between games only, and writes every
// finished game to its spool before uploading it under its content hash,
// so that a worker killed at any moment loses no game that was finished
// and doubles none. The trainer (trainer.go) ingests the shards of the
// last AcceptWindow model generations, each exactly once.

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
	up := &uploader{store: store, spool: spool, queue: make(chan string, 1<<16), hooks: hooks, call: call, logf: logf, bp: newBackpressure()}
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
	logf  func(string, ...any)
	bp    *backpressure // told of every upload
}

// run uploads the spool entries named on the queue, in order, each until it
// succeeds (with backoff) or ctx is done.
func (u *uploader) run(ctx context.Context) error {
	for name := range u.queue {
		key, ok := runfiles.ParseSpoolName(name)
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
	// An object already under key counts only if it holds these bytes; a
	// broken one (a truncated upload) is replaced.
	replaced, err := u.store.CreateVerified(ctx, key, data)
	if err != nil {
		return err
	}
	if replaced {
		u.call(func() { u.logf("warning: %s in the store did not hold its game (a broken upload): replaced it", key) })
	}
	if err := u.spool.Remove(name); err != nil {
		return err
	}
	u.bp.uploaded(name)
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
	// A worker started before the trainer waits for it as a paused one
	// waits for the next model: the --poll interval would delay the
	// first generation by as much.
	wait := min(wc.Poll, pausedPoll)
	cfg, err := waitForRun(ctx, store, wait, logf)
	if err != nil || ctx.Err() != nil {
		return err
	}
	latest, err := waitForLatest(ctx, store, wait, logf)
	if err != nil || ctx.Err() != nil {
		return err
	}
	r := &workerRun{store: store, spool: spool, wc: wc, up: up, bp: up.bp, hooks: hooks, call: call, logf: logf, cfg: cfg}
	defer r.retire()
	if err := r.load(ctx, latest); err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return err
	}
	// The poller follows the newest model and the listing of its games;
	// bp admits a game only while the newest generation lacks games.
	r.bp.setWanted(latest.GamesPerGen)
	// A (re)started worker counts the games already there before it
	// starts any.
	if objs, err := store.List(ctx, runfiles.WorkerShardPrefix(latest.Generation)); err == nil {
		r.listed(latest.Generation, objs)
	}
	g, gctx := errgroup.WithContext(ctx)
	stopPoll := make(chan struct{})
	g.Go(func() error { r.poll(gctx, stopPoll); return nil })

	rng := rand.New(rand.NewPCG(wc.Seed, 0x5e1f))
	seeds := make(chan uint64)
	g.Go(func() error {
		defer close(seeds)
		for {
			select {
			case seeds <- rng.Uint64():
			case <-gctx.Done():
				return nil
			case <-stopPoll: // the workers stopped (--games reached)
				return nil
			}
		}
	})
	var workers sync.WaitGroup
	for range wc.Parallel {
		workers.Add(1)
		go func() {
			defer workers.Done()
			r.playGames(gctx, seeds)
		}()
	}
	workers.Wait()
	close(stopPoll)
	g.Wait()
	return r.firstErr
}

// workerRun is one run of play: the run's settings, the models the games
// are played with, and the first error of its game loops.
type workerRun struct {
	store *runstore.Store
	spool *runstore.Spool
	wc    WorkerConfig
	up    *uploader
	bp    *backpressure
	hooks WorkerHooks
	call  func(func())
	logf  func(string, ...any)
	cfg   Config

	ms      models
	evals   sync.WaitGroup // the models' evaluators
	started atomic.Int64   // games started, for wc.Games
	errOnce sync.Once
	// firstErr is the first error of a game loop; read after they stop.
	firstErr error
}

// load loads model l and makes it the one new games are played with; its
// evaluator runs until the model is retired and released.
func (r *workerRun) load(ctx context.Context, l runfiles.Latest) error {
	s, err := loadSlot(ctx, r.store, r.cfg, r.wc, l)
	if err != nil {
		return err
	}
	evalCtx, stop := context.WithCancel(context.Background())
	s.stop = stop
	r.evals.Add(1)
	go func() { defer r.evals.Done(); s.eval.Run(evalCtx) }()
	r.ms.swap(s)
	if r.hooks.Model != nil {
		r.call(func() { r.hooks.Model(l.Generation) })
	}
	return nil
}

// retire stops the current model's evaluator once no game uses it, and
// waits for every evaluator to end.
func (r *workerRun) retire() {
	r.ms.mu.Lock()
	if r.ms.cur != nil {
		r.ms.cur.retired = true
		if r.ms.cur.refs == 0 {
			r.ms.cur.stop()
		}
	}
	r.ms.mu.Unlock()
	r.evals.Wait()
}

// listed passes the listing of generation gen's games to the
// backpressure, and reports a pause.
func (r *workerRun) listed(gen int, objs []runstore.Object) {
	if have, want, paused := r.bp.listed(gen, countGames(objs)); paused && r.hooks.Paused != nil {
		r.call(func() { r.hooks.Paused(gen, have, want) })
	}
}

// poll follows the newest model and the listing of its games until ctx
// is done or stop is closed.
func (r *workerRun) poll(ctx context.Context, stop <-chan struct{}) {
	lastModelPoll := time.Now()
	for {
		// While paused, the next model is what the worker waits for:
		// look for it often.
		wait := min(2*time.Second, r.wc.Poll)
		if r.bp.isPaused() {
			wait = min(pausedPoll, r.wc.Poll)
		}
		select {
		case <-ctx.Done():
			return
		case <-stop:
			return
		case <-time.After(wait):
		}
		if r.bp.isPaused() || time.Since(lastModelPoll) >= r.wc.Poll {
			lastModelPoll = time.Now()
			l, err := r.store.ReadLatest(ctx)
			if err != nil {
				r.logf("warning: reading the newest model: %v", err)
				continue
			}
			r.bp.setWanted(l.GamesPerGen)
			if l.Generation > r.ms.gen() {
				if err := r.load(ctx, l); err != nil {
					r.logf("warning: model generation %d: %v (keeping generation %d)", l.Generation, err, r.ms.gen())
					continue
				}
			}
		}
		gen := r.ms.gen()
		objs, err := r.store.List(ctx, runfiles.WorkerShardPrefix(gen))
		if err != nil {
			r.logf("warning: %v", err)
			continue
		}
		r.listed(gen, objs)
	}
}

// errStopped is playGame's answer when its game was cut short by the end
// of the worker's context: not an error of the run.
var errStopped = errors.New("selfplay: stopped")

// playGames is one game loop: it plays a game per seed while the limit
// of games and the backpressure allow, and records its first error.
func (r *workerRun) playGames(ctx context.Context, seeds <-chan uint64) {
	for seed := range seeds {
		if r.wc.Games > 0 && r.started.Add(1) > int64(r.wc.Games) {
			return
		}
		if !r.bp.admit(ctx, r.ms.gen) {
			return
		}
		if err := r.playGame(ctx, seed); err != nil {
			if err != errStopped {
				r.errOnce.Do(func() { r.firstErr = err })
			}
			return
		}
	}
}

// playGame plays one game with the current model and spools it for the
// uploader.
func (r *workerRun) playGame(ctx context.Context, seed uint64) error {
	s := r.ms.acquire()
	r.bp.start(s.gen)
	// The games of model s.gen train generation s.gen+1: they follow
	// that generation's stage of the schedule.
	game, err := PlayGame(ctx, s.eval, r.cfg.at(s.gen+1).Game, seed)
	r.ms.release(s)
	if err != nil {
		r.bp.done(s.gen)
		if ctx.Err() != nil {
			return errStopped
		}
		return err
	}
	var buf bytes.Buffer
	if err := encodeShard(&buf, r.cfg.Size, &shardTag{gen: s.gen, run: r.cfg.Seed}, game.Samples); err != nil {
		r.bp.done(s.gen)
		return err
	}
	name := runfiles.SpoolName(s.gen, runstore.SHA256(buf.Bytes()))
	if err := r.spool.Add(name, buf.Bytes()); err != nil {
		r.bp.done(s.gen)
		return err
	}
	r.bp.spool(name) // before the uploader can see it
	r.up.queue <- name
	if r.hooks.Game != nil {
		r.call(func() { r.hooks.Game(s.gen, name) })
	}
	return nil
}

// countGames counts the objects of a games folder that are games by
// their names, as the trainer counts them (workerShards): other files
// there do not fill a generation, and broken games the trainer refuses
// leave the folder (RunDir.quarantine).
func countGames(objs []runstore.Object) int {
	n := 0
	for _, o := range objs {
		if _, _, ok := runfiles.ParseWorkerShardKey(o.Key); ok {
			n++
		}
	}
	return n
}

// pausedPoll is how often a paused worker looks for the next model.
const pausedPoll = 500 * time.Millisecond

// backpressure admits a worker's games while the newest generation lacks
// games: the trainer wants `wanted` per generation, the store lists
// `have` of the worker's generation, and the worker has `mine` of that
// generation in play or not yet uploaded, which the listing does not
// show. Without counting its own games a worker would start a game in
// every free slot just before the generation fills up, and play up to
// twice the games wanted.
type backpressure struct {
	mu      sync.Mutex
	wanted  int // 0: no limit
	gen     int // the generation `have` was listed for
	have    int
	mine    map[int]int    // generation → own games in play or waiting for upload
	spooled map[string]int // spool name → own games of that name waiting for upload
	paused  bool
	told    bool          // the pause was reported
	resume  chan struct{} // closed when a pause ends
}

func newBackpressure() *backpressure {
	return &backpressure{mine: map[int]int{}, spooled: map[string]int{}, resume: make(chan struct{})}
}

func (b *backpressure) setWanted(n int) {
	b.mu.Lock()
	b.wanted = n
	b.mu.Unlock()
}

func (b *backpressure) isPaused() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.paused
}

// full reports whether generation gen has its games; b.mu is held.
func (b *backpressure) full(gen int) bool {
	have := 0
	if gen == b.gen {
		have = b.have
	}
	return b.wanted > 0 && have+b.mine[gen] >= b.wanted
}

// listed records that the store holds have games of generation gen, and
// returns the games counted and wanted, and whether a pause is new.
func (b *backpressure) listed(gen, have int) (count, wanted int, newPause bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.gen, b.have = gen, have
	was := b.paused
	b.paused = b.full(gen)
	if was && !b.paused {
		close(b.resume)
		b.resume = make(chan struct{})
	}
	newPause = b.paused && !b.told
	b.told = b.paused
	return have + b.mine[gen], b.wanted, newPause
}

// admit waits until a game of the current generation (cur) may start, or
// ctx is done (false).
func (b *backpressure) admit(ctx context.Context, cur func() int) bool {
	for {
		b.mu.Lock()
		if !b.full(cur()) {
			b.mu.Unlock()
			return true
		}
		b.paused = true
		ch := b.resume
		b.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return false
		case <-time.After(pausedPoll):
		}
	}
}

// start counts a game of generation gen that starts.
func (b *backpressure) start(gen int) {
	b.mu.Lock()
	b.mine[gen]++
	b.mu.Unlock()
}

// done uncounts a game that will not be uploaded.
func (b *backpressure) done(gen int) {
	b.mu.Lock()
	b.mine[gen]--
	b.mu.Unlock()
}

// spool records that a game reached the spool as name.
func (b *backpressure) spool(name string) {
	b.mu.Lock()
	b.spooled[name]++
	b.mu.Unlock()
}

// uploaded uncounts a game that the store now holds (if it was played
// here, not left in the spool by an earlier run).
func (b *backpressure) uploaded(name string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := b.spooled[name]
	if n == 0 {
		return
	}
	delete(b.spooled, name)
	key, _ := runfiles.ParseSpoolName(name)
	gen, _, _ := runfiles.ParseWorkerShardKey(key)
	b.mine[gen] -= n // identical games share a name and one upload
}

// loadSlot downloads a model, checks its sha256 and makes its evaluator.
func loadSlot(ctx context.Context, store *runstore.Store, cfg Config, wc WorkerConfig, l runfiles.Latest) (*modelSlot, error) {
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
	eval, err := net.NewEvaluator(m, net.EvalOptions{Batch: wc.EvalBatch, CacheSize: wc.CacheSize, Backend: cfg.Backend})
	if err != nil {
		return nil, err
	}
	return &modelSlot{gen: l.Generation, eval: eval}, nil
}

// waitForRun reads the run's config.json, waiting for the trainer to write it.
func waitForRun(ctx context.Context, store *runstore.Store, poll time.Duration, logf func(string, ...any)) (Config, error) {
	var cfg Config
	for told := false; ; told = true {
		b, err := store.Read(ctx, runfiles.ConfigFile)
		if ctx.Err() != nil {
			return cfg, nil // stopped (or --time over) while waiting
		}
		if err == nil {
			if cfg, err = parseConfig(b); err != nil {
				return cfg, &FileError{Path: store.Location() + " " + runfiles.ConfigFile, Err: err}
			}
			return cfg, nil
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

// ErrNoWorkerTrainer is the error of Work on a run whose trainer plays
// its own games (konane train with --selfplay, the default).
var ErrNoWorkerTrainer = errors.New("this run's trainer plays its own games and takes none from workers: start a trainer fed by workers on a new directory with konane train --selfplay=false --run DIR, then konane selfplay --run DIR")

// leasePrefix is where a trainer fed by workers keeps its lease.
const leasePrefix = "lease/"

// waitForLatest reads models/latest.json, waiting for the first model.
func waitForLatest(ctx context.Context, store *runstore.Store, poll time.Duration, logf func(string, ...any)) (runfiles.Latest, error) {
	for told := false; ; told = true {
		l, err := store.ReadLatest(ctx)
		if ctx.Err() != nil {
			return l, nil // stopped (or --time over) while waiting
		}
		if err == nil {
			return l, nil
		}
		if !errors.Is(err, runstore.ErrNotExist) {
			return l, err
		}
		if !told {
			// A trainer fed by workers takes the run's lease before it
			// writes config.json; a run without one is trained by a
			// trainer that plays its own games, which never publishes a
			// model for workers.
			leases, err := store.List(ctx, leasePrefix)
			if err != nil {
				return l, err
			}
			if len(leases) == 0 {
				return l, fmt.Errorf("selfplay: %s: %w", store.Location(), ErrNoWorkerTrainer)
			}
			logf("waiting for the trainer's first model")
		}
		if runstore.Sleep(ctx, poll) != nil {
			return l, nil
		}
	}
}
