package web

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/konanezero/konane/agent/agenttest"
)

// TestClientAddress: X-Forwarded-For names the client only when the
// request comes from a trusted proxy, and then only its entries written
// by trusted proxies count; IPv6 clients count by their /64.
func TestClientAddress(t *testing.T) {
	proxies, err := ParseProxies("10.0.0.1, 192.168.0.0/16")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{cfg: Config{TrustedProxies: proxies}}
	for _, tc := range []struct {
		remote, xff, want string
	}{
		{"203.0.113.7:5000", "", "203.0.113.7"},
		{"203.0.113.7:5000", "1.2.3.4", "203.0.113.7"}, // not from a proxy: the header is ignored
		{"10.0.0.1:5000", "1.2.3.4", "1.2.3.4"},
		{"10.0.0.1:5000", "9.9.9.9, 1.2.3.4", "1.2.3.4"},              // the client wrote 9.9.9.9 itself
		{"10.0.0.1:5000", "9.9.9.9, 1.2.3.4, 192.168.1.1", "1.2.3.4"}, // two proxies
		{"10.0.0.1:5000", "", "10.0.0.1"},
		{"10.0.0.2:5000", "1.2.3.4", "10.0.0.2"},
		{"[2001:db8:1:2:3:4:5:6]:443", "", "2001:db8:1:2::/64"},
		{"[::ffff:203.0.113.7]:80", "", "203.0.113.7"},
	} {
		r := httptest.NewRequest("POST", "/api/new", nil)
		r.RemoteAddr = tc.remote
		if tc.xff != "" {
			r.Header.Set("X-Forwarded-For", tc.xff)
		}
		if got := s.client(r); got != tc.want {
			t.Errorf("%s, X-Forwarded-For %q: client %q, want %q", tc.remote, tc.xff, got, tc.want)
		}
	}
	if _, err := ParseProxies("10.0.0.1, nonsense"); err == nil {
		t.Error("ParseProxies accepted nonsense")
	}
}

// newGameFrom posts /api/new with an X-Forwarded-For header; it returns
// the status and the error code of the answer.
func newGameFrom(t *testing.T, ts *testServer, xff string) (int, errJSON) {
	t.Helper()
	req, _ := http.NewRequest("POST", ts.url+"/api/new", strings.NewReader(`{"size":6,"level":"easy"}`))
	if xff != "" {
		req.Header.Set("X-Forwarded-For", xff)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var e errJSON
	json.NewDecoder(resp.Body).Decode(&e)
	if resp.StatusCode == http.StatusTooManyRequests && resp.Header.Get("Retry-After") == "" {
		t.Error("429 without Retry-After")
	}
	return resp.StatusCode, e
}

// TestPerClientLimit: one client cannot fill the store (before, 200 new
// games from one address left everyone else 503 for an hour).
func TestPerClientLimit(t *testing.T) {
	ts := newTestServer(t, Config{MaxSessions: 10, MaxPerClient: 3, IdleTimeout: time.Hour})
	for i := 0; i < 3; i++ {
		if code, e := newGameFrom(t, ts, ""); code != 200 {
			t.Fatalf("game %d: %d %+v", i+1, code, e)
		}
	}
	code, e := newGameFrom(t, ts, "1.2.3.4") // an untrusted header changes nothing
	if code != http.StatusTooManyRequests || e.Code != "error.clientFull" || !strings.Contains(e.Error, "You already have 3 games open") {
		t.Fatalf("a fourth game from one client: %d %+v", code, e)
	}
	if n := ts.Sessions(); n != 3 {
		t.Errorf("%d sessions held, want 3", n)
	}

	// Behind a trusted proxy (the test client's loopback address), the
	// clients are those the proxy names.
	ts = newTestServer(t, Config{MaxSessions: 10, MaxPerClient: 2, IdleTimeout: time.Hour,
		TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}})
	for _, tc := range []struct {
		xff  string
		code int
	}{
		{"1.2.3.4", 200}, {"1.2.3.4", 200}, {"1.2.3.4", 429},
		{"6.6.6.6, 1.2.3.4", 429}, // a forged entry left of the proxy's
		{"5.6.7.8", 200},
	} {
		if code, e := newGameFrom(t, ts, tc.xff); code != tc.code {
			t.Errorf("X-Forwarded-For %q: %d %+v, want %d", tc.xff, code, e, tc.code)
		}
	}
}

// TestUnplayedExpiry: a game in which the human never moved is dropped
// after UnplayedTimeout; one with a move keeps the whole IdleTimeout.
func TestUnplayedExpiry(t *testing.T) {
	ts := newTestServer(t, Config{IdleTimeout: time.Hour, UnplayedTimeout: time.Minute})
	left := ts.mustState(t, "/api/new", `{"size":6,"level":"easy"}`)
	played := ts.mustState(t, "/api/new", `{"size":6,"level":"easy"}`)
	ts.mustState(t, "/api/move", jsonBody(moveRequest{ID: played.ID, Move: played.Legal[0]}))
	ts.clock.Add(61)
	if n := ts.Expire(); n != 1 {
		t.Errorf("expired %d games after 61 s, want 1 (the unplayed one)", n)
	}
	var e errJSON
	if code := ts.call(t, "/api/state?id="+left.ID, "", &e); code != 404 {
		t.Errorf("the unplayed game answered %d after 61 s", code)
	}
	ts.mustState(t, "/api/state?id="+played.ID, "")
	ts.clock.Add(3599)
	ts.mustState(t, "/api/state?id="+played.ID, "") // idle 59m59s: kept, and touched
	ts.clock.Add(3601)
	if n := ts.Expire(); n != 1 {
		t.Errorf("expired %d games after an idle hour, want 1", n)
	}
}

// TestSessionConfigDefaults: the per-client limit and the unplayed
// timeout adapt to smaller totals; explicit values that exceed them are
// refused.
func TestSessionConfigDefaults(t *testing.T) {
	es := agenttest.RunEngines(t)
	s, err := New(Config{Engines: es, MaxSessions: 5, IdleTimeout: 2 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if s.cfg.MaxPerClient != 5 || s.cfg.UnplayedTimeout != 2*time.Minute {
		t.Errorf("adapted defaults: %d per client, %v unplayed", s.cfg.MaxPerClient, s.cfg.UnplayedTimeout)
	}
	s, _ = New(Config{Engines: es})
	if s.cfg.MaxPerClient != DefaultMaxPerClient || s.cfg.UnplayedTimeout != DefaultUnplayedTimeout {
		t.Errorf("defaults: %d per client, %v unplayed", s.cfg.MaxPerClient, s.cfg.UnplayedTimeout)
	}
	for _, cfg := range []Config{
		{Engines: es, MaxSessions: 5, MaxPerClient: 6},
		{Engines: es, IdleTimeout: time.Minute, UnplayedTimeout: 2 * time.Minute},
	} {
		if _, err := New(cfg); err == nil {
			t.Errorf("New(%+v): no error", cfg)
		}
	}
}
