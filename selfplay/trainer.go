package selfplay

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"time"

	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/runstore"
)

// LeaseTTL is how long a trainer that stopped beating keeps its run: a
// trainer restarted on another machine after a crash waits that long (on
// the same machine, or in the same pod, it takes the run back at once).
const LeaseTTL = 30 * time.Second

// TrainFromWorkers is Run for a run whose games are played by workers
// (konane selfplay) anywhere: it plays none itself, but ingests the
// shards that workers upload to store, each exactly once, generation after
// generation. Every generation it trains on the first cfg.GamesPerGen new
// games of the last AcceptWindow models (in the order generation, then key),
// then publishes models/gen-NNNNNN.safetensors (create-only) and
// models/latest.json, and commits state.json with the keys it trained on.
//
// Only one trainer runs per store: it holds a runstore.Lease, refuses to
// start while another trainer holds it, and stops without publishing when
// it lost it.
func TrainFromWorkers(ctx context.Context, store *runstore.Store, cfg Config, hooks Hooks, logf func(format string, a ...any)) (err error) {
	if err := cfg.Validate(); err != nil {
		return err
	}
	if cfg.Gate.Games > 0 {
		return errors.New("selfplay: gating needs the trainer's own self-play; train from workers without --gate-games")
	}
	lease, err := store.Acquire(ctx, LeaseTTL)
	if err != nil {
		return err
	}
	defer lease.Release(context.WithoutCancel(ctx))
	logf("holding the run %s (lease epoch %d)", store.Location(), lease.Epoch())
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go func() {
		if err := lease.Keep(ctx); err != nil {
			cancel(err)
		}
	}()
	defer func() {
		if lost := context.Cause(ctx); err == nil && lost != nil && !errors.Is(lost, context.Canceled) {
			err = lost
		}
	}()

	d, err := OpenStoreRunDir(ctx, store)
	if err != nil {
		return err
	}
	defer d.Close()
	t := &remoteTrainer{dir: d, lease: lease, hooks: hooks, logf: logf}
	if err := t.open(cfg); err != nil {
		return err
	}
	if hooks.Start != nil {
		hooks.Start()
	}
	return t.loop(ctx)
}

type remoteTrainer struct {
	dir        *RunDir // on the run's store
	cfg        Config
	lease      *runstore.Lease
	hooks      Hooks
	logf       func(string, ...any)
	st         state
	wallBefore float64 // wall seconds of the run before this session
	trainer    *net.Trainer
	replay     *Replay
	all        []Metrics
}

// open checks or writes the run's configuration and loads its state, as
// Run does for a local run.
func (t *remoteTrainer) open(cfg Config) error {
	d := t.dir
	st, err := d.readState() // before the config is rewritten
	if err != nil {
		return err
	}
	if err := t.lease.Check(d.ctx); err != nil {
		return err
	}
	if cfg, err = d.checkOrWriteConfig(cfg); err != nil {
		return err
	}
	if err := d.initState(); err != nil {
		return err
	}
	t.cfg, t.st, t.wallBefore = cfg, st, st.WallSecs
	if t.trainer, err = openTrainer(d, cfg, st); err != nil {
		return err
	}
	t.replay = NewReplay(cfg.Size, cfg.MinWindow, cfg.MaxWindow)
	if err := loadReplay(func(g int) ([]net.Sample, error) { return d.readShard(g, cfg.Size) }, t.replay, st.Generation); err != nil {
		return err
	}
	if t.all, err = d.resumeMetrics(st.Generation, t.logf); err != nil {
		return err
	}
	if st.Generation > 0 {
		t.logf("resuming at generation %d (%d samples in the replay buffer, %s, %d worker games trained on in the window)",
			st.Generation+1, t.replay.Len(), st.Model, len(st.Ingested))
	} else if err := t.publish(0); err != nil { // the untrained model, for the workers' first games
		return err
	}
	// A crash between the commit and the pointer left the pointer behind.
	return t.point(st.Generation)
}

func (t *remoteTrainer) loop(ctx context.Context) error {
	cfg := t.cfg
	start := time.Now()
	for gen := t.st.Generation + 1; ; gen++ {
		if cfg.Generations > 0 && gen > cfg.Generations {
			t.logf("stopping: %d generations done", cfg.Generations)
			return nil
		}
		if cfg.Duration > 0 && time.Since(start) >= cfg.Duration {
			t.logf("stopping: time limit %v reached", cfg.Duration)
			return nil
		}
		if ctx.Err() != nil {
			return nil
		}
		m, err := t.generation(ctx, gen, start, cfg.Duration)
		if errors.Is(err, errTimeUp) {
			t.logf("stopping: time limit %v reached while waiting for games", cfg.Duration)
			return nil
		}
		if ctx.Err() != nil {
			t.logf("interrupted during generation %d; its games will be ingested again on the next start", gen)
			return nil
		}
		if err != nil {
			return err
		}
		if t.hooks.Generation != nil {
			t.hooks.Generation(m)
		}
	}
}

// ingestPoll is how often a trainer waiting for games lists them.
const ingestPoll = 250 * time.Millisecond

var errTimeUp = errors.New("selfplay: time limit reached")

// generation ingests a generation's games, trains, publishes and commits.
func (t *remoteTrainer) generation(ctx context.Context, gen int, start time.Time, limit time.Duration) (Metrics, error) {
	cfg := t.cfg
	m := Metrics{Generation: gen, Best: gen - 1}
	t0 := time.Now()
	samples, keys, blackWins, err := t.ingest(ctx, gen, start, limit)
	if err != nil {
		return m, err
	}
	m.SelfplaySecs = time.Since(t0).Seconds()
	m.Games, m.Samples = len(keys), len(samples)
	m.BlackWinRate = float64(blackWins) / float64(max(len(keys), 1))
	m.PolicyEntropy = meanEntropy(samples)
	t.replay.Add(samples)
	m.Window = t.replay.Window()
	g := &generation{cfg: cfg, gen: gen, trainer: t.trainer, replay: t.replay, hooks: t.hooks}
	if err := g.train(ctx, len(samples), &m); err != nil {
		return m, err
	}
	// Workers play while the trainer trains: games per hour of the whole
	// generation, waiting and training.
	m.GamesPerHour = float64(len(keys)) / time.Since(t0).Seconds() * 3600
	m.WallSecs = t.wallBefore + time.Since(start).Seconds()

	// Everything but state.json and the pointer can be written again by a
	// later trainer if this one dies before the commit.
	d := t.dir
	ckptSum, err := d.saveCheckpoint(gen, t.trainer)
	if err != nil {
		return m, err
	}
	if err := d.writeShard(gen, cfg.Size, samples); err != nil {
		return m, err
	}
	if err := d.writeKeys(gen, keys); err != nil {
		return m, err
	}
	if err := t.publish(gen); err != nil {
		return m, err
	}
	t.all = append(t.all, m)
	if err := d.writeMetrics(t.all); err != nil {
		return m, err
	}

	// The commit point: the generation and the keys it trained on.
	ingested := append(slices.Clone(t.st.Ingested), keys...)
	ingested = slices.DeleteFunc(ingested, func(k string) bool {
		g, _, _ := parseWorkerShardKey(k)
		return g <= gen-AcceptWindow // never listed again
	})
	st := state{Generation: gen, Checkpoint: checkpointName(gen), CheckpointSHA256: ckptSum, Model: ModelName(gen), WallSecs: m.WallSecs, Ingested: ingested}
	if err := t.lease.Check(ctx); err != nil {
		return m, err
	}
	if err := d.writeState(st); err != nil {
		return m, err
	}
	t.st = st
	if err := t.point(gen); err != nil {
		return m, err
	}
	// The workers wait for the pointer; the plot can wait for them.
	if err := d.writePlot(t.all); err != nil {
		t.logf("warning: plotting metrics: %v", err)
	}
	d.removeOldCheckpoints(gen)
	return m, nil
}

// ingest reads new worker shards of the accepted models, in the order
// (generation, key), until it has cfg.GamesPerGen games.
func (t *remoteTrainer) ingest(ctx context.Context, gen int, start time.Time, limit time.Duration) (samples []net.Sample, keys []string, blackWins int, err error) {
	cfg, d := t.cfg, t.dir
	done := make(map[string]bool, len(t.st.Ingested))
	for _, k := range t.st.Ingested {
		done[k] = true
	}
	if t.hooks.Selfplay != nil {
		t.hooks.Selfplay(gen, cfg.GamesPerGen)
	}
	for len(keys) < cfg.GamesPerGen {
		found := false
		for g := max(gen-AcceptWindow, 0); g < gen && len(keys) < cfg.GamesPerGen; g++ {
			listed, err := d.workerShards(g)
			if err != nil {
				return nil, nil, 0, err
			}
			for _, k := range listed {
				if len(keys) >= cfg.GamesPerGen {
					break
				}
				if done[k] {
					continue
				}
				done[k] = true
				game, err := d.readWorkerShard(k, cfg.Size)
				if err != nil {
					var op *runstore.OpError
					if errors.As(err, &op) {
						return nil, nil, 0, err // the store failed, not the game
					}
					t.logf("warning: skipping %v", err)
					continue
				}
				found = true
				keys = append(keys, k)
				samples = append(samples, game...)
				if len(game) > 0 && (game[0].Value > 0) == (game[0].Position.Turn == rules.Black) {
					blackWins++
				}
				if t.hooks.Game != nil {
					t.hooks.Game()
				}
			}
		}
		if len(keys) >= cfg.GamesPerGen || found {
			continue
		}
		if limit > 0 && time.Since(start) >= limit {
			return nil, nil, 0, errTimeUp
		}
		if err := runstore.Sleep(ctx, ingestPoll); err != nil {
			return nil, nil, 0, err
		}
	}
	return samples, keys, blackWins, nil
}

// publish exports the trainer's model as generation gen (see
// RunDir.publishModel), unless the trainer lost its lease.
func (t *remoteTrainer) publish(gen int) error {
	parent := ""
	switch {
	case gen > 1:
		parent = ModelName(gen - 1)
	case gen == 1 && t.cfg.Init != "":
		parent = filepath.Base(t.cfg.Init)
	}
	out, err := t.trainer.Model(net.Metadata{Generation: gen, Parent: parent, Seed: t.cfg.Seed})
	if err != nil {
		return err
	}
	_, err = t.dir.publishModel(gen, t.st.Generation, out, func() error { return t.lease.Check(t.dir.ctx) })
	return err
}

// point makes generation gen the workers' model, unless the trainer lost
// its lease.
func (t *remoteTrainer) point(gen int) error {
	if err := t.lease.Check(t.dir.ctx); err != nil {
		return err
	}
	return t.dir.point(gen, t.cfg.GamesPerGen)
}
