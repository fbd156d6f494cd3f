package api

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/konanezero/konane/internal/probe"
	"github.com/konanezero/konane/web/messages"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// MetricsHandler serves the metrics in the Prometheus text format; the
// server's Handler serves it at /metrics too unless Config.MetricsApart.
func (s *Service) MetricsHandler() http.Handler {
	return probe.ReadOnly(promhttp.HandlerFor(s.metrics.reg, promhttp.HandlerOpts{}))
}

// endpoint names a request for the metrics and the log, from a fixed set
// (so that a scan of made-up paths adds no series): the endpoint of the
// API the request named (noteEndpoint), else by its path.
func endpoint(ri *reqInfo, path string) string {
	switch {
	case ri.endpoint != "":
		return ri.endpoint
	case path == "/":
		return "page"
	case path == "/healthz" || path == "/readyz" || path == "/metrics":
		return path[1:]
	case strings.HasPrefix(path, "/api/v2/"):
		return "api/other"
	case strings.HasPrefix(path, "/api/"):
		return "api/v1"
	}
	return "static"
}

// reqInfo is what a handler tells the request log: the API's endpoint
// ("v2/new") and the level searched.
type reqInfo struct{ endpoint, level string }

type infoKey struct{}

// noteEndpoint records the endpoint of the API a request named, for its
// log line and metrics.
func noteEndpoint(ctx context.Context, name string) {
	if ri, ok := ctx.Value(infoKey{}).(*reqInfo); ok {
		ri.endpoint = name
	}
}

// noteLevel records the level of the request's search for its log line.
func noteLevel(ctx context.Context, level string) {
	if ri, ok := ctx.Value(infoKey{}).(*reqInfo); ok {
		ri.level = level
	}
}

// statusWriter remembers the status of an answer.
type statusWriter struct {
	http.ResponseWriter
	code int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// observe counts every request in the metrics and logs it (Config.Logger)
// as a summary, not line by line: every answer of ours that failed (5xx)
// at error level, and of the others at most one line a minute for each
// endpoint and status (the first of the minute), whose "requests" counts
// the requests of that endpoint and status since the previous line. A
// line holds the request's id (the client's X-Request-Id if it is a short
// token, else a new one; sent back in X-Request-Id), method, endpoint,
// status, duration and the level searched. It logs no moves and no
// addresses. The probes and /metrics log at debug level.
func (s *Service) observe(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := r.Header.Get("X-Request-Id")
		if !tokenLike(id) {
			var b [8]byte
			rand.Read(b[:])
			id = hex.EncodeToString(b[:])
		}
		w.Header().Set("X-Request-Id", id)
		ri := &reqInfo{}
		sw := &statusWriter{ResponseWriter: w}
		h.ServeHTTP(sw, r.WithContext(context.WithValue(r.Context(), infoKey{}, ri)))
		if sw.code == 0 {
			sw.code = http.StatusOK
		}
		ep := endpoint(ri, r.URL.Path)
		s.metrics.requests.WithLabelValues(ep, fmt.Sprint(sw.code)).Inc()
		if s.cfg.Logger == nil {
			return
		}
		lvl := slog.LevelInfo
		if ep == "healthz" || ep == "readyz" || ep == "metrics" {
			lvl = slog.LevelDebug
		}
		n := int64(1)
		if sw.code >= 500 {
			lvl = slog.LevelError
		} else if n = s.accessLog.due(ep, sw.code, start); n == 0 {
			return
		}
		attrs := []slog.Attr{slog.String("id", id), slog.String("method", r.Method), slog.String("endpoint", ep),
			slog.Int("status", sw.code), slog.Float64("duration_s", time.Since(start).Seconds()), slog.Int64("requests", n)}
		if ri.level != "" {
			attrs = append(attrs, slog.String("level", ri.level))
		}
		s.cfg.Logger.LogAttrs(r.Context(), lvl, "request", attrs...)
	})
}

// accessSummary decides which requests the log shows (see observe).
type accessSummary struct {
	mu   sync.Mutex
	keys map[accessKey]*accessCount
}

type accessKey struct {
	endpoint string
	code     int
}

type accessCount struct {
	last time.Time // of the key's last line
	n    int64     // requests since it
}

// accessEvery is how often at most the log shows a line for one endpoint
// and status.
const accessEvery = time.Minute

// due counts a request of endpoint ep answered with code at now, and
// returns 0 when it is not logged, else the requests its line stands for.
func (a *accessSummary) due(ep string, code int, now time.Time) int64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.keys == nil {
		a.keys = map[accessKey]*accessCount{}
	}
	c := a.keys[accessKey{ep, code}]
	if c == nil {
		c = &accessCount{}
		a.keys[accessKey{ep, code}] = c
	}
	c.n++
	if !c.last.IsZero() && now.Sub(c.last) < accessEvery {
		return 0
	}
	n := c.n
	c.last, c.n = now, 0
	return n
}

// tokenLike reports whether a client's request id may go into the log:
// 1..64 characters of [A-Za-z0-9._-].
func tokenLike(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// search runs run, a search of the request of the kind named ("move",
// "eval", "coach", "hint", or a review's) at level: admitted for units
// simulation units (Config's budget; refused while draining: that error
// is returned, and run does not run), given a context of r that ends
// after timeout, its time observed in the search metric under kind and
// level whatever it returns. run's error is returned as it is: run
// phrases it for the API. A game's search counts game.units of its
// simulations: more than one a simulation above 8x8.
func (s *Service) search(r *http.Request, kind, level string, units int, timeout time.Duration, run func(ctx context.Context) error) error {
	noteLevel(r.Context(), level)
	if s.draining.Load() {
		s.metrics.refused.WithLabelValues("draining").Inc()
		return &apiError{code: http.StatusServiceUnavailable, retry: 1, msg: messages.New("error.busy", "seconds", "1")}
	}
	release, err := s.admit.acquire(r.Context(), s.client(r), units)
	if err != nil {
		return err
	}
	defer release()
	ctx, cancel := context.WithTimeout(r.Context(), timeout)
	defer cancel()
	start := time.Now()
	err = run(ctx)
	s.metrics.search.WithLabelValues(kind, level).Observe(time.Since(start).Seconds())
	return err
}
