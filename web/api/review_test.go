package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/rules"
)

// post sends body to path and decodes the answer into out; it returns
// the status code.
func post(t *testing.T, ts *testServer, path, body string, out any) int {
	t.Helper()
	resp, err := http.Post(ts.url+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return resp.StatusCode
}

// checkReview checks a review of the game moves against the rules: one
// entry per move with the mover and the move, the board before each
// move and after the last, probabilities in [0, 1] that agree between the
// graph and the moves, classes that match the losses, and lines that
// start where they should.
func checkReview(t *testing.T, rv reviewJSON, size int, moves []string) {
	t.Helper()
	if rv.Size != size || len(rv.Moves) != len(moves) || len(rv.Boards) != len(moves)+1 || len(rv.Black) != len(moves)+1 || len(rv.Exact) != len(moves)+1 {
		t.Fatalf("review of %d moves on %dx%d: size %d, %d moves, %d boards, %d probabilities", len(moves), size, size, rv.Size, len(rv.Moves), len(rv.Boards), len(rv.Black))
	}
	p := rules.NewPosition(size)
	for i, text := range moves {
		m := rv.Moves[i]
		if !slices.Equal(rv.Boards[i], BoardRows(p)) {
			t.Fatalf("board before move %d: %v, want %v", i+1, rv.Boards[i], BoardRows(p))
		}
		if m.Ply != i+1 || m.Move != text || m.Player != p.Turn.String() {
			t.Fatalf("move %d: %+v, want %s by %v", i+1, m, text, p.Turn)
		}
		// The graph is Black's chance; before and after are the mover's.
		mover := func(k int) float64 {
			if m.Player == "black" {
				return rv.Black[k]
			}
			return 1 - rv.Black[k]
		}
		if d := m.Before - mover(i); d > 0.002 || d < -0.002 {
			t.Fatalf("move %d: before %v, graph %v", i+1, m.Before, mover(i))
		}
		if d := m.After - mover(i+1); d > 0.002 || d < -0.002 {
			t.Fatalf("move %d: after %v, graph %v", i+1, m.After, mover(i+1))
		}
		want := ""
		switch {
		case m.Loss >= 0.2:
			want = "blunder"
		case m.Loss >= 0.1:
			want = "mistake"
		case m.Loss >= 0.05:
			want = "inaccuracy"
		}
		if m.Class != want && !(m.Loss > 0.04 && m.Loss < 0.21) { // rounding at the thresholds
			t.Fatalf("move %d loses %v: class %q, want %q", i+1, m.Loss, m.Class, want)
		}
		if m.Best == "" || len(m.PV) == 0 || m.PV[0] != m.Best || len(m.Line) == 0 || m.Line[0] != m.Move {
			t.Fatalf("move %d: best %q, pv %v, line %v", i+1, m.Best, m.PV, m.Line)
		}
		if m.Verdict == "throwsWin" && m.Class != "blunder" {
			t.Fatalf("move %d throws a win away but is a %q", i+1, m.Class)
		}
		mv, err := rules.ParseMove(p, text)
		if err != nil {
			t.Fatal(err)
		}
		p = p.Play(mv)
	}
	if !slices.Equal(rv.Boards[len(moves)], BoardRows(p)) || rv.Over == p.HasMoves() {
		t.Fatalf("final board %v (over %v), want %v", rv.Boards[len(moves)], rv.Over, BoardRows(p))
	}
	for k, b := range rv.Black {
		if b < 0 || b > 1 {
			t.Fatalf("Black's chance %v after move %d", b, k)
		}
	}
}

// TestAPIReview: a game of the page reviewed, the same game
// uploaded as a record (text and JSON), and the bad requests.
func TestAPIReview(t *testing.T) {
	ts := newTestServer(t, Config{ReviewSims: 16, MaxBody: 300, MaxRecord: 2000})
	st := ts.mustState(t, "/api/v2/new", jsonBody(newRequest{Size: 6, Color: "white", Level: "easy"}))
	st = playToEnd(t, ts, st)
	var rv reviewJSON
	if code := post(t, ts, "/api/v2/review", jsonBody(reviewRequest{Game: &st.Game}), &rv); code != 200 {
		t.Fatalf("review: %d %+v", code, rv)
	}
	checkReview(t, rv, 6, st.Moves)
	if rv.Human != "white" || rv.Winner != st.Winner || rv.Sims != 16 {
		t.Errorf("review: human %q, winner %q (the game's %q), %d simulations", rv.Human, rv.Winner, st.Winner, rv.Sims)
	}

	// The record as downloaded, and as JSON, give the same review (the
	// searches are seeded).
	text, rec := downloadRecord(t, ts.url+"/api/v2/record?g="+encodeGame(st.Game))
	asJSON, _ := json.Marshal(rec)
	for _, record := range []string{string(text), string(asJSON)} {
		var up reviewJSON
		if code := post(t, ts, "/api/v2/review", jsonBody(reviewRequest{Record: record}), &up); code != 200 {
			t.Fatalf("review of the record: %d %+v", code, up)
		}
		checkReview(t, up, 6, st.Moves)
		if up.Human != "" || !slices.Equal(up.Black, rv.Black) {
			t.Errorf("the record's review: human %q, Black's chances %v; the game's %v", up.Human, up.Black, rv.Black)
		}
	}

	unfinished := "[Size \"6\"]\n\n1. d4 d3 2. b4-d4 *\n"
	var part reviewJSON
	if code := post(t, ts, "/api/v2/review", jsonBody(reviewRequest{Record: unfinished}), &part); code != 200 || part.Over || part.Winner != "" {
		t.Errorf("an unfinished record: %d, over %v, winner %q", code, part.Over, part.Winner)
	}
	checkReview(t, part, 6, []string{"d4", "d3", "b4-d4"})

	// A resigned game of the page, and its record downloaded (whose
	// Result is decided before the end): over, the computer the winner.
	res := ts.mustState(t, "/api/v2/state", jsonBody(gameRequest{Game: gameJSON{Size: 6, Human: "black", Level: "easy", Moves: []string{"d4", "d3", "b4-d4"}, Resigned: true}}))
	if !res.Over || !res.Resigned || res.Winner != "white" || res.Message.Code != "status.resigned" || res.CanUndo || len(res.Legal) != 0 {
		t.Errorf("a resigned game's state: over %v, resigned %v, winner %q, %s, undo %v, legal %v", res.Over, res.Resigned, res.Winner, res.Message.Code, res.CanUndo, res.Legal)
	}
	resText, resRec := downloadRecord(t, ts.url+"/api/v2/record?g="+encodeGame(res.Game))
	if resRec.Tag("Result") != "0-1" || !strings.Contains(string(resText), "2. b4-d4 0-1") {
		t.Errorf("a resigned game's record:\n%s", resText)
	}
	for _, body := range []reviewRequest{{Game: &res.Game}, {Record: string(resText)}} {
		var rr reviewJSON
		if code := post(t, ts, "/api/v2/review", jsonBody(body), &rr); code != 200 || !rr.Over || !rr.Resigned || rr.Winner != "white" {
			t.Errorf("review of a resigned game (record %v): %d, over %v, resigned %v, winner %q", body.Record != "", code, rr.Over, rr.Resigned, rr.Winner)
		}
		if len(rr.Moves) != 3 || len(rr.Boards) != 4 {
			t.Errorf("review of a resigned game: %d moves, %d boards", len(rr.Moves), len(rr.Boards))
		}
	}

	fresh := ts.mustState(t, "/api/v2/new", jsonBody(newRequest{Size: 6, Color: "black", Level: "easy"}))
	for _, tc := range []struct {
		body      string
		code      int
		key, want string
	}{
		{jsonBody(reviewRequest{Game: &st.Game, Record: unfinished}), 400, "error.reviewBoth", "not both"},
		{`{}`, 400, "error.reviewNothing", "Name a game or a record"},
		{`{"game":{"size":6,"human":"black","level":"easy","moves":["b1"]}}`, 400, "error.gameMoveBlack", "Black's move 1 in the game, “b1”"},
		{jsonBody(reviewRequest{Game: &fresh.Game}), 400, "error.reviewEmpty", "no move has been played"},
		{jsonBody(reviewRequest{Record: "[Size \"6\"]\n\n*\n"}), 400, "error.reviewEmpty", "no move has been played"},
		{jsonBody(reviewRequest{Record: "[Size \"6\"]\n\n1. d4 b1\n"}), 400, "error.recordMoveWhite", "White's move 1 in the record, “b1”"},
		{jsonBody(reviewRequest{Record: "[Size \"6\"]\n\n1. d4 }\n"}), 400, "error.record", "line 3"},
		{jsonBody(reviewRequest{Record: "hello"}), 400, "error.recordNoSizeBlack", "on 8×8, where they get farthest, Black's move 1, “hello”"},
		{jsonBody(reviewRequest{Record: `{"size":6,"moves":[1]}`}), 400, "error.record", "line 1"},
		{jsonBody(reviewRequest{Record: "[Size \"9\"]\n\n1. a1 *\n"}), 400, "error.record", "board size 9 outside 4..8"}, // every size 4..8 has an agent
		{jsonBody(reviewRequest{Record: unfinished + strings.Repeat(" ", 2000)}), 413, "error.tooLarge", "larger than 2000 bytes"},
		{`{"record":"x","extra":1}`, 400, "error.malformed", `unknown field "extra"`},
	} {
		var e errJSON
		if code := post(t, ts, "/api/v2/review", tc.body, &e); code != tc.code || e.Code != tc.key || !strings.Contains(e.Error+" "+e.Detail, tc.want) {
			t.Errorf("%.60s: %d %+v; want %d %s %q", tc.body, code, e, tc.code, tc.key, tc.want)
		}
	}
}

// TestReviewLimits: a review takes its simulations from the same
// budget as the moves: refused (503) when the budget is taken and the
// queue is full, served once there is room.
func TestReviewLimits(t *testing.T) {
	ts := newTestServer(t, Config{ReviewSims: 16, Searches: 1, QueueWait: 50 * time.Millisecond})
	record := jsonBody(reviewRequest{Record: "[Size \"6\"]\n\n1. d4 d3 *\n"})
	// Another client holds the whole budget.
	release, err := ts.admit.acquire(t.Context(), "192.0.2.1", 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	var e errJSON
	if code := post(t, ts, "/api/v2/review", record, &e); code != 503 || e.Code != "error.busy" {
		t.Errorf("a review while the budget is taken: %d %+v", code, e)
	}
	release()
	var rv reviewJSON
	if code := post(t, ts, "/api/v2/review", record, &rv); code != 200 || len(rv.Moves) != 2 {
		t.Errorf("after the other finished: %d %+v", code, rv)
	}
	if ts.admit.used != 0 || len(ts.admit.clients) != 0 {
		t.Errorf("units held after the analyses: %d %v", ts.admit.used, ts.admit.clients)
	}
}

// TestAPIStartFrom: a game started from moves ("play on from here") goes
// on from them; they cannot be undone; bad ones are refused.
func TestAPIStartFrom(t *testing.T) {
	ts := newTestServer(t, Config{})
	start := []string{"d4", "d3", "b4-d4", "e4-c4"}
	st := ts.mustState(t, "/api/v2/new", jsonBody(newRequest{Size: 6, Color: "black", Level: "easy", Moves: start}))
	checkState(t, st)
	if !slices.Equal(st.Moves, start) || st.Start != 4 || st.Game.Start != 4 || st.Turn != "black" || st.CanUndo || len(st.Legal) == 0 {
		t.Fatalf("started from %v: moves %v, start %d, %s to move, can undo %v", start, st.Moves, st.Start, st.Turn, st.CanUndo)
	}
	st = ts.mustState(t, "/api/v2/move", jsonBody(moveRequest{Game: st.Game, Move: st.Legal[0]}))
	if !st.CanUndo {
		t.Error("the human's move cannot be undone")
	}
	// The other side to move: the computer moves first.
	w := ts.mustState(t, "/api/v2/new", jsonBody(newRequest{Size: 6, Color: "white", Level: "easy", Moves: start}))
	checkState(t, w)
	if len(w.Moves) != 5 || w.Turn != "white" || w.Eval == nil || w.Eval.AgentMove != w.Last {
		t.Errorf("as White from 4 moves: moves %v, %s to move, eval %+v", w.Moves, w.Turn, w.Eval)
	}
	var e errJSON
	over := playToEnd(t, ts, ts.mustState(t, "/api/v2/new", jsonBody(newRequest{Size: 6, Color: "black", Level: "easy"})))
	long := append(slices.Clone(over.Moves), "a1")
	for _, tc := range []struct {
		moves     []string
		key, want string
	}{
		{[]string{"d4", "b1"}, "error.startMoveWhite", "White's move 1 of the moves to start from, “b1”"},
		{[]string{"z9"}, "error.startMoveBlack", "off the 6x6 board"},
		{over.Moves, "error.startOver", fmt.Sprintf("after the first %d moves", len(over.Moves))},
		{long, "error.startOver", fmt.Sprintf("after the first %d moves", len(over.Moves))},
		{slices.Repeat([]string{"d4"}, 37), "error.startLong", "Too many moves"},
	} {
		if code := ts.call(t, "/api/v2/new", jsonBody(newRequest{Size: 6, Moves: tc.moves}), &e); code != 400 || e.Code != tc.key || !strings.Contains(e.Error+" "+e.Detail, tc.want) {
			t.Errorf("starting from %.50q: %d %+v; want %s %q", tc.moves, code, e, tc.key, tc.want)
		}
	}
}

// TestReviewTimeout: a review that does not finish within ReviewTimeout
// is answered 503 with its message, and frees its units.
func TestReviewTimeout(t *testing.T) {
	ts := newTestServer(t, Config{ReviewSims: player.MaxSims, ReviewTimeout: time.Second})
	start := time.Now()
	var e errJSON
	code := post(t, ts, "/api/v2/review", jsonBody(reviewRequest{Record: "[Size \"8\"]\n\n1. d4 e4 *\n"}), &e)
	if code != 503 || e.Code != "error.reviewFailed" || !strings.Contains(e.Error, "did not finish in time") || !strings.Contains(e.Detail, "deadline") {
		t.Errorf("a review beyond its time: %d %+v", code, e)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the review of 1s took %v to answer", d)
	}
	if ts.admit.used != 0 {
		t.Errorf("%d units held after the timeout", ts.admit.used)
	}
}
