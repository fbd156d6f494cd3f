package player

import (
	"context"
	"math/rand/v2"

	"github.com/konanezero/konane/rules"
)

// Random plays a uniformly random legal move.
type Random struct {
	name string
	rng  *rand.Rand
}

// NewRandom returns a random player drawing from the given seed.
func NewRandom(seed uint64) *Random {
	return &Random{name: "random", rng: newRand(seed, streamRandom)}
}

// Name implements Player.
func (r *Random) Name() string { return r.name }

// Move implements Player.
func (r *Random) Move(ctx context.Context, p rules.Position) (rules.Move, error) {
	if err := checkMove(ctx, p); err != nil {
		return rules.NoMove, err
	}
	var buf [rules.MaxMoves]rules.Move
	moves := p.LegalMoves(buf[:0])
	return moves[r.rng.IntN(len(moves))], nil
}

// MoveWide implements WidePlayer: a uniformly random legal move on any
// board.
func (r *Random) MoveWide(ctx context.Context, p rules.WidePosition) (rules.WideMove, error) {
	if err := checkWide(ctx, p); err != nil {
		return rules.NoWideMove, err
	}
	moves := p.LegalMoves(nil)
	return moves[r.rng.IntN(len(moves))], nil
}
