package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
	"unicode"

	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/solver"
)

func init() {
	register(&command{
		name:  "solve",
		usage: "solve --board B [--position RECORD_OR_MOVES] [--stats]",
		short: "solve the game or a position exactly (who wins with perfect play)",
		long: `Solve finds the winner with perfect play from both sides.

Without --position it solves the start of a game: one line per pair of
opening removals, in the order Black's squares then White's,

    BLACKSQ WHITESQ: black wins

naming the winner of the game that follows (Black to make the first jump),
and last the value of the whole game, Black choosing its removal and White
replying:

    value: black wins

With --position it solves the position reached by a list of moves played
from the start (separated by spaces or commas), or the final position of a
game record file (a value that exists on disk or holds '.' or '/' is taken
as a file, and a missing one is an error). It prints who is to move and who
wins, then every legal move and whether it wins for the player who makes it.

On a gap board there are no removals and the start is solved at once
("start: black wins", then the value). A rectangle or a gap board takes a
list of moves, not a game record.

` + boardsParagraph("The solver holds "+narrowBoards()+".") + `

--board is required, except with a game record, whose board is used.
Sizes 4 and 5 take milliseconds, 6 a few seconds; on 7 and 8 only
positions late in the game are within reach.

Example: konane solve --board 5
    a1 b1: black wins
    a1 a2: black wins
    ...
    e5 d5: black wins
    value: black wins

Example: konane solve --board 4 --position "a1 a2 c1-a1"
    white to move: white wins
    b3-b1: loses
    a4-a2: wins
    c2-a2: wins`,
		run: runSolve,
	})
}

// runSolve is "konane solve": the start of a board or one position, solved.
func runSolve(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("solve", stderr)
	board := addBoardFlag(fs, "required unless --position is a game record")
	position := fs.String("position", "", "moves from the start (\"d4 e4 f4-d4\") or a game record file; empty = solve the start")
	stats := fs.Bool("stats", false, "print the time and the number of positions searched to stderr")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	rb, sizeSet, err := board.board("solve")
	if err != nil {
		return err
	}
	if sizeSet && !rb.Narrow() {
		return usageError("solve", "%s: the solver holds boards of at most %dx%d: %s", board.flagText(), rules.MaxSize, rules.MaxSize, narrowBoards())
	}
	if sizeSet && (!rb.Square() || rb.Start != rules.Removal) {
		return solveBoard(ctx, rb, *position, *stats, stdout, stderr)
	}
	size := rb.W
	record, err := positionFile(*position)
	if err != nil {
		return err
	}
	if !sizeSet && !record {
		return usageError("solve", "--board is required (%s)", narrowBoards())
	}
	s := solver.New()
	began := time.Now()
	if *position == "" {
		if err := solveStart(ctx, s, size, stdout); err != nil {
			return fmt.Errorf("solve: %w", err)
		}
	} else {
		p, err := parsePosition(size, sizeSet, *position, record)
		if err != nil {
			return err
		}
		if err := solvePosition(ctx, s, p, stdout); err != nil {
			return fmt.Errorf("solve: %w", err)
		}
	}
	if *stats {
		st := s.Stats()
		el := time.Since(began)
		fmt.Fprintf(stderr, "time %.2fs, %d nodes (%.0f nodes/s), %d table hits\n",
			el.Seconds(), st.Nodes, float64(st.Nodes)/el.Seconds(), st.Hits)
	}
	return nil
}

// solveBoard is "konane solve --board": the start, or a list of moves
// from it, solved on any board the solver holds.
func solveBoard(ctx context.Context, b rules.Board, position string, stats bool, stdout, stderr io.Writer) error {
	p, err := b.Position()
	if err != nil {
		return fmt.Errorf("solve: --board: %w", err)
	}
	s := solver.New()
	began := time.Now()
	if position == "" {
		res, err := s.SolveBoard(ctx, b, func(r solver.OpeningResult) {
			fmt.Fprintf(stdout, "%s %s: %s\n", r.Black, r.White, winner(r.BlackWins))
		})
		if err != nil {
			return fmt.Errorf("solve: %w", err)
		}
		if b.Start == rules.Gap {
			fmt.Fprintf(stdout, "start: %s\n", winner(res.BlackWins))
		}
		fmt.Fprintf(stdout, "value: %s\n", winner(res.BlackWins))
	} else {
		if strings.ContainsAny(position, `./\`) {
			return usageError("solve", "--board %s takes a list of moves, not a game record file (records give their own board)", b)
		}
		if p, err = playMoves(p, position); err != nil {
			return err
		}
		if err := solvePosition(ctx, s, p, stdout); err != nil {
			return fmt.Errorf("solve: %w", err)
		}
	}
	if stats {
		st := s.Stats()
		el := time.Since(began)
		fmt.Fprintf(stderr, "time %.2fs, %d nodes (%.0f nodes/s), %d table hits\n",
			el.Seconds(), st.Nodes, float64(st.Nodes)/el.Seconds(), st.Hits)
	}
	return nil
}

func winner(blackWins bool) string {
	if blackWins {
		return "black wins"
	}
	return "white wins"
}

func solveStart(ctx context.Context, s *solver.Solver, size int, w io.Writer) error {
	start, err := s.SolveStart(ctx, size, func(r solver.OpeningResult) {
		fmt.Fprintf(w, "%s %s: %s\n", r.Black, r.White, winner(r.BlackWins))
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "value: %s\n", winner(start.BlackWins))
	return nil
}

func solvePosition(ctx context.Context, s *solver.Solver, p rules.Position, w io.Writer) error {
	results, err := s.Analyze(ctx, p)
	if err != nil {
		return err
	}
	moverWins := false
	for _, r := range results {
		moverWins = moverWins || r.Wins
	}
	blackWins := moverWins == (p.Turn == rules.Black)
	fmt.Fprintf(w, "%s to move: %s\n", p.Turn, winner(blackWins))
	for _, r := range results {
		verdict := "loses"
		if r.Wins {
			verdict = "wins"
		}
		fmt.Fprintf(w, "%s: %s\n", r.Move, verdict)
	}
	return nil
}

// positionFile tells whether --position names a game record file: text
// that exists on disk, or holds '.', '/' or '\\' (which no move does).
// Such a path must be a readable regular file; the error names it.
func positionFile(text string) (bool, error) {
	if text == "" {
		return false, nil
	}
	fi, err := os.Stat(text)
	if err != nil && !strings.ContainsAny(text, `./\`) {
		return false, nil // a list of moves
	}
	switch {
	case errors.Is(err, os.ErrNotExist):
		return true, usageError("solve", "--position %s: no such file", text)
	case err != nil:
		return true, usageError("solve", "--position: %v", err)
	case fi.IsDir():
		return true, usageError("solve", "--position %s is a directory, not a game record file", text)
	case !fi.Mode().IsRegular():
		return true, usageError("solve", "--position %s is not a regular file", text)
	}
	return true, nil
}

// parsePosition reads --position: a game record file when record (of the
// given size, when sizeSet), else a list of moves from the start of a
// size×size board.
func parsePosition(size int, sizeSet bool, text string, record bool) (rules.Position, error) {
	if record {
		r, err := rules.ReadRecordFile(text)
		if err != nil {
			return rules.Position{}, usageError("solve", "--position: %v", err)
		}
		if b := r.Board(); sizeSet && b != rules.SquareBoard(size) {
			return rules.Position{}, usageError("solve", "--position %s: the game is %dx%d, not %dx%d as --board says", text, b.W, b.H, size, size)
		} else if !b.Narrow() {
			return rules.Position{}, usageError("solve", "--position %s: the game is on %dx%d; the solver holds boards of at most %dx%d", text, b.W, b.H, rules.MaxSize, rules.MaxSize)
		}
		p, err := r.Final()
		if err != nil {
			return rules.Position{}, usageError("solve", "--position: %v", err)
		}
		return p, nil
	}
	return playMoves(rules.NewPosition(size), text)
}

// playMoves plays a list of moves (separated by spaces or commas) from p.
func playMoves(p rules.Position, text string) (rules.Position, error) {
	fields := strings.FieldsFunc(text, func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
	if len(fields) == 0 {
		return p, usageError("solve", "--position %q: no moves", text)
	}
	for i, f := range fields {
		if !p.HasMoves() {
			return p, usageError("solve", "--position: move %d %q: the game is over, %s has no move", i+1, f, p.Turn)
		}
		m, err := rules.ParseMove(p, f)
		if err != nil {
			return p, usageError("solve", "--position: move %d: %v", i+1, err)
		}
		p = p.Play(m)
	}
	return p, nil
}
