package selfplay

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/konanezero/konane/net/train"
	"github.com/konanezero/konane/runfiles"

	"github.com/konanezero/konane/arena"
	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/runstore"
	"github.com/konanezero/konane/solver"
)

// tinyConfig is a run small enough for tests: 4x4, a tiny net, few sims.
func tinyConfig() Config {
	c := tiny(DefaultConfig(4))
	c.GamesPerGen, c.Parallel = 6, 3
	return c
}

// tiny is c with a net of 8 filters and one block, 8 sims (4 fast), an
// evaluator batch of 4, a training batch of 8 and a window of 50 to 400
// samples: the tests' small runs.
func tiny(c Config) Config {
	c.Net.Filters, c.Net.Blocks, c.Net.ValueHidden = 8, 1, 8
	c.Game.Cap = mcts.PlayoutCap{FullSims: 8, FastSims: 4, FullFraction: 0.5}
	c.EvalBatch = 4
	c.Train.Batch = 8
	c.MinWindow, c.MaxWindow = 50, 400
	return c
}

// mustRun runs cfg in dir (a new run or a resumption) with net/train's
// trainer, logging to t; it fails t on an error.
func mustRun(t *testing.T, dir string, cfg Config) {
	t.Helper()
	if err := Run(context.Background(), dir, cfg, train.New, Hooks{}, t.Logf); err != nil {
		t.Fatal(err)
	}
}

// runStopped runs cfg in dir as mustRun does and stops it once games
// games have finished (Run then returns nil, the generation unfinished).
func runStopped(t *testing.T, dir string, cfg Config, games int) {
	t.Helper()
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	n := 0
	interrupt := Hooks{Game: func() {
		if n++; n == games {
			stop()
		}
	}}
	if err := Run(ctx, dir, cfg, train.New, interrupt, t.Logf); err != nil {
		t.Fatal(err)
	}
}

// multiBoardConfig is DefaultMultiBoardConfig of the board shares spec
// (ParseBoardShares); it fails t if spec is bad.
func multiBoardConfig(t *testing.T, spec string) Config {
	t.Helper()
	bs, err := ParseBoardShares(spec)
	if err != nil {
		t.Fatal(err)
	}
	return DefaultMultiBoardConfig(bs)
}

func TestPlayGameDeterministicAndConsistent(t *testing.T) {
	cfg := tinyConfig().Game
	ctx := context.Background()
	a, err := PlayGame(ctx, mcts.Uniform{}, cfg, 42)
	if err != nil {
		t.Fatal(err)
	}
	b, err := PlayGame(ctx, mcts.Uniform{}, cfg, 42)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a.Record.Moves, b.Record.Moves) || !reflect.DeepEqual(a.Samples, b.Samples) {
		t.Fatal("the same seed gave two different games")
	}
	final, err := a.Record.Final()
	if err != nil {
		t.Fatalf("self-play record does not replay: %v", err)
	}
	if final.HasMoves() || final.Turn.Other() != a.Winner {
		t.Fatalf("game ended with the side to move having moves=%v, winner %v", final.HasMoves(), a.Winner)
	}
	if a.Record.Tag("Result") != rules.ResultFor(a.Winner) || a.Plies != len(a.Record.Moves) {
		t.Fatalf("result tag %q, plies %d for %d moves", a.Record.Tag("Result"), a.Plies, len(a.Record.Moves))
	}
	if len(a.Samples) == 0 {
		t.Fatal("no training samples")
	}
	for _, s := range a.Samples {
		want := float32(-1)
		if s.Position.Turn == a.Winner {
			want = 1
		}
		if s.Value != want {
			t.Fatalf("value target %v for %v to move, winner %v", s.Value, s.Position.Turn, a.Winner)
		}
		var sum float32
		for _, ap := range s.Policy {
			m := rules.ActionMove(int(ap.Action), 4)
			if !s.Position.Legal(m) {
				t.Fatalf("policy target on illegal move %v", m)
			}
			sum += ap.Prob
		}
		if math.Abs(float64(sum)-1) > 1e-4 {
			t.Fatalf("policy target sums to %v", sum)
		}
	}
}

func TestShardRoundTripAndCorruption(t *testing.T) {
	g, err := PlayGame(context.Background(), mcts.Uniform{}, tinyConfig().Game, 7)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "x.shard")
	if err := WriteShard(path, 4, g.Samples); err != nil {
		t.Fatal(err)
	}
	back, err := ReadShard(path, 4)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, g.Samples) {
		t.Fatal("shard round trip changed the samples")
	}
	if _, err := ReadShard(path, 6); err == nil || !strings.Contains(err.Error(), "board size 4, want 6") {
		t.Fatalf("wrong size: err = %v", err)
	}
	data, _ := os.ReadFile(path)
	cases := map[string][]byte{
		"checksum mismatch": append(append([]byte(nil), data[:len(data)/2]...), data[len(data)/2+1:]...),
		"bad magic":         append([]byte("XXXX"), data[4:]...),
	}
	flipped := append([]byte(nil), data...)
	flipped[30] ^= 1
	cases["checksum mismatch "] = flipped
	for want, bad := range cases {
		p := filepath.Join(dir, "bad.shard")
		os.WriteFile(p, bad, 0o644)
		if _, err := ReadShard(p, 4); err == nil || !strings.Contains(err.Error(), strings.TrimSpace(want)) {
			t.Errorf("%s: err = %v", want, err)
		}
	}
}

func TestReplayWindowAndDraw(t *testing.T) {
	r := NewReplay(4, 100, 1000)
	g, err := PlayGame(context.Background(), mcts.Uniform{}, tinyConfig().Game, 3)
	if err != nil {
		t.Fatal(err)
	}
	prev := 0
	for r.Total() < 3000 {
		r.Add(g.Samples)
		w := r.Window()
		if w < prev && r.Len() >= prev {
			t.Fatalf("window shrank from %d to %d", prev, w)
		}
		if w > r.Len() || w > 1000 {
			t.Fatalf("window %d exceeds the %d samples held or the cap", w, r.Len())
		}
		if r.Total() <= 100 && w != int(r.Total()) {
			t.Fatalf("young run: window %d, want all %d samples", w, r.Total())
		}
		prev = w
	}
	if r.Len() != 1000 {
		t.Fatalf("buffer holds %d samples, want the cap 1000", r.Len())
	}
	// Drawn samples are valid samples under some symmetry: their policy is
	// on legal moves.
	rng := rand.New(rand.NewPCG(1, 2))
	batch := make([]net.Sample, 64)
	r.Draw(rng, batch)
	syms := map[uint64]bool{}
	for _, s := range batch {
		syms[s.Position.Hash()] = true
		for _, ap := range s.Policy {
			if !s.Position.Legal(rules.ActionMove(int(ap.Action), 4)) {
				t.Fatalf("drawn sample has policy on an illegal move")
			}
		}
	}
	if len(syms) < 2 {
		t.Fatal("draws are all the same position")
	}
}

func TestRunResumesExactly(t *testing.T) {
	cfg := tinyConfig()
	ctx := context.Background()
	quiet := func(string, ...any) {}

	whole := t.TempDir()
	cfg.Generations = 3
	mustRun(t, whole, cfg)

	split := t.TempDir()
	cfg.Generations = 2
	mustRun(t, split, cfg)
	// The third generation is interrupted after some games: Run returns nil,
	// the finished games stay on disk, the generation is not committed.
	cfg.Generations = 3
	cfg.Parallel = 1 // parallelism may change on resume
	runStopped(t, split, cfg, 3)
	if st, _ := NewRunDir(split).readState(); st.Generation != 2 {
		t.Fatalf("after the interruption the state says generation %d, want 2", st.Generation)
	}
	parts, _ := filepath.Glob(filepath.Join(split, "replay", "gen-000003", "*.shard"))
	if len(parts) == 0 || len(parts) >= cfg.GamesPerGen {
		t.Fatalf("interrupted generation left %d finished games, want some but not all", len(parts))
	}
	var replayed int
	var resumed runfiles.Metrics
	count := Hooks{Game: func() { replayed++ }, Generation: func(m runfiles.Metrics) { resumed = m }}
	if err := Run(ctx, split, cfg, train.New, count, quiet); err != nil {
		t.Fatal(err)
	}
	if replayed != cfg.GamesPerGen {
		t.Fatalf("progress counted %d games, want %d (saved ones included)", replayed, cfg.GamesPerGen)
	}
	// Its speed counts the games played after the restart only.
	if played := resumed.GamesPerHour * resumed.SelfplaySecs / 3600; resumed.Games != cfg.GamesPerGen ||
		math.Abs(played-float64(cfg.GamesPerGen-len(parts))) > 1e-6 || resumed.EvalsPerSec <= 0 {
		t.Errorf("resumed generation: %d games, %.0f games/h over %.3fs (%.2f games), %.0f evals/s; want %d games played here",
			resumed.Games, resumed.GamesPerHour, resumed.SelfplaySecs, played, resumed.EvalsPerSec, cfg.GamesPerGen-len(parts))
	}
	for _, f := range []string{"replay/gen-000003.shard", "games/gen-000003/game-00005.txt"} {
		a, err1 := os.ReadFile(filepath.Join(whole, f))
		b, err2 := os.ReadFile(filepath.Join(split, f))
		if err1 != nil || err2 != nil || string(a) != string(b) {
			t.Fatalf("%s differs between the whole and the resumed run (%v, %v)", f, err1, err2)
		}
	}
	sameOutputs(t, whole, split)

	// A different configuration is refused with a clear error.
	cfg.Seed++
	err := Run(ctx, split, cfg, train.New, Hooks{}, quiet)
	if err == nil || !strings.Contains(err.Error(), "different configuration (seed: saved 1, given 2)") {
		t.Fatalf("changed seed: err = %v", err)
	}
}

// sameOutputs checks that the latest models of two runs answer bit for bit
// alike.
func sameOutputs(t *testing.T, dirA, dirB string) {
	t.Helper()
	if !reflect.DeepEqual(latestOutputs(t, dirA), latestOutputs(t, dirB)) {
		t.Fatal("the resumed run's model differs from the uninterrupted one")
	}
}

// latestOutputs returns the evaluations of the 4x4 openings by the latest
// model of the run in dir.
func latestOutputs(t *testing.T, dir string) []mcts.Prediction {
	t.Helper()
	path, err := LatestModel(dir)
	if err != nil {
		t.Fatal(err)
	}
	m, err := net.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	e, err := net.NewEvaluator(m, net.EvalOptions{Batch: 4})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go e.Run(ctx)
	var ps []rules.Position
	for _, o := range rules.Openings(4) {
		ps = append(ps, o.Position)
	}
	preds, err := e.Evaluate(ctx, ps)
	if err != nil {
		t.Fatal(err)
	}
	return preds
}

func TestRunWithGate(t *testing.T) {
	cfg := tinyConfig()
	cfg.Generations = 3
	cfg.Gate = GateConfig{Games: 4, Sims: 2, SPRT: arena.SPRT{Elo0: 0, Elo1: 50, Alpha: 0.05, Beta: 0.05}}
	dir := t.TempDir()
	var gates int
	if err := Run(context.Background(), dir, cfg, train.New, Hooks{Gate: func(int) { gates++ }}, func(string, ...any) {}); err != nil {
		t.Fatal(err)
	}
	if gates != 2 {
		t.Fatalf("%d gate matches, want 2 (generations 2 and 3)", gates)
	}
	all, err := NewRunDir(dir).Metrics()
	if err != nil || len(all) != 3 {
		t.Fatalf("metrics: %d rows, %v", len(all), err)
	}
	// What readers of a run (the ladder) see through RunDir.
	d := NewRunDir(dir)
	if gens, err := d.Generations(); err != nil || !slices.Equal(gens, []int{1, 2, 3}) {
		t.Errorf("Generations: %v, %v", gens, err)
	}
	if c, err := d.ReadConfig(); err != nil || !reflect.DeepEqual(c.identity(), cfg.identity()) {
		t.Errorf("ReadConfig: %+v, %v", c, err)
	}
	if m, err := d.LoadModel(3); err != nil || m.Meta().Generation != 3 {
		t.Errorf("LoadModel(3): %v", err)
	}
	if _, err := NewRunDir(t.TempDir()).ReadConfig(); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadConfig of an empty folder: %v", err)
	}
	st, _ := NewRunDir(dir).readState()
	// The best model is the last accepted candidate (or generation 1).
	want := 1
	for _, m := range all[1:] {
		if m.GateScore < 0 || m.GateScore > 1 {
			t.Fatalf("gate score %v", m.GateScore)
		}
		if m.GateAccepted {
			want = m.Generation
		}
	}
	if st.Best != runfiles.ModelName(want) {
		t.Fatalf("best model %q, want %q", st.Best, runfiles.ModelName(want))
	}
	if b, err := os.ReadFile(filepath.Join(dir, runfiles.ModelKey(want))); err != nil || st.BestSHA256 != runstore.SHA256(b) {
		t.Fatalf("best model's sha256 recorded %q, %v; want its file's", st.BestSHA256, err)
	}
	bestAfter2 := 1
	if all[1].GateAccepted {
		bestAfter2 = 2
	}
	if all[1].Best != 1 || all[2].Best != bestAfter2 {
		t.Fatalf("self-play of generations 2, 3 used the models of generations %d, %d; want 1, %d", all[1].Best, all[2].Best, bestAfter2)
	}
	bad := cfg
	bad.Gate.Sims = 0
	if err := bad.Validate(); err == nil {
		t.Fatal("a gate with 0 sims validated")
	}
}

// TestValueTarget: a proven root's value replaces the result with
// ExactValues; otherwise ValueMix blends the search's value into it.
func TestValueTarget(t *testing.T) {
	for _, tc := range []struct {
		exact bool
		mix   float64
		z     float32
		sv    searchValue
		want  float32
	}{
		{true, 0, 1, searchValue{-1, true}, -1},
		{false, 0, 1, searchValue{-1, true}, 1},
		{true, 0.5, 1, searchValue{-1, true}, -1},
		{true, 0, -1, searchValue{0.6, false}, -1},
		{true, 0.5, -1, searchValue{0.6, false}, -0.2},
		{false, 1, -1, searchValue{0.6, false}, 0.6},
	} {
		c := GameConfig{ExactValues: tc.exact, ValueMix: tc.mix}
		if got := c.valueTarget(tc.z, tc.sv); math.Abs(float64(got-tc.want)) > 1e-6 {
			t.Errorf("exact %v mix %v, result %v, search %+v: target %v, want %v", tc.exact, tc.mix, tc.z, tc.sv, got, tc.want)
		}
	}
	c := tinyConfig().Game
	c.ValueMix = 1.5
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "value mix") {
		t.Errorf("value mix 1.5: %v", err)
	}
}

// TestPlayGameExactValues: on 5x5 with a solver budget that settles every
// root, every value target is the exact value of its position.
func TestPlayGameExactValues(t *testing.T) {
	cfg := DefaultConfig(5).Game
	cfg.MCTS.SolveStones, cfg.MCTS.SolveNodes = 64, 1<<20
	cfg.Cap = mcts.PlayoutCap{FullSims: 8, FastSims: 4, FullFraction: 1}
	cfg.ValueMix = 0.5    // proven roots ignore it
	cfg.RescoreStones = 0 // the search's own proofs, not rescoring's
	g, err := PlayGame(context.Background(), mcts.Uniform{}, cfg, 3)
	if err != nil {
		t.Fatal(err)
	}
	ex := solver.New(solver.WithTableEntries(1 << 16))
	for _, s := range g.Samples {
		win, err := ex.Solve(context.Background(), s.Position)
		if err != nil {
			t.Fatal(err)
		}
		want := float32(-1)
		if win {
			want = 1
		}
		if s.Value != want {
			t.Fatalf("value target %v, exact value %v:\n%v", s.Value, want, s.Position)
		}
	}
}

// TestInitModel: a new run with Config.Init starts from that model's
// weights; a model of another architecture is refused by name.
func TestInitModel(t *testing.T) {
	cfg := tinyConfig()
	src, err := net.New(cfg.Net, 77) // not the run's seed: other weights
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "init.safetensors")
	if err := src.Save(path); err != nil {
		t.Fatal(err)
	}
	cfg.Init = path
	tr, err := openTrainer(NewRunDir(t.TempDir()), cfg, runfiles.State{}, TrainerFunc(train.New))
	if err != nil {
		t.Fatal(err)
	}
	got, err := tr.Model(net.Metadata{})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := got.WithMeta(net.Metadata{}).MarshalBinary()
	b, _ := src.WithMeta(net.Metadata{}).MarshalBinary()
	if !reflect.DeepEqual(a, b) {
		t.Error("the run does not start from the init model's weights")
	}
	// A model the caller loaded already (Config.InitModel) is taken as it
	// is: the file is not read again.
	loaded := cfg
	loaded.Init, loaded.InitModel = filepath.Join(t.TempDir(), "gone.safetensors"), src
	if tr, err = openTrainer(NewRunDir(t.TempDir()), loaded, runfiles.State{}, TrainerFunc(train.New)); err != nil {
		t.Fatalf("with the init model loaded: %v", err)
	}
	if got, err = tr.Model(net.Metadata{}); err != nil {
		t.Fatal(err)
	}
	if a, _ = got.WithMeta(net.Metadata{}).MarshalBinary(); !reflect.DeepEqual(a, b) {
		t.Error("the run does not start from the loaded init model's weights")
	}
	// A run keeps its init model when resumed without one (a run stopped
	// before its first generation must still start from it), and refuses
	// another.
	d, err := OpenRunDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.checkOrWriteConfig(cfg); err != nil {
		t.Fatal(err)
	}
	resumed := cfg
	resumed.Init = ""
	if got, err := d.checkOrWriteConfig(resumed); err != nil || got.Init != path {
		t.Errorf("resumed without init: init %q, %v; want %q", got.Init, err, path)
	}
	resumed.Init = path + ".other"
	if _, err := d.checkOrWriteConfig(resumed); err == nil || !strings.Contains(err.Error(), "started from") {
		t.Errorf("resumed with another init: %v", err)
	}
	deeper := cfg.Net
	deeper.Blocks += 2
	if m, err := InitModel(path, deeper, 1); err != nil || m.Config() != deeper {
		t.Errorf("init of a deeper run: %v, %v; want %s", m, err, deeper.Arch())
	}
	other := cfg.Net
	other.Filters++
	if _, err := InitModel(path, other, 1); err == nil || !strings.Contains(err.Error(), cfg.Net.Arch()) {
		t.Errorf("init with another architecture: %v", err)
	}
	// A model without the capture planes gains them, deeper too; one with
	// them is not stripped of them.
	plain := cfg.Net
	plain.Captures = false
	src, err = net.New(plain, 77)
	if err != nil {
		t.Fatal(err)
	}
	if err := src.Save(path); err != nil {
		t.Fatal(err)
	}
	wider := deeper
	wider.Captures = true
	if m, err := InitModel(path, wider, 1); err != nil || m.Config() != wider {
		t.Errorf("init of a run with the capture planes from a model without: %v, %v; want %s", m, err, wider.Arch())
	}
	if _, err := InitModel(path, plain, 1); err != nil {
		t.Errorf("init of the model's own architecture: %v", err)
	}
	wider.Blocks = plain.Blocks
	if err := mustNew(t, wider).Save(path); err != nil {
		t.Fatal(err)
	}
	if _, err := InitModel(path, plain, 1); err == nil || !strings.Contains(err.Error(), wider.Arch()) {
		t.Errorf("init without the capture planes from a model with them: %v", err)
	}
	// A model gains the soft policy head a run asks for, and loses one the
	// run does not train.
	soft := wider
	soft.SoftPolicy = true
	if m, err := InitModel(path, soft, 1); err != nil || m.Config() != soft {
		t.Errorf("init of a run with the soft policy head: %v, %v; want %s", m, err, soft.Arch())
	}
	if err := mustNew(t, soft).Save(path); err != nil {
		t.Fatal(err)
	}
	if m, err := InitModel(path, wider, 1); err != nil || m.Config() != wider {
		t.Errorf("init of a run without the soft policy head from a model with it: %v, %v; want %s", m, err, wider.Arch())
	}
}

func mustNew(t *testing.T, cfg net.Config) *net.Model {
	t.Helper()
	m, err := net.New(cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestPlayGameRandomPlies: a game opens with 0 to RandomPlies random moves,
// marked in the record, of which no sample is taken; the same seed gives
// the same game.
func TestPlayGameRandomPlies(t *testing.T) {
	cfg := DefaultConfig(5).Game
	cfg.Cap = mcts.PlayoutCap{FullSims: 8, FastSims: 4, FullFraction: 1} // a sample at every searched ply
	cfg.RandomPlies = 6
	lengths := map[int]bool{}
	for seed := uint64(1); seed <= 12; seed++ {
		g, again := uniformGame(t, cfg, seed), uniformGame(t, cfg, seed)
		if fmt.Sprint(g.Record.Moves) != fmt.Sprint(again.Record.Moves) {
			t.Fatalf("seed %d: two games differ:\n%v\n%v", seed, g.Record.Moves, again.Record.Moves)
		}
		random := 0
		for random < len(g.Record.Comments) && g.Record.Comments[random] == "random opening" {
			random++
		}
		if random > cfg.RandomPlies {
			t.Fatalf("seed %d: %d random moves, want at most %d", seed, random, cfg.RandomPlies)
		}
		if want := g.Plies - random; len(g.Samples) != want {
			t.Fatalf("seed %d: %d samples after %d random of %d plies, want %d", seed, len(g.Samples), random, g.Plies, want)
		}
		lengths[random] = true
	}
	if len(lengths) < 3 {
		t.Fatalf("random openings of only %d distinct lengths in 12 games", len(lengths))
	}
}

// TestCPUBudget: a run stops at the first generation after which its
// generations' CPU time, all sessions together, reaches Config.CPUBudget;
// a resumption already past it stops before playing, and one without the
// budget goes on.
func TestCPUBudget(t *testing.T) {
	dir := t.TempDir()
	run := func(budget time.Duration, gens int) (played int, log string) {
		t.Helper()
		cfg := tinyConfig()
		cfg.CPUBudget, cfg.Generations = budget, gens
		var b strings.Builder
		hooks := Hooks{Generation: func(m runfiles.Metrics) {
			if m.CPUSecs <= 0 {
				t.Errorf("generation %d: cpu_secs %v", m.Generation, m.CPUSecs)
			}
			played++
		}}
		logf := func(format string, a ...any) { fmt.Fprintf(&b, format+"\n", a...) }
		if err := Run(context.Background(), dir, cfg, train.New, hooks, logf); err != nil {
			t.Fatal(err)
		}
		return played, b.String()
	}
	// Every generation uses some CPU, so a budget of 1ns ends the run
	// after its first generation.
	if n, log := run(time.Nanosecond, 3); n != 1 || !strings.Contains(log, "stopping: CPU budget 1ns reached: generations 1..1 used") {
		t.Errorf("a new run with a budget of 1ns played %d generations, want 1; log:\n%s", n, log)
	}
	if n, log := run(time.Nanosecond, 3); n != 0 || !strings.Contains(log, "stopping: CPU budget 1ns reached: generations 1..1 used") {
		t.Errorf("a resumption past its budget played %d generations, want 0; log:\n%s", n, log)
	}
	if n, _ := run(time.Hour, 2); n != 1 {
		t.Errorf("a resumption with an hour's budget and --generations 2 played %d generations, want 1", n)
	}
	cfg := tinyConfig()
	cfg.CPUBudget = -time.Second
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "CPU budget -1s: want ≥ 0") {
		t.Errorf("a negative budget: %v", err)
	}
}
