package main

import (
	"flag"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/konanezero/konane/rules"
)

// TestBoardFlag: --board (or its alias --size) reads a board with
// rules.ParseBoard; board checks it with the command's name, get
// refuses the rectangles and the boards above 8x8; an absent flag gives
// no board.
func TestBoardFlag(t *testing.T) {
	for _, tc := range []struct {
		args             []string
		board            rules.Board
		boardErr, getErr string
		size             int
	}{
		{args: nil},
		{args: []string{"--size", "6"}, board: rules.SquareBoard(6), size: 6},
		{args: []string{"--board", "6"}, board: rules.SquareBoard(6), size: 6},
		{args: []string{"--board", "8x8"}, board: rules.SquareBoard(8), size: 8},
		{args: []string{"--board", "size-7"}, board: rules.Board{W: 7, H: 6, Start: rules.Gap},
			getErr: "cmd: --board size-7: cmd plays the square boards 4x4 to 8x8 only yet"},
		{args: []string{"--board", "7x6/removal"}, board: rules.Board{W: 7, H: 6, Start: rules.Removal},
			getErr: "cmd: --board 7x6/removal: cmd plays the square boards 4x4 to 8x8 only yet"},
		{args: []string{"--size", "9"}, board: rules.SquareBoard(9),
			getErr: "cmd: --size 9: cmd plays the square boards 4x4 to 8x8 only yet"},
		{args: []string{"--board", "size-9"}, board: rules.Board{W: 9, H: 8, Start: rules.Gap},
			getErr: "cmd: --board size-9: cmd plays the square boards 4x4 to 8x8 only yet"},
		{args: []string{"--size", "0"}, boardErr: `cmd: --size 0: 0x0 is outside the boards 4x4..16x16`},
		{args: []string{"--board", "17x6"}, boardErr: `cmd: --board 17x6: 17x6 is outside the boards 4x4..16x16`},
		{args: []string{"--size", "six"}, boardErr: `cmd: --size six: unknown board: want N or WxH with sides 4..16`},
		{args: []string{"--board", "8/gap"}, boardErr: `cmd: --board 8/gap: the gap start needs exactly one of width and height odd`},
		{args: []string{"--board", "x y\n" + strings.Repeat("z", 200)}, boardErr: `cmd: --board "x y\nzzz`},
		{args: []string{"--board", "6", "--size", "6"}, boardErr: "cmd: --board and --size are the same flag: give one"},
		// --start folds into the board: the same as B/removal or B/gap.
		{args: []string{"--board", "7x6", "--start", "removal"}, board: rules.Board{W: 7, H: 6, Start: rules.Removal},
			getErr: "cmd: --board 7x6: cmd plays the square boards 4x4 to 8x8 only yet"},
		{args: []string{"--board", "size-7", "--start", "gap"}, board: rules.Board{W: 7, H: 6, Start: rules.Gap},
			getErr: "cmd: --board size-7: cmd plays the square boards"},
		{args: []string{"--board", "6", "--start", "removal"}, board: rules.SquareBoard(6), size: 6},
		{args: []string{"--board", "8", "--start", "gap"}, boardErr: "cmd: --board 8: the gap start needs exactly one of width and height odd"},
		{args: []string{"--board", "7x6/gap", "--start", "removal"}, boardErr: `cmd: --board 7x6/gap and --start "removal": give the start once`},
		{args: []string{"--start", "gap"}, boardErr: `cmd: --start "gap": give the board too`},
		{args: []string{"--board", "7x6", "--start", "sideways"}, boardErr: `cmd: --start "sideways": want removal or gap`},
	} {
		fs := flag.NewFlagSet("cmd", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		b := addBoardFlag(fs, "required")
		if err := fs.Parse(tc.args); err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		wantGiven := slices.Contains(tc.args, "--board") || slices.Contains(tc.args, "--size")
		if b.Given() != wantGiven {
			t.Errorf("%v: Given %v", tc.args, b.Given())
		}
		rb, given, err := b.board("cmd")
		if !matchErr(err, tc.boardErr) || err == nil && (rb != tc.board || given != wantGiven) {
			t.Errorf("%v: board %v %v %v, want %v %q", tc.args, rb, given, err, tc.board, tc.boardErr)
		}
		n, err := b.get("cmd")
		want := tc.boardErr + tc.getErr
		if !matchErr(err, want) || err == nil && n != tc.size {
			t.Errorf("%v: get %d %v, want %d %q", tc.args, n, err, tc.size, want)
		}
	}
}

// matchErr reports whether err is nil when want is "", else whether its
// text holds want.
func matchErr(err error, want string) bool {
	if want == "" {
		return err == nil
	}
	return err != nil && strings.Contains(err.Error(), want)
}

// TestBoardsHelpFromTable: the help of --board and the paragraph of the
// long helps name every AbstractPlay board of rules' table.
func TestBoardsHelpFromTable(t *testing.T) {
	help, para := boardHelp("x"), strings.Join(strings.Fields(boardsParagraph("")), " ")
	for _, rb := range rules.AbstractPlayBoards() {
		id, _ := rb.AbstractPlayID()
		if id == "" {
			id = "default"
		}
		if !strings.Contains(help, id) {
			t.Errorf("--board help lacks %s: %s", id, help)
		}
		if pair := id + " = " + rb.String(); !strings.Contains(para, pair) {
			t.Errorf("boards paragraph lacks %q: %s", pair, para)
		}
	}
}
