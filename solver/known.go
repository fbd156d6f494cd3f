package solver

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"

	"github.com/konanezero/konane/rules"
)

// knownText is the exact value of every opening of the square boards
// whose start the solver settles in seconds (KnownSizes), one line per
// opening, "6x6 d4 d3 white": the board, Black's removal, White's, and
// the side that wins with perfect play, Black to make the first jump.
// Written by `go test ./solver -run TestKnownStarts -update` (SolveStart)
// and checked against the solver by the same test without -update
// (not with -short).
//
//go:embed known.txt
var knownText string

// KnownSizes are the sizes of the square boards of known.txt. 7x7 is
// not among them: its openings are beyond the solver's reach in minutes
// (docs/results/2026-12-07-levels-boards.md).
var KnownSizes = []int{4, 5, 6}

// known is known.txt read: the solution of the start of each size of
// KnownSizes.
var known = sync.OnceValues(func() (map[int]Start, error) { return parseKnown(knownText) })

// KnownStart returns the solution of the start of the size×size board
// with the removal start, as SolveStart gives it, without solving: from
// the table that ships with the program (KnownSizes); ok is false for
// another size.
func KnownStart(size int) (start Start, ok bool) {
	m, err := known()
	if err != nil {
		panic(err) // known.txt ships with the program: TestKnownText reads it
	}
	start, ok = m[size]
	return start, ok
}

// KnownWinner returns the side ("black" or "white") that wins with
// perfect play a game of the size×size board with the removal start
// whose moves so far are moves (at most the two removals, as text), by
// the known table: before any move the game's winner, after Black's
// removal the winner against White's best reply, after both that
// opening's. ok is false when the table does not know the board or the
// moves are not the start of a game there.
func KnownWinner(size int, moves []string) (winner string, ok bool) {
	start, found := KnownStart(size)
	if !found || len(moves) > 2 {
		return "", false
	}
	side := func(blackWins bool) string {
		if blackWins {
			return rules.Black.String()
		}
		return rules.White.String()
	}
	switch len(moves) {
	case 0:
		return side(start.BlackWins), true
	case 1:
		seen := false
		for _, o := range start.Openings {
			if o.Black.String() == moves[0] {
				seen = true
				if !o.BlackWins {
					return side(false), true // White has a winning reply
				}
			}
		}
		return side(true), seen
	}
	for _, o := range start.Openings {
		if o.Black.String() == moves[0] && o.White.String() == moves[1] {
			return side(o.BlackWins), true
		}
	}
	return "", false
}

// parseKnown reads the table of known.txt: every opening of each size
// of KnownSizes exactly once, and nothing else.
func parseKnown(text string) (map[int]Start, error) {
	wins := map[int]map[string]bool{} // size → "black white" → Black wins
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 4 {
			return nil, fmt.Errorf("solver: known.txt line %d: %q: want board, Black's removal, White's and the winner", i+1, line)
		}
		var size int
		if _, err := fmt.Sscanf(f[0], "%dx%d", &size, new(int)); err != nil || f[0] != fmt.Sprintf("%dx%d", size, size) {
			return nil, fmt.Errorf("solver: known.txt line %d: board %q: want NxN", i+1, f[0])
		}
		if f[3] != rules.Black.String() && f[3] != rules.White.String() {
			return nil, fmt.Errorf("solver: known.txt line %d: winner %q: want black or white", i+1, f[3])
		}
		if wins[size] == nil {
			wins[size] = map[string]bool{}
		}
		key := f[1] + " " + f[2]
		if _, dup := wins[size][key]; dup {
			return nil, fmt.Errorf("solver: known.txt line %d: opening %s of %s given twice", i+1, key, f[0])
		}
		wins[size][key] = f[3] == rules.Black.String()
	}
	out := map[int]Start{}
	for _, size := range KnownSizes {
		w := wins[size]
		delete(wins, size)
		start := Start{Size: size, Board: rules.SquareBoard(size)}
		for _, o := range rules.Openings(size) {
			key := o.Black.String() + " " + o.White.String()
			b, ok := w[key]
			if !ok {
				return nil, fmt.Errorf("solver: known.txt has no opening %s of %dx%d", key, size, size)
			}
			delete(w, key)
			start.Openings = append(start.Openings, OpeningResult{Opening: o, BlackWins: b})
		}
		for key := range w {
			return nil, fmt.Errorf("solver: known.txt: %s is no opening of %dx%d", key, size, size)
		}
		start.BlackWins = blackWins(start.Openings)
		out[size] = start
	}
	for size := range wins {
		return nil, fmt.Errorf("solver: known.txt: %dx%d is not among KnownSizes %v", size, size, KnownSizes)
	}
	return out, nil
}

// FormatKnown writes the table of known.txt from solved starts, in the
// order given and each in rules.Openings order.
func FormatKnown(starts []Start) string {
	var b strings.Builder
	b.WriteString("# The exact value of every opening of these boards: board, Black's removal,\n" +
		"# White's, and the side that wins with perfect play (Black jumps first).\n" +
		"# Written by go test ./solver -run TestKnownStarts -update; see known.go.\n")
	for _, s := range starts {
		for _, o := range s.Openings {
			winner := rules.White.String()
			if o.BlackWins {
				winner = rules.Black.String()
			}
			fmt.Fprintf(&b, "%dx%d %v %v %s\n", s.Size, s.Size, o.Black, o.White, winner)
		}
	}
	return b.String()
}
