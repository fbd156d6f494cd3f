package rules

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestGamePlayUndoRecord(t *testing.T) {
	g, err := NewGame(4)
	if err != nil {
		t.Fatal(err)
	}
	if g.Last() != NoMove || g.Len() != 0 || g.Over() {
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
	var over *GameOverError
	if _, err := g.PlayText("a1"); !errors.As(err, &over) || over.Winner != w {
		t.Errorf("move after the end: %v", err)
	}
	if err := g.Play(Move{From: 0, To: 0}); !errors.As(err, &over) || err.Error() != fmt.Sprintf("rules: the game is over: %s has no legal move, %s won", w.Other(), w) {
		t.Errorf("move after the end: %v", err)
	}
	rec := g.Record(Tag{Key: "Event", Value: "test"})
	text, err := rec.MarshalText()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseRecord(text)
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
	if g.Record().Tag("Result") != Unfinished {
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
		if m, err := g.PlayText(tc.text); err == nil || !strings.Contains(err.Error(), tc.want) || m != NoMove {
			t.Errorf("PlayText(%q): %v, %v; want NoMove, %q", tc.text, m, err, tc.want)
		}
	}
	if err := g.Play(Move{From: 1, To: 1}); !errors.Is(err, ErrIllegal) {
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
	for _, c := range []Color{Black, White} {
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
	if got := g.TakeBack(Black); !slices.Equal(got, all[4:]) || g.Len() != 4 || g.Position().Turn != Black {
		t.Errorf("Black's take-back of its last move: took %v, %d moves left", got, g.Len())
	}
	if got := g.TakeBack(Black); !slices.Equal(got, all[2:4]) || g.Len() != 2 || g.Position().Turn != Black {
		t.Errorf("Black's take-back of its move and the reply: took %v, %d moves left", got, g.Len())
	}
	if got := g.TakeBack(White); !slices.Equal(got, all[1:2]) || g.Len() != 1 || g.Position().Turn != White {
		t.Errorf("White's take-back: took %v, %d moves left", got, g.Len())
	}
	start := NewPosition(6)
	if g.Position() != start.Play(all[0]) {
		t.Error("the position after the take-backs is not the one after the first move")
	}
}

// TestGameRecordTagsComments: the game's own tags come first, then the
// given ones, Result last unless a given tag placed it; comments follow
// their moves and go with them when they are taken back.
func TestGameRecordTagsComments(t *testing.T) {
	g, _ := NewGame(4)
	g.SetComment("before any move") // nothing to comment
	g.SetTag("Seed", "7")
	for _, text := range []string{"a1", "a2", "c1-a1"} {
		if _, err := g.PlayText(text); err != nil {
			t.Fatal(err)
		}
	}
	g.SetComment("")
	r := g.Record(Tag{"Event", "e"})
	if r.Comments != nil || fmt.Sprint(r.Tags) != "[{Seed 7} {Event e} {Result *}]" {
		t.Errorf("no comments: comments %q, tags %v", r.Comments, r.Tags)
	}
	g.SetComment("third")
	r = g.Record(Tag{"Event", "e"}, Tag{"Result", "?"}, Tag{"Round", "1"})
	if fmt.Sprint(r.Tags) != "[{Seed 7} {Event e} {Result *} {Round 1}]" || fmt.Sprintf("%q", r.Comments) != `["" "" "third"]` {
		t.Errorf("tags %v, comments %q", r.Tags, r.Comments)
	}
	r.Moves[0], r.Comments[2] = NoMove, "changed" // the record is a copy
	if g.Moves()[0] == NoMove || g.Record().Comments[2] != "third" {
		t.Error("changing the record changed the game")
	}
	g.Undo()
	if r := g.Record(); r.Comments != nil || len(r.Moves) != 2 {
		t.Errorf("after the commented move's undo: comments %q, %d moves", r.Comments, len(r.Moves))
	}
	if _, err := g.PlayText("c1-a1"); err != nil {
		t.Fatal(err)
	}
	if r := g.Record(); r.Comments != nil {
		t.Errorf("the undone move's comment came back: %q", r.Comments)
	}
}

// TestGameResign: the game keeps its outcome: a resignation ends it with
// the other side the winner, by Resignation, before the end; no move is
// played after it; the record's Result names the winner; taking the
// moves back takes the resignation back too.
func TestGameResign(t *testing.T) {
	g, err := NewGame(6)
	if err != nil {
		t.Fatal(err)
	}
	if w, m := g.Outcome(); m != NotOver || g.Over() {
		t.Fatalf("a new game: outcome %v %v, over %v", w, m, g.Over())
	}
	for _, mv := range []string{"c3", "d3"} {
		if _, err := g.PlayText(mv); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.Resign(White); err != nil {
		t.Fatal(err)
	}
	if w, m := g.Outcome(); w != Black || m != Resignation || !g.Over() {
		t.Fatalf("after White resigned: %v by %v, over %v; want Black by resignation", w, m, g.Over())
	}
	if w, ok := g.Winner(); !ok || w != Black {
		t.Fatalf("Winner: %v %v", w, ok)
	}
	var over *GameOverError
	if _, err := g.PlayText("e5-c5"); !errors.As(err, &over) || over.Winner != Black || over.Method != Resignation || !strings.Contains(err.Error(), "white resigned, black won") {
		t.Fatalf("a move after the resignation: %v; want a GameOverError saying who resigned", err)
	}
	if err := g.Resign(Black); !errors.As(err, &over) {
		t.Fatalf("a second resignation: %v; want a GameOverError", err)
	}
	rec := g.Record()
	if rec.Tag("Result") != BlackWon {
		t.Fatalf("the record's Result: %q, want %s", rec.Tag("Result"), BlackWon)
	}
	// The record gives the game back with its resignation.
	back, err := rec.Game()
	if err != nil {
		t.Fatal(err)
	}
	if w, m := back.Outcome(); w != Black || m != Resignation || back.Len() != 2 {
		t.Fatalf("the game of its record: %v by %v after %d moves", w, m, back.Len())
	}
	// Taking White's move back takes the resignation back.
	if taken := g.TakeBack(White); len(taken) != 1 {
		t.Fatalf("took back %v", taken)
	}
	if _, m := g.Outcome(); m != NotOver || g.Over() {
		t.Fatalf("after the take-back: %v, over %v", m, g.Over())
	}
	if err := g.Resign(Black); err != nil {
		t.Fatal(err)
	}
	if _, ok := g.Undo(); !ok {
		t.Fatal("undo")
	}
	if _, m := g.Outcome(); m != NotOver {
		t.Fatalf("after an undo: %v", m)
	}
	if err := g.Resign(Color(7)); err == nil {
		t.Fatal("a resignation of no side was taken")
	}
}

// TestGameOutcomeNoMoveLeft: a game played to its end is won by the side
// that made the last move, by NoMoveLeft, and its record's Result agrees;
// a record whose Result names the loser is refused.
func TestGameOutcomeNoMoveLeft(t *testing.T) {
	g, err := NewGame(4)
	if err != nil {
		t.Fatal(err)
	}
	for !g.Over() {
		var buf [MaxMoves]Move
		if err := g.Play(g.Position().LegalMoves(buf[:0])[0]); err != nil {
			t.Fatal(err)
		}
	}
	w, m := g.Outcome()
	if m != NoMoveLeft || w != g.Position().Turn.Other() {
		t.Fatalf("outcome %v by %v", w, m)
	}
	rec := g.Record()
	if rec.Tag("Result") != ResultFor(w) {
		t.Fatalf("Result %q", rec.Tag("Result"))
	}
	rec.SetTag("Result", ResultFor(w.Other()))
	if _, err := rec.Game(); err == nil {
		t.Fatal("a record naming the loser as the winner was taken")
	}
}

// BenchmarkGame8x8 plays seeded random 8x8 games through Game (each move
// checked by Play) and takes each game's record: the game layer that
// arena and selfplay play through.
func BenchmarkGame8x8(b *testing.B) {
	rng := newRand(1)
	var buf [MaxMoves]Move
	for b.Loop() {
		g, err := NewGame(8)
		if err != nil {
			b.Fatal(err)
		}
		for !g.Over() {
			ms := g.Position().LegalMoves(buf[:0])
			if err := g.Play(ms[rng.IntN(len(ms))]); err != nil {
				b.Fatal(err)
			}
		}
		if g.Record().Tag("Result") == Unfinished {
			b.Fatal("a finished game without a result")
		}
	}
}
