package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/runfiles"
	"github.com/konanezero/konane/runstore"
	"github.com/konanezero/konane/selfplay"
)

// trainHelp is the long help of konane train.
const trainHelp = `Train runs the self-play loop in DIR: each generation plays games with the
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
--board or --lr) is refused, naming the setting. Ctrl-C or SIGTERM finish
the write in progress and exit 0; even kill -9 loses at most the unsaved
games of the running generation. One trainer at a time holds DIR (a lock
on DIR/lock, which dies with its process): a second one fails at once,
naming the PID of the first.

Metrics per generation go to DIR/metrics.csv and DIR/metrics.png.

--ladder-every N runs "konane ladder --every N" in the background after
every N-th generation, one game at a time (see "konane help ladder"), so
it uses at most about one core; its cost grows with the ladder's games
and simulations (see docs/results). Rate less often (a larger N) to
give it less. At the end of training the run waits for the rating in
progress, within --time if given: the time limit includes the ladder,
which stops with the run and says so (konane ladder rates the rest).

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
and kept in config.json. The default is the recipe of the per-size models
shipped before the multi-board one, whose runs were chained by hand with
new rates (scripts/reproduce-shipped.sh):
  6x6 and below: 1:lr=0.02;588:lr=0.002;898:lr=0.002,children=2;1377:lr=0.0005,children=2
  7x7 and 8x8:   1:lr=0.02;332:lr=0.002;777:lr=0.0005
--schedule none, or --lr or --rescore-children on a new run without
--schedule, keeps them constant instead (as runs made before schedules,
whose config.json has none, do); --rescore-stones 0 without --schedule
keeps its learning rates without the children. The learning rate warms
up over the first 50 steps of the run only.

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
run may then also be a bucket URL (s3://bucket/prefix?endpoint=..., in a
konane built with -tags s3, as the container image is). Only
one trainer holds a run: a second one is refused while the first lives; a
trainer restarted after a crash takes the run back (at once on the same
machine, after 30 s elsewhere). A run records where its games are played
(config.json's "games"): a run fed by workers resumes so without
--selfplay=false, and a flag that contradicts the run is refused. See
"Train on many machines" in the README.

--board with a list of boards up to 16x16 (6x6,7x6,7x7,8x8,9x8,11x8,15x12),
or one rectangle or board above 8x8, trains one network of them all (the boards above 8x8 are
played without the exact endgame solver): every generation's games cycle
through the boards, each board repeated by its weight (8x8:2 plays twice
as many 8x8 games), each with its size's defaults; each training batch is
of one board. The list is part of the run: a resume with another is
refused. Such a run plays its own games (no workers, no gate yet);
"konane ladder --board B" rates it on one of its boards (7x6 too), and
--ladder-every on each of them in turn.

The trainer (gradients, on Gorgonia) is not in a player's konane: there
konane train runs konane-train, konane built with the trainer, beside
konane or on PATH, with the same arguments, environment and exit status
(it names the one it runs on stderr, and konane-train refuses to train
when it was built from another version than konane):
  go build -tags trainer -o konane-train ./cmd/konane
or, without installing it: go run -tags trainer ./cmd/konane train ...

Example: konane train --run runs/6x6 --board 6 --time 30m
         konane train --run runs/multi --board 6x6,7x6,7x7,8x8 --seed 4301
         konane train --run runs/multi-b --board 6x6,7x6,7x7,8x8,9x8,11x8,15x12 --init models/konane-multi.safetensors --time 10h`

func init() {
	register(&command{
		name:  "train",
		usage: "train --run DIR|URL [--board 6|8|6x6,7x6,8x8:2] [--time 30m] [--generations G] [--selfplay=false] [flags]",
		short: "learn from zero by self-play (resumable; runs konane-train)",
		long:  trainHelp,
		run:   runTrain,
	})
}

// runTrain is "konane train": the self-play loop of one run directory.
// Its flags are the rows of trainSettings.
func runTrain(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("train", stderr)
	var f trainFlags
	declareTrainFlags(fs, &f)
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	// The checks that need no trainer come first: a player's konane
	// reports a missing --run, not a missing konane-train.
	set, err := f.given(fs)
	if err != nil {
		return err
	}
	f.set = set
	o := &f.opts
	if err := checkTrainRun(o); err != nil {
		return err
	}
	if newTrainer == nil {
		return runKonaneTrain(args, stdin, stdout, stderr)
	}
	if err := checkTrainVersion(os.Getenv(trainVersionEnv), trainVersion); err != nil {
		return err
	}
	cfg, err := trainConfig(ctx, &f)
	if err != nil {
		return err
	}

	// The first line: a run is reproduced bit for bit only with the same
	// backend on the same kind of CPU.
	backend := net.Backend
	if cfg.Backend == net.BackendBF16 {
		backend += ", bf16 products"
	}
	fmt.Fprintf(stdout, "konane train: network backend %s\n", backend)
	logf := timestamped(stdout)
	hooks := trainHooks(stdout, stderr, logf)
	hooks.Start = func() { // once the run directory is locked and checked
		js, _ := json.MarshalIndent(cfg, "", "  ")
		fmt.Fprintf(stdout, "konane train: run %s, seed %d\n%s\n", o.run, cfg.Seed, js)
	}
	if !o.selfplay {
		if o.ladderEvery > 0 {
			return usageError("train", "--ladder-every needs --selfplay (run konane ladder on the run directory instead)")
		}
		store, err := runstore.Open(ctx, o.run)
		if err != nil {
			return usageError("train", "--run: %v", trainStoreError(err))
		}
		defer store.Close()
		logStoreRetries(store, logf)
		if o.resume {
			if _, err := store.Read(ctx, runfiles.ConfigFile); err != nil {
				return usageError("train", "--resume: %s holds no run (%v)", o.run, err)
			}
		}
		return trainFromWorkers(ctx, store, cfg, hooks, logf)
	}
	if o.ladderEvery > 0 {
		var boards []rules.Board // a multi-board run's ladders
		if cfg.MultiBoard() {
			boards = cfg.BoardList()
		}
		rate, wait := ladderAlongside(ctx, o.run, o.ladderEvery, boards, cfg.Duration, logf)
		defer wait()
		generation := hooks.Generation
		hooks.Generation = func(m runfiles.Metrics) { generation(m); rate(m.Generation) }
	}
	return trainLoop(ctx, o.run, cfg, hooks, logf)
}

// trainLoop and trainFromWorkers run a training run; tests replace them to
// see the configuration that the flags give.
var (
	trainLoop        = runLoop
	trainFromWorkers = runFromWorkers
)

// runLoop and runFromWorkers are selfplay.Run and TrainFromWorkers with
// the trainers of newTrainer.
func runLoop(ctx context.Context, dir string, cfg selfplay.Config, hooks selfplay.Hooks, logf func(string, ...any)) error {
	return selfplay.Run(ctx, dir, cfg, newTrainer, hooks, logf)
}

func runFromWorkers(ctx context.Context, store *runstore.Store, cfg selfplay.Config, hooks selfplay.Hooks, logf func(string, ...any)) error {
	return selfplay.TrainFromWorkers(ctx, store, cfg, newTrainer, hooks, logf)
}

// isLocalRun reports whether run names a directory rather than a bucket.
func isLocalRun(run string) bool {
	return !strings.Contains(run, "://") || strings.HasPrefix(run, "file://")
}

// checkTrainRun checks the session's options: the run, where its games
// are played, and whether it starts or resumes.
func checkTrainRun(o *trainOptions) error {
	if o.run == "" {
		return usageError("train", "--run DIR is required")
	}
	var err error
	if o.boards, err = trainBoards(&o.board); err != nil {
		return err
	}
	if o.boards == nil {
		if o.size, err = o.board.getOr("train", rules.DefaultSize); err != nil {
			return err
		}
	} else {
		o.size = 0
	}
	local := isLocalRun(o.run)
	if o.selfplay && !local {
		return usageError("train", "--run %s: a bucket run is trained from workers' games: add --selfplay=false and start konane selfplay workers", o.run)
	}
	if o.selfplay {
		o.run = strings.TrimPrefix(o.run, "file://")
	}
	if o.resume && local {
		if !selfplay.NewRunDir(strings.TrimPrefix(o.run, "file://")).HasRun() {
			return usageError("train", "--resume: %s holds no run (no configuration)", o.run)
		}
	}
	if o.init != "" {
		if o.resume {
			return usageError("train", "--init starts a new run; --resume continues one: give one of them")
		}
		if selfplay.NewRunDir(o.run).HasRun() {
			return usageError("train", "--init: %s already holds a run; --init starts a new one (run again without --init to continue it)", o.run)
		}
	}
	return nil
}

// trainBoards reads --board as a board list: nil for none or one square
// board up to 8x8 (a single-board run, as ever); the list of a
// multi-board run when it names several boards, a weight, a rectangle or
// a board above 8x8. Its errors are one
// line naming the flag.
func trainBoards(b *boardFlag) ([]selfplay.BoardShare, error) {
	if !b.Given() || b.twice {
		return nil, nil // board() reports --board and --size both given
	}
	text := b.text
	if !strings.ContainsAny(text, ",:") {
		var err error
		if text, err = b.spec("train"); err != nil {
			return nil, err
		}
		rb, err := rules.ParseBoard(text)
		if err != nil || rb.Square() && rb.W <= rules.MaxSize {
			return nil, nil // one square board up to 8x8; board() reports a bad one
		}
	} else if b.start != "" {
		return nil, usageError("train", "--start %s: a board list gives each board's start in the list (7x6/removal)", rules.Quote(b.start))
	}
	bs, err := selfplay.ParseBoardShares(text)
	if be := (*rules.BoardError)(nil); errors.As(err, &be) {
		return nil, usageError("train", "%s: %v", b.flagText(), be)
	} else if err != nil {
		return nil, usageError("train", "%s: %v", b.flagText(), err)
	}
	return bs, nil
}

// runBoards names the boards of a run for people: its board list, or
// its one board.
func runBoards(c selfplay.Config) string {
	if c.MultiBoard() {
		return selfplay.BoardSharesString(c.Boards)
	}
	return fmt.Sprintf("%dx%d", c.Size, c.Size)
}

// trainConfig returns the configuration of the run: a new run's from the
// defaults of its size and the flags given; a run that exists continues
// with its own settings, and only the flags given now apply: one that
// changes what defines the run is refused, naming the setting.
func trainConfig(ctx context.Context, f *trainFlags) (selfplay.Config, error) {
	o, set := &f.opts, f.set
	saved, resuming, err := savedRunConfig(ctx, o.run, isLocalRun(o.run))
	if err != nil {
		return saved, err
	}
	def := selfplay.DefaultConfig(o.size)
	if o.boards != nil {
		def = selfplay.DefaultMultiBoardConfig(o.boards)
		if !o.selfplay {
			return def, usageError("train", "%s: a multi-board run plays its own games (workers play one board only yet): leave out --selfplay=false", o.board.flagText())
		}
	}
	cfg := def
	if resuming && o.init == "" {
		if o.board.Given() && (o.size != saved.Size || selfplay.BoardSharesString(o.boards) != selfplay.BoardSharesString(saved.Boards)) {
			if o.boards == nil && !saved.MultiBoard() {
				return cfg, usageError("train", "%s: %s holds a %dx%d run", o.board.flagText(), o.run, saved.Size, saved.Size)
			}
			return cfg, usageError("train", "%s: %s holds a run of %s: a run keeps its boards; use another --run directory for others", o.board.flagText(), o.run, runBoards(saved))
		}
		cfg = saved
		// A run resumes where its games were played: without
		// --selfplay, in its mode; with one that contradicts it, not.
		switch workers := saved.Games == selfplay.ModeWorkers; {
		case saved.Games == "" || workers == !o.selfplay:
		case !set["selfplay"] && workers:
			o.selfplay = false
		case workers:
			return cfg, usageError("train", "--run %s: the run is trained from workers' games: add --selfplay=false (without --selfplay=true)", o.run)
		default:
			return cfg, usageError("train", "--run %s: the run plays its own games: leave out --selfplay=false", o.run)
		}
	}
	cfg.Init = o.init
	if err := adaptSims(&cfg.Game.Cap, set, o.sims, o.fastSims); err != nil {
		return cfg, err
	}
	if o.init != "" {
		if cfg.Net, err = initNet(f); err != nil {
			return cfg, err
		}
		cfg.InitModel = f.cfg.InitModel // read once: the run starts from it
	}
	if set["solver"] && !f.cfg.Game.MCTS.Solver {
		for _, name := range []string{"solve-nodes", "solve-stones"} {
			if set[name] {
				return cfg, usageError("train", "--%s applies to the solver, which --solver off turns off", name)
			}
		}
	}
	f.apply(&cfg, def)
	constantSchedule(&cfg, set, resuming && o.init == "")
	if set["gate-games"] { // a gate of its own: its sims and SPRT given or the gate's defaults
		cfg.Gate = selfplay.GateConfig{}
		if f.cfg.Gate.Games > 0 {
			cfg.Gate = f.cfg.Gate
		}
	}
	if err := cfg.Validate(); err != nil {
		return cfg, usageError("train", "%v", err)
	}
	if resuming && o.init == "" {
		if diff := selfplay.ResumeDiff(saved, cfg); diff != "" {
			what := "the flags given"
			if names := f.changed(saved); len(names) > 0 {
				what = strings.Join(names, ", ")
			}
			return cfg, usageError("train", "%s would change the run in %s (%s): a resumed run keeps these settings; use another --run directory for new ones", what, o.run, diff)
		}
	}
	return cfg, nil
}

// initNet is the network of a run that --init starts from a model: the
// model's, deeper with --blocks, with the capture planes of --captures,
// with the auxiliary heads of --aux-heads and the soft policy head of
// --soft-policy.
func initNet(f *trainFlags) (net.Config, error) {
	var m *net.Model
	var err error
	if f.opts.boards != nil {
		if m, err = net.Load(f.opts.init); err == nil && !m.Config().MultiBoard() {
			err = fmt.Errorf("the model plays %s only; a multi-board run starts from a multi-board model", net.BoardList(m.Boards()))
		}
	} else {
		m, err = net.LoadForSize(f.opts.init, f.opts.size)
	}
	if err != nil {
		return net.Config{}, fmt.Errorf("train: --init: %w", err)
	}
	f.cfg.InitModel = m // trainConfig hands it to the run: the file is read once
	c, set, want := m.Config(), f.set, f.cfg.Net
	if set["filters"] && want.Filters != c.Filters || set["blocks"] && want.Blocks < c.Blocks || set["captures"] && !want.Captures && c.Captures {
		return c, usageError("train", "--init: the model is %s; --filters cannot change it, --blocks and --captures can only add to it", c.Arch())
	}
	if set["aux-heads"] {
		c.Aux = want.Aux
	}
	if set["soft-policy"] {
		c.SoftPolicy = want.SoftPolicy
	}
	return c, nil
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
			return cfg, false, usageError("train", "--run: %v", trainStoreError(err))
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
		if local {
			if err := checkNewRunDir(strings.TrimPrefix(run, "file://")); err != nil {
				return cfg, false, err
			}
		}
		return cfg, false, nil
	case err != nil:
		return cfg, false, fmt.Errorf("train: %w", err)
	}
	return cfg, true, nil
}

// checkNewRunDir refuses to start a run in a directory that holds files
// of something else: a mistyped --run would mix the run into them.
func checkNewRunDir(dir string) error {
	es, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("train: --run: %w", err)
	}
	for _, e := range es {
		if !runfiles.IsRunEntry(e.Name()) {
			return usageError("train", "--run %s: the directory holds %s, which is not a run's, and no run (config.json): name an empty or new directory", dir, rules.Quote(e.Name()))
		}
	}
	return nil
}

// constantSchedule adapts the schedule of a new run to the flags given
// without --schedule: --lr or --rescore-children make that setting
// constant, so the run has no schedule (as every run before schedules
// had); --rescore-stones 0 (no rescoring) leaves the schedule's stages
// without children, which need rescoring.
func constantSchedule(cfg *selfplay.Config, set map[string]bool, resuming bool) {
	switch {
	case resuming || set["schedule"]:
	case set["lr"] || set["rescore-children"]:
		cfg.Schedule = nil
	case cfg.Game.RescoreStones == 0 && len(cfg.Schedule) > 0:
		s := slices.Clone(cfg.Schedule)
		for i := range s {
			s[i].RescoreChildren = 0
		}
		cfg.Schedule = s
	}
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
		total = max(total, done) // a trainer fed by workers takes every game it finds
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
		Generation: func(m runfiles.Metrics) {
			prog.finish()
			logf("%s", m)
		},
	}
}

// trainStoreError adds to runstore.Open's error for a bucket run the
// build that trains on it: konane-train needs the driver's tag as well as
// trainer (runstore's "build konane with -tags s3" alone names the
// player's konane, which has no trainer).
func trainStoreError(err error) error {
	d, ok := errors.AsType[*runstore.DriverError](err)
	if !ok || newTrainer == nil {
		return err
	}
	return fmt.Errorf("%w; this is %s, which needs the driver too: go build -tags %s,trainer -o %s ./cmd/konane", err, trainBinary, d.Tag, trainBinary)
}
