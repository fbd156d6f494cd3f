package main

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"

	"golang.org/x/sync/errgroup"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/gtp"
	"github.com/konanezero/konane/rules"
)

func init() {
	register(&command{
		name:  "gtp",
		usage: "gtp [--board B] [--level L] [--sims N] [--time D] [--model FILE] [--seed S]",
		short: "run the agent as a Go Text Protocol engine on stdin/stdout",
		long: `Gtp runs the agent as a Go Text Protocol (version 2) engine: it reads
commands on standard input and answers on standard output, so that match
runners, graphical boards and scripts can drive it.

Commands: protocol_version, name, version, known_command, list_commands,
boardsize, clear_board, play, genmove, undo, showboard, quit, and

    konane-legal_moves   the legal moves of the side to move
    konane-solve         "black wins: MOVE..." (every winning move) or
                         "black loses", by the exact solver; 4x4 and 5x5
                         always, larger boards from 24 stones down
    konane-eval          the side to move, its win probability and the
                         principal line: "white 0.430 c5-c3 d6-d4"

Colours are black/b and white/w; moves are in the project's notation (d4
for a removal, f4-d4 for a jump). Kōnane has strict turns and no passes:
play and genmove fail for the side not to move, and genmove fails with
"no legal move: black has lost" once the side to move has no move. Errors
are failure answers ("? message"); only quit or the end of the input
ends the session.

boardsize N takes every board N×N of ` + fmt.Sprint(rules.MinSide) + ` to ` + fmt.Sprint(rules.MaxSide) + `, and KataGo's
rectangular_boardsize W H every W×H (with its default start: the gap
where it is defined, as AbstractPlay's ` + andList(apBoards(func(b rules.Board) bool { return b.Start == rules.Gap })) + `). The
computer plays ` + agentBoards() + ` (the exact solver on the small ones, a
shipped network on the others) with its search; on every other board it
plays the classical engine (pvs) for the time of --level per move
(` + classicalLevels() + `) or --time, and konane-eval answers that it
gives no win probability there. With --model FILE it plays the model's
size only, or with a multi-board model file ` + multiFileBoards() + ` (a note on standard error says when its
network was not trained on the --board given).

Example: printf 'boardsize 6\ngenmove b\nshowboard\nquit\n' | konane gtp --level easy`,
		run: runGtp,
	})
}

// runGtp is "konane gtp": the GTP engine on stdin and stdout until quit or
// the end of the input.
func runGtp(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("gtp", stderr)
	board := addBoardFlag(fs, "at the start; default 8x8, or the board of --model")
	var af agentFlags
	af.declare(fs)
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	rb, given, err := board.board("gtp")
	if err != nil {
		return err
	}
	var size int
	if given && rb.Square() && rb.Narrow() {
		size, rb = rb.W, rules.Board{}
	}
	pvsTime := af.time // the classical engine's, on the boards without a model
	switch {
	case af.model != "":
		pvsTime = 0 // the model's board only
	case !explicit(fs)["time"]:
		l, err := agent.ParseLevel(af.level)
		if err != nil {
			return fmt.Errorf("gtp: %w", err)
		}
		pvsTime = l.PVSTime
	}
	strength, err := af.strength("gtp", fs)
	if err != nil {
		return err
	}
	engines, err := agent.OpenEngines(af.model)
	if err != nil {
		return fmt.Errorf("gtp: %w", err)
	}
	engine, err := gtp.New(gtp.Config{Engines: engines, Limits: strength, Seed: af.seed, Size: size, Board: rb, PVSTime: pvsTime, Version: buildVersion()})
	if err != nil {
		return err
	}
	if given && af.model != "" {
		start := rb
		if start == (rules.Board{}) {
			start = rules.SquareBoard(size)
		}
		if e, err := engines.GetBoard(start); err == nil && e.NoteOn(start) != "" {
			fmt.Fprintf(stderr, "note: %s\n", e.NoteOn(start)) // stdout is the protocol's
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error { return engines.Run(gctx) })
	g.Go(func() error {
		defer cancel() // quit or the end of the input stops the evaluators
		return engine.Serve(gctx, stdin, stdout)
	})
	return g.Wait()
}

// buildVersion is the module version the binary was built from ("devel"
// for a build from a work tree).
func buildVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}
