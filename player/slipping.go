package player

import (
	"context"
	"math/rand/v2"

	"github.com/konanezero/konane/rules"
)

// Slipping plays a WidePlayer's moves (the classical engine's, at a
// level) but for the level's slips: Choice.Slip of each move, drawn from
// its own random source. It is the classical engine at a level of every
// front end (konane play, gtp, serve's API, the AbstractPlay bot) and of
// the pvs player with a level setting. Choice may be changed between
// moves (a new level); the zero Choice plays the engine's moves as they
// are. Like any Player it serves one game at a time.
type Slipping struct {
	WidePlayer
	Choice Choice
	rng    *rand.Rand
}

// NewSlipping is wp at the level of Choice c, its slips drawn from
// SlipRand(seed) (seed: the engine's, so that one seed gives one game).
func NewSlipping(wp WidePlayer, c Choice, seed uint64) *Slipping {
	return &Slipping{WidePlayer: wp, Choice: c, rng: SlipRand(seed)}
}

// Move is the player's move in p, or a slip (Choice.Slip).
func (s *Slipping) Move(ctx context.Context, p rules.Position) (rules.Move, error) {
	m, err := s.WidePlayer.Move(ctx, p)
	if err != nil {
		return m, err
	}
	return s.Choice.Slip(p, m, s.rng), nil
}

// MoveWide is Move on every board (Choice.SlipWide).
func (s *Slipping) MoveWide(ctx context.Context, p rules.WidePosition) (rules.WideMove, error) {
	m, err := s.WidePlayer.MoveWide(ctx, p)
	if err != nil {
		return m, err
	}
	return s.Choice.SlipWide(p, m, s.rng), nil
}

// MoveAny is the move in p on every board (the package's MoveAny: Move
// on a board a Position holds, MoveWide above), the front ends' one
// entry.
func (s *Slipping) MoveAny(ctx context.Context, p rules.WidePosition) (rules.WideMove, error) {
	return MoveAny(ctx, s, p)
}
