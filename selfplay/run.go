package selfplay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/konanezero/konane/internal/atomicfile"
	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/rules"
)

// Config is everything that defines a training run. It is written to
// DIR/config.json when the run starts; a resumed run must agree with it in
// everything but the stop conditions and the parallelism.
type Config struct {
	Size int    `json:"size"`
	Seed uint64 `json:"seed"`

	Net   net.Config       `json:"net"`
	Train net.TrainOptions `json:"train"`
	Game  GameConfig       `json:"game"`

	GamesPerGen int `json:"games_per_gen"`
	// ReuseRatio: training steps per generation are chosen so that each new
	// sample is drawn this many times on average (KataGo's samples-reused).
	ReuseRatio float64    `json:"reuse_ratio"`
	MinWindow  int        `json:"min_window"` // replay window while the run is young
	MaxWindow  int        `json:"max_window"`
	Gate       GateConfig `json:"gate"`

	// Not part of the run's identity: may change when resuming.
	Parallel    int           `json:"parallel"`   // games in flight
	EvalBatch   int           `json:"eval_batch"` // evaluator batch size
	CacheSize   int           `json:"cache_size"` // evaluator position cache entries
	Generations int           `json:"generations"`
	Duration    time.Duration `json:"duration"` // stop after this wall time (0: no limit)
}

// Validate reports the first invalid setting.
func (c Config) Validate() error {
	if err := c.Game.Validate(); err != nil {
		return err
	}
	switch {
	case c.Game.Size != c.Size || c.Net.Size != c.Size:
		return fmt.Errorf("selfplay: board sizes disagree (run %d, game %d, net %d)", c.Size, c.Game.Size, c.Net.Size)
	case c.GamesPerGen < 1:
		return fmt.Errorf("selfplay: games per generation %d: want ≥ 1", c.GamesPerGen)
	case c.ReuseRatio <= 0:
		return fmt.Errorf("selfplay: reuse ratio %g: want > 0", c.ReuseRatio)
	case c.MinWindow < 1 || c.MaxWindow < c.MinWindow:
		return fmt.Errorf("selfplay: replay window %d..%d: want 1 ≤ min ≤ max", c.MinWindow, c.MaxWindow)
	case c.Parallel < 1:
		return fmt.Errorf("selfplay: parallel games %d: want ≥ 1", c.Parallel)
	case c.EvalBatch < 1:
		return fmt.Errorf("selfplay: evaluator batch %d: want ≥ 1", c.EvalBatch)
	case c.Generations < 0 || c.Duration < 0:
		return errors.New("selfplay: generations and duration must not be negative")
	}
	if err := c.Net.Validate(); err != nil {
		return err
	}
	return c.Gate.Validate()
}

// identity is the part of a config that a resumed run must keep.
func (c Config) identity() Config {
	c.Parallel, c.EvalBatch, c.CacheSize, c.Generations, c.Duration = 0, 0, 0, 0, 0
	return c
}

// Hooks lets a caller follow a run (progress bars, logs). Nil fields are
// skipped. They are called from the goroutine running Run.
type Hooks struct {
	Selfplay   func(gen, games int) // a generation's self-play starts
	Game       func()               // one game finished
	Training   func(gen, steps int) // training starts
	Gate       func(gen int)        // the gate match starts
	Step       func()               // one training step done
	Generation func(m Metrics)      // a generation is complete and saved
}

// Files and folders of a run directory.
const (
	configFile  = "config.json"
	stateFile   = "state.json"
	metricsFile = "metrics.csv"
	plotFile    = "metrics.png"
	replayDir   = "replay"
	gamesDir    = "games"
	modelsDir   = "models"
	ckptDir     = "checkpoints"
	latestFile  = "latest"
)

// state is the commit point of a run: everything up to Generation is
// complete on disk. It is written last in every generation.
type state struct {
	Generation int     `json:"generation"` // generations completed
	Checkpoint string  `json:"checkpoint"` // trainer checkpoint after that generation
	Model      string  `json:"model"`      // model exported after that generation
	Best       string  `json:"best"`       // model that plays self-play when gating ("" = Model)
	WallSecs   float64 `json:"wall_secs"`  // wall time spent so far
}

// Run trains in dir until the config's stop condition or ctx is done. A
// directory that already holds a run is resumed exactly where its last
// completed generation left it; the config must then match the saved one
// (see Config). On cancellation Run stops after the write in progress and
// returns nil: nothing written is ever left half-done, and at most the
// unsaved games of the running generation are lost.
func Run(ctx context.Context, dir string, cfg Config, hooks Hooks, logf func(format string, a ...any)) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	for _, d := range []string{dir, filepath.Join(dir, replayDir), filepath.Join(dir, gamesDir), filepath.Join(dir, modelsDir), filepath.Join(dir, ckptDir)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return fmt.Errorf("selfplay: %w", err)
		}
	}
	removeTempFiles(dir)
	if err := checkOrWriteConfig(filepath.Join(dir, configFile), cfg); err != nil {
		return err
	}
	st, err := readState(filepath.Join(dir, stateFile))
	if err != nil {
		return err
	}
	trainer, err := openTrainer(dir, cfg, st)
	if err != nil {
		return err
	}
	replay := NewReplay(cfg.Size, cfg.MinWindow, cfg.MaxWindow)
	if err := replay.loadGenerations(filepath.Join(dir, replayDir), st.Generation); err != nil {
		return err
	}
	all, err := ReadMetrics(filepath.Join(dir, metricsFile))
	if err != nil {
		return err
	}
	if len(all) > st.Generation {
		all = all[:st.Generation]
	}
	if st.Generation > 0 {
		logf("resuming at generation %d (%d samples in the replay buffer, %s)", st.Generation+1, replay.Len(), st.Model)
	}
	// One evaluator serves every generation: its graphs are compiled once
	// and each generation's self-play model is copied into them.
	initial, err := trainer.Model(net.Metadata{})
	if err != nil {
		return err
	}
	eval, err := net.NewEvaluator(initial, net.EvalOptions{Batch: cfg.EvalBatch, CacheSize: cfg.CacheSize})
	if err != nil {
		return err
	}
	evalCtx, stopEval := context.WithCancel(context.Background())
	evalDone := make(chan error, 1)
	go func() { evalDone <- eval.Run(evalCtx) }()
	defer func() {
		stopEval()
		<-evalDone
	}()
	start := time.Now()
	wallBefore := st.WallSecs
	for gen := st.Generation + 1; ; gen++ {
		if cfg.Generations > 0 && gen > cfg.Generations {
			logf("stopping: %d generations done", cfg.Generations)
			return nil
		}
		if cfg.Duration > 0 && time.Since(start) >= cfg.Duration {
			logf("stopping: time limit %v reached", cfg.Duration)
			return nil
		}
		if ctx.Err() != nil {
			return nil
		}
		m, err := runGeneration(ctx, dir, cfg, gen, trainer, eval, replay, st.Best, hooks)
		if errors.Is(err, context.Canceled) || ctx.Err() != nil {
			logf("interrupted during generation %d; it will be redone from its saved games on the next start", gen)
			return nil
		}
		if err != nil {
			return err
		}
		m.WallSecs = wallBefore + time.Since(start).Seconds()
		all = append(all, m)
		if err := writeMetrics(filepath.Join(dir, metricsFile), all); err != nil {
			return err
		}
		if err := plotMetrics(filepath.Join(dir, plotFile), all); err != nil {
			logf("warning: plotting metrics: %v", err)
		}
		st = state{Generation: gen, Checkpoint: checkpointName(gen), Model: ModelName(gen), Best: st.Best, WallSecs: m.WallSecs}
		if cfg.Gate.Games > 0 && (st.Best == "" || m.GateAccepted) {
			st.Best = ModelName(gen)
		}
		if err := writeJSON(filepath.Join(dir, stateFile), st); err != nil {
			return err
		}
		removeOldCheckpoints(filepath.Join(dir, ckptDir), gen)
		if hooks.Generation != nil {
			hooks.Generation(m)
		}
	}
}

// runGeneration does one generation: self-play (with eval, given the
// generation's model), training, checkpoint, export.
func runGeneration(ctx context.Context, dir string, cfg Config, gen int, trainer *net.Trainer, eval *net.Evaluator, replay *Replay, best string, hooks Hooks) (Metrics, error) {
	m := Metrics{Generation: gen, Best: gen - 1}
	var model *net.Model
	var err error
	if best != "" {
		model, err = net.Load(filepath.Join(dir, modelsDir, best))
		m.Best = generationOf(best)
	} else {
		model, err = trainer.Model(net.Metadata{Generation: gen - 1, Seed: cfg.Seed})
	}
	if err != nil {
		return m, err
	}
	t0 := time.Now()
	samples, games, stats, err := selfplayGeneration(ctx, dir, cfg, gen, eval, model, hooks)
	if err != nil {
		return m, err
	}
	m.SelfplaySecs = time.Since(t0).Seconds()
	m.Games, m.Samples = len(games), len(samples)
	plies, blackWins := 0, 0
	for _, g := range games {
		plies += g.plies
		if g.winner == rules.Black {
			blackWins++
		}
	}
	m.GameLength = float64(plies) / float64(len(games))
	m.BlackWinRate = float64(blackWins) / float64(len(games))
	m.PolicyEntropy = meanEntropy(samples)
	if m.SelfplaySecs > 0 {
		m.EvalsPerSec = float64(stats.Positions) / m.SelfplaySecs
		m.GamesPerHour = float64(len(games)) / m.SelfplaySecs * 3600
	}
	if stats.CacheLookups > 0 {
		m.CacheHitRate = float64(stats.CacheHits) / float64(stats.CacheLookups)
	}

	replay.Add(samples)
	m.Window = replay.Window()
	batch := cfg.Train.Batch
	m.Steps = int(math.Ceil(float64(len(samples)) * cfg.ReuseRatio / float64(batch)))
	if hooks.Training != nil {
		hooks.Training(gen, m.Steps)
	}
	t1 := time.Now()
	rng := rand.New(rand.NewPCG(cfg.Seed, uint64(gen)<<32|0x7a11))
	buf := make([]net.Sample, batch)
	for i := 0; i < m.Steps; i++ {
		if err := ctx.Err(); err != nil {
			return m, err
		}
		replay.Draw(rng, buf)
		l, err := trainer.Step(buf)
		if err != nil {
			return m, err
		}
		m.PolicyLoss += l.Policy / float64(m.Steps)
		m.ValueLoss += l.Value / float64(m.Steps)
		m.L2 += l.L2 / float64(m.Steps)
		if hooks.Step != nil {
			hooks.Step()
		}
	}
	m.TrainSecs = time.Since(t1).Seconds()

	if err := trainer.SaveCheckpoint(filepath.Join(dir, ckptDir, checkpointName(gen))); err != nil {
		return m, err
	}
	parent := ""
	if gen > 1 {
		parent = ModelName(gen - 1)
	}
	out, err := trainer.Model(net.Metadata{Generation: gen, Parent: parent, Seed: cfg.Seed})
	if err != nil {
		return m, err
	}
	if err := out.Save(filepath.Join(dir, modelsDir, ModelName(gen))); err != nil {
		return m, err
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, modelsDir, latestFile), []byte(ModelName(gen)+"\n"), 0o644); err != nil {
		return m, err
	}
	if cfg.Gate.Games > 0 && best != "" {
		if hooks.Gate != nil {
			hooks.Gate(gen)
		}
		r, err := gate(ctx, cfg.Gate, cfg.Size, GameSeed(cfg.Seed, gen, -1),
			filepath.Join(dir, modelsDir, ModelName(gen)), filepath.Join(dir, modelsDir, best))
		if err != nil {
			return m, err
		}
		m.GateScore = float64(r.wins) / float64(r.wins+r.losses)
		m.GateAccepted = r.accepted
	}
	return m, nil
}

type gameSummary struct {
	plies  int
	winner rules.Color
}

// selfplayGeneration plays the generation's games with model, which it
// puts into eval (eval's Run must be running), saving each
// finished game (record and samples) at once, so that an interrupted
// generation resumes with the games it had finished. When every game is
// done their samples are merged into the generation's shard.
func selfplayGeneration(ctx context.Context, dir string, cfg Config, gen int, eval *net.Evaluator, model *net.Model, hooks Hooks) ([]net.Sample, []gameSummary, net.EvalStats, error) {
	var stats net.EvalStats
	shard := filepath.Join(dir, replayDir, shardName(gen))
	partDir := filepath.Join(dir, replayDir, fmt.Sprintf("gen-%06d", gen))
	recDir := filepath.Join(dir, gamesDir, fmt.Sprintf("gen-%06d", gen))
	for _, d := range []string{partDir, recDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, nil, stats, fmt.Errorf("selfplay: %w", err)
		}
	}
	games := make([]*gameSummary, cfg.GamesPerGen)
	perGame := make([][]net.Sample, cfg.GamesPerGen)
	merged, mergedErr := ReadShard(shard, cfg.Size) // present if a crash came after the merge
	var todo []int
	for i := range games {
		if mergedErr != nil {
			s, err := ReadShard(filepath.Join(partDir, gameName(i)+".shard"), cfg.Size)
			if err != nil {
				todo = append(todo, i)
				continue
			}
			perGame[i] = s
		}
		rec, err := rules.ReadRecordFile(filepath.Join(recDir, gameName(i)+".txt"))
		if err != nil {
			if mergedErr == nil {
				return nil, nil, stats, err
			}
			todo = append(todo, i)
			continue
		}
		final, err := rec.Final()
		if err != nil {
			return nil, nil, stats, err
		}
		games[i] = &gameSummary{plies: len(rec.Moves), winner: final.Turn.Other()}
	}
	if mergedErr == nil {
		perGame = [][]net.Sample{merged}
	}
	if hooks.Selfplay != nil {
		hooks.Selfplay(gen, cfg.GamesPerGen)
	}
	for range cfg.GamesPerGen - len(todo) {
		if hooks.Game != nil {
			hooks.Game()
		}
	}
	if len(todo) > 0 {
		if err := eval.SetWeights(model); err != nil {
			return nil, nil, stats, err
		}
		before := eval.Stats()
		seeds := make([]uint64, len(todo))
		for k, i := range todo {
			seeds[k] = GameSeed(cfg.Seed, gen, i)
		}
		err := PlayGames(ctx, eval, cfg.Game, seeds, cfg.Parallel, func(k int, g Game) error {
			i := todo[k]
			g.Record.SetTag("Event", fmt.Sprintf("self-play generation %d game %d", gen, i))
			if err := g.Record.WriteFile(filepath.Join(recDir, gameName(i)+".txt")); err != nil {
				return err
			}
			if err := WriteShard(filepath.Join(partDir, gameName(i)+".shard"), cfg.Size, g.Samples); err != nil {
				return err
			}
			perGame[i] = g.Samples
			games[i] = &gameSummary{plies: g.Plies, winner: g.Winner}
			if hooks.Game != nil {
				hooks.Game()
			}
			return nil
		})
		stats = eval.Stats().Sub(before)
		if err != nil {
			return nil, nil, stats, err
		}
	}
	var samples []net.Sample
	for _, s := range perGame {
		samples = append(samples, s...)
	}
	summaries := make([]gameSummary, len(games))
	for i := range games {
		summaries[i] = *games[i]
	}
	if err := WriteShard(shard, cfg.Size, samples); err != nil {
		return nil, nil, stats, err
	}
	os.RemoveAll(partDir)
	return samples, summaries, stats, nil
}

// GameSeed derives the seed of game i of generation gen from the run seed,
// so that any game of a run can be replayed alone.
func GameSeed(runSeed uint64, gen, i int) uint64 {
	r := rand.New(rand.NewPCG(runSeed, uint64(gen)<<32|uint64(i)))
	return r.Uint64()
}

// generationOf is the generation of a model named by ModelName.
func generationOf(name string) int {
	var g int
	fmt.Sscanf(name, "gen-%d.safetensors", &g)
	return g
}

// ModelName is the file name of the model exported after generation gen.
func ModelName(gen int) string { return fmt.Sprintf("gen-%06d.safetensors", gen) }

func checkpointName(gen int) string { return fmt.Sprintf("gen-%06d.ckpt", gen) }
func gameName(i int) string         { return fmt.Sprintf("game-%05d", i) }

// LatestModel returns the path of the newest model of a run directory.
func LatestModel(dir string) (string, error) {
	b, err := os.ReadFile(filepath.Join(dir, modelsDir, latestFile))
	if err != nil {
		return "", fmt.Errorf("selfplay: run %s has no exported model yet: %w", dir, err)
	}
	return filepath.Join(dir, modelsDir, strings.TrimSpace(string(b))), nil
}

func openTrainer(dir string, cfg Config, st state) (*net.Trainer, error) {
	model, err := net.New(cfg.Net, cfg.Seed)
	if err != nil {
		return nil, err
	}
	t, err := net.NewTrainer(model, cfg.Train)
	if err != nil {
		return nil, err
	}
	if st.Generation > 0 {
		if err := t.LoadCheckpoint(filepath.Join(dir, ckptDir, st.Checkpoint)); err != nil {
			return nil, fmt.Errorf("selfplay: resuming %s: %w", dir, err)
		}
	}
	return t, nil
}

// loadGenerations loads the shards of generations 1..upTo.
func (r *Replay) loadGenerations(dir string, upTo int) error {
	var loaded [][]net.Sample
	var total int64
	kept := 0
	for g := upTo; g >= 1; g-- {
		s, err := ReadShard(filepath.Join(dir, shardName(g)), r.Size)
		if err != nil {
			return err
		}
		total += int64(len(s))
		if kept < r.Max {
			loaded = append(loaded, s)
			kept += len(s)
		}
	}
	r.samples = nil
	for i := len(loaded) - 1; i >= 0; i-- {
		r.Add(loaded[i])
	}
	r.total = total
	return nil
}

// removeTempFiles deletes the temporary files that a killed process left
// behind (atomicfile names them ".NAME.tmp*"); the files they were meant to
// replace are intact.
func removeTempFiles(dir string) {
	filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && strings.HasPrefix(info.Name(), ".") && strings.Contains(info.Name(), ".tmp") {
			os.Remove(path)
		}
		return nil
	})
}

func removeOldCheckpoints(dir string, gen int) {
	names, _ := filepath.Glob(filepath.Join(dir, "gen-*.ckpt"))
	sort.Strings(names)
	keep := map[string]bool{checkpointName(gen): true, checkpointName(gen - 1): true}
	for _, n := range names {
		if !keep[filepath.Base(n)] {
			os.Remove(n)
		}
	}
}

func checkOrWriteConfig(path string, cfg Config) error {
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return writeJSON(path, cfg)
	}
	if err != nil {
		return fmt.Errorf("selfplay: %w", err)
	}
	var saved Config
	if err := json.Unmarshal(b, &saved); err != nil {
		return fmt.Errorf("selfplay: %s is not a run config: %w", path, err)
	}
	if diff := configDiff(saved.identity(), cfg.identity()); diff != "" {
		return fmt.Errorf("selfplay: %s holds a run with a different configuration (%s); use the same settings or another --run directory", filepath.Dir(path), diff)
	}
	return writeJSON(path, cfg)
}

// configDiff lists the settings in which two configurations differ, as
// "seed: saved 1, given 5; ...", or returns "" when they agree.
func configDiff(saved, given Config) string {
	flat := func(c Config) map[string]string {
		b, _ := json.Marshal(c)
		var tree map[string]any
		json.Unmarshal(b, &tree)
		out := map[string]string{}
		var walk func(prefix string, v any)
		walk = func(prefix string, v any) {
			if m, ok := v.(map[string]any); ok {
				for k, x := range m {
					walk(strings.TrimPrefix(prefix+"."+k, "."), x)
				}
				return
			}
			j, _ := json.Marshal(v)
			out[prefix] = string(j)
		}
		walk("", tree)
		return out
	}
	a, b := flat(saved), flat(given)
	var diffs []string
	for k, v := range a {
		if b[k] != v {
			diffs = append(diffs, fmt.Sprintf("%s: saved %s, given %s", k, v, b[k]))
		}
	}
	sort.Strings(diffs)
	return strings.Join(diffs, "; ")
}

func readState(path string) (state, error) {
	var st state
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return st, nil
	}
	if err != nil {
		return st, fmt.Errorf("selfplay: %w", err)
	}
	if err := json.Unmarshal(b, &st); err != nil {
		return st, fmt.Errorf("selfplay: %s is corrupt: %w", path, err)
	}
	return st, nil
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, append(b, '\n'), 0o644)
}

// meanEntropy is the mean entropy, in nats, of the policy targets.
func meanEntropy(samples []net.Sample) float64 {
	if len(samples) == 0 {
		return 0
	}
	var h float64
	for _, s := range samples {
		for _, ap := range s.Policy {
			if ap.Prob > 0 {
				h -= float64(ap.Prob) * math.Log(float64(ap.Prob))
			}
		}
	}
	return h / float64(len(samples))
}
