package solver

import (
	"context"
	"fmt"
	"math/bits"

	"github.com/konanezero/konane/rules"
)

// DefaultTableEntries is the transposition table size of New without
// options: 4Mi, which makes 3Mi entries in 64 MiB.
const DefaultTableEntries = 1 << 22

// checkEvery is how many nodes the search visits between two looks at the
// context (a power of two).
const checkEvery = 1 << 12

// Solver solves Kōnane positions exactly. Its transposition table lives as
// long as the Solver and is reused by every call, so solving many related
// positions with one Solver is much faster than with a fresh one each time.
//
// A Solver is not safe for concurrent use: use one per goroutine.
type Solver struct {
	tableEntries int
	tt           *table // allocated on first use
	plies        []*ply // scratch space per search depth
	stats        Stats

	ctx     context.Context
	aborted bool   // the context ended, or the node limit was reached, during the current search
	limit   uint64 // the search gives up when Stats.Nodes reaches it (0 = no limit)
}

// Stats counts the work of a Solver since New or the last ResetStats.
type Stats struct {
	Nodes  uint64 // positions searched
	Hits   uint64 // positions answered by the transposition table
	Stores uint64 // results written to the transposition table
}

// Option configures New.
type Option func(*Solver)

// WithTableEntries bounds the number of transposition table entries. The
// table holds 3 entries per 64-byte bucket and a power of two of buckets:
// the most that fit in n, at least one bucket. More entries let larger
// positions be solved with fewer repeated searches; 1<<16 (a 1 MiB table)
// is plenty for 4x4 and 5x5.
func WithTableEntries(n int) Option {
	return func(s *Solver) { s.tableEntries = n }
}

// New returns a Solver. Its table is allocated on the first solve.
func New(opts ...Option) *Solver {
	s := &Solver{tableEntries: DefaultTableEntries}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Stats returns the counters of the work done so far.
func (s *Solver) Stats() Stats { return s.stats }

// ResetStats sets the counters to zero (the table is kept).
func (s *Solver) ResetStats() { s.stats = Stats{} }

// Clear forgets every solved position.
func (s *Solver) Clear() {
	if s.tt != nil {
		s.tt.clear()
	}
}

// Solve reports whether the side to move in p wins with perfect play from
// both sides. It returns an error when p is not a valid position or when
// ctx ends first.
func (s *Solver) Solve(ctx context.Context, p rules.Position) (bool, error) {
	if err := s.begin(ctx, p); err != nil {
		return false, err
	}
	win := s.win(p, 0)
	return win, s.end()
}

// DefaultMaxStones is the largest number of stones of a position on a
// board above 5x5 that Solvable accepts by default: such positions take
// the solver well under a second (4x4 and 5x5 are solved from the start
// in milliseconds).
const DefaultMaxStones = 24

// Solvable reports whether p is small enough to solve at once: any
// position of a board of at most 25 squares (4x4, 5x5, 4x5, 5x4, 4x6 has
// 24), and on larger boards one with at most maxStones stones. It is the one test of the perfect player and the GTP engine's
// konane-solve.
func Solvable(p rules.Position, maxStones int) bool {
	return p.Width()*p.Height() <= 25 || bits.OnesCount64(p.Black|p.White) <= maxStones
}

// MoveResult is the outcome of one legal move.
type MoveResult struct {
	Move rules.Move
	Wins bool // the player who makes the move wins with perfect play after it
}

// WinningMoves returns the moves of results that win, in their order.
func WinningMoves(results []MoveResult) []rules.Move {
	var wins []rules.Move
	for _, r := range results {
		if r.Wins {
			wins = append(wins, r.Move)
		}
	}
	return wins
}

// Analyze solves every legal move of p, in rules.Position.LegalMoves order.
// The side to move in p wins exactly when some move Wins; a position
// without legal moves (lost for the side to move) gives an empty slice.
func (s *Solver) Analyze(ctx context.Context, p rules.Position) ([]MoveResult, error) {
	if err := s.begin(ctx, p); err != nil {
		return nil, err
	}
	var out []MoveResult
	for _, m := range p.LegalMoves(nil) {
		wins := !s.win(p.Play(m), 1)
		if s.aborted {
			break
		}
		out = append(out, MoveResult{Move: m, Wins: wins})
	}
	if err := s.end(); err != nil {
		return nil, err
	}
	return out, nil
}

// WinningMove returns a move that wins for the side to move in p and true,
// or rules.NoMove and false when every move loses (or there is none). It
// stops at the first winning move, so it is cheaper than Analyze.
func (s *Solver) WinningMove(ctx context.Context, p rules.Position) (rules.Move, bool, error) {
	if err := s.begin(ctx, p); err != nil {
		return rules.NoMove, false, err
	}
	best := rules.NoMove
	for _, m := range p.LegalMoves(nil) {
		opponentWins := s.win(p.Play(m), 1)
		if s.aborted {
			break
		}
		if !opponentWins {
			best = m
			break
		}
	}
	if err := s.end(); err != nil {
		return rules.NoMove, false, err
	}
	return best, best != rules.NoMove, nil
}

// begin checks p and prepares a search under ctx.
func (s *Solver) begin(ctx context.Context, p rules.Position) error {
	if err := p.Validate(); err != nil {
		return fmt.Errorf("solver: %w", err)
	}
	switch empty := bits.OnesCount64(p.Empty()); {
	case empty == 0 && p.Turn != rules.Black:
		return fmt.Errorf("solver: a full board must have black to move (black removes first)")
	case empty == 1 && p.Turn != rules.White:
		return fmt.Errorf("solver: a board with one empty square must have white to move (white's removal)")
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("solver: %w", err)
	}
	if s.tt == nil {
		s.tt = newTable(s.tableEntries)
	}
	s.ctx, s.aborted, s.limit = ctx, false, 0
	return nil
}

// end finishes a search and reports its cancellation.
func (s *Solver) end() error {
	ctx := s.ctx
	s.ctx = nil
	if s.aborted {
		return fmt.Errorf("solver: %w", ctx.Err())
	}
	return nil
}

// Proof is the outcome of Prove.
type Proof struct {
	// Known reports whether the search finished within its node budget;
	// Win and Move mean nothing otherwise.
	Known bool
	// Win reports whether the side to move wins with perfect play.
	Win bool
	// Move is a winning move when Win (rules.NoMove otherwise).
	Move rules.Move
	// Nodes is the number of positions the search visited.
	Nodes uint64
}

// Prove solves p within a budget of maxNodes searched positions (0 = no
// budget) and, when p is won, finds a winning move. A search that runs
// out of budget gives Known false and stores nothing wrong: the results
// it completed stay in the table, so a later, larger budget goes on from
// there. Prove is deterministic: the same sequence of calls on one Solver
// gives the same answers. p must be a valid position of the jumping
// phase or later (Prove's callers are searches inside a game).
func (s *Solver) Prove(p rules.Position, maxNodes uint64) (Proof, error) {
	if err := s.begin(context.Background(), p); err != nil {
		return Proof{}, err
	}
	start := s.stats.Nodes
	if maxNodes > 0 {
		s.limit = start + maxNodes
	}
	win := s.win(p, 0)
	pr := Proof{Known: !s.aborted, Win: win && !s.aborted, Move: rules.NoMove}
	if pr.Win {
		pr.Move = s.winningMove(p)
	}
	pr.Nodes = s.stats.Nodes - start
	s.ctx, s.limit = nil, 0
	if pr.Win && pr.Move == rules.NoMove {
		// The table lost the proof of every winning child (a collision
		// replaced it) and the budget ran out finding it again.
		pr = Proof{Nodes: pr.Nodes, Move: rules.NoMove}
	}
	return pr, nil
}

// winningMove returns a move of p, just proved won, that wins: one that
// leaves the opponent without a move, or one whose position the table
// knows as lost, or, if the table has lost those, one found by searching
// again within the remaining budget (rules.NoMove if that runs out).
func (s *Solver) winningMove(p rules.Position) rules.Move {
	var buf [rules.MaxMoves]rules.Move
	moves := p.LegalMoves(buf[:0])
	for _, m := range moves {
		c := p.Play(m)
		if !c.HasMoves() {
			return m
		}
		k := key(c)
		if e, ok := s.tt.probe(k, k.Hash()); ok && !e.win() {
			return m
		}
	}
	for _, m := range moves {
		opponentWins := s.win(p.Play(m), 1)
		if s.aborted {
			return rules.NoMove
		}
		if !opponentWins {
			return m
		}
	}
	return rules.NoMove
}
