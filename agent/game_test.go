package agent

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/konanezero/konane/rules"
)

func TestGamePlayUndoRecord(t *testing.T) {
	g, err := NewGame(4)
	if err != nil {
		t.Fatal(err)
	}
	if g.Last() != rules.NoMove || g.Len() != 0 || g.Over() {
		t.Fatal("a new game is not empty")
	}
	if _, ok := g.Undo(); ok {
		t.Error("undo in a new game succeeded")
	}
	// A whole game, always the first legal move.
	for !g.Over() {
		m := g.Position().LegalMoves(nil)[0]
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
		if g.Last() != m {
			t.Fatalf("last %v, played %v", g.Last(), m)
		}
	}
	w, ok := g.Winner()
	if !ok || w != g.Position().Turn.Other() {
		t.Fatalf("winner %v %v with %v to move and no move", w, ok, g.Position().Turn)
	}
	if _, err := g.PlayText("a1"); err == nil || !strings.Contains(err.Error(), "game is over") {
		t.Errorf("move after the end: %v", err)
	}
	rec := g.Record(rules.Tag{Key: "Event", Value: "test"})
	text, err := rec.MarshalText()
	if err != nil {
		t.Fatal(err)
	}
	back, err := rules.ParseRecord(text)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := back.Winner(); got != w || len(back.Moves) != g.Len() || back.Tag("Event") != "test" {
		t.Errorf("record read back: winner %v, %d moves, tags %v", got, len(back.Moves), back.Tags)
	}
	n := g.Len()
	last := g.Last()
	if m, ok := g.Undo(); !ok || m != last || g.Len() != n-1 || g.Over() {
		t.Errorf("undo: %v %v, %d moves left, over %v", m, ok, g.Len(), g.Over())
	}
	if g.Record().Tag("Result") != rules.Unfinished {
		t.Error("an unfinished game's record has a result")
	}
}

func TestGameBadMoves(t *testing.T) {
	g, _ := NewGame(6)
	for _, tc := range []struct{ text, want string }{
		{"", "empty"},
		{"z9", "off the 6x6 board"},
		{"b1", "own stones"},
		{"c1", "corner or a central square"},
		{"a1-a3", "must first remove"},
	} {
		if _, err := g.PlayText(tc.text); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("PlayText(%q): %v; want %q", tc.text, err, tc.want)
		}
	}
	if err := g.Play(rules.Move{From: 1, To: 1}); !errors.Is(err, rules.ErrIllegal) {
		t.Errorf("Play(b1): %v; want ErrIllegal", err)
	}
	if g.Len() != 0 {
		t.Errorf("bad moves were played: %v", g.Moves())
	}
	if _, err := NewGame(9); err == nil {
		t.Error("NewGame(9): no error")
	}
}

func TestGameTakeBack(t *testing.T) {
	g, _ := NewGame(6)
	for _, c := range []rules.Color{rules.Black, rules.White} {
		if got := g.TakeBack(c); got != nil {
			t.Errorf("TakeBack(%v) before any move took back %v", c, got)
		}
	}
	// Moves 0, 2, 4 are Black's and 1, 3 White's.
	for range 5 {
		if err := g.Play(g.Position().LegalMoves(nil)[0]); err != nil {
			t.Fatal(err)
		}
	}
	all := g.Moves()
	if got := g.TakeBack(rules.Black); !slices.Equal(got, all[4:]) || g.Len() != 4 || g.Position().Turn != rules.Black {
		t.Errorf("Black's take-back of its last move: took %v, %d moves left", got, g.Len())
	}
	if got := g.TakeBack(rules.Black); !slices.Equal(got, all[2:4]) || g.Len() != 2 || g.Position().Turn != rules.Black {
		t.Errorf("Black's take-back of its move and the reply: took %v, %d moves left", got, g.Len())
	}
	if got := g.TakeBack(rules.White); !slices.Equal(got, all[1:2]) || g.Len() != 1 || g.Position().Turn != rules.White {
		t.Errorf("White's take-back: took %v, %d moves left", got, g.Len())
	}
	start := rules.NewPosition(6)
	if g.Position() != start.Play(all[0]) {
		t.Error("the position after the take-backs is not the one after the first move")
	}
}

func TestGameRecordAgainst(t *testing.T) {
	g, _ := NewGame(6)
	for _, tc := range []struct {
		human        rules.Color
		black, white string
	}{
		{rules.Black, "you", "konane (easy)"},
		{rules.White, "konane (easy)", "you"},
	} {
		r := g.RecordAgainst("test", tc.human, "konane (easy)")
		if r.Tag("Event") != "test" || r.Tag("Black") != tc.black || r.Tag("White") != tc.white || r.Tag("Result") != rules.Unfinished {
			t.Errorf("human %v: tags %v", tc.human, r.Tags)
		}
	}
}
