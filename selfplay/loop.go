package selfplay

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"time"

	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/runfiles"
)

// A gameSource gives each generation of a run its games: the trainer's own
// seeded self-play (ownGames, Run) or the games that workers upload
// (workerGames, TrainFromWorkers). The generation loop (loop.run) does
// the rest, the same for both.
type gameSource interface {
	// play returns the samples of generation g's games, in the order they
	// are trained on, having written them as the generation's shard (its
	// sha256 in g.shardSum), and fills in m's self-play figures.
	play(ctx context.Context, g *genWork, m *runfiles.Metrics) ([]net.Sample, error)
	// judge runs once the generation's model is published, before its
	// commit (the gate of ownGames).
	judge(ctx context.Context, g *genWork, m *runfiles.Metrics) error
	// commit adds what the source must remember to the state that
	// commits a generation.
	commit(st *runfiles.State)
	// committed runs after the commit and the models/latest pointer.
	committed(gen int) error
	// redo says what the next start does with a generation interrupted.
	redo() string
}

// Trainer is what the generation loop needs of a trainer: package
// net/train's, which only the training binary links (konane-train), so
// that a player's binary carries no gradients. Run and TrainFromWorkers
// take its constructor (train.New).
//
// The loop relies on: Model returns a snapshot that does not alias the
// trainer's weights (later Steps leave it unchanged); Step and
// RestoreCheckpoint leave the trainer unchanged when they return an
// error; and a trainer restored from MarshalCheckpoint's bytes continues
// bit-identically to the one that wrote them (same Steps, same weights
// and losses).
type Trainer interface {
	Step(batch []net.Sample) (net.Losses, error)
	Model(meta net.Metadata) (*net.Model, error)
	SetLR(lr float64) error
	MarshalCheckpoint() ([]byte, error)
	RestoreCheckpoint(data []byte, name string) error
}

// newTrainer is a Trainer constructor, as Run and TrainFromWorkers take
// it, made an interface's.
type newTrainer func(m *net.Model, opts net.TrainOptions) (Trainer, error)

// TrainerFunc returns the constructor newT (train.New) as one of
// Trainers, for a caller that holds it in a variable of that type.
func TrainerFunc[T Trainer](newT func(*net.Model, net.TrainOptions) (T, error)) func(*net.Model, net.TrainOptions) (Trainer, error) {
	return func(m *net.Model, opts net.TrainOptions) (Trainer, error) {
		t, err := newT(m, opts)
		if err != nil {
			return nil, err
		}
		return t, nil
	}
}

// loop is a run's generation loop: per generation, the games of its
// source, training, the checkpoint and the model, then the commit.
type loop struct {
	dir        *RunDir
	cfg        Config
	st         runfiles.State // the last commit
	wallBefore float64        // wall seconds of the run before this session
	trainer    Trainer
	replay     *Replay
	all        []runfiles.Metrics
	hooks      Hooks
	logf       func(string, ...any)
	// check runs before the writes that only the run's holder may make
	// (the lease's, for a trainer fed by workers).
	check func() error
}

// openLoop checks or writes the run's configuration and loads its state,
// its trainer (made by newT), its replay buffer and its metrics. check
// (nil: none) runs before the first write.
func openLoop(d *RunDir, cfg Config, newT newTrainer, hooks Hooks, logf func(string, ...any), check func() error) (*loop, error) {
	if check == nil {
		check = func() error { return nil }
	}
	st, err := d.readState() // before the config is rewritten
	if err != nil {
		return nil, err
	}
	if err := check(); err != nil {
		return nil, err
	}
	if cfg, err = d.checkOrWriteConfig(cfg); err != nil {
		return nil, err
	}
	if cfg.RunID != "" {
		logf("run %s, seed %d", cfg.RunID, cfg.Seed) // its identity, random (runfiles.NewRunID)
	}
	if wide := cfg.WideBoards(); len(wide) > 0 {
		logf("boards above %dx%d (%s) play without the exact endgame solver and without rescoring: the solver plays boards up to %dx%d", rules.MaxSize, rules.MaxSize, net.BoardList(wide), rules.MaxSize, rules.MaxSize)
	}
	if err := d.initState(cfg.RunID); err != nil {
		return nil, err
	}
	if err := d.checkRunID(st, cfg); err != nil {
		return nil, err
	}
	l := &loop{dir: d, cfg: cfg, st: st, wallBefore: st.WallSecs, hooks: hooks, logf: logf, check: check}
	if l.trainer, err = openTrainer(d, cfg, st, newT); err != nil {
		return nil, err
	}
	l.replay = NewReplay(cfg.Size, cfg.MinWindow, cfg.MaxWindow)
	l.replay.SurpriseWeighting = cfg.SurpriseWeighting
	read := func(g int) ([]net.Sample, error) {
		want := ""
		if g <= len(st.ShardSHA256) {
			want = st.ShardSHA256[g-1]
		}
		samples, _, err := d.readShard(g, cfg.Size, want)
		return samples, err
	}
	if err := loadReplay(read, l.replay, st.Generation); err != nil {
		return nil, err
	}
	if err := d.checkModel(st); err != nil {
		return nil, err
	}
	if l.all, err = d.resumeMetrics(st.Generation, logf); err != nil {
		return nil, err
	}
	return l, nil
}

var errTimeUp = errors.New("selfplay: time limit reached")

// run runs generations until the config's stop condition or ctx is done.
func (l *loop) run(ctx context.Context, src gameSource) error {
	cfg := l.cfg
	start := time.Now()
	for gen := l.st.Generation + 1; ; gen++ {
		if cfg.Generations > 0 && gen > cfg.Generations {
			l.logf("stopping: %d generations done", cfg.Generations)
			return nil
		}
		if cfg.Duration > 0 && time.Since(start) >= cfg.Duration {
			l.logf("stopping: time limit %v reached", cfg.Duration)
			return nil
		}
		if used := l.cpuUsed(); cfg.CPUBudget > 0 && used >= cfg.CPUBudget {
			l.logf("stopping: CPU budget %v reached: generations 1..%d used %v of CPU", cfg.CPUBudget, gen-1, roundDuration(used))
			return nil
		}
		if ctx.Err() != nil {
			return nil
		}
		m, err := l.generation(ctx, src, gen, start)
		if errors.Is(err, errTimeUp) {
			l.logf("stopping: time limit %v reached while waiting for games", cfg.Duration)
			return nil
		}
		if errors.Is(err, context.Canceled) || ctx.Err() != nil {
			l.logf("interrupted during generation %d; %s", gen, src.redo())
			return nil
		}
		if err != nil {
			return err
		}
		if l.hooks.Generation != nil {
			l.hooks.Generation(m)
		}
	}
}

// cpuUsed returns the CPU time of the run's generations so far, all
// sessions together (Config.CPUBudget).
func (l *loop) cpuUsed() time.Duration {
	var secs float64
	for _, m := range l.all {
		secs += m.CPUSecs
	}
	return time.Duration(secs * float64(time.Second))
}

// roundDuration rounds d to the second, or to the millisecond below one.
func roundDuration(d time.Duration) time.Duration {
	if d < time.Second {
		return d.Round(time.Millisecond)
	}
	return d.Round(time.Second)
}

// generation does generation gen and commits it.
func (l *loop) generation(ctx context.Context, src gameSource, gen int, start time.Time) (runfiles.Metrics, error) {
	g := &genWork{dir: l.dir, cfg: l.cfg.at(gen), gen: gen, trainer: l.trainer, replay: l.replay, best: l.st.Best, hooks: l.hooks}
	m := runfiles.Metrics{Generation: gen, Best: gen - 1}
	cpu := processCPU()
	samples, err := src.play(ctx, g, &m)
	if err != nil {
		return m, err
	}
	l.replay.Add(samples)
	m.Window = l.replay.Window()
	if err := g.train(ctx, len(samples), &m); err != nil {
		return m, err
	}
	// Everything but state.json and the pointers can be written again if
	// the trainer dies before the commit.
	ckptSum, err := l.dir.saveCheckpoint(gen, l.trainer)
	if err != nil {
		return m, err
	}
	modelSum, err := l.publish(gen)
	if err != nil {
		return m, err
	}
	if err := src.judge(ctx, g, &m); err != nil {
		return m, err
	}
	m.CPUSecs, m.Load = processCPU()-cpu, loadAverage()
	m.WallSecs = l.wallBefore + time.Since(start).Seconds()
	return m, l.commit(src, m, sums{checkpoint: ckptSum, model: modelSum, shard: g.shardSum})
}

// sums are the sha256s of a generation's files that its commit records.
type sums struct{ checkpoint, model, shard string }

// publish exports the trainer's model as generation gen (see
// RunDir.publishModel) and returns its sha256.
func (l *loop) publish(gen int) (string, error) {
	parent := ""
	switch {
	case gen > 1:
		parent = runfiles.ModelName(gen - 1)
	case gen == 1 && l.cfg.Init != "":
		parent = filepath.Base(l.cfg.Init)
	}
	meta := net.Metadata{Generation: gen, Parent: parent, Seed: l.cfg.Seed}
	if l.cfg.MultiBoard() {
		meta.Boards = l.cfg.BoardList()
	}
	out, err := l.trainer.Model(meta)
	if err != nil {
		return "", err
	}
	return l.dir.publishModel(gen, l.st.Generation, out, l.check)
}

// commit records a finished generation, the last of all: its metrics,
// then the state that names its checkpoint and model (the commit point),
// then the pointers to its model, and drops the checkpoints no longer
// needed.
func (l *loop) commit(src gameSource, m runfiles.Metrics, sum sums) error {
	d, gen := l.dir, m.Generation
	l.all = append(l.all, m)
	if err := d.writeMetrics(l.all); err != nil {
		return err
	}
	st := runfiles.State{RunID: l.cfg.RunID, Generation: gen, Checkpoint: runfiles.CheckpointName(gen), CheckpointSHA256: sum.checkpoint,
		Model: runfiles.ModelName(gen), ModelSHA256: sum.model, Best: l.st.Best, BestSHA256: l.st.BestSHA256, WallSecs: m.WallSecs}
	// The shards' sums, "" for the generations committed before they
	// were recorded.
	st.ShardSHA256 = append(slices.Clone(l.st.ShardSHA256), make([]string, gen-1-len(l.st.ShardSHA256))...)
	st.ShardSHA256 = append(st.ShardSHA256, sum.shard)
	if l.cfg.Gate.Games > 0 && (st.Best == "" || m.GateAccepted) {
		st.Best, st.BestSHA256 = runfiles.ModelName(gen), sum.model
	}
	src.commit(&st)
	if err := l.check(); err != nil {
		return err
	}
	if err := d.writeState(st); err != nil {
		return err
	}
	l.st = st
	if err := d.point(gen); err != nil {
		return err
	}
	if err := src.committed(gen); err != nil {
		return err
	}
	if err := d.writePlot(l.all); err != nil {
		l.logf("warning: plotting metrics: %v", err)
	}
	d.removeOldCheckpoints(gen)
	return nil
}
