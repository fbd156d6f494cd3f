package probe

import (
	"net/http/httptest"
	"strings"
	"testing"
)

func TestHandler(t *testing.T) {
	ready := true
	h := Handler(func() bool { return ready })
	do := func(method, path string) (int, string, string) {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(method, path, nil))
		return w.Code, strings.TrimSpace(w.Body.String()), w.Header().Get("Allow")
	}
	for _, c := range []struct {
		ready        bool
		method, path string
		code         int
		body         string
	}{
		{true, "GET", "/healthz", 200, "ok"},
		{true, "GET", "/readyz", 200, "ok"},
		{true, "HEAD", "/readyz", 200, ""},
		{false, "GET", "/healthz", 200, "ok"},
		{false, "GET", "/readyz", 503, "draining"},
		{true, "POST", "/healthz", 405, "method not allowed: GET or HEAD"},
		{true, "DELETE", "/readyz", 405, "method not allowed: GET or HEAD"},
		{true, "TRACE", "/healthz", 405, "method not allowed: GET or HEAD"},
	} {
		ready = c.ready
		code, body, allow := do(c.method, c.path)
		if code != c.code || (c.method != "HEAD" && body != c.body) {
			t.Errorf("%s %s (ready %v): %d %q, want %d %q", c.method, c.path, c.ready, code, body, c.code, c.body)
		}
		if (code == 405) != (allow == "GET, HEAD") {
			t.Errorf("%s %s: Allow %q with %d", c.method, c.path, allow, code)
		}
	}
}
