package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/konanezero/konane/agent/agenttest"
	"github.com/konanezero/konane/internal/golden"
	"github.com/konanezero/konane/rules"
)

// configServers are the services whose config TestConfigBoards reads: the
// shipped models (the exact solver on 4x4 and 5x5, the networks on the
// boards of their table, the classical engine elsewhere), a multi-board model file
// trained on three of AbstractPlay's gap boards (7x6, 9x8, 15x12), and a
// table of networks (agent.EnginesOf) whose multi-board network, trained
// on 6x6 and those three, plays 6x6, 7x6 and 15x12 only (9x8, trained but
// not listed, stays the classical engine's, as do 7x7 and 8x8).
func configServers(t *testing.T) map[string]*testServer {
	gap := func(w, h int) rules.Board { return rules.Board{W: w, H: h, Start: rules.Gap} }
	return map[string]*testServer{
		"shipped": newTestServer(t, Config{}),
		"multi":   newTestServer(t, Config{Engines: agenttest.RunMultiBoard(t, gap(7, 6), gap(9, 8), gap(15, 12))}),
		"table": newTestServer(t, Config{Engines: agenttest.RunTable(t, []rules.Board{rules.SquareBoard(6), gap(7, 6), gap(9, 8), gap(15, 12)},
			rules.SquareBoard(6), gap(7, 6), gap(15, 12))}),
	}
}

// TestConfigGolden pins /api/v2/config of the shipped models' service,
// the boards with who plays each and what is given there:
// testdata/config.golden, byte for byte; -update rewrites it. (The
// multi-board service's, whose notes are the model file's words, is
// TestConfigBoards'.)
func TestConfigGolden(t *testing.T) {
	var c json.RawMessage
	newTestServer(t, Config{}).call(t, "/api/v2/config", "", &c)
	var out bytes.Buffer
	if err := json.Indent(&out, c, "", "  "); err != nil {
		t.Fatal(err)
	}
	out.WriteString("\n")
	golden.Check(t, "config.golden", out.Bytes())
}

// TestConfigBoards: config lists AbstractPlay's six boards first, then
// every other square board from 4x4 to 16x16, each once; the multi-board
// model's network plays the boards up to 8x8 and those above it was
// trained on, with a note where it was not trained; and what config says
// of a board is what a game there gets: a new game on each board listed
// is played by the classical engine exactly where config says so, has
// the coach where it says so, and the same note (the hints, reviews and
// the endgame solver: TestConfigAsPlayed).
func TestConfigBoards(t *testing.T) {
	servers := configServers(t)
	for name, want := range map[string]string{
		"multi": "6x6 network true, 7x6 network false, 8x8 network true, 9x8 network false, 11x8 classical false, 15x12 network false, 4x4 network true, 5x5 network true, 7x7 network true, 9x9 classical false",
		"table": "6x6 network false, 7x6 network false, 8x8 classical false, 9x8 classical false, 11x8 classical false, 15x12 network false, 4x4 solver false, 5x5 solver false, 7x7 classical false, 9x9 classical false",
	} {
		var c configJSON
		servers[name].call(t, "/api/v2/config", "", &c)
		var said []string
		for _, b := range c.Boards[:10] {
			said = append(said, fmt.Sprintf("%s %s %v", b.Board, b.Player, b.Note != ""))
		}
		if got := strings.Join(said, ", "); got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
	for name, ts := range servers {
		var c configJSON
		ts.call(t, "/api/v2/config", "", &c)
		var names []string
		for _, b := range c.Boards {
			names = append(names, b.Board)
		}
		want := "6x6 7x6 8x8 9x8 11x8 15x12 4x4 5x5 7x7 9x9 10x10 11x11 12x12 13x13 14x14 15x15 16x16"
		if strings.Join(names, " ") != want {
			t.Errorf("%s: boards %v, want %s", name, names, want)
		}
		for i, b := range c.Boards {
			rb, err := rules.ParseBoard(b.Board)
			if err != nil {
				t.Fatal(err)
			}
			if b.AbstractPlay != (i < 6) {
				t.Errorf("%s: %+v, the %dth board listed", name, b, i+1)
			}
			st := ts.mustState(t, "/api/v2/new", jsonBody(newRequest{Board: b.Board, Color: "black", Level: "newcomer"}))
			if st.Classical != (b.Player == "classical") || st.NoCoach == b.Coach || st.Note != b.Note || len(st.Board) != rb.H || len(st.Board[0]) != rb.W {
				t.Errorf("%s: config says %+v; a new game: classical %v, noCoach %v, note %q, %dx%d", name, b, st.Classical, st.NoCoach, st.Note, len(st.Board[0]), len(st.Board))
			}
		}
	}
}

// TestConfigAsPlayed: on one board of each kind (the exact solver's 4x4,
// the network's 6x6 and the classical engine's 10x10 of the shipped
// models, and the multi-board network's 15x12 above 8x8) the service
// does what config says of the board: a hint has a win probability
// where config says winProb, the review is the classical engine's where
// config says review "classical", and where config says endgameSolver
// on 4x4 (the exact solver plays the whole game) the hint is proven.
func TestConfigAsPlayed(t *testing.T) {
	servers := configServers(t)
	configs := map[string]map[string]boardInfoJSON{}
	for name, ts := range servers {
		var c configJSON
		ts.call(t, "/api/v2/config", "", &c)
		configs[name] = map[string]boardInfoJSON{}
		for _, b := range c.Boards {
			configs[name][b.Board] = b
		}
	}
	for _, tc := range []struct{ server, board, player string }{
		{"shipped", "4x4", "solver"}, {"shipped", "6x6", "network"}, {"shipped", "10x10", "classical"}, {"multi", "15x12", "network"},
		{"table", "15x12", "network"}, {"table", "9x8", "classical"}, {"table", "7x6", "network"},
	} {
		ts, b := servers[tc.server], configs[tc.server][tc.board]
		if b.Player != tc.player {
			t.Errorf("%s %s: config says %+v, want player %s", tc.server, tc.board, b, tc.player)
		}
		st := ts.mustState(t, "/api/v2/new", jsonBody(newRequest{Board: tc.board, Color: "black", Level: "newcomer"}))
		var h hintJSON
		if code := ts.call(t, "/api/v2/hint", jsonBody(gameRequest{st.Game}), &h); code != 200 || !contains(st.Legal, h.Move) {
			t.Fatalf("%s %s: hint %d %+v", tc.server, tc.board, code, h)
		}
		if (h.WinProb != nil) != b.WinProb {
			t.Errorf("%s %s: config says winProb %v, the hint %+v", tc.server, tc.board, b.WinProb, h)
		}
		if b.EndgameSolver && tc.board == "4x4" && !h.Proven {
			t.Errorf("%s %s: config says endgameSolver, the hint at the start is not proven: %+v", tc.server, tc.board, h)
		}
		st = ts.mustState(t, "/api/v2/move", jsonBody(moveRequest{Game: st.Game, Move: h.Move}))
		var rv reviewJSON
		if code := ts.call(t, "/api/v2/review", jsonBody(reviewRequest{Game: &st.Game}), &rv); code != 200 || len(rv.Moves) != len(st.Moves) {
			t.Fatalf("%s %s: review %d %+v", tc.server, tc.board, code, rv)
		}
		if rv.Classical != (b.Review == "classical") {
			t.Errorf("%s %s: config says review %q, the review's classical is %v", tc.server, tc.board, b.Review, rv.Classical)
		}
	}
}
