package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/agent/agenttest"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/web/api/apitest"
)

// testServer is a Service behind httptest.
type testServer struct {
	*Service
	url string
}

func newTestServer(t *testing.T, cfg Config) *testServer {
	t.Helper()
	ts := &testServer{}
	if cfg.Engines == nil {
		cfg.Engines = agenttest.RunEngines(t)
	}
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler(http.NotFoundHandler()))
	t.Cleanup(hs.Close)
	ts.Service, ts.url = srv, hs.URL
	return ts
}

// call asks the API at path (apitest.Call).
func (ts *testServer) call(t *testing.T, path, body string, out any) int {
	t.Helper()
	return apitest.Call(t, ts.url+path, body, out)
}

// mustState calls an endpoint that must answer a state.
func (ts *testServer) mustState(t *testing.T, path, body string) stateJSON {
	t.Helper()
	var st stateJSON
	if code := ts.call(t, path, body, &st); code != http.StatusOK {
		t.Fatalf("%s %s: status %d", path, body, code)
	}
	return st
}

// errJSON is an error answer (other answers decode into it without error).
type errJSON = errorJSON

func jsonBody(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// checkState replays the state's moves and checks the board, turn, legal
// moves and evaluation against the rules.
func checkState(t *testing.T, st stateJSON) rules.Position {
	t.Helper()
	p := rules.NewPosition(st.Size)
	for i, text := range st.Moves {
		m, err := rules.ParseMove(p, text)
		if err != nil {
			t.Fatalf("move %d of the state: %v", i+1, err)
		}
		p = p.Play(m)
	}
	for i, row := range st.Board {
		for col, c := range row {
			s := rules.SquareAt(st.Size-1-i, col)
			got, ok := p.At(s)
			want := '.'
			if ok {
				want = map[rules.Color]rune{rules.Black: 'x', rules.White: 'o'}[got]
			}
			if c != want {
				t.Fatalf("square %s shows %c, the moves give %c", s, c, want)
			}
		}
	}
	if st.Turn != p.Turn.String() || st.Phase != p.Phase().String() || st.Over == p.HasMoves() {
		t.Fatalf("state turn %s phase %s over %v; the moves give %v, %v, %v", st.Turn, st.Phase, st.Over, p.Turn, p.Phase(), !p.HasMoves())
	}
	wantLegal := []string{}
	if !st.Over && st.Turn == st.Human {
		wantLegal = strings.Fields(rules.MovesText(p.LegalMoves(nil)))
	}
	if strings.Join(st.Legal, " ") != strings.Join(wantLegal, " ") {
		t.Fatalf("legal %v, want %v", st.Legal, wantLegal)
	}
	if st.Eval != nil {
		if st.Eval.HumanWinProb < 0 || st.Eval.HumanWinProb > 1 || len(st.Eval.PV) == 0 || st.Eval.PV[0] != st.Eval.AgentMove {
			t.Fatalf("eval %+v", st.Eval)
		}
	}
	if st.Message.Code == "" || st.Message.Text == "" || strings.Contains(st.Message.Text, "{") {
		t.Fatalf("message %+v", st.Message)
	}
	return p
}

// playToEnd plays the first legal move until the game ends.
func playToEnd(t *testing.T, ts *testServer, st stateJSON) stateJSON {
	t.Helper()
	for !st.Over {
		if len(st.Legal) == 0 {
			t.Fatalf("human's turn without legal moves: %+v", st)
		}
		before := len(st.Moves)
		st = ts.mustState(t, "/api/v2/move", jsonBody(moveRequest{Game: st.Game, Move: st.Legal[0]}))
		checkState(t, st)
		if n := len(st.Moves); n != before+2 && !(st.Over && n == before+1) {
			t.Fatalf("%d moves after %d and one move of each side", n, before)
		}
		if n := len(st.Moves); n == before+2 && (st.Eval == nil || st.Eval.AgentMove != st.Last) {
			t.Fatalf("no evaluation of the agent's move %s: %+v", st.Last, st.Eval)
		}
	}
	return st
}

// TestAPIGame: whole games through the API in both colours; the record
// download is the game played.
func TestAPIGame(t *testing.T) {
	ts := newTestServer(t, Config{})
	for _, color := range []string{"black", "white"} {
		st := ts.mustState(t, "/api/v2/new", jsonBody(newRequest{Size: 6, Color: color, Level: "easy"}))
		checkState(t, st)
		if st.Human != color || st.Level != "easy" || st.Size != 6 {
			t.Fatalf("new game %+v", st)
		}
		if color == "white" && (len(st.Moves) != 1 || st.Eval == nil) {
			t.Fatalf("the agent did not open as Black: %+v", st)
		}
		if color == "black" && (st.Message.Code != "status.removeBlack" || !strings.Contains(st.Message.Text, "corner or the centre")) {
			t.Errorf("opening message %q", st.Message)
		}
		st = playToEnd(t, ts, st)
		if st.Winner == "" || (st.Winner == st.Human) != (st.Message.Code == "status.youWin") || (st.Winner == st.Human) != strings.HasPrefix(st.Message.Text, "You win!") {
			t.Errorf("final state: winner %q, message %q", st.Winner, st.Message)
		}
		// The record download.
		resp, err := http.Get(ts.url + "/api/v2/record?g=" + encodeGame(st.Game))
		if err != nil {
			t.Fatal(err)
		}
		text, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Disposition"), "attachment") {
			t.Fatalf("record: status %d, headers %v", resp.StatusCode, resp.Header)
		}
		rec, err := rules.ParseRecord(text)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(strings.Fields(rules.MovesText(rec.Moves)), " ") != strings.Join(st.Moves, " ") {
			t.Errorf("record moves %v, game %v", rec.Moves, st.Moves)
		}
		if w, ok := rec.Winner(); !ok || w.String() != st.Winner {
			t.Errorf("record result %q, winner %s", rec.Tag("Result"), st.Winner)
		}
		if rec.Tag(strings.ToUpper(color[:1])+color[1:]) != "you" {
			t.Errorf("record tags %v", rec.Tags)
		}
		// The state endpoint agrees.
		if again := ts.mustState(t, "/api/v2/state", jsonBody(gameRequest{st.Game})); strings.Join(again.Moves, " ") != strings.Join(st.Moves, " ") || !again.Over {
			t.Errorf("state after the game: %+v", again)
		}
		var e errJSON
		if code := ts.call(t, "/api/v2/move", jsonBody(moveRequest{Game: st.Game, Move: "a1"}), &e); code != 400 || e.Code != "error.gameOver" || !strings.Contains(e.Error, "game is over") {
			t.Errorf("move after the end: %d %v", code, e)
		}
		if code := ts.call(t, "/api/v2/hint", jsonBody(gameRequest{st.Game}), &e); code != 400 || e.Code != "error.hintOver" || !strings.Contains(e.Error, "No hint: the game is over") {
			t.Errorf("hint after the end: %d %v", code, e)
		}
	}
}

func TestAPIUndoLevelHint(t *testing.T) {
	ts := newTestServer(t, Config{})
	st := ts.mustState(t, "/api/v2/new", jsonBody(newRequest{Size: 6, Color: "black", Level: "easy"}))
	if st.CanUndo {
		t.Errorf("can undo at the start")
	}
	var h hintJSON
	if code := ts.call(t, "/api/v2/hint", jsonBody(gameRequest{st.Game}), &h); code != 200 || !contains(st.Legal, h.Move) || h.WinProb == nil || *h.WinProb < 0 || *h.WinProb > 1 || h.PV[0] != h.Move {
		t.Errorf("hint: %d %+v (legal %v)", code, h, st.Legal)
	}
	st = ts.mustState(t, "/api/v2/move", jsonBody(moveRequest{Game: st.Game, Move: st.Legal[0]}))
	st = ts.mustState(t, "/api/v2/move", jsonBody(moveRequest{Game: st.Game, Move: st.Legal[0]}))
	if len(st.Moves) != 4 || st.Eval == nil || st.Eval.Ply != 4 || st.Eval.AgentMove != st.Last {
		t.Fatalf("%d moves after two of each side, eval %+v", len(st.Moves), st.Eval)
	}
	// Undo is the client's: the game with two moves fewer.
	undone := st.Game
	undone.Moves = undone.Moves[:2]
	st = ts.mustState(t, "/api/v2/state", jsonBody(gameRequest{undone}))
	checkState(t, st)
	if len(st.Moves) != 2 || st.Eval != nil || st.Turn != "black" || !st.CanUndo {
		t.Errorf("after undo: %d moves, eval %v, %s to move, can undo %v", len(st.Moves), st.Eval, st.Turn, st.CanUndo)
	}
	changed := st.Game
	changed.Level = "medium"
	if st = ts.mustState(t, "/api/v2/state", jsonBody(gameRequest{changed})); st.Level != "medium" || st.Game.Level != "medium" {
		t.Errorf("level %q after setting medium", st.Level)
	}
	changed.Level = "insane"
	var e errJSON
	if code := ts.call(t, "/api/v2/state", jsonBody(gameRequest{changed}), &e); code != 400 || e.Code != "error.level" || !strings.Contains(e.Error, "Unknown level “insane”") || !strings.Contains(e.Detail, `unknown level "insane"`) {
		t.Errorf("bad level: %d %v", code, e)
	}
	// As White, nothing of the human's to take back before White's move.
	w := ts.mustState(t, "/api/v2/new", jsonBody(newRequest{Size: 6, Color: "white", Level: "easy"}))
	if w.CanUndo {
		t.Errorf("White can undo before its first move")
	}
	w = ts.mustState(t, "/api/v2/move", jsonBody(moveRequest{Game: w.Game, Move: w.Legal[0]}))
	if !w.CanUndo {
		t.Errorf("White cannot undo after its first move")
	}
	// A game reloaded while the agent was to move: it moves on request.
	half := w.Game
	half.Moves = half.Moves[:2]
	w = ts.mustState(t, "/api/v2/move", jsonBody(moveRequest{Game: half}))
	if len(w.Moves) != 3 || w.Turn != "white" || w.Eval == nil {
		t.Errorf("the agent's move on request: moves %v, %s to move, eval %v", w.Moves, w.Turn, w.Eval)
	}
	if code := ts.call(t, "/api/v2/move", jsonBody(moveRequest{Game: w.Game}), &e); code != 400 || e.Code != "error.yourTurn" {
		t.Errorf("no move on the human's turn: %d %v", code, e)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestAPIErrors: every bad request gets a JSON error with the right status,
// message key and a text (or, for developers, detail) naming what was
// wrong.
func TestAPIErrors(t *testing.T) {
	ts := newTestServer(t, Config{MaxBody: 300, MaxLevel: "hard"})
	st := ts.mustState(t, "/api/v2/new", jsonBody(newRequest{Size: 6, Color: "black", Level: "easy"}))
	game := func(moves ...string) string {
		return jsonBody(gameJSON{Size: 6, Human: "black", Level: "easy", Moves: moves})
	}
	g := jsonBody(st.Game)
	for _, tc := range []struct {
		method, path, body string
		code               int
		key, want          string
	}{
		{"POST", "/api/v2/new", "{", 400, "error.malformed", "unexpected EOF"},
		{"POST", "/api/v2/new", "", 400, "error.emptyBody", "The request is empty"},
		{"POST", "/api/v2/new", " \n ", 400, "error.emptyBody", "The request is empty"},
		{"POST", "/api/v2/new", "null", 400, "error.malformed", "not a JSON object"},
		{"POST", "/api/v2/new", "[]", 400, "error.malformed", "not a JSON object"},
		{"POST", "/api/v2/new", `"size"`, 400, "error.malformed", "not a JSON object"},
		{"POST", "/api/v2/move", "null", 400, "error.malformed", "not a JSON object"},
		{"POST", "/api/v2/new", `{"size":17}`, 400, "error.board", "The board “17×17” cannot be played: a board has 4 to 16 files and 4 to 16 ranks"},
		{"POST", "/api/v2/new", `{"board":"17x6"}`, 400, "error.board", "The board “17x6” cannot be played: a board has 4 to 16 files"},
		{"POST", "/api/v2/new", `{"board":"size-13"}`, 400, "error.board", "“size-13”"},
		{"POST", "/api/v2/new", `{"board":"8x8/gap"}`, 400, "error.board", "the gap start needs exactly one odd side"},
		{"POST", "/api/v2/new", `{"size":8,"board":"7x6"}`, 400, "error.boardSize", "The size 8 and the board “7x6” disagree"},
		{"POST", "/api/v2/move", `{"game":{"board":"16x17","human":"black","level":"easy","moves":[]},"move":"d4"}`, 400, "error.board", "“16x17”"},
		{"POST", "/api/v2/new", `{"size":"six"}`, 400, "error.malformed", "cannot unmarshal"},
		{"POST", "/api/v2/new", `{"size":6,"level":"silly"}`, 400, "error.level", "Unknown level “silly” (choose one of newcomer, beginner, casual, easy, steady, medium, hard)"},
		{"POST", "/api/v2/new", `{"size":6,"level":"max"}`, 400, "error.levelCap", "“max” is not offered on this server (the strongest is hard)"},
		{"POST", "/api/v2/new", `{"size":6,"color":"green"}`, 400, "error.color", "Unknown colour “green”"},
		{"POST", "/api/v2/new", `{"size":6,"bogus":1}`, 400, "error.malformed", `unknown field "bogus"`},
		{"POST", "/api/v2/new", `{"size":6} {"size":6}`, 400, "error.malformed", "more than one JSON value"},
		{"POST", "/api/v2/new", `{"size":6,"level":"` + strings.Repeat("x", 400) + `"}`, 413, "error.tooLarge", "larger than 300 bytes"},
		{"GET", "/api/v2/new", "", 405, "error.method", "use POST"},
		{"GET", "/api/v2/state", "", 405, "error.method", "use POST"},
		{"POST", "/api/v2/record", "{}", 405, "error.method", "use GET"},
		{"POST", "/api/v2/move", `{"move":"d4"}`, 400, "error.board", "The board “0×0” cannot be played"},
		{"POST", "/api/v2/move", `{"game":{"size":6,"human":"red","level":"easy","moves":[]},"move":"d4"}`, 400, "error.color", "Unknown colour “red”"},
		{"POST", "/api/v2/move", `{"game":{"size":6,"human":"black","level":"max","moves":[]},"move":"d4"}`, 400, "error.levelCap", "not offered"},
		{"POST", "/api/v2/move", `{"game":{"size":6,"human":"black","level":"8","moves":[]},"move":"d4"}`, 400, "error.levelCap", "not offered"},
		{"POST", "/api/v2/new", `{"size":6,"level":"9"}`, 400, "error.level", "Unknown level “9”"},
		{"POST", "/api/v2/move", `{"game":` + game("b1") + `,"move":"d4"}`, 400, "error.gameMoveBlack", "Black's move 1 in the game, “b1”, is not legal"},
		{"POST", "/api/v2/move", `{"game":` + game(strings.Split(strings.Repeat("a1,", 37), ",")...) + `}`, 400, "error.gameLong", "too many moves (38; at most 36)"},
		{"POST", "/api/v2/move", `{"game":{"size":6,"human":"black","level":"easy","start":2,"moves":["c3"]}}`, 400, "error.gameStart", "The game in the address is damaged: where it starts does not fit its moves."},
		{"POST", "/api/v2/move", `{"game":` + g + `,"move":"z9"}`, 400, "error.move", `square "z9" is off the 6x6 board`},
		{"POST", "/api/v2/move", `{"game":` + g + `,"move":"b1"}`, 400, "error.move", "Black must remove one of its own stones"},
		{"POST", "/api/v2/move", `{"game":` + g + `,"move":""}`, 400, "error.yourTurn", "your move"},
		{"POST", "/api/v2/hint", `{}`, 400, "error.board", "0×0"},
		{"GET", "/api/v2/record?g=nope", "", 400, "error.gameCode", "cannot be read"},
		{"GET", "/api/v2/record?g=1.6b.easy.0.b1", "", 400, "error.gameMoveBlack", "“b1”"},
		{"GET", "/api/v2/nothing", "", 404, "error.noEndpoint", "no API endpoint /api/v2/nothing"},
		{"GET", "/api/nothing", "", 404, "error.noEndpoint", "no API endpoint /api/nothing"},
		// The first API's endpoints name their successors.
		{"POST", "/api/move", `{"id":"x","move":"d4"}`, 410, "error.oldAPI", "use /api/v2/move"},
		{"POST", "/api/undo", `{"id":"x"}`, 410, "error.oldAPI", "use /api/v2/state"},
		{"GET", "/api/state?id=x", "", 410, "error.oldAPI", "use /api/v2/state"},
		{"GET", "/api/config", "", 410, "error.oldAPI", "use /api/v2/config"},
	} {
		req, _ := http.NewRequest(tc.method, ts.url+tc.path, strings.NewReader(tc.body))
		if tc.method == "POST" {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var e errJSON
		err = json.NewDecoder(resp.Body).Decode(&e)
		resp.Body.Close()
		if err != nil || resp.StatusCode != tc.code || e.Code != tc.key || !strings.Contains(e.Error+" "+e.Detail, tc.want) || strings.Contains(e.Error, "{") || resp.Header.Get("Content-Type") != "application/json" {
			t.Errorf("%s %s %.60q: %d %+v (%v); want %d, %s and %q", tc.method, tc.path, tc.body, resp.StatusCode, e, err, tc.code, tc.key, tc.want)
		}
		if tc.code == 405 && resp.Header.Get("Allow") == "" {
			t.Errorf("%s %s: 405 without Allow", tc.method, tc.path)
		}
	}
	// A level's number is its name.
	for num, name := range map[string]string{"1": "newcomer", "4": "easy", "7": "hard", "Steady": "steady"} {
		if st := ts.mustState(t, "/api/v2/new", jsonBody(newRequest{Size: 6, Color: "black", Level: num})); st.Level != name || st.Game.Level != name {
			t.Errorf("level %q: the game plays at %q (%q in its code), want %q", num, st.Level, st.Game.Level, name)
		}
	}
	// The levels offered stop at the maximum.
	var c configJSON
	ts.call(t, "/api/v2/config", "", &c)
	if len(c.Levels) != 7 || c.Levels[6].Name != "hard" || c.Levels[0].Name != "newcomer" {
		t.Errorf("levels offered up to hard: %+v", c.Levels)
	}
	// Where each plays perfectly: the solver's boards from hard up, 6x6
	// from early on from steady up (agent.Level.PerfectionOn).
	for i, want := range map[int]map[string]agent.Perfection{0: nil, 3: nil, 4: {"6x6": agent.PerfectEarly}, 6: {"4x4": agent.PerfectAlways, "5x5": agent.PerfectAlways, "6x6": agent.PerfectEarly}} {
		if got := c.Levels[i].Perfect; !maps.Equal(got, want) {
			t.Errorf("level %s (sizes %v): perfect %v, want %v", c.Levels[i].Name, c.Sizes, got, want)
		}
	}
}

// TestStateless: a game whose requests go to different servers (replicas
// with nothing in common but the models) plays on unharmed, and the
// game's code (the page's #g=) round-trips.
func TestStateless(t *testing.T) {
	es := agenttest.RunEngines(t)
	replicas := []*testServer{newTestServer(t, Config{Engines: es, Seed: 1}), newTestServer(t, Config{Engines: es, Seed: 2, TreeCache: -1})}
	st := replicas[0].mustState(t, "/api/v2/new", `{"size":6,"color":"white","level":"easy"}`)
	for i := 1; !st.Over; i++ {
		st = replicas[i%2].mustState(t, "/api/v2/move", jsonBody(moveRequest{Game: st.Game, Move: st.Legal[0]}))
		checkState(t, st)
		code := encodeGame(st.Game)
		back, err := decodeGame(code)
		if err != nil || jsonBody(back) != jsonBody(st.Game) {
			t.Fatalf("game code %s reads back as %+v, %v; want %+v", code, back, err, st.Game)
		}
		if strings.ContainsAny(code, "#%&?/ +") {
			t.Fatalf("game code %q needs escaping in a URL", code)
		}
	}
	if st.Winner == "" {
		t.Fatalf("no winner: %+v", st)
	}
}

func TestGameCode(t *testing.T) {
	for _, bad := range []string{"", "1", "2.6b.easy.0", "1.6x.easy.0", "1.b.easy.0", "1.9b.easy.0", "1.6b.easy.x", "1.6b.easy"} {
		if _, err := decodeGame(bad); err == nil {
			t.Errorf("decodeGame(%q) took it", bad)
		}
	}
	gj := gameJSON{Size: 8, Human: "white", Level: "medium", Start: 2, Moves: []string{"d5", "e5", "c5-e5"}}
	if got := encodeGame(gj); got != "1.8w.medium.2.d5.e5.c5-e5" {
		t.Errorf("encodeGame = %q", got)
	}
	// A resignation is the code's last part; codes without it (all the
	// links written before resignations were kept) read as before.
	gj.Resigned = true
	if got := encodeGame(gj); got != "1.8w.medium.2.d5.e5.c5-e5.resign" {
		t.Errorf("encodeGame of a resigned game = %q", got)
	}
	for code, want := range map[string]gameJSON{
		"1.8w.medium.2.d5.e5.c5-e5.resign": gj,
		"1.8b.easy.0.resign":               {Size: 8, Human: "black", Level: "easy", Moves: []string{}, Resigned: true},
		"1.8b.easy.0.d5":                   {Size: 8, Human: "black", Level: "easy", Moves: []string{"d5"}},
	} {
		if got, err := decodeGame(code); err != nil || jsonBody(got) != jsonBody(want) {
			t.Errorf("decodeGame(%q) = %+v, %v; want %+v", code, got, err, want)
		}
	}
}

func FuzzGameCode(f *testing.F) {
	f.Add("1.8b.medium.0.d5.e5.c5-e5")
	f.Add("1.6w.easy.3")
	f.Add("1.6w.easy.0.d4.resign")
	f.Fuzz(func(t *testing.T, code string) {
		gj, err := decodeGame(code)
		if err != nil {
			return
		}
		if again, err := decodeGame(encodeGame(gj)); err != nil || jsonBody(again) != jsonBody(gj) {
			t.Fatalf("%q: %+v, then %+v, %v", code, gj, again, err)
		}
	})
}

// TestConcurrentGames: games played at the same time all finish, and are
// each the same as when played alone (the agents are deterministic and
// share only the evaluator).
func TestConcurrentGames(t *testing.T) {
	// Room for the four games' searches at once: each move of a level
	// below medium comes with a medium search, its evaluation (evalAfter),
	// and one client may hold half the budget.
	ts := newTestServer(t, Config{Searches: 8})
	const games = 4
	finals := make([]stateJSON, games)
	t.Run("parallel", func(t *testing.T) {
		for g := range games {
			t.Run(fmt.Sprint(g), func(t *testing.T) {
				t.Parallel()
				st := ts.mustState(t, "/api/v2/new", `{"size":6,"color":"black","level":"easy"}`)
				finals[g] = playToEnd(t, ts, st)
			})
		}
	})
	// A game's seed is the server's seed plus the number of games before
	// it, so the concurrent games got the seeds 0..games-1 in some order:
	// played one after the other, with nothing else going on, the same
	// seeds give the same games, each exactly once.
	var concurrent, alone []string
	for g := range games {
		if !finals[g].Over {
			t.Fatalf("game %d did not end", g)
		}
		concurrent = append(concurrent, strings.Join(finals[g].Moves, " "))
	}
	solo := newTestServer(t, Config{Seed: 0})
	for range games {
		st := playToEnd(t, solo, solo.mustState(t, "/api/v2/new", `{"size":6,"color":"black","level":"easy"}`))
		alone = append(alone, strings.Join(st.Moves, " "))
	}
	slices.Sort(concurrent)
	slices.Sort(alone)
	if !slices.Equal(concurrent, alone) {
		t.Errorf("the concurrent games are not the games of the same seeds played one after the other:\n%q\n%q", concurrent, alone)
	}
}

func TestNewConfigErrors(t *testing.T) {
	es, err := agent.OpenEngines("")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{}, "no engines"},
		{Config{Engines: es, DefaultLevel: "silly"}, "unknown level"},
		{Config{Engines: es, MaxLevel: "silly"}, "maximum level"},
		{Config{Engines: es, MaxLevel: "easy"}, "above the maximum level"},
		{Config{Engines: es, Searches: -1}, "searches at once"},
		{Config{Engines: es, MaxPerClient: -1}, "per client"},
		{Config{Engines: es, MaxBody: 10}, "maximum body"},
		{Config{Engines: es, ReviewSims: -1}, "simulations per reviewed position"},
		{Config{Engines: es, ReviewTimeout: time.Millisecond}, "review timeout"},
		{Config{Engines: es, MaxBody: 8192, MaxRecord: 4096}, "maximum record"},
	} {
		if _, err := New(tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%+v): %v; want %q", tc.cfg, err, tc.want)
		}
	}
}

// TestAgentFailure: when the agent cannot move in time, the answer says
// why, and the game the client holds is as it was.
func TestAgentFailure(t *testing.T) {
	ts := newTestServer(t, Config{MoveTimeout: time.Nanosecond})
	st := ts.mustState(t, "/api/v2/new", `{"size":6,"color":"black","level":"easy"}`)
	var e errJSON
	if code := ts.call(t, "/api/v2/move", jsonBody(moveRequest{Game: st.Game, Move: st.Legal[0]}), &e); code != 503 || e.Code != "error.agentFailed" || !strings.Contains(e.Error, "could not find a move in time") || !strings.Contains(e.Detail, "deadline") {
		t.Fatalf("move with no time for the agent: %d %q", code, e.Error)
	}
	if code := ts.call(t, "/api/v2/new", `{"size":6,"color":"white"}`, &e); code != 503 {
		t.Errorf("new game as White with no time for the agent: %d %q", code, e.Error)
	}
}

// TestFailureMessage: only a search that ran out of time is told to the
// player as "not in time"; any other fault gets the message that says so.
func TestFailureMessage(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{context.DeadlineExceeded, "error.agentFailed"},
		{fmt.Errorf("mcts: evaluating: %w", context.DeadlineExceeded), "error.agentFailed"},
		{errors.New("net: value NaN outside [-1, 1]"), "error.agentBroken"},
		{context.Canceled, "error.agentBroken"},
	} {
		if got := failure(tc.err, "error.agentFailed", "error.agentBroken"); got.msg.Code != tc.want || got.code != http.StatusServiceUnavailable || got.detail != tc.err {
			t.Errorf("failure(%v) = %d %s (%v), want 503 %s", tc.err, got.code, got.msg.Code, got.detail, tc.want)
		}
	}
}

// downloadRecord fetches a game record from url (the page's download
// link, /api/v2/record) and parses it; it returns the text and the record.
func downloadRecord(t *testing.T, url string) ([]byte, *rules.Record) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	text, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("record from %s: %v", url, err)
	}
	rec, err := rules.ParseRecord(text)
	if err != nil {
		t.Fatalf("record from %s: %v", url, err)
	}
	return text, rec
}

// TestShortErrorBodies: an error answer quotes at most a few hundred
// bytes of the request, however long (a 60 KB record gave a 60 KB body).
func TestShortErrorBodies(t *testing.T) {
	ts := newTestServer(t, Config{})
	long := strings.Repeat("q", 60_000)
	for path, body := range map[string]string{
		"/api/v2/state":  jsonBody(map[string]any{"game": map[string]any{"size": 6, "human": "black", "level": "easy", "moves": []string{long}}}),
		"/api/v2/review": jsonBody(map[string]any{"record": "[Size \"6\"]\n1. " + long}),
		"/api/v2/new ":   `{"size":6,"` + long + `":1}`,
		"/api/v2/new  ":  jsonBody(map[string]any{"size": 6, "level": long}),
	} {
		var e errJSON
		ts.call(t, strings.TrimSpace(path), body, &e)
		if b, _ := json.Marshal(e); len(b) > 1000 || e.Error == "" {
			t.Errorf("%s: error answer of %d bytes: %.200s", path, len(b), b)
		}
	}
}
