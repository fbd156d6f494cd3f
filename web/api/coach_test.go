package api

import (
	"io"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"github.com/konanezero/konane/agent/agenttest"
)

// solveMoves returns the human's winning and losing moves of the game of
// st (on a board the exact solver settles).
func solveMoves(t *testing.T, st stateJSON) (wins, loses []string) {
	t.Helper()
	return agenttest.Solved(t, st.Game.Size, st.Moves)
}

// TestCoach: on 5x5, where the exact solver checks every figure, the
// coach (moveRequest.Coach) says nothing of winning moves and, of a move
// that throws the win away, names a winning move instead and the drop
// from 100% to 0%, on the human's move (ply), and the computer waits
// with its reply until the human plays on; without Coach the same move
// draws no word. The evaluation after the computer's reply is proven:
// the human lost with perfect play.
func TestCoach(t *testing.T) {
	ts := newTestServer(t, Config{})
	st := ts.mustState(t, "/api/v2/new", `{"size":5,"color":"black","level":"hard"}`)
	blundered := false
	for !st.Over && !blundered {
		wins, loses := solveMoves(t, st)
		if len(wins) == 0 {
			t.Fatalf("after %v the human (Black, who wins 5x5) has no winning move: the computer erred", st.Moves)
		}
		if len(loses) == 0 { // nothing to throw away: a winning move
			st = ts.mustState(t, "/api/v2/move", jsonBody(moveRequest{Game: st.Game, Move: wins[0], Coach: true}))
			if st.Coach != nil {
				t.Fatalf("the coach spoke of the winning move %s: %+v", wins[len(wins)-1], *st.Coach)
			}
			continue
		}
		// Without the coach: silent.
		quiet := ts.mustState(t, "/api/v2/move", jsonBody(moveRequest{Game: st.Game, Move: loses[0]}))
		if quiet.Coach != nil {
			t.Fatalf("the coach spoke while off: %+v", *quiet.Coach)
		}
		// Every winning move: silent.
		for _, w := range wins {
			if got := ts.mustState(t, "/api/v2/move", jsonBody(moveRequest{Game: st.Game, Move: w, Coach: true})); got.Coach != nil {
				t.Fatalf("the coach spoke of the winning move %s: %+v", w, *got.Coach)
			}
		}
		// The blunder.
		ply := len(st.Moves) + 1
		got := ts.mustState(t, "/api/v2/move", jsonBody(moveRequest{Game: st.Game, Move: loses[0], Coach: true}))
		c := got.Coach
		if c == nil {
			t.Fatalf("after %v the losing %s drew no word from the coach", st.Moves, loses[0])
		}
		if c.Ply != ply || c.Move != loses[0] || !slices.Contains(wins, c.Better) || c.From != 1 || c.To != 0 {
			t.Errorf("the coach on %s at ply %d (winning moves %v): %+v", loses[0], ply, wins, *c)
		}
		// The game waits for the human: no reply yet, the coach's status.
		if len(got.Moves) != ply || got.Turn == got.Human || got.Message.Code != "status.coach" || got.Eval != nil || !got.CanUndo {
			t.Fatalf("after the blunder: moves %v, turn %s, message %+v, eval %+v, canUndo %v", got.Moves, got.Turn, got.Message, got.Eval, got.CanUndo)
		}
		// Playing on: the computer's reply, evaluated as proven lost.
		got = ts.mustState(t, "/api/v2/move", jsonBody(moveRequest{Game: got.Game, Coach: true}))
		if !got.Over {
			if len(got.Moves) != ply+1 || got.Eval == nil || got.Eval.Ply != ply+1 || got.Coach != nil {
				t.Fatalf("no reply with its evaluation after playing on: moves %v, eval %+v", got.Moves, got.Eval)
			}
			if !got.Eval.Proven || got.Eval.HumanWinProb != 0 {
				t.Errorf("the evaluation after the blunder and the perfect reply: %+v, want proven lost", *got.Eval)
			}
		}
		blundered = true
	}
	if !blundered {
		t.Fatal("the game ended without a losing move to try")
	}
}

// TestWeakLevelEval: the evaluation sent with a weak level's move is a
// search at the advice level (kind "eval" in the search metrics), the
// line starting with the computer's move; at hard the agent's own
// search is the evaluation (no "eval" search).
func TestWeakLevelEval(t *testing.T) {
	ts := newTestServer(t, Config{})
	evals := func(level string) int {
		t.Helper()
		resp, err := http.Get(ts.url + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		m := regexp.MustCompile(`konane_search_seconds_count\{kind="eval",level="` + level + `"\} (\d+)`).FindSubmatch(body)
		if m == nil {
			return 0
		}
		n, _ := strconv.Atoi(string(m[1]))
		return n
	}
	for _, tc := range []struct {
		level string
		eval  bool
	}{{"newcomer", true}, {"hard", false}} {
		st := ts.mustState(t, "/api/v2/new", `{"size":6,"color":"white","level":"`+tc.level+`"}`)
		for i := 0; i < 2 && !st.Over; i++ {
			before := evals(tc.level)
			if st.Eval == nil || st.Eval.Ply != len(st.Moves) || st.Eval.PV[0] != st.Moves[len(st.Moves)-1] {
				t.Fatalf("%s: the computer's move %v came with the evaluation %+v", tc.level, st.Moves, st.Eval)
			}
			st = ts.mustState(t, "/api/v2/move", jsonBody(moveRequest{Game: st.Game, Move: st.Legal[0]}))
			if n := evals(tc.level) - before; (n == 1) != tc.eval || n > 1 {
				t.Errorf("%s: %d evaluation searches for one move of the computer", tc.level, n)
			}
		}
	}
}

// TestPerfect: a game's state says who wins with perfect play where it
// is proven: on 4x4 and 5x5 from the start (the exact solver: White wins
// 4x4, Black 5x5, checked by the solver here), and on 6x6 in the opening
// removals by the openings' values that ship with the program
// (solver.KnownWinner: White wins 6x6: each Black removal
// has a White reply that wins; d4 e4 is Black's), from
// the first move, with no openings table computed.
func TestPerfect(t *testing.T) {
	ts := newTestServer(t, Config{})
	for _, size := range []int{4, 5} {
		st := ts.mustState(t, "/api/v2/new", `{"size":`+strconv.Itoa(size)+`,"color":"black","level":"hard"}`)
		wins, _ := solveMoves(t, st)
		want := "white"
		if len(wins) > 0 {
			want = "black"
		}
		if st.Perfect != want {
			t.Errorf("%dx%d from the start: perfect %q, the solver says %s wins", size, size, st.Perfect, want)
		}
	}
	st := ts.mustState(t, "/api/v2/new", `{"size":6,"color":"black","level":"newcomer"}`)
	if st.Perfect != "white" {
		t.Errorf("6x6 from the start: perfect %q, want white", st.Perfect)
	}
	for _, tc := range []struct {
		moves []string
		want  string
	}{{nil, "white"}, {[]string{"d4"}, "white"}, {[]string{"c3"}, "white"}, {[]string{"a1", "a2"}, "white"}, {[]string{"c3", "c4"}, "white"}, {[]string{"d4", "e4"}, "black"}} {
		gj := gameJSON{Size: 6, Human: "black", Level: "hard", Moves: tc.moves}
		if len(tc.moves)%2 == 1 {
			gj.Human = "white"
		}
		if got := ts.mustState(t, "/api/v2/state", jsonBody(gameRequest{Game: gj})); got.Perfect != tc.want {
			t.Errorf("6x6 after %v: perfect %q, want %q", tc.moves, got.Perfect, tc.want)
		}
	}
	if ts.openingsCache.tables[6] != nil {
		t.Error("the state computed the 6x6 openings table")
	}
}
