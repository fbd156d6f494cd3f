package main

import (
	"context"
	"errors"
	"fmt"
	"github.com/konanezero/konane/runfiles"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/internal/lockfile"
	"github.com/konanezero/konane/ladder"
	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/rules"
)

// specList is a repeatable flag of player specs.
type specList []player.Spec

func (l *specList) String() string {
	var names []string
	for _, s := range *l {
		names = append(names, s.Name)
	}
	return strings.Join(names, " ")
}

func (l *specList) Set(text string) error {
	s, err := agent.ParseSpec(text)
	if err != nil {
		return err
	}
	*l = append(*l, s)
	return nil
}

func init() {
	register(&command{
		name:  "ladder",
		usage: "ladder --run DIR [--games K] [--every N] [--sims S] [--anchor-player SPEC]... [--anchor NAME] [flags]",
		short: "rate a run's generations incrementally (Elo ladder, solver check)",
		long: `Ladder rates the generations of the training run in DIR, incrementally.
Every N-th generation (--every) plays --games games against each anchor
player and against the previous --rungs generations on the ladder, with
--sims simulations per move. The anchors are fixed players whose strength
does not drift (default random, greedy, alphabeta:depth=2,
alphabeta:depth=4 and pvs:depth=8,eval=4/4/0/0/4/0, the strongest
classical engine at a fixed depth with its evaluation named;
repeat --anchor-player to choose others, a model file among them, such
as a shipped model); they also play each other once. --anchor names the
one rated 0 (default: the first).

Every game is kept under DIR/ladder/games/ the moment it ends, so nothing
is ever played twice: a second call plays only the games of new
generations (or of a raised --games), and an interrupted call continues
where it stopped. Ratings are the Bradley–Terry maximum likelihood over
every kept game, with 95% intervals (the arena's fit, --prior virtual
draws per pair). A multi-board run has a ladder per board, rated with
--board B (one of its list, 7x6 too) in DIR/ladder/WxH. On the square
boards 4x4 to 6x6 each generation also takes the
solver check on --positions critical positions, labelled by the exact
solver once and kept in DIR/ladder/critical.json.

Outputs, rewritten after each generation: DIR/ladder/ratings.csv (one row
per player: Elo and interval, self-play games and training hours at that
generation, solver check) and DIR/ladder/elo.png (Elo against generation,
self-play games and training hours, with the interval as a band and the
anchors as dashed lines; the solver check).

The ladder holds DIR/ladder/lock while it works; a second ladder on the
same run stops with an error. It only reads the rest of DIR, so it can run
beside "konane train" (or inside it: konane train --ladder-every N).

Example: konane ladder --run runs/6x6 --every 5 --games 20`,
		run: runLadderCmd,
	})
}

func runLadderCmd(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("ladder", stderr)
	def := ladder.DefaultConfig()
	run := fs.String("run", "", "run directory of konane train (required)")
	games := fs.Int("games", def.Games, "games of each pairing")
	every := fs.Int("every", def.Every, "rate every N-th generation")
	rungs := fs.Int("rungs", def.Rungs, "earlier generations each new one plays")
	sims := fs.Int("sims", def.Sims, "simulations per move of the generations")
	var anchors specList
	fs.Var(&anchors, "anchor-player", "a fixed player spec (repeatable; default "+strings.Join(ladder.DefaultAnchors, ", ")+")")
	anchor := fs.String("anchor", "", "name of the player rated 0 (default: the first anchor)")
	prior := fs.Float64("prior", def.Prior, "virtual draws added to each pair for the ratings")
	positions := fs.Int("positions", def.Positions, "critical positions of the solver check (4x4..6x6; 0: none)")
	plies := fs.Int("random-plies", def.RandomPlies, "random jumps after the opening removals of each game")
	seed := fs.Uint64("seed", def.Seed, "seed of the openings, players and positions")
	parallel := fs.Int("parallel", def.Parallel, "games played at once")
	gens := fs.Int("generations", 0, "rate at most this many generations in this call (0: all)")
	board := addBoardFlag(fs, "the run's own; for a multi-board run required, one of its boards (7x6 too), whose ladder is DIR/ladder/WxH")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	rb, _, err := board.board("ladder")
	if err != nil {
		return err
	}
	if *run == "" {
		return usageError("ladder", "--run DIR is required")
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	cfg := def
	cfg.Games, cfg.Every, cfg.Rungs, cfg.Sims, cfg.Anchor, cfg.Prior = *games, *every, *rungs, *sims, *anchor, *prior
	cfg.Positions, cfg.RandomPlies, cfg.Seed, cfg.Parallel, cfg.Generations = *positions, *plies, *seed, *parallel, *gens
	cfg.Board = rb
	if len(anchors) > 0 {
		cfg.Anchors = anchors
	}
	if err := cfg.Validate(); err != nil {
		return err // "ladder: ..." names the setting
	}
	return runLadder(ctx, stdout, *run, cfg)
}

func runLadder(ctx context.Context, w io.Writer, run string, cfg ladder.Config) error {
	logf := timestamped(w)
	fmt.Fprintf(w, "konane ladder: run %s, %d games per pairing, every %d generations, %d rungs, %d sims, anchors %s (%s = 0), seed %d\n",
		run, cfg.Games, cfg.Every, cfg.Rungs, cfg.Sims, strings.Join(anchorNames(cfg), ", "), cfg.AnchorName(), cfg.Seed)
	sum, err := ladder.Update(ctx, run, cfg, logf)
	if sum != nil {
		fmt.Fprintf(w, "games: %d kept from earlier calls (none replayed), %d played now; %d generations rated now", sum.Kept, sum.Played, len(sum.Rated))
		if sum.Pending > 0 {
			fmt.Fprintf(w, ", %d left for the next call", sum.Pending)
		}
		fmt.Fprintln(w)
		if sum.RatingsErr != nil {
			fmt.Fprintf(w, "no ratings yet: %v\n", sum.RatingsErr)
		} else {
			writeLadderTable(w, sum.Rows)
			dir := filepath.Join(run, runfiles.LadderDir)
			if sum.Board != "" {
				dir = filepath.Join(dir, sum.Board)
			}
			fmt.Fprintf(w, "wrote %s and %s\n", filepath.Join(dir, runfiles.RatingsFile), filepath.Join(dir, ladder.PlotFile))
		}
	}
	if err != nil && ctx.Err() != nil {
		fmt.Fprintln(w, "interrupted: every finished game is kept; run the same command to continue")
		return nil
	}
	return err
}

func anchorNames(cfg ladder.Config) []string {
	var out []string
	for _, a := range cfg.Anchors {
		out = append(out, a.Name)
	}
	return out
}

// writeLadderTable prints the anchors and the last few generations.
func writeLadderTable(w io.Writer, rows []runfiles.Rating) {
	fmt.Fprintf(w, "%-20s %7s %16s %7s %9s\n", "player", "Elo", "95% CI", "games", "solver")
	var gens []runfiles.Rating
	for _, r := range rows {
		if r.Anchor {
			writeLadderRow(w, r)
		} else {
			gens = append(gens, r)
		}
	}
	if len(gens) > 12 {
		fmt.Fprintf(w, "... %d earlier generations in ratings.csv\n", len(gens)-12)
		gens = gens[len(gens)-12:]
	}
	for _, r := range gens {
		writeLadderRow(w, r)
	}
}

func writeLadderRow(w io.Writer, r runfiles.Rating) {
	ci := "anchor"
	if r.SE > 0 {
		ci = fmt.Sprintf("[%+.0f, %+.0f]", r.Low, r.High)
	}
	solver := ""
	if r.SolverPositions > 0 {
		solver = fmt.Sprintf("%.1f%%", 100*r.SolverRate)
	}
	fmt.Fprintf(w, "%-20s %+7.0f %16s %7d %9s\n", r.Player, r.Elo, ci, r.Games, solver)
}

// ladderAlongside runs the ladder of a training run in the background
// after every n-th generation (konane train --ladder-every): one game at
// a time, one update at a time (see alongside). limit is the session's
// time limit (0: none), which the ladder keeps too.
//
// A multi-board run's boards are the run's ladders each in turn; boards
// lists them (nil: the run's one board).
func ladderAlongside(ctx context.Context, run string, n int, boards []rules.Board, limit time.Duration, logf func(string, ...any)) (onGeneration func(gen int), wait func()) {
	cfg := ladder.DefaultConfig()
	cfg.Parallel = 1
	if boards == nil {
		boards = []rules.Board{{}}
	}
	update := func(ctx context.Context) {
		for _, board := range boards {
			cfg := cfg
			cfg.Every, cfg.Board = n, board
			prefix := "ladder: "
			if board != (rules.Board{}) {
				prefix = fmt.Sprintf("ladder %s: ", board)
			}
			sum, err := ladder.Update(ctx, run, cfg, func(format string, a ...any) { logf(prefix+format, a...) })
			var busy *lockfile.BusyError
			switch {
			case errors.As(err, &busy):
				logf("%sskipped, another ladder is rating this run (process %d)", prefix, busy.PID)
			case err != nil && ctx.Err() == nil:
				logf("%s%v", prefix, err)
			case err == nil && sum.RatingsErr == nil && len(sum.Rated) > 0:
				last := sum.Rows[len(sum.Rows)-1]
				logf("%s%s rated %+.0f Elo [%+.0f, %+.0f] (%s = 0), %d games played", prefix, last.Player, last.Elo, last.Low, last.High, cfg.AnchorName(), sum.Played)
			}
		}
	}
	return alongside(ctx, n, limit, update, logf)
}

// alongside runs update after every n-th generation, in the background,
// one update at a time; generations that end while an update runs are
// rated by another update right after it (before, they waited for the
// next n-th generation, and the last ones of a run were never rated).
// wait waits for the updates (ctx ending stops them; their games are
// kept). With a limit, the updates stop when limit has passed since
// alongside was called, and wait says so: a session's time limit
// includes its ladder (before, train --time 4m waited 35 minutes for
// one).
func alongside(ctx context.Context, n int, limit time.Duration, update func(context.Context), logf func(string, ...any)) (onGeneration func(gen int), wait func()) {
	parent := ctx
	var cancel context.CancelFunc
	if limit > 0 {
		ctx, cancel = context.WithTimeout(parent, limit)
	} else {
		ctx, cancel = context.WithCancel(parent)
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	running := false // a goroutine is rating
	pending := false // a generation arrived while it was
	cut := false     // the time limit stopped an update
	rate := func() {
		defer wg.Done()
		for {
			update(ctx)
			mu.Lock()
			if ctx.Err() != nil && parent.Err() == nil {
				cut = true
			}
			if !pending || ctx.Err() != nil {
				running = false
				mu.Unlock()
				return
			}
			pending = false
			mu.Unlock()
		}
	}
	onGeneration = func(gen int) {
		if gen%n != 0 || ctx.Err() != nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if running {
			pending = true
			return
		}
		running = true
		wg.Add(1)
		go rate()
	}
	wait = func() {
		mu.Lock()
		if running && ctx.Err() == nil {
			if limit > 0 {
				logf("waiting for the ladder to finish, within the time limit (Ctrl-C stops it; its games are kept)")
			} else {
				logf("waiting for the ladder to finish (Ctrl-C stops it; its games are kept)")
			}
		}
		mu.Unlock()
		wg.Wait()
		if cut {
			logf("time limit %v reached: the ladder stopped with the run (its finished games are kept; konane ladder --run DIR rates the rest)", limit)
		}
		cancel()
	}
	return onGeneration, wait
}
