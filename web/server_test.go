package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	stdnet "net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/agent/agenttest"
	"github.com/konanezero/konane/rules"
)

// testServer is a Server behind httptest, with a clock the test moves.
type testServer struct {
	*Server
	url   string
	clock atomic.Int64 // seconds added to the start time
}

func newTestServer(t *testing.T, cfg Config) *testServer {
	t.Helper()
	ts := &testServer{}
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	if cfg.Engines == nil {
		cfg.Engines = agenttest.RunEngines(t)
	}
	cfg.Now = func() time.Time { return start.Add(time.Duration(ts.clock.Load()) * time.Second) }
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close)
	ts.Server, ts.url = srv, hs.URL
	return ts
}

// call sends a request (a POST when body is not "") and decodes the JSON
// answer into out; it returns the status code.
func (ts *testServer) call(t *testing.T, path, body string, out any) int {
	t.Helper()
	var resp *http.Response
	var err error
	if body == "" {
		resp, err = http.Get(ts.url + path)
	} else {
		resp, err = http.Post(ts.url+path, "application/json", strings.NewReader(body))
	}
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("%s: content type %q", path, ct)
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return resp.StatusCode
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
		st = ts.mustState(t, "/api/move", jsonBody(moveRequest{ID: st.ID, Move: st.Legal[0]}))
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
		st := ts.mustState(t, "/api/new", jsonBody(newRequest{Size: 6, Color: color, Level: "easy"}))
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
		resp, err := http.Get(ts.url + "/api/record?id=" + st.ID)
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
		if rec.Tag(capital(color)) != "you" {
			t.Errorf("record tags %v", rec.Tags)
		}
		// The state endpoint agrees.
		if again := ts.mustState(t, "/api/state?id="+st.ID, ""); strings.Join(again.Moves, " ") != strings.Join(st.Moves, " ") || !again.Over {
			t.Errorf("state after the game: %+v", again)
		}
		var e errJSON
		if code := ts.call(t, "/api/move", jsonBody(moveRequest{ID: st.ID, Move: "a1"}), &e); code != 400 || e.Code != "error.gameOver" || !strings.Contains(e.Error, "game is over") {
			t.Errorf("move after the end: %d %v", code, e)
		}
		if code := ts.call(t, "/api/hint", jsonBody(idRequest{ID: st.ID}), &e); code != 400 || e.Code != "error.hintOver" || !strings.Contains(e.Error, "No hint: the game is over") {
			t.Errorf("hint after the end: %d %v", code, e)
		}
	}
}

func TestAPIUndoLevelHint(t *testing.T) {
	ts := newTestServer(t, Config{})
	st := ts.mustState(t, "/api/new", jsonBody(newRequest{Size: 6, Color: "black", Level: "easy"}))
	var e errJSON
	if code := ts.call(t, "/api/undo", jsonBody(idRequest{ID: st.ID}), &e); code != 400 || e.Code != "error.noUndo" || !strings.Contains(e.Error, "Nothing to undo") {
		t.Errorf("undo at the start: %d %v", code, e)
	}
	var h hintJSON
	if code := ts.call(t, "/api/hint", jsonBody(idRequest{ID: st.ID}), &h); code != 200 || !contains(st.Legal, h.Move) || h.WinProb < 0 || h.WinProb > 1 || h.PV[0] != h.Move {
		t.Errorf("hint: %d %+v (legal %v)", code, h, st.Legal)
	}
	st = ts.mustState(t, "/api/move", jsonBody(moveRequest{ID: st.ID, Move: st.Legal[0]}))
	st = ts.mustState(t, "/api/move", jsonBody(moveRequest{ID: st.ID, Move: st.Legal[0]}))
	if len(st.Moves) != 4 {
		t.Fatalf("%d moves after two of each side", len(st.Moves))
	}
	st = ts.mustState(t, "/api/undo", jsonBody(idRequest{ID: st.ID}))
	checkState(t, st)
	// The evaluation is again that of the computer's move still on the
	// board.
	if len(st.Moves) != 2 || st.Eval == nil || st.Eval.AgentMove != st.Last || st.Turn != "black" || !st.CanUndo {
		t.Errorf("after undo: %d moves, eval %v, %s to move, can undo %v", len(st.Moves), st.Eval, st.Turn, st.CanUndo)
	}
	st = ts.mustState(t, "/api/undo", jsonBody(idRequest{ID: st.ID}))
	if len(st.Moves) != 0 || st.Eval != nil || st.CanUndo {
		t.Errorf("after undoing everything: %d moves, eval %v, can undo %v", len(st.Moves), st.Eval, st.CanUndo)
	}
	st = ts.mustState(t, "/api/level", jsonBody(levelRequest{ID: st.ID, Level: "medium"}))
	if st.Level != "medium" {
		t.Errorf("level %q after setting medium", st.Level)
	}
	if code := ts.call(t, "/api/level", jsonBody(levelRequest{ID: st.ID, Level: "insane"}), &e); code != 400 || e.Code != "error.level" || !strings.Contains(e.Error, "Unknown level “insane”") || !strings.Contains(e.Detail, `unknown level "insane"`) {
		t.Errorf("bad level: %d %v", code, e)
	}
	// As White, undo at the start has nothing of the human's to take back.
	w := ts.mustState(t, "/api/new", jsonBody(newRequest{Size: 6, Color: "white", Level: "easy"}))
	if code := ts.call(t, "/api/undo", jsonBody(idRequest{ID: w.ID}), &e); code != 400 {
		t.Errorf("undo before White's first move: %d %v", code, e)
	}
	w = ts.mustState(t, "/api/move", jsonBody(moveRequest{ID: w.ID, Move: w.Legal[0]}))
	w = ts.mustState(t, "/api/undo", jsonBody(idRequest{ID: w.ID}))
	if len(w.Moves) != 1 || w.Turn != "white" {
		t.Errorf("White's undo: moves %v, %s to move", w.Moves, w.Turn)
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
	ts := newTestServer(t, Config{MaxBody: 300})
	st := ts.mustState(t, "/api/new", jsonBody(newRequest{Size: 6, Color: "black", Level: "easy"}))
	for _, tc := range []struct {
		method, path, body string
		code               int
		key, want          string
	}{
		{"POST", "/api/new", "{", 400, "error.malformed", "unexpected EOF"},
		{"POST", "/api/new", "", 400, "error.emptyBody", "The request is empty"},
		{"POST", "/api/new", " \n ", 400, "error.emptyBody", "The request is empty"},
		{"POST", "/api/new", "null", 400, "error.malformed", "not a JSON object"},
		{"POST", "/api/new", "[]", 400, "error.malformed", "not a JSON object"},
		{"POST", "/api/new", `"size"`, 400, "error.malformed", "not a JSON object"},
		{"POST", "/api/move", "null", 400, "error.malformed", "not a JSON object"},
		{"POST", "/api/new", `{"size":7}`, 400, "error.size", "no computer player for 7×7 boards (there is one for 6×6, 8×8)"},
		{"POST", "/api/new", `{"size":"six"}`, 400, "error.malformed", "cannot unmarshal"},
		{"POST", "/api/new", `{"size":6,"level":"silly"}`, 400, "error.level", "Unknown level “silly” (choose one of easy, medium, hard, max)"},
		{"POST", "/api/new", `{"size":6,"color":"green"}`, 400, "error.color", "Unknown colour “green”"},
		{"POST", "/api/new", `{"size":6,"bogus":1}`, 400, "error.malformed", `unknown field "bogus"`},
		{"POST", "/api/new", `{"size":6} {"size":6}`, 400, "error.malformed", "more than one JSON value"},
		{"POST", "/api/new", `{"size":6,"level":"` + strings.Repeat("x", 400) + `"}`, 413, "error.tooLarge", "larger than 300 bytes"},
		{"GET", "/api/new", "", 405, "error.method", "use POST"},
		{"POST", "/api/state", "{}", 405, "error.method", "use GET"},
		{"POST", "/api/record", "{}", 405, "error.method", "use GET"},
		{"POST", "/api/move", `{"id":"nope","move":"d4"}`, 404, "error.unknownGame", "unknown to the server"},
		{"POST", "/api/move", `{"move":"d4"}`, 400, "error.missingID", "names no game"},
		{"POST", "/api/move", `{"id":"` + st.ID + `","move":"z9"}`, 400, "error.move", `square "z9" is off the 6x6 board`},
		{"POST", "/api/move", `{"id":"` + st.ID + `","move":"b1"}`, 400, "error.move", "Black must remove one of its own stones"},
		{"POST", "/api/move", `{"id":"` + st.ID + `","move":""}`, 400, "error.move", "empty"},
		{"POST", "/api/undo", `{"id":"nope"}`, 404, "error.unknownGame", "unknown to the server"},
		{"POST", "/api/hint", `{"id":"nope"}`, 404, "error.unknownGame", "unknown to the server"},
		{"GET", "/api/state?id=nope", "", 404, "error.unknownGame", "unknown to the server"},
		{"GET", "/api/state", "", 400, "error.missingID", "names no game"},
		{"GET", "/api/record?id=nope", "", 404, "error.unknownGame", "unknown to the server"},
		{"GET", "/api/nothing", "", 404, "error.noEndpoint", "no API endpoint /api/nothing"},
	} {
		req, _ := http.NewRequest(tc.method, ts.url+tc.path, strings.NewReader(tc.body))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var e errJSON
		err = json.NewDecoder(resp.Body).Decode(&e)
		resp.Body.Close()
		if err != nil || resp.StatusCode != tc.code || e.Code != tc.key || !strings.Contains(e.Error+" "+e.Detail, tc.want) || strings.Contains(e.Error, "{") || resp.Header.Get("Content-Type") != "application/json" {
			t.Errorf("%s %s %.40q: %d %+v (%v); want %d, %s and %q", tc.method, tc.path, tc.body, resp.StatusCode, e, err, tc.code, tc.key, tc.want)
		}
		if tc.code == 405 && resp.Header.Get("Allow") == "" {
			t.Errorf("%s %s: 405 without Allow", tc.method, tc.path)
		}
	}
	// No bad request created a game, and the game is untouched by them.
	if n := ts.Sessions(); n != 1 {
		t.Errorf("%d games held after the bad requests, want 1", n)
	}
	if again := ts.mustState(t, "/api/state?id="+st.ID, ""); len(again.Moves) != 0 {
		t.Errorf("bad moves were played: %v", again.Moves)
	}
}

// TestSessionLimit: the server holds at most MaxSessions games; idle ones
// expire, making room.
func TestSessionLimit(t *testing.T) {
	ts := newTestServer(t, Config{MaxSessions: 2, IdleTimeout: time.Minute})
	a := ts.mustState(t, "/api/new", `{"size":6,"level":"easy"}`)
	ts.clock.Add(40)
	b := ts.mustState(t, "/api/new", `{"size":6,"level":"easy"}`)
	var e errJSON
	req, _ := http.NewRequest("POST", ts.url+"/api/new", strings.NewReader(`{"size":6}`))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	json.NewDecoder(resp.Body).Decode(&e)
	resp.Body.Close()
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") == "" || e.Code != "error.full" || !strings.Contains(e.Error, "maximum of 2 games") {
		t.Fatalf("a third game: %d %v", resp.StatusCode, e)
	}
	// 40 s later a is idle for 80 s (> 1 min) and b for 40 s: a goes.
	ts.clock.Add(40)
	c := ts.mustState(t, "/api/new", `{"size":6,"level":"easy"}`)
	if ts.Sessions() != 2 {
		t.Errorf("%d sessions, want 2", ts.Sessions())
	}
	if code := ts.call(t, "/api/state?id="+a.ID, "", &e); code != 404 {
		t.Errorf("the expired game answered %d", code)
	}
	ts.clock.Add(30)
	ts.mustState(t, "/api/state?id="+b.ID, "") // a request keeps b alive
	ts.clock.Add(40)
	if n := ts.Expire(); n != 1 { // c is 70 s idle, b 40 s
		t.Errorf("expired %d games, want 1", n)
	}
	if code := ts.call(t, "/api/state?id="+c.ID, "", &e); code != 404 {
		t.Errorf("c answered %d after expiry", code)
	}
	ts.mustState(t, "/api/state?id="+b.ID, "")
	if a.ID == b.ID || b.ID == c.ID || len(a.ID) < 20 {
		t.Errorf("session ids %q %q %q", a.ID, b.ID, c.ID)
	}
}

// TestConcurrentGames: games played at the same time all finish, and are
// each the same as when played alone (the agents are deterministic and
// share only the evaluator).
func TestConcurrentGames(t *testing.T) {
	ts := newTestServer(t, Config{})
	const games = 4
	finals := make([]stateJSON, games)
	t.Run("parallel", func(t *testing.T) {
		for g := range games {
			t.Run(fmt.Sprint(g), func(t *testing.T) {
				t.Parallel()
				st := ts.mustState(t, "/api/new", `{"size":6,"color":"black","level":"easy"}`)
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
		st := playToEnd(t, solo, solo.mustState(t, "/api/new", `{"size":6,"color":"black","level":"easy"}`))
		alone = append(alone, strings.Join(st.Moves, " "))
	}
	slices.Sort(concurrent)
	slices.Sort(alone)
	if !slices.Equal(concurrent, alone) {
		t.Errorf("the concurrent games are not the games of the same seeds played one after the other:\n%q\n%q", concurrent, alone)
	}
}

func TestStaticAndHeaders(t *testing.T) {
	ts := newTestServer(t, Config{})
	for _, tc := range []struct{ path, ctype, want string }{
		{"/", "text/html", "<title>"},
		{"/app.js", "text/javascript", "api/move"},
		{"/style.css", "text/css", "#board"},
	} {
		resp, err := http.Get(ts.url + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), tc.ctype) || !strings.Contains(string(body), tc.want) {
			t.Errorf("%s: %d %s", tc.path, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		if !strings.Contains(resp.Header.Get("Content-Security-Policy"), "default-src 'self'") {
			t.Errorf("%s: no content security policy", tc.path)
		}
	}
	resp, err := http.Post(ts.url+"/", "text/plain", strings.NewReader("x"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 405 {
		t.Errorf("POST /: %d", resp.StatusCode)
	}
	// No page refers to anything outside the server.
	for _, name := range []string{"static/index.html", "static/app.js", "static/style.css"} {
		data, _ := static.ReadFile(name)
		if strings.Contains(string(data), "http://") || strings.Contains(string(data), "https://") {
			t.Errorf("%s refers to another site", name)
		}
	}
}

// TestServeShutdown: Serve answers on its listener until ctx ends, then
// returns nil.
func TestServeShutdown(t *testing.T) {
	es := agenttest.RunEngines(t)
	srv, err := New(Config{Engines: es})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := stdnet.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	resp, err := http.Get("http://" + ln.Addr().String() + "/api/config")
	if err != nil {
		t.Fatal(err)
	}
	var c configJSON
	json.NewDecoder(resp.Body).Decode(&c)
	resp.Body.Close()
	if len(c.Sizes) == 0 || c.DefaultSize != 8 || len(c.Levels) != len(agent.Levels()) || c.DefaultLevel != agent.DefaultLevel {
		t.Errorf("config %+v", c)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after its context ended")
	}
	if _, err := http.Get("http://" + ln.Addr().String() + "/"); err == nil {
		t.Error("the server still answers after shutdown")
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
		{Config{Engines: es, MaxSessions: -1}, "maximum sessions"},
		{Config{Engines: es, IdleTimeout: time.Millisecond}, "idle timeout"},
		{Config{Engines: es, MaxBody: 10}, "maximum body"},
		{Config{Engines: es, ReviewSims: -1}, "simulations per reviewed position"},
		{Config{Engines: es, ReviewTimeout: time.Millisecond}, "review timeout"},
		{Config{Engines: es, MaxReviews: 1, MaxReviewsPerClient: 2}, "reviews at once"},
		{Config{Engines: es, MaxBody: 8192, MaxRecord: 4096}, "maximum record"},
	} {
		if _, err := New(tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%+v): %v; want %q", tc.cfg, err, tc.want)
		}
	}
}

// TestAgentFailure: when the agent cannot move in time, the human's move
// is taken back and the answer says why.
func TestAgentFailure(t *testing.T) {
	ts := newTestServer(t, Config{MoveTimeout: time.Nanosecond})
	st := ts.mustState(t, "/api/new", `{"size":6,"color":"black","level":"easy"}`)
	var e errJSON
	if code := ts.call(t, "/api/move", jsonBody(moveRequest{ID: st.ID, Move: st.Legal[0]}), &e); code != 503 || e.Code != "error.agentFailed" || !strings.Contains(e.Error, "could not find a move in time") || !strings.Contains(e.Detail, "deadline") {
		t.Fatalf("move with no time for the agent: %d %q", code, e.Error)
	}
	if again := ts.mustState(t, "/api/state?id="+st.ID, ""); len(again.Moves) != 0 || again.Turn != "black" {
		t.Errorf("after the failure: moves %v, %s to move", again.Moves, again.Turn)
	}
	if code := ts.call(t, "/api/new", `{"size":6,"color":"white"}`, &e); code != 503 {
		t.Errorf("new game as White with no time for the agent: %d %q", code, e.Error)
	}
	if n := ts.Sessions(); n != 1 {
		t.Errorf("%d sessions held, want 1 (the failed game is not kept)", n)
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
		if got := failure(tc.err, "error.agentFailed", "error.agentBroken"); got.Code != tc.want {
			t.Errorf("failure(%v) = %s, want %s", tc.err, got.Code, tc.want)
		}
	}
}

// downloadRecord fetches a game record from url (the page's download
// link, /api/record) and parses it; it returns the text and the record.
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
