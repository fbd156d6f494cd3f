package api

import (
	"testing"

	"github.com/konanezero/konane/rules"
)

// TestGameUnits: a search's units in the serving budget are its
// simulations on the boards up to 8x8 and, above 8x8, its simulations
// scaled by the board's squares over 64 (rounded up).
func TestGameUnits(t *testing.T) {
	for _, tc := range []struct {
		b    rules.Board
		want int
	}{
		{rules.SquareBoard(6), 512},
		{rules.SquareBoard(8), 512},
		{rules.Board{W: 7, H: 6, Start: rules.Gap}, 512},
		{rules.Board{W: 9, H: 8, Start: rules.Gap}, 576},
		{rules.Board{W: 15, H: 12, Start: rules.Gap}, 1440},
		{rules.Board{W: 16, H: 16, Start: rules.Removal}, 2048},
	} {
		var g rules.AnyGame
		var err error
		if tc.b.Narrow() {
			g, err = rules.NewBoardGame(tc.b)
		} else {
			g, err = rules.NewWideGame(tc.b)
		}
		if err != nil {
			t.Fatal(err)
		}
		if got := (&game{g: g}).units(512); got != tc.want {
			t.Errorf("%v: units(512) = %d, want %d", tc.b, got, tc.want)
		}
	}
	if got := (&game{g: mustWide(t, rules.Board{W: 9, H: 8, Start: rules.Gap})}).units(1); got != 2 {
		t.Errorf("9x8: units(1) = %d, want 2 (rounded up)", got)
	}
}

func mustWide(t *testing.T, b rules.Board) rules.AnyGame {
	t.Helper()
	g, err := rules.NewWideGame(b)
	if err != nil {
		t.Fatal(err)
	}
	return g
}
