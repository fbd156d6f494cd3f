package selfplay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
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

	t := &remoteTrainer{store: store, cfg: cfg, lease: lease, hooks: hooks, logf: logf}
	t.stage, err = os.MkdirTemp("", "konane-trainer-*")
	if err != nil {
		return fmt.Errorf("selfplay: %w", err)
	}
	defer os.RemoveAll(t.stage)
	if err := t.open(ctx); err != nil {
		return err
	}
	if hooks.Start != nil {
		hooks.Start()
	}
	return t.loop(ctx)
}

// workerState is the commit point of a run fed by workers: a local run's,
// and the worker shards (keys) trained on so far within the accepted
// window (see AcceptWindow).
type workerState struct {
	state
	Ingested []string `json:"ingested,omitempty"`
}

type remoteTrainer struct {
	store   *runstore.Store
	cfg     Config
	lease   *runstore.Lease
	hooks   Hooks
	logf    func(string, ...any)
	stage   string // local folder for files passing to and from the store
	st      workerState
	wall    float64 // wall seconds of the run before this session
	trainer *net.Trainer
	replay  *Replay
	all     []Metrics
}

func (t *remoteTrainer) open(ctx context.Context) error {
	s, cfg := t.store, t.cfg
	b, err := s.Read(ctx, configFile)
	switch {
	case errors.Is(err, runstore.ErrNotExist):
	case err != nil:
		return err
	default:
		var saved Config
		if err := json.Unmarshal(b, &saved); err != nil {
			return fmt.Errorf("selfplay: %s/%s is not a run config: %w", s.Location(), configFile, err)
		}
		if diff := configDiff(saved.identity(), cfg.identity()); diff != "" {
			return fmt.Errorf("selfplay: %s holds a run with a different configuration (%s); use the same settings or another --run", s.Location(), diff)
		}
	}
	if err := t.putJSON(ctx, configFile, cfg); err != nil {
		return err
	}
	if b, err := s.Read(ctx, stateFile); err == nil {
		if err := json.Unmarshal(b, &t.st); err != nil {
			return fmt.Errorf("selfplay: %s/%s is corrupt: %w", s.Location(), stateFile, err)
		}
	} else if !errors.Is(err, runstore.ErrNotExist) {
		return err
	}
	model, err := net.New(cfg.Net, cfg.Seed)
	if cfg.Init != "" && t.st.Generation == 0 {
		model, err = InitModel(cfg.Init, cfg.Net)
	}
	if err != nil {
		return err
	}
	if t.trainer, err = net.NewTrainer(model, cfg.Train); err != nil {
		return err
	}
	if t.st.Generation > 0 {
		err := t.get(ctx, ckptDir+"/"+t.st.Checkpoint, func(path string) error { return t.trainer.LoadCheckpoint(path) })
		if err != nil {
			return fmt.Errorf("selfplay: resuming %s: %w", s.Location(), err)
		}
	}
	t.replay = NewReplay(cfg.Size, cfg.MinWindow, cfg.MaxWindow)
	err = loadReplay(func(g int) ([]net.Sample, error) {
		key := replayDir + "/" + shardName(g)
		b, err := s.Read(ctx, key)
		if err != nil {
			return nil, err
		}
		return DecodeShard(key, b, cfg.Size)
	}, t.replay, t.st.Generation)
	if err != nil {
		return err
	}
	if b, err := s.Read(ctx, metricsFile); err == nil {
		if t.all, err = ParseMetrics(b); err != nil {
			return err
		}
	} else if !errors.Is(err, runstore.ErrNotExist) {
		return err
	}
	t.all = t.all[:min(len(t.all), t.st.Generation)]
	t.wall = t.st.WallSecs
	if t.st.Generation > 0 {
		t.logf("resuming at generation %d (%d samples in the replay buffer, %s, %d worker games trained on in the window)",
			t.st.Generation+1, t.replay.Len(), t.st.Model, len(t.st.Ingested))
	} else if err := t.publish(ctx, 0); err != nil { // the untrained model, for the workers' first games
		return err
	}
	// A crash between the commit and the pointer left the pointer behind.
	return t.point(ctx, t.st.Generation)
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

var errTimeUp = errors.New("selfplay: time limit reached")

// generation ingests a generation's games, trains, publishes and commits.
func (t *remoteTrainer) generation(ctx context.Context, gen int, start time.Time, limit time.Duration) (Metrics, error) {
	cfg, s := t.cfg, t.store
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
	m.WallSecs = t.wall + time.Since(start).Seconds()

	// Everything but state.json and the pointer can be written again by a
	// later trainer if this one dies before the commit.
	ckpt := ckptDir + "/" + checkpointName(gen)
	if err := t.put(ctx, ckpt, func(path string) error { return t.trainer.SaveCheckpoint(path) }); err != nil {
		return m, err
	}
	var shard bytes.Buffer
	if err := EncodeShard(&shard, cfg.Size, samples); err != nil {
		return m, err
	}
	if err := s.Put(ctx, replayDir+"/"+shardName(gen), shard.Bytes()); err != nil {
		return m, err
	}
	if err := s.Put(ctx, replayDir+"/"+keysName(gen), []byte(strings.Join(keys, "\n")+"\n")); err != nil {
		return m, err
	}
	if err := t.publish(ctx, gen); err != nil {
		return m, err
	}
	t.all = append(t.all, m)
	if err := t.put(ctx, metricsFile, func(path string) error { return writeMetrics(path, t.all) }); err != nil {
		return m, err
	}
	if err := t.put(ctx, plotFile, func(path string) error { return plotMetrics(path, t.all) }); err != nil {
		t.logf("warning: plotting metrics: %v", err)
	}

	// The commit point: the generation and the keys it trained on.
	ingested := append(slices.Clone(t.st.Ingested), keys...)
	ingested = slices.DeleteFunc(ingested, func(k string) bool {
		g, _, _ := parseWorkerShardKey(k)
		return g <= gen-AcceptWindow // never listed again
	})
	st := workerState{state{Generation: gen, Checkpoint: checkpointName(gen), Model: ModelName(gen), WallSecs: m.WallSecs}, ingested}
	if err := t.lease.Check(ctx); err != nil {
		return m, err
	}
	if err := t.putJSON(ctx, stateFile, st); err != nil {
		return m, err
	}
	t.st = st
	if err := t.point(ctx, gen); err != nil {
		return m, err
	}
	if gen > 2 {
		s.Delete(ctx, ckptDir+"/"+checkpointName(gen-2))
	}
	return m, nil
}

func keysName(g int) string { return fmt.Sprintf("gen-%06d.keys", g) }

// ingest reads new worker shards of the accepted models, in the order
// (generation, key), until it has cfg.GamesPerGen games.
func (t *remoteTrainer) ingest(ctx context.Context, gen int, start time.Time, limit time.Duration) (samples []net.Sample, keys []string, blackWins int, err error) {
	cfg, s := t.cfg, t.store
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
			objs, err := s.List(ctx, fmt.Sprintf("%s/gen-%06d/", replayDir, g))
			if err != nil {
				return nil, nil, 0, err
			}
			for _, o := range objs {
				if len(keys) >= cfg.GamesPerGen {
					break
				}
				if _, _, ok := parseWorkerShardKey(o.Key); !ok || done[o.Key] {
					continue
				}
				b, err := s.Read(ctx, o.Key)
				if err != nil {
					return nil, nil, 0, err
				}
				game, err := DecodeShard(o.Key, b, cfg.Size)
				if err != nil {
					t.logf("warning: skipping %v", err)
					done[o.Key] = true
					continue
				}
				if sum := runstore.SHA256(b); !strings.Contains(o.Key, sum) {
					t.logf("warning: skipping %s: content hash %s does not match its name", o.Key, sum)
					done[o.Key] = true
					continue
				}
				done[o.Key] = true
				found = true
				keys = append(keys, o.Key)
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
		if err := runstore.Sleep(ctx, time.Second); err != nil {
			return nil, nil, 0, err
		}
	}
	return samples, keys, blackWins, nil
}

// publish exports the trainer's model as generation gen, create-only. A
// model of that generation left by a trainer that crashed before its
// commit (or lost its lease) is replaced, since nothing points to it.
func (t *remoteTrainer) publish(ctx context.Context, gen int) error {
	parent := ""
	if gen > 1 {
		parent = ModelName(gen - 1)
	}
	out, err := t.trainer.Model(net.Metadata{Generation: gen, Parent: parent, Seed: t.cfg.Seed})
	if err != nil {
		return err
	}
	path := filepath.Join(t.stage, "model")
	if err := out.Save(path); err != nil {
		return err
	}
	defer os.Remove(path)
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("selfplay: %w", err)
	}
	if err := t.lease.Check(ctx); err != nil {
		return err
	}
	key := modelsDir + "/" + ModelName(gen)
	err = t.store.Create(ctx, key, data)
	if errors.Is(err, runstore.ErrExist) {
		if old, rerr := t.store.Read(ctx, key); rerr == nil && bytes.Equal(old, data) {
			return nil
		}
		err = t.store.Put(ctx, key, data)
	}
	return err
}

// point writes models/latest and models/latest.json for generation gen.
func (t *remoteTrainer) point(ctx context.Context, gen int) error {
	key := modelsDir + "/" + ModelName(gen)
	data, err := t.store.Read(ctx, key)
	if err != nil {
		return err
	}
	if err := t.lease.Check(ctx); err != nil {
		return err
	}
	if err := t.store.Put(ctx, modelsDir+"/"+latestFile, []byte(ModelName(gen)+"\n")); err != nil {
		return err
	}
	return t.store.WriteLatest(ctx, runstore.Latest{Generation: gen, Model: key, SHA256: runstore.SHA256(data),
		GamesPerGen: t.cfg.GamesPerGen, Window: AcceptWindow})
}

func (t *remoteTrainer) putJSON(ctx context.Context, key string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return t.store.Put(ctx, key, append(b, '\n'))
}

// put stores under key the file that write makes in the stage folder.
func (t *remoteTrainer) put(ctx context.Context, key string, write func(path string) error) error {
	path := filepath.Join(t.stage, filepath.Base(key))
	defer os.Remove(path)
	if err := write(path); err != nil {
		return err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("selfplay: %w", err)
	}
	return t.store.Put(ctx, key, data)
}

// get fetches key into the stage folder for read.
func (t *remoteTrainer) get(ctx context.Context, key string, read func(path string) error) error {
	data, err := t.store.Read(ctx, key)
	if err != nil {
		return err
	}
	path := filepath.Join(t.stage, filepath.Base(key))
	defer os.Remove(path)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		return fmt.Errorf("selfplay: %w", err)
	}
	return read(path)
}
