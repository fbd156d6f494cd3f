package player

import (
	"context"
	"math/rand/v2"

	"github.com/konanezero/konane/rules"
)

// Greedy looks one ply ahead: it plays a move that leaves the opponent
// without a move if there is one, else a move that maximizes its own
// mobility minus the opponent's in the resulting position (see Evaluate).
// Ties are broken uniformly at random.
type Greedy struct {
	name string
	rng  *rand.Rand
}

// NewGreedy returns a greedy player breaking ties with the given seed.
func NewGreedy(seed uint64) *Greedy {
	return &Greedy{name: "greedy", rng: newRand(seed, streamGreedy)}
}

// Name implements Player.
func (g *Greedy) Name() string { return g.name }

// Move implements Player.
func (g *Greedy) Move(ctx context.Context, p rules.Position) (rules.Move, error) {
	if err := checkMove(ctx, p); err != nil {
		return rules.NoMove, err
	}
	var buf [rules.MaxMoves]rules.Move
	moves := p.LegalMoves(buf[:0])
	best, bestScore, ties := rules.NoMove, 0, 0
	for _, m := range moves {
		child := p.Play(m)
		// The child is scored from the opponent's side, so negate it.
		score := -Evaluate(child)
		if child.Phase() == rules.Jumping && !child.HasMoves() {
			return m, nil // the opponent is left without a move: a win
		}
		switch {
		case ties == 0 || score > bestScore:
			best, bestScore, ties = m, score, 1
		case score == bestScore:
			// Reservoir sampling keeps each tied move with equal chance.
			ties++
			if g.rng.IntN(ties) == 0 {
				best = m
			}
		}
	}
	return best, nil
}

// MoveWide implements WidePlayer: Move on any board, with the same
// mobility evaluation (EvaluateWide).
func (g *Greedy) MoveWide(ctx context.Context, p rules.WidePosition) (rules.WideMove, error) {
	if err := checkWide(ctx, p); err != nil {
		return rules.NoWideMove, err
	}
	best, bestScore, ties := rules.NoWideMove, 0, 0
	for _, m := range p.LegalMoves(nil) {
		child := p.Play(m)
		score := -EvaluateWide(child)
		if child.Phase() == rules.Jumping && !child.HasMoves() {
			return m, nil
		}
		switch {
		case ties == 0 || score > bestScore:
			best, bestScore, ties = m, score, 1
		case score == bestScore:
			ties++
			if g.rng.IntN(ties) == 0 {
				best = m
			}
		}
	}
	return best, nil
}

// EvaluateWide is Evaluate on any board (a rules.WidePosition).
func EvaluateWide(p rules.WidePosition) int {
	if p.Phase() != rules.Jumping {
		return 0
	}
	q := p
	q.Turn = p.Turn.Other()
	return p.CountMoves() - q.CountMoves()
}

// Evaluate is the mobility evaluation shared by the greedy and alpha-beta
// players: the number of jumps the side to move has minus the number its
// opponent has. It is 0 before the jumps start (during the removals),
// where mobility says nothing yet.
func Evaluate(p rules.Position) int {
	if p.Phase() != rules.Jumping {
		return 0
	}
	return p.Mobility(p.Turn) - p.Mobility(p.Turn.Other())
}
