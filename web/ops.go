package web

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are the server's Prometheus metrics, in a registry of its own
// (so that servers in one process, as in tests, do not collide).
type metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec   // by endpoint and status code
	search   *prometheus.HistogramVec // seconds, by kind and level
	queue    prometheus.Gauge
	units    prometheus.Gauge
	admitted prometheus.Counter
	refused  *prometheus.CounterVec // by reason
	trees    *prometheus.CounterVec // by result: hit, miss
}

func newMetrics(s *Server) *metrics {
	reg := prometheus.NewRegistry()
	m := &metrics{
		reg: reg,
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "konane_http_requests_total",
			Help: "HTTP requests answered, by endpoint and status code."}, []string{"endpoint", "code"}),
		search: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "konane_search_seconds",
			Help:    "Time of the searches admitted (the agent's moves, hints, reviews), by kind and level.",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 120}}, []string{"kind", "level"}),
		queue: prometheus.NewGauge(prometheus.GaugeOpts{Name: "konane_admission_queue",
			Help: "Searches waiting for room."}),
		units: prometheus.NewGauge(prometheus.GaugeOpts{Name: "konane_admission_units_in_use",
			Help: "Simulation units of the searches running (of konane_admission_capacity_units)."}),
		admitted: prometheus.NewCounter(prometheus.CounterOpts{Name: "konane_admitted_total",
			Help: "Searches admitted."}),
		refused: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "konane_refused_total",
			Help: "Searches refused, by reason: queue (full), wait (over), client (its in-flight limit), gone (the client left), draining."}, []string{"reason"}),
		trees: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "konane_tree_cache_total",
			Help: "Look-ups of the tree cache, by result (hit, miss)."}, []string{"result"}),
	}
	reg.MustRegister(m.requests, m.search, m.queue, m.units, m.admitted, m.refused, m.trees,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "konane_admission_capacity_units",
		Help: "Simulation units that may run at once (searches × the default level's simulations)."},
		func() float64 { return float64(s.admit.capacity) }))
	reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "konane_ready",
		Help: "1 while the server takes new games (not draining)."},
		func() float64 {
			if s.ready() {
				return 1
			}
			return 0
		}))
	reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "konane_tree_cache_size",
		Help: "Search trees kept by the tree cache."}, func() float64 { return float64(s.trees.len()) }))
	for _, size := range s.cfg.Engines.Sizes() {
		e, _ := s.cfg.Engines.Get(size)
		labels := prometheus.Labels{"size": fmt.Sprint(size)}
		reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "konane_evaluator_batches_total",
			Help: "Network runs of the evaluator, by board size (mean batch = positions / batches).", ConstLabels: labels},
			func() float64 { return float64(e.Stats().Batches) }))
		reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "konane_evaluator_positions_total",
			Help: "Positions run through the network, by board size.", ConstLabels: labels},
			func() float64 { return float64(e.Stats().NetPositions) }))
	}
	return m
}

// observer connects the admission to the metrics.
func (m *metrics) observer() observer {
	return observer{
		admitted: m.admitted.Inc,
		refused:  func(reason string) { m.refused.WithLabelValues(reason).Inc() },
		queued:   func(n int) { m.queue.Set(float64(n)) },
		inFlight: func(u int64) { m.units.Set(float64(u)) },
	}
}

func (m *metrics) treeHit(hit bool) {
	if hit {
		m.trees.WithLabelValues("hit").Inc()
	} else {
		m.trees.WithLabelValues("miss").Inc()
	}
}

// MetricsHandler serves the metrics in the Prometheus text format; the
// server's Handler serves it at /metrics too unless Config.MetricsApart.
func (s *Server) MetricsHandler() http.Handler {
	return promhttp.HandlerFor(s.metrics.reg, promhttp.HandlerOpts{})
}

// ready reports whether the server takes new searches: its models are
// loaded (New needs them) and it is not draining.
func (s *Server) ready() bool { return !s.draining.Load() }

// Drain fails the readiness probe and refuses new searches from now on
// (503 with Retry-After); requests in flight finish. Serve drains when its
// context ends.
func (s *Server) Drain() { s.draining.Store(true) }

// probes answers /healthz (the process serves) and /readyz (it takes new
// games).
func (s *Server) probes(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if r.URL.Path == "/readyz" && !s.ready() {
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintln(w, "draining")
		return
	}
	fmt.Fprintln(w, "ok")
}

// endpoint names a path for the metrics and the log, from a fixed set
// (so that a scan of made-up paths adds no series).
func endpoint(path string) string {
	switch {
	case path == "/":
		return "page"
	case path == "/healthz" || path == "/readyz" || path == "/metrics":
		return path[1:]
	case strings.HasPrefix(path, "/api/v2/"):
		name := strings.TrimPrefix(path, "/api/v2/")
		if _, ok := v2Names[name]; ok {
			return "v2/" + name
		}
		return "api/other"
	case strings.HasPrefix(path, "/api/"):
		return "api/v1"
	}
	return "static"
}

// reqInfo is what a handler tells the request log: the level searched.
type reqInfo struct{ level string }

type infoKey struct{}

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

// observe counts every request in the metrics and logs one line for it
// (Config.Logger): its id (the client's X-Request-Id if it is a short
// token, else a new one; sent back in X-Request-Id), method, endpoint,
// status, duration and the level searched. It logs no moves and no
// addresses. The probes and /metrics log at debug level.
func (s *Server) observe(h http.Handler) http.Handler {
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
		ep := endpoint(r.URL.Path)
		s.metrics.requests.WithLabelValues(ep, fmt.Sprint(sw.code)).Inc()
		if s.cfg.Logger == nil {
			return
		}
		lvl := slog.LevelInfo
		if ep == "healthz" || ep == "readyz" || ep == "metrics" {
			lvl = slog.LevelDebug
		}
		attrs := []slog.Attr{slog.String("id", id), slog.String("method", r.Method), slog.String("endpoint", ep),
			slog.Int("status", sw.code), slog.Float64("duration_s", time.Since(start).Seconds())}
		if ri.level != "" {
			attrs = append(attrs, slog.String("level", ri.level))
		}
		s.cfg.Logger.LogAttrs(r.Context(), lvl, "request", attrs...)
	})
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
