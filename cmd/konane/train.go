package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"time"

	"github.com/konanezero/konane/arena"
	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/runstore"
	"github.com/konanezero/konane/selfplay"
)

func init() {
	register(&command{
		name:  "train",
		usage: "train --run DIR|URL [--size 6|8] [--time 30m] [--generations G] [--selfplay=false] [flags]",
		short: "learn from zero by self-play (resumable)",
		long: `Train runs the self-play loop in DIR: each generation plays games with the
current network and MCTS, adds their positions to the replay buffer, trains
the network on samples drawn from it, saves a checkpoint and exports
DIR/models/gen-NNNNNN.safetensors with DIR/models/latest naming the newest.

The full configuration is printed at the start and written to
DIR/config.json. Starting again with the same DIR (or --resume) continues
exactly where the last completed generation left off: weights, optimizer,
replay buffer, random streams, generation counter; with the settings saved
in config.json, so "konane train --run DIR" is all it takes. Flags given
then may change how long and how wide this session runs (--time,
--generations, --workers); one that would change the run itself (say
--size or --lr) is refused, naming the setting. Ctrl-C or SIGTERM finish
the write in progress and exit 0; even kill -9 loses at most the unsaved
games of the running generation. One trainer at a time holds DIR (a lock
on DIR/lock, which dies with its process): a second one fails at once,
naming the PID of the first.

Metrics per generation go to DIR/metrics.csv and DIR/metrics.png.

--ladder-every N runs "konane ladder --every N" in the background after
every N-th generation, one game at a time (see "konane help ladder"), so
it uses at most about one core. Its CPU share, measured on a 6x6 run (12
games of 32 simulations per generation: 5.8 CPU-seconds each): a rated
generation took 21.6 CPU-seconds with 10 games per pairing at 32
simulations, so --ladder-every 10 adds about 37% to training (27% of the
total); the ladder's defaults (20 games, 64 simulations) cost about four
times that, about 60% of the total at --ladder-every 10. Rate less often
(a larger N) to give it less.

--init MODEL starts a new run from the weights (and architecture) of a
model file instead of random weights: to go on training a shipped model
with new settings, or to continue from the last model of a run whose
directory was lost. With --blocks more than the model's, the network
grows: the new residual blocks come after the model's and start as the
identity, so the run starts from exactly the model's play. --captures
likewise gives a model without them the capture input planes, with zero
weights to start from.

The learning rate and the children of rescoring (below) follow the
run's schedule by generation (--schedule), fixed when the run is created
and kept in config.json. The default is the recipe of the shipped models,
whose runs were chained by hand with new rates (scripts/reproduce-shipped.sh):
  6x6 and below: 1:lr=0.02;588:lr=0.002;898:lr=0.002,children=2;1377:lr=0.0005,children=2
  7x7 and 8x8:   1:lr=0.02;332:lr=0.002;777:lr=0.0005
--schedule none, or --lr or --rescore-children on a new run without
--schedule, keeps them constant instead (as runs made before schedules,
whose config.json has none, do). The learning rate warms up over the
first 50 steps of the run only.

Self-play searches with MCTS-Solver and the exact endgame solver
(--solver, --solve-nodes, --solve-stones); a position whose search proved
its value gets that value as its target (--exact-values), and --value-mix
blends the search's value into the game's result for the others.
--rescore-stones then solves, once a game is over, every position with at
most that many stones without a node budget: its value target becomes
exact and, if the side to move wins, its policy target keeps only the
winning moves (by default every position of 4x4 and 5x5, and 6x6
positions of at most 26 stones); --rescore-children N adds N of each such
position's children, drawn at random, as value-only samples with their
exact values (the solver found them on the way), and
--rescore-child-policy gives those whose side to move wins their winning
moves as a policy target too.

With --selfplay=false the trainer plays no games: workers do ("konane
selfplay --run URL", on this or other machines), and it trains on the games
they upload, each exactly once, from the newest two model generations. The
run may then also be a bucket URL (s3://bucket/prefix?endpoint=...). Only
one trainer holds a run: a second one is refused while the first lives; a
trainer restarted after a crash takes the run back (at once on the same
machine, after 30 s elsewhere). See "Train on many machines" in the README.

Example: konane train --run runs/6x6 --size 6 --time 30m
         konane train --run runs/8x8-b --init models/konane-8x8.safetensors --time 10h`,
		run: runTrain,
	})
}

// runTrain is "konane train": the self-play loop of one run directory.
func runTrain(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("train", stderr)
	run := fs.String("run", "", "run directory or URL (created if missing; resumed if it holds a run)")
	selfplayHere := fs.Bool("selfplay", true, "play the self-play games here (false: train on the games of konane selfplay workers)")
	resume := fs.Bool("resume", false, "require DIR to hold a run and continue it")
	initModel := fs.String("init", "", "start a new run from this model's weights (and architecture, or deeper with --blocks) instead of random ones")
	size := fs.Int("size", 8, "board size (4..8; 6 and 8 have tuned defaults)")
	seed := fs.Uint64("seed", 1, "seed of every random choice of the run")
	gens := fs.Int("generations", 0, "stop after this many generations in all (0: no limit)")
	dur := fs.Duration("time", 0, "stop after this much wall time in this session (0: no limit)")
	games := fs.Int("games-per-gen", 0, "self-play games per generation (0: size default)")
	workers := fs.Int("workers", 0, "games in flight at once, feeding the batched evaluator (0: default)")
	sims := fs.Int("sims", 0, "simulations of a full search (default 64)")
	fastSims := fs.Int("fast-sims", 0, "simulations of a cheap search under playout-cap randomization (default min(16, sims/4))")
	fullProb := fs.Float64("full-prob", 0, "probability of a full search per move (1: no playout cap; 0: default)")
	search := fs.String("search", "", "root search: gumbel or puct (default: the size default)")
	solverFlag := fs.String("solver", "on", "MCTS-Solver and the exact endgame solver in self-play's search: on or off")
	solveNodes := fs.Int("solve-nodes", mcts.DefaultSolveNodes, "node budget of the endgame solver on a search leaf (0: no endgame solver)")
	solveStones := fs.Int("solve-stones", mcts.DefaultSolveStones, "the endgame solver tries leaves with at most this many stones")
	valueMix := fs.Float64("value-mix", 0, "weight of the root search's value in the value target, beside the game's result (0..1)")
	rescoreStones := fs.Int("rescore-stones", -1, "after each game, exact targets from the solver for every position with at most this many stones (-1: size default: all on 4x4 and 5x5, 26 on 6x6, none above; 0: none)")
	rescoreChildren := fs.Int("rescore-children", 0, "for every position rescoring solves, up to this many of its children become value-only samples with their exact values (0: none)")
	rescoreChildPolicy := fs.Bool("rescore-child-policy", false, "with --rescore-children: a child whose side to move wins also gets its winning moves as a policy target")
	randomPlies := fs.Int("random-plies", -1, "open each self-play game with 0 to this many random moves, which give no samples (-1: size default, 10 on 6x6 and none on the others; 0: none)")
	temperature := fs.Float64("temperature", 0, "temperature of the move choice of a full search after the first size plies (which use 1): 0 plays the most visited move, 1 samples by visits")
	exactValues := fs.Bool("exact-values", true, "a position whose search proved its value gets that value as its target")
	filters := fs.Int("filters", 0, "network filters (0: size default)")
	blocks := fs.Int("blocks", 0, "network residual blocks (0: size default)")
	captures := fs.Bool("captures", net.DefaultConfig(0).Captures, "the network reads the capture input planes: the stones each side could capture and where its jumps land (with --init, a model without them gains them only if this is given)")
	batch := fs.Int("batch", 0, "training batch (0: default)")
	lr := fs.Float64("lr", 0, "a constant learning rate instead of the schedule (0: the schedule's)")
	schedule := fs.String("schedule", "", `learning rate and rescored children by generation, "GEN:lr=X[,children=N];..." or "none" (default: the size's recipe, see "konane help train")`)
	reuse := fs.Float64("reuse", 0, "times each new sample is drawn for training on average (0: default)")
	gateGames := fs.Int("gate-games", 0, "gate each new model against the best one in up to this many games (0: no gating)")
	gateSims := fs.Int("gate-sims", 32, "simulations per move in gate games")
	gateSPRT := fs.String("gate-sprt", "0,30", "SPRT of the gate: elo0,elo1[,alpha,beta]")
	ladderEvery := fs.Int("ladder-every", 0, "rate every N-th generation on the Elo ladder while training (0: no ladder)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *run == "" {
		return usageError("train", "--run DIR is required")
	}
	if fs.NArg() > 0 {
		return usageError("train", "unexpected argument %q", fs.Arg(0))
	}
	if err := checkSize("train", *size); err != nil {
		return err
	}
	local := !strings.Contains(*run, "://") || strings.HasPrefix(*run, "file://")
	if *selfplayHere && !local {
		return usageError("train", "--run %s: a bucket run is trained from workers' games: add --selfplay=false and start konane selfplay workers", *run)
	}
	if *selfplayHere {
		*run = strings.TrimPrefix(*run, "file://")
	}
	if *resume && local {
		if !selfplay.NewRunDir(strings.TrimPrefix(*run, "file://")).HasRun() {
			return usageError("train", "--resume: %s holds no run (no configuration)", *run)
		}
	}
	if *initModel != "" {
		if *resume {
			return usageError("train", "--init starts a new run; --resume continues one: give one of them")
		}
		if selfplay.NewRunDir(*run).HasRun() {
			return usageError("train", "--init: %s already holds a run; --init starts a new one (run again without --init to continue it)", *run)
		}
	}
	// A run that exists continues with its own settings: only the flags
	// given now apply, and one that changes what defines the run is
	// refused (naming the setting) when the run is opened.
	saved, resuming, err := savedRunConfig(ctx, *run, local)
	if err != nil {
		return err
	}
	set := explicit(fs)
	given := func(name string) bool { return !resuming || set[name] }
	cfg := selfplay.DefaultConfig(*size)
	if resuming && *initModel == "" {
		if set["size"] && *size != saved.Size {
			return usageError("train", "--size %d: %s holds a %dx%d run", *size, *run, saved.Size, saved.Size)
		}
		cfg = saved
	}
	cfg.Init = *initModel
	if given("seed") {
		cfg.Seed = *seed
	}
	cfg.Generations, cfg.Duration = *gens, *dur
	setInt(&cfg.GamesPerGen, *games)
	setInt(&cfg.Parallel, *workers)
	if err := adaptSims(&cfg.Game.Cap, set, *sims, *fastSims); err != nil {
		return err
	}
	if *initModel != "" {
		m, err := net.LoadForSize(*initModel, *size)
		if err != nil {
			return fmt.Errorf("train: --init: %w", err)
		}
		cfg.Net = m.Config()
		if *filters != 0 && *filters != cfg.Net.Filters || *blocks != 0 && *blocks < cfg.Net.Blocks || set["captures"] && !*captures && cfg.Net.Captures {
			return usageError("train", "--init: the model is %s; --filters cannot change it, --blocks and --captures can only add to it", cfg.Net.Arch())
		}
	}
	if set["captures"] {
		cfg.Net.Captures = *captures
	}
	setInt(&cfg.Net.Filters, *filters)
	setInt(&cfg.Net.Blocks, *blocks)
	setInt(&cfg.Train.Batch, *batch)
	if *fullProb != 0 {
		cfg.Game.Cap.FullFraction = *fullProb
	}
	if *lr != 0 {
		cfg.Train.LR = *lr
	}
	if err := applySchedule(&cfg, set, resuming && *initModel == "", *schedule); err != nil {
		return err
	}
	if *reuse != 0 {
		cfg.ReuseRatio = *reuse
	}
	for _, name := range []string{"gate-sims", "gate-sprt"} {
		if set[name] && *gateGames <= 0 {
			return usageError("train", "--%s applies to the gate: give --gate-games too", name)
		}
	}
	if set["solver"] && *solverFlag == "off" {
		for _, name := range []string{"solve-nodes", "solve-stones"} {
			if set[name] {
				return usageError("train", "--%s applies to the solver, which --solver off turns off", name)
			}
		}
	}
	if given("gate-games") {
		cfg.Gate = selfplay.GateConfig{}
		if *gateGames > 0 {
			sprt, err := arena.ParseSPRT(*gateSPRT)
			if err != nil {
				return usageError("train", "--gate-sprt: %v", err)
			}
			cfg.Gate = selfplay.GateConfig{Games: *gateGames, Sims: *gateSims, SPRT: sprt}
		}
	}
	if given("solver") {
		switch *solverFlag {
		case "on":
			cfg.Game.MCTS.Solver = true
		case "off":
			cfg.Game.MCTS.Solver = false
		default:
			return usageError("train", "--solver %q: want on or off", *solverFlag)
		}
	}
	if given("solve-nodes") {
		cfg.Game.MCTS.SolveNodes = *solveNodes
	}
	if given("solve-stones") {
		cfg.Game.MCTS.SolveStones = *solveStones
	}
	if given("value-mix") {
		cfg.Game.ValueMix = *valueMix
	}
	if given("temperature") {
		if !(*temperature >= 0 && *temperature <= 10) {
			return usageError("train", "--temperature %v: want 0..10", *temperature)
		}
		cfg.Game.Temperature.Final = *temperature
	}
	if given("exact-values") {
		cfg.Game.ExactValues = *exactValues
	}
	if *randomPlies >= 0 {
		cfg.Game.RandomPlies = *randomPlies
	}
	if *rescoreStones >= 0 {
		cfg.Game.RescoreStones = *rescoreStones
	}
	if given("rescore-children") {
		cfg.Game.RescoreChildren = *rescoreChildren
	}
	if given("rescore-child-policy") {
		cfg.Game.RescoreChildPolicy = *rescoreChildPolicy
	}
	switch *search {
	case "":
	case "gumbel":
		cfg.Game.MCTS.Gumbel = true
	case "puct":
		cfg.Game.MCTS.Gumbel = false
	default:
		return usageError("train", "--search %q: want gumbel or puct", *search)
	}
	if err := cfg.Validate(); err != nil {
		return usageError("train", "%v", err)
	}
	if *ladderEvery < 0 {
		return usageError("train", "--ladder-every %d: want 0 (no ladder) or more", *ladderEvery)
	}
	// The first line: a run is reproduced bit for bit only with the same
	// backend on the same kind of CPU.
	fmt.Fprintf(stdout, "konane train: network backend %s\n", net.Backend)
	logf := func(format string, a ...any) {
		fmt.Fprintf(stdout, "%s %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, a...))
	}
	hooks := trainHooks(stdout, stderr, logf)
	hooks.Start = func() { // once the run directory is locked and checked
		js, _ := json.MarshalIndent(cfg, "", "  ")
		fmt.Fprintf(stdout, "konane train: run %s, seed %d\n%s\n", *run, cfg.Seed, js)
	}
	if !*selfplayHere {
		if *ladderEvery > 0 {
			return usageError("train", "--ladder-every needs --selfplay (run konane ladder on the run directory instead)")
		}
		store, err := runstore.Open(ctx, *run)
		if err != nil {
			return usageError("train", "--run: %v", err)
		}
		defer store.Close()
		if *resume {
			if _, err := store.Read(ctx, "config.json"); err != nil {
				return usageError("train", "--resume: %s holds no run (%v)", *run, err)
			}
		}
		return selfplay.TrainFromWorkers(ctx, store, cfg, hooks, logf)
	}
	if *ladderEvery > 0 {
		rate, wait := ladderAlongside(ctx, *run, *ladderEvery, logf)
		defer wait()
		generation := hooks.Generation
		hooks.Generation = func(m selfplay.Metrics) { generation(m); rate(m.Generation) }
	}
	return selfplay.Run(ctx, *run, cfg, hooks, logf)
}

// savedRunConfig reads the configuration of the run at run (a directory
// or a bucket URL); resuming is false when there is no run there yet.
func savedRunConfig(ctx context.Context, run string, local bool) (cfg selfplay.Config, resuming bool, err error) {
	var d *selfplay.RunDir
	if local {
		d = selfplay.NewRunDir(strings.TrimPrefix(run, "file://"))
	} else {
		store, err := runstore.Open(ctx, run)
		if err != nil {
			return cfg, false, usageError("train", "--run: %v", err)
		}
		defer store.Close()
		if d, err = selfplay.OpenStoreRunDir(ctx, store); err != nil {
			return cfg, false, err
		}
		defer d.Close()
	}
	cfg, err = d.ReadConfig()
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return cfg, false, nil
	case err != nil:
		return cfg, false, fmt.Errorf("train: %w", err)
	}
	return cfg, true, nil
}

// applySchedule sets the run's schedule from --schedule. On a new run,
// --lr or --rescore-children without --schedule make that setting
// constant: the run has no schedule (as every run before schedules had).
func applySchedule(cfg *selfplay.Config, set map[string]bool, resuming bool, text string) error {
	switch {
	case set["schedule"]:
		s, err := selfplay.ParseSchedule(text)
		if err != nil {
			return usageError("train", "--schedule: %v", err)
		}
		cfg.Schedule = s
	case !resuming && (set["lr"] || set["rescore-children"]):
		cfg.Schedule = nil
	}
	return nil
}

// adaptSims sets the full and fast simulations of self-play from --sims
// and --fast-sims. A default the user did not set adapts to the one they
// did: --sims alone gives fast sims min(default, max(1, sims/4)), and
// --fast-sims alone raises the full sims to at least the fast ones. Only
// both given can conflict.
func adaptSims(c *mcts.PlayoutCap, set map[string]bool, sims, fastSims int) error {
	if set["sims"] && sims < 1 {
		return usageError("train", "--sims %d: want at least 1", sims)
	}
	if set["fast-sims"] && fastSims < 1 {
		return usageError("train", "--fast-sims %d: want at least 1", fastSims)
	}
	switch {
	case set["sims"] && set["fast-sims"]:
		if fastSims > sims {
			return usageError("train", "--fast-sims %d is more than --sims %d", fastSims, sims)
		}
		c.FullSims, c.FastSims = sims, fastSims
	case set["sims"]:
		c.FullSims, c.FastSims = sims, min(c.FastSims, max(1, sims/4))
	case set["fast-sims"]:
		c.FullSims, c.FastSims = max(c.FullSims, fastSims), fastSims
	}
	return nil
}

func setInt(dst *int, v int) {
	if v != 0 {
		*dst = v
	}
}

// trainHooks shows progress bars on a terminal and one log line per
// generation in any case.
func trainHooks(stdout, stderr io.Writer, logf func(string, ...any)) selfplay.Hooks {
	prog := newProgress("train", stderr, !isTerminal(stderr)) // bars only
	var update func(done, total int)
	var done, total int
	start := func(n int, unit string) {
		prog.finish()
		update, done, total = prog.update(unit), 0, n
		if update != nil {
			update(0, total)
		}
	}
	add := func() {
		done++
		if update != nil {
			update(done, total)
		}
	}
	return selfplay.Hooks{
		Selfplay: func(gen, games int) { start(games, fmt.Sprintf("gen %d self-play", gen)) },
		Game:     add,
		Training: func(gen, steps int) { start(steps, fmt.Sprintf("gen %d training", gen)) },
		Step:     add,
		Gate:     func(gen int) { logf("gen %d: gate match against the best model", gen) },
		Generation: func(m selfplay.Metrics) {
			prog.finish()
			logf("%s", m)
		},
	}
}
