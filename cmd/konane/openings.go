package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/analysis"
	"github.com/konanezero/konane/models"
	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/rules"
)

func init() {
	register(&command{
		name:  "openings",
		usage: "openings [--board B] [--sims N | --time D] [--exact=false] [--json] [--model FILE] [--seed S]",
		short: "the opening removals: the agent's view of each pair, and the exact result where known",
		long: fmt.Sprintf(`Openings lists every pair of opening removals of the board (Black removes
a stone from a corner or the centre, White one next to the hole), one row
each:

    black  white  agent: black wins  exact  agent's line

"agent: black wins" is the search's probability that Black, to make the
first jump, wins; "exact" is the solver's result with perfect play, for
boards up to %dx%d (6x6 takes seconds; --exact=false skips it), else "–".
The table ends with the agent's choice of removal for Black (the one whose
worst reply leaves Black the most) and, when solved, the exact value of
the game and how often the agent's view agrees with it.

The default budget is %d simulations per opening (--sims, or --time per
opening). --json prints the rows as JSON instead: [{"black":"d4",
"white":"d3","blackWinrate":0.43,"pv":[...],"exact":"white wins"},...]
(exact left out when unknown).

On a board with the gap start (AbstractPlay's 7x6, which a multi-board
--model plays) there are no removals: the rows are Black's first jumps
(white "–", "" in JSON) and the choice is the jump the agent rates best.
A board above 8x8 (such as AbstractPlay's 9x8) needs a network trained
there: a multi-board --model file's, or a shipped one.

Example: konane openings --board 6
Example: konane openings --board 7x6 --model multi.safetensors
Example: konane openings --board 9x8 --model multi.safetensors --sims 400`, analysis.MaxExactOpenings, analysis.MaxExactOpenings, analysis.DefaultSims),
		run: runOpenings,
	})
}

// runOpenings is "konane openings".
func runOpenings(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("openings", stderr)
	board := addBoardFlag(fs, "default 8x8, or the board of --model; a network plays "+narrowBoards()+", and the boards above 8x8 it was trained on")
	sims := fs.Int("sims", 0, fmt.Sprintf("search simulations per opening (default %d)", analysis.DefaultSims))
	moveTime := fs.Duration("time", 0, "search time per opening, like 500ms (with --sims: whichever ends first)")
	exact := fs.Bool("exact", true, fmt.Sprintf("solve the openings exactly (boards up to %dx%d)", analysis.MaxExactOpenings, analysis.MaxExactOpenings))
	asJSON := fs.Bool("json", false, "print the openings as JSON instead of a table")
	model := fs.String("model", "", "model file to analyse with instead of the shipped one")
	seed := fs.Uint64("seed", 1, "seed of the searches (the same seed gives the same table)")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if err := checkLimits("openings", player.Limits{Sims: *sims, Time: *moveTime}); err != nil {
		return err
	}
	rb, given, err := board.board("openings")
	switch {
	case err != nil:
		return err
	case !given && *model == "":
		rb, given = rules.SquareBoard(rules.DefaultSize), true
	}
	if *model == "" && !models.Shipped().Plays(rb) {
		return usageError("openings", "%s: no model is shipped for this board (shipped: %s); give one with --model FILE (a multi-board model file plays rectangles too, and the boards above 8x8 it was trained on)", rb, shippedBoardsBeside(rb))
	}
	var e *agent.Engine
	if given {
		e, err = agent.OpenBoardEngine(*model, rb)
	} else {
		e, err = agent.OpenEngine(*model, 0)
	}
	if errors.Is(err, net.ErrSize) && !rb.Narrow() {
		return usageError("openings", "%s: %v", board.flagText(), err)
	}
	if err != nil {
		return fmt.Errorf("openings: %w", err)
	}
	if !given {
		rb = rules.SquareBoard(e.Size())
	}
	if note := e.Note(); note != "" {
		fmt.Fprintf(stderr, "note: %s\n", note)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	runErr := make(chan error, 1)
	go func() { runErr <- e.Run(ctx) }()
	defer func() { cancel(); <-runErr }()

	pr := newProgress("openings", stderr, *quiet)
	cfg := analysis.Config{Limits: player.Limits{Sims: *sims, Time: *moveTime}, Parallel: defaultParallel,
		Seed: *seed, Progress: pr.update("openings")}
	if !rb.Narrow() {
		ops, err := analysis.WideOpenings(ctx, e, rb, cfg)
		pr.finish()
		return writeOpenings(stdout, rb, ops, err, *asJSON)
	}
	ops, err := analysis.Openings(ctx, e, rb, cfg, *exact)
	pr.finish()
	return writeOpenings(stdout, rb, ops, err, *asJSON)
}

// writeOpenings writes the openings of board b, as JSON or a table, or
// the error of their analysis.
func writeOpenings[M interface {
	comparable
	String() string
}](stdout io.Writer, b rules.Board, ops []analysis.OpeningOf[M], err error, asJSON bool) error {
	if err != nil {
		return fmt.Errorf("openings: %w", err)
	}
	if asJSON {
		return json.NewEncoder(stdout).Encode(analysis.OpeningsAsJSON(ops))
	}
	return analysis.WriteOpenings(stdout, b, ops)
}

// shippedBoardsBeside lists the shipped boards for an error about board
// b: the board's start is written out ("7x6 (gap start)") for a shipped
// board of b's size but another start, which b.String() would not show
// when that start is its size's default.
func shippedBoardsBeside(b rules.Board) string {
	boards := models.Shipped().Boards()
	if len(boards) == 0 {
		return "none"
	}
	names := make([]string, len(boards))
	for i, s := range boards {
		names[i] = s.String()
		if s.W == b.W && s.H == b.H && s.Start != b.Start {
			names[i] = fmt.Sprintf("%dx%d (%s start)", s.W, s.H, s.Start)
		}
	}
	return strings.Join(names, ", ")
}
