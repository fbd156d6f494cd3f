package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestAdmission: searches weigh their simulations; beyond the budget they
// queue, first come first served, for at most the wait; beyond the queue
// they are refused at once; a client has at most its in-flight requests.
func TestAdmission(t *testing.T) {
	ctx := t.Context()
	a := newAdmission(1024, 2, 200*time.Millisecond, 3, observer{})
	r1, err := a.acquire(ctx, "a", 512)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := a.acquire(ctx, "b", 512)
	if err != nil {
		t.Fatal(err)
	}
	// A search beyond the budget weighs the whole budget: it waits.
	got := make(chan error, 2)
	var order []string
	var mu sync.Mutex
	for _, c := range []string{"c", "d"} {
		go func() {
			r, err := a.acquire(ctx, c, 8192)
			if err == nil {
				mu.Lock()
				order = append(order, c)
				mu.Unlock()
				time.Sleep(10 * time.Millisecond)
				r()
			}
			got <- err
		}()
		time.Sleep(20 * time.Millisecond)
	}
	// The queue is full: refused at once.
	start := time.Now()
	_, err = a.acquire(ctx, "e", 16)
	var ae *apiError
	if !errorsAs(err, &ae) || ae.code != 503 || ae.msg.Code != "error.busy" || time.Since(start) > 50*time.Millisecond {
		t.Errorf("beyond the queue: %v after %v", err, time.Since(start))
	}
	r1()
	r2()
	for range 2 {
		if err := <-got; err != nil {
			t.Errorf("a queued search: %v", err)
		}
	}
	if strings.Join(order, "") != "cd" {
		t.Errorf("admitted in the order %v, want c, d", order)
	}
	// The wait is bounded.
	r3, _ := a.acquire(ctx, "a", 1024)
	start = time.Now()
	if _, err := a.acquire(ctx, "b", 16); !errorsAs(err, &ae) || ae.code != 503 || time.Since(start) < 150*time.Millisecond {
		t.Errorf("after the wait: %v after %v", err, time.Since(start))
	}
	r3()
	// Per client.
	var rs []func()
	for range 3 {
		r, err := a.acquire(ctx, "f", 16)
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	if _, err := a.acquire(ctx, "f", 16); !errorsAs(err, &ae) || ae.code != 429 || ae.msg.Code != "error.clientBusy" {
		t.Errorf("a fourth request of one client: %v", err)
	}
	for _, r := range rs {
		r()
		r() // twice is harmless
	}
	if a.used != 0 || len(a.clients) != 0 || len(a.waiters) != 0 {
		t.Errorf("after all: used %d, clients %v, waiters %d", a.used, a.clients, len(a.waiters))
	}
}

func errorsAs(err error, ae **apiError) bool {
	e, ok := err.(*apiError)
	if ok {
		*ae = e
	}
	return ok
}

// TestBusyAnswer: a full server answers 503 with Retry-After and the
// message in the request's language.
func TestBusyAnswer(t *testing.T) {
	ts := newTestServer(t, Config{Searches: 1, QueueWait: 10 * time.Millisecond})
	release, err := ts.admit.acquire(t.Context(), "192.0.2.1", 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	req, _ := http.NewRequest("POST", ts.url+"/api/v2/new", strings.NewReader(`{"size":6,"color":"white","level":"easy"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept-Language", "de")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var e errJSON
	json.NewDecoder(resp.Body).Decode(&e)
	resp.Body.Close()
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") != "1" || e.Code != "error.busy" || !strings.Contains(e.Error, "ausgelastet") {
		t.Errorf("busy: %d, Retry-After %q, %+v", resp.StatusCode, resp.Header.Get("Retry-After"), e)
	}
}

// TestProbesMetricsLogs: /healthz and /readyz, the metrics scraped after
// a game's requests, JSON log lines (a summary) without moves or
// addresses; on Drain,
// readiness fails and searches are refused while the rest is served.
func TestProbesMetricsLogs(t *testing.T) {
	var logs bytes.Buffer
	var mu sync.Mutex
	logger := slog.New(slog.NewJSONHandler(lockedWriter{&mu, &logs}, nil))
	ts := newTestServer(t, Config{Logger: logger})
	get := func(path string) (int, string, http.Header) {
		resp, err := http.Get(ts.url + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), resp.Header
	}
	for _, p := range []string{"/healthz", "/readyz"} {
		if code, body, _ := get(p); code != 200 || body != "ok\n" {
			t.Errorf("%s: %d %q", p, code, body)
		}
	}
	st := ts.mustState(t, "/api/v2/new", `{"size":6,"color":"white","level":"easy"}`)
	ts.mustState(t, "/api/v2/move", jsonBody(moveRequest{Game: st.Game, Move: st.Legal[0]}))
	code, metrics, _ := get("/metrics")
	for _, want := range []string{
		`konane_http_requests_total{code="200",endpoint="v2/new"} 1`,
		`konane_http_requests_total{code="200",endpoint="v2/move"} 1`,
		`konane_search_seconds_count{kind="move",level="easy"} 2`,
		`konane_search_seconds_count{kind="eval",level="easy"} 2`, // below medium: each move's evaluation (evalAfter)
		`konane_admitted_total 4`,
		`konane_admission_queue 0`,
		`konane_tree_cache_total{result="hit"} 3`,
		`konane_evaluator_batches_total{size="6"}`,
		`konane_ready 1`,
		`process_resident_memory_bytes`,
	} {
		if code != 200 || !strings.Contains(metrics, want) {
			t.Errorf("metrics (%d) lack %s", code, want)
		}
	}
	mu.Lock()
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	mu.Unlock()
	var moveLine map[string]any
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("log line %q: %v", l, err)
		}
		if m["endpoint"] == "v2/move" {
			moveLine = m
		}
		for _, bad := range append(st.Game.Moves, "127.0.0.1", st.Legal[0]) {
			if strings.Contains(l, `"`+bad+`"`) || strings.Contains(l, bad+`"`) && bad == "127.0.0.1" {
				t.Errorf("log line %s names %s", l, bad)
			}
		}
	}
	if moveLine == nil || moveLine["status"] != float64(200) || moveLine["level"] != "easy" || moveLine["id"] == "" || moveLine["duration_s"] == nil || moveLine["msg"] != "request" {
		t.Errorf("log line of the move: %v (of %d lines)", moveLine, len(lines))
	}
	// Draining.
	ts.Drain()
	if code, _, _ := get("/readyz"); code != 503 {
		t.Errorf("/readyz while draining: %d", code)
	}
	if code, _, _ := get("/healthz"); code != 200 {
		t.Errorf("/healthz while draining: %d", code)
	}
	var e errJSON
	if code := ts.call(t, "/api/v2/move", jsonBody(moveRequest{Game: st.Game, Move: st.Legal[0]}), &e); code != 503 || e.Code != "error.busy" {
		t.Errorf("a move while draining: %d %+v", code, e)
	}
	if code := ts.call(t, "/api/v2/state", jsonBody(gameRequest{st.Game}), &st); code != 200 {
		t.Errorf("a state while draining: %d", code)
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

// TestEndpointLabels: a request is counted under the endpoint of the API
// it names (whatever its method), else under a fixed name by its path.
func TestEndpointLabels(t *testing.T) {
	ts := newTestServer(t, Config{})
	for _, p := range []string{"/api/v2/new", "/api/v2/nope", "/api/move", "/app.js", "/healthz"} {
		resp, err := http.Get(ts.url + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	resp, err := http.Get(ts.url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	metrics, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{
		`konane_http_requests_total{code="405",endpoint="v2/new"} 1`,
		`konane_http_requests_total{code="404",endpoint="api/other"} 1`,
		`konane_http_requests_total{code="410",endpoint="api/v1"} 1`,
		`konane_http_requests_total{code="404",endpoint="static"} 1`,
		`konane_http_requests_total{code="200",endpoint="healthz"} 1`,
	} {
		if !strings.Contains(string(metrics), want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

// TestCrossSiteRefused: a POST whose body is not declared JSON (what a
// form or a "simple" cross-site request sends without a preflight) runs
// no search, and the probes and metrics answer GET and HEAD only
// (issue 47).
func TestCrossSiteRefused(t *testing.T) {
	ts := newTestServer(t, Config{})
	body := `{"size":6,"color":"white","level":"easy"}`
	for _, ct := range []string{"", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"} {
		req, _ := http.NewRequest("POST", ts.url+"/api/v2/new", strings.NewReader(body))
		if ct != "" {
			req.Header.Set("Content-Type", ct)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnsupportedMediaType {
			t.Errorf("POST /api/v2/new as %q: %d, want 415", ct, resp.StatusCode)
		}
	}
	req, _ := http.NewRequest("POST", ts.url+"/api/v2/new", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 200 {
		t.Fatalf("POST as JSON: %v, %v", resp.StatusCode, err)
	}
	for _, path := range []string{"/healthz", "/readyz", "/metrics"} {
		for _, method := range []string{"POST", "PUT", "DELETE", "TRACE"} {
			req, _ := http.NewRequest(method, ts.url+path, nil)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "GET, HEAD" {
				t.Errorf("%s %s: %d, want 405", method, path, resp.StatusCode)
			}
		}
		req, _ := http.NewRequest("HEAD", ts.url+path, nil)
		if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 200 {
			t.Errorf("HEAD %s: %v", path, err)
		}
	}
}

// TestClientGoneNotAFault: a search whose client left is answered (to no
// one) and counted as 499, not as a 500 (issue 47).
func TestClientGoneNotAFault(t *testing.T) {
	ts := newTestServer(t, Config{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := httptest.NewRequest("POST", "/api/v2/move", nil).WithContext(ctx)
	w := httptest.NewRecorder()
	ts.writeError(w, r, fmt.Errorf("mcts: evaluate: %w", context.Canceled))
	if w.Code != StatusClientGone {
		t.Errorf("a search whose client left: %d, want %d", w.Code, StatusClientGone)
	}
	w = httptest.NewRecorder()
	ts.writeError(w, httptest.NewRequest("POST", "/api/v2/move", nil), errors.New("a fault"))
	if w.Code != 500 {
		t.Errorf("a fault: %d, want 500", w.Code)
	}
}

// TestAccessLogSummarised: the log shows one line a minute for an
// endpoint and status, not one per request (issue 47), and counts the
// requests it stands for.
func TestAccessLogSummarised(t *testing.T) {
	var logs bytes.Buffer
	var mu sync.Mutex
	ts := newTestServer(t, Config{Logger: slog.New(slog.NewJSONHandler(lockedWriter{&mu, &logs}, nil))})
	for range 50 {
		resp, err := http.Get(ts.url + "/api/v2/config")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	mu.Lock()
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	mu.Unlock()
	if len(lines) != 1 || !strings.Contains(lines[0], `"endpoint":"v2/config"`) || !strings.Contains(lines[0], `"requests":1`) {
		t.Fatalf("50 requests logged as %d lines: %q", len(lines), lines)
	}
	var a accessSummary
	now := time.Now()
	for i, want := range []int64{1, 0, 0} {
		if n := a.due("v2/move", 200, now.Add(time.Duration(i)*time.Second)); n != want {
			t.Errorf("request %d: due %d, want %d", i, n, want)
		}
	}
	if n := a.due("v2/move", 200, now.Add(accessEvery)); n != 3 {
		t.Errorf("a minute later: due %d, want 3 (the requests since the last line)", n)
	}
}

// TestClientShare: one client holds at most half the budget, so that its
// long searches leave room for the others' (issue 47); its first request
// is admitted whatever it weighs.
func TestClientShare(t *testing.T) {
	ctx := t.Context()
	a := newAdmission(1024, 8, 50*time.Millisecond, 4, observer{})
	r1, err := a.acquire(ctx, "greedy", 400)
	if err != nil {
		t.Fatal(err)
	}
	var ae *apiError
	if _, err := a.acquire(ctx, "greedy", 400); !errorsAs(err, &ae) || ae.code != 429 || ae.msg.Code != "error.clientBusy" || ae.msg.Args["max"] != "1" {
		t.Fatalf("a client beyond half the budget: %v, want 429", err)
	}
	for range 3 {
		r, err := a.acquire(ctx, "other", 100)
		if err != nil {
			t.Fatalf("another client's search: %v", err)
		}
		defer r()
	}
	r1()
	r2, err := a.acquire(ctx, "greedy", 1024) // alone: the whole budget once there is room
	if err == nil {
		r2()
	} else if !errorsAs(err, &ae) || ae.code != 503 {
		t.Fatalf("a client's first search of the whole budget: %v", err)
	}
}

// TestFailedFirstMoveTakesNothingBack: when the computer cannot play the
// first move of a new game (the human plays White), the message does not
// say that the human's move was taken back (issue 47).
func TestFailedFirstMoveTakesNothingBack(t *testing.T) {
	ts := newTestServer(t, Config{MoveTimeout: time.Nanosecond})
	var e errJSON
	code := ts.call(t, "/api/v2/new", `{"size":6,"color":"white","level":"easy"}`, &e)
	if code != 503 || e.Code != "error.agentFailedNoTakeBack" || strings.Contains(e.Error, "taken back") {
		t.Errorf("a new game as White whose first move fails: %d %+v", code, e)
	}
}
