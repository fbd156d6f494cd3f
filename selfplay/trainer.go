package selfplay

import (
	"context"
	"errors"
	"fmt"
	"github.com/konanezero/konane/runfiles"
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

// TrainFromWorkers is Run (its trainers made by newT) for a run whose
// games are played by workers (konane selfplay) anywhere: it plays none
// itself, but ingests the shards that workers upload to store, each
// exactly once, generation after generation. Every generation trains on every new game of the last
// AcceptWindow models that it finds, and at least cfg.GamesPerGen (it
// waits for them), taken in the order generation, then key: a game that
// workers played beyond the games wanted (each worker sees the games
// uploaded and its own in play, not the others') is trained on by the
// next generation instead of ageing out of the window unused. Then it
// publishes models/gen-NNNNNN.safetensors (create-only) and
// models/latest.json, and commits state.json with the keys it trained on.
//
// Only one trainer runs per store: it holds a runstore.Lease, refuses to
// start while another trainer holds it, and stops without publishing when
// it lost it.
func TrainFromWorkers[T Trainer](ctx context.Context, store *runstore.Store, cfg Config, newT func(*net.Model, net.TrainOptions) (T, error), hooks Hooks, logf func(format string, a ...any)) (err error) {
	if err := cfg.Validate(); err != nil {
		return err
	}
	if cfg.Gate.Games > 0 {
		return errors.New("selfplay: gating needs the trainer's own self-play; train from workers without --gate-games")
	}
	if cfg.MultiBoard() {
		return errors.New("selfplay: a multi-board run plays its own games (workers play one board only yet): train it with --selfplay")
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
	cfg.Games = ModeWorkers
	l, err := openLoop(d, cfg, TrainerFunc(newT), hooks, logf, func() error { return lease.Check(ctx) })
	if err != nil {
		return err
	}
	src := &workerGames{loop: l}
	if st := l.st; st.Generation > 0 {
		logf("resuming at generation %d (%d samples in the replay buffer, %s, %d worker games trained on in the window)",
			st.Generation+1, l.replay.Len(), st.Model, len(st.Ingested))
	} else if _, err := l.publish(0); err != nil { // the untrained model, for the workers' first games
		return err
	}
	// A crash between the commit and the pointers left them behind.
	if err := d.point(l.st.Generation); err != nil {
		return err
	}
	if err := src.committed(l.st.Generation); err != nil {
		return err
	}
	if hooks.Start != nil {
		hooks.Start()
	}
	return l.run(ctx, src)
}

// workerGames is the game source of a trainer fed by workers: the games
// they upload for the models of the window, each trained on once.
type workerGames struct {
	*loop
	t0    time.Time // when the generation's ingestion started
	start time.Time // of the session, for the time limit
	keys  []string  // the generation's games
}

// ingestPoll is how often a trainer waiting for games lists them.
const ingestPoll = 250 * time.Millisecond

// play ingests the generation's games, and writes them as its shard and
// the list of their keys.
func (s *workerGames) play(ctx context.Context, g *genWork, m *runfiles.Metrics) ([]net.Sample, error) {
	if s.start.IsZero() {
		s.start = time.Now()
	}
	s.t0 = time.Now()
	samples, keys, blackWins, err := s.ingest(ctx, g.gen)
	if err != nil {
		return nil, err
	}
	s.keys = keys
	m.SelfplaySecs = time.Since(s.t0).Seconds()
	m.Games, m.Samples = len(keys), len(samples)
	m.BlackWinRate = float64(blackWins) / float64(max(len(keys), 1))
	m.PolicyEntropy = meanEntropy(samples)
	if g.shardSum, err = s.dir.writeShard(g.gen, s.cfg.Size, samples); err != nil {
		return nil, err
	}
	if err := s.dir.writeKeys(g.gen, keys); err != nil {
		return nil, err
	}
	return samples, nil
}

// judge measures the games per hour of the whole generation, waiting and
// training: workers play while the trainer trains.
func (s *workerGames) judge(_ context.Context, _ *genWork, m *runfiles.Metrics) error {
	m.GamesPerHour = float64(len(s.keys)) / time.Since(s.t0).Seconds() * 3600
	return nil
}

// commit records the keys trained on, in the window: the commit point
// says which games were trained on.
func (s *workerGames) commit(st *runfiles.State) {
	ingested := append(slices.Clone(s.st.Ingested), s.keys...)
	st.Ingested = slices.DeleteFunc(ingested, func(k string) bool {
		g, _, _ := runfiles.ParseWorkerShardKey(k)
		return g <= st.Generation-AcceptWindow // never listed again
	})
}

// committed makes generation gen the workers' model, unless the trainer
// lost its lease.
func (s *workerGames) committed(gen int) error {
	if err := s.check(); err != nil {
		return err
	}
	return s.dir.pointWorkers(gen, s.cfg.GamesPerGen)
}

func (s *workerGames) redo() string { return "its games will be ingested again on the next start" }

// trained returns the keys of the games of the window of generation gen
// already trained on: those that state.json records, and those that the
// committed generations which could have taken them (gen−AcceptWindow+1
// to gen−1) list in their .keys files — the same keys, unless the run's
// state was written with a narrower window.
func (s *workerGames) trained(gen int) (map[string]bool, error) {
	done := make(map[string]bool, len(s.st.Ingested))
	for _, k := range s.st.Ingested {
		done[k] = true
	}
	for g := max(gen-AcceptWindow+1, 1); g < gen && g <= s.st.Generation; g++ {
		keys, err := s.dir.readKeys(g)
		if err != nil {
			return nil, &FileError{Path: s.dir.name(runfiles.KeysKey(g)), Err: fmt.Errorf("%w: the games generation %d trained on are needed to train on each game once", err, g)}
		}
		for _, k := range keys {
			done[k] = true
		}
	}
	return done, nil
}

// ingest reads the new worker shards of the accepted models, in the order
// (generation, key): every one listed, listing again until it has at
// least cfg.GamesPerGen games.
func (s *workerGames) ingest(ctx context.Context, gen int) (samples []net.Sample, keys []string, blackWins int, err error) {
	cfg, d := s.cfg, s.dir
	done, err := s.trained(gen)
	if err != nil {
		return nil, nil, 0, err
	}
	if s.hooks.Selfplay != nil {
		s.hooks.Selfplay(gen, cfg.GamesPerGen)
	}
	d.removeStale()
	swept := time.Now()
	for len(keys) < cfg.GamesPerGen {
		found := false
		for g := max(gen-AcceptWindow, 0); g < gen; g++ {
			listed, err := d.workerShards(g)
			if err != nil {
				return nil, nil, 0, err
			}
			for _, k := range listed {
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
					s.logf("warning: skipping %v (moved to %s/)", err, runfiles.QuarantineDir)
					if err := d.quarantine(k); err != nil {
						return nil, nil, 0, err
					}
					continue
				}
				found = true
				keys = append(keys, k)
				samples = append(samples, game...)
				if len(game) > 0 && (game[0].Value > 0) == (game[0].Turn() == rules.Black) {
					blackWins++
				}
				if s.hooks.Game != nil {
					s.hooks.Game()
				}
			}
		}
		if len(keys) >= cfg.GamesPerGen || found {
			continue
		}
		if limit := cfg.Duration; limit > 0 && time.Since(s.start) >= limit {
			return nil, nil, 0, errTimeUp
		}
		if time.Since(swept) >= time.Minute { // while waiting, now and then
			d.removeStale()
			swept = time.Now()
		}
		if err := runstore.Sleep(ctx, ingestPoll); err != nil {
			return nil, nil, 0, err
		}
	}
	return samples, keys, blackWins, nil
}
