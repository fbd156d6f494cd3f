package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/analysis"
	"github.com/konanezero/konane/chart"
	"github.com/konanezero/konane/internal/atomicfile"
	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/rules"
)

func init() {
	register(&command{
		name:  "analyze",
		usage: "analyze [--sims N | --time D | --depth N] [--out FILE] [--plot PNG] [--json] [--model FILE] RECORD",
		short: "review a game: win probability per move, mistakes, best lines",
		long: fmt.Sprintf(`Analyze reviews a game record (text or JSON): the agent searches every
position of the game, and a table gives one row per move, numbered by
move pairs as records are ("3." is Black's third move, "3..." White's
reply), under a first line naming the board, its start and the reviewer
("9x8 game, gap start, reviewed by the classical engine (...)"):

    no.  player  move  before  after  loss  class  best line  line played  solver

before and after are the mover's probability of winning before and after
the move, loss the difference (at least 0), and class grades the loss:

    inaccuracy  %.0f%% to %.0f%%
    mistake     %.0f%% to %.0f%%
    blunder     %.0f%% or more

"best line" is the agent's choice in the position and the line it
expects ("= ..." when the move played was its choice); "line played" is
the move played and the line the agent expects after it ("=" when it was
its choice). Positions small
enough for the exact solver (4x4 and 5x5, larger boards from %d stones
down) get exact probabilities (0 or 1), so that a move which throws a
forced win away loses 100%% and is a blunder; the solver column then says
"throws away a forced win", "only winning move", "keeps the win" or
"lost whatever is played". The table ends with each side's count of
inaccuracies, mistakes and blunders, and the result: "white wins (black
has no move)", "white wins (black resigned)" when the record's Result
names a winner before the end, or "unfinished".

The default budget is %d simulations per position (--sims, or --time per
position, or both: whichever ends first); %d positions are searched at
once through the model's batched evaluator, with the solver alongside. A
61-move 8x8 game takes about 12 seconds on two cores.

--out FILE writes the record with the analysis as each move's comment
(JSON when FILE ends in .json), an Annotator tag added; it reads back
like any record. --plot FILE writes a PNG (1000x500) of Black's win
probability after each move in percent (X: move pairs, as the table
numbers them), with the inaccuracies (circles),
mistakes (triangles) and blunders (crosses) marked. --json prints the analysis as
JSON instead of the table, moves counted by plies (1 = Black's first):
{"size":8,"board":"8x8","start":"removal","engine":"the agent","sims":..,"moves":[{"ply":1,
"player":"black","move":"d4","winrateBefore":..,"winrateAfter":..,
"loss":..,"class":"mistake","best":"e5","pv":["e5",...],"line":["d4",...],
"verdict":"throws away a forced win","candidates":[{"move":"e5","winrate":..,
"visits":..,"solved":"win"},...]},...],"result":{"over":true,"winner":"white","resigned":true}} (class, best, pv, verdict and
candidates left out when empty; candidates are the agent's best %d moves
before the move, its choice first, with the mover's win probability after
each, exact where the solver settled the position; size only on the
square boards up to 8x8).

Every board is reviewed. The agent reviews the boards of up to 8 files
and ranks it plays: without --model `+narrowAgentBoards()+`, with
--model the model's board, or every one of them with a multi-board
model file. Every other board (9x8 up to 16x16, and up to 8x8 the boards
without a network) is reviewed by
the classical engine (pvs) for --time per position (default %v, the
level table's at %s) or to --depth plies (no time limit: the same
review on any machine). Its probabilities come from its scores:
1/(1+exp(-score/%d)), 50%% at 0, rising with the score (%d is about
ten moves more than the opponent has), 1 or 0 where the search proves
the win or the loss. It lists no candidates (--json has none), the
solver column says "keeps the win" rather than "only winning move",
and since each position is searched on its own, a move the engine
chose can still lose when the next search sees further.

Example: konane analyze --plot game.png --out annotated.txt game.txt`,
			100*analysis.InaccuracyLoss, 100*analysis.MistakeLoss, 100*analysis.MistakeLoss, 100*analysis.BlunderLoss,
			100*analysis.BlunderLoss, defaultMaxStones, analysis.DefaultSims, defaultParallel, analysis.NumCandidates,
			classicalReviewTime(), agent.AdviceLevel, analysis.ScoreScale, analysis.ScoreScale),
		run: runAnalyze,
	})
}

const (
	maxReviewDepth   = 40 // --depth's bound: deeper searches take hours per position
	defaultMaxStones = 24 // solver.DefaultMaxStones, for the help text
	defaultParallel  = 8
)

// runAnalyze is "konane analyze": one game record reviewed by the agent.
func runAnalyze(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("analyze", stderr)
	sims := fs.Int("sims", 0, fmt.Sprintf("search simulations per position (default %d)", analysis.DefaultSims))
	moveTime := fs.Duration("time", 0, "search time per position, like 500ms (with --sims: whichever ends first)")
	out := fs.String("out", "", "write the record with the analysis as comments to this file (.json: JSON)")
	plot := fs.String("plot", "", "write a PNG of the win probability per ply to this file")
	asJSON := fs.Bool("json", false, "print the analysis as JSON instead of a table")
	model := fs.String("model", "", "model file to analyse with instead of the shipped one")
	depth := fs.Int("depth", 0, fmt.Sprintf("the classical engine's search depth per position, on the boards it reviews (default: %v per position)", classicalReviewTime()))
	seed := fs.Uint64("seed", 1, "seed of the searches (the same seed gives the same analysis)")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() == 0:
		return usageError("analyze", "name a game record file to analyse")
	case fs.NArg() > 1:
		return usageError("analyze", "unexpected argument %s (one record at a time)", rules.Quote(fs.Arg(1)))
	}
	if err := checkLimits("analyze", player.Limits{Sims: *sims, Time: *moveTime}); err != nil {
		return err
	}
	if *depth < 0 || *depth > maxReviewDepth {
		return usageError("analyze", "--depth %d: want 1..%d", *depth, maxReviewDepth)
	}
	if *depth != 0 && *moveTime != 0 {
		return usageError("analyze", "--depth %d and --time %v: give one (the classical engine searches to a depth or for a time)", *depth, *moveTime)
	}
	for _, f := range []struct{ flag, path string }{{"--out", *out}, {"--plot", *plot}} {
		if f.path == "" {
			continue
		}
		// Refused before the analysis rather than after it.
		if fi, err := os.Stat(filepath.Dir(f.path)); err != nil || !fi.IsDir() {
			return usageError("analyze", "%s %s: no such directory %s", f.flag, f.path, filepath.Dir(f.path))
		}
		if sameFile(f.path, fs.Arg(0)) {
			return usageError("analyze", "%s %s: that is the record read; name another file", f.flag, f.path)
		}
	}
	if *out != "" && *plot != "" && sameFile(*out, *plot) {
		return usageError("analyze", "--plot %s: --out writes that file; name another one", *plot)
	}
	rec, err := rules.ReadRecordFile(fs.Arg(0))
	if err != nil {
		return fmt.Errorf("analyze: %w", err)
	}
	b := rec.Board()
	if *model != "" && !b.Narrow() {
		return usageError("analyze", "--model %s: analyze reviews the boards above %dx%d, such as %s, with the classical engine; a model file is not used there yet, even one trained on %s: leave out --model", *model, rules.MaxSize, rules.MaxSize, b, b)
	}
	var rep *analysis.Report
	if b.Narrow() && (b.Square() || *model != "" || agent.Plays(b)) {
		if *depth != 0 {
			return usageError("analyze", "--depth %d: the network reviews %s games (give --sims or --time); --depth is for the classical engine's boards", *depth, b)
		}
		rep, err = reviewByNetwork(ctx, rec, *model, analysis.Config{Limits: player.Limits{Sims: *sims, Time: *moveTime},
			Parallel: defaultParallel, Seed: *seed}, stderr, *quiet)
	} else {
		if *sims != 0 {
			why := "no network plays them"
			if !b.Narrow() {
				why = fmt.Sprintf("analyze reviews the boards above %dx%d with it", rules.MaxSize, rules.MaxSize)
			}
			return usageError("analyze", "--sims %d: the classical engine reviews %s games (%s): give --time or --depth", *sims, b, why)
		}
		cfg := analysis.ClassicalConfig{Depth: *depth, Time: *moveTime, Seed: *seed}
		if cfg.Depth == 0 && cfg.Time == 0 {
			cfg.Time = classicalReviewTime()
		}
		rep, err = reviewClassically(ctx, rec, cfg, stderr, *quiet)
	}
	if err != nil {
		return err
	}
	if err := writeAnalysisFiles(rep, rec, *out, *plot); err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		return enc.Encode(rep.JSON())
	}
	return rep.WriteTable(stdout)
}

// reviewByNetwork reviews rec with the network of model, or the shipped
// one of its size, with progress and a summary on stderr.
func reviewByNetwork(ctx context.Context, rec *rules.Record, model string, cfg analysis.Config, stderr io.Writer, quiet bool) (*analysis.Report, error) {
	e, err := openEngineFor(model, rec.Board())
	if err != nil {
		return nil, err
	}
	if note := e.Note(); note != "" && !quiet {
		fmt.Fprintf(stderr, "note: %s\n", note)
	}
	stop := runInBackground(ctx, e.Run)
	defer stop()
	pr := newProgress("analyze", stderr, quiet)
	cfg.Progress = pr.update("positions")
	began := time.Now()
	rep, err := analysis.Game(ctx, e, rec, cfg)
	pr.finish()
	if err != nil {
		return nil, fmt.Errorf("analyze: %w", err)
	}
	if !quiet {
		st := e.Stats()
		fmt.Fprintf(stderr, "analyze: %d positions in %v (%d network runs, %.1f positions each)\n",
			len(rep.Positions), roughly(time.Since(began)), st.Batches, st.AvgBatch())
	}
	return rep, nil
}

// classicalReviewTime is the classical engine's time per position in a
// review: the level table's at agent.AdviceLevel, the least level whose
// search gives an evaluation.
func classicalReviewTime() time.Duration {
	l, err := agent.ParseLevel(agent.AdviceLevel)
	if err != nil {
		panic(err) // the table names AdviceLevel (agent's TestParseLevel)
	}
	return l.PVSTime
}

// reviewClassically reviews rec with the classical engine, with progress
// and a summary on stderr.
func reviewClassically(ctx context.Context, rec *rules.Record, cfg analysis.ClassicalConfig, stderr io.Writer, quiet bool) (*analysis.Report, error) {
	pr := newProgress("analyze", stderr, quiet)
	cfg.Progress = pr.update("positions")
	began := time.Now()
	rep, err := analysis.ClassicalGame(ctx, rec, cfg)
	pr.finish()
	if err != nil {
		return nil, fmt.Errorf("analyze: %w", err)
	}
	if !quiet {
		fmt.Fprintf(stderr, "analyze: %d positions in %v by the classical engine (no network plays %s)\n",
			len(rep.Positions), roughly(time.Since(began)), rec.Board())
	}
	return rep, nil
}

// sameFile reports whether paths a and b name one file: the same path
// once cleaned, or the same existing file (links included).
func sameFile(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// openEngineFor opens the engine of model, or the shipped one of the
// game's size, and checks that it plays the game's board: on a
// rectangle, the network of a multi-board model file.
func openEngineFor(model string, b rules.Board) (*agent.Engine, error) {
	if !b.Square() {
		e, err := agent.OpenBoardEngine(model, b)
		if err != nil {
			return nil, fmt.Errorf("analyze: %w", err)
		}
		return e, nil
	}
	size := b.W
	e, err := agent.OpenEngine(model, 0)
	if model == "" {
		e, err = agent.OpenEngine("", size)
	}
	if err != nil {
		return nil, fmt.Errorf("analyze: %w", err)
	}
	if e.Size() != size {
		return nil, fmt.Errorf("analyze: the game is %dx%d, the model plays %dx%d", size, size, e.Size(), e.Size())
	}
	return e, nil
}

// writeAnalysisFiles writes the record with the analysis as comments to
// out and the chart of the win probability to plot (each if not "").
func writeAnalysisFiles(rep *analysis.Report, rec *rules.Record, out, plot string) error {
	if out != "" {
		data, err := rep.Annotate(rec, "konane analyze").MarshalFor(out)
		if err == nil {
			err = atomicfile.WriteFile(out, data, 0o644)
		}
		if err != nil {
			return fmt.Errorf("analyze: --out: %w", err)
		}
	}
	if plot != "" {
		var buf bytes.Buffer
		err := chart.WritePNGSize(&buf, []chart.Panel{rep.Panel()}, 1, analysis.PlotWidth, analysis.PlotHeight)
		if err == nil {
			err = atomicfile.WriteFile(plot, buf.Bytes(), 0o644)
		}
		if err != nil {
			return fmt.Errorf("analyze: --plot: %w", err)
		}
	}
	return nil
}
