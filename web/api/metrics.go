package api

import (
	"fmt"

	"github.com/konanezero/konane/agent"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
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

// newMetrics makes the metrics of a service with engines; capacity is
// the admission's budget, ready whether the service takes new searches
// and trees the size of the tree cache.
func newMetrics(engines *agent.Engines, capacity int64, ready func() bool, trees func() int) *metrics {
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
		func() float64 { return float64(capacity) }))
	reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "konane_ready",
		Help: "1 while the server takes new games (not draining)."},
		func() float64 {
			if ready() {
				return 1
			}
			return 0
		}))
	reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "konane_tree_cache_size",
		Help: "Search trees kept by the tree cache."}, func() float64 { return float64(trees()) }))
	for _, size := range engines.Sizes() {
		e, _ := engines.Get(size)
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
