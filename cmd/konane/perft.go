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
		usage: "perft [--size N | --board B] --depth D",
		short: "count move sequences from every opening (verifies the rules)",
		long: `Perft counts the move sequences of each length. On a board that starts
with the removals it counts from the position after every legal pair of
opening removals, in the order Black's squares then White's, and prints one
line per opening,

    BLACKSQ WHITESQ: n1 n2 ... nD

where ni is the number of move sequences of length i (each jump length is a
separate move; a game that ends earlier contributes 0), and last

    total: t1 ... tD

On a board with the gap start (two centre stones already gone, as
AbstractPlay's 7x6, 9x8, 11x8 and 15x12) it counts from the start and prints
the total line only.

--board takes any board from 4x4 to 16x16: N, WxH, or AbstractPlay's
variant ids (default, size-7, size-8, size-9, size-11, size-15), with
/removal or /gap to choose the start (default: gap where it is defined,
that is when exactly one of W and H is odd; the removals elsewhere).

Example: konane perft --size 8 --depth 7
    total: 28 172 892 7124 52044 508088 4633660`,
		run: runPerft,
	})
}

// runPerft is "konane perft": move sequences counted from every opening.
func runPerft(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("perft", stderr)
	sizeFlag := addBoardFlag(fs, fmt.Sprintf("default %d", rules.DefaultSize))
	boardText := fs.String("board", "", "board: N, WxH (4..16 each) or an AbstractPlay variant, optionally /removal or /gap (instead of --size)")
	depth := fs.Int("depth", 0, "number of plies after the two removals (≥1)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	size, err := sizeFlag.getOr("perft", rules.DefaultSize)
	if err != nil {
		return err
	}
	board := rules.SquareBoard(size)
	if set := explicit(fs); set["board"] {
		if sizeFlag.Given() {
			return usageError("perft", "give --size or --board, not both")
		}
		b, err := rules.ParseBoard(*boardText)
		if err != nil {
			return fmt.Errorf("perft: --board: %w", err)
		}
		board = b
	}
	if *depth < 1 || *depth > 40 {
		return usageError("perft", "--depth %d: want 1..40", *depth)
	}
	if fs.NArg() > 0 {
		return usageError("perft", "unexpected argument %q", fs.Arg(0))
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
	total := make([]uint64, depth)
	if board.Start == rules.Gap {
		if err := rules.PerftContext(ctx, start, total); err != nil {
			return err
		}
	}
	for _, o := range rules.OpeningsFrom(start) {
		counts := make([]uint64, depth)
		if err := rules.PerftContext(ctx, o.Position, counts); err != nil {
			return err
		}
		for i, c := range counts {
			total[i] += c
		}
		fmt.Fprintf(stdout, "%s %s: %s\n", o.Black, o.White, joinCounts(counts))
	}
	fmt.Fprintf(stdout, "total: %s\n", joinCounts(total))
	return nil
}

// perftWide counts on a board of more than 8 files or ranks (WidePosition).
func perftWide(ctx context.Context, board rules.Board, depth int, stdout io.Writer) error {
	start, err := board.WidePosition()
	if err != nil {
		return err
	}
	total := make([]uint64, depth)
	if board.Start == rules.Gap {
		if err := rules.WidePerftContext(ctx, start, total); err != nil {
			return err
		}
	}
	for _, o := range rules.WideOpenings(start) {
		counts := make([]uint64, depth)
		if err := rules.WidePerftContext(ctx, o.Position, counts); err != nil {
			return err
		}
		for i, c := range counts {
			total[i] += c
		}
		fmt.Fprintf(stdout, "%s %s: %s\n", o.Black, o.White, joinCounts(counts))
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
