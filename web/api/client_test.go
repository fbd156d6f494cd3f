package api

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
)

// TestClientAddress: X-Forwarded-For names the client only when the
// request comes from a trusted proxy, and then only its entries written
// by trusted proxies count; IPv6 clients count by their /64.
func TestClientAddress(t *testing.T) {
	proxies, err := ParseProxies("10.0.0.1, 192.168.0.0/16")
	if err != nil {
		t.Fatal(err)
	}
	s := &Service{cfg: Config{TrustedProxies: proxies}}
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
	req, _ := http.NewRequest("POST", ts.url+"/api/v2/new", strings.NewReader(`{"size":6,"color":"white","level":"easy"}`))
	req.Header.Set("Content-Type", "application/json")
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

// TestPerClientLimit: one client has at most MaxPerClient requests in
// flight (429 beyond), told apart behind trusted proxies only.
func TestPerClientLimit(t *testing.T) {
	ts := newTestServer(t, Config{MaxPerClient: 2})
	hold := func(client string) func() {
		var rs []func()
		for range 2 {
			r, err := ts.admit.acquire(t.Context(), client, 16)
			if err != nil {
				t.Fatal(err)
			}
			rs = append(rs, r)
		}
		return func() {
			for _, r := range rs {
				r()
			}
		}
	}
	release := hold("127.0.0.1")
	code, e := newGameFrom(t, ts, "1.2.3.4") // an untrusted header changes nothing
	if code != http.StatusTooManyRequests || e.Code != "error.clientBusy" || !strings.Contains(e.Error, "You already have 2 requests running") {
		t.Fatalf("a third request from one client: %d %+v", code, e)
	}
	release()
	if code, e := newGameFrom(t, ts, ""); code != 200 {
		t.Fatalf("once the others finished: %d %+v", code, e)
	}

	// Behind a trusted proxy (the test client's loopback address), the
	// clients are those the proxy names.
	ts = newTestServer(t, Config{MaxPerClient: 2,
		TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}})
	defer hold("1.2.3.4")()
	for _, tc := range []struct {
		xff  string
		code int
	}{
		{"1.2.3.4", 429},
		{"6.6.6.6, 1.2.3.4", 429}, // a forged entry left of the proxy's
		{"5.6.7.8", 200},
		{"1.2.3.4, 5.6.7.8", 200},
	} {
		if code, e := newGameFrom(t, ts, tc.xff); code != tc.code {
			t.Errorf("X-Forwarded-For %q: %d %+v, want %d", tc.xff, code, e, tc.code)
		}
	}
}
