package api

import (
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/konanezero/konane/agent/agenttest"
	"github.com/konanezero/konane/rules"
)

// checkBoardState replays the state's moves on its board through the
// rules and checks the board drawn, the turn and the legal moves.
func checkBoardState(t *testing.T, st stateJSON, b rules.Board) {
	t.Helper()
	g, err := rules.NewAnyGame(b)
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range st.Moves {
		if _, err := g.PlayString(text); err != nil {
			t.Fatalf("move %d of the state on %v: %v", i+1, b, err)
		}
	}
	rows := WideRows(g.WidePosition())
	if strings.Join(rows, "/") != strings.Join(st.Board, "/") || len(rows) != b.H || len(rows[0]) != b.W {
		t.Errorf("board on %v:\n%v\nwant\n%v", b, st.Board, rows)
	}
	if st.Turn != g.Turn().String() || st.Over != g.Over() {
		t.Errorf("turn %s over %v; want %s %v", st.Turn, st.Over, g.Turn(), g.Over())
	}
	if st.Turn == st.Human && !st.Over && strings.Join(st.Legal, " ") != strings.Join(g.LegalStrings(), " ") {
		t.Errorf("legal %v; want %v", st.Legal, g.LegalStrings())
	}
}

// TestBoards: every board is played, the ones without a network (boards
// no shipped network plays) by the classical engine, which the state says (and gives no evaluation); the
// game's code carries the board and reads back.
func TestBoards(t *testing.T) {
	ts := newTestServer(t, Config{})
	for _, tc := range []struct {
		req       string
		board     rules.Board
		classical bool
	}{
		{`{"board":"8x7","color":"black","level":"newcomer"}`, rules.Board{W: 8, H: 7, Start: rules.Gap}, true},
		{`{"board":"13x12","color":"white","level":"newcomer"}`, rules.Board{W: 13, H: 12, Start: rules.Gap}, true},
		{`{"board":"16x16","color":"black","level":"newcomer"}`, rules.SquareBoard(16), true},
		{`{"board":"9x8/removal","color":"white","level":"newcomer"}`, rules.Board{W: 9, H: 8, Start: rules.Removal}, true},
		{`{"size":9,"color":"white","level":"newcomer"}`, rules.SquareBoard(9), true},
		{`{"board":"4x5","color":"white","level":"newcomer"}`, rules.Board{W: 4, H: 5, Start: rules.Gap}, true},
		{`{"board":"6","color":"black","level":"newcomer"}`, rules.SquareBoard(6), false},
		{`{"size":6,"board":"6x6","color":"white","level":"newcomer"}`, rules.SquareBoard(6), false},
	} {
		st := ts.mustState(t, "/api/v2/new", tc.req)
		for i := 0; i < 3 && !st.Over; i++ {
			checkBoardState(t, st, tc.board)
			if st.Classical != tc.classical {
				t.Fatalf("%s: classical %v", tc.req, st.Classical)
			}
			if tc.classical && st.Eval != nil {
				t.Errorf("%s: the classical engine's move has an evaluation %+v", tc.req, st.Eval)
			}
			if (st.Game.Board == "") != (tc.board == rules.SquareBoard(tc.board.W)) || st.Size != tc.board.W || st.Game.Size != 0 && st.Game.Size != tc.board.W {
				t.Errorf("%s: game %+v, size %d", tc.req, st.Game, st.Size)
			}
			code := encodeGame(st.Game)
			if back, err := decodeGame(code); err != nil || jsonBody(back) != jsonBody(st.Game) {
				t.Fatalf("game code %s reads back as %+v, %v; want %+v", code, back, err, st.Game)
			}
			if strings.ContainsAny(code, "#%&?/ +") {
				t.Fatalf("game code %q needs escaping in a URL", code)
			}
			st = ts.mustState(t, "/api/v2/move", jsonBody(moveRequest{Game: st.Game, Move: st.Legal[len(st.Legal)-1]}))
		}
		checkBoardState(t, st, tc.board)
	}
}

// TestBoardHintAndRecord: a hint on a board without a network names a
// legal move and no win probability; the record download names the
// board in its file name and its tags.
func TestBoardHintAndRecord(t *testing.T) {
	ts := newTestServer(t, Config{})
	st := ts.mustState(t, "/api/v2/new", `{"board":"10x9","color":"black","level":"newcomer"}`)
	var h hintJSON
	if code := ts.call(t, "/api/v2/hint", jsonBody(gameRequest{st.Game}), &h); code != 200 || !contains(st.Legal, h.Move) || h.WinProb != nil {
		t.Errorf("hint on 10x9: %d %+v (legal %v)", code, h, st.Legal)
	}
	st = ts.mustState(t, "/api/v2/move", jsonBody(moveRequest{Game: st.Game, Move: h.Move}))
	resp, err := http.Get(ts.url + "/api/v2/record?g=" + encodeGame(st.Game))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Disposition"), `filename="konane-10x9-`) {
		t.Fatalf("record: %d %q", resp.StatusCode, resp.Header.Get("Content-Disposition"))
	}
	rec, err := rules.ParseRecord(body)
	if err != nil || rec.Board() != (rules.Board{W: 10, H: 9, Start: rules.Gap}) || len(rec.Moves)+len(rec.Wide) != len(st.Moves) {
		t.Errorf("record of 10x9 reads as %v, %v:\n%s", rec, err, body)
	}
	// No network plays 10x9: the classical engine reviews the game and
	// its record, the board named, a board and a probability per
	// position, the moves as played.
	for _, req := range []string{jsonBody(reviewRequest{Game: &st.Game}), jsonBody(reviewRequest{Record: string(body)})} {
		var rv reviewJSON
		if code := ts.call(t, "/api/v2/review", req, &rv); code != 200 || rv.Board != "10x9" || rv.Start != "gap" || !rv.Classical || rv.Sims != 0 || rv.Size != 0 ||
			len(rv.Moves) != len(st.Moves) || len(rv.Boards) != len(st.Moves)+1 || len(rv.Black) != len(st.Moves)+1 {
			t.Fatalf("review of a 10x9 game: %d %+v", code, rv)
		}
		for i, m := range rv.Moves {
			if m.Move != st.Moves[i] || m.Line[0] != m.Move || m.Best == "" || len(m.Candidates) != 0 || m.Before < 0 || m.Before > 1 {
				t.Errorf("review of a 10x9 game: move %d %+v, played %s", i+1, m, st.Moves[i])
			}
		}
		if got, want := rv.Boards[len(rv.Boards)-1], st.Board; !slices.Equal(got, want) {
			t.Errorf("review of a 10x9 game: the last board %q, the state's %q", got, want)
		}
	}
}

// TestGameCodeWide: version 2 codes carry the board and its start;
// version 1 codes (every link written before) read as before; a code's
// board out of range is refused naming it.
func TestGameCodeWide(t *testing.T) {
	for code, want := range map[string]gameJSON{
		"2.15x12gb.medium.0.h8-h6":    {Board: "15x12", Human: "black", Level: "medium", Moves: []string{"h8-h6"}},
		"2.9x8rw.easy.2.e4.e5.resign": {Board: "9x8/removal", Human: "white", Level: "easy", Start: 2, Moves: []string{"e4", "e5"}, Resigned: true},
		"2.16x16rb.easy.0":            {Size: 16, Human: "black", Level: "easy", Moves: []string{}},
		"2.8x8rb.easy.0.d5":           {Size: 8, Human: "black", Level: "easy", Moves: []string{"d5"}},
		"1.8b.easy.0.d5":              {Size: 8, Human: "black", Level: "easy", Moves: []string{"d5"}},
	} {
		got, err := decodeGame(code)
		if err != nil || jsonBody(got) != jsonBody(want) {
			t.Errorf("decodeGame(%q) = %+v, %v; want %+v", code, got, err, want)
		}
		if again, err := decodeGame(encodeGame(got)); err != nil || jsonBody(again) != jsonBody(got) {
			t.Errorf("%q: encodes as %q, reading back as %+v, %v", code, encodeGame(got), again, err)
		}
	}
	if got := encodeGame(gameJSON{Board: "7x6", Human: "white", Level: "hard", Moves: []string{"c3-c5"}}); got != "2.7x6gw.hard.0.c3-c5" {
		t.Errorf("encodeGame on 7x6 = %q", got)
	}
	for _, bad := range []string{"2.8x8gb.easy.0", "2.17x6gb.easy.0", "2.3x6gb.easy.0", "2.7x6b.easy.0", "2.7x6xb.easy.0", "2.7x6gq.easy.0", "3.7x6gb.easy.0", "2.7x6gb.easy.x"} {
		if _, err := decodeGame(bad); err == nil {
			t.Errorf("decodeGame(%q) took it", bad)
		}
	}
	ts := newTestServer(t, Config{})
	var e errJSON
	if code := ts.call(t, "/api/v2/record?g=2.17x6gb.easy.0", "", &e); code != http.StatusBadRequest || e.Code != "error.board" || !strings.Contains(e.Error, "“17x6”") {
		t.Errorf("record of a 17x6 code: %d %+v", code, e)
	}
}

// TestClassicalWeighs: a search of the classical engine weighs one
// search of the default level in the admission, whatever the level (it
// takes a core and its tables): with one unit short of the budget taken,
// the agent's newcomer move (one simulation) runs, the classical
// engine's newcomer move is refused.
func TestClassicalWeighs(t *testing.T) {
	ts := newTestServer(t, Config{Searches: 1, QueueWait: 10 * time.Millisecond})
	release, err := ts.admit.acquire(t.Context(), "192.0.2.1", ts.classicalSims-1)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	var st stateJSON
	if code := ts.call(t, "/api/v2/new", `{"size":6,"color":"white","level":"newcomer"}`, &st); code != 200 || len(st.Moves) != 1 {
		t.Errorf("the agent's move on 6x6: %d, moves %v", code, st.Moves)
	}
	var e errJSON
	if code := ts.call(t, "/api/v2/new", `{"board":"8x7","color":"white","level":"newcomer"}`, &e); code != http.StatusServiceUnavailable || e.Code != "error.busy" {
		t.Errorf("the classical engine's move on 8x7 in a full server: %d %+v", code, e)
	}
}

// TestBoardRows: the rows of a 4x4 position after the removals a1 and
// b1, top rank first, x for Black (a1's stone), o for White and . for an
// empty square.
func TestBoardRows(t *testing.T) {
	p := rules.NewPosition(4)
	for _, text := range []string{"a1", "b1"} {
		m, err := rules.ParseMove(p, text)
		if err != nil {
			t.Fatal(err)
		}
		p = p.Play(m)
	}
	want := []string{"oxox", "xoxo", "oxox", "..xo"}
	if got := BoardRows(p); strings.Join(got, "/") != strings.Join(want, "/") {
		t.Errorf("BoardRows = %v, want %v", got, want)
	}
}

// TestMultiBoardModelRectangles: with a multi-board model file the
// network plays the rectangles it encodes (its moves come with an
// evaluation; the state's note says when it was not trained there), the
// classical engine the boards above 8x8.
func TestMultiBoardModelRectangles(t *testing.T) {
	es := agenttest.RunMultiBoard(t, rules.SquareBoard(6), rules.Board{W: 7, H: 6, Start: rules.Gap})
	ts := newTestServer(t, Config{Engines: es})
	for _, tc := range []struct {
		req       string
		board     rules.Board
		classical bool
		note      string
	}{
		{`{"board":"7x6","color":"white","level":"newcomer"}`, rules.Board{W: 7, H: 6, Start: rules.Gap}, false, ""},
		{`{"board":"8x7","color":"white","level":"newcomer"}`, rules.Board{W: 8, H: 7, Start: rules.Gap}, false, "the network was not trained on 8x7 (it was on 6x6,7x6)"},
		{`{"board":"9x8","color":"white","level":"newcomer"}`, rules.Board{W: 9, H: 8, Start: rules.Gap}, true, ""},
	} {
		st := ts.mustState(t, "/api/v2/new", tc.req)
		for i := 0; i < 3 && !st.Over; i++ {
			checkBoardState(t, st, tc.board)
			if st.Classical != tc.classical || st.Note != tc.note || !tc.classical && st.Eval == nil {
				t.Fatalf("%s: classical %v, note %q, eval %+v", tc.req, st.Classical, st.Note, st.Eval)
			}
			st = ts.mustState(t, "/api/v2/move", jsonBody(moveRequest{Game: st.Game, Move: st.Legal[0]}))
		}
		checkBoardState(t, st, tc.board)
		// The game's review: by the network where it plays, with its
		// candidates, else by the classical engine.
		var rv reviewJSON
		if code := ts.call(t, "/api/v2/review", jsonBody(reviewRequest{Game: &st.Game}), &rv); code != 200 || rv.Board != fmt.Sprintf("%dx%d", tc.board.W, tc.board.H) ||
			rv.Classical != tc.classical || len(rv.Moves) != len(st.Moves) || (len(rv.Moves[0].Candidates) == 0) != tc.classical {
			t.Errorf("%s: review %d %+v", tc.req, code, rv)
		}
	}
}

// TestWideBoardNetwork: with a multi-board model trained on 9x8, the
// network plays 9x8 (above 8x8): legal moves, each with its evaluation,
// the coach silent (noCoach), hints with a win probability, and the same
// game from servers of the same seed; 9x8 with the removals is played by
// it too, with the note that it was not trained there; 11x8, where it
// was not trained, by the classical engine.
func TestWideBoardNetwork(t *testing.T) {
	b9 := rules.Board{W: 9, H: 8, Start: rules.Gap}
	es := agenttest.RunMultiBoard(t, rules.SquareBoard(8), b9)
	cfg := Config{Engines: es, Seed: 7, MaxLevel: "easy", DefaultLevel: "casual"}
	var games [2][]string
	hints := 0
	for i := range games {
		ts := newTestServer(t, cfg)
		st := ts.mustState(t, "/api/v2/new", `{"board":"9x8","color":"white","level":"casual"}`)
		for !st.Over {
			checkBoardState(t, st, b9)
			ev := st.Eval
			if st.Classical || st.Note != "" || !st.NoCoach || st.Coach != nil || ev == nil || ev.Ply != len(st.Moves) || ev.AgentMove != st.Last ||
				ev.HumanWinProb < 0 || ev.HumanWinProb > 1 || len(ev.PV) == 0 || ev.PV[0] != st.Last {
				t.Fatalf("9x8 after %v: classical %v, note %q, noCoach %v, coach %+v, eval %+v", st.Moves, st.Classical, st.Note, st.NoCoach, st.Coach, ev)
			}
			if len(st.Moves)%8 == 1 {
				var h hintJSON
				if code := ts.call(t, "/api/v2/hint", jsonBody(gameRequest{st.Game}), &h); code != 200 || !contains(st.Legal, h.Move) ||
					h.WinProb == nil || *h.WinProb < 0 || *h.WinProb > 1 || len(h.PV) == 0 || h.PV[0] != h.Move {
					t.Fatalf("hint on 9x8 after %v: %d %+v (legal %v)", st.Moves, code, h, st.Legal)
				}
				hints++
			}
			st = ts.mustState(t, "/api/v2/move", jsonBody(moveRequest{Game: st.Game, Move: st.Legal[0], Coach: true}))
		}
		checkBoardState(t, st, b9)
		games[i] = st.Moves
	}
	if !slices.Equal(games[0], games[1]) || hints < 2 {
		t.Errorf("seed 7 played two 9x8 games (%d hints):\n%v\n%v", hints, games[0], games[1])
	}

	ts := newTestServer(t, cfg)
	st := ts.mustState(t, "/api/v2/new", `{"board":"9x8/removal","color":"white","level":"easy"}`)
	if st.Classical || !strings.Contains(st.Note, "not trained on 9x8/removal") || st.Eval == nil {
		t.Errorf("9x8 with the removals: classical %v, note %q, eval %+v", st.Classical, st.Note, st.Eval)
	}
	b11 := rules.Board{W: 11, H: 8, Start: rules.Gap}
	st = ts.mustState(t, "/api/v2/new", `{"board":"11x8","color":"white","level":"casual"}`)
	for i := 0; i < 2 && !st.Over; i++ {
		checkBoardState(t, st, b11)
		if !st.Classical || st.Note != "" || !st.NoCoach || st.Eval != nil {
			t.Fatalf("11x8, not trained there: classical %v, note %q, noCoach %v, eval %+v", st.Classical, st.Note, st.NoCoach, st.Eval)
		}
		var h hintJSON
		if code := ts.call(t, "/api/v2/hint", jsonBody(gameRequest{st.Game}), &h); code != 200 || !contains(st.Legal, h.Move) || h.WinProb != nil {
			t.Errorf("hint on 11x8: %d %+v", code, h)
		}
		st = ts.mustState(t, "/api/v2/move", jsonBody(moveRequest{Game: st.Game, Move: st.Legal[0]}))
	}
}
