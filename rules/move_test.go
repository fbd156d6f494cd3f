package rules

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestParseMoveErrors gives each error path of ParseMove with the reason it
// must name.
func TestParseMoveErrors(t *testing.T) {
	start := NewPosition(8)
	afterD4 := mustPlay(t, start, "d4")
	jumping := mustPlay(t, start, "d4", "e4") // Black to move: b4-d4, d2-d4, d6-d4
	chain := mustDiagram(t, `
		6 . . . . . .
		5 . . . . . .
		4 . . . . . .
		3 . . . . . .
		2 . . . . . .
		1 x o . x . .
		  a b c d e f
		black to move`)
	crowded := mustDiagram(t, `
		6 . . . . . .
		5 . . . . . .
		4 . . . . . .
		3 . . . . . .
		2 . . . . . .
		1 x o o o . .
		  a b c d e f
		black to move`)
	for _, tc := range []struct {
		name    string
		pos     Position
		text    string
		want    string
		illegal bool // wraps ErrIllegal (well-formed but against the rules)
	}{
		{"empty", start, "", "empty", false},
		{"only spaces", start, "   ", "empty", false},
		{"one character", start, "d", `square "d": want a file letter and a rank number`, false},
		{"too long", start, "d444", `square "d444": want a file letter`, false},
		{"file not a letter", start, "44", `file '4' is not a letter`, false},
		{"file not ASCII", start, "\u00d04", `square "Ð4": file 'Ð' is not a letter from a to z`, false},
		{"rank not a number", start, "dd", `rank "d" is not a number`, false},
		{"file off board", start, "i4", `square "i4" is off the 8x8 board`, false},
		{"rank zero", start, "d0", `square "d0" is off the 8x8 board`, false},
		{"rank too high", start, "d9", `square "d9" is off the 8x8 board`, false},
		{"off a small board", NewPosition(4), "e1", `square "e1" is off the 4x4 board`, false},
		{"bad landing square", jumping, "b4-z4", `square "z4" is off the 8x8 board`, false},
		{"missing landing", jumping, "b4-", `square "": want a file letter`, false},
		{"black removes white stone", start, "b1", "Black must remove one of its own stones", true},
		{"black removes from the side", start, "c1", "Black's removal must be from a corner or a central square", true},
		{"black removes a central white stone", start, "e4", "Black must remove one of its own stones", true},
		{"white removes black stone", afterD4, "c3", "White must remove one of its own stones", true},
		{"white removes the hole", afterD4, "d4", "White must remove one of its own stones", true},
		{"white removes far from hole", afterD4, "b1", "White's removal must be orthogonally adjacent to the hole at d4", true},
		{"white removes diagonal to hole", afterD4, "e3", "White must remove one of its own stones", true},
		{"removal while jumping", jumping, "b4", "the removals are over", true},
		{"jump while removing", start, "b4-d4", "black must first remove a stone", true},
		{"jump during white removal", afterD4, "d6-d4", "white must first remove a stone", true},
		{"no stone on origin", jumping, "e4-c4", "no stone on e4", true},
		{"opponent's stone", jumping, "c4-e4", "the stone on c4 is white's, and black is to move", true},
		{"same square", jumping, "b4-b4", "origin and landing are the same square", true},
		{"diagonal", jumping, "b4-d6", "jumps go straight along a row or a column", true},
		{"odd distance", jumping, "b4-c4", "a jump moves an even number of squares", true},
		{"landing occupied", jumping, "b2-d2", "the landing square d2 is not empty", true},
		{"nothing to jump", chain, "d1-f1", "e1 does not hold an enemy stone to jump over", true},
		{"second landing occupied", crowded, "a1-e1", "c1 is not empty to land on", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := ParseMove(tc.pos, tc.text)
			if err == nil {
				t.Fatalf("ParseMove(%q) = %v, want an error", tc.text, m)
			}
			if m != NoMove {
				t.Errorf("move %v returned with the error", m)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, fmt.Sprintf("rules: move %q: ", tc.text)) || !strings.Contains(msg, tc.want) {
				t.Errorf("error %q, want the prefix rules: move %q and %q", msg, tc.text, tc.want)
			}
			if errors.Is(err, ErrIllegal) != tc.illegal {
				t.Errorf("errors.Is(err, ErrIllegal) = %v, want %v", errors.Is(err, ErrIllegal), tc.illegal)
			}
		})
	}
}

// TestParseMoveAccepts: spaces around and upper-case files are accepted.
func TestParseMoveAccepts(t *testing.T) {
	jumping := mustPlay(t, NewPosition(8), "d4", "e4")
	for _, text := range []string{"b4-d4", " b4-d4 ", "B4-D4", "\tb4-d4\n"} {
		m, err := ParseMove(jumping, text)
		if err != nil || m.String() != "b4-d4" {
			t.Errorf("ParseMove(%q) = %v, %v; want b4-d4", text, m, err)
		}
	}
}

// TestParseMoveIsLegality: on a sample of positions, ParseMove accepts the
// text of every pair of squares exactly when the move is legal, returns
// that move, and String of every legal move reads back as the same move.
func TestParseMoveIsLegality(t *testing.T) {
	for i, p := range testPositions(t, 12) {
		legal := map[Move]bool{}
		for _, m := range p.LegalMoves(nil) {
			legal[m] = true
			back, err := ParseMove(p, m.String())
			if err != nil || back != m {
				t.Fatalf("position\n%v\nParseMove(%q) = %v, %v", p, m.String(), back, err)
			}
		}
		if i%40 != 0 {
			continue // every pair of squares on part of the sample
		}
		n := int(p.Size)
		for a := Square(0); a < 64; a++ {
			for b := Square(0); b < 64; b++ {
				if a.Row() >= n || a.Col() >= n || b.Row() >= n || b.Col() >= n {
					continue
				}
				m := Move{a, b}
				got, err := ParseMove(p, m.String())
				if (err == nil) != legal[m] || (err == nil && got != m) {
					t.Fatalf("position\n%v\nParseMove(%q) = %v, %v; legal: %v", p, m.String(), got, err, legal[m])
				}
			}
		}
	}
}

// TestMoveBasics pins String, Hops, Direction and IsRemoval.
func TestMoveBasics(t *testing.T) {
	sq := func(s string) Square {
		x, err := ParseSquare(s, 8)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	for _, tc := range []struct {
		m       Move
		text    string
		hops    int
		dir     Direction
		removal bool
	}{
		{Move{sq("d4"), sq("d4")}, "d4", 0, West, true},
		{Move{sq("b4"), sq("d4")}, "b4-d4", 1, East, false},
		{Move{sq("h1"), sq("b1")}, "h1-b1", 3, West, false},
		{Move{sq("a1"), sq("a5")}, "a1-a5", 2, North, false},
		{Move{sq("c8"), sq("c6")}, "c8-c6", 1, South, false},
	} {
		if tc.m.String() != tc.text || tc.m.Hops() != tc.hops || tc.m.IsRemoval() != tc.removal ||
			(!tc.removal && tc.m.Direction() != tc.dir) {
			t.Errorf("%s: String %q Hops %d Direction %v IsRemoval %v", tc.text, tc.m, tc.m.Hops(), tc.m.Direction(), tc.m.IsRemoval())
		}
	}
	if NoMove.String() != "none" {
		t.Errorf("NoMove prints as %q", NoMove.String())
	}
}

// FuzzParseMove parses arbitrary text in a position reached by a seeded
// random game: it must not panic; an accepted move must be legal and its
// String must read back as the same move.
func FuzzParseMove(f *testing.F) {
	for _, seed := range []struct {
		game  uint64
		plies uint8
		text  string
	}{
		{1, 0, "d4"}, {1, 1, "e4"}, {2, 2, "b4-d4"}, {3, 5, "f4-d4"}, {4, 9, "a1-a9"},
		{5, 3, "D4-d6"}, {6, 0, ""}, {7, 4, "-"}, {8, 6, "z99-a1"}, {9, 7, "a1-a1"},
	} {
		f.Add(seed.game, seed.plies, seed.text)
	}
	f.Fuzz(func(t *testing.T, game uint64, plies uint8, text string) {
		rng := newRand(game)
		ps, _ := Playout(rng, NewPosition(MinSize+int(game%(MaxSize-MinSize+1))), int(plies))
		p := ps[len(ps)-1]
		m, err := ParseMove(p, text)
		if err != nil {
			if m != NoMove || !strings.HasPrefix(err.Error(), "rules: move ") {
				t.Fatalf("ParseMove(%q) = %v, %v", text, m, err)
			}
			return
		}
		if !p.Legal(m) {
			t.Fatalf("ParseMove(%q) accepted %v, which is not legal in\n%v", text, m, p)
		}
		back, err := ParseMove(p, m.String())
		if err != nil || back != m {
			t.Fatalf("ParseMove(%q) = %v, but its String reads back as %v, %v", text, m, back, err)
		}
	})
}

func ExampleParseMove() {
	p := NewPosition(8)
	for _, text := range []string{"d4", "e4", "b4-d4", "c4-e4", "e6-e4", "d4", "g5-g3"} {
		m, err := ParseMove(p, text)
		if err != nil {
			fmt.Println(err)
			continue
		}
		p = p.Play(m)
		fmt.Println("played", m)
	}
	// Output:
	// played d4
	// played e4
	// played b4-d4
	// rules: move "c4-e4": illegal move: no stone on c4
	// played e6-e4
	// rules: move "d4": illegal move: the removals are over; a jump is written origin-landing, like f4-d4
	// rules: move "g5-g3": illegal move: the landing square g3 is not empty
}

// TestMoveError: ParseMove's errors carry the move as given and the reason
// in a *MoveError, for interfaces to phrase.
func TestMoveError(t *testing.T) {
	_, err := ParseMove(NewPosition(6), " b1 ")
	var me *MoveError
	if !errors.As(err, &me) || me.Text != " b1 " || !errors.Is(err, ErrIllegal) ||
		me.Err.Error() != "illegal move: Black must remove one of its own stones" ||
		err.Error() != `rules: move " b1 ": illegal move: Black must remove one of its own stones` {
		t.Errorf("ParseMove(b1): %#v", err)
	}
}

func TestMovesText(t *testing.T) {
	p := NewPosition(6)
	var ms []Move
	for _, text := range []string{"c3", "c4", "a3-c3"} {
		m, err := ParseMove(p, text)
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
		p = p.Play(m)
	}
	if got := MovesText(ms); got != "c3 c4 a3-c3" {
		t.Errorf("MovesText = %q", got)
	}
	if got := MoveStrings(nil); got == nil || len(got) != 0 {
		t.Errorf("MoveStrings(nil) = %#v, want an empty list (JSON [])", got)
	}
}
