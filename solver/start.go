package solver

import (
	"context"
	"fmt"

	"github.com/konanezero/konane/rules"
)

// OpeningResult is the solved value of one pair of opening removals.
type OpeningResult struct {
	rules.Opening
	BlackWins bool // Black, to make the first jump, wins with perfect play
}

// Start is the solution of a whole game from its start.
type Start struct {
	Size      int             // the board size N of SolveStart; 0 from SolveBoard
	Board     rules.Board     // the board solved
	Openings  []OpeningResult // in rules.Openings order; none on a gap board
	BlackWins bool            // Black has a removal after which every White removal loses; on a gap board, Black (to jump first) wins
}

// SolveStart solves every opening of a size×size board, in rules.Openings
// order (Black's squares, then White's), and from them the value of the
// game: Black wins when one of its removals wins against every reply.
// report, when not nil, is called with each result as soon as it is known.
func (s *Solver) SolveStart(ctx context.Context, size int, report func(OpeningResult)) (Start, error) {
	if size < rules.MinSize || size > rules.MaxSize {
		return Start{}, fmt.Errorf("solver: board size %d outside %d..%d", size, rules.MinSize, rules.MaxSize)
	}
	res, err := s.SolveBoard(ctx, rules.SquareBoard(size), report)
	if err != nil {
		return Start{}, err
	}
	res.Size = size
	return res, nil
}

// SolveBoard solves the start of a board the solver holds (at most
// rules.MaxSize files and ranks, Board.Narrow): on a board with the
// removals every opening, in rules.OpeningsFrom order, and the value of the
// game as SolveStart; on a gap board the start itself, Black to jump
// first. report, when not nil, is called with each opening's result as soon
// as it is known.
func (s *Solver) SolveBoard(ctx context.Context, b rules.Board, report func(OpeningResult)) (Start, error) {
	start, err := b.Position()
	if err != nil {
		return Start{}, fmt.Errorf("solver: %w", err)
	}
	res := Start{Board: b}
	if b.Start == rules.Gap {
		win, err := s.Solve(ctx, start)
		if err != nil {
			return Start{}, err
		}
		res.BlackWins = win
		return res, nil
	}
	for _, o := range rules.OpeningsFrom(start) {
		win, err := s.Solve(ctx, o.Position)
		if err != nil {
			return Start{}, err
		}
		r := OpeningResult{Opening: o, BlackWins: win}
		res.Openings = append(res.Openings, r)
		if report != nil {
			report(r)
		}
	}
	res.BlackWins = blackWins(res.Openings)
	return res, nil
}

// blackWins reports whether some Black removal wins against every White
// reply, given the results of all openings.
func blackWins(openings []OpeningResult) bool {
	wins := map[rules.Move]bool{} // Black's removal → no White reply refutes it so far
	for _, o := range openings {
		w, seen := wins[o.Black]
		wins[o.Black] = o.BlackWins && (w || !seen)
	}
	for _, w := range wins {
		if w {
			return true
		}
	}
	return false
}

// WinningRemovals returns Black's removals that win against every White
// reply, given the results of all openings, in their order.
func WinningRemovals(openings []OpeningResult) []rules.Move {
	wins := map[rules.Move]bool{}
	var order []rules.Move
	for _, o := range openings {
		w, seen := wins[o.Black]
		if !seen {
			order = append(order, o.Black)
		}
		wins[o.Black] = o.BlackWins && (w || !seen)
	}
	var out []rules.Move
	for _, b := range order {
		if wins[b] {
			out = append(out, b)
		}
	}
	return out
}
