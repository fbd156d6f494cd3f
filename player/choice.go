package player

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/rules"
)

// Bounds of Choice.
const (
	MaxTemp = 100 // Choice.Temp
)

// Choice is how a player picks its move once its engine has spoken: the
// engine's best move (the zero Choice), or, for the weak levels that
// package agent offers people, a draw that weakens like a person rather
// than a coin. Two kinds of engine, two kinds of draw:
//
//   - A network's search gives a distribution over the moves (Draw):
//     with Temp > 0 the move is drawn among the TopK moves of highest
//     weight (0: all of them), move i weighing (Visits[i] + Prior[i])^(1/Temp)
//     — the search's visits with the network's prior as one visit, so
//     that a search of one simulation draws from the network's policy.
//     Low temperatures keep to the best moves; high ones spread over the
//     plausible ones, and TopK cuts off the implausible.
//   - An engine that gives its move only, or moves that are exactly won
//     or lost (the exact solver, pvs), has no such distribution (Slip):
//     with Noise > 0 that share of its moves is replaced by one drawn
//     uniformly.
//
// Either draw is guarded against the absurd (Guard): when some moves win
// at once, the draw keeps to them; when exactly one move escapes an
// immediate loss, it is played. A player with a Choice needs its random
// numbers seeded, so that the same seed gives the same games.
type Choice struct {
	Temp  float64 // 0: no draw from the search's distribution
	TopK  int     // 0: every move
	Noise float64 // share of slips, 0..1
}

// Weak reports whether c draws at all (it is not the zero Choice).
func (c Choice) Weak() bool { return c.Temp > 0 || c.Noise > 0 }

// validate reports a Choice out of range, as a LimitsError's field.
func (c Choice) validate() string {
	switch {
	case !(c.Temp >= 0 && c.Temp <= MaxTemp):
		return "temp"
	case c.TopK < 0 || c.TopK > rules.MaxMoves:
		return "topk"
	case !(c.Noise >= 0 && c.Noise <= 1):
		return "noise"
	}
	return ""
}

// String describes the draw for developers: "drawn at temperature 1.5
// among the top 8"; "" without a Temp. Noise is left out: it applies to
// the exact solver and pvs, not to the searches that Limits.String
// describes.
func (c Choice) String() string {
	if c.Temp <= 0 {
		return ""
	}
	s := fmt.Sprintf("drawn at temperature %g", c.Temp)
	if c.TopK > 0 {
		s += fmt.Sprintf(" among the top %d", c.TopK)
	}
	return s
}

// Draw picks a move of p from res, the result of a search of p: res.Best
// unless c has a Temp, else a move drawn as Choice says, guarded
// (Guard). rng is only used when c draws.
func (c Choice) Draw(p rules.Position, res mcts.Result, rng *rand.Rand) rules.Move {
	return draw(c, p, res, rng)
}

// DrawWide is Draw on the boards above 8x8 (a rules.WidePosition), with
// the same draws from rng.
func (c Choice) DrawWide(p rules.WidePosition, res mcts.WideResult, rng *rand.Rand) rules.WideMove {
	return draw(c, p, res, rng)
}

func draw[P position[P, M], M comparable](c Choice, p P, res mcts.ResultOf[M], rng *rand.Rand) M {
	if c.Temp <= 0 || len(res.Moves) == 0 {
		return res.Best
	}
	keep := guard(p)
	if len(keep) == 1 {
		return keep[0]
	}
	type cand struct {
		m M
		w float64
	}
	cands := make([]cand, 0, len(res.Moves))
	for i, m := range res.Moves {
		if len(keep) > 0 && !slices.Contains(keep, m) {
			continue
		}
		w := math.Pow(float64(res.Visits[i])+float64(res.Prior[i]), 1/c.Temp)
		cands = append(cands, cand{m, w})
	}
	if len(cands) == 0 { // keep and res disagree on the moves: res is of another position
		return res.Best
	}
	// Highest weight first, ties in the order of the moves (stable), so
	// that the draw depends on nothing but res and rng.
	slices.SortStableFunc(cands, func(a, b cand) int { return cmp.Compare(b.w, a.w) })
	if c.TopK > 0 && len(cands) > c.TopK {
		cands = cands[:c.TopK]
	}
	total := 0.0
	for _, x := range cands {
		total += x.w
	}
	if !(total > 0) || math.IsInf(total, 0) {
		return cands[0].m
	}
	r := rng.Float64() * total
	for _, x := range cands {
		if r < x.w {
			return x.m
		}
		r -= x.w
	}
	return cands[len(cands)-1].m
}

// Slip picks a move of p given best, an engine's move in p: best unless
// c has Noise, else, that share of the time, a move drawn uniformly
// among the guarded ones (Guard) — and always the one move Guard leaves,
// when it leaves one. rng is only used when c has Noise.
func (c Choice) Slip(p rules.Position, best rules.Move, rng *rand.Rand) rules.Move {
	return slip(c, p, best, rng)
}

// SlipWide is Slip on every board, the position on the wide layout: on
// a board a Position holds, Slip's move there from the same draws of
// rng (the moves come in the same order on both layouts).
func (c Choice) SlipWide(p rules.WidePosition, best rules.WideMove, rng *rand.Rand) rules.WideMove {
	return slip(c, p, best, rng)
}

// SlipRand is the random source of a weak level's slips for a search
// seeded with seed: seeded apart from the search's own numbers.
func SlipRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x736c6970)) }

// Guard returns the moves of p that anyone who has learned the rules
// would keep to: the moves that win at once (the opponent is left
// without a move) when there are any; else, when exactly one move leaves
// the opponent no reply that wins at once, that move; else nil (no
// restriction: every move loses at once, or several do not).
func Guard(p rules.Position) []rules.Move { return guard(p) }

// GuardWide is Guard on the boards above 8x8.
func GuardWide(p rules.WidePosition) []rules.WideMove { return guard(p) }

// position is what Slip and Guard ask of a position: rules.Position and
// rules.WidePosition, with their moves M.
type position[P any, M any] interface {
	LegalMoves(buf []M) []M
	Play(m M) P
	HasMoves() bool
}

func slip[P position[P, M], M any](c Choice, p P, best M, rng *rand.Rand) M {
	if c.Noise <= 0 {
		return best
	}
	keep := guard(p)
	if len(keep) == 1 {
		return keep[0]
	}
	if rng.Float64() >= c.Noise {
		return best
	}
	if len(keep) == 0 {
		var buf [rules.MaxMoves]M
		keep = p.LegalMoves(buf[:0])
	}
	return keep[rng.IntN(len(keep))]
}

func guard[P position[P, M], M any](p P) []M {
	var buf [rules.MaxMoves]M
	moves := p.LegalMoves(buf[:0])
	var wins []M
	for _, m := range moves {
		if !p.Play(m).HasMoves() {
			wins = append(wins, m)
		}
	}
	if len(wins) > 0 {
		return wins
	}
	var safe M
	nsafe := 0
	for _, m := range moves {
		if !winsAtOnce(p.Play(m)) {
			safe = m
			if nsafe++; nsafe > 1 {
				return nil
			}
		}
	}
	if nsafe == 1 {
		return []M{safe}
	}
	return nil
}

// winsAtOnce reports whether the side to move in p has a move that
// leaves its opponent without a move.
func winsAtOnce[P position[P, M], M any](p P) bool {
	var buf [rules.MaxMoves]M
	for _, m := range p.LegalMoves(buf[:0]) {
		if !p.Play(m).HasMoves() {
			return true
		}
	}
	return false
}
