package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/arena"
	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/rules"
)

func init() {
	register(&command{
		name:  "arena",
		usage: "arena --board B [--games K] [--parallel P] [--gauntlet] [flags] PLAYER_SPEC...\n       konane arena --board B --solver-check [--positions N] PLAYER_SPEC...",
		short: "play players against each other and rate them (Elo), or check one against the solver",
		long: `Arena plays matches between players and rates them. Flags come before the
player specs. Each spec names a player and its settings:

    random                         a uniformly random legal move
    greedy                         one ply: own mobility minus the opponent's
    alphabeta:depth=4              alpha-beta search (depth=N and/or time=D)
    pvs:time=1s                    the strongest classical engine: principal
                                   variation search (depth=N and/or time=D;
                                   eval=mob|full|M/S/P/T[/J/R], lmr=on|off,
                                   maxstones=N solver threshold, deepen=P%)
    pvs:level=newcomer             pvs as a level plays where no network does
                                   (` + classicalExamples() + `): its time per move and its
                                   share of random moves
    mcts:sims=1000                 pure MCTS with random playouts (sims=N, time=D, c=X)
    perfect                        the exact solver (4x4 and 5x5; larger boards
                                   only late in the game, see maxstones=N)
    model:FILE,sims=200            a trained model with MCTS (level=L, sims=N or time=D;
                                   solver=off searches without the solver; ptemp=T
                                   sets the priors' temperature, default the agent's;
                                   board=B gives a multi-board model its board,
                                   by default the match's)
    model:sims=200,file=PATH       the same for any path: file=, last, takes
                                   the rest of the spec (commas included)

and every kind takes name=LABEL (the default name is the spec itself).

Round robin (every pair) or, with --gauntlet, the first player against
each other one. Each pair plays --games games from the same opening lines:
every legal pair of removals in a seeded order followed by --random-plies
random jumps (on a board with the gap start, such as AbstractPlay's 7x6
and 9x8, the random jumps alone), each line twice with colours swapped.
A single-board model plays its own board, a multi-board model file
` + multiFileBoards() + `; pvs, alphabeta, greedy and
random play every board up to 16x16. The output gives the
number of distinct games, each pair's wins and losses, and Elo ratings by
maximum likelihood (Bradley–Terry) with 95% confidence intervals,
anchored at 0 on --anchor (default: the first player). --prior adds
virtual draws to every pair so that a player that won every game still
gets a finite rating. With --out DIR it writes DIR/results.csv (pairs),
DIR/ratings.csv, DIR/results.json and every game as DIR/games/NNNNN.txt
(each game as it ends: a match stopped early keeps the games it played).
The same command run again with the same --out continues the match: it
plays only the games DIR does not keep yet, and the results are those of
an uninterrupted run (with --sprt, of one at --parallel 1: the order
games end in moves the test). DIR/match.json names the match; another
match's folder is refused.

--sprt elo0,elo1[,alpha,beta] runs a sequential probability ratio test of
the second player of each pair against the first (H0: elo0, H1: elo1
Elo better) and stops the pair once it decides.

--solver-check samples critical positions (the side to move can win, but
not every move wins) from random games, labels them with the exact
solver, and reports how often each player's move keeps the win, beside
the rate a random player would reach. For 4x4 to 6x6 boards: 5x5 samples
hundreds of positions a second, 6x6 takes about a second per position.
Several players are checked on the same positions, labelled once, and
each after the first is compared with it: the difference of the rates
with its 95% interval for paired positions.

A progress bar with the time left goes to standard error.

Example: konane arena --board 6 --games 40 alphabeta:depth=4 greedy random
Example: konane arena --board 7x6 --games 40 model:multi.safetensors,level=medium pvs:time=1s
Example: konane arena --board 5 --solver-check --positions 300 alphabeta:depth=4 alphabeta:depth=2`,
		run: runArena,
	})
}

// runArena is "konane arena": a match between the player specs of args, or a
// solver check of one.
func runArena(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("arena", stderr)
	board := addBoardFlag(fs, "required; a model plays "+narrowBoards()+" and the larger boards it was trained on, pvs, alphabeta, greedy and random every board")
	games := fs.Int("games", 20, "games per pair of players")
	parallel := fs.Int("parallel", runtime.NumCPU(), "games played at once")
	gauntlet := fs.Bool("gauntlet", false, "play the first player against each other one instead of every pair")
	plies := fs.Int("random-plies", 2, "random jumps after the opening removals of each line")
	seed := fs.Uint64("seed", 1, "seed of the openings and the players")
	anchor := fs.String("anchor", "", "name of the player rated 0 (default: the first)")
	prior := fs.Float64("prior", 1, "virtual draws added to each pair for the ratings (0: pure maximum likelihood)")
	out := fs.String("out", "", "folder for results.csv, ratings.csv, results.json and games/")
	sprtText := fs.String("sprt", "", "elo0,elo1[,alpha,beta]: stop a pair once its SPRT decides")
	check := fs.Bool("solver-check", false, "check one player's moves in critical positions against the solver")
	positions := fs.Int("positions", 200, "critical positions of --solver-check")
	quiet := fs.Bool("quiet", false, "no progress bar")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	rb, given, err := board.board("arena")
	switch {
	case err != nil:
		return err
	case !given:
		return usageError("arena", "--board is required (%s, or larger boards up to %dx%d with pvs, alphabeta, greedy, random and a model trained there)", narrowBoards(), rules.MaxSide, rules.MaxSide)
	}
	if *parallel < 1 {
		return usageError("arena", "--parallel %d: want at least 1", *parallel)
	}
	specs, err := parseSpecs(fs.Args())
	if err != nil {
		return err
	}
	specsOnBoard(specs, rb)
	// Flags of the other mode given explicitly conflict with this one.
	set := explicit(fs)
	matchOnly := []string{"games", "gauntlet", "random-plies", "anchor", "prior", "out", "sprt"}
	for _, name := range matchOnly {
		if *check && set[name] {
			return usageError("arena", "--%s applies to a match, not to --solver-check", name)
		}
	}
	if !*check && set["positions"] {
		return usageError("arena", "--positions applies to --solver-check only")
	}
	progress := newProgress("arena", stderr, *quiet)
	if *check {
		if len(specs) == 0 {
			return usageError("arena", "--solver-check takes at least one player spec")
		}
		if !rb.Square() || rb.W > 6 {
			return usageError("arena", "--solver-check %s: the solver labels positions quickly only on the square boards up to 6x6", board.flagText())
		}
		if *positions < 1 {
			return usageError("arena", "--positions %d: want at least 1", *positions)
		}
		return arenaSolverCheck(ctx, stdout, specs, arena.SampleConfig{Size: rb.W, Positions: *positions, Seed: *seed, Parallel: *parallel}, progress)
	}
	if len(specs) < 2 {
		return usageError("arena", "a match needs at least 2 player specs, got %d", len(specs))
	}
	cfg := arena.MatchConfig{Board: rb, Games: *games, Parallel: *parallel, Gauntlet: *gauntlet, RandomPlies: *plies, Seed: *seed}
	if *sprtText != "" {
		s, err := arena.ParseSPRT(*sprtText)
		if err != nil {
			return fmt.Errorf("arena: --sprt: %w", err)
		}
		cfg.SPRT = &s
	}
	anchorIdx, err := anchorIndex(specs, *anchor)
	if err != nil {
		return err
	}
	if *prior < 0 {
		return usageError("arena", "--prior %g: want 0 or more", *prior)
	}
	return arenaMatch(ctx, stdout, specs, fs.Args(), cfg, anchorIdx, *prior, *out, progress)
}

// parseSpecs parses the player specs of the command line.
func parseSpecs(args []string) ([]player.Spec, error) {
	specs := make([]player.Spec, len(args))
	for i, text := range args {
		s, err := agent.ParseSpec(text)
		if err != nil {
			return nil, fmt.Errorf("arena: %w", err)
		}
		specs[i] = s
	}
	return specs, nil
}

// specsOnBoard gives the model specs that name no board the match's
// board b (agent.OnBoard: a multi-board model plays it, above 8x8 only
// when trained there: agent.OpenBoardEngine; a single-board model must
// be of b).
func specsOnBoard(specs []player.Spec, b rules.Board) {
	for i, s := range specs {
		specs[i] = agent.OnBoard(s, b)
	}
}

// anchorIndex is the index of the (last) player called anchor; the
// first player for "".
func anchorIndex(specs []player.Spec, anchor string) (int, error) {
	if anchor == "" {
		return 0, nil
	}
	for i := len(specs) - 1; i >= 0; i-- {
		if specs[i].Name == anchor {
			return i, nil
		}
	}
	return 0, usageError("arena", "--anchor %q is not the name of a player", anchor)
}

// arenaMatch plays the match cfg between specs (texts: as given) and
// prints its tables; with out, it keeps every game there as it ends and
// continues the match that out keeps (arena.Resume).
func arenaMatch(ctx context.Context, stdout io.Writer, specs []player.Spec, texts []string, cfg arena.MatchConfig, anchor int, prior float64, out string, progress *progress) error {
	entrants := make([]arena.Entrant, len(specs))
	for i, s := range specs {
		f, err := agent.NewFactory(s)
		if err != nil {
			return fmt.Errorf("arena: %w", err)
		}
		entrants[i] = f
	}
	fmt.Fprintln(stdout, cfg.Describe(len(specs)))
	if out != "" {
		// Each game is kept as it ends: a match stopped early keeps the
		// games it played, and a rerun plays only the others (the tables
		// are written at the end).
		partial := &arena.Results{Config: cfg, Names: make([]string, len(entrants))}
		for i, e := range entrants {
			partial.Names[i] = e.Name()
		}
		kept, err := arena.Resume(out, cfg, partial.Names, texts)
		if err != nil {
			return err
		}
		if len(kept) > 0 {
			fmt.Fprintf(stdout, "continuing: %d of %d games kept in %s\n", len(kept), cfg.Games*len(arena.Pairings(len(specs), cfg.Gauntlet)), out)
		}
		cfg.Kept = kept
		cfg.OnGame = func(g arena.Game) error { return partial.SaveGame(out, g) }
	}
	cfg.Progress = progress.update("games")
	if k := len(cfg.Kept); k > 0 && cfg.Progress != nil {
		// The games left, so that the time left is that of the games
		// played in this run.
		update := cfg.Progress
		cfg.Progress = func(done, total int) { update(done-k, total-k) }
	}
	res, err := arena.Run(ctx, cfg, entrants)
	progress.finish()
	if err != nil {
		return err
	}
	rep := arena.NewReport(res, anchor, prior)
	if err := rep.WriteTables(stdout); err != nil {
		return err
	}
	if out != "" {
		if err := rep.SaveTables(out); err != nil { // the games were kept as they ended
			return err
		}
		fmt.Fprintf(stdout, "\nwrote %s: results.csv, ratings.csv, results.json and %d games in games/\n", out, len(res.Games))
	}
	return nil
}

func arenaSolverCheck(ctx context.Context, stdout io.Writer, specs []player.Spec, cfg arena.SampleConfig, progress *progress) error {
	factories := make([]*player.Factory, len(specs))
	names := make([]string, len(specs))
	for i, spec := range specs {
		f, err := agent.NewFactory(spec)
		if err != nil {
			return fmt.Errorf("arena: %w", err)
		}
		if err := f.CheckBoard(rules.SquareBoard(cfg.Size)); err != nil {
			return fmt.Errorf("arena: %w", err)
		}
		factories[i], names[i] = f, spec.Name
	}
	fmt.Fprintf(stdout, "arena: solver check of %s on %dx%d, %d critical positions from random games, seed %d\n",
		strings.Join(names, ", "), cfg.Size, cfg.Size, cfg.Positions, cfg.Seed)
	cfg.Progress = progress.update("positions found")
	crit, err := arena.SampleCritical(ctx, cfg)
	progress.finish()
	if err != nil {
		return err
	}
	if len(crit) < cfg.Positions {
		fmt.Fprintf(stdout, "found only %d distinct critical positions\n", len(crit))
	}
	results := make([]*arena.CheckResult, len(specs))
	for i, f := range factories {
		r, err := checkOne(ctx, crit, f, names[i], cfg, progress)
		if err != nil {
			return err
		}
		results[i] = r
		fmt.Fprintf(stdout, "%s kept the win in %d of %d positions: %.1f%% (95%% CI %.1f-%.1f%%)\n",
			names[i], r.Kept, r.Positions, 100*r.Rate, 100*r.Low, 100*r.High)
	}
	fmt.Fprintf(stdout, "a random player would keep it in %.1f%% (expected over the same positions)\n", 100*results[0].RandomRate)
	for i := 1; i < len(results); i++ {
		p, err := arena.Paired(results[0], results[i])
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s minus %s: %+.1f points (95%% CI %+.1f to %+.1f, paired: %d positions kept by %s only, %d by %s only)\n",
			names[i], names[0], 100*p.Diff, 100*p.Low, 100*p.High, p.OnlyB, names[i], p.OnlyA, names[0])
	}
	return nil
}

// checkOne runs the solver check of one player on crit, its shared
// machinery (a network) running during the check.
func checkOne(ctx context.Context, crit []arena.Critical, f *player.Factory, name string, cfg arena.SampleConfig, progress *progress) (*arena.CheckResult, error) {
	runCtx, stop := context.WithCancel(ctx)
	runErr := make(chan error, 1)
	go func() { runErr <- f.Run(runCtx) }()
	r, err := arena.CheckPlayer(ctx, crit, f, arena.CheckConfig{Parallel: cfg.Parallel, Seed: cfg.Seed, Progress: progress.update("positions checked")})
	progress.finish()
	stop()
	if rerr := <-runErr; rerr != nil && err == nil && ctx.Err() == nil {
		err = fmt.Errorf("arena: %s: %w", name, rerr)
	}
	return r, err
}
