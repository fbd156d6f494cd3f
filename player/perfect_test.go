package player

import (
	"context"
	"errors"
	"math/bits"
	"testing"

	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/solver"
)

// playFrom plays p to the end between two players, failing on an illegal
// move or an error, and returns the winner.
func playFrom(t *testing.T, p rules.Position, black, white Player) rules.Color {
	t.Helper()
	for p.HasMoves() {
		pl := black
		if p.Turn == rules.White {
			pl = white
		}
		m, err := pl.Move(context.Background(), p)
		if err != nil {
			t.Fatalf("%s: %v", pl.Name(), err)
		}
		if !p.Legal(m) {
			t.Fatalf("%s played illegal %v", pl.Name(), m)
		}
		p = p.Play(m)
	}
	return p.Turn.Other()
}

// TestPerfectWinsWonPositions: from every won position sampled from random
// games, the perfect player beats a random and a greedy player; it plays
// only legal moves on every size.
func TestPerfectWinsWonPositions(t *testing.T) {
	s := solver.New(solver.WithTableEntries(1 << 16))
	games := 4
	if testing.Short() {
		games = 2
	}
	for size := rules.MinSize; size <= rules.MaxSize; size++ {
		checked := 0
		for i, p := range randomPositions(size, games, uint64(size)) {
			if size > 5 && bits.OnesCount64(p.Black|p.White) > solver.DefaultMaxStones {
				continue
			}
			if i%3 != 0 {
				continue // every third position is enough
			}
			wins, err := s.Solve(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			perfect := NewPerfect(uint64(i))
			for _, opp := range []Player{NewRandom(uint64(i)), NewGreedy(uint64(i))} {
				black, white := Player(perfect), opp
				if p.Turn == rules.White {
					black, white = white, black
				}
				winner := playFrom(t, p, black, white)
				if wins && winner != p.Turn {
					t.Fatalf("%dx%d: perfect lost a won position %+v to %s", size, size, p, opp.Name())
				}
			}
			// And against itself, the solver's verdict holds.
			if winner := playFrom(t, p, perfect, perfect); (winner == p.Turn) != wins {
				t.Fatalf("%dx%d: perfect self-play from %+v: %v won, solver says side to move wins=%v", size, size, p, winner, wins)
			}
			checked++
		}
		if checked == 0 {
			t.Fatalf("%dx%d: no position checked", size, size)
		}
	}
}

func TestPerfectTooBig(t *testing.T) {
	p := rules.Openings(8)[0].Position
	if _, err := NewPerfect(1).Move(context.Background(), p); !errors.Is(err, ErrTooBig) {
		t.Errorf("8x8 opening: err %v, want ErrTooBig", err)
	}
	pl, _ := mustFactory(t, "perfect:maxstones=64").New(1)
	if pl.(*Perfect).MaxStones != 64 {
		t.Errorf("maxstones setting not applied")
	}
}
