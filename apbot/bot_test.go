package apbot

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/agent/agenttest"
	"github.com/konanezero/konane/internal/golden"
	"github.com/konanezero/konane/rules"
)

// engines are the shipped models' engines, shared by the tests.
var (
	enginesOnce sync.Once
	engines     *agent.Engines
)

func testEngines(t *testing.T) *agent.Engines {
	enginesOnce.Do(func() {
		es, err := agent.OpenEngines("")
		if err != nil {
			t.Fatal(err)
		}
		go es.Run(context.Background()) // for the whole test binary
		engines = es
	})
	if engines == nil {
		t.Fatal("no engines")
	}
	return engines
}

// syncBuffer is a log that tests read while the bot writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// testBot is a bot behind httptest, talking to a fake AbstractPlay.
type testBot struct {
	*Bot
	ap  *fakeAP
	url string
	log *syncBuffer
}

// newTestBot starts a bot that plays at level easy within 40 ms a move,
// against ap; change applies to its Config first.
func newTestBot(t *testing.T, ap *fakeAP, change func(*Config, *ClientConfig)) *testBot {
	t.Helper()
	logs := &syncBuffer{}
	logger := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	cfg := Config{Verifier: NewVerifier(ap.pub, 0, nil), Engines: testEngines(t), Level: "easy",
		MoveTime: 40 * time.Millisecond, MaxSearches: 2, Logger: logger, Seed: 1}
	ccfg := ClientConfig{Timeout: 2 * time.Second, Retries: 2, Backoff: 10 * time.Millisecond, Logger: logger}
	if change != nil {
		change(&cfg, &ccfg)
	}
	if cfg.Client == nil {
		c, err := NewClient(ap.creds(), ccfg)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Client = c
	}
	b, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(b.Handler())
	t.Cleanup(func() {
		ap.release()
		b.Wait()
		hs.Close()
		// Secrets are never logged: not the client secret, not a token.
		out := logs.String()
		if strings.Contains(out, testSecret) {
			t.Errorf("the client secret is in the log:\n%s", out)
		}
		ap.mu.Lock()
		defer ap.mu.Unlock()
		for tok := range ap.tokens {
			if strings.Contains(out, tok) {
				t.Errorf("a token is in the log:\n%s", out)
			}
		}
	})
	return &testBot{Bot: b, ap: ap, url: hs.URL + "/", log: logs}
}

// movesResult reads konane_bot_moves_total{result}.
func (tb *testBot) count(t *testing.T, metric, label string) float64 {
	t.Helper()
	resp, err := http.Get(strings.TrimSuffix(tb.url, "/") + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	prefix := metric + `{result="` + label + `"} `
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, prefix); ok {
			var f float64
			json.Unmarshal([]byte(v), &f)
			return f
		}
	}
	return 0
}

// waitCount waits until a result's count reaches want.
func (tb *testBot) waitCount(t *testing.T, metric, label string, want float64) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for tb.count(t, metric, label) < want {
		if time.Now().After(deadline) {
			t.Fatalf("%s{result=%q} stays below %v; log:\n%s", metric, label, want, tb.log.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestPing(t *testing.T) {
	tb := newTestBot(t, newFakeAP(t), nil)
	resp, err := http.Get(tb.url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("ping: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	golden.Check(t, "ping.golden", body)
	base := strings.TrimSuffix(tb.url, "/")
	for _, path := range []string{"/healthz", "/readyz", "/metrics"} {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("%s: %d", path, resp.StatusCode)
		}
		if path == "/metrics" && !strings.Contains(string(b), "konane_bot_ready 1") {
			t.Errorf("/metrics has no konane_bot_ready 1")
		}
	}
	// The probes and /metrics are read-only: a cross-site POST gets 405.
	for _, path := range []string{"/healthz", "/readyz", "/metrics"} {
		resp, err := http.Post(base+path, "text/plain", strings.NewReader("x"))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("POST %s: %d, want 405", path, resp.StatusCode)
		}
	}
	if resp, _ := http.Get(base + "/other"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("/other: %d, want 404", resp.StatusCode)
	}
}

func TestChallenges(t *testing.T) {
	ap := newFakeAP(t)
	tb := newTestBot(t, ap, nil)
	challenge := func(meta string, variants ...string) map[string]any {
		if variants == nil {
			variants = []string{}
		}
		return map[string]any{"verb": "challenge", "metaGame": meta, "variants": variants,
			"clockStart": 72, "clockInc": 24, "clockMax": 168, "challengers": []string{"human-player-uuid"}}
	}
	for _, c := range []struct {
		payload map[string]any
		code    int
		why     string
	}{
		{challenge("konane"), 200, ""},
		{challenge("konane", "size-8"), 200, ""},
		{challenge("konane", ""), 200, ""},
		{challenge("konane", "size-7"), 200, ""},
		{challenge("konane", "size-9"), 200, ""},
		{challenge("konane", "size-11"), 200, ""},
		{challenge("konane", "size-15"), 200, ""},
		{challenge("konane", "size-6"), 400, "not a Kōnane board"},
		{challenge("konane", "size-8", "size-8"), 400, "more than one variant"},
		{challenge("abande", "size-5"), 400, "plays only konane"},
	} {
		code, body := ap.webhook(t, tb.url, c.payload)
		if code != c.code || !strings.Contains(body, c.why) {
			t.Errorf("%v: %d %s, want %d %q", c.payload, code, body, c.code, c.why)
		}
	}
	code, body := ap.webhook(t, tb.url, challenge("konane"))
	golden.Check(t, "challenge-accepted.golden", []byte(body))
	if code != 200 {
		t.Fatal(code)
	}

	// Busy: as many moves in flight as searches at once (botQuery hangs).
	ap.failNext(0, 0)
	for _, id := range []string{"g1", "g2"} {
		ap.newGame(id, nil)
		if code, body := ap.webhook(t, tb.url, ap.movePayload(id, 48)); code != http.StatusAccepted {
			t.Fatalf("move: %d %s", code, body)
		}
	}
	ap.waitMove(t, "g1", 1)
	ap.waitMove(t, "g2", 1)
	if code, body := ap.webhook(t, tb.url, challenge("konane")); code != 400 || !strings.Contains(body, "busy") {
		t.Errorf("busy: %d %s, want 400 busy", code, body)
	}
	ap.release()
	tb.Wait()
	if code, _ := ap.webhook(t, tb.url, challenge("konane")); code != 200 {
		t.Errorf("after the moves: %d, want 200", code)
	}
	// Draining.
	tb.Drain()
	if code, body := ap.webhook(t, tb.url, challenge("konane")); code != 400 || !strings.Contains(body, "shutting down") {
		t.Errorf("draining: %d %s, want 400", code, body)
	}
}

// TestMovesEveryBoard sends the bot positions of every board it plays,
// for both seats, from the first move on, and checks each answer with
// AbstractPlay's rules (the fake's apGame).
func TestMovesEveryBoard(t *testing.T) {
	ap := newFakeAP(t)
	tb := newTestBot(t, ap, nil)
	rng := rand.New(rand.NewPCG(1, 2))
	n := 0
	for _, board := range Boards() {
		if ok, _ := tb.Plays(board); !ok {
			continue
		}
		var variants []string
		if board.Variant != "" {
			variants = []string{board.Variant}
		}
		for _, plies := range []int{0, 1, 2, 3, 8, 13} {
			id := board.String() + "-" + string(rune('a'+plies))
			g := ap.newGame(id, variants)
			for range plies {
				if g.over() {
					break
				}
				randomMove(t, rng, g)
			}
			if g.over() {
				continue
			}
			before := g.plies
			if code, body := ap.webhook(t, tb.url, ap.movePayload(id, 48)); code != http.StatusAccepted {
				t.Fatalf("%s: %d %s", id, code, body)
			}
			ap.waitMove(t, id, 1)
			if after := ap.plies(id); after != before+1 {
				t.Errorf("%s: %d plies after the bot's move, want %d", id, after, before+1)
			}
			n++
		}
	}
	if n < 10 {
		t.Fatalf("only %d positions tried", n)
	}
	tb.Wait() // botQuery took the moves; their submissions end after
	if got := tb.count(t, "konane_bot_moves_total", "delivered"); got != float64(n) {
		t.Errorf("%v moves delivered, want %d", got, n)
	}
}

// TestWholeGame plays whole games through the fake: AbstractPlay's random
// mover against the bot, the bot in each seat, every move checked by
// AbstractPlay's rules, until the game ends.
func TestWholeGame(t *testing.T) {
	ap := newFakeAP(t)
	tb := newTestBot(t, ap, nil)
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct {
		id       string
		variants []string
		botSeat  int
	}{{"whole-6", nil, 2}, {"whole-8", []string{"size-8"}, 1}, {"whole-7", []string{"size-7"}, 2}, {"whole-9", []string{"size-9"}, 1}} {
		g := ap.newGame(c.id, c.variants)
		for n := 1; !g.over(); {
			if g.cur != c.botSeat {
				randomMove(t, rng, g)
				continue
			}
			if code, body := ap.webhook(t, tb.url, ap.movePayload(c.id, 2)); code != http.StatusAccepted {
				t.Fatalf("%s: %d %s", c.id, code, body)
			}
			ap.waitMove(t, c.id, n) // then the bot's goroutine is done with g
			n++
		}
		if g.plies < 10 {
			t.Errorf("%s: over after %d plies", c.id, g.plies)
		}
	}
	// The body botQuery got is the documented in-move, byte for byte (the
	// move itself aside).
	ap.mu.Lock()
	first := ap.bodies[0]
	ap.mu.Unlock()
	var sub Submission
	if err := json.Unmarshal(first, &sub); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "submission.golden", bytes.Replace(first, []byte(`"move":"`+sub.Move+`"`), []byte(`"move":"MOVE"`), 1))
}

func TestSignatures(t *testing.T) {
	ap := newFakeAP(t)
	tb := newTestBot(t, ap, nil)
	ap.newGame("sig", nil)
	body, _ := json.Marshal(ap.movePayload("sig", 48))
	other := newFakeAP(t)
	now := time.Now()
	replayed := ap.sign(body, now)
	if code, _ := post(t, tb.url, body, replayed); code != http.StatusAccepted {
		t.Fatalf("signed: %d", code)
	}
	ap.waitMove(t, "sig", 1)
	ap.newGame("sig2", nil)
	body2, _ := json.Marshal(ap.movePayload("sig2", 48))
	corrupt := func(h http.Header) http.Header {
		// Another base64 letter in place of the sixth (flipping a bit
		// could make it a character that is not base64 at all).
		s := []byte(h.Get(HeaderSignature))
		if s[5] == 'A' {
			s[5] = 'B'
		} else {
			s[5] = 'A'
		}
		h.Set(HeaderSignature, string(s))
		return h
	}
	unsigned := http.Header{"Content-Type": {"application/json"}}
	noNonce := ap.sign(body2, now)
	noNonce.Del(HeaderNonce)
	for _, c := range []struct {
		name string
		body []byte
		h    http.Header
		want string
	}{
		{"unsigned", body2, unsigned, "missing signature headers"},
		{"no nonce", body2, noNonce, "missing signature headers"},
		{"other key", body2, other.sign(body2, now), "invalid signature"},
		{"corrupted signature", body2, corrupt(ap.sign(body2, now)), "invalid signature"},
		{"body changed", append([]byte(" "), body2...), ap.sign(body2, now), "invalid signature"},
		{"stale", body2, ap.sign(body2, now.Add(-MaxSignatureAge-2*time.Second)), "more than 5 minutes"},
		{"future", body2, ap.sign(body2, now.Add(MaxSignatureAge+2*time.Second)), "more than 5 minutes"},
		{"timestamp", body2, func() http.Header { h := ap.sign(body2, now); h.Set(HeaderTimestamp, "soon"); return h }(), "not a number"},
		{"replayed", body, replayed, "nonce already seen"},
	} {
		code, answer := post(t, tb.url, c.body, c.h)
		if code != http.StatusUnauthorized || !strings.Contains(answer, c.want) {
			t.Errorf("%s: %d %s, want 401 %q", c.name, code, answer, c.want)
		}
	}
	// Within the window, either way, a signature passes.
	if code, _ := post(t, tb.url, body2, ap.sign(body2, now.Add(-MaxSignatureAge+5*time.Second))); code != http.StatusAccepted {
		t.Errorf("4m55s old: %d, want 202", code)
	}
	ap.waitMove(t, "sig2", 1)
	tb.Wait()
	ap.mu.Lock()
	defer ap.mu.Unlock()
	if len(ap.bodies) != 2 {
		t.Errorf("botQuery got %d moves, want 2 (none for the refused webhooks)", len(ap.bodies))
	}
}

func TestBadRequests(t *testing.T) {
	ap := newFakeAP(t)
	tb := newTestBot(t, ap, func(c *Config, _ *ClientConfig) { c.MaxBody = 2048 })
	signed := func(body string) (int, string) {
		return post(t, tb.url, []byte(body), ap.sign([]byte(body), time.Now()))
	}
	big := `{"verb":"move","gameid":"` + strings.Repeat("x", 3000) + `"}`
	for _, c := range []struct {
		name string
		code int
		want string
		send func() (int, string)
	}{
		{"oversized", 413, "over 2048 bytes", func() (int, string) { return signed(big) }},
		{"malformed", 400, "invalid JSON", func() (int, string) { return signed(`{"verb":"move",`) }},
		{"trailing", 400, "invalid JSON", func() (int, string) { return signed(`{"verb":"move"} x`) }},
		{"not an object", 400, "invalid JSON", func() (int, string) { return signed(`["move"]`) }},
		{"unknown verb", 400, `unknown verb \"resign\"`, func() (int, string) { return signed(`{"verb":"resign"}`) }},
		{"no verb", 400, "unknown verb", func() (int, string) { return signed(`{}`) }},
		{"moves a string", 400, "field moves", func() (int, string) {
			return signed(`{"verb":"move","metaGame":"konane","variants":[],"gameid":"x","clockCurr":1,"numPlayers":2,"moves":"a1"}`)
		}},
		{"no gameid", 400, "gameid", func() (int, string) {
			return signed(`{"verb":"move","metaGame":"konane","variants":[],"clockCurr":1,"numPlayers":2,"moves":[]}`)
		}},
		{"three players", 400, "numPlayers 3", func() (int, string) {
			return signed(`{"verb":"move","metaGame":"konane","variants":[],"gameid":"x","clockCurr":1,"numPlayers":3,"moves":[]}`)
		}},
		{"other game", 400, "plays only konane", func() (int, string) {
			return signed(`{"verb":"move","metaGame":"abande","variants":[],"gameid":"x","clockCurr":1,"numPlayers":2,"moves":[]}`)
		}},
		{"board not in the table", 400, "not a Kōnane board", func() (int, string) {
			return signed(`{"verb":"move","metaGame":"konane","variants":["size-13"],"gameid":"x","clockCurr":1,"numPlayers":2,"moves":[]}`)
		}},
		{"text/plain", 415, "application/json", func() (int, string) {
			b := []byte(`{"verb":"challenge","metaGame":"konane","variants":[]}`)
			h := ap.sign(b, time.Now())
			h.Set("Content-Type", "text/plain")
			return post(t, tb.url, b, h)
		}},
		{"no content type", 415, "application/json", func() (int, string) {
			b := []byte(`{"verb":"challenge","metaGame":"konane","variants":[]}`)
			h := ap.sign(b, time.Now())
			h.Del("Content-Type")
			return post(t, tb.url, b, h)
		}},
		{"json with charset", 200, "accepted", func() (int, string) {
			b := []byte(`{"verb":"challenge","metaGame":"konane","variants":[]}`)
			h := ap.sign(b, time.Now())
			h.Set("Content-Type", "application/json; charset=utf-8")
			return post(t, tb.url, b, h)
		}},
		{"PUT", 405, "method not allowed", func() (int, string) {
			req, _ := http.NewRequest(http.MethodPut, tb.url, strings.NewReader("{}"))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			if resp.Header.Get("Allow") == "" {
				t.Error("405 without Allow")
			}
			return resp.StatusCode, string(b)
		}},
	} {
		code, body := c.send()
		if code != c.code || !strings.Contains(body, c.want) {
			t.Errorf("%s: %d %s, want %d %q", c.name, code, body, c.code, c.want)
		}
	}
	if strings.Contains(tb.log.String(), strings.Repeat("x", 100)) {
		t.Error("the log quotes much of the input")
	}
}

func TestIllegalHistory(t *testing.T) {
	ap := newFakeAP(t)
	tb := newTestBot(t, ap, nil)
	for i, moves := range [][][]string{
		{{"b2"}},                       // not a removal square
		{{"d4", "d5"}, {"f6-d6", "x"}}, // unparsable
		{{"d4"}, {"d5"}},               // a short round before the last
		{{"d4", "d5", "b4-d4"}},        // three moves in a round
		{{"a1", "a2"}, {"a3-a1"}},      // a jump over the empty a2
	} {
		id := "illegal-" + string(rune('a'+i))
		payload := map[string]any{"verb": "move", "metaGame": "konane", "variants": []string{}, "gameid": id,
			"clockCurr": 48, "numPlayers": 2, "moves": moves}
		if code, body := ap.webhook(t, tb.url, payload); code != http.StatusAccepted {
			t.Fatalf("%v: %d %s", moves, code, body)
		}
	}
	tb.waitCount(t, "konane_bot_moves_total", "illegal_history", 5)
	tb.Wait()
	if !strings.Contains(tb.log.String(), "illegal") {
		t.Errorf("no illegal history in the log:\n%s", tb.log.String())
	}
}

// TestMultiBoardModel: with a multi-board model file the bot plays
// AbstractPlay's boards of up to 8 files and ranks with the network, 7x6
// too, and the larger ones with the network where the model was trained
// (9x8 here), else with the classical engine; its moves on 7x6 and 9x8
// are delivered.
func TestMultiBoardModel(t *testing.T) {
	es := agenttest.RunMultiBoard(t, rules.SquareBoard(6), rules.Board{W: 7, H: 6, Start: rules.Gap}, rules.Board{W: 9, H: 8, Start: rules.Gap})
	ap := newFakeAP(t)
	tb := newTestBot(t, ap, func(c *Config, _ *ClientConfig) { c.Engines = es })
	for _, board := range Boards() {
		ok, network := tb.Plays(board)
		if want := board.Cols <= rules.MaxSize && board.Rows <= rules.MaxSize || board.Cols == 9 && board.Rows == 8; !ok || network != want {
			t.Errorf("%s: plays %v, network %v, want %v", board, ok, network, want)
		}
	}
	for _, tc := range []struct{ id, variant string }{{"7x6", "size-7"}, {"9x8", "size-9"}} {
		g := ap.newGame(tc.id, []string{tc.variant})
		before := g.plies
		if code, body := ap.webhook(t, tb.url, ap.movePayload(tc.id, 48)); code != http.StatusAccepted {
			t.Fatalf("%s: %d %s", tc.id, code, body)
		}
		ap.waitMove(t, tc.id, 1)
		if after := ap.plies(tc.id); after != before+1 {
			t.Errorf("%s: %d plies after the bot's move, want %d", tc.id, after, before+1)
		}
	}
}
