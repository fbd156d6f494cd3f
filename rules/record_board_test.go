package rules

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// TestRecordRectangle: a game on a rectangle writes [Board] and [Start]
// (JSON "board" and "start") and reads back the same; a square board's
// record keeps its [Size] alone.
func TestRecordRectangle(t *testing.T) {
	for _, tc := range []struct {
		board      string
		moves      []string
		text, json string
	}{
		{"size-7", []string{"d6-d4", "b5-d5"},
			"[Board \"7x6\"]\n[Start \"gap\"]\n[Event \"e\"]\n\n1. d6-d4 b5-d5 *\n",
			`{"board":"7x6","start":"gap","tags":[{"key":"Event","value":"e"}],"moves":["d6-d4","b5-d5"]}`},
		{"7x6/removal", []string{"d4", "c4"},
			"[Board \"7x6\"]\n[Start \"removal\"]\n[Event \"e\"]\n\n1. d4 c4 *\n",
			`{"board":"7x6","start":"removal","tags":[{"key":"Event","value":"e"}],"moves":["d4","c4"]}`},
		{"5x8", []string{"c7-c5"},
			"[Board \"5x8\"]\n[Start \"gap\"]\n[Event \"e\"]\n\n1. c7-c5 *\n",
			`{"board":"5x8","start":"gap","tags":[{"key":"Event","value":"e"}],"moves":["c7-c5"]}`},
		{"6", []string{"c3", "c4"},
			"[Size \"6\"]\n[Event \"e\"]\n\n1. c3 c4 *\n",
			`{"size":6,"tags":[{"key":"Event","value":"e"}],"moves":["c3","c4"]}`},
	} {
		b, err := ParseBoard(tc.board)
		if err != nil {
			t.Fatal(err)
		}
		g, err := NewBoardGame(b)
		if err != nil {
			t.Fatalf("%s: %v", tc.board, err)
		}
		for _, m := range tc.moves {
			if _, err := g.PlayText(m); err != nil {
				t.Fatalf("%s: %s: %v", tc.board, m, err)
			}
		}
		if g.Board() != b {
			t.Errorf("%s: game board %v", tc.board, g.Board())
		}
		r := g.Record(Tag{"Event", "e"})
		r.Tags = r.Tags[:1] // the Result tag, *, is the text's last word
		if r.Board() != b {
			t.Errorf("%s: record board %v", tc.board, r.Board())
		}
		text, err := r.MarshalText()
		if err != nil || string(text) != tc.text {
			t.Errorf("%s: text %v\n%s\nwant\n%s", tc.board, err, text, tc.text)
		}
		js, err := r.MarshalJSON()
		if err != nil || string(js) != tc.json {
			t.Errorf("%s: JSON %v\n%s\nwant\n%s", tc.board, err, js, tc.json)
		}
		for _, data := range [][]byte{text, js} {
			back, err := ParseRecord(data)
			if err != nil {
				t.Fatalf("%s: reading back: %v\n%s", tc.board, err, data)
			}
			if back.Tags = back.Tags[:1]; !reflect.DeepEqual(back, r) {
				t.Errorf("%s: read back %+v, want %+v", tc.board, back, r)
			}
			g2, err := back.Game()
			if err != nil || g2.Position() != g.Position() || g2.Board() != b {
				t.Errorf("%s: back as a game: %v", tc.board, err)
			}
		}
	}
}

// TestRecordBoardTagsRead: the ways the board may be written read as the
// one record: AbstractPlay's names, no [Start] (the board's default), a
// square [Board] (which is Size), [Start "removal"] on a square board.
func TestRecordBoardTagsRead(t *testing.T) {
	gap := Board{W: 7, H: 6, Start: Gap}
	for _, tc := range []struct {
		text string
		want Record
	}{
		{"[Board \"size-7\"]\n\n*\n", Record{Rect: gap}},
		{"[Board \"7x6\"]\n\n*\n", Record{Rect: gap}},
		{"[Start \"gap\"]\n[Board \"7X6\"]\n\n*\n", Record{Rect: gap}},
		{"[Board \"7x6/removal\"]\n\n*\n", Record{Rect: Board{W: 7, H: 6}}},
		{"[Board \"7x6\"]\n[Start \"removal\"]\n\n*\n", Record{Rect: Board{W: 7, H: 6}}},
		{"[Board \"6x6\"]\n\n*\n", Record{Size: 6}},
		{"[Board \"default\"]\n\n*\n", Record{Size: 6}},
		{"[Size \"8\"]\n[Start \"removal\"]\n\n*\n", Record{Size: 8}},
		{`{"board":"size-7","moves":[]}`, Record{Rect: gap}},
		{`{"board":"8x8","moves":[]}`, Record{Size: 8}},
		{`{"size":8,"start":"removal","moves":[]}`, Record{Size: 8}},
	} {
		r, err := ParseRecord([]byte(tc.text))
		if err != nil {
			t.Errorf("%q: %v", tc.text, err)
			continue
		}
		r.Tags = nil
		if !reflect.DeepEqual(*r, tc.want) {
			t.Errorf("%q: read %+v, want %+v", tc.text, *r, tc.want)
		}
	}
}

// TestRecordBoardErrors: a bad board, a start the board lacks, two
// boards, and moves that do not fit the board are one line each.
func TestRecordBoardErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"[Board \"7x6\"]\n\n1. g8-g6 *\n", `rules: record line 3: black's move 1 "g8-g6": square "g8" is off the 7x6 board`},
		{"[Board \"7x6\"]\n\n1. d6-d12 *\n", `rules: record line 3: black's move 1 "d6-d12": square "d12" is off the 7x6 board`},
		{"[Board \"7x6\"]\n\n1. d4 *\n", `rules: record line 3: black's move 1 "d4": `},
		{`{"board":"7x6","moves":["a9"]}`, `rules: record: black's move 1 "a9": square "a9" is off the 7x6 board`},
		{"[Board \"9x8\"]\n\n1. e6-e4 *\n", `rules: record line 3: black's move 1 "e6-e4": illegal move: black has no jump from e6 to e4`},
		{"[Board \"9x8\"]\n\n1. e7-e5 e2-e4 2. j1-h1 *\n", `rules: record line 3: black's move 2 "j1-h1": square "j1" is off the 9x8 board`},
		{"[Board \"17x6\"]\n\n*\n", "rules: record line 1: tag Board: 17x6 is outside the boards 4x4..16x16"},
		{"[Board \"seven\"]\n\n*\n", "rules: record line 1: tag Board: unknown board: want N or WxH"},
		{"[Board \"7x6\"]\n[Size \"6\"]\n\n*\n", "rules: record line 2: tags Size and Board: give one"},
		{"[Size \"6\"]\n[Start \"gap\"]\n\n*\n", "rules: record line 2: tag Start: the gap start needs exactly one of width and height odd"},
		{"[Board \"7x6\"]\n[Start \"middle\"]\n\n*\n", `rules: record line 2: tag Start "middle": want removal or gap`},
		{"[Start \"gap\"]\n\n*\n", `rules: record: no [Size "N"] tag before the moves`},
		{"[Board \"7x6\"]\n[Board \"7x6\"]\n\n*\n", "rules: record line 2: tag Board appears twice"},
		{`{"board":"7x6","size":6,"moves":[]}`, `rules: record: "size" and "board": give one`},
		{`{"size":6,"start":"gap","moves":[]}`, "rules: record: start: the gap start needs exactly one of width and height odd"},
		{`{"board":"11x8","moves":["q1"]}`, `rules: record: black's move 1 "q1": square "q1" is off the 11x8 board`},
		{`{"board":"16x16","moves":["a17"]}`, `rules: record: black's move 1 "a17": square "a17" is off the 16x16 board`},
	} {
		_, err := ParseRecord([]byte(tc.text))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: error %v, want %q", tc.text, err, tc.want)
		}
	}
	if _, err := ParseRecord([]byte("[Start \"gap\"]\n\n*\n")); !errors.Is(err, ErrNoSize) {
		t.Errorf("no board: %v, want ErrNoSize", err)
	}
}

// TestRecordWritersRejectBoards: the writers refuse the records whose
// board would not read back.
func TestRecordWritersRejectBoards(t *testing.T) {
	for _, tc := range []struct {
		r    Record
		want string
	}{
		{Record{Size: 6, Rect: Board{W: 7, H: 6, Start: Gap}}, "rules: record: size 6 and board 7x6: a record has one board"},
		{Record{Rect: Board{W: 6, H: 6}}, "rules: record: board 6x6 is square: a square board up to 8x8 is the record's Size"},
		{Record{Size: 10}, "rules: record: board size 10 outside 4..8"},
		{Record{Rect: Board{W: 9, H: 8, Start: Gap}, Moves: []Move{{}}}, "rules: record: board 9x8 has more than 8 files or ranks: its moves are the record's Wide moves"},
		{Record{Rect: Board{W: 7, H: 6, Start: Gap}, Wide: []WideMove{{}}}, "rules: record: board 7x6: its moves are the record's Moves, not Wide"},
		{Record{Rect: Board{W: 9, H: 8, Start: Gap}, Wide: []WideMove{{0, 0}}}, `rules: record: black's move 1 "a1": illegal move`},
		{Record{Rect: Board{W: 8, H: 6, Start: Gap}}, "rules: record: the gap start needs exactly one of width and height odd"},
		{Record{Size: 6, Tags: []Tag{{"Board", "7x6"}}}, `rules: record: "Board" is the record's Rect field, not a tag`},
		{Record{Size: 6, Tags: []Tag{{"Start", "gap"}}}, `rules: record: "Start" is the record's Rect field, not a tag`},
	} {
		_, errText := tc.r.MarshalText()
		_, errJSON := tc.r.MarshalJSON()
		for _, err := range []error{errText, errJSON} {
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("%+v: error %v, want %q", tc.r, err, tc.want)
			}
		}
	}
}

// TestNewBoardGameErrors: a board Position does not hold is refused in
// one line (a WideGame plays it).
func TestNewBoardGameErrors(t *testing.T) {
	if _, err := NewBoardGame(Board{W: 9, H: 8, Start: Gap}); err == nil || err.Error() != `rules: board "9x8": more than 8 files or ranks: a WideGame plays it` {
		t.Errorf("9x8: %v", err)
	}
	if _, err := NewWideGame(Board{W: 17, H: 8}); err == nil || !strings.Contains(err.Error(), "17 files: want 4..16") {
		t.Errorf("17x8: %v", err)
	}
	if _, err := NewBoardGame(Board{W: 8, H: 8, Start: Gap}); err == nil || !strings.Contains(err.Error(), "gap start") {
		t.Errorf("8x8/gap: %v", err)
	}
}
