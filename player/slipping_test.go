package player

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/konanezero/konane/rules"
)

// lastMove is a WidePlayer that plays the last legal move.
type lastMove struct{}

func (lastMove) Name() string { return "last" }

func (lastMove) Move(_ context.Context, p rules.Position) (rules.Move, error) {
	ms := p.LegalMoves(nil)
	return ms[len(ms)-1], nil
}

func (lastMove) MoveWide(_ context.Context, p rules.WidePosition) (rules.WideMove, error) {
	ms := p.LegalMoves(nil)
	return ms[len(ms)-1], nil
}

// TestSlipping: along a game on each of AbstractPlay's boards, a
// Slipping player's MoveAny is the engine's move slipped as SlipWide
// slips it from SlipRand(seed), which on a board a Position holds is
// Slip's move there; some moves slip at Noise 0.5; the zero Choice plays
// the engine's move.
func TestSlipping(t *testing.T) {
	ctx := context.Background()
	c := Choice{Noise: 0.5}
	rng := rand.New(rand.NewPCG(3, 3))
	for _, b := range rules.AbstractPlayBoards() {
		g, err := rules.NewAnyGame(b)
		if err != nil {
			t.Fatal(err)
		}
		name, differ := b.String(), 0
		for ply := 0; ply < 12 && !g.Over(); ply++ {
			wp := g.WidePosition()
			moves := wp.LegalMoves(nil)
			best := moves[len(moves)-1]
			for seed := range uint64(8) {
				got, err := NewSlipping(lastMove{}, c, seed).MoveAny(ctx, wp)
				if err != nil {
					t.Fatal(err)
				}
				want := c.SlipWide(wp, best, SlipRand(seed))
				if p, err := wp.Narrow(); err == nil {
					if narrow := c.Slip(p, best.Narrow(), SlipRand(seed)).Wide(); narrow != want {
						t.Fatalf("%s ply %d seed %d: Slip %s, SlipWide %s", name, ply, seed, narrow, want)
					}
				}
				if got != want {
					t.Fatalf("%s ply %d seed %d: MoveAny %s, SlipWide %s", name, ply, seed, got, want)
				}
				if got != best {
					differ++
				}
				if same, err := NewSlipping(lastMove{}, Choice{}, seed).MoveAny(ctx, wp); err != nil || same != best {
					t.Fatalf("%s: without Noise MoveAny gave %s for %s: %v", name, same, best, err)
				}
			}
			if _, err := g.PlayString(moves[rng.IntN(len(moves))].String()); err != nil {
				t.Fatal(err)
			}
		}
		if differ == 0 {
			t.Errorf("%s: Noise 0.5 never slipped", name)
		}
	}
}
