package apbot

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/konanezero/konane/rules"
)

// TestNotationMatchesGameslib: in every position of random games on the
// boards the bot plays (all six, 15x12 with its ranks 10..12 among them), our rules' legal moves, written in our notation,
// are exactly the moves of AbstractPlay's konane.ts (its port apGame), so
// that the histories the bot replays and the moves it submits mean the
// same on both sides.
func TestNotationMatchesGameslib(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	twoDigits := false // a move with a rank of two digits was checked
	for _, board := range Boards() {
		if !board.Playable() {
			continue
		}
		var variants []string
		if board.Variant != "" {
			variants = []string{board.Variant}
		}
		for range 30 {
			ap := newAPGame(variants)
			p, err := board.Start()
			if err != nil {
				t.Fatal(err)
			}
			var buf [rules.WideMaxMoves]rules.WideMove
			for {
				want := ap.moves()
				var got []string
				for _, m := range p.LegalMoves(buf[:0]) {
					got = append(got, m.String())
				}
				slices.Sort(want)
				slices.Sort(got)
				if !slices.Equal(got, want) {
					t.Fatalf("%s after %v: rules %v, gameslib %v", board, ap.history, got, want)
				}
				if len(want) == 0 {
					break
				}
				m := want[rng.IntN(len(want))]
				twoDigits = twoDigits || len(m) > 5 // "h12-h10", "h10-h8"
				mv, err := rules.ParseWideMove(p, m)
				if err != nil {
					t.Fatal(err)
				}
				p = p.Play(mv)
				ap.move(m)
			}
		}
	}
	if !twoDigits {
		t.Error("no move with a rank of two digits (15x12) was checked")
	}
}
