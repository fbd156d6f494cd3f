package rules

import (
	"fmt"
	"math/bits"
	"testing"
)

// TestPlayoutInvariants plays seeded random games from every opening of
// every size and checks, move by move: stone counts only fall (by one for
// a removal of the mover's own stone, by the hop count of a jump for the
// opponent), the mover's count never changes on a jump, stones never
// leave their colour's squares (row+col even for Black), the turn
// alternates, and the game ends within as many moves as there are stones.
func TestPlayoutInvariants(t *testing.T) {
	games := 20
	if testing.Short() {
		games = 3
	}
	rng := newRand(8)
	for n := MinSize; n <= MaxSize; n++ {
		var blackSquares Bitboard
		for r := 0; r < n; r++ {
			for c := 0; c < n; c++ {
				if (r+c)%2 == 0 {
					blackSquares |= SquareAt(r, c).Bit()
				}
			}
		}
		whiteSquares := ValidMask(n) &^ blackSquares
		for g := 0; g < games; g++ {
			ps, ms := Playout(rng, NewPosition(n), -1)
			if len(ms) > n*n {
				t.Fatalf("%dx%d: a game of %d moves, more than the %d stones", n, n, len(ms), n*n)
			}
			for i, m := range ms {
				before, after := ps[i], ps[i+1]
				where := fmt.Sprintf("%dx%d game %d move %d %v", n, n, g, i+1, m)
				if after.Turn != before.Turn.Other() {
					t.Fatalf("%s: turn did not pass", where)
				}
				if after.Black&^blackSquares != 0 || after.White&^whiteSquares != 0 {
					t.Fatalf("%s: a stone left its colour's squares\n%v", where, after)
				}
				mover, opp := before.Turn, before.Turn.Other()
				ownBefore, ownAfter := bits.OnesCount64(before.Stones(mover)), bits.OnesCount64(after.Stones(mover))
				oppBefore, oppAfter := bits.OnesCount64(before.Stones(opp)), bits.OnesCount64(after.Stones(opp))
				switch {
				case m.IsRemoval():
					if i > 1 || ownAfter != ownBefore-1 || oppAfter != oppBefore {
						t.Fatalf("%s: removal changed counts %d→%d (own) %d→%d (opponent)", where, ownBefore, ownAfter, oppBefore, oppAfter)
					}
				default:
					if i < 2 {
						t.Fatalf("%s: a jump during the removals", where)
					}
					if ownAfter != ownBefore || oppBefore-oppAfter != m.Hops() || m.Hops() < 1 {
						t.Fatalf("%s: %d hops but counts %d→%d (own) %d→%d (opponent)", where, m.Hops(), ownBefore, ownAfter, oppBefore, oppAfter)
					}
				}
				if bits.OnesCount64(after.Empty()) <= bits.OnesCount64(before.Empty()) {
					t.Fatalf("%s: no square emptied", where)
				}
			}
		}
	}
}

// TestPlayoutLimit: Playout stops after maxPlies moves, with the positions
// and moves of the same game as an unlimited playout of the same seed.
func TestPlayoutLimit(t *testing.T) {
	all, allMoves := Playout(newRand(3), NewPosition(6), -1)
	for _, n := range []int{0, 1, 5, len(allMoves) + 3} {
		ps, ms := Playout(newRand(3), NewPosition(6), n)
		k := min(n, len(allMoves))
		if len(ms) != k || len(ps) != k+1 || ps[k] != all[k] || (k > 0 && ms[k-1] != allMoves[k-1]) {
			t.Errorf("Playout(%d): %d moves, %d positions", n, len(ms), len(ps))
		}
	}
	if last := all[len(all)-1]; last.HasMoves() {
		t.Error("an unlimited playout ends with a move left")
	}
}
