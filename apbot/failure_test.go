package apbot

import (
	"context"
	stdnet "net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// playOne sends the webhook of game id's position (a new 6x6 game after
// two removals) and waits until the move's submission has ended as want.
func playOne(t *testing.T, tb *testBot, id string, want Outcome, n float64) {
	t.Helper()
	g := tb.ap.newGame(id, nil)
	for _, m := range []string{"d4", "d5"} {
		if err := g.move(m); err != nil {
			t.Fatal(err)
		}
	}
	if code, body := tb.ap.webhook(t, tb.url, tb.ap.movePayload(id, 48)); code != http.StatusAccepted {
		t.Fatalf("%s: %d %s", id, code, body)
	}
	tb.waitCount(t, "konane_bot_moves_total", string(want), n)
}

func TestTokenExpiresMidGame(t *testing.T) {
	ap := newFakeAP(t)
	tb := newTestBot(t, ap, nil)
	playOne(t, tb, "t1", Delivered, 1)
	ap.expireTokens() // AbstractPlay no longer takes the cached token: 401
	playOne(t, tb, "t2", Delivered, 2)
	ap.mu.Lock()
	hits := ap.tokenHits
	ap.mu.Unlock()
	if hits != 2 {
		t.Errorf("%d tokens fetched, want 2 (the first, and one after the 401)", hits)
	}
	if !strings.Contains(tb.log.String(), "401") {
		t.Error("the 401 is not in the log")
	}
}

func TestTokenRefreshedEarly(t *testing.T) {
	ap := newFakeAP(t)
	ap.expiry = 61 // cached for 1 s: refreshed 60 s before it expires
	tb := newTestBot(t, ap, nil)
	playOne(t, tb, "e1", Delivered, 1)
	playOne(t, tb, "e2", Delivered, 2)
	time.Sleep(1100 * time.Millisecond)
	playOne(t, tb, "e3", Delivered, 3)
	ap.mu.Lock()
	defer ap.mu.Unlock()
	if ap.tokenHits != 2 {
		t.Errorf("%d tokens fetched, want 2 (cached, then refreshed)", ap.tokenHits)
	}
}

func TestBotQueryFailures(t *testing.T) {
	ap := newFakeAP(t)
	tb := newTestBot(t, ap, func(_ *Config, c *ClientConfig) { c.Timeout = 300 * time.Millisecond })
	// 401 twice: a new token does not help; lost.
	ap.failNext(401, 401)
	playOne(t, tb, "f1", Lost, 1)
	// 500 then fine: retried, delivered.
	ap.failNext(500)
	playOne(t, tb, "f2", Delivered, 1)
	// 500 on every try (1 + 2 retries): lost.
	ap.failNext(500, 503, 502)
	playOne(t, tb, "f3", Lost, 2)
	// A hang whose move got through: the retry gets 400 (not your turn
	// any more): probably delivered.
	ap.failNext(0)
	playOne(t, tb, "f4", ProbablyDelivered, 1)
	// A hang, then a retry that goes through.
	ap.mu.Lock()
	ap.fail = append(ap.fail, 0)
	ap.mu.Unlock()
	g := ap.newGame("f5", nil)
	g.move("d4")
	g.move("d5")
	payload := ap.movePayload("f5", 48)
	ap.mu.Lock()
	ap.games["f5"] = newAPGame(nil) // the hung call's move goes to a throw-away game
	ap.games["f5"].move("d4")
	ap.games["f5"].move("d5")
	ap.mu.Unlock()
	go func() {
		// Once the hung call has taken its move, the real game is back.
		ap.waitMove(t, "f5", 1)
		ap.mu.Lock()
		ap.games["f5"] = g
		ap.mu.Unlock()
	}()
	if code, _ := ap.webhook(t, tb.url, payload); code != http.StatusAccepted {
		t.Fatal(code)
	}
	tb.waitCount(t, "konane_bot_moves_total", "delivered", 2)
	tb.Wait()
	log := tb.log.String()
	for _, want := range []string{"MOVE LOST", "probably delivered", "retrying"} {
		if !strings.Contains(log, want) {
			t.Errorf("the log has no %q:\n%s", want, log)
		}
	}
}

func TestTokenEndpointRefuses(t *testing.T) {
	ap := newFakeAP(t)
	ap.secret = "rotated" // the bot's secret is no longer valid
	tb := newTestBot(t, ap, nil)
	playOne(t, tb, "r1", Lost, 1)
}

func TestDuplicateMove(t *testing.T) {
	ap := newFakeAP(t)
	tb := newTestBot(t, ap, nil)
	g := ap.newGame("dup", nil)
	g.move("c3")
	payload := ap.movePayload("dup", 48)
	for range 3 { // each signed anew: three webhooks, one position
		if code, body := ap.webhook(t, tb.url, payload); code != http.StatusAccepted {
			t.Fatalf("%d %s", code, body)
		}
	}
	tb.Wait()
	if got := tb.count(t, "konane_bot_moves_total", "duplicate"); got != 2 {
		t.Errorf("%v duplicates, want 2", got)
	}
	ap.mu.Lock()
	defer ap.mu.Unlock()
	if n := len(ap.moves["dup"]); n != 1 {
		t.Errorf("%d moves submitted, want 1", n)
	}
}

func TestMovesInFlightBound(t *testing.T) {
	ap := newFakeAP(t)
	tb := newTestBot(t, ap, func(c *Config, _ *ClientConfig) { c.MaxSearches, c.MaxPending = 1, 1 })
	ap.failNext(0)
	ap.newGame("b1", nil)
	if code, _ := ap.webhook(t, tb.url, ap.movePayload("b1", 48)); code != http.StatusAccepted {
		t.Fatal(code)
	}
	ap.waitMove(t, "b1", 1)
	ap.newGame("b2", nil)
	if code, body := ap.webhook(t, tb.url, ap.movePayload("b2", 48)); code != http.StatusServiceUnavailable {
		t.Errorf("over the bound: %d %s, want 503", code, body)
	}
	if got := tb.count(t, "konane_bot_moves_total", "refused"); got != 1 {
		t.Errorf("%v refused, want 1", got)
	}
}

// TestDrain: on the end of Serve's context the bot fails /readyz, refuses
// webhooks, submits the move in flight, then returns.
func TestDrain(t *testing.T) {
	ap := newFakeAP(t)
	ap.delay = 400 * time.Millisecond // the move in flight takes this long
	tb := newTestBot(t, ap, nil)
	ln, err := listen()
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String() + "/"
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- tb.Serve(ctx, ln, "", "") }()
	ap.newGame("d1", nil)
	if code, _ := ap.webhook(t, url, ap.movePayload("d1", 48)); code != http.StatusAccepted {
		t.Fatal(code)
	}
	cancel()
	deadline := time.Now().Add(5 * time.Second)
	for {
		resp, err := http.Get(url + "readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusServiceUnavailable {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("/readyz does not fail while draining")
		}
		time.Sleep(5 * time.Millisecond)
	}
	ap.newGame("d2", nil)
	if code, _ := ap.webhook(t, url, ap.movePayload("d2", 48)); code != http.StatusServiceUnavailable {
		t.Errorf("a move while draining: %d, want 503", code)
	}
	if resp, err := http.Get(url); err == nil {
		if resp.StatusCode != http.StatusServiceUnavailable {
			t.Errorf("ping while draining: %d, want 503", resp.StatusCode)
		}
		resp.Body.Close()
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	ap.mu.Lock()
	defer ap.mu.Unlock()
	if len(ap.moves["d1"]) != 1 || len(ap.moves["d2"]) != 0 {
		t.Errorf("moves submitted: d1 %v, d2 %v; want the move in flight only", ap.moves["d1"], ap.moves["d2"])
	}
}

func TestThinkTime(t *testing.T) {
	for _, c := range []struct {
		move  time.Duration
		clock float64
		want  time.Duration
	}{
		{5 * time.Second, 48, 5 * time.Second},
		{5 * time.Second, 2, 5 * time.Second},
		{5 * time.Second, 1, time.Second},
		{5 * time.Second, 0, time.Second},
		{300 * time.Millisecond, 0, 300 * time.Millisecond},
	} {
		if got := ThinkTime(c.move, c.clock); got != c.want {
			t.Errorf("ThinkTime(%v, %v) = %v, want %v", c.move, c.clock, got, c.want)
		}
	}
}

func listen() (stdnet.Listener, error) { return stdnet.Listen("tcp", "127.0.0.1:0") }
