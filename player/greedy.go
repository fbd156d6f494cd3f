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
	return pickGreedy(g, p.LegalMoves(buf[:0]), rules.NoMove, func(m rules.Move) (int, bool) {
		child := p.Play(m)
		return -Evaluate(child), child.Phase() == rules.Jumping && !child.HasMoves()
	}), nil
}

// MoveWide implements WidePlayer: Move on any board, with the same
// mobility evaluation (EvaluateWide).
func (g *Greedy) MoveWide(ctx context.Context, p rules.WidePosition) (rules.WideMove, error) {
	if err := checkWide(ctx, p); err != nil {
		return rules.NoWideMove, err
	}
	return pickGreedy(g, p.LegalMoves(nil), rules.NoWideMove, func(m rules.WideMove) (int, bool) {
		child := p.Play(m)
		return -EvaluateWide(child), child.Phase() == rules.Jumping && !child.HasMoves()
	}), nil
}

// pickGreedy is the greedy choice among moves (none if there are none):
// the first move that leaves the opponent without a move (a win), else
// one of the moves of the best score, each tied move kept with equal
// chance (reservoir sampling with g's generator). score gives a move's
// child's score for the mover (the child is scored from the opponent's
// side, so negated) and whether the opponent has no move there.
func pickGreedy[M any](g *Greedy, moves []M, none M, score func(M) (int, bool)) M {
	best, bestScore, ties := none, 0, 0
	for _, m := range moves {
		sc, wins := score(m)
		if wins {
			return m
		}
		switch {
		case ties == 0 || sc > bestScore:
			best, bestScore, ties = m, sc, 1
		case sc == bestScore:
			ties++
			if g.rng.IntN(ties) == 0 {
				best = m
			}
		}
	}
	return best
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
