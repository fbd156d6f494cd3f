package rules

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// randomWideGame plays a seeded random game on b with a WideGame, to the
// end or, on odd seeds, stopping early (then resigning on seeds 1 mod 4),
// with a comment on some moves.
func randomWideGame(t *testing.T, seed uint64, b Board) *WideGame {
	t.Helper()
	rng := newRand(seed)
	g, err := NewWideGame(b)
	if err != nil {
		t.Fatal(err)
	}
	stop := -1
	if seed%2 == 1 {
		stop = rng.IntN(40)
	}
	var buf [WideMaxMoves]WideMove
	for !g.Over() && g.Len() != stop {
		moves := g.Position().LegalMoves(buf[:0])
		if err := g.Play(moves[rng.IntN(len(moves))]); err != nil {
			t.Fatal(err)
		}
		if rng.IntN(5) == 0 {
			g.SetComment(fmt.Sprintf("note %d", g.Len()))
		}
	}
	if seed%4 == 1 && !g.Over() {
		if err := g.Resign(Color(rng.IntN(2))); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// TestWideGameAgreesWithGame: on the boards Position holds, a WideGame
// fed the same moves as a Game agrees with it after every move (over,
// outcome, the last move, take-backs) and its record is the Game's, byte
// for byte.
func TestWideGameAgreesWithGame(t *testing.T) {
	for _, name := range []string{"4", "6", "8", "7x6", "7x6/removal", "5x8", "4x7/removal"} {
		b, err := ParseBoard(name)
		if err != nil {
			t.Fatal(err)
		}
		for seed := uint64(0); seed < 8; seed++ {
			wg := randomWideGame(t, seed, b)
			g, err := NewBoardGame(b)
			if err != nil {
				t.Fatal(err)
			}
			wps := wg.Positions()
			for i, m := range wg.Moves() {
				if err := g.Play(m.Narrow()); err != nil {
					t.Fatalf("%s seed %d move %d %v: %v", name, seed, i+1, m, err)
				}
				if wg.comments != nil {
					g.SetComment(wg.comments[i])
				}
				if g.Over() != !wps[i+1].HasMoves() {
					t.Fatalf("%s seed %d: over %v after move %d, wide has moves %v", name, seed, g.Over(), i+1, wps[i+1].HasMoves())
				}
				if g.Draw() != RenderWide(wps[i+1], m) || g.Turn() != wps[i+1].Turn {
					t.Fatalf("%s seed %d: after move %d drawn\n%s\nturn %v", name, seed, i+1, g.Draw(), g.Turn())
				}
			}
			if wg.resigned {
				if err := g.Resign(wg.loser); err != nil {
					t.Fatal(err)
				}
			}
			w1, m1 := g.Outcome()
			w2, m2 := wg.Outcome()
			if w1 != w2 || m1 != m2 {
				t.Errorf("%s seed %d: outcome %v %v, wide %v %v", name, seed, w1, m1, w2, m2)
			}
			if last, ok := wg.Last(); ok && last.Narrow() != g.Last() {
				t.Errorf("%s seed %d: last %v, wide %v", name, seed, g.Last(), last)
			}
			if g.Position().Wide() != wg.Position() {
				t.Errorf("%s seed %d: positions differ", name, seed)
			}
			tags := []Tag{{"Event", "agree"}}
			text, err := g.Record(tags...).MarshalText()
			if err != nil {
				t.Fatal(err)
			}
			wtext, err := wg.Record(tags...).MarshalText()
			if err != nil || string(wtext) != string(text) {
				t.Errorf("%s seed %d: wide record %v\n%s\nwant\n%s", name, seed, err, wtext, text)
			}
			var games [2]AnyGame = [2]AnyGame{g, wg}
			if games[0].Draw() != games[1].Draw() || !slices.Equal(games[0].LegalStrings(), games[1].LegalStrings()) || games[0].Turn() != games[1].Turn() {
				t.Errorf("%s seed %d: as AnyGame: %v %v, wide %v %v", name, seed, games[0].Turn(), games[0].LegalStrings(), games[1].Turn(), games[1].LegalStrings())
			}
			u1, ok1 := games[0].UndoString()
			u2, ok2 := games[1].UndoString()
			if u1 != u2 || ok1 != ok2 || ok1 != (wg.Len() < len(wps)-1) {
				t.Errorf("%s seed %d: undo %q %v, wide %q %v", name, seed, u1, ok1, u2, ok2)
			}
			for _, c := range []Color{Black, White} {
				n1, n2 := g.TakeBackStrings(c), wg.TakeBackStrings(c)
				if !slices.Equal(n1, n2) || g.Len() != wg.Len() || g.Over() != wg.Over() {
					t.Errorf("%s seed %d: take back %v: %v, wide %v", name, seed, c, n1, n2)
				}
			}
		}
	}
}

// TestWideRecordRoundTrip: games on the boards Position does not hold
// write in both formats ([Board "WxH"] [Start], moves like h12-h10) and
// read back as the same record, and as the same game.
func TestWideRecordRoundTrip(t *testing.T) {
	twoDigitRank := false
	for _, name := range []string{"size-9", "size-11", "size-15", "16x16", "10x10", "9x9", "12x5", "9x8/removal"} {
		b, err := ParseBoard(name)
		if err != nil {
			t.Fatal(err)
		}
		for seed := uint64(0); seed < 4; seed++ {
			g := randomWideGame(t, seed, b)
			r := g.Record(Tag{"Event", "wide " + name})
			if len(r.Moves) != 0 || len(r.Wide) != g.Len() || r.Board() != b {
				t.Fatalf("%s: record of %d moves, %d wide, board %v", name, len(r.Moves), len(r.Wide), r.Board())
			}
			text, err := r.MarshalText()
			if err != nil {
				t.Fatalf("%s seed %d: %v", name, seed, err)
			}
			if want := fmt.Sprintf("[Board \"%dx%d\"]\n[Start %q]\n", b.W, b.H, b.Start.String()); !strings.HasPrefix(string(text), want) {
				t.Errorf("%s: text starts\n%s\nwant\n%s", name, text, want)
			}
			js, err := r.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			for _, data := range [][]byte{text, js} {
				back, err := ParseRecord(data)
				if err != nil {
					t.Fatalf("%s seed %d: reading back: %v\n%s", name, seed, err, data)
				}
				if !reflect.DeepEqual(back, r) {
					t.Fatalf("%s seed %d: read back %+v, want %+v", name, seed, back, r)
				}
				g2, err := back.WideGame()
				if err != nil {
					t.Fatal(err)
				}
				w1, m1 := g.Outcome()
				w2, m2 := g2.Outcome()
				if g2.Position() != g.Position() || g2.Board() != b || w1 != w2 || m1 != m2 {
					t.Errorf("%s seed %d: back as a game: board %v, outcome %v %v, want %v %v", name, seed, g2.Board(), w2, m2, w1, m1)
				}
				if _, err := back.Game(); !errors.Is(err, ErrWideBoard) || strings.Contains(err.Error(), "\n") {
					t.Errorf("%s: as a narrow Game: %v", name, err)
				}
			}
			for _, s := range r.MoveStrings() {
				from, _, _ := strings.Cut(s, "-")
				twoDigitRank = twoDigitRank || len(from) == 3
			}
		}
	}
	if !twoDigitRank {
		t.Error("no move from a rank of two digits in the games")
	}
}

// TestWideGameOutcome: a WideGame ends as a Game does, the side to move
// without a jump losing, and refuses moves after the end.
func TestWideGameOutcome(t *testing.T) {
	b := Board{W: 15, H: 12, Start: Gap}
	g := randomWideGame(t, 2, b)
	if !g.Over() {
		t.Fatal("an even seed plays to the end")
	}
	w, method := g.Outcome()
	if p := g.Position(); method != NoMoveLeft || w != p.Turn.Other() || p.HasMoves() {
		t.Errorf("outcome %v %v with %v to move", w, method, p.Turn)
	}
	var over *GameOverError
	if m, err := g.PlayText("h12-h10"); !errors.As(err, &over) || over.Winner != w || m != NoWideMove {
		t.Errorf("a move after the end: %v, %v; want NoWideMove", m, err)
	}
	if res := g.Record().Tag("Result"); res != ResultFor(w) {
		t.Errorf("result %q", res)
	}
	g2, _ := NewWideGame(b)
	if m, err := g2.PlayText("h12-h10"); err == nil || !strings.Contains(err.Error(), "black has no jump from h12 to h10") || m != NoWideMove {
		t.Errorf("an illegal first move: %v, %v; want NoWideMove", m, err)
	}
	if m, err := g2.PlayText("h4-h6"); err != nil || m != (WideMove{WideSquareAt(3, 7), WideSquareAt(5, 7)}) {
		t.Errorf("h4-h6: %v %v", m, err)
	}
}

// TestWideGameOfNarrowRecord: the record of a game on a board Position
// holds (squares and rectangles up to 8x8) read as a WideGame is the same
// game: its moves, their count, the side to move and the outcome.
func TestWideGameOfNarrowRecord(t *testing.T) {
	for _, name := range []string{"6x6", "7x6", "8x8"} {
		b, err := ParseBoard(name)
		if err != nil {
			t.Fatal(err)
		}
		for seed := range uint64(4) {
			g := randomWideGame(t, seed, b)
			narrow, err := g.Record().Game()
			if err != nil {
				t.Fatal(err)
			}
			r := narrow.Record()
			if len(r.Moves) == 0 {
				t.Fatalf("%s: the narrow record has no Moves", name)
			}
			wg, err := r.WideGame()
			if err != nil {
				t.Fatal(err)
			}
			w1, m1 := narrow.Outcome()
			w2, m2 := wg.Outcome()
			if wg.Len() != narrow.Len() || !reflect.DeepEqual(wg.Record().MoveStrings(), r.MoveStrings()) || w1 != w2 || m1 != m2 {
				t.Errorf("%s seed %d: as a WideGame %d moves %v, outcome %v %v; as a Game %d moves %v, outcome %v %v",
					name, seed, wg.Len(), wg.Record().MoveStrings(), w2, m2, narrow.Len(), r.MoveStrings(), w1, m1)
			}
		}
	}
}

// TestAnyGameMovesAndPosition: a Game and a WideGame playing the same
// moves give the same MoveStrings and WidePosition.
func TestAnyGameMovesAndPosition(t *testing.T) {
	b := Board{W: 7, H: 6, Start: Gap}
	g, err := NewBoardGame(b)
	if err != nil {
		t.Fatal(err)
	}
	w, err := NewWideGame(b)
	if err != nil {
		t.Fatal(err)
	}
	var played []string
	for _, a := range []AnyGame{g, w} {
		if got := a.MoveStrings(); got == nil || len(got) != 0 {
			t.Errorf("%T before a move: MoveStrings %#v, want an empty list", a, got)
		}
	}
	for !g.Over() && len(played) < 12 {
		text := g.LegalStrings()[len(played)%len(g.LegalStrings())]
		if _, err := g.PlayString(text); err != nil {
			t.Fatal(err)
		}
		if _, err := w.PlayString(text); err != nil {
			t.Fatal(err)
		}
		played = append(played, text)
		if !slices.Equal(g.MoveStrings(), played) || !slices.Equal(w.MoveStrings(), played) {
			t.Fatalf("after %v: MoveStrings %v and %v", played, g.MoveStrings(), w.MoveStrings())
		}
		if g.WidePosition() != g.Position().Wide() || w.WidePosition() != g.WidePosition() {
			t.Fatalf("after %v: the wide positions differ", played)
		}
	}
}

// TestNewAnyGame: a *Game on the boards a Position holds, a *WideGame
// above, each at its board's start; a bad board is refused by name.
func TestNewAnyGame(t *testing.T) {
	for _, b := range AbstractPlayBoards() {
		g, err := NewAnyGame(b)
		if err != nil {
			t.Fatal(err)
		}
		_, narrow := g.(*Game)
		if start, _ := b.WidePosition(); narrow != b.Narrow() || g.Board() != b || g.WidePosition() != start {
			t.Errorf("%s: %T on %v", b, g, g.Board())
		}
	}
	if _, err := NewAnyGame(Board{W: 17, H: 4}); err == nil || !strings.Contains(err.Error(), "17") {
		t.Errorf("a 17x4 board: %v", err)
	}
}
