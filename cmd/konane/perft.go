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
		usage: "perft [--size N] --depth D",
		short: "count move sequences from every opening (verifies the rules)",
		long: `Perft counts the move sequences of each length from the position after
every legal pair of opening removals, in the order Black's squares then
White's. It prints one line per opening,

    BLACKSQ WHITESQ: n1 n2 ... nD

where ni is the number of move sequences of length i (each jump length is a
separate move; a game that ends earlier contributes 0), and last

    total: t1 ... tD

Example: konane perft --size 8 --depth 7
    total: 28 172 892 7124 52044 508088 4633660`,
		run: runPerft,
	})
}

// runPerft is "konane perft": move sequences counted from every opening.
func runPerft(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("perft", stderr)
	board := addBoardFlag(fs, fmt.Sprintf("default %d", rules.DefaultSize))
	depth := fs.Int("depth", 0, "number of plies after the two removals (≥1)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	size, err := board.get("perft")
	if size == 0 {
		size = rules.DefaultSize
	}
	if err != nil {
		return err
	}
	if *depth < 1 || *depth > 40 {
		return usageError("perft", "--depth %d: want 1..40", *depth)
	}
	if fs.NArg() > 0 {
		return usageError("perft", "unexpected argument %q", fs.Arg(0))
	}
	total := make([]uint64, *depth)
	for _, o := range rules.Openings(size) {
		counts := make([]uint64, *depth)
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

func joinCounts(c []uint64) string {
	s := make([]string, len(c))
	for i, v := range c {
		s[i] = fmt.Sprint(v)
	}
	return strings.Join(s, " ")
}
