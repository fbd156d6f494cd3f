package player

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/konanezero/konane/rules"
)

// Player chooses moves: a position in, a legal move out. A Player may keep
// state between calls (a transposition table, a random generator), so one
// Player serves one game at a time; make a fresh one per game with a
// Factory. Move returns an error when ctx ends before it has a move (a
// time limit set by the player itself is not an error), and ErrNoMoves when
// the game is already over.
type Player interface {
	Name() string
	Move(ctx context.Context, p rules.Position) (rules.Move, error)
}

// WidePlayer is a Player that plays every board, those above rules.MaxSize
// files or ranks too (rules.WidePosition): MoveWide is Move there, with
// the same contract. The classical engine (pvs, alphabeta), greedy,
// random and a network's player (Neural, with an evaluator of
// WidePositions) are WidePlayers; the exact solver is not.
type WidePlayer interface {
	Player
	MoveWide(ctx context.Context, p rules.WidePosition) (rules.WideMove, error)
}

var (
	_ WidePlayer = (*Engine)(nil)
	_ WidePlayer = (*Greedy)(nil)
	_ WidePlayer = (*Random)(nil)
	_ WidePlayer = (*Neural)(nil)
)

// MoveAny is pl's move in p on every board, on the wide layout: Move's
// on a board a Position holds (p.IsNarrow; the same move, p given as a
// Position), MoveWide's above 8x8, where a Player that is no WidePlayer
// gives an error naming the board.
func MoveAny(ctx context.Context, pl Player, p rules.WidePosition) (rules.WideMove, error) {
	if !p.IsNarrow() {
		wp, ok := pl.(WidePlayer)
		if !ok {
			return rules.NoWideMove, fmt.Errorf("player: %s plays boards of at most %d files and ranks, not %s", pl.Name(), rules.MaxSize, p.Dims())
		}
		return wp.MoveWide(ctx, p)
	}
	q, err := p.Narrow()
	if err != nil {
		return rules.NoWideMove, fmt.Errorf("player: %w", err)
	}
	m, err := pl.Move(ctx, q)
	if err != nil {
		return rules.NoWideMove, err
	}
	return m.Wide(), nil
}

// ErrNoMoves is returned by Move for a position without a legal move (the
// side to move has lost).
var ErrNoMoves = errors.New("player: no legal move: the game is over")

// checkMove is the check every Move starts with: ctx's error once it has
// ended, ErrNoMoves when p has no legal move.
func checkMove(ctx context.Context, p rules.Position) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if !p.HasMoves() {
		return ErrNoMoves
	}
	return nil
}

// checkWide is checkMove on any board; an invalid position is an error
// too.
func checkWide(ctx context.Context, p rules.WidePosition) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := p.Validate(); err != nil {
		return err
	}
	if !p.HasMoves() {
		return ErrNoMoves
	}
	return nil
}

// Random streams of math/rand/v2's PCG, one per player kind, so that two
// kinds given the same seed do not draw the same numbers.
const (
	streamRandom uint64 = iota + 0x706c6179 // "play"
	streamGreedy
	streamAlphaBeta
	streamMCTS
	streamPerfect
	streamNeural
	streamPVS
	streamChoice
)

func newRand(seed, stream uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, stream)) }
