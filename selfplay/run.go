package selfplay

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/runfiles"
)

// Hooks lets a caller follow a run (progress bars, logs). Nil fields are
// skipped. They are called from the goroutine running Run.
type Hooks struct {
	Start      func()                   // the directory is locked and checked; training starts
	Selfplay   func(gen, games int)     // a generation's self-play starts, for games (a trainer fed by workers may take more)
	Game       func()                   // one game finished
	Training   func(gen, steps int)     // training starts
	Gate       func(gen int)            // the gate match starts
	Step       func()                   // one training step done
	Generation func(m runfiles.Metrics) // a generation is complete and saved
}

// Run trains in dir, with the trainers newT makes (train.New), until the
// config's stop condition or ctx is done, playing its own games (seeded:
// the same seed gives the same games, shards and models). A directory
// that already holds a run is resumed exactly where its last completed
// generation left it; the config must then match the saved one (see
// Config). On cancellation Run stops after the write in progress and
// returns nil: nothing written is ever left half-done, and at most the
// unsaved games of the running generation are lost.
//
// Run holds the trainer's lock of the directory (see OpenRunDir) while it
// runs: a second Run on the same directory, in this process or another,
// fails at once with a *LockedError naming the process holding it.
func Run[T Trainer](ctx context.Context, dir string, cfg Config, newT func(*net.Model, net.TrainOptions) (T, error), hooks Hooks, logf func(format string, a ...any)) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	// A backend this CPU lacks is refused before the directory holds a
	// config.json naming it (a new run would keep it, and a resume with
	// another backend is refused).
	if err := net.CheckBackend(cfg.Backend); err != nil {
		return err
	}
	d, err := OpenRunDir(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	cfg.Games = ModeLocal
	l, err := openLoop(d, cfg, TrainerFunc(newT), hooks, logf, nil)
	if err != nil {
		return err
	}
	if st := l.st; st.Generation > 0 {
		logf("resuming at generation %d (%d samples in the replay buffer, %s)", st.Generation+1, l.replay.Len(), st.Model)
		// A crash between the commit and the pointer left the pointer behind.
		if err := d.point(st.Generation); err != nil {
			return err
		}
	}
	// One evaluator per board serves every generation: its forward passes
	// are made once and each generation's self-play model is copied into
	// them.
	initial, err := l.trainer.Model(net.Metadata{})
	if err != nil {
		return err
	}
	evals := make(map[int]*net.Evaluator)
	evalCtx, stopEval := context.WithCancel(context.Background())
	evalDone := make(chan error, len(l.cfg.BoardList()))
	defer func() {
		stopEval()
		for range evals {
			<-evalDone
		}
	}()
	for _, b := range l.cfg.BoardList() {
		m := initial
		if l.cfg.MultiBoard() {
			if m, err = initial.ForBoard(b); err != nil {
				return err
			}
		}
		eval, err := net.NewEvaluator(m, net.EvalOptions{Batch: l.cfg.EvalBatch, CacheSize: l.cfg.CacheSize, Backend: l.cfg.Backend})
		if err != nil {
			return err
		}
		evals[m.Shape()] = eval
		go func() { evalDone <- eval.Run(evalCtx) }()
	}
	if hooks.Start != nil {
		hooks.Start()
	}
	return l.run(ctx, &ownGames{evals: evals})
}

// genWork is one generation's work. For a run that plays its own
// games (ownGames): recover the games an interrupted attempt saved, play
// the others, merge them into the generation's shard; then, for every
// run, train, export the model, and (own games) gate it.
type genWork struct {
	dir     *RunDir
	cfg     Config
	gen     int
	trainer Trainer
	replay  *Replay
	best    string // the model that plays self-play when gating; "" = the trainer's
	hooks   Hooks
	// shardSum is the sha256 of the generation's shard, once written (or
	// found merged by recover), which its commit records.
	shardSum string
}

// ownGames is the game source of a run that plays its own games, seeded
// by the run's seed, the generation and the game's index.
type ownGames struct {
	evals map[int]*net.Evaluator // by board (a Position's Size); Run must be running
}

func (s *ownGames) play(ctx context.Context, g *genWork, m *runfiles.Metrics) ([]net.Sample, error) {
	model, err := g.selfplayModel(m)
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	gs, merged, err := g.recover()
	if err != nil {
		return nil, err
	}
	played := len(gs.todo())
	stats, err := g.play(ctx, s.evals, gs, model)
	if err != nil {
		return nil, err
	}
	samples, err := g.merge(gs, merged)
	if err != nil {
		return nil, err
	}
	selfplayMetrics(m, gs, samples, stats, played, time.Since(t0))
	if g.cfg.MultiBoard() {
		boardMetrics(m, g.cfg, gs)
	}
	return samples, nil
}

// judge gates the generation's model against the best one.
func (s *ownGames) judge(ctx context.Context, g *genWork, m *runfiles.Metrics) error {
	if g.cfg.Gate.Games == 0 || g.best == "" {
		return nil
	}
	r, err := g.gate(ctx)
	if err != nil {
		return err
	}
	m.GateScore = float64(r.wins) / float64(r.wins+r.losses)
	m.GateAccepted = r.accepted
	return nil
}

func (s *ownGames) commit(*runfiles.State) {}
func (s *ownGames) committed(int) error    { return nil }
func (s *ownGames) redo() string           { return "it will be redone from its saved games on the next start" }

// games are a generation's games: each one's summary and samples, nil
// while it is not played.
type games struct {
	summaries []*gameSummary
	samples   [][]net.Sample
}

type gameSummary struct {
	plies  int
	winner rules.Color
}

// todo lists the games not yet played.
func (gs *games) todo() []int {
	var out []int
	for i, s := range gs.summaries {
		if s == nil {
			out = append(out, i)
		}
	}
	return out
}

// selfplayModel is the model that plays the generation's games: the best
// one when gating, else the trainer's.
func (g *genWork) selfplayModel(m *runfiles.Metrics) (*net.Model, error) {
	if g.best != "" {
		m.Best = runfiles.GenerationOf(g.best)
		return g.dir.loadModel(g.best)
	}
	return g.trainer.Model(net.Metadata{Generation: g.gen - 1, Seed: g.cfg.Seed})
}

// recover finds the games of the generation that an interrupted attempt
// saved. After a crash that came once they were merged, it returns the
// merged samples too (then every game is there).
func (g *genWork) recover() (gs *games, merged []net.Sample, err error) {
	n, size := g.cfg.GamesPerGen, g.cfg.Size // size 0: a multi-board run's shard
	gs = &games{summaries: make([]*gameSummary, n), samples: make([][]net.Sample, n)}
	merged, sum, mergedErr := g.dir.readShard(g.gen, size, "")
	if mergedErr != nil {
		merged = nil
	} else {
		g.shardSum = sum
	}
	for i := range n {
		var samples []net.Sample
		if merged == nil {
			if samples, err = g.dir.readGameSamples(g.gen, i, g.cfg.gameShardSize(i)); err != nil {
				continue // not played, or not saved whole
			}
		}
		rec, err := g.dir.readGameRecord(g.gen, i)
		if err != nil {
			if merged != nil {
				return nil, nil, err
			}
			continue
		}
		final, err := rec.WideFinal() // a game of any board of the run
		if err != nil {
			return nil, nil, err
		}
		gs.summaries[i] = &gameSummary{plies: rec.Len(), winner: final.Turn.Other()}
		gs.samples[i] = samples
	}
	return gs, merged, nil
}

// play plays the games not yet played with model, which it puts into the
// evaluators (one per board), saving each as it finishes (so that an
// interrupted generation resumes with the games it had finished). It
// returns the evaluators' statistics over these games. The boards of a
// multi-board run play side by side, each on its own evaluator, sharing
// cfg.Parallel slots: at most cfg.Parallel games are in flight in all.
func (g *genWork) play(ctx context.Context, evals map[int]*net.Evaluator, gs *games, model *net.Model) (net.EvalStats, error) {
	todo := gs.todo()
	if g.hooks.Selfplay != nil {
		g.hooks.Selfplay(g.gen, g.cfg.GamesPerGen)
	}
	for range g.cfg.GamesPerGen - len(todo) {
		if g.hooks.Game != nil {
			g.hooks.Game()
		}
	}
	if len(todo) == 0 {
		return net.EvalStats{}, nil
	}
	before := make(map[int]net.EvalStats)
	for shape, eval := range evals {
		if err := eval.SetWeights(model); err != nil {
			return net.EvalStats{}, err
		}
		before[shape] = eval.Stats()
	}
	done := func(k int, game Game) error { // called one game at a time
		i := todo[k]
		game.Record.SetTag("Event", fmt.Sprintf("self-play generation %d game %d", g.gen, i))
		if err := g.dir.writeGame(g.gen, i, g.cfg.gameShardSize(i), game.Record, game.Samples); err != nil {
			return err
		}
		gs.samples[i] = game.Samples
		gs.summaries[i] = &gameSummary{plies: game.Plies, winner: game.Winner}
		if g.hooks.Game != nil {
			g.hooks.Game()
		}
		return nil
	}
	var err error
	if !g.cfg.MultiBoard() {
		seeds := make([]uint64, len(todo))
		for k, i := range todo {
			seeds[k] = GameSeed(g.cfg.Seed, g.gen, i)
		}
		err = PlayGames(ctx, evals[g.cfg.Size], g.cfg.Game, seeds, g.cfg.Parallel, done)
	} else {
		// One pool of cfg.Parallel slots for every board: the games go in
		// in game order, so the boards share the slots by their weights.
		err = playEach(ctx, len(todo), g.cfg.Parallel, func(ctx context.Context, k int) (Game, error) {
			b := g.cfg.GameBoard(todo[k])
			return PlayGame(ctx, evals[rules.ShapeCode(b.W, b.H)], g.cfg.BoardGame(b), GameSeed(g.cfg.Seed, g.gen, todo[k]))
		}, done)
	}
	var stats net.EvalStats
	for shape, eval := range evals {
		stats = addStats(stats, eval.Stats().Sub(before[shape]))
	}
	return stats, err
}

// addStats returns the sum of two evaluators' statistics.
func addStats(a, b net.EvalStats) net.EvalStats {
	return net.EvalStats{Positions: a.Positions + b.Positions, Terminal: a.Terminal + b.Terminal,
		CacheLookups: a.CacheLookups + b.CacheLookups, CacheHits: a.CacheHits + b.CacheHits,
		NetPositions: a.NetPositions + b.NetPositions, Batches: a.Batches + b.Batches, Padding: a.Padding + b.Padding}
}

// merge writes the samples of every game, in game order, as the
// generation's shard (unless recover found it merged already), drops the
// per-game ones, and returns them.
func (g *genWork) merge(gs *games, merged []net.Sample) ([]net.Sample, error) {
	samples := merged
	if samples == nil {
		for _, s := range gs.samples {
			samples = append(samples, s...)
		}
		sum, err := g.dir.writeShard(g.gen, g.cfg.Size, samples)
		if err != nil {
			return nil, err
		}
		g.shardSum = sum
	}
	g.dir.removeGameSamples(g.gen)
	return samples, nil
}

// boardMetrics starts m's per-board metrics of a multi-board run with the
// figures of each board's games (train adds those of its steps).
func boardMetrics(m *runfiles.Metrics, cfg Config, gs *games) {
	m.Boards = make([]runfiles.BoardMetrics, len(cfg.Boards))
	for k, b := range cfg.Boards {
		bm := &m.Boards[k]
		bm.Board = b.Board.String()
		plies, black := 0, 0
		for i, s := range gs.summaries {
			if cfg.GameBoard(i) != b.Board || s == nil {
				continue
			}
			bm.Games++
			bm.Samples += len(gs.samples[i])
			plies += s.plies
			if s.winner == rules.Black {
				black++
			}
		}
		if bm.Games > 0 {
			bm.GameLength, bm.BlackWinRate = float64(plies)/float64(bm.Games), float64(black)/float64(bm.Games)
		}
	}
}

// selfplayMetrics fills in m's metrics of the generation's games, of which
// this process played `played` (the others were saved before a restart)
// in `took` with the evaluator's stats: its speeds count only those (0:
// none played here, speed unknown).
func selfplayMetrics(m *runfiles.Metrics, gs *games, samples []net.Sample, stats net.EvalStats, played int, took time.Duration) {
	m.SelfplaySecs = took.Seconds()
	m.Games, m.Samples = len(gs.summaries), len(samples)
	plies, blackWins := 0, 0
	for _, s := range gs.summaries {
		plies += s.plies
		if s.winner == rules.Black {
			blackWins++
		}
	}
	m.GameLength = float64(plies) / float64(m.Games)
	m.BlackWinRate = float64(blackWins) / float64(m.Games)
	m.PolicyEntropy = meanEntropy(samples)
	if played > 0 && m.SelfplaySecs > 0 {
		m.EvalsPerSec = float64(stats.Positions) / m.SelfplaySecs
		m.GamesPerHour = float64(played) / m.SelfplaySecs * 3600
	}
	if stats.CacheLookups > 0 {
		m.CacheHitRate = float64(stats.CacheHits) / float64(stats.CacheLookups)
	}
}

// train runs the generation's training steps on the replay buffer:
// enough for each of the newSamples to be drawn ReuseRatio times on
// average.
func (g *genWork) train(ctx context.Context, newSamples int, m *runfiles.Metrics) error {
	batch := g.cfg.Train.Batch
	m.Steps = int(math.Ceil(float64(newSamples) * g.cfg.ReuseRatio / float64(batch)))
	if g.hooks.Training != nil {
		g.hooks.Training(g.gen, m.Steps)
	}
	if len(g.cfg.Schedule) > 0 {
		if err := g.trainer.SetLR(g.cfg.Train.LR); err != nil {
			return err
		}
	}
	t1 := time.Now()
	rng := rand.New(rand.NewPCG(g.cfg.Seed, uint64(g.gen)<<32|0x7a11))
	buf := make([]net.Sample, batch)
	// A multi-board run trains one board per step, drawn in proportion
	// to the board's samples in the window, so that every sample of the
	// window is drawn as often on average, whatever its board.
	var shapes, counts []int
	total := 0
	if g.cfg.MultiBoard() {
		bc := g.replay.BoardCounts()
		for _, b := range g.cfg.BoardList() {
			if shape := rules.ShapeCode(b.W, b.H); bc[shape] > 0 {
				shapes, counts = append(shapes, shape), append(counts, bc[shape])
				total += bc[shape]
			}
		}
	}
	for i := 0; i < m.Steps; i++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		if g.cfg.MultiBoard() {
			k := rng.IntN(total)
			j := 0
			for ; k >= counts[j]; j++ {
				k -= counts[j]
			}
			if err := g.replay.DrawBoard(rng, shapes[j], buf); err != nil {
				return err
			}
		} else {
			g.replay.Draw(rng, buf)
		}
		l, err := g.trainer.Step(buf)
		if err != nil {
			return err
		}
		if g.cfg.MultiBoard() {
			boardSteps(m, g.cfg, buf[0].Shape(), l)
		}
		m.PolicyLoss += l.Policy / float64(m.Steps)
		m.ValueLoss += l.Value / float64(m.Steps)
		m.L2 += l.L2 / float64(m.Steps)
		m.OwnershipLoss += l.Ownership / float64(m.Steps)
		m.MovesLeftLoss += l.MovesLeft / float64(m.Steps)
		m.SoftPolicyKL += l.SoftPolicyKL / float64(m.Steps)
		if g.hooks.Step != nil {
			g.hooks.Step()
		}
	}
	m.TrainSecs = time.Since(t1).Seconds()
	for k := range m.Boards {
		if bm := &m.Boards[k]; bm.Steps > 0 {
			bm.PolicyLoss /= float64(bm.Steps)
			bm.ValueLoss /= float64(bm.Steps)
		}
	}
	return nil
}

// boardSteps adds a training step on a batch of the board of the shape
// code to m's per-board metrics: to the first board of that shape in the
// list. The losses become means once train is done (finishBoardSteps).
func boardSteps(m *runfiles.Metrics, cfg Config, shape int, l net.Losses) {
	for k, b := range cfg.Boards {
		if rules.ShapeCode(b.Board.W, b.Board.H) == shape && k < len(m.Boards) {
			bm := &m.Boards[k]
			bm.Steps++
			bm.PolicyLoss += l.Policy
			bm.ValueLoss += l.Value
			return
		}
	}
}

// gate plays the generation's model against the best one (see gate.go).
func (g *genWork) gate(ctx context.Context) (gateResult, error) {
	if g.hooks.Gate != nil {
		g.hooks.Gate(g.gen)
	}
	candidate, err := g.dir.loadModel(runfiles.ModelName(g.gen))
	if err != nil {
		return gateResult{}, err
	}
	best, err := g.dir.loadModel(g.best)
	if err != nil {
		return gateResult{}, err
	}
	return gate(ctx, g.cfg.Gate, g.cfg.Size, GameSeed(g.cfg.Seed, g.gen, -1), candidate, best)
}

// GameSeed derives the seed of game i of generation gen from the run seed,
// so that any game of a run can be replayed alone.
func GameSeed(runSeed uint64, gen, i int) uint64 {
	r := rand.New(rand.NewPCG(runSeed, uint64(gen)<<32|uint64(i)))
	return r.Uint64()
}

// InitModel loads the model file path to start a run of architecture cfg
// from its weights (Config.Init); the error says how they differ. A model
// without the capture input planes gains them when cfg has them
// (net.Model.WithCaptures), one with other auxiliary heads or soft policy
// head gets cfg's (net.Model.WithTrainingHeads, new heads drawn from
// seed), and one with fewer
// residual blocks than cfg but otherwise the same grows to it
// (net.Model.Deepen, the new blocks drawn from seed); either way it still
// plays as it did.
func InitModel(path string, cfg net.Config, seed uint64) (*net.Model, error) {
	var m *net.Model
	var err error
	if cfg.MultiBoard() {
		m, err = net.Load(path)
	} else {
		m, err = net.LoadForSize(path, cfg.Size)
	}
	if err != nil {
		return nil, fmt.Errorf("selfplay: init: %w", err)
	}
	return adaptInit(m, path, cfg, seed)
}

// adaptInit is InitModel for the model m, loaded from path.
func adaptInit(m *net.Model, path string, cfg net.Config, seed uint64) (*net.Model, error) {
	if m.Config().MultiBoard() != cfg.MultiBoard() {
		return nil, fmt.Errorf("selfplay: init: model %s plays %s, the run's network is %s", path, net.BoardList(m.Boards()), cfg.Arch())
	}
	if m.Config().Size != cfg.Size {
		return nil, fmt.Errorf("selfplay: init: model %s plays %dx%d, not %dx%d", path, m.Config().Size, m.Config().Size, cfg.Size, cfg.Size)
	}
	var err error
	if cfg.Captures && !m.Config().Captures {
		if m, err = m.WithCaptures(); err != nil {
			return nil, err
		}
	}
	if c := m.Config(); c.Aux != cfg.Aux || c.SoftPolicy != cfg.SoftPolicy {
		if m, err = m.WithTrainingHeads(cfg.Aux, cfg.SoftPolicy, seed); err != nil {
			return nil, err
		}
	}
	if deeper := m.Config(); deeper.Blocks < cfg.Blocks {
		deeper.Blocks = cfg.Blocks
		if deeper == cfg {
			return m.Deepen(cfg.Blocks, seed)
		}
	}
	if m.Config() != cfg {
		return nil, fmt.Errorf("selfplay: init: model %s is %s, the run's network %s", path, m.Config().Arch(), cfg.Arch())
	}
	return m, nil
}

// openTrainer returns the run's trainer: a new network for a new run (or
// the model it starts from, Config.Init), else the checkpoint of the last
// completed generation.
func openTrainer(d *RunDir, cfg Config, st runfiles.State, newT newTrainer) (Trainer, error) {
	model, err := net.New(cfg.Net, cfg.Seed)
	if err != nil {
		return nil, err
	}
	switch {
	case cfg.Init == "" || st.Generation > 0:
	case cfg.InitModel != nil:
		model, err = adaptInit(cfg.InitModel, cfg.Init, cfg.Net, cfg.Seed)
	default:
		model, err = InitModel(cfg.Init, cfg.Net, cfg.Seed)
	}
	if err != nil {
		return nil, err
	}
	t, err := newT(model, cfg.Train)
	if err != nil {
		return nil, err
	}
	if st.Generation > 0 {
		if err := d.loadCheckpoint(st, t); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// loadReplay loads the shards of generations 1..upTo into r: those that
// can still enter its window, and the count of the others.
func loadReplay(read func(gen int) ([]net.Sample, error), r *Replay, upTo int) error {
	var loaded [][]net.Sample
	var total int64
	kept := 0
	for g := upTo; g >= 1; g-- {
		s, err := read(g)
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

// meanEntropy is the mean entropy, in nats, of the policy targets (of
// the samples that have one).
func meanEntropy(samples []net.Sample) float64 {
	var h float64
	n := 0
	for _, s := range samples {
		if len(s.Policy) > 0 {
			n++
		}
		for _, ap := range s.Policy {
			if ap.Prob > 0 {
				h -= float64(ap.Prob) * math.Log(float64(ap.Prob))
			}
		}
	}
	if n == 0 {
		return 0
	}
	return h / float64(n)
}
