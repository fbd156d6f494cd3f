package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/konanezero/konane/rules"
)

func init() {
	register(&command{
		name:  "perft",
		usage: "perft [--board B] --depth D",
		short: "count move sequences from every opening (verifies the rules)",
		long: `Perft counts the move sequences of each length. On a board that starts
with the removals it counts from the position after every legal pair of
opening removals, in the order Black's squares then White's, and prints one
line per opening,

    BLACKSQ WHITESQ: n1 n2 ... nD

where ni is the number of move sequences of length i (each jump length is a
separate move; a game that ends earlier contributes 0), and last

    total: t1 ... tD

On a board with the gap start (two centre stones already gone) it counts
from the start and prints the total line only.

` + boardsParagraph("") + `

Example: konane perft --board 8 --depth 7
    total: 28 172 892 7124 52044 508088 4633660`,
		run: runPerft,
	})
}

// runPerft is "konane perft": move sequences counted from every opening.
func runPerft(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("perft", stderr)
	boardFlag := addBoardFlag(fs, "default 8x8")
	depth := fs.Int("depth", 0, "number of plies after the two removals (≥1)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	board, _, err := boardFlag.board("perft")
	if err != nil {
		return err
	}
	if !boardFlag.Given() {
		board = rules.SquareBoard(rules.DefaultSize)
	}
	if *depth < 1 || *depth > 40 {
		return usageError("perft", "--depth %d: want 1..40", *depth)
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	if board.Narrow() {
		return perftNarrow(ctx, board, *depth, stdout)
	}
	return perftWide(ctx, board, *depth, stdout)
}

// perftNarrow counts on a board of at most 8x8 (Position).
func perftNarrow(ctx context.Context, board rules.Board, depth int, stdout io.Writer) error {
	start, err := board.Position()
	if err != nil {
		return err
	}
	var lines []perftLine[rules.Position]
	for _, o := range rules.OpeningsFrom(start) {
		lines = append(lines, perftLine[rules.Position]{o.Black.String() + " " + o.White.String(), o.Position})
	}
	count := func(p rules.Position, c []uint64) error { return rules.PerftContext(ctx, p, c) }
	return perftBoard(stdout, depth, board.Start == rules.Gap, start, lines, count)
}

// perftWide counts on a board of more than 8 files or ranks (WidePosition).
func perftWide(ctx context.Context, board rules.Board, depth int, stdout io.Writer) error {
	start, err := board.WidePosition()
	if err != nil {
		return err
	}
	var lines []perftLine[rules.WidePosition]
	for _, o := range rules.WideOpenings(start) {
		lines = append(lines, perftLine[rules.WidePosition]{o.Black.String() + " " + o.White.String(), o.Position})
	}
	count := func(p rules.WidePosition, c []uint64) error { return rules.WidePerftContext(ctx, p, c) }
	return perftBoard(stdout, depth, board.Start == rules.Gap, start, lines, count)
}

// perftLine is one opening of a removal board: its two removals and the
// position after them.
type perftLine[P any] struct {
	removals string
	pos      P
}

// perftBoard writes perft's report: a line per opening (on removal
// boards) and the total, counted from start itself on a gap board.
func perftBoard[P any](stdout io.Writer, depth int, gap bool, start P, lines []perftLine[P], count func(P, []uint64) error) error {
	total := make([]uint64, depth)
	if gap {
		if err := count(start, total); err != nil {
			return err
		}
	}
	for _, l := range lines {
		counts := make([]uint64, depth)
		if err := count(l.pos, counts); err != nil {
			return err
		}
		for i, c := range counts {
			total[i] += c
		}
		fmt.Fprintf(stdout, "%s: %s\n", l.removals, joinCounts(counts))
	}
	fmt.Fprintf(stdout, "total: %s\n", joinCounts(total))
	return nil
}

func joinCounts(c []uint64) string {
	s := make([]string, len(c))
	for i, v := range c {
		s[i] = fmt.Sprint(v)
	}
	return strings.Join(s, " ")
}
