package rules

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

func TestParseBoard(t *testing.T) {
	for _, tc := range []struct {
		text string
		want Board
	}{
		{"8", Board{8, 8, Removal}},
		{"8x8", Board{8, 8, Removal}},
		{" 4X4 ", Board{4, 4, Removal}},
		{"7x6", Board{7, 6, Gap}},
		{"6x7", Board{6, 7, Gap}},
		{"7x6/removal", Board{7, 6, Removal}},
		{"5x7", Board{5, 7, Removal}},
		{"16x16", Board{16, 16, Removal}},
		{"16x15/gap", Board{16, 15, Gap}},
		{"", Board{6, 6, Removal}},
		{"default", Board{6, 6, Removal}},
		{"size-7", Board{7, 6, Gap}},
		{"size-8", Board{8, 8, Removal}},
		{"size-9", Board{9, 8, Gap}},
		{"size-11", Board{11, 8, Gap}},
		{"size-15", Board{15, 12, Gap}},
		{"size-15/removal", Board{15, 12, Removal}},
	} {
		got, err := ParseBoard(tc.text)
		if err != nil || got != tc.want {
			t.Errorf("ParseBoard(%q) = %v, %v; want %v", tc.text, got, err, tc.want)
		}
	}
}

func TestParseBoardErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"9x9x9", `rules: board "9x9x9": unknown board: want N or WxH with sides 4..16, or an AbstractPlay variant`},
		{"size-10", `rules: board "size-10": unknown board`},
		{"3", `rules: board "3": 3x3 is outside the boards 4x4..16x16`},
		{"17x6", `rules: board "17x6": 17x6 is outside the boards 4x4..16x16`},
		{"8x99", `rules: board "8x99": 8x99 is outside`},
		{"8/gap", `rules: board "8/gap": the gap start needs exactly one of width and height odd`},
		{"7x7/gap", `rules: board "7x7/gap": the gap start needs exactly one of width and height odd`},
		{"7x6/naihe", `rules: board "7x6/naihe": unknown start: want removal or gap after the slash`},
		{"x", `rules: board "x": unknown board`},
	} {
		_, err := ParseBoard(tc.text)
		var be *BoardError
		if err == nil || !errors.As(err, &be) || !strings.HasPrefix(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("ParseBoard(%q) error = %v; want a *BoardError starting %q", tc.text, err, tc.want)
		}
	}
}

func TestBoardValidate(t *testing.T) {
	for _, tc := range []struct {
		b    Board
		want string
	}{
		{Board{3, 8, Removal}, "rules: board \"3x8\": 3 files: want 4..16"},
		{Board{8, 17, Removal}, "rules: board \"8x17\": 17 ranks: want 4..16"},
		{Board{8, 8, Gap}, "rules: board \"8x8\": the gap start needs exactly one of width and height odd"},
		{Board{8, 8, 7}, "rules: board \"8x8\": start 7 is neither removal nor gap"},
	} {
		if err := tc.b.Validate(); err == nil || err.Error() != tc.want+strings.TrimPrefix(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%+v.Validate() = %v; want %q", tc.b, err, tc.want)
		}
		if _, err := tc.b.Position(); err == nil {
			t.Errorf("%+v.Position() accepted an invalid board", tc.b)
		}
		if _, err := tc.b.WidePosition(); err == nil {
			t.Errorf("%+v.WidePosition() accepted an invalid board", tc.b)
		}
	}
}

// Every board round-trips through String and ParseBoard, and the default
// start is gap exactly where gap is defined.
func TestBoardStringRoundTrip(t *testing.T) {
	for w := MinSide; w <= MaxSide; w++ {
		for h := MinSide; h <= MaxSide; h++ {
			for _, s := range []Start{Removal, Gap} {
				b, err := NewBoard(w, h, s)
				if s == Gap && (w%2 == 1) == (h%2 == 1) {
					if err == nil {
						t.Errorf("NewBoard(%d, %d, gap) accepted", w, h)
					}
					continue
				}
				if err != nil {
					t.Fatalf("NewBoard(%d, %d, %v): %v", w, h, s, err)
				}
				got, err := ParseBoard(b.String())
				if err != nil || got != b {
					t.Errorf("ParseBoard(%q) = %v, %v; want %v", b.String(), got, err, b)
				}
			}
			if got, want := DefaultStart(w, h) == Gap, w%2 != h%2; got != want {
				t.Errorf("DefaultStart(%d, %d) = %v", w, h, DefaultStart(w, h))
			}
		}
	}
}

func TestAbstractPlayBoards(t *testing.T) {
	var got []string
	for _, b := range AbstractPlayBoards() {
		id, ok := b.AbstractPlayID()
		if !ok {
			t.Errorf("%v has no AbstractPlay id", b)
		}
		if id == "" {
			id = "default"
		}
		if p, err := ParseBoard(id); err != nil || p != b {
			t.Errorf("ParseBoard(%q) = %v, %v; want %v", id, p, err, b)
		}
		got = append(got, id+"="+b.String())
	}
	if want := "default=6x6 size-7=7x6 size-8=8x8 size-9=9x8 size-11=11x8 size-15=15x12"; strings.Join(got, " ") != want {
		t.Errorf("AbstractPlayBoards = %s; want %s", strings.Join(got, " "), want)
	}
	if _, ok := (Board{7, 6, Removal}).AbstractPlayID(); ok {
		t.Errorf("7x6 with the removals has an AbstractPlay id")
	}
}

// emptyNames lists the empty squares of a start in project notation.
func emptyNames(t *testing.T, b Board) string {
	t.Helper()
	p, err := b.WidePosition()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for e := p.Empty(); !e.IsZero(); {
		names = append(names, e.PopLSB().String())
	}
	return strings.Join(names, " ")
}

// The gap start removes exactly the two squares, and the narrow
// and wide starts agree.
func TestGapStart(t *testing.T) {
	for _, tc := range []struct {
		board, empty string
	}{
		{"7x6", "d3 d4"},
		{"9x8", "e4 e5"},
		{"11x8", "f4 f5"},
		{"15x12", "h6 h7"},
		{"6x7", "c4 d4"},
		{"8x15", "d8 e8"},
		{"5x4", "c2 c3"},
		{"16x13", "h7 i7"},
	} {
		b, err := ParseBoard(tc.board)
		if err != nil {
			t.Fatal(err)
		}
		if got := emptyNames(t, b); got != tc.empty {
			t.Errorf("%s gap start: empty %s; want %s", tc.board, got, tc.empty)
		}
		if b.Narrow() {
			p, err := b.Position()
			if err != nil {
				t.Fatal(err)
			}
			wp, _ := b.WidePosition()
			if p.Wide() != wp || p.Phase() != Jumping || p.Turn != Black {
				t.Errorf("%s: narrow start %+v does not match the wide one", tc.board, p)
			}
		}
	}
	if got := emptyNames(t, Board{7, 6, Removal}); got != "" {
		t.Errorf("7x6/removal starts with empty squares %s", got)
	}
}

// Black's removal squares: corners and centre holding a Black stone.
func TestRemovalSquares(t *testing.T) {
	for _, tc := range []struct{ board, want string }{
		{"6x6", "a1 c3 d4 f6"}, // AbstractPlay's 6x6: a1 c3 d4 f6
		{"8x8", "a1 d4 e5 h8"},
		{"5x7", "a1 e1 a7 e7"}, // the centre c4 is White's
		{"5x5", "a1 e1 c3 a5 e5"},
		{"7x6/removal", "a1 g1 d4"},
		{"4x5/removal", "a1 c3 a5"},
		{"9x8/removal", "a1 i1 e5"},
		{"16x16", "a1 h8 i9 p16"},
		{"15x12/removal", "a1 o1 h6"},
	} {
		b, err := ParseBoard(tc.board)
		if err != nil {
			t.Fatal(err)
		}
		p, _ := b.WidePosition()
		var got []string
		for _, m := range p.LegalMoves(nil) {
			got = append(got, m.String())
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%s: Black's removals %v; want %s", tc.board, got, tc.want)
		}
		if b.Narrow() {
			q, _ := b.Position()
			if n := MovesText(q.LegalMoves(nil)); n != tc.want {
				t.Errorf("%s: narrow Black's removals %s; want %s", tc.board, n, tc.want)
			}
		}
	}
}

func TestRectangleMoveNotation(t *testing.T) {
	b, _ := ParseBoard("7x6")
	p, _ := b.Position()
	for _, tc := range []struct{ text, want string }{
		{"d6-d4", ""},
		{"b4-d4", ""},
		{"f4-d4", ""},
		{"d5-d3", `rules: move "d5-d3": illegal move: the stone on d5 is white's, and black is to move`},
		{"b2-d2", `rules: move "b2-d2": illegal move: the landing square d2 is not empty`},
		{"h1", `rules: move "h1": square "h1" is off the 7x6 board`},
		{"a7", `rules: move "a7": square "a7" is off the 7x6 board`},
	} {
		_, err := ParseMove(p, tc.text)
		if got := errString(err); got != tc.want {
			t.Errorf("7x6 ParseMove(%q) = %q; want %q", tc.text, got, tc.want)
		}
	}
	w, _ := ParseBoard("15x12")
	wp, _ := w.WidePosition()
	for _, tc := range []struct{ text, want string }{
		{"h4-h6", ""},
		{"f6-h6", ""},
		{"j6-h6", ""},
		{"h8-h6", `rules: move "h8-h6": illegal move: black has no jump from h8 to h6`},
		{"h12-h10", `rules: move "h12-h10": illegal move: black has no jump from h12 to h10`},
		{"p1", `rules: move "p1": square "p1" is off the 15x12 board`},
		{"a13", `rules: move "a13": square "a13" is off the 15x12 board`},
		{"h6", `rules: move "h6": illegal move: the removals are over`},
	} {
		m, err := ParseWideMove(wp, tc.text)
		if got := errString(err); !strings.HasPrefix(got, tc.want) || (tc.want == "") != (got == "") {
			t.Errorf("15x12 ParseWideMove(%q) = %q; want %q", tc.text, got, tc.want)
		}
		if err == nil && m.String() != tc.text {
			t.Errorf("ParseWideMove(%q).String() = %q", tc.text, m)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// Position stays at four fields (the compiler keeps such a struct in
// registers; see its doc) and one word per colour.
func TestPositionLayout(t *testing.T) {
	if n := reflect.TypeOf(Position{}).NumField(); n != 4 {
		t.Errorf("Position has %d fields, want 4", n)
	}
	if size := unsafe.Sizeof(Position{}); size != 24 {
		t.Errorf("Position takes %d bytes, want 24", size)
	}
}
